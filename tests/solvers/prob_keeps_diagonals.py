#!/usr/bin/env python3
"""Planted bug (elimination): after a hit, prob forgets to block the diagonal
neighbours, so it may scan them later and never draws them as eliminated.
Expected: WA."""
from reference import Solver, main


class Wrong(Solver):
    def diagonals(self, x):
        if self.strategy == "prob":
            return []
        return super().diagonals(x)


main(Wrong)
