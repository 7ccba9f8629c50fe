"""Spot the ships: an accepted solution written for the problem package.

smart keeps its list as a doubly linked list over the cells (every step O(1));
prob keeps, for each free cell, how many free cells (at most 4) lie before and
after it in its row and in its column, so blocking a cell changes the
likelihood of at most 16 cells, and finds the best cell with a lazy max-heap.
"""
import heapq
import sys
from collections import deque


def run(words):
    rule = words[0]
    rows, cols, count = int(words[1]), int(words[2]), int(words[3])
    n = rows * cols
    ship = bytearray(n)
    for k in range(count):
        r, c, length, way = words[4 + 4 * k: 8 + 4 * k]
        r, c, length = int(r), int(c), int(length)
        for i in range(length):
            ship[(r + i) * cols + c if way == "S" else r * cols + c + i] = 1
    left = sum(ship)
    seen = bytearray(n)  # 0 untouched, 1 scanned, 2 eliminated
    scans = 0

    def corners(x):
        r, c = divmod(x, cols)
        for dr, dc in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                yield (r + dr) * cols + c + dc

    if rule == "linear":
        x = 0
        while left:
            seen[x] = 1
            scans += 1
            left -= ship[x]
            x += 1
    elif rule == "smart":
        head = n  # the sentinel before the first cell of the list
        after = list(range(1, n + 1)) + [0]
        before = [n] + list(range(n))
        listed = bytearray([1]) * n

        def unlink(x):
            after[before[x]] = after[x]
            before[after[x]] = before[x]
            listed[x] = 0

        def to_front(x):
            first = after[head]
            after[head], before[x], after[x], before[first] = x, head, first, x
            listed[x] = 1

        while left:
            x = after[head]
            unlink(x)
            seen[x] = 1
            scans += 1
            if ship[x]:
                left -= 1
                for d in corners(x):
                    if listed[d]:
                        unlink(d)
                        seen[d] = 2
                r, c = divmod(x, cols)
                for y, inside in ((x + cols, r + 1 < rows), (x + 1, c + 1 < cols)):
                    if inside and listed[y]:
                        unlink(y)
                        to_front(y)
    else:
        fits = [[sum(max(0, min(a, s - 1) + min(b, s - 1) - s + 2) for s in range(1, 6)) for b in range(5)]
                for a in range(5)]
        west = [min(4, x % cols) for x in range(n)]
        east = [min(4, cols - 1 - x % cols) for x in range(n)]
        north = [min(4, x // cols) for x in range(n)]
        south = [min(4, rows - 1 - x // cols) for x in range(n)]
        score = [fits[west[x]][east[x]] + fits[north[x]][south[x]] for x in range(n)]
        heap = [(-score[x], x) for x in range(n)]
        heapq.heapify(heap)
        blocked = bytearray(n)
        queued = bytearray(n)
        queue = deque()

        def update(y):
            s = fits[west[y]][east[y]] + fits[north[y]][south[y]]
            if s != score[y]:
                score[y] = s
                heapq.heappush(heap, (-s, y))

        def block(x):
            blocked[x] = 1
            r, c = divmod(x, cols)
            for d in range(1, 5):
                if c - d < 0 or blocked[x - d]:
                    break
                east[x - d] = d - 1
                update(x - d)
            for d in range(1, 5):
                if c + d >= cols or blocked[x + d]:
                    break
                west[x + d] = d - 1
                update(x + d)
            for d in range(1, 5):
                if r - d < 0 or blocked[x - d * cols]:
                    break
                south[x - d * cols] = d - 1
                update(x - d * cols)
            for d in range(1, 5):
                if r + d >= rows or blocked[x + d * cols]:
                    break
                north[x + d * cols] = d - 1
                update(x + d * cols)

        while left:
            x = -1
            while queue:
                y = queue.popleft()
                queued[y] = 0
                if not blocked[y]:
                    x = y
                    break
            while x < 0:
                s, y = heap[0]
                if blocked[y] or -s != score[y]:
                    heapq.heappop(heap)
                else:
                    x = y
            block(x)
            seen[x] = 1
            scans += 1
            if ship[x]:
                left -= 1
                for d in corners(x):
                    if not blocked[d]:
                        block(d)
                        seen[d] = 2
                r, c = divmod(x, cols)
                for y, inside in ((x - cols, r > 0), (x + 1, c + 1 < cols), (x + cols, r + 1 < rows), (x - 1, c > 0)):
                    if inside and not blocked[y] and not queued[y]:
                        queued[y] = 1
                        queue.append(y)

    out = [str(scans)]
    for r in range(rows):
        out.append("".join("." if not seen[x] else ("+" if ship[x] else "X") for x in range(r * cols, (r + 1) * cols)))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(run(sys.stdin.read().split()))
