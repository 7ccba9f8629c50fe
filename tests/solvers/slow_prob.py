#!/usr/bin/env python3
"""Planted bug (too slow): prob recomputes the whole likelihood matrix, run by run,
every time it reads it: right, but far too slow on a large board. Expected: TLE."""
from collections import deque

from reference import Solver, main


class Wrong(Solver):
    def prob(self):
        rows, cols = self.rows, self.cols
        blocked = [False] * (rows * cols)
        queue = deque()

        def runs_score(cells):
            """Placements of ships of 1..5 cells through each cell of a line."""
            score = [0] * len(cells)
            start = 0
            while start < len(cells):
                if blocked[cells[start]]:
                    start += 1
                    continue
                end = start
                while end < len(cells) and not blocked[cells[end]]:
                    end += 1
                for size in range(1, 6):
                    for a in range(start, end - size + 1):
                        for k in range(a, a + size):
                            score[k] += 1
                start = end
            return score

        def best():
            total = [0] * (rows * cols)
            for r in range(rows):
                line = [r * cols + c for c in range(cols)]
                for x, s in zip(line, runs_score(line)):
                    total[x] += s
            for c in range(cols):
                line = [r * cols + c for r in range(rows)]
                for x, s in zip(line, runs_score(line)):
                    total[x] += s
            top, where = -1, -1
            for x in range(rows * cols):
                if not blocked[x] and total[x] > top:
                    top, where = total[x], x
            return where

        while self.left > 0:
            x = -1
            while queue:
                y = queue.popleft()
                if not blocked[y]:
                    x = y
                    break
            if x < 0:
                x = best()
            blocked[x] = True
            if self.probe(x):
                for d in self.diagonals(x):
                    if not blocked[d]:
                        blocked[d] = True
                        self.state[d] = 3
                for y in self.orthogonals(x):
                    if not blocked[y] and y not in queue:
                        queue.append(y)


main(Wrong)
