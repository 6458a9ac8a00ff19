#!/usr/bin/env bash
# Checks the deployment files with the tools that read them, outside any
# container: promtool (configuration, rules and the alert unit tests in
# deploy/prometheus/rules_test.yml), amtool (Alertmanager), nginx -t on
# deploy/nginx/dsol.conf as shipped (only its upstream addresses replaced by
# loopback ones), then a live check: a dsol built from this tree serves every
# metric that the alert rules and the Grafana dashboard use, and nginx with
# the shipped configuration routes to it and refuses /metrics.
#
# Run from the repository root: bash .ci/deploy-check.sh
# Installs what it lacks from Debian's packages (prometheus for promtool,
# prometheus-alertmanager for amtool, nginx, curl) without starting their
# services. Everything it starts listens on 127.0.0.1 and is stopped at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
export DEBIAN_FRONTEND=noninteractive
start=$SECONDS

tmp=$(mktemp -d /tmp/dsol-deploy-check.XXXXXX)
chmod 755 "$tmp" # nginx's workers run as another user
server_pid=
nginx_started=
policy_made=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    if [ -n "$nginx_started" ] && [ -f "$tmp/nginx-live/nginx.pid" ]; then kill "$(cat "$tmp/nginx-live/nginx.pid")" 2>/dev/null || true; fi
    if [ -n "$policy_made" ]; then rm -f /usr/sbin/policy-rc.d; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }

# --- tools -----------------------------------------------------------------
need=()
command -v promtool >/dev/null || need+=(prometheus)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v curl >/dev/null || need+=(curl)
if ! command -v amtool >/dev/null; then
    apt-cache show prometheus-alertmanager >/dev/null 2>&1 || apt-get update -qq
    apt-cache show prometheus-alertmanager >/dev/null 2>&1 && need+=(prometheus-alertmanager)
