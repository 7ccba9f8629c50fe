#!/usr/bin/env bash
# Time and peak memory of every judge strategy on large boards, empty and 25% ships.
# Usage: bash tests/bench/resources.sh [SIDES...]   (default: 1000 4000 10000)
# Prints a Markdown table for README: strategy, board, ships, scans, wall s, peak MB,
# bytes per cell (peak over the board's cells). Needs /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin=target/release/spot-the-ships
sides=("${@:-1000 4000 10000}")
[ $# -eq 0 ] && sides=(1000 4000 10000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| strategy | board | ships | scans | wall s | peak MB | bytes per cell |"
echo "|---|---|---|---|---|---|---|"
for n in "${sides[@]}"; do
  printf 'linear\n%s %s 0\n' "$n" "$n" > "$tmp/empty.in"
  "$bin" generate --rows "$n" --cols "$n" --density 0.25 --seed 1 --strategy linear > "$tmp/dense.in"
  for kind in empty dense; do
    for s in linear smart prob random parity bayes; do
      /usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" --strategy "$s" "$tmp/$kind.in" > "$tmp/out" 2> "$tmp/err" || { echo "| $s | ${n}x$n | $kind | error: $(head -c 100 "$tmp/err") | | | |"; continue; }
      read -r wall kb < "$tmp/time"
      scans=$(head -1 "$tmp/out")
      ships=$([ "$kind" = empty ] && echo 0% || echo 25%)
      awk -v s="$s" -v n="$n" -v ships="$ships" -v scans="$scans" -v wall="$wall" -v kb="$kb" \
        'BEGIN { printf "| %s | %dx%d | %s | %s | %s | %.0f | %.2f |\n", s, n, n, ships, scans, wall, kb / 1024, kb * 1024 / (n * n) }'
    done
  done
done
