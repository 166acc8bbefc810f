// The Web Worker that owns the Memory (and the Redactor, when the package has one), so the
// slow parts — parsing a 9 MB tokenizer.json, building a context — never freeze the page.
// The page talks to it through memory-client.js: `{ id, op, args }` in, `{ id, ok, value }`
// or `{ id, ok: false, error }` out, plus `{ event, ... }` notices (tokenizer progress).
import init, * as pkg from "/pkg/llm_memory.js";
import { semanticRecall } from "./semantic-worker.js";

const { Memory, Tokenizer } = pkg;
const Redactor = typeof pkg.Redactor === "function" ? pkg.Redactor : null;
const NerModel = typeof pkg.NerModel === "function" ? pkg.NerModel : null;

let mem = null;
let options = {};          // Memory options without the tokenizer and summarizer
let tokenizer = null;      // the loaded Tokenizer, or null for the approximate counter
let tokenizerLoad = 0;     // generation counter: a newer load wins
let endpoint = {};         // { base, key, model, timeoutMs } for the summarizer
let summaryCalls = [];     // summarizer requests made during the current context() call
let redactor = null;
let redactionOn = false;
let redaction = { enabled: false, types: [], model: true }; // the last setRedaction options
let nerModel = null;       // the PII model (NerModel), once loaded
let nerLoad = null;        // its loading promise
const modelFound = new Map(); // placeholder -> score, for values the model found
const restorers = new Map();
let nextRestorer = 1;

/** Writes summaries with the chat endpoint the user chose (the same one as the chat). */
async function summarize(prompt, info) {
  const body = JSON.stringify({ model: endpoint.model, messages: [{ role: "user", content: prompt }], stream: false }, null, 2);
  const call = { prompt, body, count: info?.count, reply: null, error: null };
  summaryCalls.push(call);
  try {
    const headers = { "content-type": "application/json" };
    if (endpoint.key) headers.authorization = `Bearer ${endpoint.key}`;
    const res = await fetch(`${endpoint.base}/chat/completions`, {
      method: "POST", headers, body, signal: AbortSignal.timeout(endpoint.timeoutMs ?? 60_000),
    });
    if (!res.ok) throw new Error(`the summary request got HTTP ${res.status}`);
    const json = await res.json();
    const text = json?.choices?.[0]?.message?.content;
    if (typeof text !== "string" || !text.trim()) throw new Error("the summary reply had no text");
    call.reply = text;
    return text;
  } catch (e) {
    call.error = String(e?.message ?? e);
    throw e;
  }
}

const post = (msg) => self.postMessage(msg);
// The sentence embedder and the backlog it embeds between requests (semantic-worker.js).
const semantic = semanticRecall({ pkg, post, enqueue: (fn) => enqueue(fn), memory: () => mem });

function memoryOptions() {
  return { ...options, summarize, ...semantic.options(), ...(tokenizer ? { tokenizer } : { tokenizer: Tokenizer.approximate() }) };
}

/** The library's session name of a chat of this page. */
const storedName = (session) => `demo/${session}`;

async function fetchBytes(url, gen) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  const total = Number(res.headers.get("content-length")) || 0;
  const reader = res.body.getReader();
  const chunks = [];
  let loaded = 0;
  let lastPost = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (gen !== tokenizerLoad) throw new Error("superseded");
    chunks.push(value);
    loaded += value.length;
    if (loaded - lastPost > 256 * 1024) {
      lastPost = loaded;
      post({ event: "tokenizer", state: "loading", loaded, total });
    }
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

function entityTypesOf(findings) {
  return findings.map((f) => ({ type: f.type, placeholder: f.placeholder, source: f.source, score: f.score }));
}

/** Redacts with the current redactor, noting which placeholders the model found. */
function redactText(text) {
  const out = redactor.redact(text);
  for (const f of out.findings) if (f.source === "model") modelFound.set(f.placeholder, f.score);
  return out;
}

/** A redactor for the current options: with the PII model when it is loaded and wanted. */
function makeRedactor() {
  const options = redaction.types?.length ? { types: redaction.types } : {};
  if (nerModel && redaction.model) options.model = nerModel;
  return new Redactor(options);
}

