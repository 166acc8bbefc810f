// Types of the AI SDK middleware (adapters/ai-sdk.js). They name no `ai` type, so the package
// needs no `ai` to type-check; the result is assignable to `wrapLanguageModel`'s `middleware`
// (LanguageModelV4Middleware in ai 7, or V3 in ai 6 with `specificationVersion: "v3"`).
import type { ContextResult, Memory } from "../llm_memory.js";

export interface MemoryMiddlewareOptions<V extends "v3" | "v4" = "v4"> {
  /** The SDK's middleware version: "v4" (ai 7, the default) or "v3" (ai 6). */
  specificationVersion?: V;
  /** Called with each context built (its messages, as sent, and the report). */
  onContext?: (result: ContextResult) => void;
}

/** The middleware object; its call options and results are the SDK's own types. */
export interface MemoryMiddleware<V extends "v3" | "v4" = "v4"> {
  readonly specificationVersion: V;
  transformParams(options: { type: "generate" | "stream"; params: any; model: any }): PromiseLike<any>;
  wrapGenerate(options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }): PromiseLike<any>;
  wrapStream(options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }): PromiseLike<any>;
}

/**
 * A Vercel AI SDK middleware that keeps the conversation in `mem`: each call adds the
 * prompt's new turns (after its last assistant message) to the memory, sends the memory's
 * context in place of the prompt (under its budget; redacted when the memory has `redact`),
 * restores placeholders in the reply (while it streams, too) and adds the reply back.
 * A `system` given to the call becomes the memory's `systemPrompt`; images and files of the
 * new user turn are sent with it, but the memory keeps only its text.
 *
 * @example
 * ```js
 * import { streamText, wrapLanguageModel } from "ai";
 * import { memoryMiddleware } from "llm-memory/ai-sdk";
 * const mem = await Memory.open({ session: "chat-1", redact: true, strategy: "tokens", maxTokens: 4000 });
 * const model = wrapLanguageModel({ model: openai("gpt-4o-mini"), middleware: memoryMiddleware(mem) });
 * const { textStream } = streamText({ model, prompt: "Mail me at dana@example.net" });
 * ```
 */
export function memoryMiddleware<V extends "v3" | "v4" = "v4">(mem: Memory, options?: MemoryMiddlewareOptions<V>): MemoryMiddleware<V>;

/** The memory's OpenAI-style messages as the SDK's prompt (LanguageModelV3/V4 messages). */
export function toSdkPrompt(messages: ContextResult["messages"]): unknown[];
