// Measures the AI's reply time in `sim serve` (issue 25's target): for each game, plays
// games at the default player count with seat 0 human (a uniformly random legal move,
// from a fixed stream) against the page's default AI (`mcts` with the game's defaults)
// through the HTTP API, until at least DECISIONS AI decisions were timed, and prints the
// 50th and 95th percentiles and the maximum of the server's own per-decision timings
// (`GET /api/games/{id}/timing`: the wall clock around the agent's `act`, and the deciding
// thread's on-CPU time, which does not grow when other processes share the cores).
//
// It also prints the 1-, 5- and 15-minute load averages before and after, since the wall
// clock depends on what else runs on the machine (the thread CPU time much less).
//
// Usage: node tests/browser/reply-time.mjs target/release/sim [DECISIONS=200]
// Not part of CI (minutes of search on 2 cores). The last committed output is
// tests/browser/reply-time.txt.
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";

const sim = process.argv[2] || "target/release/sim";
const decisions = Number(process.argv[3] || 200);
const games = (process.env.GAMES || "daxu,dunhuang,qax,daimyo").split(",");

const server = spawn(sim, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve) => {
  let t = "";
  server.stdout.on("data", (d) => {
    t += d;
    const m = t.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) resolve(m[0]);
  });
});
async function api(method, path, body) {
  const r = await fetch(base + path.slice(1), {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const d = await r.json();
  if (!r.ok) throw new Error(d.error);
  return d;
}
const load = () => loadavg().map((l) => l.toFixed(2)).join(", ");
console.log(`${new Date().toISOString()}: ${sim}, ${cpus().length} cores, load average ${load()}`);
let x = 7;
const next = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
const pct = (a, p) => a[Math.min(a.length - 1, Math.ceil((p / 100) * a.length) - 1)];

for (const game of games) {
  const times = [];
  const cpu = [];
  let played = 0;
  for (let seed = 0; times.length < decisions; seed++) {
    const { id } = await api("POST", "/api/games", { game, seats: ["human"], seed });
    let v = await api("GET", `/api/games/${id}?seat=0`);
    while (!v.terminal && times.length + (await api("GET", `/api/games/${id}/timing`)).ai_millis.length < decisions) {
      v = await api("POST", `/api/games/${id}/act`, { seat: 0, action: v.moves[next(v.moves.length)].id });
    }
    const timing = await api("GET", `/api/games/${id}/timing`);
    times.push(...timing.ai_millis);
    cpu.push(...timing.ai_cpu_millis);
    played++;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const players = (await api("GET", "/api/games")).games.find((g) => g.name === game).default_players;
  const line = (a) => `p50 ${pct(a, 50).toFixed(1)} ms, p95 ${pct(a, 95).toFixed(1)} ms, max ${a[a.length - 1].toFixed(1)} ms`;
  console.log(`${game}: ${times.length} AI decisions in ${played} games (${players} players): wall clock ${line(times)}; thread CPU ${cpu.length ? line(cpu) : "not reported"}`);
}
console.log(`load average after: ${load()}`);
server.kill();
