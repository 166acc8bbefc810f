//! The TypeScript shapes of option objects and the error class, emitted into `pkg/*.d.ts` so
//! editors and `tsc` check callers precisely; those of the core's data come from core.

use wasm_bindgen::prelude::*;

// The shapes of the data the core writes are declared beside it (`crate::js_types`).
#[wasm_bindgen(typescript_custom_section)]
const MESSAGES: &str = crate::js_types::MESSAGES;
#[wasm_bindgen(typescript_custom_section)]
const CONTEXT: &str = crate::js_types::CONTEXT;
#[wasm_bindgen(typescript_custom_section)]
const STORE: &str = crate::js_types::STORE;
#[wasm_bindgen(typescript_custom_section)]
const RECALL: &str = crate::js_types::RECALL;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** The one error class of the package: everything llm-memory throws or rejects with is an
 * `LlmMemoryError` with a stable `code` (the `ErrorCode` union). */
export class LlmMemoryError extends Error {
  /**
   * An error with a code, as the package makes them (apps and adapters may make their own).
   */
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown });
  readonly name: "LlmMemoryError";
  readonly code: ErrorCode;
  /** Every code, as the core declares them (filled once the module is initialized). */
  static readonly codes: readonly ErrorCode[];
}

export interface MemoryOptions {
  /** Default "full". "tokens" and "summary" need maxTokens. */
  strategy?: StrategyName;
  /** The context budget in tokens, reply reserve included. */
  maxTokens?: number;
  /** Tokens kept free for the reply (default 0). */
  reserveTokens?: number;
  /** Turns kept by strategy "window" (default 20). */
  maxTurns?: number;
  systemPrompt?: string;
  /** Default: Tokenizer.approximate(). */
  tokenizer?: Tokenizer;
  /** One chat-completion call that powers summaries, fact extraction and episodes with the
   *  built-in prompts: receives OpenAI-style messages, resolves to the reply text. Redacted
   *  like everything sent when `redact` is on. `summarize` and `extract` override it. */
  llm?: (messages: LlmMessage[], info: LlmCallInfo) => Promise<string> | string;
  /** Writes a summary; receives the prompt, resolves to the summary text. */
  summarize?: (prompt: string, info: SummarizeInfo) => Promise<string> | string;
  /** When to summarize (default: unsummarized turns over 3/4 of the budget). */
  summaryTrigger?: { messages?: number; tokens?: number };
  /** Messages always sent verbatim after the summary (default 6). */
  keepRecent?: number;
  /** Template with {summary} and {turns}. */
  summaryPrompt?: string;
  /** How long context() waits for the summarizer before trimming instead (default 20000). */
  summaryTimeoutMs?: number;
  /** Tokens the chat format adds (OpenAI defaults: 3 per message, 1 per name, 3 per request, 3 per tool call). */
  messageOverhead?: { perMessage?: number; perName?: number; perRequest?: number; perToolCall?: number };
  /** Upper bounds per section in tokens; the rest goes to recent turns. */
  sectionLimits?: { pinned?: number; summary?: number };
  /** Largest message accepted, in characters (default 1 048 576). */
  maxEntryChars?: number;
  /** Drop a message identical to the next one (default true). */
  dedup?: boolean;
  /** Redact personal data and secrets from everything sent (turns, tool arguments, system
   *  prompt, pinned facts, memories, the summarizer's prompt): true, or Redactor options.
   *  Restore replies with mem.restore() / mem.streamRestorer(). */
  redact?: boolean | RedactorInit;
  /** Called after each exchange (by context(), or by extractFacts()) with the turns it has not
   *  seen; resolves to fact operations, e.g. an LLM call that reads the turns. */
  extract?: (turns: Entry[]) => Promise<ExtractOp[]> | ExtractOp[];
  /** Embeds texts for hybrid retrieval (any embedding API or in-browser model). */
  embed?: (texts: string[]) => Promise<(number[] | Float32Array)[]> | (number[] | Float32Array)[];
  /** Embeds texts in this page with our own model (`EmbedModel.fromBytes`): recall by meaning
   *  with nothing sent anywhere. Use it or `embed`, not both. */
  embedder?: EmbedModel;
  /** How long `extract`, `embed` and the `summarize` call of recordEpisode() may take, in ms
   *  (default 30 000). Past it, context() goes on without them (a note says so) and
   *  recordEpisode() rejects with CALLBACK_FAILED. */
  callbackTimeoutMs?: number;
  /** Count the memory tools' schemas (mem.tools()) against every context's budget. */
  tools?: boolean;
  /** Strategy "retrieval" knobs. The defaults were chosen on public long-conversation data
   *  (see BENCHMARKS.md, "Evidence recall"). */
  retrieval?: {
    /** Part of the budget after the mandatory messages that the newest turns get before
     *  memories (default 0.1); they also get whatever the memories leave. A history that fits
     *  the budget is sent whole. */
    recentShare?: number;
    /** Most memories per context (default 200; the budget is the usual limit). */
    maxItems?: number;
    /** Age at which recency has halved, in days (default 30). */
    halfLifeDays?: number;
    /** 0..1, how much recency weighs (default 0.05: it breaks near-ties, it does not bury
     *  the past). */
    recencyWeight?: number;
    /** 0..1, how much importance weighs (default 0.5). */
    importanceWeight?: number;
    /** 0..1, the words' share of the relevance when an item has both signals; meaning gets
     *  the rest (default 0.7). */
    lexicalWeight?: number;
    quantize?: boolean;
  };
}

