// Spot the ships: the page of `spot-the-ships serve`. Three views (Helper, Play,
// Watch); every request goes to the server that sent this page, nowhere else.
"use strict";

const $ = (id) => document.getElementById(id);
let PRESETS = [];
let MEASURED = 0;

// Transient work in the header ("advising…"); empty when idle. No counters on screen.
function status(text) { $("status").textContent = text; }

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) { throw new Error((data.error && data.error.message) || ("HTTP " + r.status)); }
  return data;
}

function preset(name) { return PRESETS.find((p) => p.name === name); }
const fmt = (n) => Number(n).toLocaleString("en-US");
const scans = (m) => m === null || m === undefined ? "not measured" : m.toFixed(2) + " scans on average";

// A cell as a player names it: B7 (row letters, then the column from 1).
function rowLetters(r) { let n = r + 1, s = ""; while (n > 0) { const k = (n - 1) % 26; s = String.fromCharCode(65 + k) + s; n = Math.floor((n - 1) / 26); } return s; }
function cellName(i, cols) { return rowLetters(Math.floor(i / cols)) + (i % cols + 1); }

function option(select, value, text, chosen) {
  const o = document.createElement("option"); o.value = value; o.textContent = text; if (value === chosen) o.selected = true;
  select.appendChild(o); return o;
}

function fillRules(select, chosen) {
  select.innerHTML = "";
  for (const p of PRESETS) option(select, p.name, p.name + " (" + p.rows + "x" + p.cols + ")", chosen);
}

// The strategies that can play the preset's rules (the server says which).
function fillStrategies(select, rules, chosen) {
  const p = preset(rules); select.innerHTML = "";
  const names = p.strategies.map((s) => s.name);
  if (!names.includes(chosen)) chosen = p.levels[p.levels.length - 1].strategy;
  for (const s of p.strategies) option(select, s.name, s.name, chosen);
}

// --- the heat map -------------------------------------------------------------------
const STOPS = [[247, 251, 255], [253, 212, 158], [252, 141, 89], [215, 48, 31]];
function heat(t) {
  t = Math.max(0, Math.min(1, t));
  const x = t * (STOPS.length - 1), k = Math.min(STOPS.length - 2, Math.floor(x)), f = x - k;
  const a = STOPS[k], b = STOPS[k + 1];
  return "rgb(" + a.map((v, i) => Math.round(v + (b[i] - v) * f)).join(",") + ")";
}

function legend(el, low, high, what) {
  el.innerHTML = "";
  const l = document.createElement("span"); l.textContent = low;
  const bar = document.createElement("span"); bar.className = "ramp";
  const h = document.createElement("span"); h.textContent = high;
  const w = document.createElement("span"); w.textContent = what;
  el.append(l, bar, h, w);
}

// --- grids: ARIA grid, roving tabindex, arrows move, Enter or Space activates --------
function makeGrid(el, rows, cols, onActivate, label) {
  el.innerHTML = "";
  el.setAttribute("role", "grid"); el.setAttribute("aria-label", label);
  el.setAttribute("aria-rowcount", rows + 1); el.setAttribute("aria-colcount", cols + 1);
  el.style.gridTemplateColumns = "repeat(" + (cols + 1) + ", auto)";
  el.style.setProperty("--n", cols);
  el.style.setProperty("--max", rows > 20 || cols > 20 ? "16px" : rows > 12 || cols > 12 ? "26px" : "34px");
  const head = document.createElement("div"); head.className = "row"; head.setAttribute("role", "row"); el.appendChild(head);
  const corner = document.createElement("div"); corner.className = "cell head"; corner.setAttribute("role", "columnheader"); head.appendChild(corner);
  for (let c = 0; c < cols; c++) {
    const h = document.createElement("div"); h.className = "cell head"; h.textContent = c + 1; h.setAttribute("role", "columnheader"); head.appendChild(h);
  }
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const row = document.createElement("div"); row.className = "row"; row.setAttribute("role", "row"); el.appendChild(row);
    const h = document.createElement("div"); h.className = "cell head"; h.textContent = rowLetters(r); h.setAttribute("role", "rowheader"); row.appendChild(h);
    for (let c = 0; c < cols; c++) {
      const d = document.createElement("div");
      d.className = "cell"; d.dataset.r = r; d.dataset.c = c; d.id = el.id + "-" + r + "-" + c;
      d.setAttribute("role", "gridcell"); d.tabIndex = r === 0 && c === 0 ? 0 : -1;
      d.addEventListener("click", (e) => { focusCell(cells, d, false); if (onActivate) onActivate(r, c, e); });
      row.appendChild(d); cells.push(d);
    }
  }
  el.onkeydown = (e) => {
    const d = e.target; if (!d.dataset || d.dataset.r === undefined) return;
    let r = Number(d.dataset.r), c = Number(d.dataset.c);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[e.key]) { r = Math.max(0, Math.min(rows - 1, r + moves[e.key][0])); c = Math.max(0, Math.min(cols - 1, c + moves[e.key][1])); }
    else if (e.key === "Home") c = 0;
    else if (e.key === "End") c = cols - 1;
    else if (e.key === "Enter" || e.key === " ") { e.preventDefault(); if (onActivate) onActivate(r, c, e); return; }
    else return;
    e.preventDefault(); focusCell(cells, cells[r * cols + c], true);
  };
  return cells;
}

function focusCell(cells, d, move) {
  for (const x of cells) if (x.tabIndex === 0 && x !== d) x.tabIndex = -1;
  d.tabIndex = 0; if (move) d.focus();
}

function paintCell(d, cls, value, t, label) {
  d.className = "cell" + (cls ? " " + cls : "");
  d.style.background = t === null ? "" : heat(t);
  d.style.color = t !== null && t > 0.62 ? "#fff" : "";
  d.textContent = value;
  d.title = label;
  d.setAttribute("aria-label", label);
}

// --- Helper -------------------------------------------------------------------------
const H = { rules: "classic", rows: 10, cols: 10, fleet: "", cells: [], sunk: [], past: [], future: [],
            mode: "cycle", sel: [], seq: 0, advice: null, els: [] };

