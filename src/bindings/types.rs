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

export type ReportDetail = "sent" | "all";

/** A non-extractable AES-GCM 256 `CryptoKey`, or a passphrase (PBKDF2-SHA256, 600 000
 *  iterations, salt SHA-256 of "llm-memory sync v1\n" + `sync.user`, default the session). */
export type SyncKey = CryptoKey | { passphrase: string };

/** `Memory.delete`'s second argument: a storage name, or options. */
export type DeleteTarget = StorageName | DeleteOptions;

"#;
