// The real-browser test of `sim serve` (issue 25): starts the server on a free localhost
// port, then in Debian's chromium (driven by playwright-core) plays a complete game of
// each of the four games as seat 0 against `random` by clicking legal moves (buttons and,
// where the board offers them, board elements), undoes a move, and checks that no
// request left localhost and that the first page load weighs under 1 MB. Then it writes
// a small Daxu tournament (and its report) into a results folder of its own, opens it on
// the Results tab, replays a recorded game forwards and backwards from the omniscient
// view and from a seat's view, asks for the agents' search statistics, and checks that
// the replay ends with the scores games.csv recorded. Saves a screenshot of each board to
// target/browser/<game>.png and of the replay to target/browser/replay*.png.
//
// Usage: node tests/browser/play.mjs [path/to/sim]   (default target/debug/sim)
// Exit code 0 when every check passes; prints "N passed, N failed".
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { chromium } from "playwright-core";

const sim = process.argv[2] || "target/debug/sim";
const games = (process.env.BROWSER_GAMES || "daxu,dunhuang,qax,daimyo").split(",");
// Random Q.A.X. games run to thousands of plies; a complete game under a three-round
// limit (its `max_rounds` rule setting) is about 35 clicks.
const variants = { qax: "max_rounds=3" };
const outDir = "target/browser";
mkdirSync(outDir, { recursive: true });

let passed = 0;
let failed = 0;
function check(ok, what) {
  if (ok) {
    passed++;
    console.log(`ok: ${what}`);
  } else {
    failed++;
    console.log(`FAILED: ${what}`);
  }
}

// A results folder to browse and replay: four games of greedy against mcts (with search
// statistics to show), and its report.
const resultsDir = `${outDir}/results`;
rmSync(resultsDir, { recursive: true, force: true });
execFileSync(sim, ["tournament", "--game", "daxu", "--agents", "greedy,mcts:iters=200", "-n", "4",
  "--seed", "3", "--threads", "1", "--out", `${resultsDir}/daxu-run`], { stdio: "ignore" });
execFileSync(sim, ["report", `${resultsDir}/daxu-run`], { stdio: "ignore" });

// The server prints its address on its first line.
const server = spawn(sim, ["serve", "--port", "0", "--results", resultsDir], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  let text = "";
  server.stdout.on("data", (d) => {
    text += d;
    const m = text.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) resolve(m[0]);
  });
  server.on("exit", (code) => reject(new Error(`sim serve exited with ${code}: ${text}`)));
  setTimeout(() => reject(new Error(`sim serve printed no address: ${text}`)), 30000);
});
console.log(`server: ${base}`);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});
const page = await browser.newPage({ viewport: { width: 1000, height: 1200 } });
const foreign = [];
page.on("request", (r) => {
  const u = new URL(r.url());
  if (!(u.protocol === "data:" || u.protocol === "about:" || u.hostname === "127.0.0.1")) foreign.push(r.url());
});

