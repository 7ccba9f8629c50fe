#!/usr/bin/env bash
# The cost of racing a bot (simulate --bot), for README and report/arena.md, and the
# arithmetic of a 10-million-game bayes study. One thread throughout, release build,
# Problem G on 10x10.
#
# A bot's "own work" is what it costs with the least referee possible: its input, as
# simulate gave it (recorded once with tee), replayed to it over pipes by
# tests/bench/replay.rs, which waits for a line of the bot wherever simulate waits for a
# probe and does nothing else (no game logic, no threads, no clock). That includes the
# pipe round trip of every probe, which no referee of a line protocol can avoid.
# simulate's overhead is its time per game with the bot minus that.
#
# Two bots play linear: the Python bot tests/bots/linear.py, and a compiled one
# (tests/bench/linear_bot.rs) whose own work is next to nothing, so that what is left is
# the protocol. The machine may be shared: each figure is the best of ROUNDS runs,
# simulate and replay taking turns, the least disturbed run being the closest to the
# true cost. Wall time suffers most from a loaded machine (every probe waits for the
# scheduler twice), so the referee's processor time is measured too: the processor time
# of the whole run (/usr/bin/time: the referee and the bot it waited for) minus the bot's
# own, which each bot writes with --times; that is simulate's or replay's own work.
#
# Also: the floor of any pipe protocol (a line to `cat` and back, tests/bench/pingpong.rs),
# the bots' processor time alone on the recorded input (no round trips: their pure
# computation), and bayes' games/s with the machine-hours of 10^7 bayes games.
#
# Usage: bash tests/bench/arena.sh [games] [rounds] [bayes-games]   (defaults 5000 5 2000)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-5000}
rounds=${2:-5}
bayes_games=${3:-2000}
cargo build --release --quiet
bin=$PWD/target/release/spot-the-ships
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for prog in linear_bot replay pingpong; do
    rustc -O "tests/bench/$prog.rs" -o "$tmp/$prog"
done
py="python3 tests/bots/linear.py"
rs="$tmp/linear_bot"
# The wall games/s column of strategy $1 in a text report (the table's rows have 10
# fields: name, eight statistics, wall g/s, CPU g/s).
rate() { awk -v n="$1" '$1 == n && NF == 10 { print $9; exit }'; }
run() { "$bin" simulate --games "$games" --threads 1 --strategies linear "$@"; }
min() { sort -g | head -1; }

# The input the bots get (the same for every bot that plays linear).
run --bot "rec=sh -c 'tee $tmp/input | $rs'" > /dev/null
probes=$(awk '/^(hit|miss|sunk)/ { n++ } /^done/ { g++ } END { printf "%.1f", n / g }' "$tmp/input")

builtin=$(for _ in $(seq "$rounds"); do run | rate linear; done | sort -g | tail -1)
# The referee's processor time per game (µs): the run's ($tmp/time, from /usr/bin/time)
# minus the bot's ($tmp/times, from --times).
own_cpu() {
    awk -v g="$games" 'NR == FNR { total = $1 + $2; next } { printf "%.1f", (total - $1) * 1e6 / g }' \
        "$tmp/time" "$tmp/times"
}
for bot in py rs; do
    cmd="${!bot} --times $tmp/times"
    for _ in $(seq "$rounds"); do
        # shellcheck disable=SC2086
        wall=$(/usr/bin/time -f "%U %S" -o "$tmp/time" "$tmp/replay" "$tmp/input" $cmd)
        echo "replay $wall $(own_cpu)"
        wall=$(/usr/bin/time -f "%U %S" -o "$tmp/time" "$bin" simulate --games "$games" --threads 1 \
            --strategies linear --bot "b=$cmd" | rate b | awk '{ printf "%.1f", 1e6 / $1 }')
        echo "simulate $wall $(own_cpu)"
    done > "$tmp/$bot-runs"
    for who in replay simulate; do
        grep "^$who" "$tmp/$bot-runs" | cut -d' ' -f2 | min > "$tmp/$bot-$who"
        grep "^$who" "$tmp/$bot-runs" | cut -d' ' -f3 | min > "$tmp/$bot-$who-cpu"
    done
    echo "$bot runs (who, wall µs per game, referee's processor µs per game):" \
        "$(tr '\n' ';' < "$tmp/$bot-runs")" >&2
done
# Processor time alone on the recorded input, no round trips.
python3 tests/bots/linear.py --times "$tmp/py-alone" < "$tmp/input" > /dev/null
read -r py_cpu py_games < "$tmp/py-alone"
floor=$("$tmp/pingpong" 200000)
bayes=$("$bin" simulate --games "$bayes_games" --threads 1 --strategies bayes | rate bayes)

echo "$games games of Problem G (10x10), one thread, linear's mean $probes probes per game; best of $rounds runs"
echo
echo "| player | simulate (µs per game) | its own work: replayed by a bare referee (µs per game) | simulate's overhead (µs per game) | simulate's games/s | processor time of simulate / of the bare referee (µs per game) |"
echo "|---|---|---|---|---|---|"
awk -v r="$builtin" 'BEGIN { printf "| built-in linear | %.2f | | | %.0f | |\n", 1e6 / r, r }'
for bot in py rs; do
    case $bot in
    py) label="Python bot (tests/bots/linear.py)" ;;
    rs) label="compiled bot (tests/bench/linear_bot.rs)" ;;
    esac
    awk -v l="$label" -v s="$(cat "$tmp/$bot-simulate")" -v a="$(cat "$tmp/$bot-replay")" \
        -v sc="$(cat "$tmp/$bot-simulate-cpu")" -v ac="$(cat "$tmp/$bot-replay-cpu")" \
        'BEGIN { printf "| %s | %.1f | %.1f | %+.1f | %.0f | %.1f / %.1f (%+.1f) |\n", l, s, a, s - a, 1e6 / s, sc, ac, sc - ac }'
done
echo
awk -v f="$floor" -v p="$probes" 'BEGIN {
  printf "pipe floor: a line to `cat` and back takes %.2f µs; %.1f probes a game: %.0f µs per game\n", f, p, f * p }'
awk -v c="$py_cpu" -v g="$py_games" 'BEGIN {
  printf "Python bot alone on its recorded input (no round trips), processor time: %.1f µs per game\n", c * 1e6 / g }'
echo "bayes: $bayes games/s on one thread ($bayes_games games)"
awk -v r="$bayes" 'BEGIN {
  h = 1e7 / r / 3600
  printf "10^7 bayes games: %.1f core-hours = %.1f hours of one 2-core machine; on 10 such machines %.2f hours\n", h, h / 2, h / 20 }'
