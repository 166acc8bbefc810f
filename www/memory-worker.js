// The Web Worker that owns the Memory, so the slow parts (parsing a 9 MB tokenizer.json,
// loading the PII model and the sentence embedder, building a context) never freeze the page.
// Each chat is a session the library stores (`Memory.open`); with redaction on, the memory
// redacts what leaves at the egress (`redact`) and keeps the real text, and replies are
// restored with its restorers.
// The page talks to it through memory-client.js: `{ id, op, args }` in, `{ id, ok, value }`
// or `{ id, ok: false, error }` out, plus `{ event, ... }` notices (loading progress).
import init, { Memory, NerModel, Redactor, Tokenizer } from "/pkg/llm_memory.js";
import { chatLlm } from "./llm-callback.js";
import { upgradeLegacy } from "./legacy-chats.js";
import { semanticRecall } from "./semantic-worker.js";

let mem = null;
let session = null;        // the page's id of the open chat
let options = {};          // Memory options from the settings (strategy, budget, ...)
let tokenizer = null;      // the loaded Tokenizer, or null for the approximate counter
let tokenizerLoad = 0;     // generation counter: a newer load wins
let endpoint = {};         // { base, key, model, timeoutMs }: the chat endpoint, also for summaries
let redaction = { enabled: false, types: [], model: true }; // the privacy settings
let nerModel = null;       // the PII model (NerModel), once loaded
let nerLoad = null;        // its loading promise
let annotator = null;      // a Redactor with the model, only to tell which values the model found
const modelFound = new Map(); // value (lower case) -> the model's score, for the inspector
let llmCalls = [];         // LLM calls the memory made during the current context()
const restorers = new Map();
let nextRestorer = 1;

const post = (msg) => self.postMessage(msg);

// The memory's LLM calls (summaries, fact extraction, episodes, with its built-in prompts) go
// to the chat endpoint; the inspector lists them with the turn.
const llm = chatLlm(() => endpoint, (call) => llmCalls.push(call));

// The sentence embedder and the backlog it embeds between requests (semantic-worker.js).
const semantic = semanticRecall({ post, enqueue: (fn) => enqueue(fn), memory: () => mem });

/** What `redact` is given: off, or the chosen types with the PII model once it is loaded. */
function redactOption() {
  if (!redaction.enabled) return false;
  return {
    ...(redaction.types?.length ? { types: redaction.types } : {}),
    ...(nerModel && redaction.model ? { model: nerModel } : {}),
  };
}

function memoryOptions() {
  return {
    ...options,
    llm,
    redact: redactOption(),
    ...semantic.options(),
    tokenizer: tokenizer ?? Tokenizer.approximate(),
  };
}

/** The library's session name of a chat of this page. */
const storedName = (id) => `demo/${id}`;
const PREFIX = "demo/";

/** The library's loader (one shape for every asset): progress posted every 256 KiB, the
 * prepared form kept in IndexedDB, and stopped when a newer load supersedes this one. */
let tokenizerAbort = null;
function downloadTokenizer(url, gen) {
  tokenizerAbort?.abort();
  tokenizerAbort = new AbortController();
  let lastPost = 0;
  return Tokenizer.fromUrl(url, {
    signal: tokenizerAbort.signal,
    onProgress: ({ loaded, total }) => {
      if (gen !== tokenizerLoad || (loaded - lastPost < 256 * 1024 && loaded !== total)) return;
      lastPost = loaded;
      post({ event: "tokenizer", state: "loading", loaded, total: total ?? 0 });
    },
  });
}
/** Notes the values the PII model finds in `text` (a user turn or tool result), with scores. */
function annotate(text) {
  if (!annotator || !redaction.enabled || typeof text !== "string") return;
  for (const f of annotator.redact(text).findings) {
    if (f.source === "model") modelFound.set(text.slice(f.start, f.end).toLowerCase(), f.score);
  }
}

