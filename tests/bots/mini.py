import sys

while line := sys.stdin.readline():              # bay ROWS COLS: a new game
    rows, cols = map(int, line.split()[1:])
    while not (line := sys.stdin.readline()).startswith("rules"):
        if line.startswith("fleet "):            # fleet 5,4,3,3,2,2,1,1
            left = sum(map(int, line.split()[1].split(",")))
    cells = ((r, c) for r in range(rows) for c in range(cols))
    while left:                                  # ship cells still to find
        r, c = next(cells)                       # your strategy goes here
        print(f"? {r} {c}", flush=True)
        if sys.stdin.readline().startswith(("hit", "sunk")):
            left -= 1
    sys.stdin.readline()                         # done N
