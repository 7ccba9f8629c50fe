#!/usr/bin/env bash
# Does a rewrite change anything `advise` prints? Runs two builds of spot-the-ships on
# the same grids and compares stdout, stderr and exit status byte for byte: grids valid
# and impossible, ragged, with bad characters, blank lines, CRLF, wrecks (`#`), at and
# past the size limit (1,000,000 cells, in one row and in 1000), each under several
# flag sets (prob and bayes, text and JSON, letters, fleets, rule presets, --afloat),
# plus a file operand and a missing file; then `serve`'s /api/advise (status, headers
# but the date, and body) on a few grids, each build serving on a free port of its own.
# Prints one line per case (`same` or `DIFFERS`), then the count; exits 1 if any differ.
# Needs python3 and curl.
# Usage: bash tests/bench/same-advise.sh OLD_BINARY NEW_BINARY   (about 12 seconds)
set -uo pipefail
old=$1
new=$2
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2> /dev/null; rm -rf "$tmp"' EXIT
differ=0
cases=0
succeeded=0
# Compares `$old advise ARGS < IN` and `$new advise ARGS < IN`.
same() {
    local label=$1 input=$2
    shift 2
    "$old" advise "$@" < "$input" > "$tmp/o.out" 2> "$tmp/o.err"; echo "status $?" >> "$tmp/o.out"
    "$new" advise "$@" < "$input" > "$tmp/n.out" 2> "$tmp/n.err"; echo "status $?" >> "$tmp/n.out"
    cases=$((cases + 1))
    grep -q '^status 0$' "$tmp/n.out" && succeeded=$((succeeded + 1))
    if cmp -s "$tmp/o.out" "$tmp/n.out" && cmp -s "$tmp/o.err" "$tmp/n.err"; then
        echo "same     advise $* < $label"
    else
        echo "DIFFERS  advise $* < $label"
        differ=1
    fi
}
# The grids: a name, then the text (printf's escapes).
# shellcheck disable=SC2059
grid() { printf "$2" > "$tmp/$1.txt"; names+=("$1"); }
names=()
grid empty ''
grid blank-lines '\n\r\n\n'
grid blank-start '\n..\n'
grid ragged-short '...\n..\n'
grid ragged-long '...\n....\n'
grid blank-middle '...\n\n...\n'
grid bad-char '..\n.o\n'
grid accented '..\n.\303\251\n'
grid bad-utf8 '\377\n'
grid lone-cr '..\r.\n'
grid crlf '...\r\n.+.\r\n...\r\n\r\n'
grid no-final-newline '..\n..'
grid diagonal '+..\n.+.\n'
grid bent '++\n.+\n'
grid six-in-line '++++++\n.......\n'
grid lower-x 'x..\n.+.\n...\n'
grid mid-game '..........\n.X....X...\n...++X....\n..........\nX...X.....\n.....+....\n..X..+..X.\n..........\n....X.....\n.X......X.\n'
grid closed-run '.....\nX+++X\n.....\n.....\n'
grid corner-hit '+X\n..\n'
grid all-found '+++..\n.....\n...+.\n'
grid two-whole-threes '+++..\n.....\n+++..\n'
grid open-too-long '+++X.\nXXX..\n...++\n'
grid no-room '.....\n.+++.\n.....\n'
grid one-cell-ships '+X+X\nX.X.\n'
grid wrecks '#X....\nXX....\n...+..\n......\n......\n'
grid wreck-touches-hit '#+..\n....\n....\n'
grid wreck-bent '##.\n#..\n...\n'
grid wreck-long '######\n......\n'
grid wreck-column '#.....\n#.....\n#.....\n......\n..+...\n'
grid empty-10 '..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n'
grid sunk-10 '##........\nXX.X......\n...+......\n..........\n......X...\n....X.....\n.........#\n.........#\n.........#\n..X.......\n'
grid hits-10 '..........\n...X......\n..X+X.....\n...+......\n..........\n.......+..\n..........\nX.........\n..........\n.....X....\n'
grid full-water 'XXX\nXXX\n'
grid one-cell '.\n'
grid tall '.\n.\n+\n.\n.\n.\n.\n'
python3 -c "print('.' * 1000001)" > "$tmp/too-wide.txt"; names+=(too-wide)
python3 -c "print('+' + '.' * 999999)" > "$tmp/widest.txt"; names+=(widest)
python3 -c "
import sys
row = '.' * 1000 + '\n'
sys.stdout.write(row * 1000 + row)" > "$tmp/too-tall.txt"; names+=(too-tall)
python3 -c "
import random, sys
random.seed(1)
g = [['.'] * 1000 for _ in range(1000)]
for k in range(20):
    g[random.randrange(0, 1000, 3)][random.randrange(0, 997, 5)] = '+'
