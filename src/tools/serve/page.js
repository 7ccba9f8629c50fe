// Spot the ships: the page of `spot-the-ships serve`. Three views (Helper, Play,
// Watch); every request goes to the server that sent this page, nowhere else.
"use strict";

const $ = (id) => document.getElementById(id);
let PRESETS = [];
let STRATEGIES = [];

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

function fillRules(select, chosen, straightOnly) {
  select.innerHTML = "";
  for (const p of PRESETS) {
    if (straightOnly && !p.straight) continue;
    const o = document.createElement("option");
    o.value = p.name; o.textContent = p.name + " (" + p.rows + "x" + p.cols + ")";
    if (p.name === chosen) o.selected = true;
    select.appendChild(o);
  }
}

function fillStrategies(select, chosen) {
  select.innerHTML = "";
  for (const s of STRATEGIES) {
    const o = document.createElement("option");
    o.value = s; o.textContent = s; if (s === chosen) o.selected = true;
    select.appendChild(o);
  }
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

// A grid of rows x cols cells with row and column numbers; returns the cells, row-major.
function makeGrid(el, rows, cols, onClick) {
  el.innerHTML = "";
  el.style.gridTemplateColumns = "repeat(" + (cols + 1) + ", auto)";
  el.classList.toggle("small", rows > 20 || cols > 20);
  el.classList.toggle("medium", !(rows > 20 || cols > 20) && (rows > 12 || cols > 12));
  const corner = document.createElement("div"); corner.className = "cell head"; el.appendChild(corner);
  for (let c = 0; c < cols; c++) {
    const h = document.createElement("div"); h.className = "cell head"; h.textContent = c; el.appendChild(h);
  }
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const h = document.createElement("div"); h.className = "cell head"; h.textContent = r; el.appendChild(h);
    for (let c = 0; c < cols; c++) {
      const d = document.createElement("div");
      d.className = "cell"; d.dataset.r = r; d.dataset.c = c; d.id = el.id + "-" + r + "-" + c;
      if (onClick) d.addEventListener("click", (e) => onClick(r, c, e));
      el.appendChild(d); cells.push(d);
    }
  }
  return cells;
}

function paintCell(d, cls, value, t, title) {
  d.className = "cell" + (cls ? " " + cls : "");
  d.style.background = t === null ? "" : heat(t);
  d.style.color = t !== null && t > 0.62 ? "#fff" : "";
  d.textContent = value;
  d.title = title;
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
  H.rules = name; H.rows = p.rows; H.cols = p.cols;
  H.cells = new Array(p.rows * p.cols).fill("."); H.sunk = []; H.past = []; H.future = []; H.sel = [];
  H.els = makeGrid($("h-grid"), H.rows, H.cols, hClick);
  const strat = $("h-strategy");
  if (name === "problem-g") strat.value = "prob"; else strat.value = "bayes";
  hUpdate();
}

function hClick(r, c) {
  const i = r * H.cols + c;
  if (H.mode === "sunk") {
    const k = H.sel.indexOf(i);
    if (k >= 0) H.sel.splice(k, 1); else if (H.cells[i] !== "#") H.sel.push(i);
    hRender(); return;
  }
  const next = { ".": "X", "X": "+", "+": ".", "#": "#" }[H.cells[i]];
  if (next === H.cells[i]) return;
  hChange(() => { H.cells[i] = next; });
}

// The ships: the preset's, or the sizes typed in the fleet box (named by size).
function hShips() {
  if (!H.fleet) return preset(H.rules).rules.ships;
  return H.fleet.split(",").map((x) => Number(x.trim())).sort((a, b) => b - a).map((n, k) => ({ name: "ship " + (k + 1) + " (" + n + ")", size: n }));
}

function hAfloat() {
  const left = hShips().map((s) => ({ ...s }));
  for (const s of H.sunk) {
    const k = left.findIndex((x) => x.name === s.name);
    if (k >= 0) left.splice(k, 1);
  }
  return left;
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
  for (const s of hAfloat()) { const o = document.createElement("option"); o.value = s.name; o.textContent = s.name + " (" + s.size + ")"; sunkNames.appendChild(o); }
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
    if (afloat.length === 0) { $("h-info").textContent = "every ship is sunk"; $("h-error").textContent = ""; return; }
    body.afloat = afloat.join(",");
  }
  const seq = ++H.seq;
  status("advising…");
  api("POST", "/api/advise", body).then((a) => {
    if (seq !== H.seq) return;
    H.advice = a; $("h-error").textContent = ""; hRender(); status("advised #" + seq);
  }).catch((e) => {
    if (seq !== H.seq) return;
    $("h-error").textContent = e.message; status("advised #" + seq + " (error)");
  });
}

