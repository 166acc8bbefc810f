// The demo page: a chat with any OpenAI-compatible endpoint, where llm-memory (in a worker,
// see memory-worker.js) decides what is sent each turn and the inspector shows it.
import { startMemoryWorker } from "./memory-client.js";
import { chatCompletion } from "./chat-api.js";
import { renderMarkdown } from "./markdown.js";
import { renderInspector, h } from "./inspector.js";
import { renderEntityTypes, countNational } from "./entity-types.js";
import { createPiiModel } from "./pii-model.js";
import { createSemantic } from "./semantic.js";
import {
  PRESETS, TOKENIZERS, applyPreset, fitReserve, isOffline, keyedService, presetOf, loadKey, loadSettings, saveKey,
  saveSettings, setEntityTypes, toQuery,
} from "./settings.js";
import * as store from "./store.js";

const $ = (sel) => document.querySelector(sel);
const form = $("#settings-form");
const state = {
  settings: null,
  key: "",
  caps: {},
  session: null,
  entries: [],
  display: new Map(), // entry id → text shown (placeholders restored)
  turns: [],          // one inspector record per request sent
  view: -1,           // which turn the inspector shows
  busy: false,
  error: null,        // the last failed request: { message, kind }
  abort: null,
};

const memory = startMemoryWorker(onWorkerEvent);
const call = (op, ...args) => memory.call(op, ...args);
const piiModel = createPiiModel({ box: $(".ner-status"), call, caps: () => state.caps });
const semantic = createSemantic({
  root: $(".semantic"), call, caps: () => state.caps, settings: () => state.settings, reopen: () => openSession(state.session),
});

function notice(text, kind = "info") {
  const box = $("#notices");
  const item = h("div", { class: `notice ${kind}` }, text, h("button", { type: "button", "aria-label": "Dismiss", onclick: () => item.remove() }, "×"));
  box.append(item);
}

// ---- settings ------------------------------------------------------------------------------

function memoryOptions(s = state.settings) {
  return {
    strategy: s.strategy,
    maxTokens: Math.max(1, Math.round(s.budget)),
    reserveTokens: Math.round(s.reserve),
    keepRecent: Math.round(s.keepRecent),
    systemPrompt: s.systemPrompt,
  };
}

function endpointSettings(s = state.settings) {
  return { base: s.endpoint.replace(/\/+$/, ""), key: state.key, model: s.model, timeoutMs: s.timeoutSec * 1000 };
}

function fillForm() {
  const s = state.settings;
  const presets = form.elements.preset;
  presets.replaceChildren(...Object.entries(PRESETS).map(([k, p]) => new Option(p.label, k)), new Option("Custom", "custom"));
  form.elements.tokenizer.replaceChildren(...Object.entries(TOKENIZERS).map(([k, t]) => new Option(t.label, k)));
  for (const el of form.elements) {
    if (!el.name || !(el.name in s)) continue;
    if (el.type === "checkbox") el.checked = !!s[el.name];
    else if (el.type !== "file") el.value = s[el.name];
  }
  form.elements.key.value = state.key;
  form.elements.rememberKey.checked = loadKey().remember;
  form.elements.budgetOut.value = s.budget;
  renderEntityTypes($(".entity-types"), s.entityTypes);
  syncVisibility();
}

function syncVisibility() {
  const s = state.settings;
  $(".tokenizer-url").hidden = s.tokenizer !== "url";
  $(".tokenizer-file").hidden = s.tokenizer !== "file";
  $(".redaction-missing").hidden = !!state.caps.redactor;
  form.elements.redact.disabled = !state.caps.redactor;
  $(".entity-types").hidden = !state.caps.redactor || !s.redact;
  $(".ner-model").hidden = !state.caps.nerModel || !s.redact;
  $(".ner-status").hidden = !state.caps.nerModel || !s.redact || !s.nerModel;
  $(".tool-memory").hidden = !state.caps.tools;
  semantic.sync();
  form.querySelector("option[value=retrieval]").hidden = !state.caps.retrieval;
  $("#offline-banner").hidden = !isOffline(s);
  $("#model-badge").textContent = isOffline(s) ? "offline demo model · no key, no network" : `${s.model} @ ${s.endpoint}`;
  $("#model-badge").classList.toggle("offline", isOffline(s));
  const q = toQuery(s);
  $("#share-link").href = `${location.pathname}${q ? `?${q}` : ""}`;
  $("#share-link").textContent = `${location.origin}${location.pathname}${q ? `?${q}` : ""}`;
}

