//! The routes: the page, the JSON API and the remote-service seed's `/exec`. Every
//! route is fixed (nothing is served from disk); anything else is a JSON 404.
//!
//! The answers reuse the commands' work, with typed values read from the JSON fields
//! through the settings' one reader ([`crate::tools::settings`], whose messages name the
//! settings as the flags do): `/api/advise` builds an [`AdviceRequest`] and returns
//! `advise --format json`'s object; `/api/games` draws its bay as `referee` does
//! ([`opponent::random_board`]) and answers probes through the same [`RefereeGame`];
//! `/api/trace` runs the tracer and adds what the strategy weighs at each step.

use super::computer::{self, answer_words};
use super::games::{is_token, Game};
use super::http::{query_pairs, shown, Request, Response};
use super::levels;
use super::State;
use crate::game::board::Board;
use crate::game::position::Orientation;
use crate::game::position::Position;
use crate::game::rules::{Rules, PRESETS};
use crate::game::ship::Ship;
use crate::limits::SERVE_CELLS;
use crate::render::json::{self, Array, Object, Raw, Value};
use crate::scan::observer::{ListView, ScanObserver, ScoreView, Source};
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::referee::{self, Referee, RefereeGame, Refused};
use crate::scan::sonar::Answer;
use crate::strategy;
use crate::tools::advise::{self, AdviceError, AdviceRequest, AdviceSettings, AdviceStrategy};
use crate::tools::opponent::{self, DrawError};
use crate::tools::settings::{self, bay_or_rules, RuleSettings, RuleWords, SettingError};
use crate::tools::trace::{TraceOptions, Tracer};

/// The page, its script and its style, built into the binary.
const PAGE_HTML: &str = include_str!("page.html");
const PAGE_JS: &str = include_str!("page.js");
const PAGE_CSS: &str = include_str!("page.css");

/// The page's icon (an SVG served as `/favicon.ico`, which browsers ask for): a ship
/// on a blue bay, spotted.
const FAVICON: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">\
<rect width=\"16\" height=\"16\" rx=\"3\" fill=\"#17324d\"/>\
<rect x=\"3\" y=\"7\" width=\"10\" height=\"3\" rx=\"1.5\" fill=\"#cfe0f0\"/>\
<circle cx=\"8\" cy=\"8.5\" r=\"1.6\" fill=\"#d7301f\"/></svg>\n";

/// What the page may load: itself only (no request leaves the machine).
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; \
                   base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Where a request goes: the one reading of the paths [`route`] serves.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target<'a> {
    /// A page file: its text and content type.
    Page(&'static str, &'static str),
    Placement,
    Matches,
    Rules,
    Advise,
    Games,
    Trace,
    Exec,
    /// `/api/games/TOKEN/probe`.
    Probe(&'a str),
    /// `/api/games/TOKEN/reveal`.
    Reveal(&'a str),
    /// `/api/games/TOKEN/computer`.
    Computer(&'a str),
    /// `/api/games/TOKEN`.
    Game(&'a str),
}

/// The target of `path`.
/// Pre: none. Post: `None` for a path no route serves.
fn target(path: &str) -> Option<Target<'_>> {
    Some(match path {
        "/" | "/index.html" => Target::Page(PAGE_HTML, "text/html; charset=utf-8"),
        "/page.js" => Target::Page(PAGE_JS, "text/javascript; charset=utf-8"),
        "/page.css" => Target::Page(PAGE_CSS, "text/css; charset=utf-8"),
        "/favicon.ico" => Target::Page(FAVICON, "image/svg+xml"),
        "/api/placement" => Target::Placement,
        "/api/matches" => Target::Matches,
        "/api/rules" => Target::Rules,
        "/api/advise" => Target::Advise,
        "/api/games" => Target::Games,
        "/api/trace" => Target::Trace,
        "/exec" => Target::Exec,
        _ => {
            let rest = path.strip_prefix("/api/games/")?;
            match rest.split_once('/') {
                None => Target::Game(rest),
                Some((token, "probe")) => Target::Probe(token),
                Some((token, "reveal")) => Target::Reveal(token),
                Some((token, "computer")) => Target::Computer(token),
                Some(_) => return None,
            }
        }
    })
}

/// Whether [`route`] answers `req` in microseconds whatever its body and the server's
/// state (a page file, the rules, a probe, a reveal, the computer's moves so far, a
/// game forgotten):
/// the event loop answers these itself, sparing the hand-over to a worker and back.
/// Everything else (a new game or match, advice, a trace, a placement) goes to a worker.
/// Pre: none. Post: no change.
pub(crate) fn quick(req: &Request) -> bool {
    matches!(
        target(&req.path),
        Some(
            Target::Page(..)
                | Target::Rules
                | Target::Probe(_)
                | Target::Reveal(_)
                | Target::Computer(_)
                | Target::Game(_)
        )
    )
}

/// Answers one request.
/// Pre: none. Post: a response for every request (errors as JSON with their status).
pub(crate) fn route(state: &State, req: &Request) -> Response {
    let method = req.method.as_str();
    let get = method == "GET" || method == "HEAD";
    let post = method == "POST";
    let path = req.path.as_str();
    let allowed = |ok: bool, allow: &'static str, f: &dyn Fn() -> Response| {
        if ok {
            f()
        } else {
            let mut r = Response::error(405, &format!("{path} takes {allow} only"));
            r.extra.push(("Allow", allow.to_string()));
            r
        }
    };
    let Some(to) = target(path) else {
        return Response::error(404, &format!("no such route: {}", shown(path)));
    };
    match to {
        Target::Page(text, content_type) => allowed(get, "GET", &|| page(text, content_type)),
        Target::Placement => allowed(post, "POST", &|| placement(state, req)),
        Target::Matches => allowed(post, "POST", &|| new_match(state, req)),
        Target::Rules => allowed(get, "GET", &rules_list),
        Target::Advise => allowed(post, "POST", &|| advise(req)),
        Target::Games => allowed(post, "POST", &|| new_game(state, req)),
        Target::Trace => allowed(get, "GET", &|| trace(req)),
        Target::Exec => allowed(get, "GET", &|| exec(state, req)),
        Target::Probe(token) => allowed(post, "POST", &|| probe(state, token, req)),
        Target::Reveal(token) => allowed(post, "POST", &|| reveal(state, token)),
        Target::Computer(token) => allowed(get, "GET", &|| computer(state, token, req)),
        Target::Game(token) => allowed(method == "DELETE", "DELETE", &|| forget(state, token)),
    }
}

/// A page file, with the policy that keeps it offline.
fn page(text: &'static str, content_type: &'static str) -> Response {
    let mut r = Response { status: 200, content_type, body: text.as_bytes().to_vec(), extra: Vec::new() };
    r.extra.push(("Content-Security-Policy", CSP.to_string()));
    r.extra.push(("Referrer-Policy", "no-referrer".to_string()));
    r
}

/// The body as a JSON object (an empty body is `{}`).
fn body_object(req: &Request) -> Result<Value, Response> {
    let text = std::str::from_utf8(&req.body).map_err(|_| Response::error(400, "the body is not UTF-8 text"))?;
    if text.trim().is_empty() {
        return Ok(Value::Object(Vec::new()));
    }
    let value = json::parse(text).map_err(|e| Response::error(400, &format!("the body is not JSON: {e}")))?;
    if value.as_object().is_none() {
        return Err(Response::error(400, "the body is not a JSON object"));
    }
    Ok(value)
}

/// A member's value as a flag's text: strings as written, whole numbers, booleans as
/// yes or no.
fn flag_text(key: &str, v: &Value) -> Result<String, Response> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(_) => v.as_u64().map(|n| n.to_string()).ok_or_else(|| {
            Response::error(400, &format!("`{key}` must be a whole number from 0 to 18446744073709551615"))
        }),
        Value::Bool(b) => Ok(if *b { "yes" } else { "no" }.to_string()),
        _ => Err(Response::error(400, &format!("`{key}` must be a string, a number or a boolean"))),
    }
}

