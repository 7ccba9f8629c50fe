//! The page in a real browser: headless Chromium driven over WebDriver (HTTP and JSON,
//! standard library only). The helper's numbers and suggested cell are checked against
//! `advise --format json`, a game is played to its end, and a trace is stepped; the
//! screenshots go to `target/browser/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); skipped
//! only when `SPOT_SKIP_BROWSER=1` is set.

use crate::common;

use spot_the_ships::render::json::{self, Value};
use spot_the_ships::tools::serve::client::Client;
use spot_the_ships::tools::serve::{self, Config};
use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A WebDriver session.
struct Driver {
    client: Client,
    session: String,
    child: Child,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.client.send("DELETE", &format!("/session/{}", self.session), None);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse(text: &str) -> Value {
    json::parse(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (apt-get install chromium chromium-driver, or SPOT_SKIP_BROWSER=1)");
        let mut client = Client::new(&format!("127.0.0.1:{port}"));
        let start = Instant::now();
        loop {
            if let Ok(r) = client.send("GET", "/status", None) {
                if r.body.contains("\"ready\":true") {
                    break;
                }
            }
            assert!(start.elapsed() < Duration::from_secs(20), "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = r#"{"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1180,760", "--hide-scrollbars"]}}}}"#;
        let r = client.send("POST", "/session", Some(caps)).unwrap();
        let v = parse(&r.body);
        let session = v
            .get("value")
            .and_then(|v| v.get("sessionId"))
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no session: {}", r.body))
            .to_string();
        Driver { client, session, child }
    }

    fn call(&mut self, method: &str, path: &str, body: Option<&str>) -> Value {
        let r = self.client.send(method, &format!("/session/{}{path}", self.session), body).unwrap();
        assert_eq!(r.status, 200, "{method} {path}: {}", r.body);
        parse(&r.body).get("value").cloned().unwrap_or(Value::Null)
    }

    fn open(&mut self, url: &str) {
        self.call("POST", "/url", Some(&format!("{{\"url\": {}}}", json::string(url))));
    }

    fn click(&mut self, css: &str) {
        let v = self.call(
            "POST",
            "/element",
            Some(&format!("{{\"using\": \"css selector\", \"value\": {}}}", json::string(css))),
        );
        let id =
            v.get(ELEMENT).and_then(Value::as_str).unwrap_or_else(|| panic!("no element {css}: {v:?}")).to_string();
        self.call("POST", &format!("/element/{id}/click"), Some("{}"));
    }

    /// Runs `script` (a function body) and returns its value.
    fn run(&mut self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(&format!("{{\"script\": {}, \"args\": []}}", json::string(script))))
    }

    fn text(&mut self, id: &str) -> String {
        let v = self.run(&format!("return document.getElementById({}).textContent;", json::string(id)));
        v.as_str().unwrap_or("").to_string()
    }

    /// Waits until element `id`'s text satisfies `ok`.
    fn wait_text(&mut self, id: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let t = self.text(id);
            if ok(&t) {
                return t;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "#{id} stayed `{t}`");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn screenshot(&mut self, name: &str) {
        let v = self.call("GET", "/screenshot", None);
        let png = base64(v.as_str().unwrap_or(""));
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), png).unwrap();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |b: u8| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(t) => t.parse().ok(),
        Value::String(t) => t.parse().ok(),
        _ => None,
    }
}

