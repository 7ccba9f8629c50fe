#!/usr/bin/env python3
"""Planted bug (presentation): the last line of the grid has no line break after it.
Expected: PE."""
from reference import Solver, main


class Wrong(Solver):
    def render(self):
        return super().render()[:-1]


main(Wrong)
