#!/usr/bin/env python3
"""Planted bug (presentation): water is drawn with a lower-case `x`. Expected: PE."""
from reference import Solver, main


class Wrong(Solver):
    def cell_char(self, x):
        return super().cell_char(x).replace("X", "x")


main(Wrong)
