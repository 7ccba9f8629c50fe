import java.util.ArrayList;
import java.util.List;
import java.util.Scanner;

/**
 * A plain Problem G solution written to follow the statement literally, as a student
 * would: lists of positions (ArrayList, remove from the front, contains), the
 * likelihood matrix recomputed in full before every read. Slow on purpose; used to
 * measure what a faithful student needs (check's default cases and limit). Expected: AC.
 */
public class SpotTheShips {
    /** Pre: stdin holds a valid input. Post: the scans and the final board on stdout. */
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String name = in.next();
        int rows = in.nextInt(), cols = in.nextInt(), n = in.nextInt();
        Board board = new Board(rows, cols);
        for (int k = 0; k < n; k++) {
            int r = in.nextInt(), c = in.nextInt(), size = in.nextInt();
            String o = in.next();
            board.addShip(r, c, size, o.equals("E"));
        }
        Strategy strategy;
        if (name.equals("linear")) {
            strategy = new LinearStrategy();
        } else if (name.equals("smart")) {
            strategy = new SmartStrategy();
        } else {
            strategy = new ProbStrategy();
        }
        List<Position> scanList = new ArrayList<>();
        int scans = strategy.solve(board, scanList);
        System.out.print(scans + "\n" + board.render(scanList));
    }
}

/** A cell of the board. */
class Position {
    final int row, col;

    /** Pre: none. Post: the position (row, col). */
    Position(int row, int col) {
        this.row = row;
        this.col = col;
    }

    /** Pre: none. Post: true for the same row and column. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Position)) {
            return false;
        }
        Position p = (Position) o;
        return p.row == row && p.col == col;
    }

    /** Pre: none. Post: equal positions have equal hashes. */
    @Override
    public int hashCode() {
        return row * 31 + col;
    }
}

/** The bay: its size and its ship cells. */
class Board {
    final int rows, cols;
    private final boolean[][] ship;
    private int shipCells;

    /** Pre: rows, cols >= 1. Post: an empty board. */
    Board(int rows, int cols) {
        this.rows = rows;
        this.cols = cols;
        ship = new boolean[rows][cols];
    }

    /** Pre: the ship fits and touches no other. Post: its cells are ship cells. */
    void addShip(int r, int c, int size, boolean east) {
        for (int i = 0; i < size; i++) {
            if (east) {
                ship[r][c + i] = true;
            } else {
                ship[r + i][c] = true;
            }
            shipCells++;
        }
    }

    /** Pre: none. Post: the number of ship cells. */
    int shipCells() {
        return shipCells;
    }

    /** Pre: none. Post: true when p is inside the board. */
    boolean inside(Position p) {
        return p.row >= 0 && p.row < rows && p.col >= 0 && p.col < cols;
    }

    /** Pre: p inside. Post: true when p is a ship cell. */
    boolean isShip(Position p) {
        return ship[p.row][p.col];
    }

    /** Pre: none. Post: the NE, SE, SW, NW neighbours of p inside the board. */
    List<Position> diagonals(Position p) {
        List<Position> out = new ArrayList<>();
        int[][] d = {{-1, 1}, {1, 1}, {1, -1}, {-1, -1}};
        for (int[] x : d) {
            Position q = new Position(p.row + x[0], p.col + x[1]);
            if (inside(q)) {
                out.add(q);
            }
        }
        return out;
    }

