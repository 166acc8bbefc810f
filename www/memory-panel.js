// The memory panel: the chats (sessions the library stores), pinned facts, long-term facts
// and episodes, the current summary and the history's size.
import { h } from "./inspector.js";
import { titleOf } from "./sessions.js";

const $ = (sel) => document.querySelector(sel);

/**
 * `memory`: `{ pinned, summary, summaryText, facts, episodes, entries, chats, session,
 * strategy }`; `actions`: `{ unpin(id), forgetFact(id) }`.
 */
export function renderMemoryPanel(memory, actions) {
  const { pinned, summary, summaryText, facts, episodes, entries, chats, session, strategy } = memory;
  $("#memory-facts").replaceChildren(...(pinned.length ? pinned.map((p) => h("li", { dataset: { pin: p.id } }, h("span", {}, p.text),
    h("button", { type: "button", class: "forget", title: "Unpin", onclick: () => actions.unpin(p.id) }, "forget")))
    : [h("li", { class: "empty" }, "Nothing pinned.")]));
  $("#memory-summary").replaceChildren(summary
    ? h("div", {}, h("p", {}, summaryText), h("small", {}, `covers ${summary.count} entries (${summary.startId}–${summary.endId})${summary.stale ? " · stale: an entry it covers was forgotten" : ""}`))
    : h("p", { class: "empty" }, strategy === "summary" ? "No summary yet: older turns are folded in when they pass the trigger." : "Summaries are written with strategy “summary”."));
  const text = (f) => f.text ?? f.summary ?? JSON.stringify(f);
  const none = (what) => h("li", { class: "empty" }, what);
  $("#long-term-facts").replaceChildren(...(facts.length ? facts.map((f) => h("li", {}, h("span", {}, text(f)),
    h("button", { type: "button", class: "forget", onclick: () => actions.forgetFact(f.id) }, "forget")))
    : [none("None yet: tick “tool memory” and ask the model to remember something.")]));
  $("#episodes").replaceChildren(...(episodes.length ? episodes.map((e) => h("li", {}, text(e))) : [none("None yet.")]));
  const tokens = entries.reduce((n, e) => n + e.tokens, 0);
  $("#memory-stats").textContent = `${entries.length} entries, ${tokens} tokens in history · saved in this browser`;
  const list = chats.some((c) => c.id === session) ? chats : [...chats, { id: session, createdAt: Date.now() }];
  $("#session-select").replaceChildren(...list.map((c) => new Option(titleOf(c), c.id, false, c.id === session)));
}
