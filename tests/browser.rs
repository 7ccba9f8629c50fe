//! The page in a real browser: headless Chromium driven over WebDriver (HTTP and JSON,
//! standard library only). The helper's numbers and suggested cell are checked against
//! `advise --format json`; in Play a game is restarted after a rules change mid-game,
//! given up, and played to its end by keyboard, the ships-left panel checked at every
//! turn against the fleet the referee reveals, and replayed step by step; a trace is
//! stepped; every view is checked at 400 px wide; any console error fails the test.
//! The screenshots go to `target/browser/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without
//! them on PATH the test says so and passes, unless `SPOT_REQUIRE_BROWSER=1` is set;
//! `SPOT_SKIP_BROWSER=1` skips it.

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
    fn start(chromium: &std::path::Path, chromedriver: &std::path::Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(chromedriver)
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
        let caps =
            r#"{"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": BINARY,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--hide-scrollbars"]}}}}"#
                .replace("BINARY", &json::string(&chromium.to_string_lossy()));
        let r = client.send("POST", "/session", Some(&caps)).unwrap();
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
        self.wait_text_within(20, id, ok)
    }

    /// Waits at most `secs` seconds until element `id`'s text satisfies `ok`.
    fn wait_text_within(&mut self, secs: u64, id: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let t = self.text(id);
            if ok(&t) {
                return t;
            }
            assert!(start.elapsed() < Duration::from_secs(secs), "#{id} stayed `{t}`");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until `script` (a function body) returns true.
    fn wait_for(&mut self, what: &str, script: &str) {
        let start = Instant::now();
        loop {
            if self.run(script) == Value::Bool(true) {
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "waited in vain for {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends keys (WebDriver's key codes) to the element that has the focus.
    fn keys(&mut self, text: &str) {
        let v = self.call("GET", "/element/active", None);
        let id =
            v.get(ELEMENT).and_then(Value::as_str).unwrap_or_else(|| panic!("no active element: {v:?}")).to_string();
        self.call("POST", &format!("/element/{id}/value"), Some(&format!("{{\"text\": {}}}", json::string(text))));
    }

    /// Sets a select's value and tells the page, as a user's choice would.
    fn choose(&mut self, id: &str, value: &str) {
        self.run(&format!(
            "const s = document.getElementById({}); s.value = {}; s.dispatchEvent(new Event('change'));",
            json::string(id),
            json::string(value)
        ));
    }

    /// The window's size (the page's viewport in headless Chromium).
    fn resize(&mut self, width: u32, height: u32) {
        self.call("POST", "/window/rect", Some(&format!("{{\"width\": {width}, \"height\": {height}}}")));
    }

    /// The browser's console entries at level SEVERE since the last call.
    fn console_errors(&mut self) -> Vec<String> {
        let r = self
            .client
            .send("POST", &format!("/session/{}/se/log", self.session), Some("{\"type\": \"browser\"}"))
            .unwrap();
        assert_eq!(r.status, 200, "the browser's log: {}", r.body);
        let v = parse(&r.body);
        v.get("value")
            .and_then(Value::as_array)
            .unwrap_or(&[])
            .iter()
            .filter(|e| e.get("level").and_then(Value::as_str) == Some("SEVERE"))
            .map(|e| e.get("message").and_then(Value::as_str).unwrap_or("?").to_string())
            .collect()
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

/// One turn of a game: the cells probed so far, and the ships the panel shows sunk.
type Turn = (Vec<(u64, u64)>, Vec<String>);

/// The program `name` on PATH.
fn on_path(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// A cell as a player names it: `B7`.
fn letters(r: u64, c: u64) -> String {
    let mut n = r + 1;
    let mut out = String::new();
    while n > 0 {
        out.insert(0, char::from(b'A' + ((n - 1) % 26) as u8));
        n = (n - 1) / 26;
    }
    format!("{out}{}", c + 1)
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
    let chromium = on_path("chromium").or_else(|| on_path("chromium-browser"));
    let (Some(chromium), Some(chromedriver)) = (chromium, on_path("chromedriver")) else {
        let why = "browser tests skipped: chromium/chromedriver not found; install them (apt-get install chromium \
                   chromium-driver) or run .ci/run";
        assert!(!std::env::var("SPOT_REQUIRE_BROWSER").is_ok_and(|v| v == "1"), "SPOT_REQUIRE_BROWSER=1: {why}");
        eprintln!("{why}");
        return;
    };
    let started = Instant::now();
    let server =
        serve::start(Config { bind: SocketAddr::from(([127, 0, 0, 1], 0)), workers: 4, ..Config::default() }).unwrap();
    let url = format!("http://{}/", server.addr());
    let mut d = Driver::start(&chromium, &chromedriver);
    d.open(&url);
    let advised = |n: u32| format!("return document.body.dataset.advised === '{n}';");
    d.wait_for("the first advice", &advised(1));
    // No internal state on screen: the header's status is empty when idle.
    assert_eq!(d.text("status"), "");
    // Under classic, only bayes advises (prob's scores assume ships that never touch).
    let offered = d.run("return [...document.getElementById('h-strategy').options].map(o => o.value).join(',');");
    assert_eq!(offered.as_str(), Some("bayes"));

    // Helper: a miss, a hit and a sunk destroyer, clicked; the numbers must be advise's.
    d.click("#h-grid-2-3");
    d.click("#h-grid-2-4");
    d.click("#h-grid-2-4");
    d.click("#h-grid-7-6");
    d.click("#h-mode-sunk");
    d.click("#h-grid-5-1");
    d.click("#h-grid-6-1");
    // The picker offers the ship two cells can be.
    assert_eq!(d.run("return document.getElementById('h-sunk-name').value;").as_str(), Some("destroyer"));
    d.click("#h-sink");
    d.click("#h-mode-cycle");
    d.wait_for("the sixth advice", &advised(6));
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
    assert_eq!(shown.get("suggest").and_then(Value::as_str), Some(letters(sr, sc).as_str()));
    let marked: Vec<usize> = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.as_array().unwrap()[2] == Value::Bool(true))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(marked, vec![(sr * 10 + sc) as usize]);
    // Cells are a grid for assistive technology, named as players name them.
    let aria = d.run(
        "const g = document.getElementById('h-grid'); const c = document.getElementById('h-grid-2-4'); \
         return [g.getAttribute('role'), c.parentElement.getAttribute('role'), c.getAttribute('role'), c.getAttribute('aria-label')].join('|');",
    );
    assert!(aria.as_str().unwrap().starts_with("grid|row|gridcell|C5, hit"), "{aria:?}");
    // Enter cycles the focused cell: unknown -> miss.
    d.click("#h-grid-0-0");
    d.wait_for("advice 7", &advised(7));
    d.keys("\u{E015}\u{E014}\u{E007}");
    d.wait_for("advice 8", &advised(8));
    let text = d.run("return document.getElementById('h-text').value;");
    assert_eq!(text.as_str().unwrap().lines().nth(1), Some(".X........"), "{text:?}");
    d.click("#h-undo");
    d.click("#h-undo");
    d.wait_for("advice 10", &advised(10));
    d.screenshot("helper.png");
    // Undo takes the sunk ship back.
    d.click("#h-undo");
    d.wait_text("h-sunk", |t| t == "none");
    d.click("#h-redo");
    d.wait_text("h-sunk", |t| t == "destroyer");
    // A fleet typed in keeps what it can and says what it dropped; the suggestion is
    // still advise's.
    d.run("const f = document.getElementById('h-fleet'); f.value = '4,3,3'; f.dispatchEvent(new Event('change'));");
    d.wait_for("advice 13", &advised(13));
    let note = d.text("h-note");
    assert!(note.contains("misses and hits are kept") && note.contains("dropped the sunk destroyer"), "{note}");
    let text = d.run("return document.getElementById('h-text').value;");
    assert_eq!(text.as_str().unwrap().lines().nth(5), Some(".+........"), "{text:?}");
    let out = common::run(
        &["advise", "--format", "json", "--rules", "classic", "--fleet", "4,3,3", "--strategy", "bayes"],
        text.as_str().unwrap().as_bytes(),
    );
    let cli = parse(&String::from_utf8_lossy(&out.stdout));
    let s = cli.get("suggest").and_then(Value::as_array).unwrap();
    assert_eq!(d.text("h-suggest"), letters(s[0].as_u64().unwrap(), s[1].as_u64().unwrap()));
    assert!(d.text("h-cmd").contains("--fleet 4,3,3"), "{}", d.text("h-cmd"));
    // Under problem-g both bayes and prob advise, and prob's scores show.
    d.choose("h-rules", "problem-g");
    d.wait_for("problem-g's advice", &advised(14));
    let offered = d.run("return [...document.getElementById('h-strategy').options].map(o => o.value).join(',');");
    assert_eq!(offered.as_str(), Some("bayes,prob"));
    assert!(d.text("h-info").starts_with("prob's likelihood"), "{}", d.text("h-info"));
    d.choose("h-rules", "classic");
    d.wait_for("classic's advice", &advised(15));

    // Play. The bug that was: place, Start, probe, change the rules, place again: the
    // new fleet must be startable, and the new game playable.
    d.click("#tab-play");
    let level = d.text("p-level-info");
    assert!(
        level.starts_with("Expert: lookahead,")
            && level.contains("44.05 scans on average under classic (2,000 games), the strongest"),
        "{level}"
    );
    d.choose("p-level", "hard");
    let hard = d.text("p-level-info");
    assert!(hard.starts_with("Hard: parity,") && hard.contains("49.96 scans on average under classic (2,000 games)."));
    d.choose("p-level", "expert");
    d.click("#p-random");
    d.wait_text("p-msg", |t| t.contains("fleet is placed"));
    d.click("#p-start");
    d.wait_text("p-msg", |t| t.starts_with("Turn 1: your move"));
    d.click("#p-enemy-0-0");
    d.wait_text("p-you", |t| t == "Your probes: 1");
    d.choose("p-rules", "russian");
    d.click("#p-random");
    d.wait_text("p-msg", |t| t == "Your fleet is placed. Start when ready.");
    assert_eq!(d.run("return document.getElementById('p-start').disabled;"), Value::Bool(false));
    d.click("#p-start");
    d.wait_text("p-msg", |t| t.starts_with("Turn 1: your move"));
    d.click("#p-enemy-4-4");
    d.wait_text("p-you", |t| t == "Your probes: 1");
    // Placing again mid-game starts over too.
    d.click("#p-random");
    d.wait_text("p-msg", |t| t == "Your fleet is placed. Start when ready.");
    assert_eq!(d.run("return document.getElementById('p-start').disabled;"), Value::Bool(false));
    assert_eq!(d.text("p-you"), "Your probes: 0");
    // Give up at once: the computer's fleet is shown (20 ship cells under russian).
    d.click("#p-start");
    d.wait_text("p-msg", |t| t.starts_with("Turn 1: your move"));
    d.click("#p-giveup");
    d.wait_text("p-msg", |t| t.starts_with("You gave up after 0 probes;"));
    let shown = d.run("return document.querySelectorAll('#p-enemy .cell.ship, #p-enemy .cell.wreck').length;");
    assert_eq!(shown.as_u64(), Some(20));
    assert_eq!(d.run("return document.getElementById('p-giveup').disabled;"), Value::Bool(true));

    // Classic again, placed by hand: a ship that would overlap is refused, then five
    // ships running east.
    d.choose("p-rules", "classic");
    d.choose("p-placement", "opponent");
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
    d.wait_text("p-msg", |t| t.starts_with("Turn 1: your move"));
    // The whole game by keyboard: Enter probes the focused cell, arrows move, row by
    // row in a snake. At every turn the ships-left panel's sunk ships are kept, to be
    // checked against the fleet the referee reveals at the end.
    d.run("document.getElementById('p-enemy-0-0').focus();");
    let mut probes = 0u64;
    let mut turns: Vec<Turn> = Vec::new();
    let mut probed = Vec::new();
    'game: for r in 0..10u64 {
        for k in 0..10u64 {
            let c = if r % 2 == 0 { k } else { 9 - k };
            if k > 0 {
                d.keys(if r % 2 == 0 { "\u{E014}" } else { "\u{E012}" });
            } else if r > 0 {
                d.keys("\u{E015}");
            }
            d.keys("\u{E007}");
            probes += 1;
            probed.push((r, c));
            let t = d.wait_text("p-you", |t| t.starts_with(&format!("Your probes: {probes}")));
            let sunk = d.run("return document.getElementById('p-left').dataset.sunk;");
            let names: Vec<String> = parse(sunk.as_str().unwrap())
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            turns.push((probed.clone(), names));
            if t.contains("(done)") {
                break 'game;
            }
        }
    }
    // The computer (Expert: lookahead, about 7 CPU-seconds a game, its moves shown as
    // they come) may still be playing: the result is whole once its game is.
    d.wait_text_within(120, "p-them", |t| t.ends_with("(done)"));
    let end = d.wait_text("p-msg", |t| {
        (t.starts_with("You win:") || t.starts_with("The computer wins:") || t.starts_with("A draw:"))
            && !t.contains("still playing")
    });
    assert!(end.contains(&format!("{probes} probes")) || end.contains(&format!("you needed {probes}.")), "{end}");
    assert!(d.text("p-them").contains("(done)"));
    // The computer's fleet is shown, and each turn's sunk ships are exactly those whose
    // every cell had been probed (the referee says sunk then, and only then).
    let fleet = d.run("return JSON.stringify(P.reveal);");
    let fleet = parse(fleet.as_str().unwrap());
    let fleet: Vec<(String, Vec<(u64, u64)>)> = fleet
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let cells = s.get("cells").and_then(Value::as_array).unwrap();
            let cells = cells.iter().map(|i| (i.as_u64().unwrap() / 10, i.as_u64().unwrap() % 10)).collect();
            (s.get("name").and_then(Value::as_str).unwrap().to_string(), cells)
        })
        .collect();
    assert_eq!(fleet.len(), 5);
    for (k, (probed, shown)) in turns.iter().enumerate() {
        let mut want: Vec<String> = fleet
            .iter()
            .filter(|(_, cells)| cells.iter().all(|c| probed.contains(c)))
            .map(|(n, _)| n.clone())
            .collect();
        let mut shown = shown.clone();
        want.sort();
        shown.sort();
        assert_eq!(shown, want, "turn {}", k + 1);
    }
    let revealed = d.run("return document.querySelectorAll('#p-enemy .cell.ship, #p-enemy .cell.wreck').length;");
    assert_eq!(revealed.as_u64(), Some(17));
    d.screenshot("play.png");
    // Replay: paused, stepped; the counts are those of the turn shown.
    d.click("#p-replay");
    d.click("#p-r-play");
    d.click("#p-r-first");
    for _ in 0..20 {
        d.click("#p-r-fwd");
    }
    d.wait_text("p-r-step", |t| t.starts_with("Turn 20 of "));
    assert_eq!(d.text("p-you"), if probes == 20 { "Your probes: 20 (done)" } else { "Your probes: 20" });
    assert!(d.text("p-them").starts_with("The computer's probes: 20"), "{}", d.text("p-them"));
    d.click("#p-r-back");
    d.wait_text("p-r-step", |t| t.starts_with("Turn 19 of "));
    assert_eq!(d.text("p-you"), "Your probes: 19");
    assert_eq!(d.text("p-them"), "The computer's probes: 19");
    d.click("#p-r-last");
    d.wait_text("p-you", |t| t.ends_with("(done)"));
    d.click("#p-r-close");

    // Watch: density's trace, stepped forward and back; only what the rules allow.
    d.click("#tab-watch");
    d.wait_for("the trace", "return document.body.dataset.traced === 'density classic 2021';");
    for _ in 0..30 {
        d.click("#w-fwd");
    }
    let step = d.wait_text("w-step", |t| t.starts_with("step 30 of "));
    d.click("#w-back");
    d.wait_text("w-step", |t| t.starts_with("step 29 of "));
    d.click("#w-fwd");
    assert!(d.text("w-legend").contains("density"), "{}", d.text("w-legend"));
    assert!(d.text("w-info").starts_with("Scan 30: "), "{}", d.text("w-info"));
    let labels =
        d.run("return ['w-speed', 'w-pos'].every(id => document.getElementById(id).closest('label') !== null);");
    assert_eq!(labels, Value::Bool(true));
    let offered = d.run("return [...document.getElementById('w-strategy').options].map(o => o.value).join(',');");
    assert!(!offered.as_str().unwrap().contains("smart") && offered.as_str().unwrap().contains("bayes"), "{offered:?}");
    d.screenshot("watch.png");

    // 400 px wide: no view scrolls sideways, and in Play the current move is in sight.
    d.resize(400, 860);
    let fits = "return document.documentElement.scrollWidth <= window.innerWidth;";
    for view in ["helper", "watch", "play"] {
        d.click(&format!("#tab-{view}"));
        d.wait_for(&format!("{view} to fit 400 px"), fits);
    }
    d.click("#p-random");
    d.wait_text("p-msg", |t| t.contains("fleet is placed"));
    d.click("#p-start");
    d.wait_text("p-msg", |t| t.starts_with("Turn 1: your move"));
    for (r, c) in [(9, 9), (5, 5), (0, 9)] {
        d.click(&format!("#p-enemy-{r}-{c}"));
    }
    d.wait_text("p-you", |t| t == "Your probes: 3");
    d.wait_for(
        "the current move in sight",
        "const m = document.getElementById('p-msg').getBoundingClientRect(); \
         const c = document.querySelector('#p-enemy .cell.probe').getBoundingClientRect(); \
         return m.top >= 0 && m.bottom <= window.innerHeight && c.top >= 0 && c.bottom <= window.innerHeight \
         && document.getElementById('p-msg').textContent.startsWith('Turn 4: your move');",
    );
    d.wait_for("play to fit 400 px", fits);
    d.screenshot("play-400.png");
    // The starwars bay (58 x 23, drawn ships) fits too, and plays.
    d.choose("p-rules", "starwars");
    d.click("#p-random");
    d.wait_text("p-msg", |t| t.contains("fleet is placed"));
    d.click("#p-start");
    d.wait_text("p-msg", |t| t.starts_with("Turn 1: your move"));
    d.click("#p-enemy-30-11");
    d.wait_text("p-you", |t| t == "Your probes: 1");
    d.wait_for("starwars to fit 400 px", fits);

    let errors = d.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    eprintln!("browser test: {step}; {probes} probes in play; {:.1} s", started.elapsed().as_secs_f64());
    drop(d);
    server.stop();
}
