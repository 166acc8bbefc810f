// Chat-template counts: renderChat against the reference renderer transformers.js uses
// (@huggingface/jinja) with the models' own tokenizer_config.json, and countChat against the
// reference tokenizer's count of the reference rendering (special tokens matched, no BOS added
// beyond the template's own), for llama3 and qwen3, on pkg-full/ (the build with the `chat-template` feature).
import { test as nodeTest } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Template } from "@huggingface/jinja";
import { Tokenizer as Reference } from "@huggingface/tokenizers";
import { tokenizerJson, tokenizerPath, throwsCode } from "../js/helpers.mjs";
import * as chatBuild from "../../pkg-full/llm_memory.js";

// pkg-full/ is pkg/ built with the `chat-template` and `all-tokenizers` features (`make build-full`).
chatBuild.initSync({ module: readFileSync(new URL("../../pkg-full/llm_memory_bg.wasm", import.meta.url)) });
const { Tokenizer } = chatBuild;
const tokenizers = new Map();
const loadTokenizer = (name) => {
  if (!tokenizers.has(name)) tokenizers.set(name, Tokenizer.fromJson(tokenizerJson(name)));
  return tokenizers.get(name);
};
const test = nodeTest;

const configText = (name) =>
  readFileSync(tokenizerPath(name).replace("tokenizer.json", "tokenizer_config.json"), "utf8");

const token = (t) => (t && typeof t === "object" ? t.content : t);

function referenceRender(config, messages, addGenerationPrompt = true) {
  const ctx = { messages, add_generation_prompt: addGenerationPrompt };
  for (const f of ["bos_token", "eos_token", "unk_token", "pad_token", "sep_token", "cls_token", "mask_token"]) {
    if (config[f] != null) ctx[f] = token(config[f]);
  }
  return new Template(config.chat_template).render(ctx);
}

const call = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });

const conversations = {
  "system + user": [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "Hi! I'm Riley and I live in Lisbon." },
  ],
  "system + user + assistant": [
    { role: "system", content: "Be brief." },
    { role: "user", content: "What's 2 + 2?" },
    { role: "assistant", content: "4." },
  ],
  "multi-turn with whitespace, code and CJK": [
    { role: "user", content: "  Where do I live?\n" },
    { role: "assistant", content: "You live in Lisbon.\n\n" },
    { role: "user", content: "Write `fn main() {}` and 日本語のテキスト 🎉" },
    { role: "assistant", content: "```rust\nfn main() {}\n```" },
    { role: "user", content: "Thanks!" },
  ],
  "assistant with reasoning": [
    { role: "user", content: "Think first." },
    { role: "assistant", content: "<think>\nLet me see.\n</think>\n\nDone." },
    { role: "user", content: "Again?" },
  ],
  "special tokens written in content": [
    { role: "user", content: "What does <|im_end|> or <|eot_id|> mean?" },
  ],
};

const withTools = {
  "tool calls and results": [
    { role: "system", content: "Use tools." },
    { role: "user", content: "Weather in Paris and Rome?" },
    { role: "assistant", content: "", tool_calls: [call("c1", "weather", { city: "Paris" }), call("c2", "weather", { city: "Rome" })] },
    { role: "tool", tool_call_id: "c1", content: '{"temp": 21}' },
    { role: "tool", tool_call_id: "c2", content: '{"temp": 25}' },
    { role: "assistant", content: "Paris 21°C, Rome 25°C." },
  ],
  // As the typings allow: arguments as an object (keys out of alphabetical order), rendered
  // by the template's `tojson` in the caller's order, like the reference does.
  "tool call with object arguments": [
    { role: "user", content: "Weather in Paris for 3 days?" },
    { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: { city: "Paris", unit: "celsius", days: 3, when: { from: "today" } } } }] },
    { role: "tool", tool_call_id: "c1", content: '{"temp": 21}' },
  ],
};

const models = {
  // llama3's template has no tool support (it prints role and content only).
  llama3: { ...conversations },
  qwen3: { ...conversations, ...withTools },
};

