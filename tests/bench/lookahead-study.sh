#!/usr/bin/env bash
# The strongest classic strategy, lookahead, beside density on 2,000 classic boards of
# seed 2021, paired (the same boards for both), in shards that can be played over
# several sittings: 2,000 games of lookahead are hours of CPU time. Each run plays up to
# TODO shards not yet in the record (one line each: the shard, its CPU time, its JSON),
# then prints how far the study is and, once every shard is in, the merged result
# (`simulate merge`: mean, stdev, median, p90, max, and the boards where each needs
# fewer scans) with the CPU-seconds a game (user+sys of the shards over their games,
# density's share included, about 1/10,000 of it).
# Usage: [PARALLEL=P] [GAMES=2000 COUNT=40] bash tests/bench/lookahead-study.sh [TODO] [RECORD]
#   (TODO: shards to play now, default 1; 0 only reports)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${GAMES:-2000}
count=${COUNT:-40}
todo=${1:-1}
record=${2:-report/lookahead-study.txt}
cargo build --release --quiet
bin=target/release/spot-the-ships
# The record belongs to one lookahead: the line `help strategies` gives it.
version="# $("$bin" help strategies | grep -m1 '^  lookahead ' | sed 's/^ *//; s/  */ /g')"
if [ ! -s "$record" ]; then
    echo "$version" > "$record"
elif [ "$(head -1 "$record")" != "$version" ]; then
    echo "error: $record was played by another lookahead ($(head -1 "$record")); move it aside" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Plays shard K and appends its line to the record (one write: whole lines only).
play_shard() {
    local k=$1
    /usr/bin/time -f '%U %S' -o "$tmp/$k.time" nice -n 10 "$bin" simulate --rules classic --games "$games" \
        --strategies density,lookahead --threads 1 --format json --shard "$k/$count" > "$tmp/$k.out"
    echo "shard $k/$count cpu $(cat "$tmp/$k.time") json $(cat "$tmp/$k.out")" >> "$record"
    echo "played shard $k/$count: CPU $(cat "$tmp/$k.time") s"
}
# PARALLEL shards at once (default 1), each on one thread.
ran=0
for k in $(seq 0 $((count - 1))); do
    [ "$ran" -ge "$todo" ] && break
    grep -q "^shard $k/$count " "$record" && continue
    while [ "$(jobs -rp | wc -l)" -ge "${PARALLEL:-1}" ]; do wait -n || true; done
    play_shard "$k" &
    ran=$((ran + 1))
done
wait
done_shards=$(grep -c '^shard ' "$record" || true)
cpu=$(awk '/^shard /{s += $4 + $5} END {printf "%.1f", s}' "$record")
played=$((done_shards * games / count))
echo "$done_shards of $count shards ($played of $games boards); $cpu CPU-s, $(awk -v c="$cpu" -v g="$played" 'BEGIN {if (g > 0) printf "%.2f", c / g}') CPU-s a board"
if [ "$done_shards" -eq "$count" ]; then
    files=()
    while read -r line; do
        k=$(echo "$line" | cut -d' ' -f2 | cut -d/ -f1)
        echo "$line" | sed 's/^[^{]*//' > "$tmp/$k.json"
        files+=("$tmp/$k.json")
    done < <(grep '^shard ' "$record")
    "$bin" simulate merge --format text "${files[@]}"
    # The standard error of each mean: its standard deviation over the root of the games.
    "$bin" simulate merge --format json "${files[@]}" | python3 -c '
import json, math, sys
d = json.load(sys.stdin)
for s in d["strategies"]:
    print("%s: mean %.3f, standard error %.3f" % (s["name"], s["mean"], s["stdev"] / math.sqrt(d["games"])))'
fi
