import java.util.Scanner;

/**
 * Planted bug (a student who implemented linear only, as the statement suggests doing
 * first): every strategy scans row by row. Expected: WA on the smart and prob cases.
 */
public class LinearOnly {
    /** Pre: stdin holds a valid judge input. Post: the linear scan's output on stdout. */
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        in.next(); // the strategy, ignored
        int rows = in.nextInt(), cols = in.nextInt(), n = in.nextInt();
        boolean[] ship = new boolean[rows * cols];
        int left = 0;
        for (int k = 0; k < n; k++) {
            int r = in.nextInt(), c = in.nextInt(), size = in.nextInt();
            boolean east = in.next().equals("E");
            for (int i = 0; i < size; i++) {
                ship[east ? r * cols + c + i : (r + i) * cols + c] = true;
                left++;
            }
        }
        char[] grid = new char[rows * cols];
        int scans = 0;
        for (int x = 0; x < rows * cols; x++) {
            grid[x] = ship[x] ? 'O' : '.';
        }
        for (int x = 0; left > 0; x++) {
            scans++;
            grid[x] = ship[x] ? '+' : 'X';
            if (ship[x]) {
                left--;
            }
        }
        StringBuilder out = new StringBuilder().append(scans).append('\n');
        for (int r = 0; r < rows; r++) {
            out.append(grid, r * cols, cols).append('\n');
        }
        System.out.print(out);
    }
}
