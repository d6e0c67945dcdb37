// tabletop-sim's play page: a new game form, then one human seat's view of its game.
// Everything comes from this server's JSON API (see src/serve/mod.rs); nothing else is
// loaded. The board is SVG drawn by the server from the seat's own observation.
"use strict";

const $ = (id) => document.getElementById(id);
// Rounds started so far, as the terminal names them (crate::games::log::round_label):
// `setup` before the first round (Q.A.X.'s round 0), `round N` after.
const roundLabel = (r) => (r === 0 ? "setup" : `round ${r}`);
let catalog = null;
let current = { id: null, seat: 0 };

function status(text, error) {
  const s = $("status");
  s.textContent = text || "";
  s.className = error ? "error" : "";
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function gameInfo() {
  return catalog.games.find((g) => g.name === $("game").value);
}

function fillPlayers() {
  const g = gameInfo();
  $("game-description").textContent = g.description;
  const p = $("players");
  p.replaceChildren();
  for (let n = g.players[0]; n <= g.players[1]; n++) p.append(option(n, n));
  p.value = g.default_players;
  fillSeats();
}

function fillSeats() {
  const g = gameInfo();
  const n = Number($("players").value);
  const box = $("seats");
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    const l = document.createElement("label");
    l.textContent = `seat ${s}: `;
    const sel = document.createElement("select");
    sel.id = `seat-${s}`;
    sel.append(option(catalog.human, "you (human)"));
    for (const a of catalog.agents) sel.append(option(a, a));
    sel.value = s === 0 ? catalog.human : g.default_ai;
    l.append(sel);
    box.append(l);
  }
}

async function startGame(ev) {
  ev.preventDefault();
  const n = Number($("players").value);
  const seats = [];
  for (let s = 0; s < n; s++) seats.push($(`seat-${s}`).value);
  const variant = $("variant").value.split(",").map((x) => x.trim()).filter((x) => x);
  status("starting…");
  try {
    const { id } = await api("POST", "/api/games", {
      game: $("game").value, players: n, seats, seed: Number($("seed").value) || 0, variant,
    });
    location.hash = `game=${id}&seat=${seats.indexOf(catalog.human)}`;
  } catch (e) {
    status(e.message, true);
  }
}

async function loadPosition(ev) {
  ev.preventDefault();
  const f = $("load-file").files[0];
  if (!f) return status("choose a position file first", true);
  try {
    const { id } = await api("POST", "/api/load", { text: await f.text() });
    location.hash = `game=${id}&seat=0`;
  } catch (e) {
    status(e.message, true);
  }
}

