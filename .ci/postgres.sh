#!/usr/bin/env bash
# Sets up a local PostgreSQL for the tests and exports DSOL_TEST_POSTGRES_URL.
# Idempotent: installs the server if missing, starts whatever cluster version is
# installed, creates the dsol role and the dsol_test database if missing.
# Source it (". .ci/postgres.sh") so the export reaches the caller; run as root.

_dsol_pg_setup() {
    local user=dsol password=dsol db=dsol_test port=5432

    if ! command -v pg_lsclusters >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi

    local version cluster
    read -r version cluster _ < <(pg_lsclusters --no-header | head -n 1) || true
    if [ -z "$version" ]; then
        version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
        cluster=main
        pg_createcluster "$version" "$cluster" >/dev/null
    fi
    port=$(pg_lsclusters --no-header | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c { print $3 }')
    if ! pg_lsclusters --no-header | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c { print $4 }' | grep -q online; then
        pg_ctlcluster "$version" "$cluster" start
    fi

    local i
    for i in $(seq 1 30); do
        su postgres -c "pg_isready -q -p $port" && break
        sleep 1
    done

    if ! su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname = '$user'\"" | grep -q 1; then
        su postgres -c "psql -p $port -q -c \"CREATE ROLE $user LOGIN SUPERUSER PASSWORD '$password'\""
    fi
    if ! su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = '$db'\"" | grep -q 1; then
        su postgres -c "createdb -p $port -O $user $db"
    fi

    export DSOL_TEST_POSTGRES_URL="postgres://$user:$password@localhost:$port/$db?sslmode=disable"
    echo "DSOL_TEST_POSTGRES_URL=$DSOL_TEST_POSTGRES_URL"
}

_dsol_pg_setup
unset -f _dsol_pg_setup
