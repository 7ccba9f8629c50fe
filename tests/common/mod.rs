//! Helpers shared by the integration tests: running the real binary, and a slow,
//! independent implementation of the judge written straight from SPEC (plain vectors,
//! the likelihood recomputed in full at every read) to check goldens against.
#![allow(dead_code, clippy::needless_range_loop)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Starts the built binary with `args`, its stdin, stdout and stderr pipes.
pub fn spawn<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts")
}

/// Runs the built binary with `args`, feeding `stdin`.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn(args);
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("binary finishes");
    writer.join().expect("writer");
    out
}

/// What one game of `referee` against `play` through pipes gave.
pub struct Game {
    /// The player's output after its last question: placement lines, count, grid.
    pub output: String,
    pub play_status: Option<i32>,
    pub referee_status: Option<i32>,
    pub play_stderr: String,
    pub referee_stderr: String,
}

/// Runs `referee REF_ARGS` and `play PLAY_ARGS` as two processes: the referee's stdout
/// is the player's stdin; the player's questions are passed back to the referee.
pub fn game(referee_args: &[&str], play_args: &[&str]) -> Game {
    use std::io::{BufRead, BufReader};
    let bin = env!("CARGO_BIN_EXE_spot-the-ships");
    let mut referee = Command::new(bin)
        .arg("referee")
        .args(referee_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("referee starts");
    let from_referee = referee.stdout.take().expect("referee stdout");
    let mut to_referee = referee.stdin.take().expect("referee stdin");
    let mut play = Command::new(bin)
        .arg("play")
        .args(play_args)
        .stdin(Stdio::from(from_referee))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("play starts");
    let mut from_play = BufReader::new(play.stdout.take().expect("play stdout"));
    let mut output = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if from_play.read_line(&mut line).expect("read play") == 0 {
            break;
        }
        if line.starts_with("? ") {
            // A closed referee (it stopped on an error) is reported by its status.
            let _ = to_referee.write_all(line.as_bytes());
            let _ = to_referee.flush();
        } else {
            output.push_str(&line);
        }
    }
    drop(to_referee);
    let play_out = play.wait_with_output().expect("play ends");
    let referee_out = referee.wait_with_output().expect("referee ends");
    Game {
        output,
        play_status: play_out.status.code(),
        referee_status: referee_out.status.code(),
        play_stderr: String::from_utf8_lossy(&play_out.stderr).into_owned(),
        referee_stderr: String::from_utf8_lossy(&referee_out.stderr).into_owned(),
    }
}

/// A parsed judge input, kept deliberately simple.
pub struct Problem {
    pub strategy: String,
    pub rows: usize,
    pub cols: usize,
    pub ship: Vec<Vec<bool>>,
}

/// Parses a valid judge input (panics on anything else: test data only).
pub fn parse(text: &str) -> Problem {
    let t: Vec<&str> = text.split_whitespace().collect();
    let rows: usize = t[1].parse().unwrap();
    let cols: usize = t[2].parse().unwrap();
    let n: usize = t[3].parse().unwrap();
    let mut ship = vec![vec![false; cols]; rows];
    for k in 0..n {
        let r: usize = t[4 + 4 * k].parse().unwrap();
        let c: usize = t[5 + 4 * k].parse().unwrap();
        let s: usize = t[6 + 4 * k].parse().unwrap();
        for i in 0..s {
            if t[7 + 4 * k] == "E" {
                ship[r][c + i] = true;
            } else {
                ship[r + i][c] = true;
            }
        }
    }
    Problem { strategy: t[0].to_string(), rows, cols, ship }
}

const WATER: u8 = b'.';