function cellName(i, cols) { return "(" + Math.floor(i / cols) + "," + (i % cols) + ")"; }

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
    let text = "", t = null, title = "(" + r + "," + c + ")";
    const v = a && a[key][r] ? a[key][r][c] : null;
    delete d.dataset.v;
    if (s === "." && v !== null && v !== undefined) {
      d.dataset.v = String(v);
      if (key === "probability") {
        const pct = v >= 1 ? 100 : v <= 0 ? 0 : Math.min(99, Math.max(1, Math.round(v * 100)));
        text = String(pct); t = max > 0 ? Math.min(1, v / max) : 0; title += ": ship probability " + (v * 100).toFixed(1) + "%";
        if (v >= 1) { cls = "cship"; cship.push(title.split(":")[0]); }
        if (v <= 0) { cls = "cwater"; cwater.push(title.split(":")[0]); }
      } else {
        text = String(v); t = max > 0 && v > 0 ? v / max : 0; title += ": likelihood score " + v;
        if (v < 0) { cls = "cwater"; text = ""; t = null; cwater.push(title.split(":")[0]); }
      }
    }
    if (a && a.suggest && a.suggest[0] === r && a.suggest[1] === c) cls += " suggest";
    if (H.sel.includes(i)) cls += " sel";
    paintCell(d, cls, text, t, title);
  }
  $("h-suggest").textContent = a ? (a.suggest ? "(" + a.suggest[0] + "," + a.suggest[1] + ")" : "none") : "…";
  $("h-cship").textContent = a ? (cship.join(" ") || "none") : "…";
  $("h-cwater").textContent = a ? (cwater.join(" ") || "none") : "…";
  $("h-sel").textContent = H.sel.length ? H.sel.map((i) => cellName(i, H.cols)).join(" ") : "none";
  if (a) {
    const how = a.method === "exact" ? "exact over " + a.layouts + " layouts"
      : a.method === "sampled" ? "sampled (" + a.layouts + " layouts in all, estimated)" : "likelihood scores (prob)";
    $("h-info").textContent = (key === "probability" ? "Ship probability per cell, percent: " : "prob's likelihood: row score + column score: ") + how + ".";
    if (key === "probability") legend($("h-legend"), "0%", (max * 100).toFixed(1) + "%", "ship probability (darkest: the highest not certain)");
    else legend($("h-legend"), "0", String(max), "likelihood score");
  }
}

