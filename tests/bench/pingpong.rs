//! The floor of any pipe protocol on this machine, for tests/bench/arena.sh: N round
//! trips of a probe-sized line through `cat` (write, flush, read the line back).
//!     rustc -O tests/bench/pingpong.rs -o pingpong && ./pingpong 200000
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn main() -> std::io::Result<()> {
    let n: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let mut child = Command::new("cat").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
    let (Some(mut to), Some(from)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(std::io::Error::other("no pipes"));
    };
    let mut from = BufReader::new(from);
    let mut line = String::new();
    let start = std::time::Instant::now();
    for _ in 0..n {
        to.write_all(b"? 0 0\n")?;
        to.flush()?;
        line.clear();
        from.read_line(&mut line)?;
    }
    println!("{:.2}", start.elapsed().as_secs_f64() * 1e6 / f64::from(n.max(1)));
    drop(to);
    child.wait()?;
    Ok(())
}
