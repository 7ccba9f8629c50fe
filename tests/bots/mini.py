import random
import sys

while line := sys.stdin.readline():              # game K SEED: a new game
    rng = random.Random(int(line.split()[2]))    # same seed, same game
    rows, cols = map(int, sys.stdin.readline().split()[1:])  # bay ROWS COLS
    while not (line := sys.stdin.readline()).startswith("rules"):
        if line.startswith("fleet "):            # fleet 5,4,3,3,2,2,1,1
            left = sum(map(int, line.split()[1].split(",")))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)                           # your strategy goes here
    for r, c in cells:
        if not left:                             # every ship cell found
            break
        print(f"? {r} {c}", flush=True)
        if sys.stdin.readline().startswith(("hit", "sunk")):
            left -= 1
    sys.stdin.readline()                         # done N
