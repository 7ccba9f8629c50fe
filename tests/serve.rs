//! `serve` over real sockets on 127.0.0.1: routes, caps, timeouts, eviction, the same
//! numbers as `advise --format json`, a whole game through the API, and the remote
//! service seed's `/exec` played by `play --url`.

use crate::common;

use spot_the_ships::render::json::{self, Value};
use spot_the_ships::tools::serve::client::Client;
use spot_the_ships::tools::serve::{self, Config, Handle};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

fn server(config: Config) -> Handle {
    serve::start(Config { bind: SocketAddr::from(([127, 0, 0, 1], 0)), ..config }).expect("server starts")
}

fn default_server() -> Handle {
    server(Config { workers: 4, ..Config::default() })
}

/// Sends raw bytes and reads until the server closes (or 5 s pass).
fn raw(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn status_of(text: &str) -> u16 {
    text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[test]
fn fixed_routes_only_and_json_errors() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    let page = c.send("GET", "/", None).unwrap();
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script src=\"/page.js\""), "{}", page.body);
    assert!(!page.body.contains("http://") && !page.body.contains("https://"), "the page loads nothing from elsewhere");
    for path in ["/nope", "/etc/passwd", "/../Cargo.toml", "/api", "/page.js/x", "/api/games/zz/probe/x"] {
        let r = c.send("GET", path, None).unwrap();
        assert_eq!(r.status, 404, "{path}: {}", r.body);
        assert!(r.body.starts_with("{\"error\": {\"status\": 404, \"message\": "), "{}", r.body);
    }
    let r = c.send("GET", "/api/advise", None).unwrap();
    assert_eq!(r.status, 405, "{}", r.body);
    let r = c.send("POST", "/api/advise", Some("{\"state\": ")).unwrap();
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("not JSON"), "{}", r.body);
    let r = c.send("POST", "/api/advise", Some("{\"state\": \"..\\n..\\n\", \"board\": \"/etc/passwd\"}")).unwrap();
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("unknown field `board`"), "{}", r.body);
    let r = c.send("POST", "/api/advise", Some("{\"state\": \"..+\\n.+.\\n\", \"rules\": \"problem-g\"}")).unwrap();
    assert_eq!(r.status, 422, "{}", r.body);
    let raw_answer = raw(h.addr(), b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert!(raw_answer.contains("Content-Security-Policy: default-src 'none'"), "{raw_answer}");
    h.stop();
}