fi
if [ ${#need[@]} -gt 0 ]; then
    step "installing ${need[*]}"
    # the packages would start their daemons (nginx on :80, prometheus on
    # :9090): forbid service starts while installing
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod +x /usr/sbin/policy-rc.d
        policy_made=1
    fi
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    if [ -n "$policy_made" ]; then rm -f /usr/sbin/policy-rc.d; policy_made=; fi
fi
export PATH="$PATH:/usr/sbin"
promtool --version 2>&1 | head -n 1
nginx -v 2>&1

# --- Prometheus and Alertmanager --------------------------------------------
step "promtool check config deploy/prometheus/prometheus.yml"
promtool check config deploy/prometheus/prometheus.yml
step "promtool check rules deploy/prometheus/rules.yml"
promtool check rules deploy/prometheus/rules.yml
step "promtool test rules deploy/prometheus/rules_test.yml"
promtool test rules deploy/prometheus/rules_test.yml
if command -v amtool >/dev/null; then
    step "amtool check-config deploy/alertmanager/alertmanager.yml"
    amtool check-config deploy/alertmanager/alertmanager.yml
else
    step "amtool is not available: deploy/alertmanager/alertmanager.yml not checked"
fi

# --- nginx ------------------------------------------------------------------
# nginx_copy DIR PORT...: deploy/nginx/dsol.conf into DIR/dsol.conf with the
# Nth upstream server address replaced by 127.0.0.1:PORT_N; fails unless
# exactly those lines differ.
nginx_copy() {
    local dir=$1; shift
    mkdir -p "$dir"
    awk -v ports="$*" '
        BEGIN { n = split(ports, p, " "); i = 0 }
        /^[ \t]*upstream[ \t]/ { inup = 1 }
        inup && /^[ \t]*}/ { inup = 0 }
        inup && match($0, /^[ \t]*server[ \t]+[^ \t;]+/) {
            i++
            if (i > n) { print "dsol.conf: more upstream servers than ports" > "/dev/stderr"; exit 1 }
            head = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1)
            sub(/[^ \t]+$/, "127.0.0.1:" p[i], head)
            $0 = head rest
        }
        { print }
        END { if (i != n) { print "dsol.conf: " i " upstream servers, " n " ports" > "/dev/stderr"; exit 1 } }
    ' deploy/nginx/dsol.conf >"$dir/dsol.conf"
    local changed
    changed=$(diff deploy/nginx/dsol.conf "$dir/dsol.conf" | grep -c '^[<>]' || true)
    if [ "$changed" -ne $((2 * $#)) ]; then
        echo "the nginx copy differs from deploy/nginx/dsol.conf in more than its upstream addresses" >&2
        diff deploy/nginx/dsol.conf "$dir/dsol.conf" >&2 || true
        return 1
    fi
}
# nginx_main DIR: a main configuration that includes DIR/dsol.conf in its
# http block, as the nginx image's conf.d does, with every path under DIR.
nginx_main() {
    local dir=$1
    cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
error_log $dir/error.log;
events { worker_connections 64; }
http {
    access_log $dir/access.log;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    include $dir/dsol.conf;
}
EOF
}
upstreams=$(awk '/^[ \t]*upstream[ \t]/{u=1} u&&/^[ \t]*}/{u=0} u&&/^[ \t]*server[ \t]/{n++} END{print n+0}' deploy/nginx/dsol.conf)
ports=()
for i in $(seq 1 "$upstreams"); do ports+=($((18080 + i))); done
step "nginx -t on deploy/nginx/dsol.conf (upstreams at 127.0.0.1:${ports[*]})"
nginx_copy "$tmp/nginx" "${ports[@]}"
nginx_main "$tmp/nginx"
nginx -t -p "$tmp/nginx" -e "$tmp/nginx/error.log" -c "$tmp/nginx/nginx.conf" -g "pid $tmp/nginx/nginx.pid;"

# --- a live dsol --------------------------------------------------------------
step "building and starting dsol on 127.0.0.1 (SQLite in $tmp)"
go build -o "$tmp/dsol" ./cmd/dsol
"$tmp/dsol" serve --addr 127.0.0.1:0 --db "sqlite:$tmp/dsol.db" --log-format json 2>"$tmp/dsol.log" &
server_pid=$!
addr=
for _ in $(seq 1 300); do
    addr=$(sed -n 's/.*"msg":"listening".*"addr":"\([^"]*\)".*/\1/p' "$tmp/dsol.log" | head -n 1)
    [ -n "$addr" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/dsol.log" >&2; echo "dsol exited" >&2; exit 1; }
    sleep 0.2
done
[ -n "$addr" ] || { cat "$tmp/dsol.log" >&2; echo "dsol did not start listening" >&2; exit 1; }
base="http://$addr"
for _ in $(seq 1 100); do
    curl -fsS -o /dev/null "$base/readyz" 2>/dev/null && break
    sleep 0.2
done
curl -fsS -o /dev/null "$base/readyz"
echo "dsol ready at $base"

# one player, one solo game, one action: every counter the files use exists
token=$(curl -fsS -X POST -H 'Content-Type: application/json' -d '{}' "$base/api/v1/players" |
    sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || { echo "no player token" >&2; exit 1; }
auth=(-H "Authorization: Bearer $token" -H 'Content-Type: application/json')
game=$(curl -fsS -D - -o /dev/null -X POST "${auth[@]}" -d '{}' "$base/api/v1/games" |
    tr -d '\r' | sed -n 's|^[Ll]ocation: /api/v1/games/||p')
[ -n "$game" ] || { echo "no game created" >&2; exit 1; }
curl -fsS -o /dev/null -X POST "${auth[@]}" -d '{"action":{"type":"draw"}}' "$base/api/v1/games/$game/actions"
echo "game $game: one draw accepted"
curl -fsS "$base/metrics" >"$tmp/metrics.txt"

step "nginx with deploy/nginx/dsol.conf in front of it"
# a second copy for a live run: the upstreams point at this dsol, and it
# listens on a loopback port instead of 80. The port is drawn below the
# kernel's range of ephemeral ports (32768 up), where an outgoing connection
# could hold it, and drawn again when it is taken all the same.
live="$tmp/nginx-live"
for try in 1 2 3 4 5; do
    nginx_copy "$live" $(for _ in $(seq 1 "$upstreams"); do echo "${addr##*:}"; done)
    listen_port=$((10000 + RANDOM % 20000))
    sed -i "s/^\([ \t]*\)listen 80;/\1listen 127.0.0.1:$listen_port;/" "$live/dsol.conf"
    nginx_main "$live"
    if nginx -p "$live" -e "$live/error.log" -c "$live/nginx.conf" -g "pid $live/nginx.pid;"; then
        nginx_started=1
        break
    fi
    [ "$try" -lt 5 ] || { echo "nginx: no free port in five tries" >&2; exit 1; }
done
front="http://127.0.0.1:$listen_port"
for _ in $(seq 1 50); do curl -fsS -o /dev/null "$front/healthz" 2>/dev/null && break; sleep 0.1; done
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "$front/healthz")" = 200 ] || { echo "nginx: /healthz did not reach dsol" >&2; cat "$live/error.log" >&2; exit 1; }
[ "$(code "${auth[@]}" "$front/api/v1/games/$game")" = 200 ] || { echo "nginx: the game did not reach dsol" >&2; exit 1; }
for p in /metrics //metrics '/metrics?x=1' /%6detrics /node; do
    c=$(code "$front$p")
    [ "$c" = 404 ] || { echo "nginx: $p answered $c, want 404" >&2; exit 1; }
done
echo "nginx: /healthz and the game reach dsol; /metrics and /node answer 404"
kill "$(cat "$live/nginx.pid")"; nginx_started=
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=

step "metric names of rules.yml and the dashboard against the live /metrics"
DSOL_METRICS_SCRAPE="$tmp/metrics.txt" go test -count=1 ./deploy

printf '\ndeploy checks passed in %ds\n' $((SECONDS - start))