g[0][0] = 'X'
sys.stdout.write(''.join(''.join(r) + '\n' for r in g))" > "$tmp/largest.txt"; names+=(largest)
flag_sets=(
    ""
    "--format json"
    "--coords letters"
    "--strategy bayes"
    "--strategy bayes --format json --prior generator"
    "--fleet 3,2,2"
    "--fleet 3,1 --strategy prob"
    "--fleet 3,1,1 --strategy prob"
    "--fleet 2,1 --strategy prob --format json"
    "--rules classic"
    "--rules russian --format json"
    "--rules classic --touch yes --coords letters"
    "--afloat 2,1 --fleet 3,2,1"
    "--fleet 2,1"
    "--fleet 3,2 --format json --coords letters"
    "--rules classic --fleet 2,2"
    "--rules russian --fleet 2,1,1 --format json"
    "--strategy bayes --fleet 1,1,1 --seed 7"
)
for name in "${names[@]}"; do
    for flags in "${flag_sets[@]}"; do
        # shellcheck disable=SC2086
        same "$name" "$tmp/$name.txt" $flags
    done
done
: > "$tmp/none"
same "(file operand mid-game)" "$tmp/none" "$tmp/mid-game.txt"
same "(file operand, bayes json)" "$tmp/none" --strategy bayes --format json "$tmp/wrecks.txt"
same "(missing file)" "$tmp/none" "$tmp/no-such-file.txt"
# serve: the same Request on the grid the page posts.
"$old" serve --port 0 > "$tmp/old.log" 2>&1 &
pids+=($!)
"$new" serve --port 0 > "$tmp/new.log" 2>&1 &
pids+=($!)
# The address a server printed (`serving on http://ADDR:PORT/`), once it has.
address() {
    for _ in $(seq 100); do grep -q '^serving on' "$tmp/$1.log" && break; sleep 0.1; done
    sed -n 's|^serving on http://\([^/]*\)/.*|\1|p' "$tmp/$1.log"
}
at_old=$(address old)
at_new=$(address new)
post() { curl -s -i -X POST --data-binary "@$2" "http://$1/api/advise" | grep -v -i '^date:'; }
python3 - "$tmp" <<'PY'
import json, sys
bodies = [
    {"state": "...\n.+.\n...\n"},
    {"state": "...\n.+.\n...\n", "strategy": "bayes", "fleet": "2,1"},
    {"state": "+..\n.+.\n"},
    {"state": "++++++\n"},
    {"state": "...\n..\n"},
    {"state": ""},
    {"state": "..\n.o\n"},
    {"state": "#X....\nXX....\n...+..\n......\n......\n", "fleet": "3,2,1", "afloat": "2,1"},
    {"state": "#+..\n....\n"},
    {"state": "+++X.\nXXX..\n...++\n", "strategy": "prob", "fleet": "3,1,1"},
    {"state": "+X+X\nX.X.\n", "strategy": "prob", "fleet": "2,1"},
    {"state": ".....\n.+++.\n.....\n", "strategy": "bayes", "fleet": "3,2"},
    {"state": "..........\n...X......\n..X+X.....\n...+......\n" + "..........\n" * 6, "rules": "classic"},
    {"state": "..........\n...X......\n..X+X.....\n...+......\n" + "..........\n" * 6, "rules": "russian", "prior": "generator", "seed": 5},
    {"state": "##........\nXX.X......\n...+......\n" + "..........\n" * 3 + ".........#\n" * 3 + "..........\n"},
    {"state": "##........\nXX.X......\n...+......\n" + "..........\n" * 3 + ".........#\n" * 3 + "..........\n", "rules": "classic"},
    {"state": ("." * 60 + "\n") * 60},
]
for k, b in enumerate(bodies):
    open(f"{sys.argv[1]}/body{k:02}.json", "w").write(json.dumps(b))
PY
for body in "$tmp"/body*.json; do
    post "$at_old" "$body" > "$tmp/o.http"
    post "$at_new" "$body" > "$tmp/n.http"
    cases=$((cases + 1))
    status=$(head -1 "$tmp/n.http" | tr -d '\r')
    [[ $status == *" 200 "* ]] && succeeded=$((succeeded + 1))
    if [ -s "$tmp/n.http" ] && cmp -s "$tmp/o.http" "$tmp/n.http"; then
        echo "same     POST /api/advise $(basename "$body") ($status)"
    else
        echo "DIFFERS  POST /api/advise $(basename "$body")"
        differ=1
    fi
done
echo "$cases cases ($succeeded advised, the others refused), $([ "$differ" = 0 ] && echo 'all identical' || echo 'some DIFFER')"
exit $differ
