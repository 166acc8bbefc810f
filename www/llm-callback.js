// The chat endpoint the user chose, as the memory's LLM callbacks: `llm(messages, { purpose,
// maxTokens, json })` resolves to the reply's text (the shape of the one-callback `llm`
// option), and `summarize(prompt, info)` is that same call with the prompt as one user
// message. Each call is recorded (request body, reply or error) for the inspector.
import { chatCompletion } from "./chat-api.js";

/**
 * `endpoint()` gives the current `{ base, key, model, timeoutMs }`; `record(call)` receives
 * `{ purpose, body, count, reply, error }` before the call is made and sees it completed.
 */
export function chatLlm(endpoint, record = () => {}) {
  return async (messages, { purpose = "chat", maxTokens, json = false, count } = {}) => {
    const { base, key, model, timeoutMs } = endpoint();
    const request = { model, messages, stream: false };
    if (maxTokens) request.max_tokens = maxTokens;
    if (json) request.response_format = { type: "json_object" };
    const call = { purpose, body: JSON.stringify(request, null, 2), count, reply: null, error: null };
    record(call);
    try {
      const { content } = await chatCompletion({ base, key, bodyText: call.body, stream: false, timeoutMs });
      if (typeof content !== "string" || !content.trim()) throw new Error(`the ${purpose} reply had no text`);
      call.reply = content;
      return content;
    } catch (e) {
      call.error = String(e?.message ?? e);
      throw e;
    }
  };
}

/** `summarize(prompt, info)` over an `llm` callback. */
export const summarizerOf = (llm) => (prompt, info) =>
  llm([{ role: "user", content: prompt }], { purpose: "summary", count: info?.count });
