// The context inspector: for one turn, the exact request body sent, the tokens per section as a
// bar against the budget, every history entry with what happened to it and why, and the
// placeholders that stand for redacted values (their values are shown only here, locally).
import { retrievedTable } from "./inspector-retrieved.js";

const h = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null && c !== false) node.append(c);
  return node;
};
export { h };

const SECTION_LABELS = { system: "system prompt", pinned: "pinned facts", summary: "summary", retrieved: "retrieved", history: "recent turns" };
const REASONS = {
  latestUser: "the latest user message is always sent",
  withinBudget: "fits the budget",
  overBudget: "did not fit the budget",
  outsideWindow: "outside the window of recent turns",
  strategyNone: "strategy “none” sends only the latest turn",
  summarized: "folded into the summary",
  duplicate: "exact repeat of the next message",
  orphanToolResult: "tool result without its call",
  toolPairIncomplete: "its tool call and results must go together",
  relevant: "retrieved as relevant to this turn",
};
const PLACEHOLDER = /\[([A-Z][A-Z0-9_]*?)_(\d+)\]/g;

/** The request JSON with each known placeholder wrapped in a highlight (text unchanged). */
function highlighted(bodyText, vault) {
  const byPlaceholder = new Map(vault.map((v) => [v.placeholder, v]));
  const pre = h("pre", { class: "request", "data-testid": "context-request" });
  let last = 0;
  const counts = {};
  const byModel = new Map(); // placeholder -> score, for values the PII model found
  for (const m of bodyText.matchAll(PLACEHOLDER)) {
    const known = byPlaceholder.get(m[0]);
    if (!known) continue;
    pre.append(bodyText.slice(last, m.index));
    counts[known.type] = (counts[known.type] ?? 0) + 1;
    const model = known.source === "model";
    if (model) byModel.set(m[0], known.score);
    const by = model ? `found by the PII model, score ${known.score}` : "found by the rules";
    // The badge is CSS (::after), so the request text shown stays exactly what was sent.
    pre.append(h("mark", {
      class: `redacted type-${known.type}${model ? " by-model" : ""}`,
      dataset: model ? { score: known.score.toFixed(2) } : {},
      title: `${known.type}: ${known.value} (${by}; shown only on this device, the endpoint got the placeholder)`,
    }, m[0]));
    last = m.index + m[0].length;
  }
  pre.append(bodyText.slice(last));
  return { pre, counts, byModel };
}

function tokenBar(report) {
  const max = report.budget.maxTokens;
  const reserve = report.budget.reserveTokens ?? 0;
  const scale = max ?? Math.max(report.totalTokens, 1);
  const bar = h("div", { class: "bar", role: "img", "aria-label": `${report.totalTokens} of ${max ?? "unlimited"} tokens` });
  for (const s of report.sections) {
    if (!s.tokens) continue;
    bar.append(h("span", { class: `seg sec-${s.name}`, style: `width:${(100 * s.tokens) / scale}%`, title: `${SECTION_LABELS[s.name] ?? s.name}: ${s.tokens} tokens` }));
  }
  if (max && reserve) {
    bar.append(h("span", { class: "seg reserve", style: `width:${(100 * reserve) / scale}%; margin-left:auto`, title: `reserved for the reply: ${reserve} tokens` }));
  }
  const legend = h("ul", { class: "legend" },
    report.sections.map((s) => h("li", {},
      h("i", { class: `sw sec-${s.name}` }),
      `${SECTION_LABELS[s.name] ?? s.name} `, h("b", {}, String(s.tokens)),
      s.messages ? ` · ${s.messages} msg` : "", s.dropped ? ` · ${s.dropped} dropped` : "")),
    max && reserve ? h("li", {}, h("i", { class: "sw reserve" }), "reply reserve ", h("b", {}, String(reserve))) : null);
  return [bar, legend];
}

/**
 * Renders `turn` into `root`. `entryText(id)` gives an entry's display text, `onForget(id)`
 * forgets it.
 */
