#!/usr/bin/env bash
# Large-board timings for the README: every strategy on R x R boards with about 25% ship
# cells (generate --density 0.25), release build, wall time and peak memory from
# /usr/bin/time -v, median of N runs (default 5).
# Usage: bash tests/bench/large-boards.sh [runs] [sizes...]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}; shift || true
sizes=${*:-1000 2000}
cargo build --release --quiet
bin=target/release/spot-the-ships
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
printf '| strategy | board | ship cells | scans | wall s (median of %s) | peak MB |\n|---|---|---|---|---|---|\n' "$runs"
for n in $sizes; do
  for st in linear smart prob random; do
    $bin generate --rows "$n" --cols "$n" --density 0.25 --strategy "$st" --seed 1 > "$tmp/in"
    cells=$(awk 'NR>2{for(i=3;i<=NF;i+=4)s+=$i} END{print s}' "$tmp/in")
    scans=$($bin < "$tmp/in" | head -1)
    : > "$tmp/t"; : > "$tmp/m"
    for _ in $(seq "$runs"); do
      # wall time in ns from date (finer than time's 10 ms); peak memory from time -v
      start=$(date +%s%N)
      /usr/bin/time -v $bin < "$tmp/in" > /dev/null 2> "$tmp/v"
      end=$(date +%s%N)
      echo "$(( (end - start) / 1000000 ))" >> "$tmp/t"
      awk -F': ' '/Maximum resident/{print $2/1024}' "$tmp/v" >> "$tmp/m"
    done
    printf '| %s | %sx%s | %s | %s | %.3f | %.0f |\n' "$st" "$n" "$n" "$cells" "$scans" "$(median < "$tmp/t" | awk '{print $1/1000}')" "$(median < "$tmp/m")"
  done
done