export interface AddExtra {
  name?: string;
  /** The calls of an assistant message (OpenAI format). */
  toolCalls?: ToolCall[];
  /** The call a tool message answers. */
  toolCallId?: string;
  /** App data kept with the entry, never sent to the model. */
  metadata?: unknown;
  /** Milliseconds since the epoch (default Date.now()). */
  timestamp?: number;
}

export interface ContextOptions {
  /** What the turn is about; used by retrieval strategies. */
  query?: string;
  /** Count the memory tools' schemas against this context's budget (default: the tools option). */
  tools?: boolean;
  /** "sent" (default): `report.entries` lists the entries sent and `report.ranges` the rest, so
   * a turn costs what it sends however long the history; "all": every entry is listed, each
   * with its own reason (work proportional to the history). */
  detail?: ReportDetail;
}

export type ReportDetail = "sent" | "all";

export interface OpenOptions extends MemoryOptions {
  /** The chat's name; opening it again (after a reload, in another tab) finds it. */
  session: string;
  /** Default "indexeddb" where available (browsers, workers), else "memory". */
  storage?: StorageName;
  /** Remove the session this long after its last change (checked when any session opens). */
  ttlMs?: number;
  /** Called with a coded Error when a background write fails (default: console.error). */
  onError?: (error: LlmMemoryError) => void;
  /** Called after another tab's (or, with `sync`, another device's) changes to this session
   *  were applied here (the one way to listen; the `onchange` setter is deprecated). */
  onChange?: () => void;
  /** Keep the session in step with the user's other devices through a sync server
   *  (docs/sync-protocol.md). The server stores ciphertext only; the same key also encrypts
   *  the records at rest here (unless `encrypt` gives another). */
  sync?: SyncOptions;
  /** Encrypt the records at rest (IndexedDB, localStorage), the redaction vault included. */
  encrypt?: { key: SyncKey };
}

/** A non-extractable AES-GCM 256 `CryptoKey`, or a passphrase (PBKDF2-SHA256, 600 000
 *  iterations, salt SHA-256 of "llm-memory sync v1\n" + `sync.user`, default the session). */
export type SyncKey = CryptoKey | { passphrase: string };

export interface SyncOptions {
  /** The server's base URL, e.g. "https://sync.example.com" (`make serve` prints one). */
  url: string;
  /** The account's bearer token. */
  token: string;
  /** Encrypts everything the server stores; every device of the account needs the same key. */
  key: SyncKey;
  /** Pull every this many ms (default 30 000; 0: only on open, after writes and `mem.sync()`). */
  intervalMs?: number;
  /** The label a passphrase's salt is made from: the same on every device (default the session). */
  user?: string;
}

/** `Memory.delete`'s options: the storage, and `sync` to delete it on the server (every device). */
export interface DeleteOptions {
  storage?: StorageName;
  sync?: Pick<SyncOptions, "url" | "token">;
}

/** `Memory.delete`'s second argument: a storage name, or options. */
export type DeleteTarget = StorageName | DeleteOptions;

export interface ImportOptions extends Omit<Partial<OpenOptions>, "sync" | "encrypt"> {
  /** Replace a stored session of the same name (default false: an error). */
  overwrite?: boolean;
  /** Largest document accepted, in bytes (default 64 MiB). */
  maxBytes?: number;
}

"#;
