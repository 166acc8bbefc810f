// Types of the LangChain.js adapter (adapters/langchain.js); @langchain/core is a peer dependency.
import type { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import type { BaseMessage, MessageTypeOrClass } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { AddExtra, ChatMessage, ContextOptions, ContextReport, Entry, Memory, MemoryOptions, Role, Tokenizer } from "../llm_memory.js";

/** A LangChain message as `mem.add` arguments: `[role, content, extra]`. */
export function toMemoryMessage(message: BaseMessage): [Role, string | null, AddExtra];

/** An OpenAI-style message (`mem.context().messages`) or a memory entry as a LangChain message. */
export function toLangChainMessage(message: ChatMessage | Entry): BaseMessage;

/** What to send this turn as LangChain messages: the memory's context (redacted when it redacts) and its report. */
export function contextMessages(mem: Memory, options?: ContextOptions): Promise<{ messages: BaseMessage[]; report: ContextReport }>;

/**
 * A LangChain chat message history kept in a Memory. `getMessages()` is the whole
 * conversation with its real values; `contextMessages()` is what to send. AI messages are
 * restored as they are added (a placeholder the model repeated is stored as its value).
 *
 * @example
 * ```js
 * const history = new MemoryChatMessageHistory(await Memory.open({ session: "chat-1", redact: true, maxTokens: 4000, strategy: "tokens" }));
 * await history.addMessage(new HumanMessage("Mail me at jo@example.com"));
 * const reply = await chatModel.invoke((await history.contextMessages()).messages);
 * await history.addMessage(reply);
 * ```
 */
export class MemoryChatMessageHistory extends BaseListChatMessageHistory {
  constructor(mem: Memory);
  readonly memory: Memory;
  lc_namespace: string[];
  getMessages(): Promise<BaseMessage[]>;
  addMessage(message: BaseMessage): Promise<void>;
  addMessages(messages: BaseMessage[]): Promise<void>;
  clear(): Promise<void>;
  /** The memory's context as LangChain messages, with its report. */
  contextMessages(options?: ContextOptions): Promise<{ messages: BaseMessage[]; report: ContextReport }>;
}

/** LangChain's `trimMessages` options that apply here, plus the tokenizer that counts. */
export interface TrimMessagesOptions {
  maxTokens: number;
  /** The model's tokenizer (`Tokenizer.fromJson`); without one, counts are approximate. */
  tokenizer?: Tokenizer;
  /** Tokens kept free for the reply (default 0). */
  reserveTokens?: number;
  /** The chat format's per-message overhead (default OpenAI's). */
  messageOverhead?: MemoryOptions["messageOverhead"];
  /** Only "last" (the newest messages are kept). */
  strategy?: "last";
  /** Keep a leading system message outside the budget's trimming (default true). */
  includeSystem?: boolean;
  startOn?: MessageTypeOrClass | MessageTypeOrClass[];
  endOn?: MessageTypeOrClass | MessageTypeOrClass[];
}

/**
 * `trimMessages` with LangChain's call shapes and the library's counting and rules: the
 * newest messages that fit, the latest human message always (`CONTEXT_OVERFLOW` when it
 * alone does not fit), a tool call with its results or neither. Resolves to the same message
 * objects; with options only, returns a Runnable.
 *
 * @example
 * ```js
 * const kept = await trimMessages(messages, { maxTokens: 4000, tokenizer });
 * const chain = trimMessages({ maxTokens: 4000, tokenizer }).pipe(chatModel);
 * ```
 */
export function trimMessages(messages: BaseMessage[], options: TrimMessagesOptions): Promise<BaseMessage[]>;
export function trimMessages(options: TrimMessagesOptions): Runnable<BaseMessage[], BaseMessage[]>;