async function applyChange(name) {
  const s = state.settings;
  saveSettings(s);
  syncVisibility();
  $("#settings-error").hidden = true;
  try {
    if (["strategy", "budget", "reserve", "keepRecent", "systemPrompt"].includes(name)) await call("configure", memoryOptions());
    if (["endpoint", "model", "key", "timeoutSec", "preset"].includes(name)) await call("setEndpoint", endpointSettings());
    if (["tokenizer", "tokenizerUrl", "preset"].includes(name)) loadTokenizer();
    if (["redact", "entityType", "nerModel"].includes(name)) await applyRedaction();
    if (["strategy", "semantic"].includes(name)) await semantic.apply();
  } catch (e) {
    $("#settings-error").textContent = `${e.code ?? e.name}: ${e.message}`;
    $("#settings-error").hidden = false;
  }
}

form.addEventListener("input", (ev) => {
  if (ev.target.name === "budget") form.elements.budgetOut.value = ev.target.value;
});
form.addEventListener("submit", (ev) => ev.preventDefault());
form.addEventListener("change", async (ev) => {
  const el = ev.target;
  const s = state.settings;
  if (el.name === "key" || el.name === "rememberKey") {
    state.key = form.elements.key.value.trim();
    saveKey(state.key, form.elements.rememberKey.checked);
    return applyChange("key");
  }
  if (el.name === "tokenizerFile") return loadTokenizerFile(el.files[0]);
  if (el.name === "entityType") {
    s.entityTypes = [...form.querySelectorAll("input[name=entityType]:checked")].map((c) => c.value);
    countNational($(".entity-types"), s.entityTypes);
    return applyChange("entityType");
  }
  if (el.name === "preset") {
    Object.assign(s, applyPreset(el.value), { preset: el.value });
    fillForm();
    return applyChange("preset");
  }
  if (!(el.name in s)) return;
  s[el.name] = el.type === "checkbox" ? el.checked : el.type === "number" || el.type === "range" ? Number(el.value) : el.value;
  if (el.name === "endpoint" || el.name === "model") {
    s.preset = presetOf(s);
    form.elements.preset.value = s.preset;
  }
  if (el.name === "markdown") renderChat();
  if (el.name === "budget" || el.name === "reserve") {
    const fitted = fitReserve(s);
    if (fitted) {
      form.elements.reserve.value = s.reserve;
      notice(fitted, "warn");
    }
  }
  return applyChange(el.name);
});

async function applyRedaction({ rewrite = true } = {}) {
  if (!state.caps.redactor) return;
  const on = await call("setRedaction", { enabled: state.settings.redact, types: state.settings.entityTypes, model: state.settings.nerModel });
  if (on && state.settings.nerModel) piiModel.load();
  if (!on || !rewrite) return;
  const changed = await call("redactHistory");
  if (changed) {
    notice(`${changed} earlier message${changed === 1 ? "" : "s"} or pinned fact${changed === 1 ? "" : "s"} held personal data and ${changed === 1 ? "was" : "were"} redacted now; summaries written before were dropped.`, "warn");
    await refresh();
  }
}

// ---- tokenizer -----------------------------------------------------------------------------

function tokenizerStatus(stateName, text, progress) {
  const box = $("#tokenizer-status");
  box.dataset.state = stateName;
  box.querySelector(".label").textContent = text;
  const bar = box.querySelector("progress");
  bar.hidden = progress == null;
  if (progress != null) bar.value = progress;
}

function onWorkerEvent(ev) {
  if (piiModel.onEvent(ev) || semantic.onEvent(ev)) return;
  if (ev.event === "tokenizer") {
    if (ev.state === "loading") {
      const mb = (n) => (n / 1048576).toFixed(1);
      tokenizerStatus("loading", `Loading tokenizer… ${mb(ev.loaded)}${ev.total ? ` / ${mb(ev.total)}` : ""} MB (counts are approximate until then)`, ev.total ? ev.loaded / ev.total : 0);
    } else if (ev.state === "parsing") {
      tokenizerStatus("loading", "Reading tokenizer.json in a worker…", 1);
    }
  } else if (ev.event === "crash") {
    notice(ev.message, "error");
  } else if (ev.event === "changed" && ev.session === state.session && !state.busy) {
    // Another tab of this chat stored turns: show them (the turn running here refreshes anyway).
    refresh({ save: false }).catch((e) => notice(e.message, "error"));
  } else if (ev.event === "storeError" && ev.session === state.session) {
    notice(`${ev.code}: ${ev.message}`, "error");
  }
}