function hLoad() {
  const lines = $("h-text").value.replace(/\r/g, "").split("\n").filter((l) => l.length > 0);
  const ok = lines.length === H.rows && lines.every((l) => l.length === H.cols && /^[.Xx+#]*$/.test(l));
  if (!ok) { $("h-error").textContent = "the text must be " + H.rows + " rows of " + H.cols + " characters . X + # (the rules' bay)"; return; }
  hChange(() => { H.cells = lines.join("").toUpperCase().split(""); H.sunk = H.sunk.filter((s) => s.cells.every((i) => H.cells[i] === "#")); });
}

// --- Play ---------------------------------------------------------------------------
const P = { rules: "classic", rows: 10, cols: 10, mine: [], ships: null, placing: false, dir: "E", trace: null,
            token: null, enemy: [], myMoves: [], k: 0, done: false, elsE: [], elsM: [], timer: null, busy: false };

function pSetRules(name) {
  const p = preset(name); if (!p) return;
  Object.assign(P, { rules: name, rows: p.rows, cols: p.cols, mine: new Array(p.rows * p.cols).fill(false), ships: null,
                     placing: false, trace: null, token: null, myMoves: [], k: 0, done: false });
  P.enemy = new Array(p.rows * p.cols).fill(".");
  P.elsE = makeGrid($("p-enemy"), p.rows, p.cols, pProbe);
  P.elsM = makeGrid($("p-mine"), p.rows, p.cols, pPlace);
  $("p-manual").disabled = !p.straight; $("p-turn").disabled = !p.straight;
  $("p-replay").disabled = true; $("p-you").textContent = ""; $("p-them").textContent = "";
  pMsg("Place your fleet (at random" + (p.straight ? ", or by clicking cells of your bay" : "") + "), then Start.");
  pRender();
}

function pMsg(t) { $("p-msg").textContent = t; }
function pFleet() { return preset(P.rules).rules.ships; }

async function pRandom() {
  pSetRules(P.rules);
  const seed = Math.floor(Math.random() * 1e9);
  try {
    P.trace = await api("GET", "/api/trace?rules=" + P.rules + "&strategy=" + $("p-strategy").value + "&seed=" + seed);
    const grid = P.trace.judge.grid.join("");
    P.mine = grid.split("").map((ch) => ch === "+");
    pMsg("Your fleet is placed. Start when ready."); pRender();
  } catch (e) { pMsg("error: " + e.message); }
}

function pManual() {
  pSetRules(P.rules); P.placing = true; P.ships = [];
  pMsg("Click a cell of your bay for the " + pFleet()[0].name + " (" + pFleet()[0].size + " cells, running " + (P.dir === "E" ? "east" : "south") + ").");
}

function pPlace(r, c) {
  if (!P.placing) return;
  const fleet = pFleet(), ship = fleet[P.ships.length]; if (!ship) return;
  const touch = preset(P.rules).rules.touch;
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
  P.ships.push(r + "," + c + "," + ship.size + "," + P.dir);
  const next = fleet[P.ships.length];
  if (next) pMsg("Now the " + next.name + " (" + next.size + " cells).");
  else { P.placing = false; pMsg("Your fleet is placed. Start when ready."); }
  pRender();
}

async function pStart() {
  if (!P.mine.some((x) => x)) { pMsg("Place your fleet first."); return; }
  if (P.placing) { pMsg("Place every ship first."); return; }
  try {
    if (P.ships) P.trace = await api("GET", "/api/trace?rules=" + P.rules + "&strategy=" + $("p-strategy").value + "&seed=2021&ships=" + encodeURIComponent(P.ships.join(";")));
    const g = await api("POST", "/api/games", { rules: P.rules });
    P.token = g.token; P.enemy.fill("."); P.myMoves = []; P.k = 0; P.done = false;
    pMsg("Your turn: click a cell of the computer's bay (" + g.ship_cells + " ship cells to find).");
    $("p-start").disabled = true; pRender();
  } catch (e) { pMsg("error: " + e.message); }
}

function pComputerMove() {
  const steps = P.trace.steps;
  if (P.k >= steps.length) return null;
  const s = steps[P.k++];
  return s;
}

async function pProbe(r, c) {
  if (!P.token || P.done || P.busy) return;
  const i = r * P.cols + c;
  if (P.enemy[i] !== ".") return;
  P.busy = true;
  try {
    const a = await api("POST", "/api/games/" + P.token + "/probe", { r, c });
    P.enemy[i] = a.answer === "miss" ? "X" : "+";
    P.myMoves.push({ r, c, answer: a.answer, ship: a.ship });
    let said = "You: (" + r + "," + c + ") " + a.reply + ".";
    const s = pComputerMove();
    if (s) said += "  Computer: (" + s.probe[0] + "," + s.probe[1] + ") " + s.answer + ".";
    if (a.done) {
      P.done = true; P.k = P.trace.steps.length;
      const mine = a.probes, theirs = P.trace.judge.scans;
      said = "Game over. You found every ship cell in " + mine + " probes; the computer (" + $("p-strategy").value + ") needed " + theirs +
        ". " + (mine < theirs ? "You win!" : mine > theirs ? "The computer wins." : "A draw.");
      $("p-replay").disabled = false; $("p-start").disabled = false;
    }
    pMsg(said); pRender();
  } catch (e) { pMsg("error: " + e.message); }
  P.busy = false;
}

function pRender(upTo) {
  const steps = P.trace ? P.trace.steps : [];
  const k = upTo === undefined ? P.k : upTo;
  const last = k > 0 ? steps[k - 1] : null;
  const grid = last ? last.grid.join("") : null;
  for (let i = 0; i < P.mine.length; i++) {
    let cls = P.mine[i] ? "ship" : "";
    if (grid) { const ch = grid[i]; if (ch === "+") cls = "hit"; else if (ch === "X") cls = "miss"; }
    if (last && last.probe[0] * P.cols + last.probe[1] === i) cls += " probe";
    paintCell(P.elsM[i], cls, "", null, cellName(i, P.cols));
  }
  const shown = upTo === undefined ? P.myMoves.length : Math.min(upTo, P.myMoves.length);
  const enemy = new Array(P.enemy.length).fill(".");
  for (const m of P.myMoves.slice(0, shown)) enemy[m.r * P.cols + m.c] = m.answer === "miss" ? "X" : "+";
  for (let i = 0; i < enemy.length; i++) {
    paintCell(P.elsE[i], { ".": "", "X": "miss", "+": "hit" }[enemy[i]], "", null, cellName(i, P.cols));
  }
  const lastMine = shown > 0 ? P.myMoves[shown - 1] : null;
  if (lastMine) P.elsE[lastMine.r * P.cols + lastMine.c].classList.add("probe");
  $("p-you").textContent = "Your probes: " + shown + (P.done ? " (done)" : "");
  $("p-them").textContent = "The computer's probes: " + k + (P.trace && k >= steps.length ? " (done)" : "");
}

function pReplay() {
  if (!P.trace) return;
  clearInterval(P.timer);
  const total = Math.max(P.myMoves.length, P.trace.steps.length);
  let t = 0;
  P.timer = setInterval(() => {
    pRender(t);
    pMsg("Replay: turn " + t + " of " + total);
    if (++t > total) { clearInterval(P.timer); pRender(); }
  }, 120);
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
    W.els = makeGrid($("w-grid"), W.rows, W.cols, null);
    $("w-pos").max = W.trace.steps.length; W.k = 0; wRender(); status("traced");
  } catch (e) { $("w-info").textContent = "error: " + e.message; status("error"); }
}

function wGo(k) { if (!W.trace) return; W.k = Math.max(0, Math.min(W.trace.steps.length, k)); wRender(); }
function wPause() { clearInterval(W.timer); W.timer = null; $("w-play").textContent = "Play"; }
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
  const elim = new Set(prev ? prev.eliminated.map((p) => p[0] * W.cols + p[1]) : []);
  for (let i = 0; i < grid.length; i++) {
    const ch = grid[i];
    let cls = { "+": "hit", "X": elim.has(i) || !prev ? "miss" : "miss", "O": "", ".": "" }[ch] || "";
    let text = "", t = null, title = cellName(i, W.cols);
    const open = ch === "." || ch === "O";
    if (ch === "O") cls = "shiphint";
    if (weights && open) {
      const v = weights.values[i];
      t = max > 0 ? v / max : 0;
      text = weights.name === "probability" ? String(Math.round(v * 100)) : (v < 0 ? "" : String(v));
      if (weights.name === "likelihood" && v < 0) t = null;
      title += ": " + weights.name + " " + v;
      if (W.rows * W.cols > 400) text = "";
    }
    if (next && next.probe[0] * W.cols + next.probe[1] === i) cls += " suggest";
    paintCell(W.els[i], cls, text, t, title);
    if (ch === "O" && !weights) W.els[i].style.background = "#e7edf3";
  }
  $("w-pos").value = k;
  $("w-step").textContent = "step " + k + " of " + steps.length;
  let info = "";
  if (prev) info += "Scan " + prev.scan + ": (" + prev.probe[0] + "," + prev.probe[1] + ") from " + prev.source + ", " + prev.answer + ". ";
  if (next) info += "Next: (" + next.probe[0] + "," + next.probe[1] + ") from " + next.source + ". ";
  else info += "Done: every ship cell found in " + steps.length + " scans.";
  $("w-info").textContent = info;
  $("w-list").textContent = prev && prev.list ? prev.list.name + ": " + prev.list.cells.map((p) => "(" + p[0] + "," + p[1] + ")").join(" ") : "";
  if (weights) {
    const names = { probability: "bayes: ship probability (percent)", positions: "density: weighted count of fitting positions", likelihood: "prob: likelihood score" };
    legend($("w-legend"), "0", weights.name === "probability" ? (max * 100).toFixed(0) + "%" : String(max), names[weights.name] || weights.name);
  } else {
    $("w-legend").textContent = next ? "This strategy weighs no cells (it follows an order or a list)." : "";
  }
}

