#!/usr/bin/env python3
"""Planted bug (crash on an empty fleet): the program looks up the longest ship with
max(), which fails when there is no ship (n = 0). Expected: RE."""
from reference import Solver, main


class Wrong(Solver):
    def __init__(self, strategy, rows, cols, ships):
        self.longest = max(size for _, _, size, _ in ships)
        super().__init__(strategy, rows, cols, ships)


main(Wrong)