function hSnapshot() { return JSON.stringify({ cells: H.cells, sunk: H.sunk }); }
function hRestore(s) { const o = JSON.parse(s); H.cells = o.cells; H.sunk = o.sunk; }
function hChange(f) { H.past.push(hSnapshot()); if (H.past.length > 500) H.past.shift(); H.future = []; f(); hUpdate(); }

function hText() {
  let out = "";
  for (let r = 0; r < H.rows; r++) out += H.cells.slice(r * H.cols, (r + 1) * H.cols).join("") + "\n";
  return out;
}

function hSetRules(name) {
  const p = preset(name); if (!p) return;
  H.rules = name; H.rows = p.rows; H.cols = p.cols; H.fleet = ""; $("h-fleet").value = "";
  H.cells = new Array(p.rows * p.cols).fill("."); H.sunk = []; H.past = []; H.future = []; H.sel = [];
  H.els = makeGrid($("h-grid"), H.rows, H.cols, hClick, "your opponent's bay: Enter cycles a cell");
  const strat = $("h-strategy"); strat.innerHTML = "";
  const words = { bayes: "bayes (probability)", prob: "prob (likelihood)" };
  for (const s of p.advise) option(strat, s, words[s] || s, name === "problem-g" ? "prob" : "bayes");
  strat.title = p.advise.length === 1 ? "prob's likelihood scores assume straight ships that never touch and answers of hit or miss; these rules allow bayes only" : "";
  $("h-note").textContent = "";
  hUpdate();
}

function hClick(r, c) {
  const i = r * H.cols + c;
  if (H.mode === "sunk") {
    const k = H.sel.indexOf(i);
    if (k >= 0) H.sel.splice(k, 1); else if (H.cells[i] !== "#") H.sel.push(i);
    hPickSunk(); hRender(); return;
  }
  const next = { ".": "X", "X": "+", "+": ".", "#": "#" }[H.cells[i]];
  if (next === H.cells[i]) return;
  hChange(() => { H.cells[i] = next; });
}

// The picker offers the ship the selected cells can be: the first afloat of that size.
function hPickSunk() {
  const ship = hAfloat().find((s) => s.size === H.sel.length);
  if (ship) $("h-sunk-name").value = ship.name;
}

// The ships: the preset's, or the sizes typed in the fleet box (named by size).
function hShips(fleet) {
  if (fleet === undefined) fleet = H.fleet;
  if (!fleet) return preset(H.rules).rules.ships;
  return fleet.split(",").map((x) => Number(x.trim())).sort((a, b) => b - a).map((n, k) => ({ name: "ship " + (k + 1) + " (" + n + ")", size: n }));
}

function hAfloat() {
  const left = hShips().map((s) => ({ ...s }));
  for (const s of H.sunk) {
    const k = left.findIndex((x) => x.name === s.name);
    if (k >= 0) left.splice(k, 1);
  }
  return left;
}

// A new fleet keeps the misses and hits, and each sunk ship a ship of its size can
// still be; the others go back to hits, and the note says which.
function hSetFleet(text) {
  const ships = hShips(text).map((s) => ({ ...s }));
  const kept = [], dropped = [];
  for (const s of H.sunk) {
    const k = ships.findIndex((x) => x.size === s.size);
    if (k >= 0) { kept.push({ ...s, name: ships[k].name }); ships.splice(k, 1); } else dropped.push(s);
  }
  hChange(() => {
    H.fleet = text; H.sunk = kept;
    for (const s of dropped) for (const i of s.cells) H.cells[i] = "+";
  });
  $("h-note").textContent = "Fleet changed: the misses and hits are kept" + (kept.length ? ", and the sunk " + kept.map((s) => s.size + "-cell ship").join(", ") : "") +
    (dropped.length ? "; dropped the sunk " + dropped.map((s) => s.name).join(", ") + " (no ship of " + dropped.map((s) => s.size).join(", ") + " cells in the new fleet: its cells are hits again)" : "") + ".";
}

function hSink() {
  const name = $("h-sunk-name").value;
  const ship = hAfloat().find((s) => s.name === name);
  if (!ship || H.sel.length === 0) return;
  if (H.sel.length !== ship.size) { $("h-error").textContent = "the " + name + " has " + ship.size + " cells; " + H.sel.length + " are selected"; return; }
  const cells = H.sel.slice();
  hChange(() => { for (const i of cells) H.cells[i] = "#"; H.sunk.push({ name, size: ship.size, cells }); });
  H.sel = []; hRender();
}

function hUpdate() {
  $("h-text").value = hText();
  const sunkNames = $("h-sunk-name"); sunkNames.innerHTML = "";
  for (const s of hAfloat()) option(sunkNames, s.name, s.name + " (" + s.size + ")");
  hPickSunk();
  $("h-sunk").textContent = H.sunk.length ? H.sunk.map((s) => s.name).join(", ") : "none";
  $("h-undo").disabled = H.past.length === 0; $("h-redo").disabled = H.future.length === 0;
  const strat = $("h-strategy").value;
  const afloat = H.sunk.length ? hAfloat().map((s) => s.size) : null;
  let cmd = "spot-the-ships advise --rules " + H.rules + (H.fleet ? " --fleet " + H.fleet : "") + " --strategy " + strat;
  if (afloat) cmd += " --afloat " + afloat.join(",");
  $("h-cmd").textContent = cmd + " --format json";
  H.advice = null; hRender();
  const body = { state: hText(), rules: H.rules, strategy: strat };
  if (H.fleet) body.fleet = H.fleet;
  if (afloat) {
    if (afloat.length === 0) { $("h-info").textContent = "Every ship is sunk."; $("h-error").textContent = ""; return; }
    body.afloat = afloat.join(",");
  }
  const seq = ++H.seq;
  status("advising…");
  api("POST", "/api/advise", body).then((a) => {
    if (seq !== H.seq) return;
    H.advice = a; $("h-error").textContent = ""; hRender(); status(""); document.body.dataset.advised = seq;
  }).catch((e) => {
    if (seq !== H.seq) return;
    $("h-error").textContent = e.message; status(""); document.body.dataset.advised = seq;
    $("h-info").textContent = "No advice for this state: " + e.message;
  });
}

