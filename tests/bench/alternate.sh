#!/usr/bin/env bash
# Two builds timed alternately in one sitting, in CPU time (user + system, from
# /usr/bin/time): wall time drifts 20-30% on a shared machine, and running the builds
# in turn spreads the drift over both. Prints each run, then each build's range and
# the ratio of the middles.
# Usage: bash tests/bench/alternate.sh ROUNDS OLD_BIN NEW_BIN ARGS...
#   e.g. (bayes on classic, README's "bayes's speed"; the old build from a worktree):
#   git worktree add /tmp/base a4e1ea5 && (cd /tmp/base && cargo build --release)
#   bash tests/bench/alternate.sh 3 /tmp/base/target/release/spot-the-ships \
#       target/release/spot-the-ships simulate --rules classic --strategies bayes \
#       --threads 1 --games 2000
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
rounds=$1 old=$2 new=$3
shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for ((r = 1; r <= rounds; r++)); do
    for side in old new; do
        bin=$old; [ "$side" = new ] && bin=$new
        /usr/bin/time -f '%U %S' -o "$tmp/t" "$bin" "$@" > /dev/null
        cpu=$(awk '{printf "%.2f", $1 + $2}' "$tmp/t")
        echo "$cpu" >> "$tmp/$side"
        echo "round $r $side: $cpu s"
    done
done
range() { sort -n "$tmp/$1" | awk '{a[NR]=$1} END{printf "%s to %s s (middle %s)", a[1], a[NR], a[int((NR+1)/2)]}'; }
echo "old: $(range old)"
echo "new: $(range new)"
mid() { sort -n "$tmp/$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
awk -v o="$(mid old)" -v n="$(mid new)" 'BEGIN{if (n > 0) printf "old / new: %.2f\n", o / n}'
