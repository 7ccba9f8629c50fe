//! The least a referee can do, for tests/bench/arena.sh: replays to a bot, over pipes,
//! the very input `simulate --bot` gave it (recorded with tee), waiting for one line of
//! the bot wherever simulate waited for a probe (after each `rules` line, and after each
//! answer not followed by `done`), with no game logic, no clock and no threads. Its time
//! is the bot's own work plus the protocol's round trips, which no referee can avoid;
//! simulate's time per game beyond it is simulate's overhead.
//!     rustc -O tests/bench/replay.rs -o replay && ./replay INPUT CMD [ARG...]
//! Prints the microseconds per game (games: the `done` lines of INPUT). Standard
//! library only.
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some((program, rest))) = (args.first(), args.get(1..).and_then(|a| a.split_first())) else {
        return Err(std::io::Error::other("usage: replay INPUT CMD [ARG...]"));
    };
    let text = std::fs::read_to_string(input)?;
    let lines: Vec<&str> = text.lines().collect();
    // Where the bot speaks: after line i when the bot is then awaited.
    let awaited: Vec<bool> = (0..lines.len())
        .map(|i| {
            let line = lines.get(i).copied().unwrap_or("");
            let next = lines.get(i + 1).copied().unwrap_or("");
            line.starts_with("rules")
                || ((line.starts_with("hit") || line.starts_with("miss") || line.starts_with("sunk"))
                    && !next.starts_with("done"))
        })
        .collect();
    let games = lines.iter().filter(|l| l.starts_with("done")).count();
    let mut child = Command::new(program).args(rest).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
    let (Some(to), Some(from)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(std::io::Error::other("no pipes"));
    };
    let mut to = std::io::BufWriter::new(to);
    let mut from = BufReader::new(from);
    let mut probe = String::new();
    let start = std::time::Instant::now();
    for (line, wait) in lines.iter().zip(&awaited) {
        to.write_all(line.as_bytes())?;
        to.write_all(b"\n")?;
        if *wait {
            to.flush()?;
            probe.clear();
            if from.read_line(&mut probe)? == 0 {
                return Err(std::io::Error::other("the bot's output ended early"));
            }
        }
    }
    to.flush()?;
    drop(to);
    child.wait()?;
    let elapsed = start.elapsed();
    println!("{:.1}", elapsed.as_secs_f64() * 1e6 / games.max(1) as f64);
    Ok(())
}
