#!/usr/bin/env python3
"""Planted bug (endless loop on a corner case): linear's index wraps one cell early
(x % (n - 1)), so it never scans the bottom-right cell; when a ship lies there, the
loop never ends. Expected: TLE."""
from reference import Solver, main


class Wrong(Solver):
    def linear(self):
        n = self.rows * self.cols
        x = 0
        while self.left > 0:
            if self.state[x] == 0:
                self.probe(x)
            x = (x + 1) % max(1, n - 1)


main(Wrong)
