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
   *
   * @example
   * ```js
   * try {
   *   new Memory({ strategy: "tokens" }); // without maxTokens
   * } catch (e) {
   *   if (e instanceof LlmMemoryError && e.code === "INVALID_OPTION") console.warn(e.message);
   * }
   * ```
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

/** A non-extractable AES-GCM 256 `CryptoKey`, or a passphrase (PBKDF2-SHA256, 600 000
 *  iterations, salt SHA-256 of "llm-memory sync v1\n" + `sync.user`, default the session). */
export type SyncKey = CryptoKey | { passphrase: string };

/** What `mem.sync()` did: sync records pushed, other devices' records pulled, and records the
 * server rewrote without forgotten changes (`compacted`, after a `forget` or `clear`). */
export interface SyncResult { pushed: number; pulled: number; compacted: number }

/** `Memory.delete`'s second argument: a storage name, or options. */
export type DeleteTarget = StorageName | DeleteOptions;

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
