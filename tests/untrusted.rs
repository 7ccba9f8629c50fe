//! Hostile inputs outside the HTTP server: counts too large for a JSON number, errors
//! found after output began, fleets that cannot fit, answers no layout explains, and
//! case files that are not regular files. Each test runs the real binary.

use crate::common;

#[test]
fn a_layout_count_past_the_largest_float_is_still_json() {
    let dir = common::scratch("untrusted-json");
    let grid = dir.join("row.txt");
    std::fs::write(&grid, format!("{}\n", ".".repeat(2500))).unwrap();
    let fleet = vec!["1"; 800].join(",");
    let grid = grid.to_string_lossy().into_owned();
    let args = ["advise", "--strategy", "bayes", "--fleet", &fleet, "--format", "json", &grid];
    let out = common::run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(!text.contains("inf") && !text.contains("NaN"), "{}", &text[..200.min(text.len())]);
    let value = spot_the_ships::render::json::parse(text.trim_end()).expect("the crate's reader takes it");
    let _ = value;
    assert!(text.contains("\"layouts\": null, \"layouts_overflow\": true"), "{}", &text[..200.min(text.len())]);
    // An independent reader takes it too.
    let mut python = std::process::Command::new("python3")
        .args(["-m", "json.tool"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    python.stdin.take().unwrap().write_all(&out.stdout).unwrap();
    let checked = python.wait_with_output().unwrap();
    assert!(checked.status.success(), "json.tool: {}", String::from_utf8_lossy(&checked.stderr));
    // The text stays readable: the fleet is summed up, not 1,600 characters of `1,`.
    let out = common::run(&["advise", "--strategy", "bayes", "--fleet", &fleet, &grid], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let head = text.lines().next().unwrap();
    assert!(head.contains("fleet of 800 ships and 800 cells") && head.len() < 200, "{head}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trace_refuses_a_board_too_large_for_its_strategy_before_any_output() {
    let dir = common::scratch("untrusted-trace");
    let small = dir.join("129.txt");
    let out = common::run(&["generate", "--rows", "1", "--cols", "129", "--seed", "1"], b"");
    std::fs::write(&small, &out.stdout).unwrap();
    let small = small.to_string_lossy().into_owned();
    for format in ["text", "json"] {
        let out = common::run(&["trace", "--strategy", "lookahead", "--format", format, &small], b"");
        let err = common::error_of(&out, &format!("trace lookahead {format}"));
        assert!(err.contains("at most 128 cells"), "{err}");
    }
    let out = common::run(&["--strategy", "lookahead", &small], b"");
    common::error_of(&out, "judge lookahead");
    // Density plays at most 4,194,304 cells: a 1x4,194,305 board is refused before the
    // trace's first line (and by the judge, as before).
    let big = dir.join("big.txt");
    let out = common::run(&["generate", "--rows", "1", "--cols", "4194305", "--seed", "1"], b"");
    assert_eq!(out.status.code(), Some(0));
    std::fs::write(&big, &out.stdout).unwrap();
    let big = big.to_string_lossy().into_owned();
    for format in ["text", "json"] {
        let out = common::run(&["trace", "--strategy", "density", "--limit", "2", "--format", format, &big], b"");
        let err = common::error_of(&out, &format!("trace density {format}"));
        assert!(err.contains("at most 4194304 cells"), "{err}");
    }
    let out = common::run(&["--strategy", "density", &big], b"");
    common::error_of(&out, "judge density");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fleet_that_cannot_fit_is_refused_before_the_first_probe() {
    let out = common::run(&["play", "--rows", "2", "--cols", "2", "--fleet", "1,1"], b"hit\nmiss\nmiss\nmiss\n");
    let err = common::error_of(&out, "play 2x2 1,1");
    assert!(err.contains("no layout of the fleet fits a 2x2 board without touching ships"), "{err}");
    assert!(err.contains("it is too crowded for this board"), "{err}");
    // referee and generate say it is too crowded too.
    for command in ["referee", "generate"] {
        let out = common::run(&[command, "--rows", "2", "--cols", "2", "--fleet", "1,1"], b"");
        let err = common::error_of(&out, command);
        assert!(err.contains("it is too crowded for this board"), "{command}: {err}");
    }
    // advise refuses a grid a fleet given (or bayes's) cannot fit, whatever the strategy.
    for args in [&["advise", "--fleet", "1,1"][..], &["advise", "--strategy", "prob", "--fleet", "1,1"]] {
        let out = common::run(args, b"..\n..\n");
        let err = common::error_of(&out, &format!("{args:?}"));
        assert!(err.contains("2x2 board"), "{args:?}: {err}");
    }
}

#[test]
fn an_answer_no_layout_explains_is_refused_where_it_is_given() {
    // 20 hits under classic rules: no ship is ever announced sunk, which named sunk
    // ships make impossible once a whole ship is hit.
    let answers = "hit\n".repeat(20);
    let out = common::run(&["play", "--rows", "10", "--cols", "10", "--rules", "classic"], answers.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: play: contradiction: ") && err.contains("no layout of the fleet agrees"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("too many possible places"), "{err}");
    // A hit boxed in by water: no ship of 3,2 is one cell long.
    let answers = "hit\nmiss\nmiss\nmiss\nmiss\nmiss\nmiss\nmiss\n";
    let out = common::run(&["play", "--rows", "5", "--cols", "6", "--fleet", "3,2"], answers.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let asked = String::from_utf8_lossy(&out.stdout).lines().count();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is answered water, but then no layout of the fleet agrees"), "{err}");
    // Refused at the answer that closed the box: the fourth side of the hit, not later.
    assert_eq!(asked, 5, "{}", String::from_utf8_lossy(&out.stdout));
}

/// A straight ship of a layout: its size and cells.
type Ship = (usize, Vec<(usize, usize)>);

/// Every layout of straight ships of `sizes` on a `rows` x `cols` bay (touching or not).
fn layouts(rows: usize, cols: usize, sizes: &[usize], touch: bool) -> Vec<Vec<Ship>> {
    let mut placements: Vec<Vec<Ship>> = Vec::new();
    for &size in sizes {
        let mut list = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let east: Vec<_> = (0..size).map(|k| (r, c + k)).collect();
                let south: Vec<_> = (0..size).map(|k| (r + k, c)).collect();
                for cells in [east, south] {
                    if cells.iter().all(|&(a, b)| a < rows && b < cols) && !list.iter().any(|(_, x)| x == &cells) {
                        list.push((size, cells));
                    }
                }
            }
        }
        placements.push(list);
    }
    let mut out = vec![Vec::new()];
    for list in placements {
        let mut next = Vec::new();
        for layout in &out {
            for ship in &list {
                let clash = layout.iter().any(|(_, cells): &Ship| {
                    cells.iter().any(|&(a, b)| {
                        ship.1.iter().any(|&(x, y)| {
                            let (dr, dc) = (a.abs_diff(x), b.abs_diff(y));
                            if touch {
                                dr == 0 && dc == 0
                            } else {
                                dr <= 1 && dc <= 1
                            }
                        })
                    })
                });
                if !clash {
                    let mut l = layout.clone();
                    l.push(ship.clone());
                    next.push(l);
                }
            }
        }
        out = next;
    }
    out
}

/// Whether `layout` gives exactly the answers `given` (cells in the order asked).
fn agrees(layout: &[Ship], given: &[((usize, usize), String)], sunk_rules: bool, complete: bool) -> bool {
    let mut probed: Vec<(usize, usize)> = Vec::new();
    for (cell, answer) in given {
        probed.push(*cell);
        let ship = layout.iter().find(|(_, cells)| cells.contains(cell));
        let whole = |s: &Ship| s.1.iter().all(|c| probed.contains(c));
        let ok = match (answer.as_str(), ship) {
            ("miss", None) => true,
            ("miss", Some(_)) | (_, None) => false,
            ("hit", Some(s)) => !sunk_rules || !whole(s),
            (sunk, Some(s)) => {
                let named = sunk.strip_prefix("sunk ").and_then(|n| n.parse::<usize>().ok());
                whole(s) && named.is_none_or(|n| n == s.0)
            }
        };
        if !ok {
            return false;
        }
    }
    // A game play ended: every ship cell was found.
    !complete || layout.iter().all(|(_, cells)| cells.iter().all(|c| probed.contains(c)))
}

#[test]
fn every_answer_stream_play_accepts_has_a_layout() {
    // (preset, touch, announces sunk ships, the answers a stream draws from)
    let presets: [(&str, bool, bool, &[&str]); 4] = [
        ("problem-g", false, false, &["hit", "miss", "miss"]),
        ("classic", true, true, &["hit", "miss", "miss", "sunk", "sunk 1", "sunk 2"]),
        ("russian", false, true, &["hit", "miss", "miss", "sunk"]),
        ("starwars", true, false, &["hit", "miss", "miss"]),
    ];
    let (rows, cols, sizes) = (3, 4, [2usize, 1]);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n
    };
    for (preset, touch, sunk_rules, words) in presets {
        let all = layouts(rows, cols, &sizes, touch);
        let (mut accepted, mut finished) = (0, 0);
        for _ in 0..1000 {
            let answers: Vec<String> = (0..rows * cols).map(|_| words[next(words.len())].to_string()).collect();
            let input = answers.join("\n") + "\n";
            let args =
                ["play", "--rows", "3", "--cols", "4", "--fleet", "2,1", "--rules", preset, "--strategy", "linear"];
            let out = common::run(&args, input.as_bytes());
            let asked: Vec<(usize, usize)> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| {
                    let mut w = l.strip_prefix("? ")?.split(' ');
                    Some((w.next()?.parse().ok()?, w.next()?.parse().ok()?))
                })
                .collect();
            let mut given: Vec<_> = asked.into_iter().zip(answers.iter().cloned()).collect();
            let complete = out.status.code() == Some(0);
            if !complete {
                // The last answer read is the one refused (or the input ran out first).
                given.pop();
            }
            let found = all.iter().any(|l| agrees(l, &given, sunk_rules, complete));
            assert!(
                found,
                "{preset}: play accepted {given:?} (status {:?}, {}) but no layout agrees",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            );
            accepted += given.len();
            finished += usize::from(complete);
        }
        assert!(accepted > 1000 && finished > 0, "{preset}: {accepted} answers accepted, {finished} games finished");
    }
}

/// A service on 127.0.0.1 (Python, one thread per connection) answering the seed's API
/// for a 1x2 sea whose ship is at (0,0), with `token` from GetToken; every request
/// line it reads is appended to `log`. Returns the server and its port.
fn token_service(token: &str, log: &std::path::Path) -> (std::process::Child, u16) {
    let script = r#"
import socket, sys, threading
token, log = sys.argv[1].encode('latin-1').decode('unicode_escape'), sys.argv[2]
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
def serve(c):
    f = c.makefile('rb')
    while True:
        line = f.readline()
        if not line: return
        with open(log, 'ab') as out: out.write(line)
        while True:
            h = f.readline()
            if h in (b'\r\n', b'\n', b''): break
            with open(log, 'ab') as out: out.write(h)
        t = line.decode('latin-1')
        body = token if 'GetToken' in t else '1' if ('RowCount' in t or 'col=0' in t) else '2' if 'ColumnCount' in t else '0'
        b = body.encode('latin-1')
        c.sendall(b'HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n' % len(b) + b)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script, token, &log.to_string_lossy()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut line = String::new();
    use std::io::BufRead;
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    (child, line.trim().parse().expect("a port"))
}

#[test]
fn a_services_token_reaches_neither_the_terminal_nor_the_request_raw() {
    let dir = common::scratch("untrusted-token");
    let log = dir.join("requests.log");
    let (mut server, port) = token_service(r"\x1b[2J\x1b]0;owned\x07tok", &log);
    let url = format!("http://127.0.0.1:{port}/exec");
    let out = common::run(&["play", "--url", &url, "--rules", "problem-g", "--fleet", "1"], b"");
    // A token of another form than serve's is refused, shown escaped, never used.
    let err = common::error_of(&out, "escape token");
    assert!(!out.stderr.contains(&0x1b) && !out.stderr.contains(&0x07), "raw escape on stderr: {err:?}");
    assert!(err.starts_with("error: play: the service's token `") && err.contains("tok"), "{err}");
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(requests.lines().filter(|l| l.starts_with("GET ")).count(), 1, "only GetToken: {requests}");
    let _ = server.kill();
    let _ = server.wait();
    // serve's form (32 characters 0-9 a-f) is played and shown.
    let token = "0123456789abcdef0123456789abcdef";
    let (mut server, port) = token_service(token, &log);
    let url = format!("http://127.0.0.1:{port}/exec");
    let out = common::run(&["play", "--url", &url, "--rules", "problem-g", "--fleet", "1"], b"");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.starts_with(&format!("token: {token}\n")), "{text:?} {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0));
    // A token in --url with an encoded CR LF would have added a header: refused.
    let url = format!("http://127.0.0.1:{port}/exec?token=abc%0d%0aX-Injected:%201");
    let out = common::run(&["play", "--url", &url, "--rules", "problem-g", "--fleet", "1"], b"");
    let err = common::error_of(&out, "injected token");
    assert!(err.contains("--url: the token") && !err.contains('\r'), "{err}");
    let requests = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!requests.contains("X-Injected"), "{requests}");
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
