// The LangChain.js face of a Memory: a chat message history (`BaseListChatMessageHistory`,
// for `RunnableWithMessageHistory` and agents) stored in a Memory, the memory's context as
// LangChain messages, and `trimMessages` with LangChain's call shapes whose counts come from
// the model's own tokenizer and which keeps the library's rules (the latest user turn is
// always kept, a tool call travels with its results).
import { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { LlmMemoryError, Memory } from "../llm_memory.js";

function codedError(code, message) {
  return new LlmMemoryError(code, message);
}

const typeOf = (message) => message.getType?.() ?? message._getType?.() ?? message.type;

function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((c) => typeof c === "string" || c?.type === "text").map((c) => (typeof c === "string" ? c : c.text)).join("");
}

/** A LangChain message as `mem.add` arguments: `[role, content, extra]`. */
export function toMemoryMessage(message) {
  const type = typeOf(message);
  const text = textOf(message.content);
  const extra = message.name ? { name: message.name } : {};
  if (type === "human") return ["user", text, extra];
  if (type === "system" || type === "developer") return ["system", text, extra];
  if (type === "tool") return ["tool", text, { ...extra, toolCallId: message.tool_call_id }];
  if (type === "ai") {
    const toolCalls = (message.tool_calls ?? []).map((c) => ({
      id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
    }));
    return toolCalls.length ? ["assistant", text || null, { ...extra, toolCalls }] : ["assistant", text, extra];
  }
  throw codedError("INVALID_ROLE", `a ${type} message has no chat role; use HumanMessage, AIMessage, SystemMessage or ToolMessage`);
}

/** An OpenAI-style message (`mem.context().messages`, `mem.entries()`) as a LangChain message. */
export function toLangChainMessage(message) {
  const content = message.content ?? "";
  const name = message.name ? { name: message.name } : {};
  const calls = message.tool_calls ?? message.toolCalls;
  const callId = message.tool_call_id ?? message.toolCallId;
  switch (message.role) {
    case "user":
      return new HumanMessage({ content, ...name });
    case "system":
      return new SystemMessage({ content, ...name });
    case "tool":
      return new ToolMessage({ content, tool_call_id: callId, ...name });
    default: {
      const toolCalls = (calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: parseArguments(c.function.arguments), type: "tool_call" }));
      return new AIMessage({ content, ...name, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
    }
  }
}

function parseArguments(args) {
  if (typeof args !== "string") return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return { input: args };
  }
}

/**
 * What to send this turn, as LangChain messages: the memory's context (its strategy, budget,
 * summary, pinned facts and memories; redacted when the memory redacts) and its report.
 */
export async function contextMessages(mem, options) {
  const { messages, report } = await mem.context(options);
  return { messages: messages.map(toLangChainMessage), report };
}

/**
 * A LangChain chat message history kept in a Memory (use `Memory.open` to keep it across
 * reloads). `getMessages()` is the whole conversation with its real values;
 * `contextMessages()` is what to send. An AI message added here is restored first, so a reply
 * that repeats a placeholder of a redacting memory is stored with the real value.
 */
export class MemoryChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ["llm_memory", "langchain", "MemoryChatMessageHistory"];

  /** @param {Memory} mem */
  constructor(mem) {
    super();
    if (!mem || typeof mem.entries !== "function") throw codedError("INVALID_OPTION", "MemoryChatMessageHistory(mem): mem must be a Memory");
    this.memory = mem;
  }

  async getMessages() {
    return this.memory.entries().map(toLangChainMessage);
  }

  async addMessage(message) {
    const [role, content, extra] = toMemoryMessage(message);
    this.memory.add(role, role === "assistant" && content ? this.memory.restore(content) : content, extra);
  }

  async addMessages(messages) {
    for (const message of messages) await this.addMessage(message);
  }

  async clear() {
    this.memory.clear();
  }

  /** The memory's context as LangChain messages, with its report (see `contextMessages`). */
  contextMessages(options) {
    return contextMessages(this.memory, options);
  }
}

const asTypes = (x) => (x == null ? null : (Array.isArray(x) ? x : [x]).map((t) => (typeof t === "string" ? t : typeOf(new t({ content: "" })))));

/**
 * `trimMessages` with LangChain's call shapes: `trimMessages(messages, options)` resolves to
 * the messages kept (the same objects), `trimMessages(options)` is a Runnable. Counts come from
 * `tokenizer` (a Tokenizer of the model's tokenizer.json; approximate without one) with the
 * chat format's per-message overhead, not from a `tokenCounter`. The newest messages that fit
 * `maxTokens` are kept (strategy "last"), always the latest human message and the system
 * message (unless `includeSystem: false`), a tool call together with its results or not at all.
 */
export function trimMessages(messagesOrOptions, options) {
  if (!Array.isArray(messagesOrOptions)) {
    const fixed = messagesOrOptions;
    check(fixed);
    return RunnableLambda.from((messages) => trim(messages, fixed));
  }
  check(options);
  return trim(messagesOrOptions, options);
}

function check(options) {
  if (!options || typeof options !== "object") throw codedError("INVALID_OPTION", "trimMessages: options with maxTokens are required");
  if (options.tokenCounter !== undefined) {
    throw codedError("INVALID_OPTION", "trimMessages: tokenCounter is not taken; give `tokenizer` (Tokenizer.fromJson(the model's tokenizer.json)) for exact counts");
  }
  if (options.strategy !== undefined && options.strategy !== "last") {
    throw codedError("INVALID_OPTION", `trimMessages: strategy "${options.strategy}" is not supported; the newest messages are kept ("last")`);
  }
  if (options.allowPartial) throw codedError("INVALID_OPTION", "trimMessages: allowPartial is not supported; messages are kept whole or dropped");
}

async function trim(messages, options) {
  const { maxTokens, tokenizer, reserveTokens = 0, messageOverhead, includeSystem = true, startOn, endOn } = options;
  const first = messages[0] && typeOf(messages[0]) === "system" && includeSystem ? messages[0] : null;
  const mem = new Memory({
    strategy: "tokens", maxTokens, reserveTokens, dedup: false,
    ...(first ? { systemPrompt: textOf(first.content) } : {}),
    ...(tokenizer ? { tokenizer } : {}),
    ...(messageOverhead ? { messageOverhead } : {}),
  });
  try {
    const byId = new Map();
    for (const message of first ? messages.slice(1) : messages) {
      const [role, content, extra] = toMemoryMessage(message);
      byId.set(mem.add(role, content, extra), message);
    }
    const { report } = await mem.context();
    let kept = report.entries.map((e) => byId.get(e.id));
    const starts = asTypes(startOn);
    if (starts) while (kept.length && !starts.includes(typeOf(kept[0]))) kept.shift();
    const ends = asTypes(endOn);
    if (ends) while (kept.length && !ends.includes(typeOf(kept.at(-1)))) kept.pop();
    return first ? [first, ...kept] : kept;
  } finally {
    mem.free();
  }
}
