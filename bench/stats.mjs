// Small helpers shared by the benchmark scripts: medians, spreads, number formatting, a seeded
// random generator, the machine line, a Chromium harness, and writing a marked section of
// BENCHMARKS.md.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const fmt = (x, digits) => {
  if (digits === undefined) digits = x >= 100 ? 0 : x >= 10 ? 1 : 2;
  return x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
};

/** "min–max" of the values. */
export const spread = (xs, digits) => `${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)}`;

export { mulberry32 } from "./vectors.mjs";

/** The value at quantile `q` (0..1) of `xs`, without interpolation. */
export const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * Puts `body` under the `## title` heading of BENCHMARKS.md, replacing that section (up to the
 * next `## `) or appending it; other sections stay as they are.
 */
export function writeSection(path, title, body) {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  const head = `## ${title}\n`;
  const at = text.indexOf(head);
  const section = `${head}\n${body.trim()}\n\n`;
  let next;
  if (at < 0) next = text.trimEnd() + "\n\n" + section;
  else {
    const end = text.indexOf("\n## ", at + head.length);
    next = text.slice(0, at) + section + (end < 0 ? "" : text.slice(end + 1));
  }
  writeFileSync(path, next.trimEnd() + "\n");
}

/** One line on the machine a table was measured on, for its "Measured by" line. */
export function machineLine() {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${cpus().length} × ${cpu}, load average ${loadavg().map((x) => x.toFixed(1)).join(" / ")} when it finished`;
}

/**
 * Serves `page` (HTML that sets `window.ready` once its engines are loaded) in headless Chromium
 * and runs `measure(arg)` inside it; returns its result and the browser's version.
 */
export async function measureInChromium(page, measure, arg) {
  const { startServer } = await import("../tests/browser/static-server.mjs");
  const { launch } = await import("../tests/browser/chromium.mjs");
  const server = await startServer({ "/bench.html": (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
  const browser = await launch();
  try {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(`${server.url}/bench.html`);
    await tab.waitForFunction(() => window.ready === true, null, { timeout: 120_000 });
    return { rows: await tab.evaluate(measure, arg), version: await browser.version() };
  } finally {
    await browser.close();
    await server.close();
  }
}
