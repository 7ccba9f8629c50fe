#!/usr/bin/env python3
"""Planted bug (list order): after a hit, smart moves the S neighbour to the front of
boardList before the E one, so the list starts S, E instead of E, S. Expected: WA."""
from reference import Solver, main


class Wrong(Solver):
    def front_neighbours(self, x):
        return list(reversed(super().front_neighbours(x)))


main(Wrong)
