#!/usr/bin/env python3
"""Planted bug (presentation): each row of the grid is printed with a space after it.
Expected: PE."""
from reference import Solver, main


class Wrong(Solver):
    def render(self):
        lines = super().render().split("\n")
        return "\n".join([lines[0]] + [row + " " if row else row for row in lines[1:]])


main(Wrong)
