// Starts the local model server (scripts/llm-server.mjs) for a test file, or reuses the one
// `make llm` runs when LLM_BASE_URL points at it.
//
//   import { startLlm } from "./llm-server.mjs";
//   const llm = await startLlm();            // null when the model is not installed and CI is unset
//   const reply = await llm.chat([{ role: "user", content: "Hi" }], { maxTokens: 16 });
//   await llm.requests();                    // every request body the server received
//   await llm.stop();
//
// With CI=true a missing model or server is an error, never a skip.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const LLM_MODEL_PATH = join(root, "models/llm/SmolLM2-135M-Instruct.Q4_1.gguf");
const SERVER = join(root, "scripts/llm-server.mjs");
const DEPENDENCY = join(root, "scripts/llm/node_modules/node-llama-cpp");
const START_TIMEOUT_MS = 120_000;

/** Why the local model cannot run here, or null when it can. */
export function llmMissing() {
  if (process.env.LLM_BASE_URL) return null;
  if (!existsSync(LLM_MODEL_PATH)) return `no model at ${LLM_MODEL_PATH} (make llm-model)`;
  if (!existsSync(DEPENDENCY)) return "node-llama-cpp is not installed in scripts/llm (make llm-deps)";
  return null;
}

/** The options for node:test's `test(name, options, fn)` that skip when the model is absent (never under CI). */
export function llmTestOptions(extra = {}) {
  const missing = llmMissing();
  if (missing && process.env.CI) throw new Error(`CI=true and the local model cannot run: ${missing}`);
  return missing ? { ...extra, skip: missing } : extra;
}

function client(baseUrl, stop) {
  return {
    baseUrl,
    stop,
    /** One non-streaming completion; resolves to the reply text. */
    async chat(messages, { maxTokens = 64, json = false, temperature = 0 } = {}) {
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "local",
          messages,
          max_tokens: maxTokens,
          temperature,
          ...(json ? { response_format: { type: "json_object" } } : {}),
        }),
      });
      if (!response.ok) throw new Error(`llm-server answered ${response.status}: ${await response.text()}`);
      const body = await response.json();
      return body.choices[0].message.content;
    },
    /** Every request body (raw text) the server has received on /v1/chat/completions. */
    async requests() {
      const response = await fetch(`${baseUrl.replace(/\/v1$/, "")}/debug/requests`);
      return response.json();
    },
    async clearRequests() {
      await fetch(`${baseUrl.replace(/\/v1$/, "")}/debug/requests`, { method: "DELETE" });
    },
  };
}

/**
 * Starts scripts/llm-server.mjs on a free port (or reuses LLM_BASE_URL) and resolves once the
 * model is loaded: `{ baseUrl, stop, chat, requests, clearRequests }`. Resolves to null when the
 * model is not installed and CI is unset.
 */
export async function startLlm({ env = {} } = {}) {
  if (process.env.LLM_BASE_URL) return client(process.env.LLM_BASE_URL.replace(/\/+$/, ""), async () => {});
  const missing = llmMissing();
  if (missing) {
    if (process.env.CI) throw new Error(`CI=true and the local model cannot run: ${missing}`);
    return null;
  }
  const child = spawn(process.execPath, [SERVER, "--port", "0"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const baseUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`llm-server did not start in ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const onData = (data) => {
      output += data;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`llm-server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners("exit");
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return client(baseUrl, stop);
}