try {
  // First load: every byte the page fetched until it is ready.
  const bodies = [];
  const count = (r) => bodies.push(r.body().then((b) => b.length, () => 0));
  page.on("response", count);
  await page.goto(base, { waitUntil: "networkidle" });
  page.off("response", count);
  const bytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
  console.log(`first load: ${bytes} bytes`);
  check(bytes > 0 && bytes < 1_000_000, `first load under 1 MB (${bytes} bytes)`);

  // Rule out a seeded pick: the moves are chosen by a fixed linear congruential stream.
  let x = 12345;
  const next = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };

  for (const game of games) {
    await page.goto(base);
    await page.waitForSelector("#game option", { state: "attached" });
    await page.selectOption("#game", game);
    const seats = await page.$$eval("#seats select", (s) => s.length);
    for (let s = 1; s < seats; s++) await page.selectOption(`#seat-${s}`, "random");
    await page.fill("#variant", variants[game] || "");
    await page.click("#start");
    await page.waitForSelector("#play:not([hidden])");
    await page.waitForFunction(() => document.body.dataset.ply !== undefined);
    let clicks = 0;
    let undone = false;
    let shot = false;
    let boardClicks = 0;
    while ((await page.getAttribute("body", "data-terminal")) !== "true" && clicks < 3000) {
      const buttons = await page.$$("#moves button.move");
      const onBoard = await page.$$("#board [data-action]");
      if (buttons.length === 0) throw new Error(`${game}: no move to click at a non-terminal page`);
      const useBoard = onBoard.length > 0 && next(3) === 0;
      const target = useBoard ? onBoard[next(onBoard.length)] : buttons[next(buttons.length)];
      if (useBoard) boardClicks++;
      const plyBefore = Number(await page.getAttribute("body", "data-ply"));
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/act")),
        target.click(),
      ]);
      await page.waitForSelector('body[data-busy="false"]');
      clicks++;
      if (clicks === 3 && !undone) {
        undone = true;
        await Promise.all([page.waitForResponse((r) => r.url().endsWith("/undo")), page.click("#undo")]);
        await page.waitForFunction((p) => Number(document.body.dataset.ply) === p, plyBefore);
        check(Number(await page.getAttribute("body", "data-ply")) === plyBefore, `${game}: undo returns to ply ${plyBefore}`);
      }
      if (clicks === 8 && !shot) {
        shot = true;
        await page.locator("#play").screenshot({ path: `${outDir}/${game}.png` });
      }
    }
    const terminal = (await page.getAttribute("body", "data-terminal")) === "true";
    check(terminal, `${game}: a complete game in ${clicks} clicks (${boardClicks} on the board)`);
    const result = await page.textContent("#result");
    check(/Result/.test(result), `${game}: the result is shown`);
    await page.locator("#play").screenshot({ path: `${outDir}/${game}-end.png` });
  }
  // Replay a recorded game of the results folder.
  await page.goto(`${base}#results`);
  await page.waitForSelector('#folders a[href="#folder=daxu-run"]');
  const reports = await page.$$eval("#folders td.files a", (as) => as.map((a) => a.textContent));
  check(reports.includes("report.html"), `the results list links the folder's report (${reports.join(", ")})`);
  const report = await page.request.get(`${base}results/file?dir=daxu-run&name=report.html`);
  check(report.ok() && /<svg/.test(await report.text()), "the folder's report.html is served");
  await page.screenshot({ path: `${outDir}/results.png` });
  await page.click('#folders a[href="#folder=daxu-run"]');
  await page.waitForSelector("#folder-games button.replay-game");
  const rows = await page.$$eval("#folder-games tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  check(rows.length === 4, `the folder lists its 4 games (${rows.length})`);
  await page.screenshot({ path: `${outDir}/folder.png` });
  // The second game: its row says who scored what and how long it was.
  const [, , seatsText, plies] = rows[1];
  await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/replays")), page.click('#folder-games button.replay-game[data-index="1"]')]);
  await page.waitForSelector('#replay:not([hidden])');
  await page.waitForFunction(() => document.body.dataset.replayStep === "0");
  const stepTo = async (button, want) => {
    await page.click(button);
    await page.waitForFunction((w) => document.body.dataset.replayStep === String(w), want);
  };
  await stepTo("#r-next", 1);
  await stepTo("#r-next", 2);
  await stepTo("#r-next", 3);
  const logAt3 = await page.$$eval("#r-log li", (l) => l.length);
  await stepTo("#r-prev", 2);
  const logAt2 = await page.$$eval("#r-log li", (l) => l.length);
  check(logAt2 < logAt3 && logAt2 > 0, `stepping back shortens the log (${logAt3} -> ${logAt2} lines)`);
  const omniscientBoards = await page.$$eval("#r-boards svg", (s) => s.length);
  check(omniscientBoards === 2, `the omniscient view shows every seat's board (${omniscientBoards})`);
  await page.selectOption("#r-seat", "0");
  await page.waitForFunction(() => document.body.dataset.replaySeat === "0");
  const seatBoards = await page.$$eval("#r-boards svg", (s) => s.length);
  check(seatBoards === 1 && Number(await page.getAttribute("body", "data-replay-step")) === 2, "seat 0's view keeps the step and shows one board");
  await page.selectOption("#r-seat", "all");
  await page.waitForFunction(() => document.body.dataset.replaySeat === "all");
  await Promise.all([page.waitForResponse((r) => r.url().includes("/analyze")), page.click("#r-analyze")]);
  await page.waitForSelector("#r-stats table.stats tr.played");
  const stats = await page.$$eval("#r-stats table.stats", (ts) => ts.length);
  check(stats === 2, `search statistics for both seats of the simultaneous ply (${stats} tables)`);
  const visits = await page.$$eval("#r-stats table.stats", (ts) => ts.map((t) => [...t.tBodies[0].rows].map((r) => r.cells[2].textContent)));
  check(visits.some((v) => v.some((x) => /^\d+$/.test(x))), "mcts shows its visits");
  await page.screenshot({ path: `${outDir}/replay.png`, fullPage: true });
  await page.click("#replay-title");
  await page.keyboard.press("End");
  await page.waitForFunction((p) => document.body.dataset.replayStep === p, plies);
  const result = await page.textContent("#r-result");
  const scores = [...seatsText.matchAll(/seat (\d) [^:]+: (-?\d+)/g)].map((m) => [m[1], m[2]]);
  check(scores.length === 2 && scores.every(([s, v]) => result.includes(`seat ${s}: ${v} points`)),
    `the replay ends with the recorded scores (${seatsText} / ${result.split("\n").slice(1, 3).join("; ")})`);
  await page.screenshot({ path: `${outDir}/replay-end.png`, fullPage: true });

  check(foreign.length === 0, `no request left localhost${foreign.length ? ": " + foreign.join(", ") : ""}`);
} catch (e) {
  check(false, `the browser test ran to the end: ${e.stack || e}`);
} finally {
  await browser.close();
  server.kill();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
