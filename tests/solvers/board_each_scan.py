#!/usr/bin/env python3
"""Planted bug (debug output): the program prints the board after every scan, which
on a large board is far more output than the judge allows. Expected: OLE (and WA on
small boards)."""
import sys

from reference import Solver, main


class Wrong(Solver):
    def probe(self, x):
        hit = super().probe(x)
        sys.stdout.write(self.render())
        return hit


main(Wrong)