#[test]
fn caps_give_413_414_431_and_bad_requests_400() {
    let h = default_server();
    let long_line = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(10_000));
    assert_eq!(status_of(&raw(h.addr(), long_line.as_bytes())), 414);
    let big_header = format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "b".repeat(20_000));
    assert_eq!(status_of(&raw(h.addr(), big_header.as_bytes())), 431);
    let many: String = (0..100).map(|i| format!("X-{i}: y\r\n")).collect();
    assert_eq!(status_of(&raw(h.addr(), format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes())), 431);
    // The body is refused from its announced length, before it is sent.
    let answer = raw(h.addr(), b"POST /api/advise HTTP/1.1\r\nContent-Length: 5000000\r\n\r\n");
    assert_eq!(status_of(&answer), 413, "{answer}");
    assert!(answer.contains("\"status\": 413"), "{answer}");
    assert_eq!(status_of(&raw(h.addr(), b"BREW / HTTP/1.1\r\n\r\n")), 405);
    assert_eq!(status_of(&raw(h.addr(), b"GET / HTTP/9\r\n\r\n")), 505);
    assert_eq!(status_of(&raw(h.addr(), b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")), 501);
    assert_eq!(status_of(&raw(h.addr(), b"nonsense\r\n\r\n")), 400);
    h.stop();
}

#[test]
fn an_idle_connection_is_closed_and_a_slow_request_gets_408() {
    let h = server(Config { workers: 2, idle: Duration::from_millis(500), ..Config::default() });
    let mut s = TcpStream::connect(h.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let start = Instant::now();
    let mut buf = Vec::new();
    let n = s.read_to_end(&mut buf).unwrap_or(0);
    let waited = start.elapsed();
    assert_eq!(n, 0, "an idle connection is closed without a word");
    assert!(waited >= Duration::from_millis(400) && waited < Duration::from_secs(3), "{waited:?}");
    // Half a request, then silence: 408.
    let answer = raw(h.addr(), b"POST /api/advise HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc");
    assert_eq!(status_of(&answer), 408, "{answer}");
    // Idle connections do not keep the workers: both are free again.
    let mut c = Client::new(&h.addr().to_string());
    assert_eq!(c.send("GET", "/api/rules", None).unwrap().status, 200);
    h.stop();
}

#[test]
fn the_oldest_game_is_evicted_past_the_cap() {
    let h = server(Config { workers: 2, max_games: 3, ..Config::default() });
    let mut c = Client::new(&h.addr().to_string());
    let mut tokens = Vec::new();
    for seed in 0..4 {
        let r = c.send("POST", "/api/games", Some(&format!("{{\"rules\": \"classic\", \"seed\": {seed}}}"))).unwrap();
        assert_eq!(r.status, 201, "{}", r.body);
        let token = r.body.split('"').nth(3).unwrap().to_string();
        assert_eq!(token.len(), 32);
        tokens.push(token);
    }
    assert_eq!(h.games(), (3, 1));
    let probe = |c: &mut Client, t: &str| {
        c.send("POST", &format!("/api/games/{t}/probe"), Some("{\"r\": 0, \"c\": 0}")).unwrap()
    };
    let first = probe(&mut c, &tokens[0]);
    assert_eq!(first.status, 404, "{}", first.body);
    assert!(first.body.contains("evicted"), "{}", first.body);
    assert_eq!(probe(&mut c, &tokens[3]).status, 200);
    // Tokens are all different, and a made-up one finds nothing.
    let mut sorted = tokens.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), 4);
    assert_eq!(probe(&mut c, "0123456789abcdef0123456789abcdef").status, 404);
    h.stop();
}

/// The states the API and the command must agree on: (rules flags, state).
const ADVICE: &[(&[&str], &str)] = &[
    (&["--rules", "classic"], "..........\n..........\n...X+.....\n..........\n.....X....\n..........\n..X.......\n..........\n.......X..\n..........\n"),
    (&["--rules", "classic", "--strategy", "bayes"], "X.........\n.X+++X....\n..........\n..........\n..........\n....X.....\n..........\n..........\n..........\n.........X\n"),
    (&["--rules", "problem-g"], "..........\n..X.......\n...+......\n..........\n..........\n..........\n......X...\n..........\n..........\n..........\n"),
    (&["--rules", "problem-g", "--strategy", "bayes", "--seed", "7"], "..........\n..X.......\n...+......\n..........\n..........\n..........\n......X...\n..........\n..........\n..........\n"),
    (&["--rules", "classic", "--afloat", "5,4,3,2"], "..........\n..........\n..........\n..........\n..###.....\n..........\n..........\n..........\n..........\n..........\n"),
];

#[test]
fn advise_gives_the_numbers_of_advise_format_json() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    for (flags, state) in ADVICE {
        let mut args = vec!["advise", "--format", "json"];
        args.extend_from_slice(flags);
        let cli = common::run(&args, state.as_bytes());
        assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
        let mut body = format!("{{\"state\": {}", spot_the_ships::render::json::string(state));
        for pair in flags.chunks(2) {
            body.push_str(&format!(", \"{}\": \"{}\"", pair[0].trim_start_matches("--"), pair[1]));
        }
        body.push('}');
        let r = c.send("POST", "/api/advise", Some(&body)).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body, String::from_utf8_lossy(&cli.stdout), "{flags:?}");
    }
    h.stop();
}

#[test]
fn a_whole_game_through_the_api_as_the_referee_answers() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    let r = c.send("POST", "/api/games", Some("{\"rules\": \"classic\", \"seed\": 11}")).unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    assert!(r.body.contains("\"rows\": 10, \"cols\": 10, \"ship_cells\": 17"), "{}", r.body);
    let token = r.body.split('"').nth(3).unwrap().to_string();
    // The referee of the same seed, over pipes, answers the same probes the same way.
    let mut script = String::new();
    for r in 0..10 {
        for c in 0..10 {
            script.push_str(&format!("? {r} {c}\n"));
        }
    }
    let referee = common::run(&["referee", "--rules", "classic", "--seed", "11"], script.as_bytes());
    let expected: Vec<String> = String::from_utf8_lossy(&referee.stdout)
        .lines()
        .skip_while(|l| !l.starts_with("rules"))
        .skip(1)
        .map(str::to_string)
        .collect();
    let mut said = Vec::new();
    let mut done = false;
    'probing: for row in 0..10 {
        for col in 0..10 {
            let r = c
                .send("POST", &format!("/api/games/{token}/probe"), Some(&format!("{{\"r\": {row}, \"c\": {col}}}")))
                .unwrap();
            assert_eq!(r.status, 200, "{}", r.body);
            let reply = r.body.split("\"reply\": \"").nth(1).unwrap().split('"').next().unwrap().to_string();
            said.push(reply);
            if r.body.contains("\"done\": true") {
                let probes = r.body.split("\"probes\": ").nth(1).unwrap().split(',').next().unwrap().to_string();
                said.push(format!("done {probes}"));
                done = true;
                break 'probing;
            }
        }
    }
    assert!(done);
    assert_eq!(said, expected);
    assert_eq!(said.iter().filter(|s| s.starts_with("sunk ")).count(), 5, "{said:?}");
    let again = c.send("POST", &format!("/api/games/{token}/probe"), Some("{\"r\": 9, \"c\": 9}")).unwrap();
    assert_eq!(again.status, 409, "{}", again.body);
    let outside = c.send("POST", "/api/games", Some("{\"rules\": \"nope\"}")).unwrap();
    assert_eq!(outside.status, 400, "{}", outside.body);
    h.stop();
}