async function loadTokenizer() {
  const s = state.settings;
  const choice = TOKENIZERS[s.tokenizer];
  if (s.tokenizer === "file") return; // waits for the file input
  if (s.tokenizer === "approximate" || (s.tokenizer === "url" && !s.tokenizerUrl)) {
    await call("loadTokenizer", null);
    return tokenizerStatus("approximate", "Approximate token counts (4 characters per token): no tokenizer.json chosen.");
  }
  const url = s.tokenizer === "url" ? s.tokenizerUrl : choice.url;
  try {
    const { kind } = await call("loadTokenizer", { url });
    tokenizerStatus("ready", `Tokenizer: ${s.tokenizer === "url" ? url.split("/").pop() : choice.label.split(" (")[0]} (${kind}), exact counts`);
  } catch (e) {
    if (e.message === "superseded") return;
    await call("loadTokenizer", null).catch(() => {});
    tokenizerStatus("fallback", `Could not load the tokenizer (${e.code ?? e.name}: ${e.message}); counting approximately (4 characters per token).`);
  }
  await refresh({ save: false });
}

async function loadTokenizerFile(file) {
  if (!file) return;
  try {
    tokenizerStatus("loading", `Reading ${file.name}…`, 0);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { kind } = await memory.callTransfer("loadTokenizer", { bytes }, [bytes.buffer]);
    tokenizerStatus("ready", `Tokenizer: ${file.name} (${kind}), exact counts`);
  } catch (e) {
    await call("loadTokenizer", null).catch(() => {});
    tokenizerStatus("fallback", `${file.name} is not a usable tokenizer.json (${e.message}); counting approximately.`);
  }
  await refresh({ save: false });
}

// ---- chat ----------------------------------------------------------------------------------

function bubble(role, text, { markdown, testid, entry, status } = {}) {
  const body = h("div", { class: "text" });
  if (markdown) body.append(renderMarkdown(text));
  else body.textContent = text;
  const meta = h("div", { class: "meta" }, role === "user" ? "you" : role);
  if (entry) {
    meta.append(` · ${entry.tokens} tok`);
    if (status && status !== "included") meta.append(" · ", h("span", { class: `pill st-${status}`, title: "in the last request" }, status));
    const reds = entry.metadata?.redactions;
    if (reds?.length) meta.append(" · ", h("span", { class: "pill redacted-pill", title: reds.map((r) => r.placeholder).join(" ") }, `${reds.length} redacted`));
    meta.append(h("button", { type: "button", class: "forget", title: "Forget this message", onclick: () => forget(entry.id) }, "forget"));
  }
  return h("li", { class: `msg ${role}`, "data-testid": testid, dataset: entry ? { entry: entry.id, status: status ?? "" } : {} }, meta, body);
}

function renderChat(streaming) {
  const list = $("#messages");
  const report = state.turns.at(-1)?.report;
  const statusOf = new Map(report?.entries.map((e) => [e.id, e.status]) ?? []);
  // Entries not sent are reported as ranges of positions in the history.
  for (const r of report?.ranges ?? []) {
    for (let i = r.fromIndex; i < r.fromIndex + r.count && i < state.entries.length; i++) statusOf.set(state.entries[i].id, r.status);
  }
  const items = [];
  for (const e of state.entries) {
    const text = state.display.get(e.id) ?? e.content ?? "";
    const status = statusOf.get(e.id);
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
    items.push(bubble(e.role, text, { markdown: e.role === "assistant" && state.settings.markdown, testid, entry: e, status }));
  }
  if (streaming != null) items.push(bubble("assistant", streaming || "…", { markdown: state.settings.markdown, testid: "assistant-streaming" }));
  if (state.error) {
    items.push(h("li", { class: "msg error", "data-testid": "chat-error", role: "alert" },
      h("div", { class: "meta" }, `error · ${state.error.kind}`),
      h("div", { class: "text" }, state.error.message),
      h("div", { class: "text small" }, "Your message is kept. Fix the settings if needed, then retry."),
      h("button", { type: "button", "data-testid": "retry", onclick: () => runModel() }, "Retry")));
  }
  list.replaceChildren(...items);
  list.lastElementChild?.scrollIntoView({ block: "end" });
}

function setBusy(busy) {
  state.busy = busy;
  document.body.dataset.busy = busy ? "1" : "";
  $("#send").disabled = busy;
  $("#stop").hidden = !busy;
}

