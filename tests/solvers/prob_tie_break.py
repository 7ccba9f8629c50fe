#!/usr/bin/env python3
"""Planted bug (tie-break): among cells of equal likelihood prob takes the last one in
row-major order (bottom to top, as the statement's prose says) instead of the first.
Expected: WA."""
from reference import Solver, main


class Wrong(Solver):
    LAST_AMONG_EQUALS = True


main(Wrong)
