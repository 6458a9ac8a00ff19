#!/usr/bin/env bash
# Sets up the tests' own PostgreSQL cluster and exports DSOL_TEST_POSTGRES_URL.
#
# The cluster is dsol_ci on port 55432, created with pg_createcluster (version
# 15 when installed, else the newest in /usr/lib/postgresql) if it is missing,
# and started if it is down; the dsol role and the dsol_test database are
# created if missing. No other cluster is touched: the default one on 5432
# keeps running, or not, as it was.
#
# Idempotent and safe to source many times, concurrently too: the setup runs
# under an exclusive lock (flock /tmp/dsol-ci-pg.lock) in a child shell, so a
# failure returns non-zero without ending the caller; -o keeps the lock's file
# descriptor out of the server it starts, which would otherwise hold the lock
# for as long as it runs. Installs the server from
# Debian's packages if missing. Source it (". .ci/postgres.sh") so the export
# reaches the caller; run as root.

_dsol_pg_setup() {
    local here port=55432
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    if ! flock -o /tmp/dsol-ci-pg.lock bash "$here/postgres-cluster.sh" dsol_ci "$port" dsol dsol dsol_test; then
        echo "postgres.sh: could not set up the dsol_ci cluster" >&2
        return 1
    fi
    export DSOL_TEST_POSTGRES_URL="postgres://dsol:dsol@localhost:$port/dsol_test?sslmode=disable"
    echo "DSOL_TEST_POSTGRES_URL=$DSOL_TEST_POSTGRES_URL"
}

if ! _dsol_pg_setup; then
    unset -f _dsol_pg_setup
    return 1 2>/dev/null || exit 1 # return when sourced, exit when run
fi
unset -f _dsol_pg_setup
