#!/usr/bin/env python3
"""A correct Problem G solver (linear, smart, prob), written from ../../../shared/SPEC.md
independently of the Rust code. `check` must give it AC on every case; the wrong
solvers beside it are this program with one planted bug each: they import it and
replace one piece (see `Solver`).

Fast enough for a 300x300 board within the default time limit: smart keeps boardList
as a row-major cursor plus a stack of moved cells; prob keeps each free cell's run
lengths (capped at 4) to its left, right, top and bottom, so blocking a cell changes at
most 16 scores, and finds the best cell through one heap per score (scores only fall).
"""
import heapq
import sys
from collections import deque


def placements(sizes):
    """T[p][q]: placements of ships of sizes 1..sizes covering a cell with p free cells
    before it and q after it in its run (each capped at 4)."""
    return [[sum(max(0, min(p, s - 1) + min(q, s - 1) - s + 2) for s in range(1, sizes + 1)) for q in range(5)]
            for p in range(5)]


class Solver:
    """One game. Subclasses (the wrong solvers) override a method to plant a bug."""

    # Ship sizes counted by the likelihood matrix.
    SIZES = 5

    def __init__(self, strategy, rows, cols, ships):
        self.strategy, self.rows, self.cols = strategy, rows, cols
        self.ship = bytearray(rows * cols)
        for r, c, size, o in ships:
            for k in range(size):
                rr, cc = (r, c + k) if o == "E" else (r + k, c)
                self.ship[rr * cols + cc] = 1
        self.left = sum(self.ship)
        self.scans = 0
        # 0 unknown, 1 hit, 2 miss, 3 eliminated
        self.state = bytearray(rows * cols)

    # ----------------------------------------------------------------- probing
    def probe(self, x):
        """Scans cell x; returns True on a ship."""
        self.scans += 1
        if self.ship[x]:
            self.state[x] = 1
            self.left -= 1
            return True
        self.state[x] = 2
        return False

    def diagonals(self, x):
        r, c = divmod(x, self.cols)
        out = []
        for dr, dc in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                out.append(rr * self.cols + cc)
        return out

    def orthogonals(self, x):
        """N, E, S, W neighbours inside the board."""
        r, c = divmod(x, self.cols)
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                out.append(rr * self.cols + cc)
        return out

    # --------------------------------------------------------------- strategies
    def linear(self):
        x = 0
        while self.left > 0:
            self.probe(x)
            x += 1

    def front_neighbours(self, x):
        """The cells a smart hit moves to the front of boardList, first one first."""
        r, c = divmod(x, self.cols)
        out = []
        if c + 1 < self.cols:
            out.append(x + 1)
        if r + 1 < self.rows:
            out.append(x + self.cols)
        return out

    def smart(self):
        n = self.rows * self.cols
        # where[x]: 0 in the row-major tail, 1 moved to the front, 2 out of the list
        where = bytearray(n)
        stamp = [0] * n
        front = []  # stack of (cell, stamp), the list's first cell last
        cursor = 0
        while self.left > 0:
            x = -1
            while front:
                y, s = front.pop()
                if where[y] == 1 and stamp[y] == s:
                    x = y
                    break
            if x < 0:
                while where[cursor] != 0:
                    cursor += 1
                x = cursor
            where[x] = 2
            if self.probe(x):
                for d in self.diagonals(x):
                    if where[d] != 2:
                        where[d] = 2
                        self.state[d] = 3
                moved = [y for y in self.front_neighbours(x) if where[y] != 2]
                for y in reversed(moved):
                    where[y] = 1
                    stamp[y] += 1
                    front.append((y, stamp[y]))

    # Among equal likelihoods the first cell in row-major order wins.
    LAST_AMONG_EQUALS = False

    def prob(self):
        rows, cols = self.rows, self.cols
        n = rows * cols
        cap = lambda v: 4 if v > 4 else v  # noqa: E731
        table = placements(self.SIZES)
        # Heap keys: the cell, or its mirror when the last cell among equals wins.
        last = self.LAST_AMONG_EQUALS
        key = (lambda x: n - 1 - x) if last else (lambda x: x)  # noqa: E731
        # Free run lengths (capped) before and after each cell, in its row and column.
        west = bytearray(cap(x % cols) for x in range(n))
        east = bytearray(cap(cols - 1 - x % cols) for x in range(n))
        north = bytearray(cap(x // cols) for x in range(n))
        south = bytearray(cap(rows - 1 - x // cols) for x in range(n))
        score = [table[west[x]][east[x]] + table[north[x]][south[x]] for x in range(n)]
        top = max(score) if n else 0
        buckets = [[] for _ in range(top + 1)]
        for k in range(n):  # increasing keys: each bucket is a valid heap
            x = n - 1 - k if last else k
            buckets[score[x]].append(k)
        blocked = bytearray(n)
        inlist = bytearray(n)
        queue = deque()
        level = top

        def block(x):
            blocked[x] = 1
            r, c = divmod(x, cols)
            for d in range(1, 5):  # west of x: their east run now ends at x
                if c - d < 0 or blocked[x - d]:
                    break
                y = x - d
                east[y] = d - 1
                rescore(y)
            for d in range(1, 5):
                if c + d >= cols or blocked[x + d]:
                    break
                y = x + d
                west[y] = d - 1
                rescore(y)
            for d in range(1, 5):
                if r - d < 0 or blocked[x - d * cols]:
                    break
                y = x - d * cols
                south[y] = d - 1
                rescore(y)
            for d in range(1, 5):
                if r + d >= rows or blocked[x + d * cols]:
                    break
                y = x + d * cols
                north[y] = d - 1
                rescore(y)

        def rescore(y):
            s = table[west[y]][east[y]] + table[north[y]][south[y]]
            if s != score[y]:
                score[y] = s
                heapq.heappush(buckets[s], key(y))

        while self.left > 0:
            x = -1
            while queue:
                y = queue.popleft()
                if not blocked[y]:
                    x = y
                    break
            if x < 0:
                while True:
                    b = buckets[level]
                    while b:
                        k = b[0]
                        y = n - 1 - k if last else k
                        if blocked[y] or score[y] != level:
                            heapq.heappop(b)
                        else:
                            x = y
                            break
                    if x >= 0:
                        break
                    level -= 1
            inlist[x] = 0
            block(x)
            if self.probe(x):
                for d in self.diagonals(x):
                    if not blocked[d]:
                        block(d)
                        self.state[d] = 3
                    inlist[d] = 0
                for y in self.orthogonals(x):
                    if not blocked[y] and not inlist[y]:
                        inlist[y] = 1
                        queue.append(y)

    # ------------------------------------------------------------------ output
    def cell_char(self, x):
        return "?+XX"[self.state[x]] if self.state[x] else ("O" if self.ship[x] else ".")

    def render(self):
        lines = [str(self.scans)]
        for r in range(self.rows):
            lines.append("".join(self.cell_char(r * self.cols + c) for c in range(self.cols)))
        return "".join(line + "\n" for line in lines)

    def solve(self):
        getattr(self, self.strategy)()
        return self.render()


def read_input(text):
    tokens = text.split()
    strategy = tokens[0]
    rows, cols, n = int(tokens[1]), int(tokens[2]), int(tokens[3])
    ships = []
    for k in range(n):
        t = tokens[4 + 4 * k: 8 + 4 * k]
        ships.append((int(t[0]), int(t[1]), int(t[2]), t[3]))
    return strategy, rows, cols, ships


def main(solver=Solver, text=None):
    if text is None:
        text = sys.stdin.read()
    strategy, rows, cols, ships = read_input(text)
    sys.stdout.write(solver(strategy, rows, cols, ships).solve())


if __name__ == "__main__":
    main()
