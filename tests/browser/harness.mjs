// A page that loads pkg/ (as `window.lib`) on the shared static server, in a browser context
// whose storage (IndexedDB, localStorage) persists across reloads of that context. The engine is
// Chromium, or Firefox with BROWSER=firefox (make test-firefox).
import { startServer } from "./static-server.mjs";
import { launch } from "./chromium.mjs";
import { launchFirefox } from "./firefox.mjs";

/** "chromium" or "firefox": tests that need a Chromium-only tool (CDP) skip on Firefox. */
export const engine = process.env.BROWSER === "firefox" ? "firefox" : "chromium";

const page = `<!doctype html><meta charset="utf-8"><title>llm-memory test page</title>
<script type="module">
import init, * as lib from "/pkg/llm_memory.js";
await init();
window.lib = lib;
window.ready = true;
</script>`;

export async function startHarness() {
  const server = await startServer({ "/harness.html": (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
  const browser = engine === "firefox" ? await launchFirefox() : await launch();
  const context = await browser.newContext();
  const open = async () => {
    const tab = await context.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    await tab.goto(`${server.url}/harness.html`);
    await tab.waitForFunction(() => window.ready === true);
    tab.errors = errors;
    return tab;
  };
  return {
    server, browser, context, open,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
