#!/usr/bin/env python3
"""A bot for `simulate --bot`: plays linear (row by row, left to right) through the
play protocol, game after game, until its input ends. Its results equal the built-in
linear strategy's exactly.

    python3 tests/bots/linear.py [--times FILE]

With --times FILE, it writes the processor time it used (time.process_time(), in
seconds) and the games it played to FILE when its input ends (for tests/bench/arena.sh).
"""
import sys
import time


def ship_cells(read):
    """Reads the header after its `bay` line; returns the number of ship cells."""
    cells = 0
    while True:
        line = read()
        if not line:
            raise SystemExit("the header ended early")
        word = line.split(maxsplit=1)
        if not word:
            continue
        if word[0] == "fleet" and len(word) > 1:
            cells = sum(int(s) for s in word[1].split(","))
        elif word[0] == "fleet-file":
            # A drawn fleet: its lines until `end`; every X is a ship cell.
            while (line := read().strip()) != "end":
                if not line.startswith("#"):
                    cells += line.count("X") if set(line) <= set("X.") else 0
        elif word[0] == "rules":
            return cells


def main():
    times = sys.argv[2] if sys.argv[1:2] == ["--times"] else None
    read = sys.stdin.readline
    out = sys.stdout
    games = 0
    while True:
        bay = read()
        if bay.startswith("game "):  # game K SEED: linear has no random choices
            bay = read()
        if not bay:
            break
        rows, cols = (int(w) for w in bay.split()[1:3])
        left = ship_cells(read)
        for r in range(rows):
            for c in range(cols):
                if left == 0:
                    break
                out.write(f"? {r} {c}\n")
                out.flush()
                if read().startswith(("hit", "sunk")):
                    left -= 1
        read()  # done N
        games += 1
    if times:
        with open(times, "w") as f:
            f.write(f"{time.process_time()} {games}\n")


main()
