// Spot the ships: an accepted solution written for the problem package.
//
// smart keeps its list as a doubly linked list over the cells (every step
// O(1)); prob keeps, for each free cell, how many free cells (at most 4) lie
// before and after it in its row and in its column, so blocking a cell changes
// the likelihood of at most 16 cells, and finds the best cell with a lazy
// max-heap.
#include <algorithm>
#include <deque>
#include <iostream>
#include <queue>
#include <string>
#include <utility>
#include <vector>

int main() {
    std::ios::sync_with_stdio(false);
    std::string rule;
    int rows, cols, count;
    std::cin >> rule >> rows >> cols >> count;
    const int n = rows * cols;
    std::vector<char> ship(n, 0), seen(n, 0);  // seen: 0 untouched, 1 scanned, 2 eliminated
    for (int k = 0; k < count; k++) {
        int r, c, length;
        std::string way;
        std::cin >> r >> c >> length >> way;
        for (int i = 0; i < length; i++) ship[way == "S" ? (r + i) * cols + c : r * cols + c + i] = 1;
    }
    long left = 0;
    for (char s : ship) left += s;
    long scans = 0;
    auto corners = [&](int x) {
        std::vector<int> out;
        int r = x / cols, c = x % cols;
        const int d[4][2] = {{-1, 1}, {1, 1}, {1, -1}, {-1, -1}};
        for (auto& v : d)
            if (r + v[0] >= 0 && r + v[0] < rows && c + v[1] >= 0 && c + v[1] < cols)
                out.push_back((r + v[0]) * cols + c + v[1]);
        return out;
    };

    if (rule == "linear") {
        for (int x = 0; left > 0; x++) {
            seen[x] = 1;
            scans++;
            left -= ship[x];
        }
    } else if (rule == "smart") {
        const int head = n;  // the sentinel before the first cell of the list
        std::vector<int> after(n + 1), before(n + 1);
        std::vector<char> listed(n, 1);
        for (int i = 0; i <= n; i++) {
            after[i] = (i + 1) % (n + 1);
            before[i] = (i + n) % (n + 1);
        }
        auto unlink = [&](int x) {
            after[before[x]] = after[x];
            before[after[x]] = before[x];
            listed[x] = 0;
        };
        auto to_front = [&](int x) {
            int first = after[head];
            after[head] = x, before[x] = head, after[x] = first, before[first] = x;
            listed[x] = 1;
        };
        while (left > 0) {
            int x = after[head];
            unlink(x);
            seen[x] = 1;
            scans++;
            if (!ship[x]) continue;
            left--;
            for (int d : corners(x))
                if (listed[d]) unlink(d), seen[d] = 2;
            int r = x / cols, c = x % cols;
            if (r + 1 < rows && listed[x + cols]) unlink(x + cols), to_front(x + cols);
            if (c + 1 < cols && listed[x + 1]) unlink(x + 1), to_front(x + 1);
        }
    } else {
        int fits[5][5];
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 5; b++) {
                fits[a][b] = 0;
                for (int s = 1; s <= 5; s++) fits[a][b] += std::max(0, std::min(a, s - 1) + std::min(b, s - 1) - s + 2);
            }
        std::vector<int> west(n), east(n), north(n), south(n), score(n);
        std::priority_queue<std::pair<int, int>> heap;  // (score, -cell): best score, then first cell
        for (int x = 0; x < n; x++) {
            west[x] = std::min(4, x % cols), east[x] = std::min(4, cols - 1 - x % cols);
            north[x] = std::min(4, x / cols), south[x] = std::min(4, rows - 1 - x / cols);
            score[x] = fits[west[x]][east[x]] + fits[north[x]][south[x]];
            heap.push({score[x], -x});
        }
        std::vector<char> blocked(n, 0), queued(n, 0);
        std::deque<int> queue;
        auto update = [&](int y) {
            int s = fits[west[y]][east[y]] + fits[north[y]][south[y]];
            if (s != score[y]) score[y] = s, heap.push({s, -y});
        };
        auto block = [&](int x) {
            blocked[x] = 1;
            int r = x / cols, c = x % cols;
            for (int d = 1; d < 5 && c - d >= 0 && !blocked[x - d]; d++) east[x - d] = d - 1, update(x - d);
            for (int d = 1; d < 5 && c + d < cols && !blocked[x + d]; d++) west[x + d] = d - 1, update(x + d);
            for (int d = 1; d < 5 && r - d >= 0 && !blocked[x - d * cols]; d++)
                south[x - d * cols] = d - 1, update(x - d * cols);
            for (int d = 1; d < 5 && r + d < rows && !blocked[x + d * cols]; d++)
                north[x + d * cols] = d - 1, update(x + d * cols);
        };
        while (left > 0) {
            int x = -1;
            while (x < 0 && !queue.empty()) {
                int y = queue.front();
                queue.pop_front();
                queued[y] = 0;
                if (!blocked[y]) x = y;
            }
            while (x < 0) {
                auto [s, minus] = heap.top();
                if (blocked[-minus] || s != score[-minus]) heap.pop();
                else x = -minus;
            }
            block(x);
            seen[x] = 1;
            scans++;
            if (!ship[x]) continue;
            left--;
            for (int d : corners(x))
                if (!blocked[d]) block(d), seen[d] = 2;
            int r = x / cols, c = x % cols;
            const int next[4] = {r > 0 ? x - cols : -1, c + 1 < cols ? x + 1 : -1, r + 1 < rows ? x + cols : -1,
                                 c > 0 ? x - 1 : -1};
            for (int y : next)
                if (y >= 0 && !blocked[y] && !queued[y]) queued[y] = 1, queue.push_back(y);
        }
    }
    std::string out = std::to_string(scans) + "\n";
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int x = r * cols + c;
            out += !seen[x] ? '.' : (ship[x] ? '+' : 'X');
        }
        out += '\n';
    }
    std::cout << out;
}
