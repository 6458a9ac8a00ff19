#!/usr/bin/env bash
# postgres-cluster.sh NAME PORT USER PASSWORD DB: creates (if missing) and
# starts the PostgreSQL cluster NAME on PORT, then the login role USER with
# PASSWORD and the database DB owned by it. Run as root, under the lock that
# .ci/postgres.sh takes; source .ci/postgres.sh rather than running this.
set -euo pipefail
name=$1 port=$2 user=$3 password=$4 db=$5

if ! command -v pg_createcluster >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi

# The cluster of that name, whatever its version; else create one.
version=$(pg_lsclusters --no-header | awk -v c="$name" '$2 == c { print $1; exit }')
if [ -z "$version" ]; then
    if [ -d /usr/lib/postgresql/15 ]; then
        version=15
    else
        version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    fi
    echo "postgres-cluster.sh: creating cluster $version/$name on port $port"
    pg_createcluster "$version" "$name" -p "$port" >/dev/null
fi
cport=$(pg_lsclusters --no-header | awk -v v="$version" -v c="$name" '$1 == v && $2 == c { print $3 }')
if [ "$cport" != "$port" ]; then
    echo "postgres-cluster.sh: cluster $version/$name listens on $cport, not $port" >&2
    exit 1
fi
if ! pg_lsclusters --no-header | awk -v v="$version" -v c="$name" '$1 == v && $2 == c { print $4 }' | grep -q online; then
    pg_ctlcluster "$version" "$name" start
fi

for _ in $(seq 1 30); do
    pg_isready -q -h localhost -p "$port" && break
    sleep 1
done
pg_isready -q -h localhost -p "$port" || { echo "postgres-cluster.sh: $version/$name does not answer on $port" >&2; exit 1; }

psql() { su postgres -c "psql -X -p $port -v ON_ERROR_STOP=1 $*" </dev/null; }
if ! psql "-tAc \"SELECT 1 FROM pg_roles WHERE rolname = '$user'\"" | grep -q 1; then
    psql "-q -c \"CREATE ROLE $user LOGIN SUPERUSER PASSWORD '$password'\""
fi
if ! psql "-tAc \"SELECT 1 FROM pg_database WHERE datname = '$db'\"" | grep -q 1; then
    su postgres -c "createdb -p $port -O $user $db" </dev/null
fi
