#!/usr/bin/env python3
"""Planted bug (row end): smart finds the E neighbour as the next index without
checking the end of the row, so a hit in the last column moves the first cell of the
next row to the front of boardList. Expected: WA."""
from reference import Solver, main


class Wrong(Solver):
    def front_neighbours(self, x):
        n = self.rows * self.cols
        return [y for y in (x + 1, x + self.cols) if y < n]


main(Wrong)