/// The judge's expected output for `p`, computed the slow, obvious way.
pub fn solve(p: &Problem) -> String {
    let (rows, cols) = (p.rows, p.cols);
    let mut grid = vec![vec![WATER; cols]; rows];
    let mut count: usize = p.ship.iter().flatten().filter(|&&s| s).count();
    let mut scans = 0;
    let inside = |r: isize, c: isize| r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols;
    let diagonals = |r: usize, c: usize| {
        [(-1, 1), (1, 1), (1, -1), (-1, -1)]
            .iter()
            .map(move |(dr, dc)| (r as isize + dr, c as isize + dc))
            .filter(|&(a, b)| inside(a, b))
            .map(|(a, b)| (a as usize, b as usize))
            .collect::<Vec<_>>()
    };
    let all: Vec<(usize, usize)> = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
    match p.strategy.as_str() {
        "linear" => {
            for &(r, c) in &all {
                if count == 0 {
                    break;
                }
                scans += 1;
                grid[r][c] = if p.ship[r][c] { b'+' } else { b'X' };
                count -= usize::from(p.ship[r][c]);
            }
        }
        "smart" => {
            let mut list = all.clone();
            while count > 0 {
                let (r, c) = list.remove(0);
                scans += 1;
                if p.ship[r][c] {
                    grid[r][c] = b'+';
                    count -= 1;
                    for d in diagonals(r, c) {
                        if let Some(k) = list.iter().position(|&x| x == d) {
                            list.remove(k);
                            grid[d.0][d.1] = b'X';
                        }
                    }
                    let mut front = Vec::new();
                    for d in [(r, c + 1), (r + 1, c)] {
                        if let Some(k) = list.iter().position(|&x| x == d) {
                            list.remove(k);
                            front.push(d);
                        }
                    }
                    for (k, d) in front.into_iter().enumerate() {
                        list.insert(k, d);
                    }
                } else {
                    grid[r][c] = b'X';
                }
            }
        }
        "prob" => {
            let mut blocked = vec![vec![false; cols]; rows];
            let mut list: Vec<(usize, usize)> = Vec::new();
            while count > 0 {
                let (r, c) = if !list.is_empty() {
                    list.remove(0)
                } else {
                    let m = likelihood(rows, cols, &blocked);
                    let mut best = (0, 0);
                    let mut top = i32::MIN;
                    for &(r, c) in &all {
                        if !blocked[r][c] && m[r][c] > top {
                            top = m[r][c];
                            best = (r, c);
                        }
                    }
                    best
                };
                scans += 1;
                blocked[r][c] = true;
                if p.ship[r][c] {
                    grid[r][c] = b'+';
                    count -= 1;
                    for d in diagonals(r, c) {
                        if !blocked[d.0][d.1] {
                            blocked[d.0][d.1] = true;
                            grid[d.0][d.1] = b'X';
                        }
                        list.retain(|&x| x != d);
                    }
                    for (dr, dc) in [(-1isize, 0isize), (0, 1), (1, 0), (0, -1)] {
                        let (a, b) = (r as isize + dr, c as isize + dc);
                        if inside(a, b) {
                            let n = (a as usize, b as usize);
                            if !blocked[n.0][n.1] && !list.contains(&n) {
                                list.push(n);
                            }
                        }
                    }
                } else {
                    grid[r][c] = b'X';
                }
            }
        }
        other => panic!("reference has no strategy {other}"),
    }
    let mut out = format!("{scans}\n");
    for r in 0..rows {
        for c in 0..cols {
            let ch = if grid[r][c] == WATER && p.ship[r][c] { b'O' } else { grid[r][c] };
            out.push(ch as char);
        }
        out.push('\n');
    }
    out
}

/// The statement's likelihood matrix, by listing every placement of every size.
pub fn likelihood(rows: usize, cols: usize, blocked: &[Vec<bool>]) -> Vec<Vec<i32>> {
    let mut m = vec![vec![0i32; cols]; rows];
    for s in 1..=5usize {
        for r in 0..rows {
            for c in 0..cols {
                if c + s <= cols && (0..s).all(|i| !blocked[r][c + i]) {
                    (0..s).for_each(|i| m[r][c + i] += 1);
                }
                if r + s <= rows && (0..s).all(|i| !blocked[r + i][c]) {
                    (0..s).for_each(|i| m[r + i][c] += 1);
                }
            }
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            if blocked[r][c] {
                m[r][c] = -1;
            }
        }
    }
    m
}

/// A sonar answering from a board but hiding its fleet (only the ship-cell count), as
/// `play --cells N` does.
pub struct NoFleet<'a>(pub spot_the_ships::scan::referee::Referee<'a>);

impl spot_the_ships::scan::sonar::Sonar for NoFleet<'_> {
    fn rows(&self) -> usize {
        spot_the_ships::scan::sonar::Sonar::rows(&self.0)
    }
    fn cols(&self) -> usize {
        spot_the_ships::scan::sonar::Sonar::cols(&self.0)
    }
    fn ship_cells(&self) -> usize {
        spot_the_ships::scan::sonar::Sonar::ship_cells(&self.0)
    }
    fn rules(&self) -> &spot_the_ships::game::rules::Rules {
        spot_the_ships::scan::sonar::Sonar::rules(&self.0)
    }
    fn fleet(&self) -> Option<&spot_the_ships::game::fleet::Fleet> {
        None
    }
    fn probe(
        &mut self,
        pos: spot_the_ships::game::position::Position,
    ) -> Result<spot_the_ships::scan::sonar::Answer, spot_the_ships::scan::sonar::ProbeError> {
        spot_the_ships::scan::sonar::Sonar::probe(&mut self.0, pos)
    }
}

/// The one error line of a run that must fail with status 2 and print nothing.
pub fn error_of(out: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(out.stdout.is_empty(), "{what}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: ") && err.ends_with('\n'), "{what}: {err:?}");
    assert_eq!(err.matches('\n').count(), 1, "{what}: not one line: {err:?}");
    err
}

/// A fresh scratch folder `NAME-PID` in the temporary folder.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