for (const [name, convs] of Object.entries(models)) {
  const text = configText(name);
  const config = JSON.parse(text);
  const ours = loadTokenizer(name);
  const reference = new Reference(JSON.parse(tokenizerJson(name)), config);
  const refCount = (s) => reference.encode(s, { add_special_tokens: false }).ids.length;

  for (const [label, messages] of Object.entries(convs)) {
    for (const addGenerationPrompt of [true, false]) {
      test(`${name}: ${label} (generation prompt ${addGenerationPrompt})`, () => {
        const want = referenceRender(config, messages, addGenerationPrompt);
        const opts = { addGenerationPrompt };
        assert.equal(ours.renderChat(messages, text, opts), want);
        // The parsed object works the same as the text.
        assert.equal(ours.renderChat(messages, config, opts), want);
        assert.equal(ours.countChat(messages, text, opts), refCount(want));
      });
    }
  }

  test(`${name}: the generation prompt is on by default; one BOS at most`, () => {
    const messages = conversations["system + user"];
    assert.equal(ours.renderChat(messages, text), referenceRender(config, messages, true));
    assert.equal(ours.countChat(messages, text), refCount(referenceRender(config, messages, true)));
    const ids = [...ours.encode(ours.renderChat(messages, text))];
    const bos = token(config.bos_token);
    if (bos) {
      const bosId = reference.encode(bos, { add_special_tokens: false }).ids[0];
      assert.equal(ids.filter((id) => id === bosId).length, 1);
      assert.equal(ids[0], bosId);
    }
  });
}

test("the exact count differs from the per-message estimate where framing matters", () => {
  const tok = loadTokenizer("llama3");
  const messages = conversations["system + user"];
  const exact = tok.countChat(messages, configText("llama3"));
  // <|begin_of_text|> + 2 × (header 3 + \n\n + <|eot_id|>) + assistant header
  const contentOnly = messages.reduce((n, m) => n + tok.count(m.content), 0);
  assert.ok(exact > contentOnly, `${exact} > ${contentOnly}`);
});

test("a template list takes its default; bad configs and messages are coded errors", () => {
  const tok = loadTokenizer("qwen3");
  const messages = [{ role: "user", content: "Hi" }];
  const listed = {
    bos_token: { content: "<s>" },
    chat_template: [
      { name: "tool_use", template: "tools" },
      { name: "default", template: "{{ bos_token }}{% for m in messages %}{{ m.content }}{% endfor %}" },
    ],
  };
  assert.equal(tok.renderChat(messages, listed), "<s>Hi");
  throwsCode(assert, () => tok.countChat(messages, configText("gpt4o")), "INVALID_TOKENIZER"); // no chat_template
  throwsCode(assert, () => tok.countChat(messages, "{not json"), "INVALID_TOKENIZER");
  throwsCode(assert, () => tok.countChat(messages, 42), "INVALID_TOKENIZER");
  throwsCode(assert, () => tok.countChat(messages, { chat_template: "{% for %}" }), "INVALID_TOKENIZER");
  const raising = { chat_template: "{{ raise_exception('System role not supported') }}" };
  const e = throwsCode(assert, () => tok.renderChat(messages, raising), "INVALID_TOKENIZER");
  assert.match(e.message, /System role not supported/);
  throwsCode(assert, () => tok.countChat("hi", configText("qwen3")), "INVALID_ENTRY");
  throwsCode(assert, () => tok.countChat([{ role: "wizard", content: "x" }], configText("qwen3")), "INVALID_ROLE");
  throwsCode(assert, () => tok.countChat(messages, configText("qwen3"), { addGenerationPrompts: true }), "INVALID_OPTION");
  // strftime_now gets the current date from the binding.
  const dated = { chat_template: "{{ strftime_now('%Y') }}" };
  assert.equal(tok.renderChat(messages, dated), String(new Date().getUTCFullYear()));
});
