#!/usr/bin/env bash
# serve under load, on loopback only (README, "## serve"). The client is
# tests/bench/serve_load.rs (standard library only, built with rustc -O).
#   1. IDLE_ALONE (default 2000) idle connections, and GETs of /api/rules beside them;
#   2. ROUNDS rounds of CLIENTS concurrent players (default 200), each a kept-alive
#      connection playing a whole classic game through /api/games;
#   3. one round of CLIENTS players with IDLE idle connections beside them (default
#      0: skipped);
#   Players probe without a pause (a stress test: on one machine the load client and
#   the server share the cores), or with THINK_MS set, after a think time drawn from 0
#   to twice THINK_MS milliseconds before each probe (every round of players);
#   4. 50 sequential /api/advise calls on a classic mid-game;
# then the server's peak and final resident memory and its CPU time. With EXPERT=N,
# N matches against classic's Expert (lookahead, a core each while it thinks) are
# started before the rounds, and how far their computers got is printed after them.
# Usage: [EXPERT=N] bash tests/bench/serve-load.sh [CLIENTS] [ROUNDS] [IDLE] [IDLE_ALONE] [THINK_MS]
set -euo pipefail
cd "$(dirname "$0")/../.."
clients=${1:-200}
rounds=${2:-3}
idle=${3:-0}
idle_alone=${4:-2000}
think=${5:-0}
cargo build --release --quiet
tmp=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
rustc -O --edition 2021 tests/bench/serve_load.rs -o "$tmp/serve_load"
# The client holds a descriptor a connection too.
ulimit -n "$(ulimit -Hn)"
target/release/spot-the-ships serve --port 0 --workers "${SERVE_WORKERS:-64}" > "$tmp/out" 2> "$tmp/err" &
server_pid=$!
for _ in $(seq 50); do grep -q serving "$tmp/out" 2>/dev/null && break; sleep 0.1; done
addr=$(sed -n 's|^serving on http://\(.*\)/$|\1|p' "$tmp/out")
case "$addr" in 127.0.0.1:*) ;; *) echo "error: the server is not on loopback: $addr" >&2; exit 1 ;; esac
echo "server: $addr (${SERVE_WORKERS:-64} workers); $(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
memory() { echo "server memory: $(grep -E '^(VmHWM|VmRSS)' /proc/$server_pid/status | tr -s ' \n' ' ')"; }
if [ "$idle_alone" -gt 0 ]; then
    "$tmp/serve_load" idle "$addr" "$idle_alone"
    memory
fi
expert=()
fleet='[[[0,0],[0,1],[0,2],[0,3],[0,4]],[[2,0],[2,1],[2,2],[2,3]],[[4,2],[4,3],[4,4]],[[6,5],[7,5],[8,5]],[[9,0],[9,1]]]'
for _ in $(seq "${EXPERT:-0}"); do
    answer=$(curl -s -X POST "http://$addr/api/matches" -d "{\"rules\": \"classic\", \"strategy\": \"lookahead\", \"ships\": $fleet}")
    expert+=("$(echo "$answer" | cut -d'"' -f4)")
done
[ "${#expert[@]}" -gt 0 ] && echo "${#expert[@]} Expert (lookahead) games started"
for round in $(seq "$rounds"); do
    echo "round $round"
    "$tmp/serve_load" games "$addr" "$clients" 0 "$think"
done
memory
if [ "$idle" -gt 0 ]; then
    echo "round with $idle idle connections"
    "$tmp/serve_load" games "$addr" "$clients" "$idle" "$think"
    memory
fi
for token in "${expert[@]}"; do
    echo "Expert game: $(curl -s "http://$addr/api/games/$token/computer?from=1000" | cut -c1-60)"
done
"$tmp/serve_load" advise "$addr" 50
memory
echo "server CPU time (user+sys, s): $(awk '{printf "%.2f", ($14+$15)/100}' /proc/$server_pid/stat)"
