// The chat endpoint the user chose, as the memory's `llm` option: `llm(messages, { purpose,
// maxTokens, json })` resolves to the reply's text; the memory writes its summaries and
// extracts facts through it. Each call is recorded (request body, reply or error) for the
// inspector.
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