function hRender() {
  const a = H.advice;
  const key = a && (a.probability ? "probability" : "score");
  // The heat map is relative: the highest value of a cell not certain shows darkest.
  let max = 0;
  if (a) for (const row of a[key]) for (const v of row) if (v !== null && v > max && (key === "score" || v < 1)) max = v;
  const cship = [], cwater = [];
  for (let i = 0; i < H.cells.length; i++) {
    const d = H.els[i], s = H.cells[i], r = Math.floor(i / H.cols), c = i % H.cols;
    let cls = { "X": "miss", "+": "hit", "#": "wreck", ".": "" }[s];
    const name = cellName(i, H.cols);
    let text = "", t = null, label = name + ", " + { "X": "miss", "+": "hit", "#": "sunk", ".": "unknown" }[s];
    const v = a && a[key][r] ? a[key][r][c] : null;
    delete d.dataset.v;
    if (s === "." && v !== null && v !== undefined) {
      d.dataset.v = String(v);
      if (key === "probability") {
        const pct = v >= 1 ? 100 : v <= 0 ? 0 : Math.min(99, Math.max(1, Math.round(v * 100)));
        text = String(pct); t = max > 0 ? Math.min(1, v / max) : 0; label += ", ship probability " + (v * 100).toFixed(1) + "%";
        if (v >= 1) { cls = "cship"; cship.push(name); }
        if (v <= 0) { cls = "cwater"; cwater.push(name); }
      } else {
        text = String(v); t = max > 0 && v > 0 ? v / max : 0; label += ", likelihood score " + v;
        if (v < 0) { cls = "cwater"; text = ""; t = null; cwater.push(name); }
      }
    }
    if (a && a.suggest && a.suggest[0] === r && a.suggest[1] === c) { cls += " suggest"; label += ", suggested"; }
    if (H.sel.includes(i)) { cls += " sel"; label += ", selected"; }
    paintCell(d, cls, text, t, label);
  }
  $("h-suggest").textContent = a ? (a.suggest ? cellName(a.suggest[0] * H.cols + a.suggest[1], H.cols) : "none") : "…";
  $("h-cship").textContent = a ? (cship.join(" ") || "none") : "…";
  $("h-cwater").textContent = a ? (cwater.join(" ") || "none") : "…";
  $("h-sel").textContent = H.sel.length ? H.sel.map((i) => cellName(i, H.cols)).join(" ") : "none";
  if (a) {
    const how = a.method === "exact" ? "exact over " + fmt(a.layouts) + " layouts"
      : a.method === "sampled" ? "sampled (" + fmt(a.layouts) + " layouts in all, estimated)" : "likelihood scores (prob)";
    $("h-info").textContent = (key === "probability" ? "Ship probability per cell, percent: " : "prob's likelihood: row score + column score: ") + how + ".";
    if (key === "probability") legend($("h-legend"), "0%", (max * 100).toFixed(1) + "%", "ship probability (darkest: the highest not certain)");
    else legend($("h-legend"), "0", String(max), "likelihood score");
  } else if (!$("h-error").textContent) {
    $("h-legend").textContent = "";
  }
}