/// The members of a request's object named in `keys`, each as its setting's text
/// ([`flag_text`]); null members are left out, and those named in `ignored` are the
/// caller's.
struct Fields(Vec<(String, String)>);

impl Fields {
    /// Reads the members of `object` in order.
    /// Pre: none. Post: `Err(400)` for the first member neither in `keys` nor in
    /// `ignored` (listing both), or whose value has no text.
    fn read(object: &Value, keys: &[&str], ignored: &[&str]) -> Result<Fields, Response> {
        let mut fields = Vec::new();
        for m in object.as_object().unwrap_or(&[]) {
            if ignored.contains(&m.key.as_str()) || m.value == Value::Null {
                continue;
            }
            if !keys.contains(&m.key.as_str()) {
                let all: Vec<&str> = keys.iter().chain(ignored).copied().collect();
                return Err(Response::error(
                    400,
                    &format!("unknown field `{}`; the fields are {}", shown(&m.key), all.join(", ")),
                ));
            }
            fields.push((m.key.clone(), flag_text(&m.key, &m.value)?));
        }
        Ok(Fields(fields))
    }

    /// The text of the field `key`; `None` when absent (or null).
    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The rules the rule fields give, with the preset `preset` (`None`: the default).
    /// Pre: none. Post: `Err(400)` as the rule flags are refused.
    fn rules(&self, preset: Option<&str>) -> Result<RuleSettings, Response> {
        let words = RuleWords {
            preset,
            touch: self.get("touch"),
            sunk: self.get("sunk"),
            rotate: self.get("rotate"),
            fleet: self.get("fleet"),
            fleet_file: None,
        };
        RuleSettings::from_words(words).map_err(bad_setting)
    }
}

/// A setting's error as a 400.
fn bad_setting(e: SettingError) -> Response {
    Response::error(400, &e.0)
}

/// The preset of a body that names none: classic (the page's game).
fn preset_or_classic(body: &Value, fields: &Fields) -> Option<String> {
    match body.get("rules") {
        None => Some("classic".to_string()),
        Some(_) => fields.get("rules").map(str::to_string),
    }
}

/// The seed where none is given, as text.
fn default_seed() -> String {
    crate::strategy::DEFAULT_SEED.to_string()
}

/// The fields that choose the rules (as the commands' rule flags, no fleet file).
const RULE_KEYS: [&str; 5] = ["rules", "touch", "sunk", "fleet", "rotate"];

