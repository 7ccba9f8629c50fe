#!/usr/bin/env python3
"""Planted bug (presentation): every line ends with CR LF (Windows line ends).
Expected: PE."""
from reference import Solver, main


class Wrong(Solver):
    def render(self):
        return super().render().replace("\n", "\r\n")


main(Wrong)