export function renderInspector(root, turn, { entryText, onForget }) {
  root.replaceChildren();
  if (!turn) {
    root.append(h("p", { class: "empty" }, "Send a message: this panel shows exactly what the model was sent, and why."));
    return;
  }
  const { report } = turn;
  const status = turn.status === "sending" ? h("span", { class: "pill wait" }, "waiting for the endpoint…")
    : turn.status === "error" ? h("span", { class: "pill err" }, turn.error)
      : h("span", { class: "pill ok" }, `HTTP ${turn.httpStatus} · ${turn.streamed ? "streamed" : "not streamed"} · ${Math.round(turn.ms)} ms`);
  root.append(
    h("p", { class: "headline" }, report.headline),
    h("p", { class: "totals" },
      h("strong", { "data-testid": "context-tokens" }, String(report.totalTokens)), " tokens sent",
      report.budget.maxTokens ? ` of ${report.budget.available ?? report.budget.maxTokens} available (budget ${report.budget.maxTokens}, ${report.budget.reserveTokens} reserved)` : " (no budget)",
      " · strategy ", h("code", {}, report.strategy), " · ",
      report.tokenizer.exact ? `counted with the ${report.tokenizer.kind} tokenizer` : h("span", { class: "warn" }, "approximate counts (no tokenizer.json loaded)")),
    ...tokenBar(report),
    h("p", { class: "status" }, status),
  );
  if (report.notes?.length) root.append(h("ul", { class: "notes" }, report.notes.map((n) => h("li", {}, n))));

  const { pre, counts, byModel } = highlighted(turn.bodyText, turn.vault ?? []);
  const kinds = Object.entries(counts);
  if (kinds.length) {
    root.append(h("div", { class: "redactions", "data-testid": "context-redactions" }, "Redacted before sending: ",
      kinds.map(([type, n]) => h("mark", { class: `redacted type-${type}` }, `${type} ×${n}`)),
      [...byModel].map(([placeholder, score]) => h("span", {
        class: "model-badge", "data-testid": "model-badge", title: "found by the PII model on this device (the rules missed it)",
      }, `model: ${placeholder} ${score.toFixed(2)}`)),
      h("small", {}, " (hover a placeholder to see its value, kept on this device)")));
  }

  for (const call of turn.summaryCalls ?? []) {
    root.append(h("details", { class: "summary-call" },
      h("summary", {}, (call.purpose ?? "summary") !== "summary"
        ? `LLM called for ${call.purpose}${call.error ? `, failed: ${call.error}` : ""}`
        : call.error ? `Summarizer failed: ${call.error}` : `Summarizer called${call.count ? ` (${call.count} entries folded into the summary)` : ""}`),
      h("h4", {}, "Request"), h("pre", { class: "request small" }, call.body),
      call.reply ? [h("h4", {}, "Reply"), h("pre", { class: "request small" }, call.reply)] : null));
  }

  const retrieved = retrievedTable(report, entryText, h);
  if (retrieved) root.append(retrieved);
  root.append(historyTable(report, { entryText, onForget }));

  root.append(h("details", { class: "request-box", open: true },
    h("summary", {}, "Request body, exactly as sent ", h("small", {}, `(POST …/chat/completions, ${turn.bodyText.length} bytes; the Authorization header is not shown)`)),
    h("button", { type: "button", class: "copy", onclick: () => navigator.clipboard?.writeText(turn.bodyText) }, "copy"),
    pre));
}

/** Rows shown per page of the history table. */
const PAGE = 100;

/**
 * The history table: each entry sent, and the others as ranges ("e1 … e9880, 9 880 entries"),
 * in history order, newest page first; a long history pages instead of drawing every row.
 */
function historyTable(report, { entryText, onForget }) {
  // Together the listed entries and the ranges name every entry once, in history order: a
  // range starts where its `fromIndex` says, listed entries fill the places between.
  const listed = report.entries;
  const ranges = report.ranges ?? [];
  const merged = [];
  let next = 0;
  let ri = 0;
  for (const e of listed) {
    while (ri < ranges.length && ranges[ri].fromIndex <= next) {
      next = ranges[ri].fromIndex + ranges[ri].count;
      merged.push({ r: ranges[ri++] });
    }
    merged.push({ e });
    next++;
  }
  while (ri < ranges.length) merged.push({ r: ranges[ri++] });

  const pages = Math.max(1, Math.ceil(merged.length / PAGE));
  const box = h("details", { class: "entries", open: true });
  const count = report.entryCount ?? report.entries.length;
  let page = 0; // 0: the newest rows
  const draw = () => {
    const end = merged.length - page * PAGE;
    const rows = merged.slice(Math.max(0, end - PAGE), end).map(({ e, r }) => (e ? entryRow(e, entryText, onForget) : rangeRow(r)));
    const nav = pages > 1 ? h("p", { class: "pager" },
      h("button", { type: "button", disabled: page >= pages - 1, onclick: () => { page++; draw(); } }, "older"),
      ` page ${page + 1} of ${pages} (newest first) `,
      h("button", { type: "button", disabled: page === 0, onclick: () => { page--; draw(); } }, "newer")) : null;
    box.replaceChildren(
      h("summary", {}, `History: ${count} ${count === 1 ? "entry" : "entries"}`, ranges.length ? ` (${listed.length} sent, the rest in ${ranges.length} ${ranges.length === 1 ? "range" : "ranges"})` : ""),
      nav ?? "",
      h("table", { "data-testid": "context-entries" },
        h("thead", {}, h("tr", {}, ["id", "role", "tokens", "status", "reason", "text", ""].map((t) => h("th", {}, t)))),
        h("tbody", {}, rows)));
  };
  draw();
  return box;
}

function entryRow(e, entryText, onForget) {
  return h("tr", { class: `st-${e.status}`, dataset: { entry: e.id } },
    h("td", {}, e.id), h("td", {}, e.role), h("td", { class: "num" }, String(e.tokens)),
    h("td", {}, h("span", { class: `pill st-${e.status}` }, e.status)),
    h("td", { title: REASONS[e.reason] ?? e.reason }, e.reason),
    h("td", { class: "snippet" }, (entryText(e.id) ?? "").slice(0, 80)),
    h("td", {}, h("button", { type: "button", class: "forget", title: "Forget this entry", onclick: () => onForget(e.id) }, "forget")));
}

function rangeRow(r) {
  const span = r.count === 1 ? r.from : `${r.from} … ${r.to}`;
  return h("tr", { class: `st-${r.status} range`, dataset: { entry: r.from, range: String(r.count) } },
    h("td", {}, span), h("td", {}, ""), h("td", { class: "num" }, ""),
    h("td", {}, h("span", { class: `pill st-${r.status}` }, r.status)),
    h("td", { title: REASONS[r.reason] ?? r.reason }, r.reason),
    h("td", { class: "snippet" }, `${r.count.toLocaleString("en-US")} ${r.count === 1 ? "entry" : "entries"}`),
    h("td", {}, ""));
}