/// `POST /api/advise`: `{"state": "...", rules fields, "strategy", "afloat", "prior",
/// "seed"}` -> `advise --format json`'s object.
fn advise(req: &Request) -> Response {
    let run = || -> Result<Response, Response> {
        let body = body_object(req)?;
        let keys: Vec<&str> = RULE_KEYS.iter().copied().chain(["strategy", "afloat", "prior", "seed"]).collect();
        let fields = Fields::read(&body, &keys, &["state"])?;
        let rules = fields.rules(fields.get("rules"))?;
        let strategy = AdviceStrategy::choose(fields.get("strategy"), &rules).map_err(bad_setting)?;
        let prior = advise::prior(fields.get("prior")).map_err(bad_setting)?;
        let seed = settings::number::<u64>("--seed", Some(fields.get("seed").unwrap_or(&default_seed())))
            .map_err(bad_setting)?
            .unwrap_or(crate::strategy::DEFAULT_SEED);
        let afloat = fields.get("afloat").map(str::to_string);
        let fleet_given = rules.fleet_given();
        let settings = AdviceSettings { rules: rules.rules, fleet_given, afloat, strategy, prior, seed };
        let Some(text) = body.get("state").and_then(Value::as_str) else {
            return Err(Response::error(400, "`state` is required: the grid as `advise` reads it (rows of . X + #)"));
        };
        // The grid's size before it is read: too large is 413 whatever else is wrong.
        let (rows, cols) = text.lines().fold((0usize, 0usize), |(r, c), l| (r + 1, c.max(l.trim_end().len())));
        if rows.saturating_mul(cols) > SERVE_CELLS {
            return Err(Response::error(413, &format!("the grid has more than {SERVE_CELLS} cells")));
        }
        let (known, wrecks) =
            crate::scan::state::parse(text.as_bytes()).map_err(|e| Response::error(422, &e.to_string()))?;
        if known.rows().saturating_mul(known.cols()) > SERVE_CELLS {
            return Err(Response::error(413, &format!("the grid has more than {SERVE_CELLS} cells")));
        }
        let advice = advise::advise(AdviceRequest { settings, known, wrecks }).map_err(|e| {
            let status = if matches!(e, AdviceError::Setting(_)) { 400 } else { 422 };
            Response::error(status, &e.to_string())
        })?;
        Ok(Response::json(200, advice.json()))
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/games`: `{rules fields, "seed", "rows", "cols"}` -> a new game.
fn new_game(state: &State, req: &Request) -> Response {
    let run = || -> Result<Response, Response> {
        let body = body_object(req)?;
        let seed = match body.get("seed") {
            Some(v) if *v != Value::Null => None.or(Some(flag_text("seed", v)?)),
            _ => None,
        };
        let seed = match seed {
            Some(s) => s,
            None => state.tokens.seed().map_err(|e| Response::error(500, &format!("no random seed: {e}")))?.to_string(),
        };
        let mut keys: Vec<&str> = RULE_KEYS.to_vec();
        keys.extend(["rows", "cols"]);
        // The bay's size before anything is built (a 10000x10000 bay was allocated before
        // its 413): one side past the cap, or both whose product is, is 413.
        let side = |k: &str| match body.get(k) {
            Some(Value::Number(n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                Some(n.parse::<u64>().unwrap_or(u64::MAX))
            }
            Some(Value::String(n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                Some(n.parse::<u64>().unwrap_or(u64::MAX))
            }
            _ => None,
        };
        let cap = SERVE_CELLS as u64;
        let too_large = match (side("rows"), side("cols")) {
            (Some(r), Some(c)) => r.checked_mul(c).is_none_or(|n| n > cap),
            (Some(n), None) | (None, Some(n)) => n > cap,
            (None, None) => false,
        };
        if too_large {
            return Err(Response::error(413, &format!("the bay has more than {SERVE_CELLS} cells")));
        }
        // Read as `referee` reads its flags: the rules, the bay, the seed; then drawn.
        let fields = Fields::read(&body, &keys, &["seed"])?;
        let rules = fields.rules(preset_or_classic(&body, &fields).as_deref())?.rules;
        let rows = settings::number::<usize>("--rows", fields.get("rows")).map_err(bad_setting)?;
        let cols = settings::number::<usize>("--cols", fields.get("cols")).map_err(bad_setting)?;
        let bay = bay_or_rules(rows, cols, &rules).map_err(bad_setting)?;
        let seed = settings::number::<u64>("--seed", Some(&seed)).map_err(bad_setting)?.unwrap_or_default();
        let board =
            opponent::random_board(&rules, bay, seed, false).map_err(|e| Response::error(422, &e.to_string()))?;
        if board.rows().saturating_mul(board.cols()) > SERVE_CELLS {
            return Err(Response::error(413, &format!("the bay has more than {SERVE_CELLS} cells")));
        }
        let token = new_token(state)?;
        let answer = Object::new()
            .field("token", &token)
            .field("rows", board.rows())
            .field("cols", board.cols())
            .field("ship_cells", board.ship_cells())
            .field("rules", Raw(&json::rules(board.rules())))
            .line();
        state.store.insert(token, Game::new(board));
        Ok(Response::json(201, answer))
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/games/TOKEN/probe`: `{"r": R, "c": C}` -> the referee's answer.
fn probe(state: &State, token: &str, req: &Request) -> Response {
    let run = || -> Result<Response, Response> {
        if !is_token(token) {
            return Err(Response::error(404, "no such game: a token is 32 lower-case hex digits"));
        }
        let body = body_object(req)?;
        // Unknown fields are refused, as `/api/games` refuses them.
        if let Some(m) = body.as_object().unwrap_or(&[]).iter().find(|m| m.key != "r" && m.key != "c") {
            return Err(Response::error(400, &format!("unknown field `{}`; the fields are r, c", shown(&m.key))));
        }
        let coord = |k: &str| body.get(k).and_then(Value::as_u64).and_then(|v| usize::try_from(v).ok());
        let (Some(r), Some(c)) = (coord("r"), coord("c")) else {
            return Err(Response::error(400, "the body must be {\"r\": ROW, \"c\": COLUMN} (whole numbers from 0)"));
        };
        let pos = Position::new(r, c);
        let answer = state.store.with(token, |game| answer(game, pos));
        match answer {
            None => Err(Response::error(404, "no such game (never made, or evicted as the oldest)")),
            Some(r) => r,
        }
    };
    run().unwrap_or_else(|e| e)
}

/// Probes `pos` in `game` as the referee does.
fn answer(game: &mut Game, pos: Position) -> Result<Response, Response> {
    let board = &game.board;
    if game.given_up {
        return Err(Response::error(409, "the game was given up: its fleet is revealed"));
    }
    let said = RefereeGame::new(board, &mut game.record).probe(pos).map_err(|refused| {
        let status = if matches!(refused, Refused::Outside { .. }) { 422 } else { 409 };
        Response::error(status, &refused.to_string())
    })?;
    let fleet = board.rules().fleet();
    let (word, ship) = answer_words(said, board);
    let done = game.record.hits() >= board.ship_cells();
    let reply = crate::tools::play::protocol::reply_line(said, fleet);
    Ok(Response::json(
        200,
        Object::new()
            .field("answer", word)
            .field("ship", ship)
            .field("reply", &*reply)
            .field("probes", game.record.scans())
            .field("done", done)
            .line(),
    ))
}

/// The rules of a match or placement's body (`rules` and the other rule fields; the
/// members named in `also` are the caller's).
fn body_rules(body: &Value, also: &[&str]) -> Result<Rules, Response> {
    let fields = Fields::read(body, &RULE_KEYS, also)?;
    let rules = fields.rules(preset_or_classic(body, &fields).as_deref())?.rules;
    let (rows, cols) = rules.bay();
    if rows.saturating_mul(cols) > SERVE_CELLS {
        return Err(Response::error(413, &format!("the bay has more than {SERVE_CELLS} cells")));
    }
    Ok(rules)
}

/// The `placement` member: true for opponent, false for uniform (also `random`, the
/// default).
fn body_placement(body: &Value) -> Result<bool, Response> {
    match body.get("placement") {
        None | Some(Value::Null) => Ok(false),
        Some(v) => v
            .as_str()
            .and_then(opponent::is_opponent)
            .ok_or_else(|| Response::error(400, "`placement` must be \"uniform\" (or \"random\") or \"opponent\"")),
    }
}

/// A fleet placed for `rules` on their bay, as an opponent would when `how`, else
/// uniformly, from a fresh seed.
fn placed(state: &State, rules: &Rules, how: bool) -> Result<Board, Response> {
    let seed = state.tokens.seed().map_err(|e| Response::error(500, &format!("no random seed: {e}")))?;
    opponent::random_board(rules, rules.bay(), seed, how).map_err(|e| match e {
        DrawError::Placement(e) => Response::error(422, &e.to_string()),
        DrawError::Board(e) => Response::error(500, &e.to_string()),
    })
}

/// The ships of `board`: each one's name and cells (`[[r, c], ...]`).
fn ships_json(board: &Board) -> Array {
    let kinds = board.rules().fleet().kinds();
    Array::of(board.ships().enumerate().map(|(k, ship)| {
        let name = board.kind_of(k).and_then(|i| kinds.get(i)).map(|kind| kind.name.clone());
        let cells: Vec<(usize, usize)> = ship.cells().map(|p| (p.row, p.col)).collect();
        Object::new().field("name", name).field("size", ship.size()).field("cells", &cells[..])
    }))
}

/// `POST /api/placement`: `{rules fields, "placement"}` -> `{"ships": [{"name",
/// "size", "cells"}]}`, a fleet placed for the rules (the player's, at random).
fn placement(state: &State, req: &Request) -> Response {
    let run = || -> Result<Response, Response> {
        let body = body_object(req)?;
        let how = body_placement(&body)?;
        let rules = body_rules(&body, &["placement"])?;
        let board = placed(state, &rules, how)?;
        Ok(Response::json(200, Object::new().field("ships", ships_json(&board)).line()))
    };
    run().unwrap_or_else(|e| e)
}

/// The player's fleet of a match: `[[[r, c], ...], ...]`, one list of cells per ship.
fn body_fleet(body: &Value, rules: &Rules) -> Result<Board, Response> {
    let bad = || Response::error(400, "`ships` must be a list of ships, each a list of [row, col] cells");
    let Some(list) = body.get("ships").and_then(Value::as_array) else { return Err(bad()) };
    if list.len() > 100 {
        return Err(bad());
    }
    let mut ships = Vec::new();
    for ship in list {
        let cells = ship.as_array().ok_or_else(bad)?;
        if cells.is_empty() || cells.len() > crate::game::ship::MAX_SHIP * crate::game::ship::MAX_SHIP {
            return Err(bad());
        }
        let mut at = Vec::new();
        for cell in cells {
            let pair = cell.as_array().ok_or_else(bad)?;
            let n = |k: usize| pair.get(k).and_then(Value::as_u64).and_then(|v| usize::try_from(v).ok());
            let (Some(r), Some(c), 2) = (n(0), n(1), pair.len()) else { return Err(bad()) };
            at.push((r, c));
        }
        let (r0, c0) = (at.iter().map(|p| p.0).min().unwrap_or(0), at.iter().map(|p| p.1).min().unwrap_or(0));
        let relative: Vec<(usize, usize)> = at.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
        let shape =
            crate::game::shape::Shape::from_cells(&relative).map_err(|e| Response::error(422, &e.to_string()))?;
        ships.push(Ship::drawn(Position::new(r0, c0), shape));
    }
    let (rows, cols) = rules.bay();
    let board = Board::with_rules(rows, cols, ships, rules).map_err(|e| Response::error(422, &e.to_string()))?;
    if board.rules().fleet() != rules.fleet() {
        let want = rules.fleet().describe();
        return Err(Response::error(422, &format!("the ships must be the rules' fleet, {want}")));
    }
    Ok(board)
}

/// `POST /api/matches`: `{rules fields, "strategy", "placement", "ships"}` -> a game
/// against the computer: the computer's fleet hidden (placed uniformly or as an
/// opponent would), and the computer's own game against `ships` (the player's fleet)
/// started on a thread of its own (`GET /api/games/TOKEN/computer`).
fn new_match(state: &State, req: &Request) -> Response {
    let run = || -> Result<Response, Response> {
        let body = body_object(req)?;
        let how = body_placement(&body)?;
        let rules = body_rules(&body, &["placement", "strategy", "ships"])?;
        let name = body.get("strategy").and_then(Value::as_str).unwrap_or("density").to_string();
        let Some(entry) = strategy::STRATEGIES.iter().find(|e| e.name == name) else {
            let names = strategy::NAMES.join(", ");
            return Err(Response::error(400, &format!("`strategy` must be one of {names}")));
        };
        // The strategy module's own refusals, as the commands give them.
        (entry.supports)(&rules).map_err(|why| {
            Response::error(400, &strategy::StrategyError::Unsupported { name: entry.name, why }.to_string())
        })?;
        let (rows, cols) = rules.bay();
        strategy::check_size(&name, rows, cols, &rules).map_err(|e| Response::error(400, &e.to_string()))?;
        let mine = body_fleet(&body, &rules)?;
        let theirs = placed(state, &rules, how)?;
        let seed = state.tokens.seed().map_err(|e| Response::error(500, &format!("no random seed: {e}")))?;
        let job = computer::start(&name, seed, mine).map_err(|e| Response::error(503, &e))?;
        let token = new_token(state)?;
        let answer = Object::new()
            .field("token", &token)
            .field("rows", theirs.rows())
            .field("cols", theirs.cols())
            .field("ship_cells", theirs.ship_cells())
            .field("placement", if how { "opponent" } else { "uniform" })
            .field("rules", Raw(&json::rules(theirs.rules())))
            .line();
        let mut game = Game::new(theirs);
        game.computer = Some(job);
        state.store.insert(token, game);
        Ok(Response::json(201, answer))
    };
    run().unwrap_or_else(|e| e)
}

/// `GET /api/games/TOKEN/computer[?from=K]`: the computer's moves from the K-th on (all
/// when K is not given) as they are made, `{"ready": false, "from": K, "made": N,
/// "moves": [...]}`, and once its game is over `"ready": true` with its `"scans"`.
fn computer(state: &State, token: &str, req: &Request) -> Response {
    if !is_token(token) {
        return Response::error(404, "no such game: a token is 32 hex digits");
    }
    let from = match query_pairs(&req.query) {
        Err(e) => return Response::error(400, &e),
        Ok(pairs) => match pairs.iter().find(|(k, _)| k == "from").map(|(_, v)| v.parse::<usize>()) {
            None => 0,
            Some(Ok(k)) => k,
            Some(Err(_)) => return Response::error(400, "`from` must be a whole number from 0"),
        },
    };
    match state.store.with(token, |game| game.computer.clone()) {
        None => Response::error(404, "no such game (never made, or evicted as the oldest)"),
        Some(None) => Response::error(404, "this game is not a match: the computer plays no game of its own"),
        Some(Some(job)) => {
            let since = job.since(from);
            let moves = Array::of(since.moves.iter().map(|m| Raw(m)));
            let answer = |ready: bool, scans: Option<usize>| {
                let head = Object::new().field("ready", ready).field("scans", scans);
                Response::json(200, head.field("from", from).field("made", since.made).field("moves", moves).line())
            };
            match since.end {
                None => answer(false, None),
                Some(Ok(scans)) => answer(true, Some(scans)),
                Some(Err(e)) => Response::error(500, &format!("the computer's game failed: {e}")),
            }
        }
    }
}

/// `DELETE /api/games/TOKEN`: forgets the game (the page left it); a computer's game
/// still playing stops at its next move.
fn forget(state: &State, token: &str) -> Response {
    if is_token(token) && state.store.remove(token) {
        Response::json(200, Object::new().field("forgotten", true).line())
    } else {
        Response::error(404, "no such game (never made, evicted as the oldest, or forgotten)")
    }
}

/// `POST /api/games/TOKEN/reveal`: gives the game up (no more probes) and answers the
/// hidden fleet, `{"ships": [...], "probes": N, "done": B}`.
fn reveal(state: &State, token: &str) -> Response {
    if !is_token(token) {
        return Response::error(404, "no such game: a token is 32 hex digits");
    }
    let answer = state.store.with(token, |game| {
        let done = game.record.hits() >= game.board.ship_cells();
        game.given_up |= !done;
        Object::new()
            .field("ships", ships_json(&game.board))
            .field("probes", game.record.scans())
            .field("done", done)
            .field("given_up", game.given_up)
            .line()
    });
    match answer {
        None => Response::error(404, "no such game (never made, or evicted as the oldest)"),
        Some(text) => Response::json(200, text),
    }
}

/// `GET /api/rules`: the presets, their bays and fleets, and the strategies; per
/// preset also the strategies that can play it (each with its mean scans, measured),
/// the difficulty levels, and the strategies `advise` can advise with.
fn rules_list() -> Response {
    let items = PRESETS.iter().filter_map(|p| Rules::preset(p.name).ok().map(|r| (p, r))).map(|(p, r)| {
        let (rows, cols) = r.bay();
        let playing = strategy::every(&r).map(|e| {
            Object::new().field("name", e.name).field("summary", e.summary).field("mean", levels::mean(p.name, e.name))
        });
        let ladder = levels::ladder(p.name).unwrap_or_else(|| [strategy::strongest(&r); 4]);
        let level_items = levels::LEVELS.iter().zip(ladder).map(|(level, name)| {
            let summary = strategy::STRATEGIES.iter().find(|e| e.name == name).map(|e| e.summary);
            Object::new()
                .field("level", *level)
                .field("strategy", name)
                .field("summary", summary)
                .field("mean", levels::mean(p.name, name))
        });
        let advise: &[&str] = if r.is_problem_g() { &["bayes", "prob"] } else { &["bayes"] };
        Object::new()
            .field("name", p.name)
            .field("summary", p.summary)
            .field("rows", rows)
            .field("cols", cols)
            .field("straight", r.fleet().is_straight())
            .field("rules", Raw(&json::rules(&r)))
            .field("strategies", Array::of(playing))
            .field("levels", Array::of(level_items))
            .field("advise", advise)
    });
    let names: Vec<&str> = strategy::all().map(|e| e.name).collect();
    let body = Object::new()
        .field("presets", Array::of(items))
        .field("strategies", &names[..])
        .field("measured_games", levels::MEASURED_GAMES);
    Response::json(200, body.line())
}

/// `ships=r,c,size,E|S;...`: straight ships placed by hand.
fn parse_ships(text: &str) -> Result<Vec<Ship>, String> {
    let mut ships = Vec::new();
    for part in text.split(';').filter(|p| !p.trim().is_empty()) {
        let words: Vec<&str> = part.split(',').map(str::trim).collect();
        let bad = || format!("`{}` is not `row,col,size,E|S`", shown(part));
        let [r, c, size, dir] = words.as_slice() else { return Err(bad()) };
        let (Ok(r), Ok(c), Ok(size)) = (r.parse::<usize>(), c.parse::<usize>(), size.parse::<usize>()) else {
            return Err(bad());
        };
        let dir = match *dir {
            "E" | "e" => Orientation::East,
            "S" | "s" => Orientation::South,
            _ => return Err(bad()),
        };
        if !(crate::game::ship::MIN_SHIP..=crate::game::ship::MAX_SHIP).contains(&size) || ships.len() >= 100 {
            return Err(bad());
        }
        ships.push(Ship::new(Position::new(r, c), size, dir));
    }
    Ok(ships)
}

/// A tracer that also keeps what the strategy weighs before each probe.
struct Watch<'a> {
    tracer: Tracer<'a>,
    /// Weights shown for the coming probe (density, bayes).
    pending: Option<(&'static str, Vec<f64>)>,
    /// prob: its likelihood is recomputed from the cells blocked before the step.
    likelihood: bool,
    blocked: Vec<bool>,
    rows: usize,
    cols: usize,
    /// Per step: the name of the weights and the values.
    steps: Vec<Option<(&'static str, Vec<f64>)>>,
}

impl ScanObserver for Watch<'_> {
    fn likelihood_read(&mut self, matrix: &dyn ScoreView) {
        self.tracer.likelihood_read(matrix);
    }
    fn wants_weights(&self) -> bool {
        true
    }

    fn weights_read(&mut self, what: &'static str, weights: &[f64]) {
        self.pending = Some((what, weights.to_vec()));
    }
    fn probed(&mut self, pos: Position, source: Source, answer: Answer) {
        self.tracer.probed(pos, source, answer);
    }
    fn eliminated(&mut self, pos: Position) {
        self.tracer.eliminated(pos);
    }
    fn list_changed(&mut self, list: &dyn ListView) {
        self.tracer.list_changed(list);
    }
    fn step_done(&mut self, record: &ScanRecord) {
        let weights = if self.likelihood {
            let scores = crate::strategy::likelihood::recompute(self.rows, self.cols, &self.blocked);
            Some(("likelihood", scores.iter().map(|&s| f64::from(s)).collect()))
        } else {
            self.pending.take()
        };
        self.steps.push(weights);
        for (i, b) in self.blocked.iter_mut().enumerate() {
            *b = record.state_at(i) != CellState::Unknown;
        }
        self.tracer.step_done(record);
    }
}

/// `GET /api/trace?strategy=NAME&rules=PRESET&seed=S[&ships=r,c,size,E;...]`: the
/// tracer's JSON steps, each with `weights` (what the strategy weighed to choose it).
fn trace(req: &Request) -> Response {
    let run = || -> Result<Response, Response> {
        let pairs = query_pairs(&req.query).map_err(|e| Response::error(400, &e))?;
        let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        for (k, _) in &pairs {
            if !["strategy", "rules", "seed", "ships", "touch", "sunk", "fleet"].contains(&k.as_str()) {
                return Err(Response::error(
                    400,
                    &format!(
                        "unknown parameter `{}`; the parameters are strategy, rules, seed, ships, touch, sunk, fleet",
                        shown(k)
                    ),
                ));
            }
        }
        let name = get("strategy").unwrap_or("density");
        let default_seed = crate::strategy::DEFAULT_SEED.to_string();
        let seed = get("seed").unwrap_or(&default_seed);
        // Read as `referee` reads its flags: the rules, then (no ships given) the seed.
        let words = RuleWords {
            preset: get("rules"),
            touch: get("touch"),
            sunk: get("sunk"),
            fleet: get("fleet"),
            ..RuleWords::default()
        };
        let rules = RuleSettings::from_words(words).map_err(bad_setting)?.rules;
        let board = match get("ships") {
            None => {
                let bay = bay_or_rules(None, None, &rules).map_err(bad_setting)?;
                let seed = settings::number::<u64>("--seed", Some(seed)).map_err(bad_setting)?.unwrap_or_default();
                opponent::random_board(&rules, bay, seed, false).map_err(|e| Response::error(422, &e.to_string()))?
            }
            Some(text) => {
                let (rows, cols) = rules.bay();
                let ships = parse_ships(text).map_err(|e| Response::error(400, &e))?;
                Board::with_rules(rows, cols, ships, &rules).map_err(|e| Response::error(422, &e.to_string()))?
            }
        };
        let (rows, cols) = (board.rows(), board.cols());
        if rows.saturating_mul(cols) > SERVE_CELLS {
            return Err(Response::error(413, &format!("the bay has more than {SERVE_CELLS} cells")));
        }
        let seed: u64 = seed.parse().map_err(|_| Response::error(400, "`seed` must be a whole number"))?;
        if strategy::NAMES.contains(&name) && !strategy::all().any(|e| e.name == name) {
            let why = format!("{name} takes seconds a game; `spot-the-ships play --strategy {name}` plays it");
            return Err(Response::error(400, &why));
        }
        let mut strategy =
            strategy::for_rules(name, seed, board.rules()).map_err(|e| Response::error(400, &e.to_string()))?;
        let mut out = Vec::new();
        let options = TraceOptions { json: true, ..TraceOptions::for_strategy(name, false) };
        let mut watch = Watch {
            tracer: Tracer::new(&board, options, &mut out),
            pending: None,
            likelihood: name == "prob",
            blocked: vec![false; rows * cols],
            rows,
            cols,
            steps: Vec::new(),
        };
        watch.tracer.begin(name);
        let mut sonar = Referee::new(&board);
        let record = strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut watch)
            .map_err(|e| Response::error(422, &e.to_string()))?;
        let steps = std::mem::take(&mut watch.steps);
        watch.tracer.finish(&record).map_err(|e| Response::error(500, &e.to_string()))?;
        let text = String::from_utf8_lossy(&out).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        let (Some(head), Some(judge)) = (lines.first(), lines.last()) else {
            return Err(Response::error(500, "the tracer wrote nothing"));
        };
        let middle = lines.get(1..lines.len().saturating_sub(1)).unwrap_or(&[]);
        let mut items = Array::one_per_line();
        for (k, line) in middle.iter().enumerate() {
            let weights = match steps.get(k) {
                Some(Some((what, values))) => {
                    let v: Vec<Option<String>> = values.iter().map(|&x| number(x)).collect();
                    Some(
                        Object::new()
                            .field("name", what)
                            .field("values", Array::of(v.iter().map(|x| x.as_deref().map(Raw)))),
                    )
                }
                _ => None,
            };
            let step = Object::reopen(line)
                .ok_or_else(|| Response::error(500, "the tracer wrote a step that is not an object"))?;
            items = items.item(step.field("weights", weights));
        }
        let body = Object::new()
            .field("trace", Raw(head))
            .field("rules", Raw(&json::rules(board.rules())))
            .field("steps", items)
            .field("judge", Raw(judge));
        Ok(Response::json(200, body.line()))
    };
    run().unwrap_or_else(|e| e)
}

/// A weight's JSON number: whole numbers as written, others with 6 decimals; `None`
/// (written `null`) when not finite.
fn number(x: f64) -> Option<String> {
    if !x.is_finite() {
        None
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        Some(format!("{}", x as i64))
    } else {
        Some(format!("{x:.6}"))
    }
}

/// `GET /exec?method=...`: the remote-service seed's API. `GetToken` makes a game
/// (the server's `--rules`, starwars by default) and answers its token; `GetRowCount`,
/// `GetColumnCount` and `GetCellAt&row=R&col=C` with `token=T` answer a number (`0`
/// water, `1` ship for a cell), as plain text.
fn exec(state: &State, req: &Request) -> Response {
    let run = || -> Result<Response, Response> {
        let pairs = query_pairs(&req.query).map_err(|e| Response::error(400, &e))?;
        let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        let method = get("method").unwrap_or("");
        if method == "GetToken" {
            let seed = state.tokens.seed().map_err(|e| Response::error(500, &format!("no random seed: {e}")))?;
            let rules = &state.exec_rules;
            let board = opponent::random_board(rules, rules.bay(), seed, false)
                .map_err(|e| Response::error(500, &e.to_string()))?;
            let token = new_token(state)?;
            state.store.insert(token.clone(), Game::new(board));
            return Ok(Response::text(200, token));
        }
        let methods = "GetToken, GetRowCount, GetColumnCount, GetCellAt";
        if !["GetRowCount", "GetColumnCount", "GetCellAt"].contains(&method) {
            return Err(Response::error(400, &format!("method=`{}` is not one of {methods}", shown(method))));
        }
        let token = get("token").unwrap_or("");
        if !is_token(token) {
            return Err(Response::error(400, "token=T is required (32 lower-case hex digits, from method=GetToken)"));
        }
        // Plain digits only (`parse` alone takes `+1`).
        let number = |k: &str| {
            get(k)
                .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse::<usize>().ok())
        };
        let cell = if method == "GetCellAt" {
            match (number("row"), number("col")) {
                (Some(r), Some(c)) => Some(Position::new(r, c)),
                _ => return Err(Response::error(400, "GetCellAt needs row=R and col=C (whole numbers from 0)")),
            }
        } else {
            None
        };
        let answer = state.store.with(token, |game| -> Result<String, Response> {
            let board = &game.board;
            match (method, cell) {
                ("GetRowCount", _) => Ok(board.rows().to_string()),
                ("GetColumnCount", _) => Ok(board.cols().to_string()),
                (_, Some(p)) if p.row < board.rows() && p.col < board.cols() => {
                    game.asked += 1;
                    if let Some(i) = game.record.open_index(p) {
                        referee::probe(board, i, &mut game.record);
                    }
                    Ok(if board.is_ship(p) { "1" } else { "0" }.to_string())
                }
                (_, Some(p)) => {
                    Err(Response::error(422, &format!("{p} is outside the {}x{} sea", board.rows(), board.cols())))
                }
                _ => Err(Response::error(400, "a bad method")),
            }
        });
        match answer {
            None => Err(Response::error(404, "no such token (never given, or evicted as the oldest)")),
            Some(Ok(text)) => Ok(Response::text(200, text)),
            Some(Err(e)) => Err(e),
        }
    };
    run().unwrap_or_else(|e| e)
}
/// A fresh game token, or the 500 that says why none could be read.
/// Pre: none. Post: `Ok` holds 32 lower-case hex digits.
fn new_token(state: &State) -> Result<String, Response> {
    state.tokens.token().map_err(|e| Response::error(500, &format!("no random token: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(path: &str) -> Request {
        Request {
            method: "GET".into(),
            path: path.into(),
            query: String::new(),
            headers: Vec::new(),
            body: Vec::new(),
            keep_alive: true,
        }
    }

    #[test]
    fn every_path_has_one_target_and_the_quick_ones_are_the_loops() {
        let quick_paths = ["/", "/index.html", "/page.js", "/page.css", "/favicon.ico", "/api/rules"];
        let game_paths =
            ["/api/games/ab12", "/api/games/ab12/probe", "/api/games/ab12/reveal", "/api/games/ab12/computer"];
        let worker_paths = ["/api/placement", "/api/matches", "/api/advise", "/api/games", "/api/trace", "/exec"];
        for path in quick_paths.iter().chain(&game_paths) {
            assert!(target(path).is_some() && quick(&request(path)), "{path}");
        }
        for path in worker_paths {
            assert!(target(path).is_some() && !quick(&request(path)), "{path}");
        }
        assert_eq!(target("/api/games/ab12/probe"), Some(Target::Probe("ab12")));
        assert_eq!(target("/api/games/ab12"), Some(Target::Game("ab12")));
        for path in ["/nope", "/api/games/ab12/probe/more", "/api/games/ab12/other", "/api/rules/", "/page.js/"] {
            assert_eq!(target(path), None, "{path}");
            assert!(!quick(&request(path)), "{path}");
        }
    }
}
