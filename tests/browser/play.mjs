// The real-browser test of `sim serve` (issue 25): starts the server on a free localhost
// port, then in Debian's chromium (driven by playwright-core) plays a complete game of
// each of the four games as seat 0 against `random` by clicking legal moves (buttons and,
// where the board offers them, board elements), undoes a move, and checks that no
// request left localhost and that the first page load weighs under 1 MB. Saves a
// screenshot of each board to target/browser/<game>.png.
//
// Usage: node tests/browser/play.mjs [path/to/sim]   (default target/debug/sim)
// Exit code 0 when every check passes; prints "N passed, N failed".
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
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

// The server prints its address on its first line.
const server = spawn(sim, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
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
  check(foreign.length === 0, `no request left localhost${foreign.length ? ": " + foreign.join(", ") : ""}`);
} catch (e) {
  check(false, `the browser test ran to the end: ${e.stack || e}`);
} finally {
  await browser.close();
  server.kill();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