function render(v) {
  $("title").textContent = `${v.game}, ${v.players} players · you are seat ${v.seat} · ply ${v.ply}, ${roundLabel(v.round)}`;
  const sw = $("seat-switch");
  sw.replaceChildren();
  if (v.humans.length > 1) {
    sw.append("Human seats: ");
    for (const h of v.humans) {
      const a = document.createElement("a");
      a.href = `#game=${current.id}&seat=${h}`;
      a.textContent = h === v.seat ? `[seat ${h}]` : `seat ${h}`;
      sw.append(a, " ");
    }
  }
  $("board").innerHTML = v.board || "";
  $("view").textContent = v.view;
  const seats = v.seats.map((s, i) => `seat ${i}: ${s}`).join(" · ");
  let turn;
  if (v.terminal) turn = "The game is over.";
  else if (v.moves.length) turn = "Your move:";
  else if (v.chosen) turn = `You chose ${v.chosen}; waiting for seat(s) ${v.actors.join(", ")}.`;
  else turn = `Waiting for seat(s) ${v.actors.join(", ")}.`;
  $("turn").textContent = `${turn}  (${seats})`;
  const moves = $("moves");
  moves.replaceChildren();
  // A group's moves (Daimyo's dice, an island's sites) share one row under its heading,
  // placed where its first move is; each keeps its own button, titled with the full name.
  const groups = new Map();
  for (const m of v.moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.group ? m.group[1] : m.name;
    b.title = m.name;
    b.dataset.action = m.id;
    b.className = "move";
    if (!m.group) {
      moves.append(b);
      continue;
    }
    let row = groups.get(m.group[0]);
    if (!row) {
      row = document.createElement("div");
      row.className = "move-group";
      const head = document.createElement("span");
      head.textContent = `${m.group[0]}:`;
      row.append(head);
      groups.set(m.group[0], row);
      moves.append(row);
    }
    row.append(b);
  }
  $("undo").disabled = !v.can_undo;
  $("ask").hidden = !v.moves.length;
  $("save").href = `/api/games/${current.id}/position`;
  const res = $("result");
  if (v.result) {
    const lines = v.result.scores.map((s, i) => `seat ${i}: ${s} points, rank ${v.result.ranks[i]}`);
    res.textContent = `Result (${v.result.end}):\n${lines.join("\n")}\n${v.result.breakdown.join("\n")}`;
  } else res.textContent = "";
  const log = $("log");
  log.replaceChildren();
  for (const line of v.log) {
    const li = document.createElement("li");
    li.textContent = line;
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
  document.body.dataset.ply = v.ply;
  document.body.dataset.terminal = v.terminal;
}

const SECTIONS = ["setup", "play", "results", "folder", "replay"];
function only(id) {
  for (const s of SECTIONS) $(s).hidden = s !== id;
}

async function show() {
  const p = new URLSearchParams(location.hash.slice(1));
  $("ask-result").replaceChildren();
  try {
    if (location.hash === "#results") return await showResults();
    if (p.has("folder")) return await showFolder(p.get("folder"), Number(p.get("offset") || 0));
    if (p.has("replay")) return await showReplay(Number(p.get("replay")), Number(p.get("step") || 0), p.get("seat") || "all");
  } catch (e) {
    return status(e.message, true);
  }
  if (!p.has("game")) {
    only("setup");
    status("");
    return;
  }
  current = { id: Number(p.get("game")), seat: Number(p.get("seat") || 0) };
  only("play");
  try {
    render(await api("GET", `/api/games/${current.id}?seat=${current.seat}`));
    status("");
  } catch (e) {
    status(e.message, true);
  }
}

let busy = false;
async function play(action) {
  if (busy) return;
  busy = true;
  document.body.dataset.busy = "true";
  status("the AI is thinking…");
  try {
    render(await api("POST", `/api/games/${current.id}/act`, { seat: current.seat, action: Number(action) }));
    status("");
  } catch (e) {
    status(e.message, true);
  } finally {
    busy = false;
    document.body.dataset.busy = "false";
  }
}

async function undo() {
  try {
    render(await api("POST", `/api/games/${current.id}/undo`, { seat: current.seat }));
    status("undone");
  } catch (e) {
    status(e.message, true);
  }
}

// ---- Asking an agent about the human seat's decision (`sim analyze` on the page) ----

function statsTable(seatStats) {
  const t = document.createElement("table");
  t.className = "data stats";
  const head = t.createTHead().insertRow();
  for (const h of ["move", "id", "visits", "share", "value", "probability"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  const body = t.createTBody();
  const fmt = (x, d) => (x === null || x === undefined ? "–" : x.toFixed(d));
  for (const m of seatStats.moves) {
    const r = body.insertRow();
    if (m.played) r.className = "played";
    const cells = [m.name, String(m.id), m.visits === null ? "–" : String(m.visits),
      m.share === null ? "–" : `${(100 * m.share).toFixed(1)}%`, fmt(m.value, 4), fmt(m.probability, 4)];
    cells.forEach((c, i) => {
      const td = r.insertCell();
      td.textContent = c;
      if (i > 0) td.className = "num";
    });
  }
  return t;
}

async function ask() {
  status("the agent is thinking…");
  try {
    const a = await api("POST", `/api/games/${current.id}/analyze`, { seat: current.seat, agent: $("ask-agent").value });
    const box = $("ask-result");
    const p = document.createElement("p");
    p.textContent = a.has_stats
      ? `${a.agent} (seat ${a.seat}); its favourite is marked. The same numbers: save the position, then ${a.command}`
      : `${a.agent} keeps no statistics; the legal moves:`;
    box.replaceChildren(p, statsTable(a));
    status("");
  } catch (e) {
    status(e.message, true);
  }
}

// ---- Result folders ----

function fileLink(dir, name) {
  const a = document.createElement("a");
  a.href = `/results/file?dir=${encodeURIComponent(dir)}&name=${encodeURIComponent(name)}`;
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = name;
  return a;
}

function folderLink(dir) {
  const a = document.createElement("a");
  a.href = `#folder=${encodeURIComponent(dir)}`;
  a.textContent = dir;
  return a;
}

async function showResults() {
  only("results");
  const r = await api("GET", "/api/results");
  $("results-root").textContent = r.folders.length
    ? `Folders under ${r.root} (sim serve --results DIR names another).`
    : `No result folders under ${r.root}; write some with sim tournament --out ${r.root}/NAME, or start sim serve --results DIR.`;
  const body = $("folders").tBodies[0];
  body.replaceChildren();
  for (const f of r.folders) {
    const row = body.insertRow();
    row.insertCell().append(folderLink(f.dir));
    row.insertCell().textContent = f.kind;
    row.insertCell().textContent = f.tournament ? `${f.tournament.game}, ${f.tournament.players}p` : "";
    row.insertCell().textContent = f.tournament ? f.tournament.agents.map((a) => a.split(":")[0]).join(", ") : "";
    row.insertCell().textContent = f.tournament ? f.tournament.games : "";
    const c = row.insertCell();
    c.className = "files";
    for (const n of f.files.filter((n) => /^report\.(html|md)$/.test(n))) c.append(fileLink(f.dir, n));
  }
  status("");
}

async function showFolder(dir, offset) {
  only("folder");
  const f = await api("GET", `/api/results/folder?dir=${encodeURIComponent(dir)}&offset=${offset}&limit=100`);
  current.folder = f;
  $("folder-title").textContent = `${f.dir} (${f.kind})`;
  $("folder-command").textContent = f.tournament ? `Rerun: ${f.tournament.command}` : "";
  const files = $("folder-files");
  files.replaceChildren("Files: ");
  files.className = "files";
  for (const n of f.files) files.append(fileLink(f.dir, n));
  const sub = $("folder-sub");
  sub.replaceChildren();
  if (f.subfolders.length) {
    sub.append("Tournaments inside: ");
    for (const s of f.subfolders) sub.append(folderLink(s), " ");
  }
  $("folder-replay").hidden = !f.replayable;
  if (f.tournament) $("replay-index").max = f.tournament.games - 1;
  const errs = $("folder-errors");
  errs.replaceChildren();
  if (f.errors.length) {
    const h = document.createElement("h3");
    h.textContent = `Failed games (errors.csv): ${f.errors.length}`;
    errs.append(h, gamesTable(["game", "seats", "ply", "message"], f.errors.map((e) => [e.game, e.seats, e.ply, e.message]), f.errors.map((e) => e.game)));
  }
  const games = $("folder-games");
  games.replaceChildren();
  const h = document.createElement("h3");
  if (f.has_games) {
    h.textContent = `Games (games.csv): ${f.games_in_file}, showing ${f.offset} to ${f.offset + f.games_listed.length - 1}`;
    const rows = f.games_listed.map((g) => [g.game, g.seats.map((s, i) => `seat ${i} ${s[0]}: ${s[1]}${s[3] ? " (won)" : ""}`).join(" · "), g.plies, g.end]);
    games.append(h, gamesTable(["game", "seats: agent, score", "plies", "end"], rows, f.games_listed.map((g) => g.game)));
    const nav = document.createElement("p");
    if (f.offset > 0) {
      const a = document.createElement("a");
      a.href = `#folder=${encodeURIComponent(dir)}&offset=${Math.max(0, f.offset - 100)}`;
      a.textContent = "previous 100";
      nav.append(a, " ");
    }
    if (f.offset + f.games_listed.length < f.games_in_file) {
      const a = document.createElement("a");
      a.href = `#folder=${encodeURIComponent(dir)}&offset=${f.offset + 100}`;
      a.textContent = "next 100";
      nav.append(a);
    }
    games.append(nav);
  } else if (f.replayable) {
    h.textContent = "No games.csv here (it is not committed): rerun the command above to list the games, or replay any index.";
    games.append(h);
  }
  status("");
}

function gamesTable(header, rows, indices) {
  const t = document.createElement("table");
  t.className = "data games";
  const head = t.createTHead().insertRow();
  for (const x of ["", ...header]) {
    const th = document.createElement("th");
    th.textContent = x;
    head.append(th);
  }
  const body = t.createTBody();
  rows.forEach((r, i) => {
    const row = body.insertRow();
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "replay";
    b.className = "replay-game";
    b.dataset.index = indices[i];
    row.insertCell().append(b);
    for (const c of r) row.insertCell().textContent = c;
  });
  return t;
}

async function openReplay(index) {
  status("replaying the game…");
  try {
    const { id } = await api("POST", "/api/replays", { dir: current.folder.dir, index: Number(index) });
    location.hash = `replay=${id}&step=0&seat=all`;
  } catch (e) {
    status(e.message, true);
  }
}

// ---- Replays ----

let replay = { id: null, step: 0, seat: "all", steps: 0 };

function replayHash(step, seat) {
  return `replay=${replay.id}&step=${step}&seat=${seat}`;
}

async function showReplay(id, step, seat) {
  only("replay");
  const q = seat === "all" ? "" : `&seat=${seat}`;
  const v = await api("GET", `/api/replays/${id}?step=${step}${q}`);
  replay = { id, step: v.step, seat, steps: v.steps };
  $("replay-title").textContent = `${v.game}, ${v.players} players · ${v.dir}, game ${v.index} · ${v.seats.map((s, i) => `seat ${i}: ${s.split(":")[0]}`).join(" · ")}`;
  const sel = $("r-seat");
  if (sel.options.length !== v.players + 1) {
    sel.replaceChildren(option("all", "omniscient (everything)"));
    for (let s = 0; s < v.players; s++) sel.append(option(String(s), `seat ${s} (${v.seats[s].split(":")[0]})`));
  }
  sel.value = seat;
  $("r-slider").max = v.steps;
  $("r-slider").value = v.step;
  $("r-step").textContent = `ply ${v.ply} of ${v.steps} · ${roundLabel(v.round)}${v.terminal ? " · the end" : ""}`;
  $("r-first").disabled = $("r-prev").disabled = v.step === 0;
  $("r-next").disabled = $("r-last").disabled = v.step >= v.steps;
  $("r-analyze").disabled = v.step >= v.steps;
  $("r-failure").textContent = v.failure ? `This game failed: ${v.failure}` : "";
  $("r-next-ply").textContent = v.next ? `next: ${v.next}` : "";
  $("r-position").href = `/api/replays/${id}/position?step=${v.step}`;
  $("r-command").textContent = `then: sim analyze --game ${v.game} --state ${v.game}-step${v.step}-position.json --agent SPEC`;
  $("r-stats").replaceChildren();
  const res = $("r-result");
  if (v.result) {
    const lines = v.result.scores.map((s, i) => `seat ${i}: ${s} points, rank ${v.result.ranks[i]}`);
    res.textContent = `Result (${v.result.end}):\n${lines.join("\n")}\n${v.result.breakdown.join("\n")}`;
  } else res.textContent = "";
  const boards = $("r-boards");
  boards.replaceChildren();
  for (const b of v.boards) {
    if (!b.svg) continue;
    const d = document.createElement("div");
    d.className = "seat-board";
    const h = document.createElement("h4");
    h.textContent = `seat ${b.seat} sees`;
    const inner = document.createElement("div");
    inner.innerHTML = b.svg;
    // A replay's board is for looking: its move targets do nothing here.
    for (const el of inner.querySelectorAll("[data-action]")) {
      el.removeAttribute("data-action");
      el.classList.remove("clickable");
    }
    d.append(h, inner);
    boards.append(d);
  }
  $("r-text-summary").textContent = seat === "all" ? "The whole state (text)" : `What seat ${seat} sees (text)`;
  $("r-text").textContent = v.text;
  const log = $("r-log");
  log.replaceChildren();
  for (const line of v.log) {
    const li = document.createElement("li");
    li.textContent = line;
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
  document.body.dataset.replayStep = v.step;
  document.body.dataset.replaySeat = seat;
  status("");
}

function stepTo(step) {
  const s = Math.max(0, Math.min(replay.steps, step));
  location.hash = replayHash(s, replay.seat);
}

async function analyzeStep() {
  status("rerunning the agents' search…");
  try {
    const a = await api("GET", `/api/replays/${replay.id}/analyze?step=${replay.step}`);
    const box = $("r-stats");
    box.replaceChildren();
    for (const s of a.seats) {
      const p = document.createElement("p");
      p.textContent = s.has_stats
        ? `Seat ${s.seat} (${s.agent}) at ply ${a.ply}: the move played is marked.`
        : `Seat ${s.seat} (${s.agent}) keeps no statistics; the move played is marked.`;
      box.append(p, statsTable(s));
    }
    status("");
  } catch (e) {
    status(e.message, true);
  }
}

document.addEventListener("click", (ev) => {
  const r = ev.target.closest("button.replay-game");
  if (r) return openReplay(r.dataset.index);
  const t = ev.target.closest("[data-action]");
  if (t && ($("moves").contains(t) || $("board").contains(t))) play(t.dataset.action);
});

async function init() {
  catalog = await api("GET", "/api/games");
  for (const g of catalog.games) $("game").append(option(g.name, g.name));
  $("game").addEventListener("change", fillPlayers);
  $("players").addEventListener("change", fillSeats);
  $("new-game").addEventListener("submit", startGame);
  $("load-form").addEventListener("submit", loadPosition);
  $("undo").addEventListener("click", undo);
  for (const a of catalog.agents) $("ask-agent").append(option(a, a));
  $("ask-agent").value = catalog.agents.includes("mcts") ? "mcts" : catalog.agents[0];
  $("ask-button").addEventListener("click", ask);
  $("replay-go").addEventListener("click", () => openReplay($("replay-index").value));
  $("r-first").addEventListener("click", () => stepTo(0));
  $("r-prev").addEventListener("click", () => stepTo(replay.step - 1));
  $("r-next").addEventListener("click", () => stepTo(replay.step + 1));
  $("r-last").addEventListener("click", () => stepTo(replay.steps));
  $("r-slider").addEventListener("change", () => stepTo(Number($("r-slider").value)));
  $("r-seat").addEventListener("change", () => { location.hash = replayHash(replay.step, $("r-seat").value); });
  $("r-analyze").addEventListener("click", analyzeStep);
  document.addEventListener("keydown", (ev) => {
    if ($("replay").hidden || ev.target.closest("input, select")) return;
    if (ev.key === "ArrowRight") stepTo(replay.step + 1);
    else if (ev.key === "ArrowLeft") stepTo(replay.step - 1);
    else if (ev.key === "Home") stepTo(0);
    else if (ev.key === "End") stepTo(replay.steps);
  });
  $("home").addEventListener("click", () => { location.hash = ""; });
  window.addEventListener("hashchange", show);
  fillPlayers();
  show();
}

init().catch((e) => status(e.message, true));
