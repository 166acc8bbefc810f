// One call to an OpenAI-compatible `/chat/completions` endpoint, streamed (server-sent events)
// or not. Every failure becomes an `EndpointError` whose `kind` and message say what went
// wrong in words a user can act on.

export class EndpointError extends Error {
  constructor(kind, message, status) {
    super(message);
    this.name = "EndpointError";
    this.kind = kind; // "http" | "network" | "timeout" | "stream" | "aborted"
    this.status = status;
  }
}

const HINTS = {
  400: "the endpoint rejected the request body",
  401: "the endpoint rejected the API key: check it in the settings",
  403: "the key is not allowed to use this model or endpoint",
  404: "not found: check the base URL (it usually ends in /v1) and the model name",
  408: "the endpoint timed out",
  413: "the request is too large for the endpoint: lower the budget",
  429: "rate limited or out of quota: wait and retry",
};

async function httpError(res) {
  let detail = "";
  try {
    const text = await res.text();
    try {
      const json = JSON.parse(text);
      detail = json?.error?.message ?? json?.message ?? json?.error ?? "";
      if (typeof detail !== "string") detail = JSON.stringify(detail);
    } catch {
      detail = text.slice(0, 300);
    }
  } catch {
    /* the body could not be read; the status says enough */
  }
  const hint = HINTS[res.status] ?? (res.status >= 500 ? "the endpoint failed (server error)" : "the endpoint refused the request");
  const retry = res.headers.get("retry-after");
  const message = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}: ${hint}.` +
    (retry ? ` Retry after ${retry}s.` : "") + (detail ? ` The endpoint said: “${detail}”` : "");
  return new EndpointError("http", message, res.status);
}

/** Merges streamed tool-call fragments (`delta.tool_calls[i]`) into whole calls. */
function mergeToolCalls(calls, fragments) {
  for (const f of fragments) {
    const i = f.index ?? 0;
    calls[i] ??= { id: "", type: "function", function: { name: "", arguments: "" } };
    if (f.id) calls[i].id = f.id;
    if (f.function?.name) calls[i].function.name += f.function.name;
    if (f.function?.arguments) calls[i].function.arguments += f.function.arguments;
  }
}

/**
 * Sends `bodyText` (the exact JSON shown in the inspector) to `${base}/chat/completions`.
 * Resolves to `{ content, toolCalls, status, streamed, ms }`; `onDelta(text)` gets streamed text.
 */
export async function chatCompletion({ base, key, bodyText, stream, timeoutMs = 60_000, onDelta, signal }) {
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const headers = { "content-type": "application/json" };
  // The key goes to the chosen endpoint only, in this header, and nowhere else.
  if (key) headers.authorization = `Bearer ${key}`;
  const url = `${base.replace(/\/+$/, "")}/chat/completions`;
  const fail = (e) => {
    if (e instanceof EndpointError) return e;
    if (timedOut) return new EndpointError("timeout", `Timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${url}.`);
    if (e?.name === "AbortError") return new EndpointError("aborted", "Stopped.");
    return new EndpointError("network",
      `Could not reach ${url} (${e?.message ?? e}). The server may be down or the URL wrong, or it does not allow ` +
      "requests from this page (CORS): for Ollama set OLLAMA_ORIGINS, for LM Studio enable CORS.");
  };
  try {
    const res = await fetch(url, { method: "POST", headers, body: bodyText, signal: controller.signal });
    if (!res.ok) throw await httpError(res);
    const type = res.headers.get("content-type") ?? "";
    if (!stream || !type.includes("text/event-stream")) {
      const text = await res.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        throw new EndpointError("stream", `Malformed response: not JSON (${text.slice(0, 120)}…).`, res.status);
      }
      const message = json?.choices?.[0]?.message;
      if (!message) throw new EndpointError("stream", "Malformed response: no choices[0].message.", res.status);
      if (message.content) onDelta?.(message.content);
      return { content: message.content ?? "", toolCalls: message.tool_calls ?? [], status: res.status, streamed: false, ms: performance.now() - started };
    }
    return await readStream(res, onDelta, started);
  } catch (e) {
    throw fail(e);
  } finally {
    clearTimeout(timer);
  }
}

async function readStream(res, onDelta, started) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let content = "";
  let finished = false;
  let done = false;
  const toolCalls = [];
  const handle = (event) => {
    const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
    if (!data) return;
    if (data === "[DONE]") {
      done = true;
      return;
    }
    let json;
    try {
      json = JSON.parse(data);
    } catch {
      throw new EndpointError("stream", `Malformed stream: an event was not valid JSON: ${data.slice(0, 120)}`, res.status);
    }
    if (json.error) throw new EndpointError("http", `The endpoint reported an error mid-stream: ${json.error.message ?? JSON.stringify(json.error)}`, res.status);
    const choice = json.choices?.[0];
    if (!choice) return;
    if (choice.delta?.content) {
      content += choice.delta.content;
      onDelta?.(choice.delta.content);
    }
    if (choice.delta?.tool_calls) mergeToolCalls(toolCalls, choice.delta.tool_calls);
    if (choice.finish_reason) finished = true;
  };
  while (!done) {
    const { value, done: end } = await reader.read();
    if (end) break;
    buffer += value.replace(/\r\n/g, "\n");
    let cut;
    while (!done && (cut = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      handle(event);
    }
  }
  if (!done && buffer.trim()) handle(buffer);
  if (!done && !finished) throw new EndpointError("stream", "Malformed stream: it ended before the reply was finished.", res.status);
  reader.cancel().catch(() => {});
  return { content, toolCalls, status: res.status, streamed: true, ms: performance.now() - started };
}
