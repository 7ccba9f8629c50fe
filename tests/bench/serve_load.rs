//! The load client of tests/bench/serve-load.sh (standard library only; built with
//! `rustc -O`). Three modes:
//!
//!   serve_load games ADDR CLIENTS [IDLE [THINK_MS]]
//!                                   CLIENTS threads at once, each plays a whole classic
//!                                   game through /api/games (hunt on a checkerboard,
//!                                   then the neighbours of hits); prints the probes'
//!                                   latency percentiles and any error. With IDLE, that
//!                                   many idle connections are opened first and held.
//!                                   With THINK_MS, each player thinks between probes
//!                                   for a time drawn uniformly from 0 to twice THINK_MS
//!                                   (0, the default: no pause at all)
//!   serve_load idle ADDR N          opens N idle connections, then times 200 GETs of
//!                                   /api/rules on one kept-alive connection and 50 on
//!                                   new connections beside them
//!   serve_load advise ADDR N        N sequential /api/advise calls on a classic
//!                                   mid-game; prints their latency percentiles
//!
//! Every request goes over a kept-alive connection, reopened when the server closes it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

struct Conn {
    addr: String,
    io: Option<(BufReader<TcpStream>, TcpStream)>,
}

impl Conn {
    fn send(&mut self, method: &str, path: &str, body: &str) -> Result<(u16, String), String> {
        for attempt in 0..2 {
            let reused = self.io.is_some();
            if self.io.is_none() {
                let s = TcpStream::connect(&self.addr).map_err(|e| format!("connect: {e}"))?;
                s.set_nodelay(true).ok();
                s.set_read_timeout(Some(Duration::from_secs(30))).ok();
                self.io = Some((BufReader::new(s.try_clone().map_err(|e| e.to_string())?), s));
            }
            let (reader, writer) = self.io.as_mut().unwrap();
            let req = format!(
                "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            if writer.write_all(req.as_bytes()).is_err() {
                self.io = None;
                if reused && attempt == 0 {
                    continue;
                }
                return Err("write failed".into());
            }
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) if reused && attempt == 0 => {
                    self.io = None;
                    continue;
                }
                Ok(0) => return Err("closed before answering".into()),
                Err(e) => return Err(format!("read: {e}")),
                Ok(_) => {}
            }
            let status: u16 = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            let (mut length, mut close) = (0usize, false);
            loop {
                let mut h = String::new();
                reader.read_line(&mut h).map_err(|e| e.to_string())?;
                let h = h.trim_end().to_ascii_lowercase();
                if h.is_empty() {
                    break;
                }
                if let Some(v) = h.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                if h == "connection: close" {
                    close = true;
                }
            }
            let mut buf = vec![0u8; length];
            reader.read_exact(&mut buf).map_err(|e| e.to_string())?;
            if close {
                self.io = None;
            }
            return Ok((status, String::from_utf8_lossy(&buf).into_owned()));
        }
        Err("no answer".into())
    }
}

/// Plays one classic game; returns the probes' latencies (microseconds).
fn play(addr: &str, seed: u64, think_ms: u64) -> Result<Vec<u64>, String> {
    let mut c = Conn { addr: addr.to_string(), io: None };
    let (status, body) = c.send("POST", "/api/games", "{\"rules\": \"classic\"}")?;
    if status != 201 {
        return Err(format!("new game: {status} {body}"));
    }
    let token = body.split('"').nth(3).ok_or("no token")?.to_string();
    let mut known = [0u8; 100]; // 0 unknown, 1 miss, 2 hit
    let mut targets: Vec<usize> = Vec::new();
    // The checkerboard cells, shuffled by a small LCG.
    let mut hunt: Vec<usize> = (0..100).filter(|i| (i / 10 + i % 10) % 2 == 0).collect();
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    for i in (1..hunt.len()).rev() {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        hunt.swap(i, (x >> 33) as usize % (i + 1));
    }
    let mut rest: Vec<usize> = (0..100).filter(|i| (i / 10 + i % 10) % 2 == 1).collect();
    let mut times = Vec::new();
    loop {
        let cell = loop {
            let next = targets.pop().or_else(|| hunt.pop()).or_else(|| rest.pop()).ok_or("no cell left")?;
            if known[next] == 0 {
                break next;
            }
        };
        if think_ms > 0 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            std::thread::sleep(Duration::from_micros((x >> 33) % (2 * think_ms * 1000 + 1)));
        }
        let start = Instant::now();
        let (status, body) =
            c.send("POST", &format!("/api/games/{token}/probe"), &format!("{{\"r\": {}, \"c\": {}}}", cell / 10, cell % 10))?;
        times.push(start.elapsed().as_micros() as u64);
        if status != 200 {
            return Err(format!("probe: {status} {body}"));
        }
        let hit = !body.contains("\"answer\": \"miss\"");
        known[cell] = if hit { 2 } else { 1 };
        if hit {
            let (r, col) = (cell / 10, cell % 10);
            if r > 0 { targets.push(cell - 10); }
            if r < 9 { targets.push(cell + 10); }
            if col > 0 { targets.push(cell - 1); }
            if col < 9 { targets.push(cell + 1); }
        }
        if body.contains("\"done\": true") {
            return Ok(times);
        }
    }
}

