// pkg-core's .d.ts type-checks on its own (no type of a part it leaves out is named), and an
// app written against it compiles.
import init, { Memory, Tokenizer, LlmMemoryError } from "../../pkg-core/llm_memory.js";

export async function chat(tokenizerJson: string): Promise<number> {
  await init();
  const mem = new Memory({ strategy: "tokens", maxTokens: 2000, tokenizer: Tokenizer.fromJson(tokenizerJson) });
  mem.add("user", "Hello");
  const { messages, report } = await mem.context();
  try {
    new Memory({ redact: true });
  } catch (e) {
    if (e instanceof LlmMemoryError && e.code === "NOT_IN_BUILD") return messages.length;
  }
  return report.totalTokens;
}