/** The placeholders in `texts` with what they stand for (shown on this device only). */
function placeholdersIn(texts) {
  const seen = new Map();
  for (const text of texts) {
    for (const [placeholder, type] of text.matchAll(/\[([A-Z][A-Z0-9_]*?)_\d+\]/g)) {
      if (seen.has(placeholder)) continue;
      const value = mem.restore(placeholder);
      if (value === placeholder) continue;
      const score = modelFound.get(value.toLowerCase());
      seen.set(placeholder, { placeholder, type, value, ...(score != null ? { source: "model", score } : {}) });
    }
  }
  return [...seen.values()];
}

async function openStored(id) {
  try {
    return await Memory.open({
      session: storedName(id), storage: "indexeddb", ...memoryOptions(),
      onChange: () => post({ event: "changed", session: id }),
      // A write that failed (the quota) or the chat deleted in another tab: the page says so.
      onError: (e) => post({ event: "storeError", session: id, code: e?.code, message: String(e?.message ?? e) }),
    });
  } catch (e) {
    if (e?.code !== "STORAGE_UNAVAILABLE" && e?.code !== "STORAGE_BLOCKED") throw e;
    return null;
  }
}

function closeMemory() {
  mem?.close();
  mem?.free();
  mem = null;
}

const ops = {
  async init() {
    await init();
    // The built-in entity types with their descriptions, for the privacy settings.
    return { entityTypes: Redactor.types };
  },
  /**
   * Opens chat `id`, stored by the library in IndexedDB. `legacy` is what an earlier version
   * of this page kept in localStorage for it (see legacy-chats.js). Without IndexedDB (some
   * private modes) the chat lives in memory only; `stored: false` says so.
   */
  async open(opts, id, legacy) {
    options = opts;
    closeMemory();
    modelFound.clear();
    session = id;
    mem = await openStored(id);
    const stored = !!mem;
    mem ??= new Memory(memoryOptions());
    const upgraded = upgradeLegacy(mem, legacy);
    if (upgraded && stored) await mem.flush();
    semantic.kick();
    return { stored, upgraded };
  },
  /** The page's chats: the sessions this page stored, oldest first. */
  async sessions() {
    const all = await Memory.sessions("indexeddb").catch(() => []);
    return all.filter((s) => s.session.startsWith(PREFIX))
      .map((s) => ({ id: s.session.slice(PREFIX.length), turns: s.turns, createdAt: s.createdAt, updatedAt: s.updatedAt }))
      .sort((a, b) => a.createdAt - b.createdAt);
  },
  /** The stored chat as the library exports it (entries, summaries, pins, facts, vault). */
  exportDoc: () => mem.export(),
  /** Stores an exported chat as chat `id`. */
  async importDoc(doc, id) {
    const m = await Memory.import(doc, { session: storedName(id), storage: "indexeddb", overwrite: true });
    m.close();
    m.free();
    return true;
  },
  async deleteStored(id) {
    // The open chat stops listening first: it is being deleted here, not in another tab.
    if (id === session) closeMemory();
    await Memory.delete(storedName(id), "indexeddb").catch((e) => {
      if (e?.code !== "STORAGE_UNAVAILABLE") throw e;
    });
    return true;
  },
  /** Clears the turns and the values only they used: the chat is stored anew with its pins. */
  async clear() {
    const pins = mem.pinned().map((p) => p.text);
    await ops.deleteStored(session);
    await ops.open(options, session, null);
    for (const text of pins) mem.pin(text);
    await mem.flush();
    return true;
  },
  configure(opts) {
    options = { ...options, ...opts };
    mem?.configure(opts);
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
        mem?.configure({ tokenizer: Tokenizer.approximate() });
        return { kind: "approximate", exact: false };
      });
    }
    post({ event: "tokenizer", state: "loading", loaded: 0, total: 0 });
    const loaded = source.bytes
      ? Tokenizer.fromJson(source.bytes)
      : await downloadTokenizer(source.url, gen).catch((e) => {
        throw gen !== tokenizerLoad ? new Error("superseded") : e;
      });
    if (gen !== tokenizerLoad) throw new Error("superseded");
    return enqueue(() => {
      if (gen !== tokenizerLoad) throw new Error("superseded");
      tokenizer = loaded; // the previous one may still be referenced: not freed
      mem?.configure({ tokenizer });
      return { kind: tokenizer.kind, exact: tokenizer.exact };
    });
  },
  /** Turns redaction at the egress on or off (`model`: with the PII model once loaded). The
   * memory's vault is kept across changes and stored with the chat. */
  setRedaction({ enabled, types, model = true }) {
    redaction = { enabled: !!enabled, types, model };
    mem?.configure({ redact: redactOption() });
    return redaction.enabled;
  },
  /**
   * Loads the PII model (once; IndexedDB keeps the file after the first download), posting
   * `{ event: "nerModel", loaded, total }` as it goes, then redacts with it.
   */
  async loadNerModel(url) {
    nerLoad ??= (async () => {
      let lastPost = 0;
      post({ event: "nerModel", state: "loading", loaded: 0, total: 0 });
      return NerModel.fromUrl(url, {
        onProgress: ({ loaded, total }) => {
          if (loaded - lastPost < 256 * 1024 && loaded !== total) return;
          lastPost = loaded;
          post({ event: "nerModel", state: "loading", loaded, total: total ?? 0 });
        },
      });
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
      annotator = new Redactor({ model: m });
      mem?.configure({ redact: redactOption() });
      return { fromCache: m.fromCache, attribution: m.attribution, license: m.license };
    });
  },
  /** A restorer for one streamed reply (none needed while nothing is redacted). */
  streamStart() {
    const id = nextRestorer++;
    restorers.set(id, mem.redacts ? mem.streamRestorer() : null);
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
    r.free();
    return rest;
  },
  /** A reply's text (or a tool call's arguments) with the real values back in place. */
  restore: (text) => mem.restore(text),
  add(role, content, extra) {
    if (role === "user" || role === "tool") annotate(content);
    const id = mem.add(role, content, extra);
    semantic.kick();
    return id;
  },
  /** Semantic recall on (loads the sentence embedder once, with progress) or off; off takes
   * effect when the page reopens the chat (a Memory keeps its embedder). */
  setSemantic: (on, url) => semantic.set(on, url),
  async context(query) {
    llmCalls = [];
    const { messages, report } = await mem.context(query ? { query } : undefined);
    const sent = messages.flatMap((m) => [m.content ?? "", ...(m.tool_calls ?? []).map((c) => String(c.function.arguments))]);
    return { messages, report, llmCalls, vault: mem.redacts ? placeholdersIn(sent) : [] };
  },
  entries: () => mem.entries(),
  pinned: () => mem.pinned(),
  pin: (text) => mem.pin(text),
  unpin: (id) => mem.unpin(id),
  forget: (id) => mem.forget(id),
  summaries: () => mem.summaries(),
  facts: () => mem.facts(),
  episodes: () => mem.episodes(),
  forgetFact: (id) => mem.forget(id),
  tools: () => mem.tools(),
  /** Runs a tool call of the model's through the memory's own tools, with the real values. */
  async callTool(call) {
    const args = call.function.arguments;
    return mem.callTool(call.function.name, typeof args === "string" ? mem.restore(args || "{}") : args ?? {});
  },
};

// Operations run one at a time, in order: a context() that waits for the summarizer must not
// see the memory change under it. The downloads of the tokenizer, the PII model and the
// sentence embedder run beside them. The page opens a chat before anything else reaches it
// (its sends wait in app.js).
let chain = Promise.resolve();
function enqueue(fn) {
  const run = chain.then(fn);
  chain = run.catch(() => {});
  return run;
}
const BESIDE = new Set(["loadTokenizer", "loadNerModel", "setSemantic"]);

self.onmessage = async ({ data: { id, op, args } }) => {
  try {
    if (!ops[op]) throw new Error(`unknown op ${op}`);
    const run = () => ops[op](...(args ?? []));
    const value = await (BESIDE.has(op) ? run() : enqueue(run));
    post({ id, ok: true, value });
  } catch (e) {
    post({ id, ok: false, error: { name: e?.name ?? "Error", code: e?.code, message: String(e?.message ?? e) } });
  }
};
