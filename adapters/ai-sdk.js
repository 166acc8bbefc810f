// The Vercel AI SDK face of a Memory: a language-model middleware for `wrapLanguageModel`.
// Each call adds the prompt's new turns to the memory, sends the memory's context instead of
// the prompt (under its budget, redacted when the memory redacts), restores the reply (also
// while it streams) and adds it back. It imports nothing from `ai` (only the package's error class): the middleware is a plain
// object of the shape `wrapLanguageModel` takes, so it works with the SDK's v6 (LanguageModelV3)
// and v7 (LanguageModelV4) model interfaces alike.

import { LlmMemoryError } from "../llm_memory.js";

/**
 * @param {import("../llm_memory.js").Memory} mem
 * @param {{ specificationVersion?: "v3" | "v4", onContext?: (result: import("../llm_memory.js").ContextResult) => void }} [options]
 */
export function memoryMiddleware(mem, options = {}) {
  if (!mem || typeof mem.context !== "function" || typeof mem.add !== "function") {
    throw codedError("INVALID_OPTION", "memoryMiddleware(mem): mem must be a Memory (new Memory(...) or await Memory.open(...))");
  }
  const { specificationVersion = "v4", onContext } = options;
  // The system prompt last given to the memory, and the user turn added with no reply yet.
  const state = { system: null, unanswered: null };
  return {
    specificationVersion,
    async transformParams({ params }) {
      const { query, files } = takePrompt(mem, params.prompt, state);
      const result = await mem.context(query ? { query } : undefined);
      onContext?.(result);
      const prompt = toSdkPrompt(result.messages);
      // Images and files of the new user turn go with it (the memory keeps text only).
      const last = prompt.at(-1);
      if (files.length && last?.role === "user") last.content.push(...files);
      return { ...params, prompt };
    },
    async wrapGenerate({ doGenerate }) {
      const result = await doGenerate();
      const content = result.content.map((part) => restorePart(mem, part));
      addReply(mem, content, state);
      return { ...result, content };
    },
    async wrapStream({ doStream }) {
      const { stream, ...rest } = await doStream();
      return { ...rest, stream: stream.pipeThrough(restoringStream(mem, state)) };
    },
  };
}

function codedError(code, message) {
  return new LlmMemoryError(code, message);
}

/**
 * Adds what the prompt holds after its last assistant message (the new user turn, or the tool
 * results of a step) to the memory, and takes the prompt's system message as the memory's
 * system prompt. Apps may send the whole conversation (as `useChat` does) or only the new
 * turn: what came before the last assistant message is in the memory already, since the
 * middleware added the replies. Returns the latest user text (the query for retrieval) and
 * that turn's non-text parts (images, files), which are sent with it but not kept.
 */
function takePrompt(mem, prompt, state) {
  const system = prompt.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
  if (system && system !== state.system) mem.configure({ systemPrompt: system });
  if (system) state.system = system;
  let start = prompt.length;
  while (start > 0 && prompt[start - 1].role !== "assistant") start--;
  let query = "";
  let files = [];
  for (const message of prompt.slice(start)) {
    if (message.role === "user") {
      const said = textOf(message.content);
      query = said;
      files = typeof message.content === "string" ? [] : message.content.filter((p) => p.type !== "text");
      // The same user turn again with no reply after it: a retry, not a new turn.
      if (said === state.unanswered) continue;
      mem.add("user", said);
      state.unanswered = said;
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        mem.add("tool", toolOutputText(part.output), { toolCallId: part.toolCallId });
      }
    }
  }
  return { query, files };
}

const textOf = (parts) =>
  typeof parts === "string" ? parts : parts.filter((p) => p.type === "text").map((p) => p.text).join("");

function toolOutputText(output) {
  if (output == null) return "";
  if (output.type === "text" || output.type === "error-text") return String(output.value);
  if (output.type === "json" || output.type === "error-json") return JSON.stringify(output.value);
  if (output.type === "execution-denied") return `execution denied${output.reason ? `: ${output.reason}` : ""}`;
  return JSON.stringify(output.value ?? output);
}

