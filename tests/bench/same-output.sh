#!/usr/bin/env bash
# Does a rewrite change anything a user sees? Runs two builds of spot-the-ships on the
# same inputs and compares what they print, byte for byte:
#   - the judge: every strategy on generated boards of every preset (3 seeds each,
#     10x10 and 40x30 bays; the generated inputs themselves too);
#   - simulate's CSV (every game of every strategy): Problem G (20,000 games) and
#     classic (2,000 games), `--strategies all`;
#   - check's verdicts on three programs of tests/solvers (the reference and two
#     wrong ones), and testset's Mooshak files (the manifest, new in the newer build,
#     and the zip, which holds file dates, are left out);
#   - advise on grids of every kind (tests/bench/same-advise.sh, which runs alone too).
# Prints one line per comparison (`same` or `DIFFERS`) and exits 1 if any differ.
# Usage: bash tests/bench/same-output.sh OLD_BINARY NEW_BINARY   (about 4 minutes)
set -uo pipefail
old=$1
new=$2
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
differ=0
# Compares the stdout, stderr and status of `$old ARGS < IN` and `$new ARGS < IN`.
same() {
    local label=$1 input=$2
    shift 2
    "$old" "$@" < "$input" > "$tmp/o.out" 2> "$tmp/o.err"; echo "status $?" >> "$tmp/o.out"
    "$new" "$@" < "$input" > "$tmp/n.out" 2> "$tmp/n.err"; echo "status $?" >> "$tmp/n.out"
    if cmp -s "$tmp/o.out" "$tmp/n.out" && cmp -s "$tmp/o.err" "$tmp/n.err"; then
        echo "same     $label"
    else
        echo "DIFFERS  $label"
        differ=1
    fi
}
strategies="linear smart prob random parity bayes hunt hunt-parity density density-random"
: > "$tmp/empty"
for rules in problem-g classic russian starwars; do
    for size in "" "--rows 40 --cols 30"; do
        for seed in 1 2 3; do
            # shellcheck disable=SC2086
            same "generate --rules $rules $size --seed $seed" "$tmp/empty" generate --rules "$rules" $size --seed "$seed"
            # shellcheck disable=SC2086
            "$new" generate --rules "$rules" $size --seed "$seed" > "$tmp/board.in"
            for s in $strategies; do
                same "judge $s on generate --rules $rules $size --seed $seed" "$tmp/board.in" --strategy "$s" "$tmp/board.in"
            done
        done
    done
done
same "simulate Problem G --games 20000 --strategies all --format csv" "$tmp/empty" \
    simulate --games 20000 --strategies all --format csv
same "simulate --rules classic --games 2000 --strategies all --format csv" "$tmp/empty" \
    simulate --rules classic --games 2000 --strategies all --format csv
for solver in tests/solvers/reference.py tests/solvers/smart_list_order.py tests/solvers/prob_tie_break.py; do
    # The verdict table and each shrunk case; timings and paths are cut.
    for bin in "$old" "$new"; do
        "$bin" check --jobs 2 -- python3 "$solver" 2>&1 | grep -v -e 'slowest run' -e 'time limit' -e '^check:' \
            > "$tmp/check.$([ "$bin" = "$old" ] && echo o || echo n)"
    done
    if cmp -s "$tmp/check.o" "$tmp/check.n"; then echo "same     check $solver"; else echo "DIFFERS  check $solver"; differ=1; fi
done
"$old" testset --out "$tmp/ts.o" --format mooshak > /dev/null
"$new" testset --out "$tmp/ts.n" --format mooshak > /dev/null
if diff -r -x .testset-manifest -x tests.zip "$tmp/ts.o" "$tmp/ts.n" > /dev/null; then
    echo "same     testset --format mooshak (every file but the zip and the manifest)"
else
    echo "DIFFERS  testset --format mooshak"
    differ=1
fi
bash tests/bench/same-advise.sh "$old" "$new" || differ=1
exit $differ
