#!/usr/bin/env bash
# The grading kit's measurements (README, "Grading kit"):
#  1. every solver of tests/solvers through `check` with its defaults: verdict, cases
#     failed, the shrunk input of its first failure of that verdict, wall time;
#  2. the default test set (`testset`, Kattis layout) run against every wrong solver:
#     how many it catches; the two that are wrong only on large boards (too slow, too
#     much output) also against the `--large` set;
#  3. check's own cost: `check --jobs 1 -- spot-the-ships` against a shell loop running
#     the same inputs, interleaved, REPS times (default 5), and the medians.
# Usage: bash tests/bench/grading.sh [REPS] [all|catch|speed]
#        (release build; `all` takes about 20 minutes on 2 cores, `catch` (part 2
#        only) about 10, `speed` one)
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-5}
parts=${2:-all}
cargo build --release --quiet
bin=$PWD/target/release/spot-the-ships
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
solvers=tests/solvers

# The command that runs a solver file.
command_of() {
    case "$1" in
        *.py) echo "python3 $solvers/$1" ;;
        LinearOnly.java) echo "java -cp $work/java LinearOnly" ;;
        literal | literal_slip) echo "java -cp $work/$1 SpotTheShips" ;;
    esac
}

mkdir -p "$work/java" "$work/literal" "$work/literal_slip"
javac -d "$work/java" "$solvers/LinearOnly.java"
javac -d "$work/literal" "$solvers/literal/SpotTheShips.java"
javac -d "$work/literal_slip" "$solvers/literal_slip/SpotTheShips.java"

# Verdict, failed cases, shrunk input of the first failure of the verdict, from JSON.
summary='
import json, sys
d = json.load(sys.stdin)
failed = d["cases"] - d["counts"]["AC"]
shrunk = "-"
for f in d["failures"]:
    if f["verdict"] == d["verdict"]:
        s = f["shrunk"]
        if s is not None:
            rows, cols, n = s["input"].split("\n")[1].split()
            plural = "" if n == "1" else "s"
            cells = int(rows) * int(cols)
            many = "" if cells == 1 else "s"
            shrunk = f"{rows}x{cols} ({cells} cell{many}), {n} ship{plural}"
        break
print(d["verdict"], failed, d["cases"], shrunk, sep="|")
'

if [ "$parts" = all ]; then
echo "## 1. check with its defaults"
echo
echo "| solver | verdict | cases failed | shrunk input | wall s |"
echo "|---|---|---|---|---|"
for file in reference.py $(cd $solvers && ls *.py | grep -v reference.py) LinearOnly.java literal literal_slip; do
    start=$(date +%s%N)
    # shellcheck disable=SC2046
    out=$("$bin" check --format json -- $(command_of "$file") || true)
    end=$(date +%s%N)
    IFS='|' read -r verdict failed cases shrunk < <(python3 -c "$summary" <<< "$out")
    printf '| %s | %s | %s of %s | %s | %.1f |\n' "$file" "$verdict" "$failed" "$cases" "$shrunk" \
        "$(echo "($end - $start) / 1000000000" | bc -l)"
done

fi
if [ "$parts" = all ] || [ "$parts" = catch ]; then
echo
echo "## 2. the default test set against the wrong solvers"
echo
"$bin" testset --out "$work/set" --format kattis
"$bin" testset --out "$work/large" --format kattis --random 0 --large
caught=0
total=0
for file in $(cd $solvers && ls *.py | grep -v reference.py) LinearOnly.java literal_slip; do
    # shellcheck disable=SC2046
    out=$("$bin" check --no-builtin --cases "$work/set/data" --shrink-budget 0 --format json -- $(command_of "$file") || true)
    IFS='|' read -r verdict failed cases _ < <(python3 -c "$summary" <<< "$out")
    total=$((total + 1))
    how="default set"
    if [ "$verdict" = AC ]; then
        # Wrong only on large boards: the --large set (its own time limit, 10 s).
        # shellcheck disable=SC2046
        out=$("$bin" check --no-builtin --cases "$work/large/data" --shrink-budget 0 --format json -- $(command_of "$file") || true)
        IFS='|' read -r verdict failed cases _ < <(python3 -c "$summary" <<< "$out")
        how="--large set"
    fi
    if [ "$verdict" != AC ]; then caught=$((caught + 1)); fi
    echo "$file: $verdict on $failed of $cases cases ($how)"
done
echo "caught: $caught of $total wrong solvers"
fi
if [ "$parts" != all ] && [ "$parts" != catch ]; then
    "$bin" testset --out "$work/set" --format kattis > /dev/null
fi
if [ "$parts" = all ] || [ "$parts" = speed ]; then
echo
echo "## 3. check's cost per case (check --jobs 1 against a shell loop, $reps runs each)"
echo
inputs=("$work"/set/data/*/*.in)
loop() {
    for f in "${inputs[@]}"; do "$bin" < "$f" > /dev/null; done
}
loops=()
checks=()
for r in $(seq "$reps"); do
    a=$(date +%s%N)
    loop
    b=$(date +%s%N)
    "$bin" check --jobs 1 -- "$bin" > /dev/null
    c=$(date +%s%N)
    loops+=($(( (b - a) / 1000000 )))
    checks+=($(( (c - b) / 1000000 )))
    echo "run $r: shell loop $(( (b - a) / 1000000 )) ms, check $(( (c - b) / 1000000 )) ms"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ml=$(median "${loops[@]}")
mc=$(median "${checks[@]}")
echo "medians over $reps runs, ${#inputs[@]} cases: shell loop $ml ms ($(echo "scale=2; $ml / ${#inputs[@]}" | bc) ms" \
    "per case), check $mc ms ($(echo "scale=2; $mc / ${#inputs[@]}" | bc) ms per case): check adds" \
    "$(echo "scale=2; ($mc - $ml) / ${#inputs[@]}" | bc) ms per case"
fi