/// Opens `n` connections that send nothing, and keeps them.
fn open_idle(addr: &str, n: usize) -> Vec<TcpStream> {
    let held: Vec<TcpStream> = (0..n).filter_map(|_| TcpStream::connect(addr).ok()).collect();
    if held.len() < n {
        eprintln!("error: {} of {n} idle connections opened", held.len());
        std::process::exit(1);
    }
    std::thread::sleep(Duration::from_millis(300));
    held
}

fn percentiles(label: &str, mut t: Vec<u64>) {
    t.sort_unstable();
    let at = |q: f64| t.get(((t.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0) as f64 / 1000.0;
    println!(
        "{label}: {} requests, latency ms: p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        t.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

const MID_GAME: &str = "..........\\n....X.....\\n..X.......\\n......X...\\n...X+X....\\n....+.....\\n....X.....\\n.X......X.\\n.....X....\\n..........\\n";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |t: &str| t.parse::<usize>().expect("a number");
    let (mode, addr, n, idle, think_ms) = match args.as_slice() {
        [_, m, a, n] => (m.as_str(), a.clone(), number(n), 0, 0),
        [_, m, a, n, i] => (m.as_str(), a.clone(), number(n), number(i), 0),
        [_, m, a, n, i, t] => (m.as_str(), a.clone(), number(n), number(i), number(t) as u64),
        _ => {
            eprintln!("usage: serve_load games|advise|idle ADDR N [IDLE [THINK_MS]]");
            std::process::exit(2);
        }
    };
    let held = open_idle(&addr, if mode == "idle" { n } else { idle });
    match mode {
        "idle" => {
            let mut c = Conn { addr: addr.clone(), io: None };
            let mut times = Vec::new();
            for _ in 0..200 {
                let start = Instant::now();
                let (status, _) = c.send("GET", "/api/rules", "").expect("rules answer");
                times.push(start.elapsed().as_micros() as u64);
                assert_eq!(status, 200);
            }
            percentiles(&format!("GET /api/rules beside {} idle connections, kept alive", held.len()), times);
            let mut times = Vec::new();
            for _ in 0..50 {
                let mut c = Conn { addr: addr.clone(), io: None };
                let start = Instant::now();
                let (status, _) = c.send("GET", "/api/rules", "").expect("rules answer");
                times.push(start.elapsed().as_micros() as u64);
                assert_eq!(status, 200);
            }
            percentiles(&format!("GET /api/rules beside {} idle connections, new connection", held.len()), times);
        }
        "games" => {
            let barrier = Arc::new(Barrier::new(n));
            let start = Instant::now();
            let handles: Vec<_> = (0..n)
                .map(|k| {
                    let (addr, barrier) = (addr.clone(), Arc::clone(&barrier));
                    std::thread::spawn(move || {
                        barrier.wait();
                        play(&addr, k as u64, think_ms)
                    })
                })
                .collect();
            let (mut all, mut errors, mut games) = (Vec::new(), 0, 0);
            for h in handles {
                match h.join() {
                    Ok(Ok(t)) => {
                        games += 1;
                        all.extend(t);
                    }
                    Ok(Err(e)) => {
                        errors += 1;
                        eprintln!("error: {e}");
                    }
                    Err(_) => errors += 1,
                }
            }
            let wall = start.elapsed().as_secs_f64();
            println!(
                "{n} clients ({} idle connections beside, thinking {think_ms} ms a probe on average): {games} whole games, {errors} errors, {} probes ({:.1} per game) in {wall:.2} s ({:.0} probes/s)",
                held.len(),
                all.len(),
                all.len() as f64 / games.max(1) as f64,
                all.len() as f64 / wall
            );
            percentiles("probes", all);
            if errors > 0 {
                std::process::exit(1);
            }
        }
        "advise" => {
            let mut c = Conn { addr, io: None };
            let mut times = Vec::new();
            let body = format!("{{\"rules\": \"classic\", \"state\": \"{MID_GAME}\"}}");
            for _ in 0..n {
                let start = Instant::now();
                let (status, text) = c.send("POST", "/api/advise", &body).expect("advise answers");
                times.push(start.elapsed().as_micros() as u64);
                assert_eq!(status, 200, "{text}");
            }
            percentiles("advise (classic mid-game, bayes)", times);
        }
        _ => {
            eprintln!("usage: serve_load games|advise|idle ADDR N [IDLE [THINK_MS]]");
            std::process::exit(2);
        }
    }
    drop(held);
}
