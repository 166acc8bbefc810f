// The demo page against a real model: the local OpenAI-compatible server of
// tests/js/llm-server.mjs (`make llm`), with redaction on. Behaviour, not answer quality: no
// request body carries the personal data typed, and the reply shown on the page holds no
// placeholder. Skipped where that server is not part of the tree yet, or (as startLlm decides)
// where the model is not installed and CI is unset.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startDemoServer } from "../../www/server.mjs";
import { launch } from "./chromium.mjs";

const serverModule = new URL("../js/llm-server.mjs", import.meta.url);
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, content-type",
  "access-control-allow-methods": "GET, POST, OPTIONS",
};

test("the demo with redaction on, against a real model: no PII in any request, no placeholder on the page", { timeout: 600_000 }, async (t) => {
  const { startLlm } = await import(serverModule);
  const llm = await startLlm();
  if (!llm) return t.skip("the local model is not installed (make llm)");
  t.after(() => llm.stop());
  const server = await startDemoServer({ port: 0 });
  t.after(() => server.close());
  const browser = await launch();
  t.after(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // The page calls the model server directly, from another origin: the test answers the CORS
  // preflight and adds the headers a browser needs, whether or not that server sends them.
  await context.route(`${llm.baseUrl}/**`, async (route) => {
    if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: CORS });
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), ...CORS } });
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const query = new URLSearchParams({
    endpoint: llm.baseUrl, model: "local", redact: "1", nerModel: "0",
    strategy: "tokens", budget: "2000", reserve: "200", tokenizer: "approximate", timeoutSec: "300",
  });
  await page.goto(`${server.url}/?${query}`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 60_000 });
  await llm.clearRequests();

  const pii = ["Maria Gomez", "maria.gomez@example.com", "+1 415 555 0199"];
  await page.getByTestId("message-input").fill(`My name is ${pii[0]}, my email is ${pii[1]} and my phone is ${pii[2]}. What is my email?`);
  await page.getByTestId("send").click();
  await page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 540_000 });

  const bodies = (await llm.requests()).map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
  assert.ok(bodies.length >= 1, "the model was called");
  for (const body of bodies) for (const value of pii) assert.ok(!body.includes(value), `a request carried ${value}`);
  assert.match(bodies[0], /\[EMAIL_1\]/);
  assert.equal(await page.getByTestId("chat-error").count(), 0, await page.locator("#messages").textContent());
  const reply = await page.getByTestId("assistant-message").last().locator(".text").textContent();
  assert.ok(reply.trim().length > 0, "a reply is shown");
  assert.doesNotMatch(reply, /\[(EMAIL|PHONE|PERSON)_1\]/, "placeholders are restored on the page");
  assert.match(await page.getByTestId("user-message").last().textContent(), /maria\.gomez@example\.com/);
  assert.deepEqual(errors, []);
});