// --- start --------------------------------------------------------------------------
function show(view) {
  for (const v of ["helper", "play", "watch"]) {
    $("view-" + v).classList.toggle("hidden", v !== view);
    $("tab-" + v).classList.toggle("active", v === view);
  }
  if (view === "watch" && !W.trace) wLoad();
}

async function init() {
  for (const b of document.querySelectorAll("nav .tab")) b.addEventListener("click", () => show(b.dataset.view));
  try {
    const r = await api("GET", "/api/rules");
    PRESETS = r.presets; STRATEGIES = r.strategies.filter((s) => s !== "all");
  } catch (e) { status("error: " + e.message); return; }
  fillRules($("h-rules"), "classic"); fillRules($("p-rules"), "classic"); fillRules($("w-rules"), "classic");
  fillStrategies($("p-strategy"), "density"); fillStrategies($("w-strategy"), "density");
  $("h-rules").addEventListener("change", (e) => hSetRules(e.target.value));
  $("h-fleet").addEventListener("change", (e) => {
    const text = e.target.value.replace(/\s+/g, "");
    if (text && !/^[1-5](,[1-5])*$/.test(text)) { $("h-error").textContent = "the fleet is ship sizes from 1 to 5, e.g. 5,4,3,3,2"; return; }
    H.fleet = text; H.sunk = []; for (let i = 0; i < H.cells.length; i++) if (H.cells[i] === "#") H.cells[i] = "."; hUpdate();
  });
  $("h-strategy").addEventListener("change", () => hUpdate());
  $("h-mode-cycle").addEventListener("click", () => { H.mode = "cycle"; H.sel = []; $("h-mode-cycle").classList.add("active"); $("h-mode-sunk").classList.remove("active"); $("h-sunkbar").classList.add("hidden"); hRender(); });
  $("h-mode-sunk").addEventListener("click", () => { H.mode = "sunk"; $("h-mode-sunk").classList.add("active"); $("h-mode-cycle").classList.remove("active"); $("h-sunkbar").classList.remove("hidden"); });
  $("h-sink").addEventListener("click", hSink);
  $("h-sel-clear").addEventListener("click", () => { H.sel = []; hRender(); });
  $("h-undo").addEventListener("click", () => { if (!H.past.length) return; H.future.push(hSnapshot()); hRestore(H.past.pop()); hUpdate(); });
  $("h-redo").addEventListener("click", () => { if (!H.future.length) return; H.past.push(hSnapshot()); hRestore(H.future.pop()); hUpdate(); });
  $("h-clear").addEventListener("click", () => hChange(() => { H.cells.fill("."); H.sunk = []; }));
  $("h-load").addEventListener("click", hLoad);
  $("p-rules").addEventListener("change", (e) => pSetRules(e.target.value));
  $("p-random").addEventListener("click", pRandom);
  $("p-manual").addEventListener("click", pManual);
  $("p-turn").addEventListener("click", () => { P.dir = P.dir === "E" ? "S" : "E"; $("p-turn").textContent = "Direction: " + (P.dir === "E" ? "east" : "south"); });
  $("p-start").addEventListener("click", pStart);
  $("p-replay").addEventListener("click", pReplay);
  $("w-load").addEventListener("click", wLoad);
  $("w-play").addEventListener("click", wPlay);
  $("w-fwd").addEventListener("click", () => { wPause(); wGo(W.k + 1); });
  $("w-back").addEventListener("click", () => { wPause(); wGo(W.k - 1); });
  $("w-first").addEventListener("click", () => { wPause(); wGo(0); });
  $("w-last").addEventListener("click", () => { wPause(); wGo(Infinity); });
  $("w-pos").addEventListener("input", (e) => { wPause(); wGo(Number(e.target.value)); });
  hSetRules("classic");
  pSetRules("classic");
  status("ready");
}

document.addEventListener("DOMContentLoaded", init);
