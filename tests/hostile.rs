//! Hostile inputs that once got through (issue 25): names the protocol cannot carry,
//! control characters in arguments, messages that said the wrong thing, a referee that
//! vanished, unbounded reads and outputs, and grids whose layout was not found.

use crate::common;

use std::process::Output;

#[test]
fn fleet_file_names_are_letters_digits_dashes_underscores_and_spaces() {
    let dir = common::scratch("hostile-names");
    let bad = dir.join("bad.fleet");
    std::fs::write(&bad, "Y wing\nXX\n\na,b\nX\n").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    // referee used to send `names Y wing,a,b`, which play then rejected.
    for command in ["referee", "play", "simulate", "generate"] {
        let out = common::run(&[command, "--fleet-file", &bad, "--rows", "6", "--cols", "6"], b"");
        let err = common::error_of(&out, command);
        assert!(err.contains("line 4") && err.contains("`a,b`") && err.contains("letters, digits"), "{command}: {err}");
    }
    let good = dir.join("good.fleet");
    std::fs::write(&good, "Y wing\nXX\n\nTIE-7_b\nX\n").unwrap();
    let out = common::run(&["referee", "--fleet-file", &good.to_string_lossy(), "--rows", "6", "--cols", "6"], b"");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Y wing") || out.stdout.starts_with(b"bay 6 6\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn control_characters_never_reach_an_error_line_raw() {
    let dir = common::scratch("hostile-control");
    let fleet = dir.join("ctl.fleet");
    std::fs::write(&fleet, "bell\u{7}\nXX\n").unwrap();
    let fleet = fleet.to_string_lossy().into_owned();
    let cases: Vec<Vec<String>> = vec![
        vec!["--fleet-file".into(), "x\ny".into()],
        vec!["--fleet-file".into(), fleet],
        vec!["\u{1b}[31mred".into()],
        vec!["trace".into(), "--strategy".into(), "a\rb".into()],
        vec!["check".into(), "--time-limit".into(), "1\u{1b}".into(), "--".into(), "true".into()],
        vec!["generate".into(), "--rows".into(), "x\ty".into()],
        vec!["simulate".into(), "--bot".into(), "b\u{8}=true".into()],
    ];
    for args in cases {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = common::run(&refs, b"");
        let err = common::error_of(&out, &format!("{args:?}"));
        let body = err.strip_suffix('\n').unwrap();
        assert!(!body.chars().any(char::is_control), "{args:?}: raw control character in {err:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn generate_speaks_of_touching_only_when_ships_may_not_touch() {
    let fleet = "4,4,4,4,4,4,4,4,4,4,4,4";
    let out = common::run(&["generate", "--rows", "7", "--cols", "7", "--fleet", fleet, "--touch", "yes"], b"");
    let err = common::error_of(&out, "touch yes");
    assert!(err.contains("could not place the fleet in") && !err.contains("touching"), "{err}");
    let out = common::run(&["generate", "--rows", "8", "--cols", "8", "--fleet", "4,4,4,4,4,4,4,4"], b"");
    let err = common::error_of(&out, "touch no");
    assert!(err.contains("without touching ships"), "{err}");
}

#[test]
fn a_time_limit_out_of_range_is_quoted_as_typed() {
    for command in ["check", "testset"] {
        let mut args = vec![command, "--time-limit", "1e308"];
        args.extend(if command == "check" {
            &["--", "true"][..]
        } else {
            &["--out", "/nonexistent/x", "--format", "domjudge"]
        });
        let err = common::error_of(&common::run(&args, b""), command);
        assert!(err.contains("got `1e308`"), "{command}: {err}");
    }
}

#[test]
fn play_wants_the_referees_done_line() {
    let header = "bay 1 2\nfleet 1\nrules touch=no sunk=none\n";
    let out = common::run(&["play", "--strategy", "linear"], format!("{header}hit\n").as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`done 1` was due"), "{err}");
    // Without a header (answers typed by hand) nobody owes a `done` line.
    let out = common::run(&["play", "--rows", "1", "--cols", "2", "--fleet", "1", "--strategy", "linear"], b"hit\n");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Runs the binary under `prlimit --as=300000000` (when prlimit is there) with `args`
/// and stdin from `/dev/zero`, killing it after 20 s. `None`: it had to be killed.
fn endless_input(args: &[&str]) -> Option<Output> {
    use std::process::{Command, Stdio};
    let prlimit = Command::new("prlimit").arg("--version").output().is_ok();
    let mut command = if prlimit {
        let mut c = Command::new("prlimit");
        c.arg("--as=300000000").arg(env!("CARGO_BIN_EXE_spot-the-ships"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
    };
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let mut child = command.args(args).stdin(zero).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

#[test]
fn every_reader_is_bounded() {
    // (arguments, what the one error line says): each stops at a stated limit, in
    // bounded memory and time, rather than reading on (referee --board grew to 2 GB;
    // play and referee read an endless line for ever).
    let cases: [(&[&str], &str); 9] = [
        (&[], "a word longer than 1000 bytes"),
        (&["trace"], "a word longer than 1000 bytes"),
        (&["referee", "--board", "/dev/zero"], "--board: /dev/zero: line 1: a word longer than 1000 bytes"),
        (&["play"], "header line 1 is longer than 1000 bytes"),
        (&["play", "--rows", "10", "--cols", "10"], "is not one of hit, miss"),
        (&["referee"], "a line longer than 1000 bytes"),
        (&["advise"], "holds `\\u{0}`"),
        (&["simulate", "merge", "-"], "larger than the limit of"),
        (&["--fleet-file", "/dev/zero", "-"], "larger than 1048576 bytes"),
    ];
    for (args, says) in cases {
        let mut out = endless_input(args).unwrap_or_else(|| panic!("{args:?}: still reading after 20 s"));
        if args.len() > 1 && args.first() == Some(&"play") {
            // play has asked its first question before the answer came.
            assert_eq!(out.stdout, b"? 4 4\n");
            out.stdout.clear();
        }
        if args == ["referee"] {
            // The referee has sent its header before the probe came.
            assert!(out.stdout.starts_with(b"bay 10 10\n"));
            out.stdout.clear();
        }
        let err = common::error_of(&out, &format!("{args:?}"));
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_trace_that_would_pass_the_output_cap_is_refused_before_it_starts() {
    use std::process::{Command, Stdio};
    let dir = common::scratch("hostile-trace-cap");
    let input = dir.join("thin.in");
    std::fs::write(&input, "linear\n4 444444 1\n3 444443 1 E\n").unwrap();
    let input = input.to_string_lossy().into_owned();
    let run = |limit: &str| {
        // stdout to /dev/null: the old build wrote about 178 GB there; stopped after 20 s.
        let mut child = Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
            .args(["trace", "--limit", limit, &input])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("--limit {limit}: still writing after 20 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    };
    let out = run("100000");
    let err = common::error_of(&out, "--limit 100000");
    assert!(
        err.contains("100000 scans of a 4x444444 board would write about 177801377980 bytes")
            && err.contains("output cap of 1073741824 bytes")
            && err.contains("give --limit 602 or less"),
        "{err}"
    );
    assert_eq!(run("60").status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn density_refuses_a_board_over_its_limit_instead_of_playing_hunt() {
    // 2049x2049 = 4,198,401 cells, just over density's 4,194,304 (it played hunt there,
    // while the output still said density).
    for name in ["density", "density-random"] {
        let input = format!("{name}\n2049 2049 1\n0 0 1 E\n");
        let runs: [(&str, Vec<&str>, &[u8]); 4] = [
            ("judge", vec![], input.as_bytes()),
            ("trace", vec!["trace", "--limit", "1"], input.as_bytes()),
            ("play", vec!["play", "--rows", "2049", "--cols", "2049", "--cells", "1", "--strategy", name], b"hit\n"),
            (
                "simulate",
                vec!["simulate", "--rows", "2049", "--cols", "2049", "--games", "1", "--strategies", name],
                b"",
            ),
        ];
        for (command, args, stdin) in runs {
            let out = common::run(&args, stdin);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command} {name}: {err}");
            assert!(
                err.contains(&format!("strategy {name} plays boards of at most 4194304 cells"))
                    && err.contains("this 2049x2049 board has 4198401")
                    && err.contains(
                        "strategies that can play it: linear, smart, prob, random, parity, bayes, hunt, hunt-parity\n"
                    ),
                "{command} {name}: {err}"
            );
        }
        // At the limit it plays.
        let out = common::run(&[], format!("{name}\n2048 2048 0\n").as_bytes());
        assert_eq!(out.status.code(), Some(0), "{name} 2048x2048: {}", String::from_utf8_lossy(&out.stderr));
    }
    // `--strategy all` lists the strategies that can play the board.
    let out = common::run(&["--strategy", "all", "--rules", "classic"], b"linear\n2049 2049 0\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let names: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names, ["linear", "random", "parity", "bayes", "hunt", "hunt-parity"]);
}

#[test]
fn advise_does_not_deny_a_layout_that_exists() {
    // 49 one-cell ships that never touch on an all-unknown 14x14 grid: many layouts
    // (every other cell of every other row is one), yet sampling draws none; advise
    // said no layout agreeing with the grid was found.
    let fleet = vec!["1"; 49].join(",");
    let grid = format!("{}\n", ".".repeat(14)).repeat(14);
    let out = common::run(&["advise", "--fleet", &fleet], grid.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("no layout"), "{err}");
    assert!(err.contains("agree with the grid (a search found one)"), "{err}");
}

/// `serve --port 0 ARGS` under `prlimit --nofile=FILES` (a real process with a real
/// open-file limit), killed when dropped.
struct Server {
    child: std::process::Child,
    addr: std::net::SocketAddr,
}

impl Server {
    fn start(files: u32, args: &[&str]) -> Server {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let mut child = Command::new("prlimit")
            .arg(format!("--nofile={files}"))
            .arg(env!("CARGO_BIN_EXE_spot-the-ships"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("prlimit runs");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.trim().trim_start_matches("serving on http://").trim_end_matches('/').parse().unwrap();
        Server { child, addr }
    }

    /// CPU time (user + system) the server has used so far, in seconds.
    fn cpu(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        let fields: Vec<&str> = stat.rsplit_once(") ").unwrap().1.split_whitespace().collect();
        (fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap()) / 100.0
    }

    /// The peak resident memory of the server so far, in kB (VmHWM).
    fn peak_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Sends `bytes` on a new connection and reads the answer until the server closes
    /// (or 5 s pass): (status, whole answer).
    fn raw(&self, bytes: &[u8]) -> (u16, String) {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(self.addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
        let _ = s.write_all(bytes);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        (text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0), text)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status of one request on a kept-alive connection: the status and how long it took.
fn ask(s: &mut std::net::TcpStream, path: &str) -> (u16, std::time::Duration) {
    use std::io::{Read, Write};
    let start = std::time::Instant::now();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes()).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    // Read the head, then the body of its Content-Length.
    loop {
        let n = s.read(&mut buf).unwrap_or(0);
        assert!(n > 0, "{path}: closed after {:?}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&got);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize =
                head.lines().find_map(|l| l.strip_prefix("Content-Length: ")).and_then(|v| v.parse().ok()).unwrap_or(0);
            if body.len() >= length {
                let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
                return (status, start.elapsed());
            }
        }
    }
}

#[test]
fn a_request_line_sent_a_byte_at_a_time_gets_408_on_time() {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    // `GET /api/rules?aaaa...` one byte every 50 ms: the old server timed out only
    // between reads (the idle timeout), so it waited for ever and answered 200; the
    // request time now counts from the first byte, request line included.
    let server = Server::start(1024, &["--request-time", "1", "--idle", "5"]);
    let mut s = std::net::TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    let start = Instant::now();
    let mut answer = Vec::new();
    let bytes = b"GET /api/rules?".iter().chain(std::iter::repeat(&b'a'));
    for &b in bytes {
        if start.elapsed() > Duration::from_secs(5) {
            break;
        }
        let _ = s.write_all(&[b]);
        let mut buf = [0u8; 1024];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if answer.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408 "), "{text}");
    assert!(took >= Duration::from_millis(900) && took < Duration::from_millis(2500), "{took:?}");
    // The default stays 10 s.
    assert_eq!(spot_the_ships::tools::serve::http::Limits::default().request_time, Duration::from_secs(10));
}

#[test]
fn at_the_open_file_limit_the_server_answers_503_without_spinning() {
    use std::io::Read;
    use std::net::TcpStream;
    use std::time::Duration;
    // 1,150 idle connections against 1,024 descriptors: the old server's accept loop
    // spun on EMFILE (a core busy), answered no 503, and a GET waited 64 s.
    let server = Server::start(1024, &["--idle", "60"]);
    let mut early = TcpStream::connect(server.addr).unwrap();
    early.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    assert_eq!(ask(&mut early, "/api/rules").0, 200);
    let cpu_before = server.cpu();
    let idle: Vec<TcpStream> = (0..1150).filter_map(|_| TcpStream::connect(server.addr).ok()).collect();
    assert_eq!(idle.len(), 1150);
    std::thread::sleep(Duration::from_millis(500));
    let mut refused = 0;
    for mut s in &idle {
        s.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 512];
        if let Ok(n) = s.read(&mut buf) {
            let text = String::from_utf8_lossy(&buf[..n]);
            assert!(n == 0 || text.starts_with("HTTP/1.1 503 "), "{text}");
            refused += usize::from(n > 0);
        }
    }
    // 1,024 descriptors less a reserve of 32: about 990 held, the rest refused.
    assert!((150..=250).contains(&refused), "{refused} connections got 503");
    // A kept-alive connection is still served at once; a new one gets its 503 at once.
    let (status, took) = ask(&mut early, "/api/rules");
    assert!(status == 200 && took < Duration::from_millis(500), "{status} in {took:?}");
    let (status, _) = server.raw(b"GET /api/rules HTTP/1.1\r\n\r\n");
    assert_eq!(status, 503);
    std::thread::sleep(Duration::from_secs(2));
    let cpu = server.cpu() - cpu_before;
    assert!(cpu < 0.5, "the server used {cpu:.2} s of CPU in about 3 s: it spins");
    // Once the idle connections go, new ones are served again.
    drop(idle);
    std::thread::sleep(Duration::from_millis(300));
    let (status, text) = server.raw(b"GET /api/rules HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 200, "{text}");
}

#[test]
fn a_bay_far_over_the_cap_is_refused_before_it_is_built() {
    // 100 games of 10,000 x 10,000 cells: each was built (100M cells) before its 413;
    // the server's peak memory went from 4 MB to 325 MB.
    let server = Server::start(1024, &[]);
    let body = "{\"rows\": 10000, \"cols\": 10000}";
    let request =
        format!("POST /api/games HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
    for _ in 0..100 {
        let (status, text) = server.raw(request.as_bytes());
        assert_eq!(status, 413, "{text}");
    }
    let peak = server.peak_kb();
    assert!(peak < 40_000, "peak resident memory {peak} kB after 100 refused bays");
    // Other too-large bays: 413 too, whatever the number (2^64 - 1 was a 400).
    for body in [
        "{\"rows\": 18446744073709551615}",
        "{\"rows\": 18446744073709551615, \"cols\": 18446744073709551615}",
        "{\"cols\": 99999999999999999999999}",
        "{\"rows\": \"3000\", \"cols\": 1}",
        "{\"rows\": 51, \"cols\": 50}",
    ] {
        let request =
            format!("POST /api/games HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        let (status, text) = server.raw(request.as_bytes());
        assert_eq!(status, 413, "{body}: {text}");
    }
}

#[test]
fn requests_that_could_be_smuggled_are_refused() {
    let server = Server::start(1024, &[]);
    let cases: [(&str, u16); 7] = [
        ("Content-Length: 2\r\nContent-Length: 3", 400),
        ("Content-Length: +2", 400),
        ("Content-Length: -2", 400),
        ("Content-Length: 2, 2", 400),
        ("Content-Length: 0x2", 400),
        ("Transfer-Encoding: chunked", 501),
        ("Transfer-Encoding: chunked\r\nContent-Length: 2", 501),
    ];
    for (headers, expected) in cases {
        // A second request hides behind the first's framing: it must never be answered.
        let request = format!("POST /api/games HTTP/1.1\r\n{headers}\r\n\r\n{{}}GET /nope HTTP/1.1\r\n\r\n");
        let (status, text) = server.raw(request.as_bytes());
        assert_eq!(status, expected, "{headers}: {text}");
        assert_eq!(text.matches("HTTP/1.1 ").count(), 1, "{headers}: {text}");
        assert!(text.contains("Connection: close"), "{text}");
    }
    // Two that agree are one length.
    let (status, text) = server
        .raw(b"POST /api/games HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
    assert_eq!(status, 201, "{text}");
}

#[test]
fn the_server_gives_the_status_its_documents_promise() {
    let server = Server::start(1024, &[]);
    let post = |path: &str, body: &str| {
        server.raw(
            format!("POST {path} HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
                .as_bytes(),
        )
    };
    let get = |path: &str| server.raw(format!("GET {path} HTTP/1.1\r\nConnection: close\r\n\r\n").as_bytes());
    // `%+f` decoded to byte 0x0f: an escape is `%` and two hex digits.
    let (status, text) = get("/exec?method=Get%+fToken");
    assert!(status == 400 && text.contains("bad %-escape"), "{text}");
    let (_, token) = get("/exec?method=GetToken");
    let token = token.rsplit("\r\n\r\n").next().unwrap().to_string();
    assert_eq!(token.len(), 32, "{token}");
    // Numbers are plain digits (`+1` was row 1).
    let (status, text) = get(&format!("/exec?token={token}&method=GetCellAt&row=%2B1&col=0"));
    assert_eq!(status, 400, "{text}");
    assert_eq!(get(&format!("/exec?token={token}&method=GetCellAt&row=1&col=0")).0, 200);
    // An upper-case token is not one (it passed the check, then was not found).
    let (status, text) = get(&format!("/exec?token={}&method=GetRowCount", token.to_ascii_uppercase()));
    assert!(status == 400 && text.contains("lower-case"), "{text}");
    let (_, game) = post("/api/games", "{\"seed\": 1}");
    let game = game.split("\"token\": \"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let (status, text) = post(&format!("/api/games/{}/probe", game.to_ascii_uppercase()), "{\"r\": 0, \"c\": 0}");
    assert!(status == 404 && text.contains("lower-case"), "{text}");
    // /probe refuses unknown fields, as /api/games does.
    let (status, text) = post(&format!("/api/games/{game}/probe"), "{\"r\": 0, \"c\": 0, \"cheat\": true}");
    assert!(status == 400 && text.contains("unknown field `cheat`"), "{text}");
    assert_eq!(post("/api/games", "{\"cheat\": true}").0, 400);
    assert_eq!(post(&format!("/api/games/{game}/probe"), "{\"r\": 0, \"c\": 0}").0, 200);
    // A grid of `#` the rules cannot split is a grid refused (422), not a bad field.
    let (status, text) = post("/api/advise", "{\"state\": \"###\\n###\\n\", \"rules\": \"classic\"}");
    assert_eq!(status, 422, "{text}");
    // A grid over advise's 1,000,000 cells is too large (413), not unreadable (422).
    let row = format!("{}\\n", ".".repeat(1000));
    let body = format!("{{\"state\": \"{}\"}}", row.repeat(1001));
    assert!(body.len() < 1 << 20);
    let (status, text) = post("/api/advise", &body);
    assert_eq!(status, 413, "{}", &text[..text.len().min(300)]);
}

#[test]
fn a_case_file_that_is_not_a_regular_file_is_refused_by_name() {
    let dir = common::scratch("hostile-cases");
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    // A link to a regular file is a case like any other.
    std::os::unix::fs::symlink(sample.join("00-linear.in"), dir.join("a.in")).unwrap();
    std::fs::copy(sample.join("00-linear.out"), dir.join("a.out")).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let args =
        ["check", "--cases", &d, "--no-builtin", "--shrink-budget", "0", "--", env!("CARGO_BIN_EXE_spot-the-ships")];
    let out = common::run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // A link to /dev/zero, then a FIFO (never opened: it would wait for a writer).
    std::os::unix::fs::symlink("/dev/zero", dir.join("b.in")).unwrap();
    std::fs::write(dir.join("b.out"), "x").unwrap();
    let start = std::time::Instant::now();
    let err = common::error_of(&common::run(&args, b""), "a link to /dev/zero");
    assert!(err.contains("b.in` is a device (through a link), not a regular file"), "{err}");
    std::fs::remove_file(dir.join("b.in")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(dir.join("b.in")).status().unwrap();
    assert!(made.success());
    let err = common::error_of(&common::run(&args, b""), "a FIFO");
    assert!(err.contains("b.in` is a FIFO, not a regular file"), "{err}");
    // And as the expected output.
    std::fs::remove_file(dir.join("b.in")).unwrap();
    std::fs::copy(sample.join("00-linear.in"), dir.join("b.in")).unwrap();
    std::fs::remove_file(dir.join("b.out")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(dir.join("b.out")).status().unwrap();
    assert!(made.success());
    let err = common::error_of(&common::run(&args, b""), "a FIFO output");
    assert!(err.contains("b.out` is a FIFO, not a regular file"), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(10), "{:?}", start.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn advise_refuses_a_fleet_that_cannot_fit_wherever_a_fleet_is_played() {
    // Problem G's fleet (5,4,3,3,2,2,1,1) on a 3x3 bay: play refuses it before its
    // first probe; advise does too, in the same words, wherever a fleet is played
    // (bayes, a fleet given, a preset's fleet). Prob without a fleet scores the
    // statement's likelihood, which takes no fleet (tests/advise.rs advises on 3x3).
    let grid = b"...\n...\n...\n";
    let play = common::error_of(&common::run(&["play", "--rows", "3", "--cols", "3"], b""), "play 3x3");
    let bayes = common::error_of(&common::run(&["advise", "--strategy", "bayes"], grid), "advise bayes 3x3");
    assert_eq!(bayes.replace("advise", "play"), play, "the same check, the same words");
    for args in [&["advise", "--fleet", "5,4"][..], &["advise", "--rules", "classic", "--format", "json"]] {
        let err = common::error_of(&common::run(args, grid), &format!("{args:?}"));
        assert!(err.contains("3x3"), "{args:?}: {err}");
    }
    // A fleet that fits gets advice.
    let out = common::run(&["advise", "--fleet", "2"], grid);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A service on 127.0.0.1 written here: each connection's request is read, then
/// `answer` is called with the stream (it may dribble, stay silent, or flood). Returns
/// the port; the listener thread lives as long as the test binary.
fn bad_service(answer: fn(&mut std::net::TcpStream)) -> u16 {
    use std::io::BufRead;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut stream = stream;
                let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                    line.clear();
                }
                answer(&mut stream);
            });
        }
    });
    port
}

/// `play --url` of the service at `port` with `args`, timed: its one error line and
/// the time it took.
fn play_url(port: u16, args: &[&str]) -> (String, std::time::Duration) {
    let url = format!("http://127.0.0.1:{port}/exec?token=0123456789abcdef0123456789abcdef");
    let mut all = vec!["play", "--url", &url, "--rules", "problem-g", "--fleet", "1"];
    all.extend_from_slice(args);
    let start = std::time::Instant::now();
    let out = common::run(&all, b"");
    let took = start.elapsed();
    (common::error_of(&out, &format!("{args:?}")), took)
}

/// Writes `bytes` one at a time, `pause` apart, until the reader goes.
fn dribble(stream: &mut std::net::TcpStream, bytes: &[u8], pause: std::time::Duration) {
    use std::io::Write;
    for b in bytes.iter().cycle() {
        if stream.write_all(&[*b]).is_err() {
            return;
        }
        std::thread::sleep(pause);
    }
}

#[test]
fn a_service_that_dribbles_its_answer_is_cut_off_at_the_whole_response_deadline() {
    use std::time::Duration;
    // A byte of the status line every 200 ms (each read gets one: no read waits long).
    let port = bad_service(|s| dribble(s, b"HTTP/1.1 200 OK\r\n", Duration::from_millis(200)));
    let (err, took) = play_url(port, &["--timeout", "1"]);
    assert_eq!(err, format!("error: play: the service at 127.0.0.1:{port} did not answer within 1 s\n"));
    assert!(took < Duration::from_secs(4), "{took:?}");
    // Header lines forever, a byte every 5 ms (fewer than 100 lines by the deadline).
    let port = bad_service(|s| {
        use std::io::Write;
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
        dribble(s, b"X-Slow: 1\r\n", Duration::from_millis(5));
    });
    let (err, took) = play_url(port, &["--timeout", "1.5"]);
    assert_eq!(err, format!("error: play: the service at 127.0.0.1:{port} did not answer within 1.5 s\n"));
    assert!(took < Duration::from_secs(5), "{took:?}");
    // The body a byte at a time.
    let port = bad_service(|s| {
        use std::io::Write;
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
        dribble(s, b"0", Duration::from_millis(100));
    });
    let (err, took) = play_url(port, &["--timeout", "1"]);
    assert!(err.contains("did not answer within 1 s"), "{err}");
    assert!(took < Duration::from_secs(4), "{took:?}");
    // Header lines as fast as they go: refused past 100, long before the deadline.
    let port = bad_service(|s| {
        use std::io::Write;
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
        while s.write_all(b"X-Many: 1\r\n").is_ok() {}
    });
    let (err, took) = play_url(port, &["--timeout", "20"]);
    assert!(err.contains("more than 100 header lines"), "{err}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // One header line without an end.
    let port = bad_service(|s| {
        use std::io::Write;
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nX-Long: ");
        while s.write_all(&[b'a'; 4096]).is_ok() {}
    });
    let (err, _) = play_url(port, &["--timeout", "20"]);
    assert!(err.contains("over 8 KiB"), "{err}");
}

#[test]
fn a_service_that_never_answers_is_named_with_the_time_it_had() {
    use std::time::Duration;
    // Accepts, reads the request, says nothing and keeps the connection open.
    let port = bad_service(|_| std::thread::sleep(Duration::from_secs(60)));
    let (err, took) = play_url(port, &["--timeout", "1"]);
    assert_eq!(err, format!("error: play: the service at 127.0.0.1:{port} did not answer within 1 s\n"));
    assert!(!err.contains("os error"), "{err}");
    assert!(took >= Duration::from_secs(1) && took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn play_timeout_is_positive_finite_bounded_and_only_with_url() {
    let url = "http://127.0.0.1:9/exec";
    for bad in ["0", "-1", "nan", "inf", "1e308", "86401", "x"] {
        let out = common::run(&["play", "--url", url, "--timeout", bad], b"");
        let err = common::error_of(&out, bad);
        assert!(err.starts_with("error: play: --timeout: "), "{bad}: {err}");
    }
    let out = common::run(&["play", "--rows", "3", "--cols", "3", "--timeout", "5"], b"");
    assert_eq!(common::error_of(&out, "no url"), "error: play: --timeout: only with --url\n");
}

#[test]
fn a_token_not_of_serves_form_never_reaches_a_request() {
    use std::io::Read;
    // A listener that records whatever reaches it.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    for token in ["abc%0d%0aX-Injected:%201", "ABCDEF0123456789ABCDEF0123456789", "%1b%5b2J", "0123"] {
        let url = format!("http://127.0.0.1:{port}/exec?token={token}");
        let out = common::run(&["play", "--url", &url, "--fleet", "1", "--rules", "problem-g"], b"");
        let err = common::error_of(&out, token);
        assert!(err.starts_with("error: play: --url: the token `"), "{err}");
        assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
    }
    // A raw CR LF in the address is refused as well.
    let url = format!("http://127.0.0.1:{port}/exec\r\nX-Injected: 1");
    let err = common::error_of(&common::run(&["play", "--url", &url], b""), "raw CR LF");
    assert!(err.contains("--url: ") && !err.trim_end().contains('\r'), "{err:?}");
    let mut got = Vec::new();
    while let Ok((mut s, _)) = listener.accept() {
        let _ = s.set_read_timeout(Some(std::time::Duration::from_millis(200)));
        let _ = s.read_to_end(&mut got);
    }
    assert!(got.is_empty(), "a request was sent: {:?}", String::from_utf8_lossy(&got));
}
