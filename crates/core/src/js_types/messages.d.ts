// The messages the memory keeps and sends, and what the `summarize` and `llm` callbacks are handed.

/** Who said it, in OpenAI chat terms. */
export type Role = "system" | "user" | "assistant" | "tool";

/** How the context is chosen each turn. */
export type StrategyName = "none" | "full" | "window" | "tokens" | "summary" | "retrieval";

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