/** Stops a reply in flight and waits until the turn has ended: switching, clearing or deleting
 * the chat under a running reply would store the reply in whichever chat is open next. */
async function settleReply() {
  while (state.busy) {
    state.abort?.abort();
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function refresh({ save = true } = {}) {
  let [entries, pinned, summaries, facts, episodes] = await Promise.all([
    call("entries"), call("pinned"), call("summaries"),
    state.caps.facts ? call("facts").catch(() => null) : null,
    state.caps.episodes ? call("episodes").catch(() => null) : null,
  ]);
  const texts = await call("restoreTexts", entries.map((e) => e.content ?? ""));
  state.entries = entries;
  state.display = new Map(entries.map((e, i) => [e.id, texts[i]]));
  const [summaryText] = await call("restoreTexts", [summaries.at(-1)?.text ?? ""]);
  // Pinned and long-term facts hold placeholders when redaction is on; shown here (on this
  // device only) with the real values, as the chat is.
  const shown = async (list) => {
    if (!list?.length) return list;
    const texts = await call("restoreTexts", list.map((x) => x.text ?? ""));
    return list.map((x, i) => (typeof x.text === "string" ? { ...x, text: texts[i] } : x));
  };
  [pinned, facts] = await Promise.all([shown(pinned), shown(facts)]);
  renderChat();
  renderMemory({ pinned, summary: summaries.at(-1), summaryText, facts, episodes });
  showTurn(state.view);
  if (save) {
    // The chat stores itself (IndexedDB); the page keeps the chat's redaction vault.
    const err = store.saveSession(state.session, { vault: await call("vaultDocument") });
    if (err) notice(err, "error");
  }
}

async function sendTurn(text) {
  if (state.busy || !text.trim()) return;
  setBusy(true);
  try {
    state.error = null;
    const { text: stored, findings } = await call("redact", text);
    await call("add", "user", stored, redactionMeta(findings));
    $("#message-input").value = "";
    await refresh();
  } catch (e) {
    setBusy(false);
    return notice(`${e.code ?? e.name}: ${e.message}`, "error");
  }
  await runModel(true);
}

/** Marks entries written with redaction on (see redactHistory in the worker). */
function redactionMeta(findings = []) {
  if (!state.caps.redactor || !state.settings.redact) return {};
  return { metadata: { redacted: true, ...(findings.length ? { redactions: findings } : {}) } };
}

/** Builds the context, sends it, and adds the reply; runs tool calls (at most 4 rounds). */
async function runModel(alreadyBusy = false) {
  if (state.busy && !alreadyBusy) return;
  setBusy(true);
  state.error = null;
  const s = state.settings;
  const service = keyedService(s);
  if (service && !state.key) {
    // Sending would post the conversation only to be refused: say so before anything leaves.
    state.error = { kind: "key", message: `${service.label} needs an API key: enter it under Settings → API key. Nothing was sent.` };
    setBusy(false);
    renderChat();
    return showTurn(state.view);
  }
  try {
    for (let round = 0; round < 4; round++) {
      const query = state.entries.filter((e) => e.role === "user").at(-1)?.content;
      let built;
      try {
        built = await call("context", query);
      } catch (e) {
        state.error = { kind: e.code ?? "memory", message: `${e.code ?? e.name}: ${e.message}` };
        return;
      }
      // The memory holds redacted text already (user turns are redacted as they are added), so
      // the messages are sent as built: the report's counts are those of what is sent.
      const body = { model: s.model, messages: built.messages, stream: s.stream };
      const tools = s.toolMemory && state.caps.tools ? await call("tools").catch(() => null) : null;
      if (tools?.length) body.tools = tools;
      const bodyText = JSON.stringify(body, null, 2);
      const turn = { bodyText, report: built.report, summaryCalls: built.summaryCalls, status: "sending", vault: await call("vault") };
      state.turns.push(turn);
      state.view = state.turns.length - 1;
      showTurn(state.view);
      renderChat("");

      const restorer = await call("streamStart");
      let shown = "";
      let pending = Promise.resolve();
      state.abort = new AbortController();
      let result;
      try {
        result = await chatCompletion({
          ...endpointSettings(), bodyText, stream: s.stream, timeoutMs: s.timeoutSec * 1000, signal: state.abort.signal,
          onDelta: (chunk) => {
            pending = pending.then(async () => {
              shown += await call("streamPush", restorer, chunk);
              renderChat(shown);
            });
          },
        });
        await pending;
      } catch (e) {
        await pending.catch(() => {});
        await call("streamFinish", restorer);
        Object.assign(turn, { status: "error", error: e.message });
        state.error = { kind: e.kind ?? e.name, message: e.message };
        return;
      }
      await call("streamFinish", restorer);
      Object.assign(turn, { status: "ok", httpStatus: result.status, ms: result.ms, streamed: result.streamed });
      if (!result.toolCalls.length) {
        await call("add", "assistant", result.content, redactionMeta());
        return;
      }
      await call("add", "assistant", result.content || null, { toolCalls: result.toolCalls, ...redactionMeta() });
      for (const tc of result.toolCalls) {
        let out;
        try {
          out = await call("callTool", tc);
        } catch (e) {
          out = `error: ${e.message}`;
        }
        const { text: safe, findings } = await call("redact", out);
        await call("add", "tool", safe, { toolCallId: tc.id, ...redactionMeta(findings) });
      }
      await refresh();
    }
  } finally {
    state.abort = null;
    await refresh().catch((e) => notice(e.message, "error"));
    setBusy(false);
  }
}

async function forget(id) {
  await call("forget", id);
  await refresh();
}

// ---- inspector and memory panel ------------------------------------------------------------

function showTurn(i) {
  const n = state.turns.length;
  state.view = n ? Math.min(Math.max(i, 0), n - 1) : -1;
  $("#turn-label").textContent = n ? `request ${state.view + 1} of ${n}` : "no request yet";
  $("#turn-prev").disabled = state.view <= 0;
  $("#turn-next").disabled = state.view >= n - 1;
  renderInspector($("#inspector"), state.turns[state.view], {
    entryText: (id) => state.display.get(id),
    onForget: forget,
  });
  // A turn that failed before sending leaves no request: say so above the last one shown.
  const latest = state.turns.at(-1);
  if (state.error && !(latest?.status === "error")) {
    $("#inspector").prepend(h("p", { class: "pill err", "data-testid": "inspector-unsent" },
      `The latest message was not sent (${state.error.message})${n ? "; below is the request before it." : "."}`));
  }
}
$("#turn-prev").onclick = () => showTurn(state.view - 1);
$("#turn-next").onclick = () => showTurn(state.view + 1);

function renderMemory({ pinned, summary, summaryText, facts, episodes }) {
  $("#memory-facts").replaceChildren(...(pinned.length ? pinned.map((p) => h("li", { dataset: { pin: p.id } }, h("span", {}, p.text),
    h("button", { type: "button", class: "forget", title: "Unpin", onclick: async () => { await call("unpin", p.id); await refresh(); } }, "forget")))
    : [h("li", { class: "empty" }, "Nothing pinned.")]));
  $("#memory-summary").replaceChildren(summary
    ? h("div", {}, h("p", {}, summaryText), h("small", {}, `covers ${summary.count} entries (${summary.startId}–${summary.endId})${summary.stale ? " · stale: an entry it covers was forgotten" : ""}`))
    : h("p", { class: "empty" }, state.settings.strategy === "summary" ? "No summary yet: older turns are folded in when they pass the trigger." : "Summaries are written with strategy “summary”."));
  const longTerm = Array.isArray(facts) || Array.isArray(episodes);
  $("#long-term").hidden = !longTerm;
  if (longTerm) {
    const text = (f) => f.text ?? f.content ?? f.summary ?? JSON.stringify(f);
    const none = (what) => h("li", { class: "empty" }, what);
    $("#long-term-facts").replaceChildren(...(facts?.length ? facts.map((f) => h("li", {}, h("span", {}, text(f)),
      f.id ? h("button", { type: "button", class: "forget", onclick: async () => { await call("forgetFact", f.id); await refresh(); } }, "forget") : null))
      : [none(state.caps.tools ? "None yet: tick “tool memory” and ask the model to remember something." : "None yet.")]));
    $("#episodes").replaceChildren(...(episodes?.length ? episodes.map((e) => h("li", {}, text(e))) : [none("None yet.")]));
  }
  const tokens = state.entries.reduce((n, e) => n + e.tokens, 0);
  $("#memory-stats").textContent = `${state.entries.length} entries, ${tokens} tokens in history · saved in this browser`;
  const sel = $("#session-select");
  sel.replaceChildren(...store.listSessions().map((x) => new Option(x.title, x.id, false, x.id === state.session)));
}

$("#pin-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = ev.target.elements.fact;
  if (!input.value.trim()) return;
  const { text } = await call("redact", input.value.trim());
  await call("pin", text);
  input.value = "";
  await refresh();
});

$("#clear-chat").onclick = async () => {
  if (!confirm("Clear this conversation? Pinned facts stay.")) return;
  await settleReply();
  await call("clear");
  state.turns = [];
  state.error = null;
  await refresh();
};

async function openSession(id) {
  await settleReply();
  state.session = id;
  store.switchSession(id);
  const saved = store.loadSession(id);
  await call("useVault", saved.vault);
  const { stored, migrated } = await call("open", memoryOptions(), id, saved);
  // A chat an earlier version of the page kept in localStorage now lives in IndexedDB.
  if (migrated) store.saveSession(id, { vault: saved.vault });
  if (!stored && !state.warnedUnstored) {
    state.warnedUnstored = true;
    notice("This browser does not let the page use IndexedDB here (a private window?): chats last until the tab is closed.", "warn");
  }
  // A chat written with redaction off is redacted now, in storage too: its vault must be
  // saved with it, or the real values would be lost on the next load.
  const redacted = state.settings.redact && state.caps.redactor ? await call("redactHistory") : 0;
  state.turns = [];
  state.error = null;
  await refresh({ save: redacted > 0 || migrated > 0 });
  // The chat ends with a message the model never answered (the page was closed or reloaded
  // while the reply was written, or the chat was switched away from): offer to send it again.
  if (["user", "tool"].includes(state.entries.at(-1)?.role)) {
    state.error = { kind: "no reply", message: "The reply to the last message never arrived (the page was reloaded or closed, or the chat was left, while it was written)." };
    renderChat();
    showTurn(state.view);
  }
}

$("#session-select").onchange = (ev) => openSession(ev.target.value);
$("#session-new").onclick = () => openSession(store.createSession());
$("#session-delete").onclick = async () => {
  if (!confirm("Delete this chat from this browser?")) return;
  await settleReply();
  await call("deleteStored", state.session);
  store.deleteSession(state.session);
  await openSession(store.currentSession());
};
$("#session-export").onclick = async () => {
  const blob = new Blob([store.exportSession(state.session, await call("exportDoc"))], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `llm-memory-chat-${state.session}.json` });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
};
$("#session-import").onchange = async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  let created = null;
  try {
    const { id, session } = store.importSession(await file.text());
    created = id;
    if (session) await call("importDoc", session, id);
    await openSession(id);
  } catch (e) {
    if (created) {
      await call("deleteStored", created).catch(() => {});
      store.deleteSession(created);
      if (state.session === created) await openSession(store.currentSession()).catch(() => {});
    }
    notice(`Import failed: ${e.message}`, "error");
  }
  ev.target.value = "";
};

