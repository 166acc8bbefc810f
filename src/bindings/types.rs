//! The TypeScript shapes of option objects, messages and reports, emitted into `pkg/*.d.ts`
//! so editors and `tsc` check callers precisely.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Who said it, in OpenAI chat terms. */
export type Role = "system" | "user" | "assistant" | "tool";

/** How the context is chosen each turn. */
export type StrategyName = "none" | "full" | "window" | "tokens" | "summary" | "retrieval";

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

/** An assistant's tool call, OpenAI format. `arguments` may be given as an object. */
export interface ToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments: string | object };
}

/** A message as chat-completions APIs take it. */
export interface ChatMessage {
  role: Role;
  /** `null` only on an assistant message with `tool_calls` and no text; empty text is `""`. */
  content: string | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface SummarizeInfo {
  requestId: number;
  prompt: string;
  previousSummary: string | null;
  /** The entries being folded in. */
  startId: string;
  endId: string;
  count: number;
}

/** What a request to the `llm` option is for. */
export type LlmPurpose = "summary" | "extract" | "episode";

/** A message handed to the `llm` option: the OpenAI chat shape, text only. */
export interface LlmMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** The second argument of the `llm` option. */
export interface LlmCallInfo {
  purpose: LlmPurpose;
  /** The reply length the prompt needs; pass it on as `max_tokens` (or lower it). */
  maxTokens: number;
  /** The prompt asks for JSON: turn on the API's JSON mode if it has one
   *  (`response_format: { type: "json_object" }`). */
  json: boolean;
  /** 1, or 2 for the one retry after an unusable answer (its messages end with the reason). */
  attempt: number;
  /** The version of the built-in prompts, e.g. "2026-12-01.1". */
  promptVersion: string;
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

export interface Entry {
  id: string;
  role: Role;
  content: string;
  timestamp: number;
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  metadata?: unknown;
  /** What this entry costs as a message, overhead included. */
  tokens: number;
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

export type EntryStatus = "included" | "dropped" | "summarized" | "retrieved";
export type EntryReason =
  | "latestUser" | "withinBudget" | "overBudget" | "outsideWindow" | "strategyNone"
  | "summarized" | "duplicate" | "orphanToolResult" | "toolPairIncomplete" | "relevant";
export type SectionName =
  | "system" | "pinned" | "summary" | "retrieved" | "episodes" | "tools" | "history";

export interface EntryReport {
  id: string;
  role: Role;
  tokens: number;
  status: EntryStatus;
  reason: EntryReason;
  /** Values redacted from this entry as sent, by type: { EMAIL: 1 }. */
  redacted?: Record<string, number>;
  /** Relevance score, for entries sent as retrieved memories. */
  score?: number;
}

/** Consecutive entries not sent, with one fate: `{ from: "e1", to: "e9880", count: 9880,
 * status: "dropped", reason: "overBudget" }`. */
export interface EntryRange {
  /** Id of the first entry of the range. */
  from: string;
  /** Id of the last entry of the range. */
  to: string;
  /** Position of `from` in `mem.entries()`. */
  fromIndex: number;
  count: number;
  status: Exclude<EntryStatus, "included" | "retrieved">;
  /** Entries the builder never reached (older than where the budget ran out, outside the
   * window) carry the reason that decided them as a block; `detail: "all"` judges each. */
  reason: EntryReason;
}

export interface SectionReport {
  name: SectionName;
  /** The source marker the section starts with, e.g. "[Summary of earlier conversation]". */
  marker?: string;
  tokens: number;
  messages: number;
  items: number;
  dropped: number;
}

export interface ContextReport {
  strategy: StrategyName;
  /** "Sending 6 of 40 messages (1234 / 2000 tokens)": history turns sent of all turns kept
   * (the system prompt, summary and memories are not counted there; see messagesSent). */
  headline: string;
  budget: { maxTokens?: number; reserveTokens: number; available?: number };
  /** Tokens of what is sent, overhead included, reserve excluded. */
  totalTokens: number;
  /** Length of `messages`: every message sent, system prompt, summary and memories included. */
  messagesSent: number;
  sections: SectionReport[];
  /** The entries sent, in order, with why (with `detail: "all"`: every entry). */
  entries: EntryReport[];
  /** The entries not in `entries`, as ranges in history order (empty with `detail: "all"`):
   * together the two name every entry exactly once. */
  ranges: EntryRange[];
  /** Entries in the history. */
  entryCount: number;
  summary?: { id: string; startId: string; endId: string; count: number; tokens: number; included: boolean; stale: boolean };
  tokenizer: { kind: string; exact: boolean };
  notes: string[];
  /** Values redacted from everything sent, by type (present when redaction is on). */
  redactions?: Record<string, number>;
  /** Memories strategy "retrieval" sent, with their scores. */
  retrieved?: RetrievedReport[];
}

export interface ContextResult {
  messages: ChatMessage[];
  report: ContextReport;
}

export interface PinnedFact { id: string; text: string }

export interface Summary {
  id: string;
  text: string;
  startId: string;
  endId: string;
  count: number;
  createdAt: number;
  /** Only on summaries stored by earlier versions: forgetting a turn now deletes the summaries
   *  that covered it. A stale summary is never sent. */
  stale: boolean;
}

export type StepInput =
  | { type: "task"; task: string }
  | { type: "planning"; plan: string }
  | { type: "action"; modelOutput?: string; toolCalls?: ToolCall[]; observations?: string; error?: string };

export type StepRecord = StepInput & { id: string; timestamp: number };

/** "full" for acting; "summary" for re-planning (no model outputs, latest plan only). */
export type StepView = "full" | "summary";

/** Where a session is stored. */
export type StorageName = "indexeddb" | "localstorage" | "memory";

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

/** What `mem.sync()` did: sync records pushed, other devices' records pulled, and records the
 * server rewrote without forgotten changes (`compacted`, after a `forget` or `clear`). */
export interface SyncResult { pushed: number; pulled: number; compacted: number }

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

export interface StoredRecord { kind: string; id: string; order: number; data: unknown }

/** The export format, version 2. `Memory.import` also takes version 1: `{ version: 1, messages: ChatMessage[] }`. */
export interface SessionDocument {
  format: "llm-memory/session";
  version: number;
  session: string;
  createdAt: number;
  updatedAt: number;
  ttlMs?: number;
  records: StoredRecord[];
}

export interface SessionInfo {
  session: string;
  schemaVersion: number;
  createdAt: number;
  updatedAt: number;
  ttlMs?: number;
  expiresAt?: number;
  turns: number;
  /** Approximate stored size. */
  bytes: number;
}
"#;
