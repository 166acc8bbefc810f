// Type-checked by `tsc` in `make test`: the published .d.ts must accept correct use and reject
// wrong names, so editors catch mistakes before users run them.
import init, { Memory, Tokenizer } from "../../pkg/llm_memory.js";
import type { ContextResult, Entry, EntryRange, MemoryOptions, StrategyName, EntryReason, LlmMemoryError } from "../../pkg/llm_memory.js";

export async function usage(json: string): Promise<string> {
  await init();
  const tok = Tokenizer.fromJson(json);
  const n: number = tok.count("hello");
  const many: Uint32Array = tok.countMany(["a", "b"]);
  const options: MemoryOptions = {
    strategy: "summary",
    maxTokens: 2000,
    reserveTokens: 500,
    systemPrompt: "Be brief.",
    tokenizer: tok,
    summarize: async (prompt, info) => `${prompt.length} ${info.count}`,
    summaryTrigger: { messages: 20 },
  };
  const mem = new Memory(options);
  const id: string = mem.add("user", "hi", { name: "riley", metadata: { a: 1 } });
  mem.add("assistant", null, { toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: {} } }] });
  mem.add("tool", "42", { toolCallId: "c1" });
  mem.addMessage({ role: "assistant", content: "done" });
  const result: ContextResult = await mem.context({ query: "hi" });
  const reasons: EntryReason[] = result.report.entries.map((e) => e.reason);
  const ranges: EntryRange[] = result.report.ranges;
  const unsent: number = ranges.reduce((n, r) => n + r.count, 0) + result.report.entries.length - result.report.entryCount;
  const full = await mem.context({ detail: "all" });
  // @ts-expect-error: not a report detail
  await mem.context({ detail: "everything" });
  // @ts-expect-error: a range is never of sent entries
  const sentRange: EntryRange = { from: "e1", to: "e2", fromIndex: 0, count: 2, status: "included", reason: "withinBudget" };
  const entries: Entry[] = mem.entries();
  const strategy: StrategyName = result.report.strategy;
  mem.addStep({ type: "action", observations: "ok" });
  mem.stepMessages("summary");
  try {
    mem.forget(id);
  } catch (e) {
    const code: string = (e as LlmMemoryError).code;
    return code;
  }
  // @ts-expect-error: not a strategy
  new Memory({ strategy: "fancy" });
  // @ts-expect-error: not a role
  mem.add("robot", "hi");
  // @ts-expect-error: unknown option
  new Memory({ maxToken: 5 });
  // @ts-expect-error: not a step view
  mem.stepMessages("short");
  return `${n} ${many.length} ${reasons.length} ${entries.length} ${strategy} ${unsent} ${full.report.entries.length} ${sentRange.count}`;
}

export async function optionalArguments(): Promise<number> {
  const mem = new Memory();
  mem.add("user", "hi");
  const { messages } = await mem.context();
  return messages.length + mem.stepMessages().length;
}

// The one-callback setup: messages in the OpenAI shape, the request's purpose and limits.
export function oneCallback(baseUrl: string): Memory {
  const mem = new Memory({
    strategy: "summary",
    maxTokens: 4000,
    redact: true,
    llm: async (messages, { purpose, maxTokens, json, attempt, promptVersion }) => {
      const body = { model: "local", messages, max_tokens: maxTokens, ...(json ? { response_format: { type: "json_object" } } : {}) };
      const res = await fetch(`${baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(body) });
      const reply: { choices: { message: { content: string } }[] } = await res.json();
      console.log(purpose, attempt, promptVersion);
      return reply.choices[0].message.content;
    },
  });
  // @ts-expect-error: llm resolves to the reply text, not a response object
  new Memory({ llm: async () => ({ content: "x" }) });
  // @ts-expect-error: not a purpose
  const wrong: import("../../pkg/llm_memory.js").LlmPurpose = "translate";
  return wrong ? mem : mem;
}
