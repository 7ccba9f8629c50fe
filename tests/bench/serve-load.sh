#!/usr/bin/env bash
# serve under load, on loopback only (README, "## serve"): CLIENTS concurrent clients
# (default 200), each playing a whole classic game through /api/games, then 50
# sequential /api/advise calls on a classic mid-game. The client is
# tests/bench/serve_load.rs (standard library only, built with rustc -O).
# Usage: bash tests/bench/serve-load.sh [CLIENTS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
clients=${1:-200}
rounds=${2:-3}
cargo build --release --quiet
tmp=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
rustc -O --edition 2021 tests/bench/serve_load.rs -o "$tmp/serve_load"
target/release/spot-the-ships serve --port 0 --workers "${SERVE_WORKERS:-64}" > "$tmp/out" 2> "$tmp/err" &
server_pid=$!
for _ in $(seq 50); do grep -q serving "$tmp/out" 2>/dev/null && break; sleep 0.1; done
addr=$(sed -n 's|^serving on http://\(.*\)/$|\1|p' "$tmp/out")
case "$addr" in 127.0.0.1:*) ;; *) echo "error: the server is not on loopback: $addr" >&2; exit 1 ;; esac
echo "server: $addr (${SERVE_WORKERS:-64} workers); $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    echo "round $round"
    "$tmp/serve_load" games "$addr" "$clients"
done
"$tmp/serve_load" advise "$addr" 50
echo "server CPU time (user+sys, s): $(awk '{printf "%.2f", ($14+$15)/100}' /proc/$server_pid/stat)"
