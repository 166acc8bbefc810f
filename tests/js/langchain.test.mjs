// The LangChain.js adapter (pkg/adapters/langchain.js) with the real @langchain/core: the chat
// message history over a Memory (with LangChain's own test chat model), the context as
// LangChain messages, and trimMessages against LangChain's own on the same inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages as lcTrimMessages } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { Memory, loadTokenizer, throwsCode } from "./helpers.mjs";
import { MemoryChatMessageHistory, contextMessages, trimMessages } from "../../pkg/adapters/langchain.js";

const shape = (messages) => messages.map((m) => [m.getType(), m.content]);

test("the history stores LangChain messages in the Memory and gives them back, tool calls included", async () => {
  const mem = new Memory();
  const history = new MemoryChatMessageHistory(mem);
  await history.addMessages([
    new HumanMessage("What's the weather in Paris?"),
    new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "weather", args: { city: "Paris" }, type: "tool_call" }] }),
    new ToolMessage({ content: "18C, sunny", tool_call_id: "c1" }),
  ]);
  await history.addAIMessage("18C and sunny.");
  assert.equal(mem.length, 4);
  assert.deepEqual(mem.entries()[1].toolCalls[0].function, { name: "weather", arguments: '{"city":"Paris"}' });
  const back = await history.getMessages();
  assert.deepEqual(shape(back), [["human", "What's the weather in Paris?"], ["ai", ""], ["tool", "18C, sunny"], ["ai", "18C and sunny."]]);
  assert.deepEqual(back[1].tool_calls.map(({ id, name, args }) => ({ id, name, args })), [{ id: "c1", name: "weather", args: { city: "Paris" } }]);
  assert.equal(back[2].tool_call_id, "c1");
  await history.clear();
  assert.equal(mem.length, 0);
});

test("a turn with a chat model: the context is redacted for the model, the reply restored into the history", async () => {
  const mem = new Memory({ redact: true, strategy: "tokens", maxTokens: 2000 });
  const history = new MemoryChatMessageHistory(mem);
  // LangChain's own test chat model; the callback sees the messages exactly as the model gets them.
  const sent = [];
  const model = new FakeListChatModel({ responses: ["I'll write to [EMAIL_1] today."] });
  const callbacks = [{ handleChatModelStart: (_llm, [messages]) => sent.push(messages.map((m) => m.content).join("\n")) }];

  await history.addMessage(new HumanMessage("Please mail me at jo.park@example.com"));
  const { messages } = await history.contextMessages();
  const reply = await model.invoke(messages, { callbacks });
  await history.addMessage(reply);

  assert.equal(sent.length, 1);
  assert.ok(!sent[0].includes("jo.park@example.com") && sent[0].includes("[EMAIL_1]"), sent[0]);
  assert.deepEqual(shape(await history.getMessages()), [
    ["human", "Please mail me at jo.park@example.com"],
    ["ai", "I'll write to jo.park@example.com today."],
  ]);
});

test("contextMessages: the memory's budget decides, and the latest human message is always sent", async () => {
  const mem = new Memory({ strategy: "tokens", maxTokens: 100, systemPrompt: "Be brief." });
  for (let i = 0; i < 10; i++) {
    mem.add("user", `Question ${i}: what happened in the long story chapter ${i}?`);
    mem.add("assistant", `In chapter ${i}, many things happened that took a while to tell.`);
  }
  mem.add("user", "And next?");
  const { messages, report } = await contextMessages(mem);
  assert.ok(messages.length < 22, `${messages.length} sent`);
  assert.ok(report.totalTokens <= 100);
  assert.ok(messages[0] instanceof SystemMessage);
  assert.deepEqual(shape(messages.slice(-1)), [["human", "And next?"]]);
});

const conversation = () => [
  new SystemMessage("You are a helpful assistant."),
  new HumanMessage("Tell me about Lisbon, the capital of Portugal, in a few words."),
  new AIMessage("Lisbon is a hilly coastal city known for trams, fado and pastel de nata."),
  new HumanMessage("And Porto, the second city?"),
  new AIMessage("Porto sits on the Douro river and gives its name to port wine."),
  new HumanMessage("Which one should I visit first?"),
];

test("trimMessages: LangChain's call shapes, the same message objects, the newest that fit", async () => {
  const tokenizer = loadTokenizer("gpt4o");
  const messages = conversation();
  const all = await trimMessages(messages, { maxTokens: 1000, tokenizer });
  assert.equal(all.length, messages.length);
  all.forEach((m, i) => assert.equal(m, messages[i]));

  const trimmed = await trimMessages(messages, { maxTokens: 60, tokenizer });
  assert.ok(trimmed.length < messages.length && trimmed.length >= 2, `${trimmed.length} kept`);
  assert.equal(trimmed[0], messages[0]);
  assert.equal(trimmed.at(-1), messages.at(-1));
  // What is kept is the newest messages: a suffix of the conversation.
  const rest = trimmed.slice(1);
  assert.deepEqual(rest, messages.slice(messages.length - rest.length));

  const runnable = trimMessages({ maxTokens: 60, tokenizer });
  assert.deepEqual(await runnable.invoke(messages), trimmed);
});

test("trimMessages keeps what LangChain's own keeps given the same exact counter", async () => {
  const tokenizer = loadTokenizer("gpt4o");
  const messages = conversation();
  // LangChain's trimMessages counting each message as our chat format does (3 per message
  // plus its role and content, 3 to prime the reply), with the same tokenizer.
  const counter = (msgs) => 3 + msgs.reduce((n, m) => n + 3 + tokenizer.count(m.content) + 1, 0);
  for (const maxTokens of [40, 60, 80, 120]) {
    const ours = await trimMessages(messages, { maxTokens, tokenizer, startOn: "human" });
    const theirs = await lcTrimMessages(messages, { maxTokens, tokenCounter: counter, strategy: "last", includeSystem: true, startOn: "human" });
    assert.deepEqual(shape(ours), shape(theirs), `maxTokens ${maxTokens}`);
  }
});

test("trimMessages keeps a tool call with its result, and says what it does not take", async () => {
  const messages = [
    new HumanMessage("weather?"),
    new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "weather", args: { city: "Paris" }, type: "tool_call" }] }),
    new ToolMessage({ content: "18C, sunny, light wind from the west, no rain expected today or tomorrow", tool_call_id: "c1" }),
    new AIMessage("It is 18C and sunny."),
    new HumanMessage("thanks"),
  ];
  for (const maxTokens of [20, 40, 60, 80, 200]) {
    const kept = await trimMessages(messages, { maxTokens });
    const types = kept.map((m) => m.getType());
    assert.equal(types.includes("tool"), types.includes("ai") && kept.includes(messages[1]), `maxTokens ${maxTokens}: ${types}`);
  }
  throwsCode(assert, () => trimMessages(messages, { maxTokens: 50, tokenCounter: () => 1 }), "INVALID_OPTION");
  throwsCode(assert, () => trimMessages(messages, { maxTokens: 50, strategy: "first" }), "INVALID_OPTION");
});
