// Type-checked by `make test-types`: the adapters' .d.ts against the real frameworks' types.
// The AI SDK middleware must be accepted by ai 7's wrapLanguageModel (and ai 6's, as v3); the LangChain history
// must be a BaseListChatMessageHistory; trimMessages must have LangChain's two call shapes.
import { wrapLanguageModel, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { wrapLanguageModel as wrapLanguageModel6 } from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import type { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import { Memory, Tokenizer } from "../../pkg/llm_memory.js";
import { memoryMiddleware } from "../../pkg/adapters/ai-sdk.js";
import { MemoryChatMessageHistory, contextMessages, trimMessages } from "../../pkg/adapters/langchain.js";

export function aiSdk(mem: Memory): LanguageModel {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4(),
    middleware: memoryMiddleware(mem, { onContext: ({ report }) => console.log(report.headline) }),
  });
  // @ts-expect-error: not a Memory
  memoryMiddleware("mem");
  // ai 7 also takes the v3 middleware of ai 6.
  wrapLanguageModel({ model: new MockLanguageModelV4(), middleware: memoryMiddleware(mem, { specificationVersion: "v3" }) });
  // ai 6 takes it as v3 middleware.
  wrapLanguageModel6({ model: new MockLanguageModelV3(), middleware: memoryMiddleware(mem, { specificationVersion: "v3" }) });
  return model;
}

export async function langchain(mem: Memory, tokenizer: Tokenizer, messages: BaseMessage[]): Promise<BaseMessage[]> {
  const history: BaseListChatMessageHistory = new MemoryChatMessageHistory(mem);
  await history.addMessage(new HumanMessage("hi"));
  const { messages: toSend, report } = await contextMessages(mem, { query: "hi" });
  const headline: string = report.headline;
  void headline;
  const runnable: Runnable<BaseMessage[], BaseMessage[]> = trimMessages({ maxTokens: 100, tokenizer });
  await runnable.invoke(toSend);
  // @ts-expect-error: counts come from the tokenizer, not a tokenCounter
  await trimMessages(messages, { maxTokens: 100, tokenCounter: () => 1 });
  return trimMessages(messages, { maxTokens: 100, tokenizer, startOn: "human" });
}