/** The long-term memory API (retrieval issue), when this build of the package has it. */
function capabilities() {
  const p = Memory.prototype;
  const has = (name) => typeof p[name] === "function";
  return {
    redactor: !!Redactor,
    nerModel: !!NerModel && !!Redactor,
    // The built-in entity types with their descriptions, for the privacy settings.
    entityTypes: Redactor?.types ?? [],
    tools: has("tools") && has("callTool"),
    facts: has("facts"),
    episodes: has("episodes"),
    recall: has("recall"),
    remember: has("remember"),
    embedModel: semantic.available && has("embedPending"),
    open: typeof Memory.open === "function",
    retrieval: (() => {
      try {
        new Memory({ strategy: "retrieval", maxTokens: 100 }).free();
        return true;
      } catch {
        return false;
      }
    })(),
  };
}

const ops = {
  async init() {
    await init();
    return capabilities();
  },
  /** A fresh Memory with these options, kept nowhere (when IndexedDB cannot be used). */
  reset(opts) {
    options = opts;
    mem?.close?.();
    mem?.free();
    mem = new Memory(memoryOptions());
    return true;
  },
  /**
   * Opens chat `session`, stored by the library in IndexedDB (turns, summaries, pinned facts,
   * facts, episodes survive reloads). `legacy` is what earlier versions of this page kept in
   * localStorage: moved in once, when the stored chat is empty. Without IndexedDB (some
   * private modes) the chat lives in memory only; `stored: false` says so.
   */
  async open(opts, session, legacy) {
    options = opts;
    mem?.close?.();
    mem?.free();
    mem = null;
    let stored = true;
    try {
      mem = await Memory.open({
        session: storedName(session), storage: "indexeddb", ...memoryOptions(),
        onChange: () => post({ event: "changed", session }),
        // A write that failed (the quota) or the chat deleted in another tab: the page says so.
        onError: (e) => post({ event: "storeError", session, code: e?.code, message: String(e?.message ?? e) }),
      });
    } catch (e) {
      if (e?.code !== "STORAGE_UNAVAILABLE" && e?.code !== "STORAGE_BLOCKED") throw e;
      mem = new Memory(memoryOptions());
      stored = false;
    }
    let migrated = 0;
    if (mem.length === 0 && !mem.pinned().length && (legacy?.entries?.length || legacy?.pinned?.length)) {
      migrated = ops.restore(legacy);
      if (stored) await mem.flush();
    }
    semantic.kick();
    return { stored, migrated };
  },
  /** The stored chat as the library exports it (entries, summaries, pins, facts, ...). */
  exportDoc: () => mem.export(),
  /** Stores an exported chat as chat `session` (replacing one of that name). */
  async importDoc(doc, session) {
    const m = await Memory.import(doc, { session: storedName(session), storage: "indexeddb", overwrite: true });
    m.close();
    m.free();
    return true;
  },
  async deleteStored(session) {
    // The open chat stops listening first: it is being deleted here, not in another tab.
    if (mem?.session === storedName(session)) mem.close();
    await Memory.delete(storedName(session), "indexeddb").catch((e) => {
      if (e?.code !== "STORAGE_UNAVAILABLE") throw e;
    });
    return true;
  },
  configure(opts) {
    mem.configure({ ...opts, summarize });
    options = { ...options, ...opts };
    return true;
  },
  setEndpoint(e) {
    endpoint = e;
    return true;
  },
  /** source: { url } or { bytes }, or null for the approximate counter. */
  async loadTokenizer(source) {
    const gen = ++tokenizerLoad;
    if (!source) {
      return enqueue(() => {
        tokenizer = null;
        mem.configure({ tokenizer: Tokenizer.approximate() });
        return { kind: "approximate", exact: false };
      });
    }
    post({ event: "tokenizer", state: "loading", loaded: 0, total: 0 });
    const bytes = source.bytes ?? (await fetchBytes(source.url, gen));
    if (gen !== tokenizerLoad) throw new Error("superseded");
    post({ event: "tokenizer", state: "parsing", loaded: bytes.length, total: bytes.length });
    return enqueue(() => {
      if (gen !== tokenizerLoad) throw new Error("superseded");
      const loaded = Tokenizer.fromJson(bytes);
      tokenizer = loaded; // the previous one may still be referenced by the memory: not freed
      mem.configure({ tokenizer });
      return { kind: tokenizer.kind, exact: tokenizer.exact };
    });
  },
  /** Turns redaction on or off; the vault (placeholder → value) is kept across changes.
   * `model`: use the PII model once it is loaded. */
  setRedaction({ enabled, types, model = true }) {
    redactionOn = !!enabled && !!Redactor;
    redaction = { enabled, types, model };
    if (!Redactor) return false;
    const vault = redactor?.vault();
    const next = makeRedactor();
    if (vault) next.importVault(vault);
    redactor?.free?.();
    redactor = next;
    return redactionOn;
  },
  /** Makes `vault` (a session's own, or null for none) the redactor's: values never carry
   * over from one chat to another. */
  useVault(vault) {
    if (!Redactor) return false;
    redactor ??= makeRedactor();
    redactor.importVault(vault ?? { version: 1, entries: [] });
    return true;
  },
  /**
   * Loads the PII model (once; IndexedDB keeps the file after the first download), posting
   * `{ event: "nerModel", state, loaded, total }` as it goes, then makes the redactor use it.
   */
  async loadNerModel(url) {
    if (!NerModel) return { loaded: false };
    nerLoad ??= (async () => {
      let lastPost = 0;
      post({ event: "nerModel", state: "loading", loaded: 0, total: 0 });
      const m = await NerModel.fromUrl(url, {
        onProgress: ({ loaded, total }) => {
          if (loaded - lastPost < 256 * 1024 && loaded !== total) return;
          lastPost = loaded;
          post({ event: "nerModel", state: "loading", loaded, total: total ?? 0 });
        },
      });
      return m;
    })();
    let m;
    try {
      m = await nerLoad;
    } catch (e) {
      nerLoad = null;
      throw e;
    }
    return enqueue(() => {
      nerModel = m;
      if (Redactor) {
        const vault = redactor?.vault();
        const next = makeRedactor();
        if (vault) next.importVault(vault);
        redactor?.free?.();
        redactor = next;
      }
      return { loaded: true, fromCache: m.fromCache, labels: m.labels.length, attribution: m.attribution, license: m.license };
    });
  },
  redact(text) {
    if (!redactionOn) return { text, findings: [] };
    const { text: out, findings } = redactText(text);
    return { text: out, findings: entityTypesOf(findings) };
  },
  /**
   * Redacts the history written while redaction was off, once it is turned on: entries not
   * marked `metadata.redacted` and pins without a placeholder. Rebuilding the memory also drops
   * summaries written from the unredacted turns (the next one is written from redacted text).
   * Redacting already-redacted text is not a no-op (the Redactor escapes placeholder-like text
   * so that it comes back as written), hence the marks.
   */
  redactHistory() {
    if (!redactionOn) return 0;
    const snap = ops.snapshot();
    let changed = 0;
    const entries = snap.entries.map((e) => {
      if (e.metadata?.redacted) return e;
      const found = [];
      const redact = (t) => {
        if (typeof t !== "string" || !t) return t;
        const { text, findings } = redactText(t);
        found.push(...findings);
        return text;
      };
      const content = redact(e.content);
      // A tool call's arguments go out too ("store_memory" with the user's email in it).
      const toolCalls = e.toolCalls?.map((c) => ({ ...c, function: { ...c.function, arguments: redact(c.function.arguments) } }));
      if (found.length) changed++;
      return { ...e, content, ...(toolCalls ? { toolCalls } : {}), metadata: { ...(e.metadata ?? {}), redacted: true, ...(found.length ? { redactions: entityTypesOf(found) } : {}) } };
    });
    // Long-term facts (tool memory) written before: forgotten (which erases their words) and
    // remembered again redacted.
    for (const f of (typeof mem.facts === "function" ? mem.facts() : [])) {
      const { text, findings } = redactText(f.text);
      if (!findings.length) continue;
      mem.forget(f.id);
      mem.remember(text, { ...(f.category ? { category: f.category } : {}), importance: f.importance });
      changed++;
    }
    const pinned = snap.pinned.map((p) => {
      if (/\[[A-Z][A-Z0-9_]*_\d+\]/.test(p)) return p;
      const { text, findings } = redactText(p);
      if (findings.length) changed++;
      return text;
    });
    if (!changed) return 0;
    // Rewritten in place (and in storage): the turns, their summaries and the pins go, the
    // redacted ones come back.
    mem.clear();
    for (const p of mem.pinned()) mem.unpin(p.id);
    ops.restore({ entries, pinned });
    return changed;
  },
  restoreTexts(texts) {
    return redactor ? texts.map((t) => (typeof t === "string" ? redactor.restore(t) : t)) : texts;
  },
  /** The vault's entries; those the PII model found carry `source: "model"` and its score. */
  vault() {
    if (!redactor) return [];
    return redactor.vault().entries.map((e) => (modelFound.has(e.placeholder) ? { ...e, source: "model", score: modelFound.get(e.placeholder) } : e));
  },
  streamStart() {
    const id = nextRestorer++;
    restorers.set(id, redactor ? redactor.streamRestorer() : null);
    return id;
  },
  streamPush(id, chunk) {
    const r = restorers.get(id);
    return r ? r.push(chunk) : chunk;
  },
  streamFinish(id) {
    const r = restorers.get(id);
    restorers.delete(id);
    if (!r) return "";
    const rest = r.finish();
    r.free?.();
    return rest;
  },
  add(role, content, extra) {
    const id = mem.add(role, content, extra);
    semantic.kick();
    return id;
  },
  /** Semantic recall on (loads the sentence embedder once, with progress) or off. */
  setSemantic: (on, url) => semantic.set(on, url),
  addMessage(message) {
    return mem.addMessage(message);
  },
  async context(query) {
    summaryCalls = [];
    const { messages, report } = await mem.context(query ? { query } : undefined);
    return { messages, report, summaryCalls };
  },
  entries: () => mem.entries(),
  pinned: () => mem.pinned(),
  pin: (text) => mem.pin(text),
  unpin: (id) => mem.unpin(id),
  forget: (id) => mem.forget(id),
  summaries: () => mem.summaries(),
  /** Clears the turns, and the values only they used: the pinned facts keep theirs. */
  clear() {
    mem.clear();
    if (redactor) {
      const pinned = mem.pinned().map((p) => p.text);
      const entries = redactor.vault().entries.filter((e) => pinned.some((t) => t.includes(e.placeholder)));
      redactor.importVault({ version: 1, entries });
    }
    return true;
  },
  tools: () => (typeof mem.tools === "function" ? mem.tools() : null),
  async callTool(call) {
    // The retrieval API's signature: callTool(name, args) or callTool(toolCall).
    const args = (() => {
      try {
        return JSON.parse(call.function.arguments || "{}");
      } catch {
        return call.function.arguments;
      }
    })();
    const out = mem.callTool.length >= 2 ? await mem.callTool(call.function.name, args) : await mem.callTool(call);
    return typeof out === "string" ? out : JSON.stringify(out);
  },
  facts: () => (typeof mem.facts === "function" ? mem.facts() : null),
  episodes: () => (typeof mem.episodes === "function" ? mem.episodes() : null),
  forgetFact(id) {
    if (typeof mem.forgetFact === "function") return mem.forgetFact(id);
    return mem.forget(id);
  },
  /** What redactHistory rewrites. */
  snapshot() {
    return {
      entries: mem.entries().map(({ tokens, ...e }) => e),
      pinned: mem.pinned().map((p) => p.text),
    };
  },
  /** The chat's redaction vault, which the page keeps beside the chat (see store.js). */
  vaultDocument: () => (redactor ? redactor.vault() : null),
  /** Re-adds saved entries and pins to the fresh memory. */
  restore({ entries = [], pinned = [] }) {
    for (const text of pinned) mem.pin(text);
    for (const e of entries) {
      const extra = { timestamp: e.timestamp };
      if (e.name) extra.name = e.name;
      if (e.toolCalls?.length) extra.toolCalls = e.toolCalls;
      if (e.toolCallId) extra.toolCallId = e.toolCallId;
      if (e.metadata !== undefined) extra.metadata = e.metadata;
      mem.add(e.role, e.content, extra);
    }
    return mem.length;
  },
};

// Operations run one at a time, in order: a context() that waits for the summarizer must not
// see the memory change under it. Only the tokenizer download runs beside them.
let chain = Promise.resolve();
function enqueue(fn) {
  const run = chain.then(fn);
  chain = run.catch(() => {});
  return run;
}

self.onmessage = async ({ data: { id, op, args } }) => {
  try {
    if (!ops[op]) throw new Error(`unknown op ${op}`);
    const run = () => {
      if (!mem && !["init", "reset", "open", "importDoc", "deleteStored", "setEndpoint", "setRedaction", "useVault", "redact", "restoreTexts", "vault", "vaultDocument", "loadNerModel", "setSemantic"].includes(op)) {
        throw new Error("the memory is not ready yet");
      }
      return ops[op](...(args ?? []));
    };
    const value = await (["loadTokenizer", "loadNerModel", "setSemantic"].includes(op) ? run() : enqueue(run));
    post({ id, ok: true, value });
  } catch (e) {
    post({ id, ok: false, error: { name: e?.name ?? "Error", code: e?.code, message: String(e?.message ?? e) } });
  }
};
