// Runs a command (the wasm tests) with the browser sent through a small HTTP proxy that opens
// one connection per request to wasm-bindgen-test-runner's server.
//
// Why: the runner serves the test page with tiny_http, whose pool gives each keep-alive
// connection a thread for as long as the browser keeps it open. Chromium opens up to six
// connections at once for the page's module graph (the bindings import several JS snippets);
// when more arrive than there are free threads, the requests on the stranded connections sit
// unread in the socket until the browser drops idle connections: minutes, now and then past the
// page-load limit. Seen with `ss`: Recv-Q 600 on two runner connections, every runner thread
// blocked reading an idle one. Through this proxy each request gets its own connection, closed
// after the answer, so no runner thread waits on an idle browser.
//
// Usage: node tests/wasm-proxy.mjs <base webdriver.json> -- <command...>
// The command gets WASM_BINDGEN_TEST_WEBDRIVER_JSON set to a copy of the base capabilities
// plus the proxy settings for Chromium and Firefox.
import http from "node:http";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const split = process.argv.indexOf("--");
const [base] = process.argv.slice(2, split);
const command = process.argv.slice(split + 1);
if (split < 0 || !base || command.length === 0) {
  console.error("usage: node tests/wasm-proxy.mjs <webdriver.json> -- <command...>");
  process.exit(2);
}

const upstream = new http.Agent({ keepAlive: false });
const HOP_BY_HOP = ["connection", "proxy-connection", "keep-alive", "transfer-encoding", "upgrade"];

let served = 0;
const proxy = http.createServer((req, res) => {
  served++;
  let target;
  try {
    target = new URL(req.url);
  } catch {
    return res.writeHead(400).end("a proxy request carries an absolute URL");
  }
  const headers = { ...req.headers };
  for (const h of HOP_BY_HOP) delete headers[h];
  headers.connection = "close";
  const forward = http.request(
    { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers, agent: upstream },
    (answer) => {
      const back = { ...answer.headers };
      for (const h of HOP_BY_HOP) delete back[h];
      res.writeHead(answer.statusCode ?? 502, back);
      answer.pipe(res);
    },
  );
  forward.on("error", (e) => {
    if (!res.headersSent) res.writeHead(502);
    res.end(`proxy: ${e.message}`);
  });
  req.pipe(forward);
});
await new Promise((ok) => proxy.listen(0, "127.0.0.1", ok));
const address = `127.0.0.1:${proxy.address().port}`;

const caps = JSON.parse(readFileSync(base, "utf8"));
// Chromium: every request through the proxy, loopback included (it bypasses loopback by default).
const chrome = (caps["goog:chromeOptions"] ??= {});
chrome.args = [...(chrome.args ?? []), `--proxy-server=http://${address}`, "--proxy-bypass-list=<-loopback>"];
// Firefox: the same through its preferences.
const firefox = (caps["moz:firefoxOptions"] ??= {});
firefox.prefs = {
  ...(firefox.prefs ?? {}),
  "network.proxy.type": 1,
  "network.proxy.http": "127.0.0.1",
  "network.proxy.http_port": proxy.address().port,
  "network.proxy.no_proxies_on": "",
  "network.proxy.allow_hijacking_localhost": true,
};
const dir = mkdtempSync(join(tmpdir(), "wasm-proxy-"));
const file = join(dir, "webdriver.json");
writeFileSync(file, JSON.stringify(caps, null, 2));

const child = spawn(command[0], command.slice(1), {
  stdio: "inherit",
  env: { ...process.env, WASM_BINDGEN_TEST_WEBDRIVER_JSON: file },
});
child.on("exit", (code, signal) => {
  console.error(`wasm-proxy: ${served} requests passed to the test runner`);
  proxy.close();
  process.exit(code ?? (signal ? 1 : 0));
});
