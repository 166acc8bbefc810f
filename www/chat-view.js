// The chat column: one bubble per history entry (tool calls and results as their own rows),
// the reply being streamed, sends still waiting for a load to finish, and the last error with
// its retry button. Entries hold the real text: the memory redacts only what it sends.
import { renderMarkdown } from "./markdown.js";
import { h } from "./inspector.js";

function bubble(role, text, { markdown, testid, entry, status, onForget } = {}) {
  const body = h("div", { class: "text" });
  if (markdown) body.append(renderMarkdown(text));
  else body.textContent = text;
  const meta = h("div", { class: "meta" }, role === "user" ? "you" : role);
  if (entry) {
    meta.append(` · ${entry.tokens} tok`);
    if (status && status !== "included") meta.append(" · ", h("span", { class: `pill st-${status}`, title: "in the last request" }, status));
    if (entry.redacted) {
      const n = Object.values(entry.redacted).reduce((a, b) => a + b, 0);
      meta.append(" · ", h("span", { class: "pill redacted-pill", title: Object.keys(entry.redacted).join(" ") }, `${n} redacted`));
    }
    meta.append(h("button", { type: "button", class: "forget", title: "Forget this message", onclick: () => onForget(entry.id) }, "forget"));
  }
  return h("li", { class: `msg ${role}`, "data-testid": testid, dataset: entry ? { entry: entry.id, status: status ?? "" } : {} }, meta, body);
}

/**
 * Renders the chat into `list`. `report` is the last request's (statuses and redaction counts
 * per entry); `pending` the sends not made yet, with `waitingFor` naming what they wait for.
 */
export function renderChat(list, { entries, report, markdown, error, pending = [], waitingFor = [], streaming, onForget, onRetry }) {
  const sent = new Map(report?.entries.map((e) => [e.id, e]) ?? []);
  const statusOf = new Map(report?.entries.map((e) => [e.id, e.status]) ?? []);
  // Entries not sent are reported as ranges of positions in the history.
  for (const r of report?.ranges ?? []) {
    for (let i = r.fromIndex; i < r.fromIndex + r.count && i < entries.length; i++) statusOf.set(entries[i].id, r.status);
  }
  const items = [];
  for (const e of entries) {
    const text = e.content ?? "";
    if (e.role === "tool") {
      items.push(h("li", { class: "msg tool", "data-testid": "tool-result", dataset: { entry: e.id } }, h("div", { class: "meta" }, "tool result"), h("div", { class: "text" }, text)));
      continue;
    }
    if (e.role === "assistant" && e.toolCalls?.length) {
      for (const c of e.toolCalls) {
        const args = typeof c.function.arguments === "string" ? c.function.arguments : JSON.stringify(c.function.arguments);
        items.push(h("li", { class: "msg tool", "data-testid": "tool-call" }, h("div", { class: "meta" }, "tool call"), h("code", {}, `${c.function.name}(${args})`)));
      }
      if (!text) continue;
    }
    const testid = e.role === "assistant" ? "assistant-message" : e.role === "user" ? "user-message" : "system-message";
    const entry = { ...e, redacted: sent.get(e.id)?.redacted };
    items.push(bubble(e.role, text, { markdown: e.role === "assistant" && markdown, testid, entry, status: statusOf.get(e.id), onForget }));
  }
  if (streaming != null) items.push(bubble("assistant", streaming || "…", { markdown, testid: "assistant-streaming" }));
  for (const text of pending) {
    const list = waitingFor.length > 1 ? `${waitingFor.slice(0, -1).join(", ")} and ${waitingFor.at(-1)}` : waitingFor[0];
    const why = list ? `waiting for ${list}…` : "about to be sent…";
    const item = bubble("user", text, { testid: "pending-message" });
    item.classList.add("pending");
    item.querySelector(".meta").append(" · ", h("span", { class: "pill wait", "data-testid": "pending-reason" }, why));
    items.push(item);
  }
  if (error) {
    items.push(h("li", { class: "msg error", "data-testid": "chat-error", role: "alert" },
      h("div", { class: "meta" }, `error · ${error.kind}`),
      h("div", { class: "text" }, error.message),
      h("div", { class: "text small" }, "Your message is kept. Fix the settings if needed, then retry."),
      h("button", { type: "button", "data-testid": "retry", onclick: onRetry }, "Retry")));
  }
  list.replaceChildren(...items);
  list.lastElementChild?.scrollIntoView({ block: "end" });
}
