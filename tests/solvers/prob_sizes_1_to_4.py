#!/usr/bin/env python3
"""Planted bug (likelihood): prob counts placements of ships of 1 to 4 cells only,
forgetting the 5-cell ships. Expected: WA."""
from reference import Solver, main


class Wrong(Solver):
    SIZES = 4


main(Wrong)
