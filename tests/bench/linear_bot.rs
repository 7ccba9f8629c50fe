//! A compiled bot for tests/bench/arena.sh: plays linear through the play protocol,
//! game after game, like tests/bots/linear.py, with next to no work of its own, so
//! that its time under `simulate --bot` is the protocol's cost. Standard library only:
//!     rustc -O tests/bench/linear_bot.rs -o linear-bot [--times FILE]
//! Straight fleets only (`fleet SIZES`). With --times FILE, it writes the processor time
//! it used (user and system, from /proc/self/stat, in seconds) and the games it played to
//! FILE when its input ends.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut line = String::new();
    let times = std::env::args().skip_while(|a| a != "--times").nth(1);
    let mut games = 0u64;
    let mut read = |line: &mut String| {
        line.clear();
        input.read_line(line).unwrap_or(0)
    };
    while read(&mut line) > 0 {
        if line.starts_with("game ") && read(&mut line) == 0 {
            break;
        }
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
        games += 1;
    }
    drop(out);
    if let Some(file) = times {
        let _ = std::fs::write(file, format!("{} {games}\n", cpu_seconds()));
    }
}

/// The processor time this process used so far: utime and stime of /proc/self/stat,
/// in clock ticks of 1/100 s.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's `(name)`: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: u64 = rest.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<u64>().ok()).sum();
    ticks as f64 / 100.0
}