    /** Pre: none. Post: all positions sorted by rows, left to right. */
    List<Position> allPositions() {
        List<Position> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                out.add(new Position(r, c));
            }
        }
        return out;
    }

    /** Pre: none. Post: the board drawn from the scanned cells, a line per row. */
    String render(List<Position> scanList) {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                Position p = new Position(r, c);
                if (scanList.contains(p)) {
                    sb.append(isShip(p) ? '+' : 'X');
                } else {
                    sb.append(isShip(p) ? 'O' : '.');
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}

/** A scanning strategy (the Strategy pattern). */
interface Strategy {
    /** Pre: scanList empty. Post: every ship cell spotted; returns the number of scans. */
    int solve(Board board, List<Position> scanList);
}

/** Left to right, top to bottom. */
class LinearStrategy implements Strategy {
    /** Pre: scanList empty. Post: see Strategy. */
    public int solve(Board board, List<Position> scanList) {
        List<Position> boardList = board.allPositions();
        int count = board.shipCells();
        int scans = 0;
        while (count > 0) {
            Position pos = boardList.remove(0);
            scanList.add(pos);
            scans++;
            if (board.isShip(pos)) {
                count = count - 1;
            }
        }
        return scans;
    }
}

/** Linear, but a hit removes its diagonals and moves E and S to the front. */
class SmartStrategy implements Strategy {
    /** Pre: scanList empty. Post: see Strategy. */
    public int solve(Board board, List<Position> scanList) {
        List<Position> boardList = board.allPositions();
        int count = board.shipCells();
        int scans = 0;
        while (count > 0) {
            Position pos = boardList.remove(0);
            scanList.add(pos);
            scans++;
            if (board.isShip(pos)) {
                for (Position d : board.diagonals(pos)) {
                    if (boardList.contains(d)) {
                        boardList.remove(d);
                        scanList.add(d);
                    }
                }
                Position e = new Position(pos.row, pos.col + 1);
                Position s = new Position(pos.row + 1, pos.col);
                if (boardList.contains(s)) {
                    boardList.remove(s);
                    boardList.add(0, s);
                }
                if (boardList.contains(e)) {
                    boardList.remove(e);
                    boardList.add(0, e);
                }
                count = count - 1;
            }
        }
        return scans;
    }
}

/** The likelihood matrix, recomputed before each read; hits queue their neighbours. */
class ProbStrategy implements Strategy {
    /** Pre: scanList empty. Post: see Strategy. */
    public int solve(Board board, List<Position> scanList) {
        int rows = board.rows, cols = board.cols;
        int[][] matrix = new int[rows][cols];
        List<Position> highProbabilityList = new ArrayList<>();
        int count = board.shipCells();
        int scans = 0;
        while (count > 0) {
            Position pos;
            if (!highProbabilityList.isEmpty()) {
                pos = highProbabilityList.remove(0);
            } else {
                compute(matrix);
                pos = null;
                int best = -1;
                for (int r = 0; r < rows; r++) {
                    for (int c = 0; c < cols; c++) {
                        if (matrix[r][c] > best) {
                            best = matrix[r][c];
                            pos = new Position(r, c);
                        }
                    }
                }
            }
            scanList.add(pos);
            scans++;
            matrix[pos.row][pos.col] = -1;
            if (board.isShip(pos)) {
                count = count - 1;
                for (Position d : board.diagonals(pos)) {
                    if (matrix[d.row][d.col] != -1) {
                        scanList.add(d);
                    }
                    matrix[d.row][d.col] = -1;
                    highProbabilityList.remove(d);
                }
                int[][] nesw = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
                for (int[] x : nesw) {
                    Position q = new Position(pos.row + x[0], pos.col + x[1]);
                    if (board.inside(q) && matrix[q.row][q.col] != -1 && !highProbabilityList.contains(q)) {
                        highProbabilityList.add(q);
                    }
                }
            }
        }
        return scans;
    }

    /** Pre: blocked cells hold -1. Post: every other cell holds its likelihood. */
    static void compute(int[][] matrix) {
        int rows = matrix.length, cols = matrix[0].length;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (matrix[r][c] != -1) {
                    matrix[r][c] = 0;
                }
            }
        }
        for (int size = 1; size <= 5; size++) {
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c + size <= cols; c++) {
                    boolean fits = true;
                    for (int i = 0; i < size; i++) {
                        if (matrix[r][c + i] == -1) {
                            fits = false;
                        }
                    }
                    if (fits) {
                        for (int i = 0; i < size; i++) {
                            matrix[r][c + i]++;
                        }
                    }
                }
            }
            for (int c = 0; c < cols; c++) {
                for (int r = 0; r + size <= rows; r++) {
                    boolean fits = true;
                    for (int i = 0; i < size; i++) {
                        if (matrix[r + i][c] == -1) {
                            fits = false;
                        }
                    }
                    if (fits) {
                        for (int i = 0; i < size; i++) {
                            matrix[r + i][c]++;
                        }
                    }
                }
            }
        }
    }
}