#[test]
fn the_trace_has_every_step_and_what_the_strategy_weighed() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    for (strategy, weights) in [("prob", "likelihood"), ("density", "positions"), ("bayes", "probability")] {
        let rules = if strategy == "prob" { "problem-g" } else { "classic" };
        let r = c.send("GET", &format!("/api/trace?strategy={strategy}&rules={rules}&seed=3"), None).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.body.matches("\"scan\": ").count();
        let judge = r.body.split("\"judge\": {\"scans\": ").nth(1).unwrap().split(',').next().unwrap();
        assert_eq!(v.to_string(), judge, "one step per scan");
        assert_eq!(r.body.matches(&format!("\"weights\": {{\"name\": \"{weights}\"")).count(), v, "{strategy}");
    }
    let r = c
        .send("GET", "/api/trace?strategy=linear&rules=classic&ships=0,0,5,E;2,0,4,E;4,0,3,E;6,0,3,E;8,0,2,E", None)
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("\"weights\": null"));
    let r = c.send("GET", "/api/trace?strategy=linear&rules=classic&ships=0,0,5,E;0,0,4,E", None).unwrap();
    assert_eq!(r.status, 422, "{}", r.body);
    let r = c.send("GET", "/api/trace?file=/etc/passwd", None).unwrap();
    assert_eq!(r.status, 400, "{}", r.body);
    // lookahead takes seconds a game: no preset lists it among its named strategies (it
    // is classic's Expert only), no trace is made of it, and the API says where it plays.
    let rules = c.send("GET", "/api/rules", None).unwrap().body;
    let v = json::parse(&rules).unwrap();
    for p in v.get("presets").and_then(Value::as_array).unwrap() {
        let named = p.get("strategies").and_then(Value::as_array).unwrap();
        assert!(named.iter().all(|s| s.get("name").and_then(Value::as_str) != Some("lookahead")), "{rules}");
    }
    assert_eq!(rules.matches("\"strategy\": \"lookahead\"").count(), 1, "{rules}");
    let r = c.send("GET", "/api/trace?strategy=lookahead&rules=classic&seed=3", None).unwrap();
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("play --strategy lookahead"), "{}", r.body);
    h.stop();
}

