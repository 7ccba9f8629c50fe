#!/usr/bin/env bash
# lookahead's cost by the judge: two builds play the same classic boards (those of
# `generate --rules classic --strategy lookahead --seed S`, S = 3, 4, ...), one game at
# a time on one thread, alternately (old, new on each board, round after round), in
# CPU time (user + system, /usr/bin/time). Checks that the two print the same, byte for
# byte, and prints each build's CPU-seconds a game and their ratio.
# Usage: bash tests/bench/lookahead-judge.sh OLD_BIN NEW_BIN [BOARDS [ROUNDS]]
#   (defaults 10 boards, 2 rounds: about 5 minutes at 7 and 4 CPU-s a game)
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,8p' "$0" >&2
    exit 2
fi
old=$1 new=$2 boards=${3:-10} rounds=${4:-2}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for ((b = 0; b < boards; b++)); do
    "$new" generate --rules classic --strategy lookahead --seed $((b + 3)) > "$tmp/board$b"
done
differ=0
for ((r = 1; r <= rounds; r++)); do
    for ((b = 0; b < boards; b++)); do
        for side in old new; do
            bin=$old; [ "$side" = new ] && bin=$new
            /usr/bin/time -f '%U %S' -o "$tmp/t" "$bin" --rules classic "$tmp/board$b" > "$tmp/$side.out"
            awk '{printf "%.2f\n", $1 + $2}' "$tmp/t" >> "$tmp/$side"
        done
        cmp -s "$tmp/old.out" "$tmp/new.out" || { echo "board $((b + 3)): the builds print differently"; differ=1; }
        echo "round $r board $((b + 3)): old $(tail -1 "$tmp/old") s, new $(tail -1 "$tmp/new") s"
    done
done
mean() { awk '{s += $1} END{printf "%.2f", s / NR}' "$tmp/$1"; }
echo "CPU-s a game: old $(mean old), new $(mean new) ($boards boards, $rounds rounds)"
awk -v o="$(mean old)" -v n="$(mean new)" 'BEGIN{if (n > 0) printf "old / new: %.2f\n", o / n}'
[ "$differ" = 0 ] && echo "the two builds printed the same on every board"
exit "$differ"
