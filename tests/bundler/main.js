// What a bundler user writes: the package by name, default init(), one context() call.
import init, { Memory } from "llm-memory";

const out = document.getElementById("out");
try {
  await init();
  const mem = new Memory({ strategy: "tokens", maxTokens: 200, reserveTokens: 50, systemPrompt: "Be brief." });
  mem.add("user", "Hi, I'm Riley.");
  mem.add("assistant", "Hello Riley!");
  mem.add("user", "What's my name?");
  const { messages, report } = await mem.context();
  window.result = { messages, headline: report.headline, totalTokens: report.totalTokens };
  out.textContent = JSON.stringify(window.result, null, 2);
} catch (e) {
  window.result = { error: `${e.name}: ${e.message}` };
  out.textContent = window.result.error;
}