#[test]
fn the_exec_service_is_played_by_play_url() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    let token = c.send("GET", "/exec?method=GetToken", None).unwrap().body;
    assert_eq!(token.len(), 32, "{token}");
    let ask = |c: &mut Client, q: &str| c.send("GET", &format!("/exec?token={token}&method={q}"), None).unwrap();
    assert_eq!(ask(&mut c, "GetRowCount").body, "58");
    assert_eq!(ask(&mut c, "GetColumnCount").body, "23");
    let cell = ask(&mut c, "GetCellAt&row=0&col=0").body;
    assert!(cell == "0" || cell == "1", "{cell}");
    assert_eq!(ask(&mut c, "GetCellAt&row=58&col=0").status, 422);
    assert_eq!(ask(&mut c, "Explode").status, 400);
    let url = format!("http://{}/exec?token={token}", h.addr());
    let out = common::run(&["play", "--url", &url, "--strategy", "density"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}{}", text, String::from_utf8_lossy(&out.stderr));
    for name in ["Petar Kresimir at (", "TIE fighter at (", "X wing at (", "Y wing at ("] {
        assert!(text.contains(name), "{text}");
    }
    // Without a token, play asks for one first and says which.
    let url = format!("http://{}/exec", h.addr());
    let out = common::run(&["play", "--url", &url, "--strategy", "density-random", "--seed", "4"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.starts_with("token: "), "{text}");
    // A service that is not there: one error line.
    let out = common::run(&["play", "--url", "http://127.0.0.1:1/exec"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("error: play: "),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    h.stop();
}

#[test]
fn the_command_prints_its_address_and_warns_off_loopback() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    for (args, warns) in
        [(&["serve", "--port", "0"][..], false), (&["serve", "--port", "0", "--bind", "0.0.0.0"][..], true)]
    {
        let mut child = Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert!(line.starts_with("serving on http://"), "{line}");
        let port: u16 = line.trim().trim_end_matches('/').rsplit(':').next().unwrap().parse().unwrap();
        assert_ne!(port, 0);
        let mut c = Client::new(&format!("127.0.0.1:{port}"));
        assert_eq!(c.send("GET", "/api/rules", None).unwrap().status, 200);
        // Ctrl-C (SIGINT) stops it.
        let pid = child.id().to_string();
        assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < Duration::from_secs(5), "serve did not stop on SIGINT");
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.starts_with("warning: listening on 0.0.0.0"), warns, "{err}");
    }
    let out = common::run(&["serve", "--bind", "localhost"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("error: serve: --bind"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn two_thousand_idle_connections_do_not_slow_a_request() {
    // With a worker for each connection, 65 idle ones stalled everything; the event
    // loop holds them without a worker.
    let h = server(Config { workers: 4, idle: Duration::from_secs(60), ..Config::default() });
    let idle: Vec<TcpStream> = (0..2000).map(|_| TcpStream::connect(h.addr()).unwrap()).collect();
    // Half of them have sent half a request.
    for mut s in idle.iter().step_by(2) {
        s.write_all(b"GET /api/rules HTTP/1.1\r\nHost").unwrap();
    }
    std::thread::sleep(Duration::from_millis(300));
    let mut c = Client::new(&h.addr().to_string());
    let mut worst = Duration::ZERO;
    for _ in 0..20 {
        let start = Instant::now();
        assert_eq!(c.send("GET", "/api/rules", None).unwrap().status, 200);
        worst = worst.max(start.elapsed());
    }
    assert!(worst < Duration::from_millis(50), "a GET took {worst:?} beside 2,000 idle connections");
    // A new connection too.
    let start = Instant::now();
    assert_eq!(status_of(&raw(h.addr(), b"GET /api/rules HTTP/1.1\r\nConnection: close\r\n\r\n")), 200);
    assert!(start.elapsed() < Duration::from_millis(50), "{:?}", start.elapsed());
    drop(idle);
    h.stop();
}

#[test]
fn past_the_connection_cap_a_new_connection_gets_503() {
    let h = server(Config { workers: 2, max_connections: 3, ..Config::default() });
    assert_eq!(h.max_connections(), 3);
    let held: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(h.addr()).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let answer = raw(h.addr(), b"GET /api/rules HTTP/1.1\r\n\r\n");
    assert_eq!(status_of(&answer), 503, "{answer}");
    drop(held);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(status_of(&raw(h.addr(), b"GET /api/rules HTTP/1.1\r\nConnection: close\r\n\r\n")), 200);
    h.stop();
}

#[test]
fn pipelined_requests_are_answered_in_order_and_a_slow_reader_holds_no_worker() {
    let h = server(Config { workers: 1, ..Config::default() });
    // Three requests at once, the last closing: three answers, in order.
    let answer = raw(
        h.addr(),
        b"GET /api/rules HTTP/1.1\r\n\r\nHEAD /nope HTTP/1.1\r\n\r\nGET /x HTTP/1.1\r\nConnection: close\r\n\r\n",
    );
    let statuses: Vec<&str> = answer.match_indices("HTTP/1.1 ").map(|(k, _)| &answer[k + 9..k + 12]).collect();
    assert_eq!(statuses, ["200", "404", "404"], "{answer}");
    // A client that asks for many pages and reads none: its answers wait in the loop,
    // not in the one worker, which serves another client meanwhile.
    let mut slow = TcpStream::connect(h.addr()).unwrap();
    let many = "GET / HTTP/1.1\r\n\r\n".repeat(200);
    slow.write_all(many.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut c = Client::new(&h.addr().to_string());
    let start = Instant::now();
    assert_eq!(c.send("GET", "/api/rules", None).unwrap().status, 200);
    assert!(start.elapsed() < Duration::from_millis(200), "{:?}", start.elapsed());
    drop(slow);
    h.stop();
}

/// A probe is answered by the event loop itself: the one worker kept busy by tracing
/// on the largest preset (about a quarter of a second each, four clients queueing
/// them) delays no probe, while before, each probe waited its turn behind the traces.
/// And a connection's 1,000 requests (the most it may make) pipelined in one write,
/// each answered by the loop, all come back, the last one closing it (answered one
/// after the other, not by recursion).
#[test]
fn probes_are_answered_by_the_loop_while_every_worker_is_busy() {
    let h = server(Config { workers: 1, ..Config::default() });
    let addr = h.addr().to_string();
    let mut c = Client::new(&addr);
    let r = c.send("POST", "/api/games", Some("{\"rules\": \"classic\", \"seed\": 11}")).unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let token = r.body.split('"').nth(3).unwrap().to_string();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let tracers: Vec<_> = (0..4)
        .map(|_| {
            let (addr, stop) = (addr.clone(), std::sync::Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut c = Client::new(&addr);
                let mut traced = 0;
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    let r = c.send("GET", "/api/trace?strategy=bayes&rules=starwars", None).unwrap();
                    assert_eq!(r.status, 200, "{}", r.body);
                    traced += 1;
                }
                traced
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    for cell in 0..20 {
        let body = format!("{{\"r\": {}, \"c\": {}}}", cell / 10, cell % 10);
        let r = c.send("POST", &format!("/api/games/{token}/probe"), Some(&body)).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let probing = start.elapsed();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let traced: usize = tracers.into_iter().map(|t| t.join().unwrap()).sum();
    assert!(traced >= 4, "the worker was not kept busy: {traced} traces");
    assert!(probing < Duration::from_secs(1), "20 probes took {probing:?} beside a busy worker");
    let many = "GET /favicon.ico HTTP/1.1\r\n\r\n".repeat(1000);
    let answer = raw(h.addr(), many.as_bytes());
    let tail = &answer[answer.len().saturating_sub(600)..];
    assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 1000, "{tail}");
    assert_eq!(answer.to_ascii_lowercase().matches("connection: close").count(), 1, "{tail}");
    h.stop();
}

/// A small xorshift generator (a fixed seed: the same cases every run).
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Some JSON, well-formed or not: nesting, numbers of every shape, strings with escapes.
fn fuzz_json(rng: &mut XorShift, depth: usize) -> String {
    let numbers = [
        "0",
        "-0",
        "1",
        "17",
        "-1",
        "1.5",
        "1e3",
        "1E-3",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999999999",
        "1e400",
        "-1e-400",
        "01",
        "+1",
        ".5",
        "5.",
        "1e",
        "--1",
        "0x10",
        "NaN",
    ];
    let strings =
        ["\"\"", "\"classic\"", "\"a\\u0000b\"", "\"\\ud800\"", "\"\\uDE00x\"", "\"\\q\"", "\"tab\tin\"", "\"é\""];
    let keys =
        ["rules", "seed", "rows", "cols", "r", "c", "state", "fleet", "touch", "sunk", "afloat", "strategy", "x"];
    match rng.below(if depth > 40 { 4 } else { 9 }) {
        0 => rng.pick(&numbers).to_string(),
        1 => rng.pick(&strings).to_string(),
        2 => rng.pick(&["true", "false", "null", "nul", "tru"]).to_string(),
        3 => rng.pick(&["", "{", "}", "[", "]", ",", ":", "\"", "{\"a\" 1}", "[1,]", "{,}"]).to_string(),
        4 | 5 => {
            let n = rng.below(5);
            let items: Vec<String> = (0..n).map(|_| fuzz_json(rng, depth + 1)).collect();
            format!("[{}]", items.join(","))
        }
        6 => "[".repeat(rng.below(300)),
        _ => {
            let n = rng.below(5);
            let members: Vec<String> =
                (0..n).map(|_| format!("\"{}\": {}", rng.pick(&keys), fuzz_json(rng, depth + 1))).collect();
            format!("{{{}}}", members.join(", "))
        }
    }
}

/// A request, crafted or broken; and whether it is whole (an answer is then owed).
fn fuzz_request(rng: &mut XorShift) -> (Vec<u8>, bool) {
    let method = rng.pick(&["GET", "POST", "HEAD", "PUT", "get", "", "G ET", "BREW", "POST"]);
    let token = rng.pick(&["0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789ABCDEF", "zz", ""]);
    let long = "a".repeat(rng.below(10_000));
    let target = match rng.below(12) {
        0 => "/".to_string(),
        1 => "/api/rules".to_string(),
        2 => "/api/games".to_string(),
        3 => format!("/api/games/{token}/probe"),
        4 => "/api/advise".to_string(),
        5 => format!("/api/trace?strategy={}&seed={}", rng.pick(&["linear", "x", "%zz", "%+f", ""]), rng.below(5)),
        6 => format!("/exec?method={}&token={token}&row=%2B1&col=0", rng.pick(&["GetToken", "GetCellAt", "%"])),
        7 => format!("/{long}"),
        8 => "*".to_string(),
        9 => "/a\u{1}b".to_string(),
        10 => "/%00/../etc/passwd".to_string(),
        _ => format!("/exec?{}", rng.pick(&["%", "%%", "a=%e9", "a=%c3%a9", "&&&", "=="])),
    };
    let version = rng.pick(&["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2", "HTTP/1.1x", "", "http/1.1"]);
    let json = fuzz_json(rng, 0);
    let body = match rng.below(4) {
        0 => String::new(),
        1 => (0..rng.below(64)).map(|_| char::from(rng.below(128) as u8)).collect(),
        _ => json,
    };
    let mut head = format!("{method} {target} {version}\r\n");
    let mut whole = true;
    let mut length = Some(body.len());
    for _ in 0..rng.below(6) {
        let line = match rng.below(12) {
            0 => "Host: x".to_string(),
            1 => "Connection: close".to_string(),
            2 => format!("Content-Length: {}", rng.pick(&["+2", "-1", "2, 2", "99999999999999999999", "1 2"])),
            3 => "Transfer-Encoding: chunked".to_string(),
            4 => "X-Junk".to_string(),
            5 => " folded: x".to_string(),
            6 => format!("X-Long: {}", "v".repeat(rng.below(20_000))),
            7 => "X-Ctl: a\u{1}\u{7f}b".to_string(),
            8 => "Content-Type: application/json".to_string(),
            9 => format!("Content-Length: {}", body.len() + 5),
            10 => "Bad Name: y".to_string(),
            _ => "X-Ok: ok".to_string(),
        };
        if line.starts_with("Content-Length: ") {
            match line.trim_start_matches("Content-Length: ").parse::<usize>() {
                Ok(n) if n > body.len() && n <= 1 << 20 => whole = false,
                _ => {}
            }
            length = None;
        }
        head.push_str(&line);
        head.push_str("\r\n");
    }
    if let Some(n) = length {
        head.push_str(&format!("Content-Length: {n}\r\n"));
    }
    if rng.below(20) == 0 {
        whole = false; // the head never ends
    } else {
        head.push_str("\r\n");
    }
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    if rng.below(10) == 0 {
        // Bytes that are not text, anywhere.
        let at = rng.below(bytes.len());
        bytes.insert(at, [0xff, 0, 0xc3][rng.below(3)]);
        whole = false; // it may have cut the head's end
    }
    (bytes, whole)
}

/// The statuses the README documents.
const DOCUMENTED: [u16; 14] = [200, 201, 400, 404, 405, 408, 409, 413, 414, 422, 431, 501, 503, 505];

/// Checks that `answer` is a sequence of whole HTTP/1.1 responses with documented
/// statuses; returns how many.
fn well_formed(answer: &[u8], case: &str) -> usize {
    let mut rest = answer;
    let mut count = 0;
    while !rest.is_empty() {
        let end = rest.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or_else(|| panic!("{case}: no head end"));
        let head = std::str::from_utf8(&rest[..end]).unwrap_or_else(|_| panic!("{case}: head not text"));
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap();
        let mut words = status_line.splitn(3, ' ');
        assert_eq!(words.next(), Some("HTTP/1.1"), "{case}: {status_line}");
        let status: u16 = words.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        assert!(DOCUMENTED.contains(&status), "{case}: status {status}");
        assert!(words.next().is_some_and(|r| !r.is_empty()), "{case}: no reason phrase");
        let mut length = None;
        for line in lines {
            let (name, value) = line.split_once(": ").unwrap_or_else(|| panic!("{case}: header {line:?}"));
            if name == "Content-Length" {
                length = value.parse::<usize>().ok();
            }
        }
        let length = length.unwrap_or_else(|| panic!("{case}: no Content-Length"));
        // A HEAD answer has no body: it is the last thing sent (a case is one request).
        let head_only = rest.len() == end + 4;
        let body_end = if head_only { end + 4 } else { end + 4 + length };
        assert!(rest.len() >= body_end, "{case}: a body cut short");
        rest = &rest[body_end..];
        count += 1;
    }
    count
}

#[test]
fn fuzzed_requests_get_well_formed_answers_and_the_server_lives_on() {
    let h = server(Config { workers: 2, ..Config::default() });
    let mut normal = Client::new(&h.addr().to_string());
    let mut rng = XorShift(0x5eed_2026_0001);
    let start = Instant::now();
    let mut answered = 0;
    for n in 0..1500 {
        let (bytes, whole) = fuzz_request(&mut rng);
        let case = format!("case {n}: {:?}", String::from_utf8_lossy(&bytes[..bytes.len().min(200)]));
        let mut s = TcpStream::connect(h.addr()).unwrap();
        s.set_nodelay(true).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        // In pieces, so that the reader sees partial lines.
        let mut at = 0;
        while at < bytes.len() {
            let k = (at + 1 + rng.below(bytes.len())).min(bytes.len());
            if s.write_all(&bytes[at..k]).is_err() {
                break;
            }
            at = k;
        }
        let _ = s.shutdown(std::net::Shutdown::Write);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        if answer.is_empty() {
            assert!(!whole, "{case}: a whole request got no answer");
        } else {
            answered += well_formed(&answer, &case);
        }
        assert_eq!(normal.send("GET", "/api/rules", None).unwrap().status, 200, "after {case}");
    }
    assert!(answered > 1000, "{answered}");
    // The JSON reader alone: any text, never a panic, in bounded time.
    for _ in 0..20_000 {
        let text = fuzz_json(&mut rng, 0);
        let _ = spot_the_ships::render::json::parse(&text);
    }
    assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
    h.stop();
}

/// Polls `GET /api/games/TOKEN/computer` until the computer's game is ready.
fn computer_game(c: &mut Client, token: &str) -> Value {
    let start = Instant::now();
    loop {
        let r = c.send("GET", &format!("/api/games/{token}/computer"), None).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let v = json::parse(&r.body).unwrap();
        if v.get("ready") == Some(&Value::Bool(true)) {
            return v;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the computer never got ready");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A classic fleet for the player's side of a match, as the API reads it.
const CLASSIC_SHIPS: &str = "[[[0,0],[0,1],[0,2],[0,3],[0,4]], [[2,0],[2,1],[2,2],[2,3]], [[4,2],[4,3],[4,4]], \
                             [[6,5],[7,5],[8,5]], [[9,0],[9,1]]]";

#[test]
fn a_match_the_computers_game_off_the_request_path_and_giving_up() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    let ships = CLASSIC_SHIPS;
    let body = format!(
        "{{\"rules\": \"classic\", \"strategy\": \"density\", \"placement\": \"opponent\", \"ships\": {ships}}}"
    );
    let r = c.send("POST", "/api/matches", Some(&body)).unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    assert!(r.body.contains("\"ship_cells\": 17, \"placement\": \"opponent\""), "{}", r.body);
    let token = r.body.split('"').nth(3).unwrap().to_string();
    // The computer's game is density's trace of the same bay, probe for probe.
    let game = computer_game(&mut c, &token);
    let trace = c
        .send("GET", "/api/trace?strategy=density&rules=classic&ships=0,0,5,E;2,0,4,E;4,2,3,E;6,5,3,S;9,0,2,E", None)
        .unwrap();
    assert_eq!(trace.status, 200, "{}", trace.body);
    let trace = json::parse(&trace.body).unwrap();
    let steps = trace.get("steps").and_then(Value::as_array).unwrap();
    let moves = game.get("moves").and_then(Value::as_array).unwrap();
    assert_eq!(moves.len(), steps.len());
    assert_eq!(game.get("scans").and_then(Value::as_u64), Some(steps.len() as u64));
    for (m, s) in moves.iter().zip(steps) {
        assert_eq!(m.get("probe"), s.get("probe"));
        let said = match m.get("ship").and_then(Value::as_str) {
            Some(ship) => format!("sunk {ship}"),
            None => m.get("answer").and_then(Value::as_str).unwrap().to_string(),
        };
        assert_eq!(Some(said.as_str()), s.get("answer").and_then(Value::as_str));
    }
    // Giving up reveals the fleet, and no probe is taken after it.
    let r = c.send("POST", &format!("/api/games/{token}/probe"), Some("{\"r\": 0, \"c\": 0}")).unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let r = c.send("POST", &format!("/api/games/{token}/reveal"), None).unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let v = json::parse(&r.body).unwrap();
    assert_eq!(v.get("given_up"), Some(&Value::Bool(true)));
    assert_eq!(v.get("probes").and_then(Value::as_u64), Some(1));
    let fleet = v.get("ships").and_then(Value::as_array).unwrap();
    assert_eq!(fleet.len(), 5);
    let cells: usize = fleet.iter().map(|s| s.get("cells").and_then(Value::as_array).unwrap().len()).sum();
    assert_eq!(cells, 17);
    let r = c.send("POST", &format!("/api/games/{token}/probe"), Some("{\"r\": 5, \"c\": 5}")).unwrap();
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("given up"), "{}", r.body);
    // A plain game has no computer's game.
    let g = c.send("POST", "/api/games", Some("{\"rules\": \"classic\", \"seed\": 3}")).unwrap();
    let plain = g.body.split('"').nth(3).unwrap().to_string();
    let r = c.send("GET", &format!("/api/games/{plain}/computer"), None).unwrap();
    assert_eq!(r.status, 404, "{}", r.body);
    // Refused: a strategy the rules do not allow, one that does not exist, a fleet that
    // is not the rules', a bad placement, ships that are not cells.
    for (body, status, words) in [
        (
            format!("{{\"rules\": \"classic\", \"strategy\": \"prob\", \"ships\": {ships}}}"),
            400,
            "cannot play these rules",
        ),
        (format!("{{\"rules\": \"classic\", \"strategy\": \"seer\", \"ships\": {ships}}}"), 400, "must be one of"),
        ("{\"rules\": \"classic\", \"ships\": [[[0,0],[0,1]]]}".to_string(), 422, "the rules' fleet"),
        (format!("{{\"rules\": \"classic\", \"placement\": \"hard\", \"ships\": {ships}}}"), 400, "placement"),
        ("{\"rules\": \"classic\", \"ships\": [[1, 2]]}".to_string(), 400, "list of ships"),
        ("{\"rules\": \"classic\", \"ships\": [[[0, -1]]]}".to_string(), 400, "list of ships"),
        ("{\"rules\": \"classic\"}".to_string(), 400, "list of ships"),
    ] {
        let r = c.send("POST", "/api/matches", Some(&body)).unwrap();
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert!(r.body.contains(words), "{body}: {}", r.body);
    }
    h.stop();
}

#[test]
fn the_computers_moves_come_as_they_are_made_and_a_forgotten_game_is_gone() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    let ships = CLASSIC_SHIPS;
    // lookahead thinks up to a second a move, seconds a game: its first moves come long
    // before its game ends.
    let body = format!("{{\"rules\": \"classic\", \"strategy\": \"lookahead\", \"ships\": {ships}}}");
    let r = c.send("POST", "/api/matches", Some(&body)).unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let token = r.body.split('"').nth(3).unwrap().to_string();
    let computer = format!("/api/games/{token}/computer");
    let start = Instant::now();
    let first = loop {
        let r = c.send("GET", &computer, None).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let v = json::parse(&r.body).unwrap();
        if v.get("made").and_then(Value::as_u64) >= Some(2) {
            break v;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no move in a minute: {}", r.body);
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(first.get("ready"), Some(&Value::Bool(false)), "{first:?}");
    assert_eq!(first.get("scans"), Some(&Value::Null));
    let made = first.get("made").and_then(Value::as_u64).unwrap();
    let moves = first.get("moves").and_then(Value::as_array).unwrap();
    assert_eq!(moves.len() as u64, made);
    assert!(moves.iter().all(|m| m.get("probe").is_some() && m.get("reply").is_some()), "{first:?}");
    // From the second move on: the same moves, less the first.
    let r = c.send("GET", &format!("{computer}?from=1"), None).unwrap();
    let v = json::parse(&r.body).unwrap();
    assert_eq!(v.get("from").and_then(Value::as_u64), Some(1));
    let later = v.get("moves").and_then(Value::as_array).unwrap();
    let probe = |m: Option<&Value>| m.and_then(|m| m.get("probe")).cloned();
    assert!(probe(later.first()).is_some() && probe(later.first()) == probe(moves.get(1)), "{}", r.body);
    let r = c.send("GET", &format!("{computer}?from=100000"), None).unwrap();
    assert!(r.body.contains("\"moves\": []"), "{}", r.body);
    for bad in ["?from=-1", "?from=x", "?from=%zz"] {
        let r = c.send("GET", &format!("{computer}{bad}"), None).unwrap();
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
    }
    // The page leaves the game: it is forgotten, and only DELETE forgets.
    let r = c.send("GET", &format!("/api/games/{token}"), None).unwrap();
    assert_eq!(r.status, 405, "{}", r.body);
    let r = c.send("DELETE", &format!("/api/games/{token}"), None).unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    for (method, path) in [("GET", computer.clone()), ("DELETE", format!("/api/games/{token}"))] {
        let r = c.send(method, &path, None).unwrap();
        assert_eq!(r.status, 404, "{method} {path}: {}", r.body);
    }
    h.stop();
}

#[test]
fn rules_list_levels_and_strategies_per_preset_and_placements_and_the_icon() {
    let h = default_server();
    let mut c = Client::new(&h.addr().to_string());
    let r = c.send("GET", "/api/rules", None).unwrap();
    let v = json::parse(&r.body).unwrap();
    let presets = v.get("presets").and_then(Value::as_array).unwrap();
    let classic = presets.iter().find(|p| p.get("name").and_then(Value::as_str) == Some("classic")).unwrap();
    let names: Vec<&str> = classic
        .get("strategies")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|s| s.get("name").and_then(Value::as_str).unwrap())
        .collect();
    assert_eq!(names, ["linear", "random", "parity", "bayes", "hunt", "hunt-parity", "density", "density-random"]);
    let levels = classic.get("levels").and_then(Value::as_array).unwrap();
    assert_eq!(levels.len(), 4);
    let expert = &levels[3];
    assert_eq!(expert.get("level").and_then(Value::as_str), Some("expert"));
    // Expert under classic is lookahead, its mean measured on the 2,000 boards too.
    assert_eq!(expert.get("strategy").and_then(Value::as_str), Some("lookahead"));
    assert!(r.body.contains("\"strategy\": \"lookahead\", \"summary\": "), "{}", r.body);
    assert!(r.body.contains("\"mean\": 44.0500}"), "{}", r.body);
    assert!(expert.get("summary").and_then(Value::as_str).unwrap().contains("a move"), "{}", r.body);
    let hard = &levels[2];
    assert!(r.body.contains("\"level\": \"hard\", \"strategy\": \"parity\""), "{}", r.body);
    assert_eq!(hard.get("estimate"), None);
    assert!(r.body.contains("\"measured_games\": 2000"), "{}", r.body);
    let advise = |name: &str| {
        let p = presets.iter().find(|p| p.get("name").and_then(Value::as_str) == Some(name)).unwrap();
        p.get("advise")
            .and_then(Value::as_array)
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(advise("classic"), ["bayes"]);
    assert_eq!(advise("problem-g"), ["bayes", "prob"]);
    // A placement for the player's fleet, uniform or as an opponent would: the rules'.
    for how in ["uniform", "opponent"] {
        let r = c
            .send("POST", "/api/placement", Some(&format!("{{\"rules\": \"russian\", \"placement\": \"{how}\"}}")))
            .unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let v = json::parse(&r.body).unwrap();
        let ships = v.get("ships").and_then(Value::as_array).unwrap();
        assert_eq!(ships.len(), 10);
        let mut cells: Vec<u64> = Vec::new();
        for s in ships {
            for cell in s.get("cells").and_then(Value::as_array).unwrap() {
                let rc = cell.as_array().unwrap();
                cells.push(rc[0].as_u64().unwrap() * 10 + rc[1].as_u64().unwrap());
            }
        }
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), 20, "{}", r.body);
    }
    let r = c.send("POST", "/api/placement", Some("{\"rules\": \"classic\", \"touch\": \"maybe\"}")).unwrap();
    assert_eq!(r.status, 400, "{}", r.body);
    let icon = raw(h.addr(), b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_eq!(status_of(&icon), 200, "{icon}");
    assert!(icon.contains("Content-Type: image/svg+xml") && icon.contains("<svg"), "{icon}");
    h.stop();
}