function hLoad() {
  const lines = $("h-text").value.replace(/\r/g, "").split("\n").filter((l) => l.length > 0);
  const ok = lines.length === H.rows && lines.every((l) => l.length === H.cols && /^[.Xx+#]*$/.test(l));
  if (!ok) { $("h-error").textContent = "the text must be " + H.rows + " rows of " + H.cols + " characters . X + # (the rules' bay)"; return; }
  hChange(() => { H.cells = lines.join("").toUpperCase().split(""); H.sunk = H.sunk.filter((s) => s.cells.every((i) => H.cells[i] === "#")); });
}

// --- Play ---------------------------------------------------------------------------
// One game's state. Every asynchronous answer carries the epoch it was asked in, and
// is dropped when the game was reset meanwhile (a rules change, a new placement).
const P = { epoch: 0, rules: "classic", rows: 10, cols: 10, mine: [], ships: [], placing: false, dir: "E",
            phase: "setup", token: null, myMoves: [], comp: null, k: 0, gaveUp: false, reveal: null, who: "",
            elsE: [], elsM: [], replay: null, timer: null, busy: false };

function pRulesOf() { return preset(P.rules).rules; }

function pReset(note) {
  pStopReplay();
  // The game left behind is forgotten, so that a computer still playing it stops.
  if (P.token) api("DELETE", "/api/games/" + P.token).catch(() => {});
  const p = preset(P.rules);
  Object.assign(P, { epoch: P.epoch + 1, rows: p.rows, cols: p.cols, mine: new Array(p.rows * p.cols).fill(false), ships: [],
                     placing: false, phase: "setup", token: null, myMoves: [], comp: null, k: 0, gaveUp: false, reveal: null, busy: false });
  P.elsE = makeGrid($("p-enemy"), p.rows, p.cols, pProbe, "the computer's bay: Enter probes a cell");
  P.elsM = makeGrid($("p-mine"), p.rows, p.cols, pPlace, "your bay");
  pMsg(note || "Place your fleet (at random" + (p.straight ? ", or by clicking cells of your bay" : "") + "), then Start.");
  pRender();
}

function pSetRules(name) {
  if (!preset(name)) return;
  P.rules = name;
  const level = $("p-level"), chosen = level.value || "expert", p = preset(name);
  level.innerHTML = "";
  const words = { easy: "Easy", medium: "Medium", hard: "Hard", expert: "Expert" };
  for (const l of p.levels) option(level, l.level, words[l.level] + " (" + l.strategy + ")", chosen);
  const adv = document.createElement("optgroup"); adv.label = "Advanced: a named strategy";
  for (const s of p.strategies) { const o = option(adv, "s:" + s.name, s.name, chosen); o.title = s.summary; }
  level.appendChild(adv);
  if (!level.value) level.value = "expert";
  pLevelInfo();
  pReset();
}

// The strategy the computer plays, and one line on it.
function pStrategy() {
  const p = preset(P.rules), v = $("p-level").value;
  if (v.startsWith("s:")) return v.slice(2);
  const l = p.levels.find((x) => x.level === v) || p.levels[p.levels.length - 1];
  return l.strategy;
}

function pLevelInfo() {
  const p = preset(P.rules), name = pStrategy(), v = $("p-level").value;
  // A level says itself what it plays (lookahead, Expert under classic, is no named choice).
  const s = v.startsWith("s:") ? p.strategies.find((x) => x.name === name) : p.levels.find((x) => x.level === v);
  const level = v.startsWith("s:") ? name : { easy: "Easy", medium: "Medium", hard: "Hard", expert: "Expert" }[v];
  P.who = v.startsWith("s:") ? name : level + ", " + name;
  $("p-level-info").textContent = level + ": " + name + ", " + (s ? s.summary : "") + "; " +
    scans(s && s.mean) + " under " + P.rules + " (" + fmt(MEASURED) + " games)" +
    (v === "expert" ? ", the strongest the page plays for these rules." : ".");
}

function pMsg(t, over) { $("p-msg").textContent = t; $("p-msg").classList.toggle("over", !!over); }

// Buttons follow the phase alone, so no sequence of clicks can leave them stuck.
function pControls() {
  const p = preset(P.rules), placed = P.ships.length === pRulesOf().ships.length && !P.placing;
  $("p-start").disabled = !(P.phase === "setup" && placed);
  $("p-giveup").disabled = P.phase !== "playing";
  $("p-replay").disabled = P.phase !== "over" || !(P.comp && P.comp.ready);
  $("p-manual").disabled = !p.straight; $("p-turn").disabled = !p.straight;
}

async function pRandom() {
  pReset("Placing your fleet…");
  const epoch = P.epoch;
  try {
    const a = await api("POST", "/api/placement", { rules: P.rules });
    if (epoch !== P.epoch) return;
    P.ships = a.ships.map((s) => ({ name: s.name, size: s.size, cells: s.cells.map(([r, c]) => r * P.cols + c) }));
    for (const s of P.ships) for (const i of s.cells) P.mine[i] = true;
    pMsg("Your fleet is placed. Start when ready."); pRender();
  } catch (e) { if (epoch === P.epoch) pMsg("error: " + e.message); }
}

function pManual() {
  pReset(); P.placing = true;
  const first = pRulesOf().ships[0];
  pMsg("Click a cell of your bay for the " + first.name + " (" + first.size + " cells, running " + (P.dir === "E" ? "east" : "south") + ").");
  pRender();
}

function pPlace(r, c) {
  if (!P.placing) return;
  const fleet = pRulesOf().ships, ship = fleet[P.ships.length]; if (!ship) return;
  const touch = pRulesOf().touch;
  const cells = [];
  for (let k = 0; k < ship.size; k++) {
    const rr = P.dir === "E" ? r : r + k, cc = P.dir === "E" ? c + k : c;
    if (rr >= P.rows || cc >= P.cols) { pMsg("The " + ship.name + " does not fit there."); return; }
    cells.push(rr * P.cols + cc);
  }
  for (const i of cells) {
    const rr = Math.floor(i / P.cols), cc = i % P.cols;
    for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) {
      const r2 = rr + dr, c2 = cc + dc;
      if (r2 < 0 || c2 < 0 || r2 >= P.rows || c2 >= P.cols) continue;
      const near = dr !== 0 || dc !== 0;
      if (P.mine[r2 * P.cols + c2] && (!near || !touch)) { pMsg("The " + ship.name + " would " + (near ? "touch" : "overlap") + " another ship."); return; }
    }
  }
  for (const i of cells) P.mine[i] = true;
  P.ships.push({ name: ship.name, size: ship.size, cells });
  const next = fleet[P.ships.length];
  if (next) pMsg("Now the " + next.name + " (" + next.size + " cells).");
  else { P.placing = false; pMsg("Your fleet is placed. Start when ready."); }
  pRender();
}

async function pStart() {
  if (P.phase !== "setup" || P.placing || P.ships.length === 0) { pMsg("Place your fleet first."); return; }
  const epoch = P.epoch;
  P.phase = "starting"; pControls(); pMsg("The computer hides its fleet and gets ready…");
  try {
    const g = await api("POST", "/api/matches", { rules: P.rules, strategy: pStrategy(), placement: $("p-placement").value,
      ships: P.ships.map((s) => s.cells.map((i) => [Math.floor(i / P.cols), i % P.cols])) });
    if (epoch !== P.epoch) return;
    P.token = g.token; P.shipCells = g.ship_cells;
    // The computer plays its game on the server, off the request path; its moves are
    // followed as they come, and the player's turn starts at once.
    P.comp = { moves: [], ready: false, scans: null };
    pFollow(g.token, epoch);
    P.phase = "playing";
    pMsg(pTurnText());
    pRender();
    const first = P.elsE[0]; if (first) focusCell(P.elsE, first, false);
  } catch (e) { if (epoch === P.epoch) { P.phase = "setup"; pMsg("error: " + e.message); pRender(); } }
}

// Follows the computer's game as the server plays it: its moves as they come, then its
// end. The computer's move of turn k shows once the player has moved k times.
async function pFollow(token, epoch) {
  try {
    while (epoch === P.epoch && !P.comp.ready) {
      const c = await api("GET", "/api/games/" + token + "/computer?from=" + P.comp.moves.length);
      if (epoch !== P.epoch) return;
      if (c.from === P.comp.moves.length) P.comp.moves.push(...c.moves);
      if (c.ready) { P.comp.ready = true; P.comp.scans = c.scans; }
      const was = P.k;
      pCatchUp();
      if (P.k !== was || c.ready) { pRender(); if (P.phase === "playing" && P.replay === null) pMsg(pTurnText()); }
      if (!c.ready) await new Promise((ok) => setTimeout(ok, P.k < P.myMoves.length ? 50 : 200));
    }
  } catch (e) { if (epoch === P.epoch) pMsg("error: the computer's game: " + e.message); }
}

// The computer's moves shown: one per move of the player's while playing, all at the end.
function pCatchUp() {
  if (!P.comp) return;
  const have = P.comp.moves.length;
  P.k = P.phase === "over" ? have : Math.min(P.myMoves.length, have);
}

// The line under the grids while playing: the turn, the last moves of both sides.
function pTurnText() {
  const n = P.myMoves.length, last = P.myMoves[n - 1];
  if (!last) return "Turn 1: your move. Probe a cell of the computer's bay (" + P.shipCells + " ship cells to find).";
  const theirs = P.comp.moves[n - 1];
  const comp = P.k >= n && theirs ? "computer: " + cellName(theirs.probe[0] * P.cols + theirs.probe[1], P.cols) + " " + theirs.reply
    : P.comp.ready ? "the computer has found your whole fleet" : "the computer is thinking about its move " + n + "…";
  return "Turn " + (n + 1) + ": your move. (You: " + cellName(last.r * P.cols + last.c, P.cols) + " " + last.reply + "; " + comp + (comp.endsWith("…") ? ")" : ".)");
}

async function pProbe(r, c) {
  if (P.phase !== "playing" || P.busy || P.replay) return;
  const i = r * P.cols + c;
  if (P.myMoves.some((m) => m.r * P.cols + m.c === i)) { pMsg("Turn " + (P.myMoves.length + 1) + ": " + cellName(i, P.cols) + " was probed already; choose another cell."); return; }
  const epoch = P.epoch;
  P.busy = true;
  try {
    const a = await api("POST", "/api/games/" + P.token + "/probe", { r, c });
    if (epoch !== P.epoch) return;
    P.myMoves.push({ r, c, answer: a.answer, ship: a.ship, reply: a.reply, done: a.done });
    if (a.done) {
      P.phase = "over"; pCatchUp();
      await pRevealFleet(epoch);
    } else {
      pCatchUp();
      pMsg(pTurnText());
    }
    pRender();
  } catch (e) { if (epoch === P.epoch) pMsg("error: " + e.message); }
  P.busy = false;
}

async function pGiveUp() {
  if (P.phase !== "playing") return;
  const epoch = P.epoch;
  P.gaveUp = true; P.phase = "over"; pCatchUp();
  await pRevealFleet(epoch);
  if (epoch === P.epoch) pRender();
}

async function pRevealFleet(epoch) {
  try {
    const a = await api("POST", "/api/games/" + P.token + "/reveal");
    if (epoch !== P.epoch) return;
    P.reveal = a.ships.map((s) => ({ name: s.name, size: s.size, cells: s.cells.map(([r, c]) => r * P.cols + c) }));
  } catch (e) { if (epoch === P.epoch) pMsg("error: " + e.message); }
}

// The result, one sentence (while the computer still plays, what is known so far).
function pResult() {
  const mine = P.myMoves.length, theirs = P.comp.scans, who = "the computer (" + P.who + ")";
  const sofar = P.comp.moves.length + " probe" + (P.comp.moves.length === 1 ? "" : "s") + " so far";
  if (P.gaveUp && !P.comp.ready) return "You gave up after " + mine + " probe" + (mine === 1 ? "" : "s") + "; its fleet is shown, and " + who + " is still playing (" + sofar + ").";
  if (P.gaveUp) return "You gave up after " + mine + " probe" + (mine === 1 ? "" : "s") + "; " + who + " found your fleet in " + theirs + ", and its fleet is shown.";
  if (!P.comp.ready && P.comp.moves.length >= mine) return "You win: you found every ship cell in " + mine + " probes, and " + who + " is still playing (" + sofar + ").";
  if (!P.comp.ready) return "You found every ship cell in " + mine + " probes; " + who + " is still playing (" + sofar + ").";
  if (mine < theirs) return "You win: you found every ship cell in " + mine + " probes, and " + who + " needed " + theirs + ".";
  if (mine > theirs) return "The computer wins: it (" + P.who + ") found your fleet in " + theirs + " probes; you needed " + mine + ".";
  return "A draw: you and " + who + " each needed " + mine + " probes.";
}

// What the player knows of the computer's fleet after `moves`: the grid (. X + #) and
// the ships sunk. A sunk ship's cells are drawn when the answers settle them.
function pEnemyKnowledge(moves) {
  const rules = pRulesOf(), grid = new Array(P.rows * P.cols).fill("."), afloat = rules.ships.map((s) => ({ ...s }));
  const sunk = []; let unsized = 0;
  const hitRun = (i, size) => {
    const r = Math.floor(i / P.cols), c = i % P.cols, found = [];
    for (const [dr, dc] of [[0, 1], [1, 0]]) for (let k = 0; k < size; k++) {
      const r0 = r - k * dr, c0 = c - k * dc, cells = [];
      for (let j = 0; j < size; j++) { const rr = r0 + j * dr, cc = c0 + j * dc; if (rr < 0 || cc < 0 || rr >= P.rows || cc >= P.cols || grid[rr * P.cols + cc] !== "+") break; cells.push(rr * P.cols + cc); }
      if (cells.length === size) found.push(cells);
      if (size === 1) break;
    }
    return found.length === 1 ? found[0] : null;
  };
  const component = (i) => {
    const seen = new Set([i]), todo = [i];
    while (todo.length) { const j = todo.pop(), r = Math.floor(j / P.cols), c = j % P.cols;
      for (const [dr, dc] of [[0, 1], [1, 0], [0, -1], [-1, 0]]) { const rr = r + dr, cc = c + dc, n = rr * P.cols + cc;
        if (rr >= 0 && cc >= 0 && rr < P.rows && cc < P.cols && grid[n] === "+" && !seen.has(n)) { seen.add(n); todo.push(n); } } }
    return [...seen];
  };
  for (const m of moves) {
    const i = m.r * P.cols + m.c;
    grid[i] = m.answer === "miss" ? "X" : "+";
    if (m.answer !== "sunk") continue;
    let k = -1, cells = null;
    if (m.ship) { k = afloat.findIndex((s) => s.name === m.ship); if (k >= 0) cells = hitRun(i, afloat[k].size); }
    else if (!rules.touch) { cells = component(i); k = afloat.findIndex((s) => s.size === cells.length); }
    if (k < 0) { unsized++; grid[i] = "#"; continue; }
    const ship = afloat.splice(k, 1)[0];
    for (const j of cells || [i]) grid[j] = "#";
    sunk.push(ship.name);
  }
  return { grid, sunk, unsized, afloat, hits: grid.filter((x) => x === "+" || x === "#").length };
}

function pStopReplay() { clearTimeout(P.timer); P.timer = null; P.replay = null; $("p-replaybar").classList.add("hidden"); $("p-r-play").textContent = "Play"; }

// Draws the game as it stood after turn `t` (every turn when `t` is undefined).
function pRender(t) {
  pControls();
  const live = t === undefined, total = P.comp ? P.comp.moves.length : 0;
  const shown = live ? P.myMoves.length : Math.min(t, P.myMoves.length);
  const k = live ? P.k : Math.min(t, P.k);
  const over = P.phase === "over" && (live || t >= Math.max(P.myMoves.length, P.k));
  // Your bay: your ships, the computer's probes, your sunk ships.
  const probedMine = new Map();
  for (const m of (P.comp ? P.comp.moves.slice(0, k) : [])) probedMine.set(m.probe[0] * P.cols + m.probe[1], m.answer === "miss" ? "X" : "+");
  const mySunk = P.ships.filter((s) => s.cells.every((i) => probedMine.has(i)));
  const wreck = new Set(mySunk.flatMap((s) => s.cells));
  const lastTheirs = k > 0 ? P.comp.moves[k - 1] : null;
  for (let i = 0; i < P.mine.length; i++) {
    const st = probedMine.get(i);
    let cls = P.mine[i] ? "ship" : "", label = cellName(i, P.cols) + (P.mine[i] ? ", your ship" : ", water");
    if (st === "X") { cls = "miss"; label += ", missed"; } else if (st) { cls = wreck.has(i) ? "wreck" : "hit"; label += wreck.has(i) ? ", sunk" : ", hit"; }
    if (lastTheirs && lastTheirs.probe[0] * P.cols + lastTheirs.probe[1] === i) { cls += " probe"; label += ", the computer's last probe"; }
    paintCell(P.elsM[i], cls, "", null, label);
  }
  // The computer's bay: what your answers tell, then its fleet once revealed.
  const know = pEnemyKnowledge(P.myMoves.slice(0, shown));
  const reveal = over ? P.reveal : null;
  const theirShip = new Set(reveal ? reveal.flatMap((s) => s.cells) : []);
  const theirSunk = new Set(reveal ? reveal.filter((s) => s.cells.every((i) => know.grid[i] !== "." && know.grid[i] !== "X")).flatMap((s) => s.cells) : []);
  for (let i = 0; i < know.grid.length; i++) {
    const g = know.grid[i];
    let cls = { ".": "", "X": "miss", "+": "hit", "#": "wreck" }[g];
    let label = cellName(i, P.cols) + ", " + { ".": "not probed", "X": "miss", "+": "hit", "#": "sunk" }[g];
    if (theirSunk.has(i)) { cls = "wreck"; label = cellName(i, P.cols) + ", sunk"; }
    else if (g === "." && theirShip.has(i)) { cls = "ship"; label += ", a ship (revealed)"; }
    paintCell(P.elsE[i], cls, "", null, label);
  }
  const lastMine = shown > 0 ? P.myMoves[shown - 1] : null;
  if (lastMine) P.elsE[lastMine.r * P.cols + lastMine.c].classList.add("probe");
  const myDone = shown > 0 && P.myMoves[shown - 1].done;
  $("p-you").textContent = "Your probes: " + shown + (myDone ? " (done)" : "");
  const thinking = P.comp && !P.comp.ready && P.phase === "playing" && live && k < P.myMoves.length;
  $("p-them").textContent = "The computer's probes: " + k + (P.comp && P.comp.ready && k >= total ? " (done)" : thinking ? " (thinking…)" : "");
  pLeft(know, mySunk, reveal, theirSunk);
  pLog(shown, k);
  if (over && live) pMsg(pResult(), true);
}

// The ships-left panel: the computer's fleet as your answers tell it, and yours.
function pLeft(know, mySunk, reveal, theirSunk) {
  const rules = pRulesOf(), el = $("p-left"); el.innerHTML = "";
  const table = document.createElement("table");
  const row = (cells, cls) => { const tr = document.createElement("tr"); for (const c of cells) { const td = document.createElement("td"); td.textContent = c; tr.appendChild(td); } if (cls) tr.className = cls; table.appendChild(tr); return tr; };
  const head = row(["Computer's ships", "", "Your ships", ""]); head.style.fontWeight = "bold";
  const theirs = [];
  if (reveal) {
    for (const s of reveal) theirs.push([s.name + " (" + s.size + ")", s.cells.every((i) => theirSunk.has(i)) ? "sunk" : "afloat"]);
  } else if (rules.sunk === "none") {
    for (const s of rules.ships) theirs.push([s.name + " (" + s.size + ")", "?"]);
  } else {
    const sunk = know.sunk.slice();
    for (const s of rules.ships) { const k = sunk.indexOf(s.name); if (k >= 0) { sunk.splice(k, 1); theirs.push([s.name + " (" + s.size + ")", "sunk"]); } else theirs.push([s.name + " (" + s.size + ")", "afloat"]); }
  }
  const mine = P.ships.length ? P.ships : rules.ships;
  const mineSunk = mine.map((s) => mySunk.includes(s));
  for (let j = 0; j < Math.max(theirs.length, mine.length); j++) {
    const a = theirs[j] || ["", ""], b = mine[j] ? [mine[j].name + " (" + mine[j].size + ")", mineSunk[j] ? "sunk" : "afloat"] : ["", ""];
    const tr = row([a[0], a[1], b[0], b[1]]);
    if (a[1] === "sunk") { tr.children[0].className = "sunk"; }
    if (b[1] === "sunk") { tr.children[2].className = "sunk"; }
  }
  el.appendChild(table);
  const p = document.createElement("p"); p.className = "small"; p.id = "p-left-note";
  const afloatTheirs = theirs.filter((x) => x[1] === "afloat").length, afloatMine = mineSunk.filter((x) => !x).length;
  p.textContent = (rules.sunk === "none" && !reveal ? "These rules never announce a sunk ship: " : "") + "ship cells found " + know.hits + " of " +
    (P.shipCells || rules.ships.reduce((n, s) => n + s.size, 0)) + (know.unsized ? "; " + know.unsized + " ship(s) sunk whose size the answers do not settle" : "") +
    (rules.sunk === "none" && !reveal ? "." : "; the computer has " + afloatTheirs + " afloat, you have " + afloatMine + ".");
  el.appendChild(p);
  el.dataset.sunk = JSON.stringify(theirs.filter((x) => x[1] === "sunk").map((x) => x[0].replace(/ \(\d+\)$/, "")));
}

// The move log: each turn's two moves, newest first, and the game's events.
function pLog(shown, k) {
  const el = $("p-log"); el.innerHTML = "";
  const items = [];
  const turns = Math.max(shown, k), moves = P.comp ? P.comp.moves : [];
  for (let t = 1; t <= turns; t++) {
    const a = P.myMoves[t - 1], b = t <= k ? moves[t - 1] : null;
    const parts = [];
    if (a && t <= shown) parts.push("You " + cellName(a.r * P.cols + a.c, P.cols) + ": " + a.reply);
    if (b) parts.push("computer " + cellName(b.probe[0] * P.cols + b.probe[1], P.cols) + ": " + b.reply);
    items.push(["Turn " + t + ". " + parts.join("; ") + ".", ""]);
    if (b && t === moves.length && P.comp.ready) items.push(["The computer found every ship cell of your fleet in " + t + " probes.", "event"]);
    if (a && t <= shown && a.done) items.push(["You found every ship cell of its fleet in " + t + " probes.", "event"]);
  }
  if (P.gaveUp && shown === P.myMoves.length) items.push(["You gave up after " + P.myMoves.length + " probes; the computer's fleet is revealed.", "event"]);
  if (P.phase === "playing" && P.replay === null) items.push(["Turn " + (P.myMoves.length + 1) + ": your move.", "event"]);
  for (const [text, cls] of items.slice(-12).reverse()) { const li = document.createElement("li"); li.textContent = text; li.className = cls; el.appendChild(li); }
}

// Replay: turn by turn, with pause, step back and step forward.
function pTurns() { return Math.max(P.myMoves.length, P.k); }
function pReplayAt(t) {
  P.replay = Math.max(0, Math.min(pTurns(), t));
  pRender(P.replay);
  $("p-r-step").textContent = "Turn " + P.replay + " of " + pTurns();
  pMsg("Replay: turn " + P.replay + " of " + pTurns() + (P.replay === pTurns() ? ". " + pResult() : "."));
}
function pReplayPause() { clearTimeout(P.timer); P.timer = null; $("p-r-play").textContent = "Play"; }
function pReplayPlay() {
  if (P.timer) { pReplayPause(); return; }
  if (P.replay === null || P.replay >= pTurns()) pReplayAt(0);
  $("p-r-play").textContent = "Pause";
  const tick = () => { if (P.replay >= pTurns()) { pReplayPause(); return; } pReplayAt(P.replay + 1); P.timer = setTimeout(tick, 250); };
  P.timer = setTimeout(tick, 250);
}
function pReplay() {
  if (P.phase !== "over") return;
  $("p-replaybar").classList.remove("hidden");
  pReplayAt(0); pReplayPlay();
}

// --- Watch --------------------------------------------------------------------------
const W = { trace: null, k: 0, timer: null, els: [], rows: 0, cols: 0, ships: "" };

async function wLoad() {
  wPause();
  const rules = $("w-rules").value, strat = $("w-strategy").value, seed = $("w-seed").value || "2021";
  status("tracing…");
  try {
    W.trace = await api("GET", "/api/trace?rules=" + rules + "&strategy=" + strat + "&seed=" + encodeURIComponent(seed));
    W.rows = W.trace.trace.rows; W.cols = W.trace.trace.cols;
    W.ships = W.trace.judge.grid.join("");
    W.els = makeGrid($("w-grid"), W.rows, W.cols, null, strat + " solving a bay");
    $("w-pos").max = W.trace.steps.length; W.k = 0; wRender(); status(""); document.body.dataset.traced = strat + " " + rules + " " + seed;
  } catch (e) { $("w-info").textContent = "error: " + e.message; status(""); }
}

function wGo(k) { if (!W.trace) return; W.k = Math.max(0, Math.min(W.trace.steps.length, k)); wRender(); }
function wPause() { clearTimeout(W.timer); W.timer = null; $("w-play").textContent = "Play"; }
function wPlay() {
  if (!W.trace) return;
  if (W.timer) { wPause(); return; }
  if (W.k >= W.trace.steps.length) W.k = 0;
  $("w-play").textContent = "Pause";
  const tick = () => {
    if (W.k >= W.trace.steps.length) { wPause(); return; }
    wGo(W.k + 1);
    W.timer = setTimeout(tick, 1000 / Number($("w-speed").value));
  };
  W.timer = setTimeout(tick, 1000 / Number($("w-speed").value));
}

function wRender() {
  const steps = W.trace.steps, k = W.k;
  const grid = k > 0 ? steps[k - 1].grid.join("") : W.ships.replace(/\+/g, "O").replace(/X/g, ".");
  const next = k < steps.length ? steps[k] : null;
  const weights = next && next.weights ? next.weights : null;
  let max = 0;
  if (weights) for (let i = 0; i < grid.length; i++) if (grid[i] === "." || grid[i] === "O") max = Math.max(max, weights.values[i]);
  const prev = k > 0 ? steps[k - 1] : null;
  for (let i = 0; i < grid.length; i++) {
    const ch = grid[i];
    let cls = { "+": "hit", "X": "miss", "O": "shiphint", ".": "" }[ch] || "";
    let text = "", t = null, label = cellName(i, W.cols) + ", " + { "+": "hit", "X": "miss", "O": "a ship not found yet", ".": "not probed" }[ch];
    const open = ch === "." || ch === "O";
    if (weights && open) {
      const v = weights.values[i];
      t = max > 0 ? v / max : 0;
      text = weights.name === "probability" ? String(Math.round(v * 100)) : (v < 0 ? "" : String(v));
      if (weights.name === "likelihood" && v < 0) t = null;
      label += ", " + weights.name + " " + v;
      if (W.rows * W.cols > 400) text = "";
    }
    if (next && next.probe[0] * W.cols + next.probe[1] === i) { cls += " suggest"; label += ", next probe"; }
    paintCell(W.els[i], cls, text, t, label);
    if (ch === "O" && !weights) W.els[i].style.background = "#e7edf3";
  }
  $("w-pos").value = k;
  $("w-pos").setAttribute("aria-valuetext", "step " + k + " of " + steps.length);
  $("w-step").textContent = "step " + k + " of " + steps.length;
  const at = (p) => cellName(p[0] * W.cols + p[1], W.cols);
  let info = "";
  if (prev) info += "Scan " + prev.scan + ": " + at(prev.probe) + " from " + prev.source + ", " + prev.answer + ". ";
  if (next) info += "Next: " + at(next.probe) + " from " + next.source + ". ";
  else info += "Done: every ship cell found in " + steps.length + " scans.";
  $("w-info").textContent = info;
  $("w-list").textContent = prev && prev.list ? prev.list.name + ": " + prev.list.cells.map(at).join(" ") : "";
  if (weights) {
    const names = { probability: "bayes: ship probability (percent)", positions: "density: weighted count of fitting positions", likelihood: "prob: likelihood score" };
    legend($("w-legend"), "0", weights.name === "probability" ? (max * 100).toFixed(0) + "%" : fmt(max), names[weights.name] || weights.name);
  } else {
    $("w-legend").textContent = next ? "This strategy weighs no cells (it follows an order or a list)." : "";
  }
}

function wSpeed() {
  const v = $("w-speed").value;
  $("w-speed-text").textContent = v + " steps/s";
  $("w-speed").setAttribute("aria-valuetext", v + " steps a second");
}

// --- start --------------------------------------------------------------------------
function show(view) {
  for (const v of ["helper", "play", "watch"]) {
    $("view-" + v).classList.toggle("hidden", v !== view);
    $("tab-" + v).classList.toggle("active", v === view);
    $("tab-" + v).setAttribute("aria-pressed", String(v === view));
  }
  if (view === "watch" && !W.trace) wLoad();
}

async function init() {
  for (const b of document.querySelectorAll("nav .tab")) b.addEventListener("click", () => show(b.dataset.view));
  try {
    const r = await api("GET", "/api/rules");
    PRESETS = r.presets; MEASURED = r.measured_games;
  } catch (e) { status("error: " + e.message); return; }
  fillRules($("h-rules"), "classic"); fillRules($("p-rules"), "classic"); fillRules($("w-rules"), "classic");
  fillStrategies($("w-strategy"), "classic", "density");
  $("h-rules").addEventListener("change", (e) => hSetRules(e.target.value));
  $("h-fleet").addEventListener("change", (e) => {
    const text = e.target.value.replace(/\s+/g, "");
    if (text && !/^[1-5](,[1-5])*$/.test(text)) { $("h-error").textContent = "the fleet is ship sizes from 1 to 5, e.g. 5,4,3,3,2"; return; }
    hSetFleet(text);
  });
  $("h-strategy").addEventListener("change", () => hUpdate());
  const mode = (m) => {
    H.mode = m; if (m === "cycle") H.sel = [];
    $("h-mode-cycle").classList.toggle("active", m === "cycle"); $("h-mode-cycle").setAttribute("aria-pressed", String(m === "cycle"));
    $("h-mode-sunk").classList.toggle("active", m === "sunk"); $("h-mode-sunk").setAttribute("aria-pressed", String(m === "sunk"));
    $("h-sunkbar").classList.toggle("hidden", m !== "sunk"); hRender();
  };
  $("h-mode-cycle").addEventListener("click", () => mode("cycle"));
  $("h-mode-sunk").addEventListener("click", () => mode("sunk"));
  $("h-sink").addEventListener("click", hSink);
  $("h-sel-clear").addEventListener("click", () => { H.sel = []; hRender(); });
  $("h-undo").addEventListener("click", () => { if (!H.past.length) return; H.future.push(hSnapshot()); hRestore(H.past.pop()); hUpdate(); });
  $("h-redo").addEventListener("click", () => { if (!H.future.length) return; H.past.push(hSnapshot()); hRestore(H.future.pop()); hUpdate(); });
  $("h-clear").addEventListener("click", () => hChange(() => { H.cells.fill("."); H.sunk = []; }));
  $("h-load").addEventListener("click", hLoad);
  $("p-rules").addEventListener("change", (e) => pSetRules(e.target.value));
  $("p-level").addEventListener("change", () => { pLevelInfo(); if (P.phase !== "setup") pReset("The computer's player changed: place your fleet again, then Start."); });
  $("p-placement").addEventListener("change", () => { if (P.phase !== "setup") pReset("The computer's placement changed: place your fleet again, then Start."); });
  $("p-random").addEventListener("click", pRandom);
  $("p-manual").addEventListener("click", pManual);
  $("p-turn").addEventListener("click", () => { P.dir = P.dir === "E" ? "S" : "E"; $("p-turn").textContent = "Direction: " + (P.dir === "E" ? "east" : "south"); });
  $("p-start").addEventListener("click", pStart);
  $("p-giveup").addEventListener("click", pGiveUp);
  $("p-replay").addEventListener("click", pReplay);
  $("p-r-first").addEventListener("click", () => { pReplayPause(); pReplayAt(0); });
  $("p-r-back").addEventListener("click", () => { pReplayPause(); pReplayAt(P.replay - 1); });
  $("p-r-play").addEventListener("click", pReplayPlay);
  $("p-r-fwd").addEventListener("click", () => { pReplayPause(); pReplayAt(P.replay + 1); });
  $("p-r-last").addEventListener("click", () => { pReplayPause(); pReplayAt(pTurns()); });
  $("p-r-close").addEventListener("click", () => { pStopReplay(); pRender(); });
  $("w-rules").addEventListener("change", (e) => { fillStrategies($("w-strategy"), e.target.value, $("w-strategy").value); wLoad(); });
  $("w-strategy").addEventListener("change", wLoad);
  $("w-load").addEventListener("click", wLoad);
  $("w-play").addEventListener("click", wPlay);
  $("w-fwd").addEventListener("click", () => { wPause(); wGo(W.k + 1); });
  $("w-back").addEventListener("click", () => { wPause(); wGo(W.k - 1); });
  $("w-first").addEventListener("click", () => { wPause(); wGo(0); });
  $("w-last").addEventListener("click", () => { wPause(); wGo(Infinity); });
  $("w-pos").addEventListener("input", (e) => { wPause(); wGo(Number(e.target.value)); });
  $("w-speed").addEventListener("input", wSpeed);
  hSetRules("classic");
  pSetRules("classic");
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", init);
