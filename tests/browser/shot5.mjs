// Temporary (not committed): screenshots of the Daimyo grouped menu and Q.A.X.'s setup header.
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";
const sim = process.argv[2];
const out = process.argv[3];
const server = spawn(sim, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve) => {
  let t = "";
  server.stdout.on("data", (d) => { t += d; const m = t.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); });
});
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
for (const [game, want, n] of [["daimyo", "die for", 0], ["daimyo", "Governor on", 1], ["qax", null, 0]]) {
  await page.goto(base);
  await page.waitForSelector("#game option", { state: "attached" });
  await page.selectOption("#game", game);
  const seats = await page.$$eval("#seats select", (s) => s.length);
  for (let s = 1; s < seats; s++) await page.selectOption(`#seat-${s}`, "random");
  await page.click("#start");
  await page.waitForSelector("#play:not([hidden])");
  await page.waitForFunction(() => document.body.dataset.ply !== undefined);
  for (let i = 0; want && i < 60; i++) {
    const heads = await page.$$eval("#moves .move-group > span", (s) => s.map((x) => x.textContent));
    if (heads.some((h) => h.includes(want)) && i >= n) break;
    const b = await page.$("#moves button.move");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/act")), b.click()]);
    await page.waitForSelector('body[data-busy="false"]');
  }
  const name = `${out}/${game}${want ? "-" + want.split(" ")[0].toLowerCase() : ""}.png`;
  await page.screenshot({ path: name, fullPage: true });
  console.log(name, await page.$$eval("#moves .move-group", (g) => g.map((x) => x.textContent.slice(0, 120))));
}
await browser.close();
server.kill();