// ---- composer ------------------------------------------------------------------------------

$("#composer").addEventListener("submit", (ev) => {
  ev.preventDefault();
  sendTurn($("#message-input").value);
});
$("#message-input").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    sendTurn(ev.target.value);
  }
});
$("#stop").onclick = () => state.abort?.abort();

// ---- start ---------------------------------------------------------------------------------

async function boot() {
  tokenizerStatus("loading", "Starting the memory worker…");
  state.caps = await call("init");
  setEntityTypes(state.caps.entityTypes); // read by the settings below
  const { settings, warnings } = loadSettings();
  state.settings = settings;
  warnings.forEach((w) => notice(w, "warn"));
  if (/[?&](key|apiKey|api_key)=/.test(location.search)) {
    const q = new URLSearchParams(location.search);
    ["key", "apiKey", "api_key"].forEach((k) => q.delete(k));
    history.replaceState(null, "", `${location.pathname}${q.size ? `?${q}` : ""}`);
  }
  state.key = loadKey().key;
  saveSettings(settings);
  if (!state.caps.redactor && settings.redact) notice("Redaction was asked for, but this build of the package has no Redactor.", "warn");
  fillForm();
  state.session = store.currentSession();
  await call("setEndpoint", endpointSettings());
  await applyRedaction({ rewrite: false });
  try {
    await openSession(state.session);
  } catch (e) {
    notice(`The saved chat could not be restored (${e.message}); starting empty.`, "error");
    await call("reset", memoryOptions());
  }
  document.body.dataset.ready = "1";
  loadTokenizer();
  semantic.apply();
}

boot().catch((e) => {
  notice(`The demo failed to start: ${e.code ?? e.name}: ${e.message}`, "error");
  tokenizerStatus("fallback", "Not running.");
});
