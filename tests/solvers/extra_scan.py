#!/usr/bin/env python3
"""Planted bug (an extra scan): linear's loop runs once more after the last ship cell
is spotted (an off-by-one in its condition), so it scans one cell too many.
Expected: WA."""
from reference import Solver, main


class Wrong(Solver):
    def linear(self):
        x, n = 0, self.rows * self.cols
        while self.left > 0 and x < n:
            self.probe(x)
            x += 1
        if x < n:
            self.probe(x)


main(Wrong)
