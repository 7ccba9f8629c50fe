#!/usr/bin/env python3
"""A bot that misbehaves, for the tests of `simulate --bot`:

    python3 tests/bots/bad.py MODE GAME

plays linear, but in the GAME-th game of its process (from 1), at its third probe:
  garbage  writes `fire!` instead of a probe
  repeat   probes (0,0) again
  outside  probes the row below the bay
  sleep    sleeps 30 s
  exit     writes `giving up` on stderr and exits with status 3
  long     writes a line of 5000 characters
and besides:
  slowstart  sleeps 1 s before its first probe, then plays linear
  slowsleep  sleeps 1 s before its first probe, then as `sleep`
  linger     plays linear, but stays 30 s after its input ends
  blind      never reads: writes the probes of every cell in row-major order,
             over and over
  crash      fails at once, before reading anything (a Python traceback)
  quit       exits quietly (status 0) once it has read the GAME-th game's header
"""
import sys
import time

mode, bad_game = sys.argv[1], int(sys.argv[2])
read = sys.stdin.readline
if mode in ("slowstart", "slowsleep"):
    time.sleep(1)
if mode == "crash":
    print(1 / 0)
if mode == "blind":
    while True:
        for r in range(10):
            for c in range(10):
                print(f"? {r} {c}", flush=True)
game = 0
while True:
    bay = read()
    if bay.startswith("game "):                  # game K SEED, then the header
        bay = read()
    if not bay:
        break
    game += 1
    rows, cols = (int(w) for w in bay.split()[1:3])
    left = 0
    while not (line := read()).startswith("rules"):
        if line.startswith("fleet "):
            left = sum(int(s) for s in line.split()[1].split(","))
    if mode == "quit" and game == bad_game:
        sys.exit(0)
    probes = 0
    for r in range(rows):
        for c in range(cols):
            if left == 0:
                break
            probes += 1
            probe = f"? {r} {c}"
            if game == bad_game and probes == 3:
                if mode == "garbage":
                    probe = "fire!"
                elif mode == "repeat":
                    probe = "? 0 0"
                elif mode == "outside":
                    probe = f"? {rows} 0"
                elif mode in ("sleep", "slowsleep"):
                    time.sleep(30)
                elif mode == "exit":
                    print("giving up", file=sys.stderr, flush=True)
                    sys.exit(3)
                elif mode == "long":
                    probe = "?" * 5000
            print(probe, flush=True)
            if read().startswith(("hit", "sunk")):
                left -= 1
    read()  # done N
if mode == "linger":
    time.sleep(30)
