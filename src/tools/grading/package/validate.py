"""Input validator of the Spot the ships problem package: exit 42 when stdin is
one valid input in its exact layout, 43 (with the reason on stderr) otherwise.

Layout: the rule's name on the first line; `R C N` on the second; the N ships
on the third, four items each, every item separated by one space (the line is
empty when N = 0); each line ends with a newline and nothing follows.
Rules: 1 <= R, C <= 300, 0 <= N <= R * C; a ship has 1 to 5 cells, all inside
the grid; no two ships overlap or touch, not even diagonally.
"""
import re
import sys

MAX_SIDE = 300
NUMBER = re.compile(rb"0|[1-9][0-9]{0,6}")


def reject(why):
    sys.stderr.write(why + "\n")
    sys.exit(43)


def number(token, what, low, high):
    if not NUMBER.fullmatch(token):
        reject(f"{what}: not a number in plain form: {token[:20]!r}")
    value = int(token)
    if not low <= value <= high:
        reject(f"{what}: {value} is not between {low} and {high}")
    return value


def main():
    data = sys.stdin.buffer.read()
    if not data.endswith(b"\n"):
        reject("the input does not end with a newline")
    lines = data[:-1].split(b"\n")
    if len(lines) != 3:
        reject(f"expected 3 lines, got {len(lines)}")
    rule, size, fleet = lines
    if rule not in (b"linear", b"smart", b"prob"):
        reject(f"unknown rule {rule[:20]!r}")
    words = size.split(b" ")
    if len(words) != 3:
        reject("the second line must hold R C N separated by single spaces")
    rows = number(words[0], "R", 1, MAX_SIDE)
    cols = number(words[1], "C", 1, MAX_SIDE)
    count = number(words[2], "N", 0, rows * cols)
    items = fleet.split(b" ") if fleet else []
    if len(items) != 4 * count:
        reject(f"the third line must hold 4 * N = {4 * count} items separated by single spaces, got {len(items)}")
    owner = [-1] * (rows * cols)
    for k in range(count):
        r = number(items[4 * k], f"ship {k + 1}: row", 0, rows - 1)
        c = number(items[4 * k + 1], f"ship {k + 1}: column", 0, cols - 1)
        length = number(items[4 * k + 2], f"ship {k + 1}: length", 1, 5)
        way = items[4 * k + 3]
        if way not in (b"E", b"S"):
            reject(f"ship {k + 1}: orientation must be E or S, got {way[:20]!r}")
        dr, dc = (1, 0) if way == b"S" else (0, 1)
        if r + dr * (length - 1) >= rows or c + dc * (length - 1) >= cols:
            reject(f"ship {k + 1} leaves the grid")
        for i in range(length):
            rr, cc = r + dr * i, c + dc * i
            for nr in range(rr - 1, rr + 2):
                for nc in range(cc - 1, cc + 2):
                    if 0 <= nr < rows and 0 <= nc < cols and owner[nr * cols + nc] not in (-1, k):
                        reject(f"ship {k + 1} overlaps or touches ship {owner[nr * cols + nc] + 1}")
        for i in range(length):
            owner[(r + dr * i) * cols + c + dc * i] = k
    sys.exit(42)


if __name__ == "__main__":
    main()
