#!/usr/bin/env python3
"""Planted bug (debug output): the program prints a debug line on stderr. Its stdout is
right, but Mooshak counts anything on stderr as a runtime error. Expected: RE."""
import sys

from reference import Solver, main


class Wrong(Solver):
    def solve(self):
        print(f"debug: {self.rows}x{self.cols}, {self.left} ship cells", file=sys.stderr)
        return super().solve()


main(Wrong)
