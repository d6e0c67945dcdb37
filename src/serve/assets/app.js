// tabletop-sim's play page: a new game form, then one human seat's view of its game.
// Everything comes from this server's JSON API (see src/serve/mod.rs); nothing else is
// loaded. The board is SVG drawn by the server from the seat's own observation.
"use strict";

const $ = (id) => document.getElementById(id);
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
  $("title").textContent = `${v.game}, ${v.players} players · you are seat ${v.seat} · ply ${v.ply}, round ${v.round}`;
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
  for (const m of v.moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.name;
    b.dataset.action = m.id;
    b.className = "move";
    moves.append(b);
  }
  $("undo").disabled = !v.can_undo;
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

async function show() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has("game")) {
    $("setup").hidden = false;
    $("play").hidden = true;
    status("");
    return;
  }
  current = { id: Number(p.get("game")), seat: Number(p.get("seat") || 0) };
  $("setup").hidden = true;
  $("play").hidden = false;
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

document.addEventListener("click", (ev) => {
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
  $("home").addEventListener("click", () => { location.hash = ""; });
  window.addEventListener("hashchange", show);
  fillPlayers();
  show();
}

init().catch((e) => status(e.message, true));
