#!/usr/bin/env bash
# Two builds of dsol under the same load, alternating run by run on one
# machine: each run starts a fresh server of one build on a fresh database,
# plays `dsol load` against it and prints one line of figures.
#
#   scripts/load-ab.sh OLD_BINARY NEW_BINARY [ROUNDS] [MODE] [STORE] [RACES] [DURATION]
#
# MODE is race or race-play, STORE sqlite or postgres (PostgreSQL from
# DSOL_TEST_POSTGRES_URL, as `source .ci/postgres.sh` sets it; each run gets
# a database of its own, dropped after it). The load tool is NEW_BINARY's;
# OLD_LOAD names another one for the old build's runs (to compare two load
# tools, give it and the same server twice).
# SERVE_FLAGS adds flags to both servers, e.g. SERVE_FLAGS="--winnable-target 0"
# to leave the background search for winnable deals out of the server's CPU
# time; OLD_FLAGS and NEW_FLAGS add flags to one build only, for a flag the
# other build does not know.
#
# With PostgreSQL the line also gives the CPU time of the cluster's
# processes per ack over the whole run (setup and warm-up included): the
# server's own figure leaves out the work its queries cost the database.
set -euo pipefail

# pgticks prints the CPU time of every process named postgres, in clock ticks.
pgticks() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk '$2 == "(postgres)" { t += $14 + $15 } END { print t + 0 }'
}
old=$1 new=$2 rounds=${3:-3} mode=${4:-race} db=${5:-sqlite} races=${6:-100} dur=${7:-15s}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for r in $(seq 1 "$rounds"); do
  for b in old new; do
    bin=$old flags=${OLD_FLAGS:-} tool=${OLD_LOAD:-$new}
    [ "$b" = new ] && bin=$new flags=${NEW_FLAGS:-} tool=$new
    port=$((18100 + RANDOM % 800))
    if [ "$db" = sqlite ]; then
      url=$dir/$b-$r.db
    else
      name=dsol_ab_${b}_${r}_$RANDOM
      psql "$DSOL_TEST_POSTGRES_URL" -qc "CREATE DATABASE $name" >/dev/null
      url=$(echo "$DSOL_TEST_POSTGRES_URL" | sed "s#/[^/?]*\(?\|$\)#/$name\1#")
    fi
    DSOL_ACCOUNTS_PER_HOUR=0 "$bin" serve --addr 127.0.0.1:$port --db "$url" --log-level warn --write-rate 100000 --write-burst 100000 \
      --ws-rate 100000 --ws-burst 100000 ${SERVE_FLAGS:-} $flags >"$dir/serve.log" 2>&1 &
    pid=$!
    for _ in $(seq 50); do curl -sf http://127.0.0.1:$port/readyz >/dev/null && break; sleep 0.2; done
    load=$(cut -d' ' -f1 /proc/loadavg)
    pg0=; [ "$db" = sqlite ] || pg0=$(pgticks)
    "$tool" load --mode "$mode" --url http://127.0.0.1:$port --races "$races" --duration "$dur" --setup 3s --pid $pid --json >"$dir/r.json"
    pg=; [ -z "$pg0" ] || pg=$(( $(pgticks) - pg0 ))
    kill $pid; wait $pid 2>/dev/null || true
    [ "$db" = sqlite ] || psql "$DSOL_TEST_POSTGRES_URL" -qc "DROP DATABASE $name" >/dev/null
    python3 - "$dir/r.json" "$b" "$r" "$load" "$pg" "$(getconf CLK_TCK)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
l = r["latencyMs"]
pg = f", postgres {int(sys.argv[5]) / int(sys.argv[6]) * 1e6 / max(r['totalAcks'], 1):.0f} µs per ack (whole run)" if sys.argv[5] else ""
print(f"{sys.argv[2]} round {sys.argv[3]} load {sys.argv[4]}: {r['acksPerSecond']:.0f} acks/s, p50 {l['p50']:.1f} ms, p99 {l['p99']:.1f} ms, "
      f"{r['cpu']['microsPerAck']:.0f} µs CPU per ack (load tool {r['cpu']['loadSeconds'] * 1e6 / max(r['acks'], 1):.0f} µs), "
      f"event p50 {r['eventBytes']['p50']:.0f} B, errors {r['errors']}{pg}")
PY
  done
done