/** The memory's OpenAI-style messages as the SDK's prompt (LanguageModelV3/V4 messages). */
export function toSdkPrompt(messages) {
  const toolNames = new Map();
  return messages.map((m) => {
    if (m.role === "system") return { role: "system", content: m.content ?? "" };
    if (m.role === "user") return { role: "user", content: [{ type: "text", text: m.content ?? "" }] };
    if (m.role === "assistant") {
      const content = m.content ? [{ type: "text", text: m.content }] : [];
      for (const call of m.tool_calls ?? []) {
        toolNames.set(call.id, call.function.name);
        content.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parseArguments(call.function.arguments) });
      }
      return { role: "assistant", content };
    }
    const toolName = toolNames.get(m.tool_call_id) ?? "tool";
    return { role: "tool", content: [{ type: "tool-result", toolCallId: m.tool_call_id, toolName, output: { type: "text", value: m.content ?? "" } }] };
  });
}

function parseArguments(args) {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** A generated part with the placeholders of its text (and of a tool call's input) restored. */
function restorePart(mem, part) {
  if (part.type === "text" || part.type === "reasoning") return { ...part, text: mem.restore(part.text) };
  if (part.type === "tool-call" && typeof part.input === "string") return { ...part, input: mem.restore(part.input) };
  return part;
}

/** Adds the reply (its text and tool calls; reasoning stays out) to the memory. */
function addReply(mem, content, state) {
  state.unanswered = null;
  const text = content.filter((p) => p.type === "text").map((p) => p.text).join("");
  const toolCalls = content
    .filter((p) => p.type === "tool-call" && !p.providerExecuted)
    .map((p) => ({ id: p.toolCallId, type: "function", function: { name: p.toolName, arguments: p.input } }));
  if (toolCalls.length) mem.add("assistant", text || null, { toolCalls });
  else mem.add("assistant", text);
}

/**
 * Restores a streamed reply as it passes: one stream restorer per text, reasoning and
 * tool-input block (a placeholder split across deltas is held back until it is whole, and
 * sent before the block's end), and adds the reply to the memory when the stream finishes.
 */
function restoringStream(mem, state) {
  const restorers = new Map();
  const texts = new Map(); // text block id -> restored text, in order of first delta
  const parts = [];
  const restorerOf = (key) => {
    if (!restorers.has(key)) restorers.set(key, mem.streamRestorer());
    return restorers.get(key);
  };
  const flush = (key, part, controller) => {
    const restorer = restorers.get(key);
    if (!restorer) return;
    restorers.delete(key);
    const rest = restorer.finish();
    restorer.free?.();
    if (!rest) return;
    const type = key.startsWith("text:") ? "text-delta" : key.startsWith("reasoning:") ? "reasoning-delta" : "tool-input-delta";
    if (type === "text-delta") texts.set(part.id, (texts.get(part.id) ?? "") + rest);
    controller.enqueue({ type, id: part.id, delta: rest });
  };
  let added = false;
  const addOnce = () => {
    if (added) return;
    added = true;
    addReply(mem, [{ type: "text", text: [...texts.values()].join("") }, ...parts], state);
  };
  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case "text-delta": {
          const shown = restorerOf(`text:${part.id}`).push(part.delta);
          texts.set(part.id, (texts.get(part.id) ?? "") + shown);
          if (shown) controller.enqueue({ ...part, delta: shown });
          return;
        }
        case "reasoning-delta":
        case "tool-input-delta": {
          const key = `${part.type === "reasoning-delta" ? "reasoning" : "tool-input"}:${part.id}`;
          const shown = restorerOf(key).push(part.delta);
          if (shown) controller.enqueue({ ...part, delta: shown });
          return;
        }
        case "text-end":
        case "reasoning-end":
        case "tool-input-end":
          flush(`${part.type.slice(0, -4)}:${part.id}`, part, controller);
          controller.enqueue(part);
          return;
        case "tool-call": {
          const restored = restorePart(mem, part);
          parts.push(restored);
          controller.enqueue(restored);
          return;
        }
        case "finish":
          for (const key of [...restorers.keys()]) flush(key, { id: key.slice(key.indexOf(":") + 1) }, controller);
          addOnce();
          controller.enqueue(part);
          return;
        default:
          controller.enqueue(part);
      }
    },
    flush(controller) {
      // A stream that ended without a finish part (a provider that omits it): still restore
      // what is held and keep the reply.
      for (const key of [...restorers.keys()]) flush(key, { id: key.slice(key.indexOf(":") + 1) }, controller);
      if (texts.size || parts.length) addOnce();
    },
  });
}
