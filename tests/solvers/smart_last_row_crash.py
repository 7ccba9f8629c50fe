#!/usr/bin/env python3
"""Planted bug (crash on the last row): smart's diagonal neighbours are checked against
the bottom edge with <= instead of <, so a hit in the last row with a cell beside it
looks past the end of the board. Expected: RE (IndexError), and a 1x2 board as the
shrunk input: `smart / 1 2 1 / 0 0 1 E`."""
from reference import Solver, main


class Wrong(Solver):
    def diagonals(self, x):
        if self.strategy != "smart":
            return super().diagonals(x)
        r, c = divmod(x, self.cols)
        out = []
        for dr, dc in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr <= self.rows and 0 <= cc < self.cols:
                out.append(rr * self.cols + cc)
        for d in out:
            self.state[d]  # the bytearray raises IndexError past its end
        return out


main(Wrong)