#[test]
fn the_page_in_a_real_browser() {
    if std::env::var("SPOT_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("browser test skipped: SPOT_SKIP_BROWSER=1");
        return;
    }
    let started = Instant::now();
    let server =
        serve::start(Config { bind: SocketAddr::from(([127, 0, 0, 1], 0)), workers: 4, ..Config::default() }).unwrap();
    let url = format!("http://{}/", server.addr());
    let mut d = Driver::start();
    d.open(&url);
    d.wait_text("status", |t| t == "advised #1");

    // Helper: a miss, a hit and a sunk destroyer, clicked; the numbers must be advise's.
    d.click("#h-grid-2-3");
    d.click("#h-grid-2-4");
    d.click("#h-grid-2-4");
    d.click("#h-grid-7-6");
    d.click("#h-mode-sunk");
    d.click("#h-grid-5-1");
    d.click("#h-grid-6-1");
    d.run("document.getElementById('h-sunk-name').value = 'destroyer';");
    d.click("#h-sink");
    d.click("#h-mode-cycle");
    d.wait_text("status", |t| t == "advised #6");
    let shown = d.run(
        "return {text: document.getElementById('h-text').value, cmd: document.getElementById('h-cmd').textContent, \
         suggest: document.getElementById('h-suggest').textContent, \
         cells: [...document.querySelectorAll('#h-grid .cell[data-r]')].map(d => [d.dataset.v || null, d.textContent, \
         d.classList.contains('suggest')])};",
    );
    let state = shown.get("text").and_then(Value::as_str).unwrap().to_string();
    assert_eq!(state.lines().nth(2), Some("...X+....."), "{state}");
    assert_eq!(state.lines().nth(5), Some(".#........"), "{state}");
    let cmd = shown.get("cmd").and_then(Value::as_str).unwrap().to_string();
    assert!(cmd.contains("--afloat 5,4,3,3"), "{cmd}");
    let out = common::run(
        &["advise", "--format", "json", "--rules", "classic", "--strategy", "bayes", "--afloat", "5,4,3,3"],
        state.as_bytes(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let cli = parse(&String::from_utf8_lossy(&out.stdout));
    let probability: Vec<Value> = cli
        .get("probability")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().to_vec())
        .collect();
    let cells = shown.get("cells").and_then(Value::as_array).unwrap();
    assert_eq!(cells.len(), 100);
    let mut compared = 0;
    for (i, (cell, p)) in cells.iter().zip(&probability).enumerate() {
        let cell = cell.as_array().unwrap();
        match (number(&cell[0]), number(p)) {
            (Some(shown), Some(want)) => {
                assert_eq!(shown, want, "cell {i}");
                let pct = if want >= 1.0 {
                    100.0
                } else if want <= 0.0 {
                    0.0
                } else {
                    (want * 100.0).round().clamp(1.0, 99.0)
                };
                assert_eq!(cell[1].as_str(), Some(format!("{pct}").as_str()), "cell {i}");
                compared += 1;
            }
            (None, None) => {}
            (a, b) => panic!("cell {i}: page {a:?}, advise {b:?}"),
        }
    }
    assert!(compared > 80, "{compared}");
    let suggest = cli.get("suggest").and_then(Value::as_array).unwrap();
    let (sr, sc) = (suggest[0].as_u64().unwrap(), suggest[1].as_u64().unwrap());
    assert_eq!(shown.get("suggest").and_then(Value::as_str), Some(format!("({sr},{sc})").as_str()));
    let marked: Vec<usize> = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.as_array().unwrap()[2] == Value::Bool(true))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(marked, vec![(sr * 10 + sc) as usize]);
    d.screenshot("helper.png");
    // Undo takes the sunk ship back.
    d.click("#h-undo");
    d.wait_text("h-sunk", |t| t == "none");
    // A fleet typed in: the suggestion is still advise's.
    d.run("const f = document.getElementById('h-fleet'); f.value = '4,3,2'; f.dispatchEvent(new Event('change'));");
    d.wait_text("status", |t| t == "advised #8");
    let text = d.run("return document.getElementById('h-text').value;");
    let out = common::run(
        &["advise", "--format", "json", "--rules", "classic", "--fleet", "4,3,2", "--strategy", "bayes"],
        text.as_str().unwrap().as_bytes(),
    );
    let cli = parse(&String::from_utf8_lossy(&out.stdout));
    let s = cli.get("suggest").and_then(Value::as_array).unwrap();
    let want = format!("({},{})", s[0].as_u64().unwrap(), s[1].as_u64().unwrap());
    assert_eq!(d.text("h-suggest"), want);
    assert!(d.text("h-cmd").contains("--fleet 4,3,2"), "{}", d.text("h-cmd"));

    // Play: a random fleet, then probe the computer's bay row by row to the end.
    d.click("#tab-play");
    d.click("#p-random");
    d.wait_text("p-msg", |t| t.contains("fleet is placed"));
    // Then by hand: a ship that would touch is refused, then five ships running east.
    d.click("#p-manual");
    d.click("#p-mine-0-1");
    d.click("#p-mine-0-3");
    assert!(d.text("p-msg").contains("overlap"), "{}", d.text("p-msg"));
    for (r, c) in [(2, 0), (4, 2), (6, 5), (9, 0)] {
        d.click(&format!("#p-mine-{r}-{c}"));
    }
    d.wait_text("p-msg", |t| t.contains("fleet is placed"));
    let ships = d.run("return document.querySelectorAll('#p-mine .cell.ship').length;");
    assert_eq!(ships.as_u64(), Some(17));
    d.click("#p-start");
    d.wait_text("p-msg", |t| t.starts_with("Your turn"));
    let mut probes = 0;
    'game: for r in 0..10 {
        for c in 0..10 {
            d.click(&format!("#p-enemy-{r}-{c}"));
            probes += 1;
            let t = d.wait_text("p-you", |t| t.starts_with(&format!("Your probes: {probes}")));
            if t.contains("(done)") {
                break 'game;
            }
        }
    }
    let end = d.wait_text("p-msg", |t| t.starts_with("Game over"));
    assert!(end.contains(&format!("in {probes} probes")), "{end}");
    assert!(d.text("p-them").contains("(done)"));
    d.screenshot("play.png");

    // Watch: density's trace, stepped forward and back.
    d.click("#tab-watch");
    d.wait_text("status", |t| t == "traced");
    for _ in 0..30 {
        d.click("#w-fwd");
    }
    let step = d.wait_text("w-step", |t| t.starts_with("step 30 of "));
    d.click("#w-back");
    d.wait_text("w-step", |t| t.starts_with("step 29 of "));
    d.click("#w-fwd");
    assert!(d.text("w-legend").contains("density"), "{}", d.text("w-legend"));
    assert!(d.text("w-info").starts_with("Scan 30: "), "{}", d.text("w-info"));
    d.screenshot("watch.png");
    eprintln!("browser test: {step}; {probes} probes in play; {:.1} s", started.elapsed().as_secs_f64());
    drop(d);
    server.stop();
}
