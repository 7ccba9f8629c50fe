#!/usr/bin/env bash
# The cost of racing a bot (simulate --bot), for report/arena.md, and the arithmetic of a
# 10-million-game bayes study. One thread throughout, release build.
#
#   1. built-in linear: simulate --strategies linear (games/s of its own time);
#   2. the Python bot tests/bots/linear.py as a strategy: simulate's time per game for
#      it (its games/s column), and the bot's own processor time as it measures it
#      (time.process_time(), written by --times);
#   3. the same bot alone on the very input it got (recorded with tee), its output to
#      /dev/null: its own work without anybody to wait for;
#   4. the same two measurements for a compiled bot (tests/bench/linear_bot.rs), whose
#      own work is next to nothing: what is left is the protocol's cost;
#   5. the floor of any pipe protocol: one round trip of a line through `cat`
#      (tests/bench/pingpong.rs), times linear's probes per game;
#   6. bayes' games/s, and the machine-hours of 10^7 bayes games on 2-core machines.
#
# Usage: bash tests/bench/arena.sh [games] [bayes-games]   (defaults 20000 and 2000)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-20000}
bayes_games=${2:-2000}
cargo build --release --quiet
bin=$PWD/target/release/spot-the-ships
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rustc -O tests/bench/linear_bot.rs -o "$tmp/linear-bot"
rustc -O tests/bench/pingpong.rs -o "$tmp/pingpong"
now() { date +%s%N; }
# The games/s column of strategy $1 in a text report (the table's rows have 9 fields).
rate() { awk -v n="$1" '$1 == n && NF == 9 { print $9; exit }'; }
us_per_game() { awk -v r="$1" 'BEGIN { printf "%.1f", 1e6 / r }'; }
run() { "$bin" simulate --games "$games" --threads 1 --strategies linear "$@"; }

builtin=$(run | rate linear)
py_rate=$(run --bot "pylinear=python3 tests/bots/linear.py --times $tmp/py-times" | rate pylinear)
read -r py_cpu py_games < "$tmp/py-times"
# The input the bots get, recorded once (the games are the same for every bot).
run --bot "rec=sh -c 'tee $tmp/input | python3 tests/bots/linear.py'" > /dev/null
t0=$(now)
python3 tests/bots/linear.py --times "$tmp/alone-times" < "$tmp/input" > /dev/null
t1=$(now)
read -r alone_cpu _ < "$tmp/alone-times"
rs_rate=$(run --bot "rslinear=$tmp/linear-bot" | rate rslinear)
t2=$(now)
"$tmp/linear-bot" < "$tmp/input" > /dev/null
t3=$(now)
floor=$("$tmp/pingpong" 200000)
bayes=$("$bin" simulate --games "$bayes_games" --threads 1 --strategies bayes | rate bayes)

py_sim=$(us_per_game "$py_rate")
py_alone=$(awk -v ns=$((t1 - t0)) -v g="$games" 'BEGIN { printf "%.1f", ns / 1e3 / g }')
rs_sim=$(us_per_game "$rs_rate")
rs_alone=$(awk -v ns=$((t3 - t2)) -v g="$games" 'BEGIN { printf "%.1f", ns / 1e3 / g }')
probes=$(awk -v r="$(run --format json | grep -o '"mean": [0-9.]*' | head -1 | cut -d' ' -f2)" 'BEGIN { printf "%.1f", r }')
echo "$games games of Problem G, one thread, linear's mean $probes probes per game"
echo
echo "| player | simulate's time per game (µs) | the bot alone (µs per game) | difference (µs per game) | per probe (µs) |"
echo "|---|---|---|---|---|"
printf '| built-in linear | %s | | | |\n' "$(us_per_game "$builtin")"
awk -v s="$py_sim" -v a="$py_alone" -v p="$probes" -v c="$py_cpu" -v g="$py_games" 'BEGIN {
  printf "| Python bot (tests/bots/linear.py) | %.1f | %.1f (wall, from a file); %.1f (its processor time under simulate) | %.1f (%.1f) | %.2f |\n",
    s, a, c * 1e6 / g, s - a, s - c * 1e6 / g, (s - a) / p }'
awk -v s="$rs_sim" -v a="$rs_alone" -v p="$probes" 'BEGIN {
  printf "| compiled bot (tests/bench/linear_bot.rs) | %.1f | %.1f (wall, from a file) | %.1f | %.2f |\n", s, a, s - a, (s - a) / p }'
awk -v f="$floor" -v p="$probes" 'BEGIN {
  printf "| floor: a line to `cat` and back, per probe | %.1f | | | %.2f |\n", f * p, f }'
echo
echo "bot alone on its recorded input, processor time: $(awk -v c="$alone_cpu" -v g="$games" 'BEGIN { printf "%.1f", c * 1e6 / g }') µs per game"
echo "bayes: $bayes games/s on one thread ($bayes_games games)"
awk -v r="$bayes" 'BEGIN {
  h = 1e7 / r / 3600
  printf "10^7 bayes games: %.1f core-hours = %.1f hours of one 2-core machine; on 10 such machines %.2f hours\n", h, h / 2, h / 20 }'
