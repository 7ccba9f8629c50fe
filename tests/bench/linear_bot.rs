//! A compiled bot for tests/bench/arena.sh: plays linear through the play protocol,
//! game after game, like tests/bots/linear.py, with next to no work of its own, so
//! that its time under `simulate --bot` is the protocol's cost. Standard library only:
//!     rustc -O tests/bench/linear_bot.rs -o linear-bot
//! Straight fleets only (`fleet SIZES`).
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut line = String::new();
    let mut read = |line: &mut String| {
        line.clear();
        input.read_line(line).unwrap_or(0)
    };
    while read(&mut line) > 0 {
        let mut words = line.split_whitespace().skip(1).map(|w| w.parse::<usize>().unwrap_or(0));
        let (rows, cols) = (words.next().unwrap_or(0), words.next().unwrap_or(0));
        let mut left = 0;
        loop {
            read(&mut line);
            if let Some(sizes) = line.strip_prefix("fleet ") {
                left = sizes.trim().split(',').map(|s| s.parse::<usize>().unwrap_or(0)).sum();
            }
            if line.starts_with("rules") || line.is_empty() {
                break;
            }
        }
        'game: for r in 0..rows {
            for c in 0..cols {
                if left == 0 {
                    break 'game;
                }
                let _ = writeln!(out, "? {r} {c}");
                let _ = out.flush();
                read(&mut line);
                if line.starts_with("hit") || line.starts_with("sunk") {
                    left -= 1;
                }
            }
        }
        read(&mut line); // done N
    }
}
