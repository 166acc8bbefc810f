// The demo page: a chat with any OpenAI-compatible endpoint, where llm-memory (in a worker,
// see memory-worker.js) decides what is sent each turn and the inspector shows it. Sends made
// while the chat, the tokenizer or the PII model is loading wait in the outbox (outbox.js).
import { startMemoryWorker } from "./memory-client.js";
import { chatCompletion } from "./chat-api.js";
import { renderInspector, h } from "./inspector.js";
import { renderChat } from "./chat-view.js";
import { createOutbox } from "./outbox.js";
import { renderMemoryPanel } from "./memory-panel.js";
import { fillForm, syncVisibility, wireSettingsForm } from "./settings-form.js";
import { keyedService, loadKey, loadSettings, saveSettings, setEntityTypes } from "./settings.js";
import * as loaders from "./loaders.js";
import * as chats from "./sessions.js";
import { createSemantic } from "./semantic.js";

const $ = (sel) => document.querySelector(sel);
const form = $("#settings-form");
const state = {
  settings: null,
  key: "",
  session: null,
  entries: [],
  turns: [],          // one inspector record per request sent
  view: -1,           // which turn the inspector shows
  busy: false,        // a turn is running
  streaming: null,    // the reply shown while it streams
  error: null,        // the last failed request: { message, kind }
  abort: null,
  nerModel: null,     // "loading" | "ready" | null
  opened: false,      // the chat in state.session is open in the worker
};

const memory = startMemoryWorker(onWorkerEvent);
const call = (op, ...args) => memory.call(op, ...args);
const outbox = createOutbox({
  send: sendTurn,
  onChange: () => { syncBusy(); drawChat(); },
  onError: (e) => notice(`${e.code ?? e.name}: ${e.message}`, "error"),
});
// Semantic recall's toggle: off reopens the chat, since a Memory keeps its embedder.
const semantic = createSemantic({
  root: $(".semantic"), call, settings: () => state.settings, reopen: () => openSession(state.session),
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

async function applyChange(name) {
  saveSettings(state.settings);
  syncVisibility(state);
  $("#settings-error").hidden = true;
  try {
    if (["strategy", "budget", "reserve", "keepRecent", "systemPrompt"].includes(name)) await call("configure", memoryOptions());
    if (["endpoint", "model", "key", "timeoutSec", "preset"].includes(name)) await call("setEndpoint", endpointSettings());
    if (["tokenizer", "tokenizerUrl", "preset"].includes(name)) loadTokenizer();
    if (["redact", "entityType", "nerModel"].includes(name)) await applyRedaction({ turnedOn: name === "redact" });
    if (["strategy", "semantic"].includes(name)) await semantic.apply();
  } catch (e) {
    $("#settings-error").textContent = `${e.code ?? e.name}: ${e.message}`;
    $("#settings-error").hidden = false;
  }
}

wireSettingsForm(form, state, { applyChange, loadTokenizerFile, rerender: drawChat, notice });

/** Redaction happens at the egress: the memory redacts whatever it sends, earlier turns too. */
async function applyRedaction({ turnedOn = false } = {}) {
  const s = state.settings;
  const on = await call("setRedaction", { enabled: s.redact, types: s.entityTypes, model: s.nerModel });
  if (on && s.nerModel) loadNerModel();
  if (on && turnedOn && state.entries.length) {
    notice("Redaction is on: the earlier messages are redacted now too, each time they are sent; this device keeps the real values.", "warn");
    await refresh();
  }
}

// ---- loads and worker events ---------------------------------------------------------------

function loadNerModel() {
  if (state.nerModel) return;
  state.nerModel = "loading";
  outbox.track("the PII model", loaders.loadNerModel(call)).then((ok) => (state.nerModel = ok ? "ready" : null));
}

function loadTokenizer() {
  return outbox.track("the tokenizer", loaders.loadTokenizer(state.settings, call).then(refresh));
}

function loadTokenizerFile(file) {
  if (file) return outbox.track("the tokenizer", loaders.loadTokenizerFile(file, memory).then(refresh));
}

function onWorkerEvent(ev) {
  if (loaders.showProgress(ev) || semantic.onEvent(ev)) return;
  if (ev.event === "crash") {
    notice(ev.message, "error");
  } else if (ev.event === "changed" && ev.session === state.session && !state.busy) {
    // Another tab of this chat stored turns: show them (the turn running here refreshes anyway).
    refresh().catch((e) => notice(e.message, "error"));
  } else if (ev.event === "storeError" && ev.session === state.session) {
    notice(`${ev.code}: ${ev.message}`, "error");
  }
}

// ---- chat ----------------------------------------------------------------------------------

function drawChat() {
  renderChat($("#messages"), {
    entries: state.entries, report: state.turns.at(-1)?.report, markdown: state.settings?.markdown,
    error: state.error, pending: outbox.pending, waitingFor: outbox.loading, streaming: state.streaming,
    onForget: forget, onRetry: () => runModel(),
  });
}

function syncBusy() {
  document.body.dataset.busy = state.busy || outbox.active ? "1" : "";
  $("#stop").hidden = !state.busy;
}

function setBusy(busy) {
  state.busy = busy;
  syncBusy();
}

/** Stops a reply in flight and waits until the turn has ended: switching, clearing or deleting
 * the chat under a running reply would store the reply in whichever chat is open next. */
async function settleReply() {
  while (state.busy) {
    state.abort?.abort();
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function refresh() {
  if (!state.opened) return;
  const [entries, pinned, summaries, facts, episodes, list] = await Promise.all([
    call("entries"), call("pinned"), call("summaries"), call("facts"), call("episodes"), call("sessions"),
  ]);
  state.entries = entries;
  // A summary is written by the model from what it was sent: placeholders, shown restored.
  const summary = summaries.at(-1);
  const summaryText = summary ? await call("restore", summary.text) : "";
  drawChat();
  renderMemoryPanel({ pinned, summary, summaryText, facts, episodes, entries, chats: list, session: state.session, strategy: state.settings.strategy }, {
    unpin: async (id) => { await call("unpin", id); await refresh(); },
    forgetFact: async (id) => { await call("forgetFact", id); await refresh(); },
  });
  showTurn(state.view);
}

/** Adds the user's turn and runs the model (called by the outbox, in order). */
async function sendTurn(text) {
  setBusy(true);
  try {
    state.error = null;
    await call("add", "user", text);
    await refresh();
  } catch (e) {
    setBusy(false);
    return notice(`${e.code ?? e.name}: ${e.message}`, "error");
  }
  await runModel(true);
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
    drawChat();
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
      // The messages as the memory built them, redacted at its egress when redaction is on.
      const body = { model: s.model, messages: built.messages, stream: s.stream };
      const tools = s.toolMemory ? await call("tools") : null;
      if (tools?.length) body.tools = tools;
      const bodyText = JSON.stringify(body, null, 2);
      const turn = { bodyText, report: built.report, summaryCalls: built.llmCalls, status: "sending", vault: built.vault };
      state.turns.push(turn);
      state.view = state.turns.length - 1;
      showTurn(state.view);
      state.streaming = "";
      drawChat();

      const restorer = await call("streamStart");
      let pending = Promise.resolve();
      state.abort = new AbortController();
      let result;
      try {
        result = await chatCompletion({
          ...endpointSettings(), bodyText, stream: s.stream, timeoutMs: s.timeoutSec * 1000, signal: state.abort.signal,
          onDelta: (chunk) => {
            pending = pending.then(async () => {
              state.streaming += await call("streamPush", restorer, chunk);
              drawChat();
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
      const reply = state.streaming + (await call("streamFinish", restorer));
      state.streaming = null;
      Object.assign(turn, { status: "ok", httpStatus: result.status, ms: result.ms, streamed: result.streamed });
      if (!result.toolCalls.length) {
        await call("add", "assistant", reply);
        return;
      }
      // The calls as the model wrote them, with the real values back: the history keeps those.
      const toolCalls = await Promise.all(result.toolCalls.map(async (c) => ({ ...c, function: { ...c.function, arguments: await call("restore", c.function.arguments) } })));
      await call("add", "assistant", reply || null, { toolCalls });
      for (const tc of toolCalls) {
        const out = await call("callTool", tc).catch((e) => `error: ${e.message}`);
        await call("add", "tool", out, { toolCallId: tc.id });
      }
      await refresh();
    }
  } finally {
    state.abort = null;
    state.streaming = null;
    await refresh().catch((e) => notice(e.message, "error"));
    setBusy(false);
  }
}

async function forget(id) {
  await call("forget", id);
  await refresh();
}

// ---- inspector -----------------------------------------------------------------------------

function showTurn(i) {
  const n = state.turns.length;
  state.view = n ? Math.min(Math.max(i, 0), n - 1) : -1;
  $("#turn-label").textContent = n ? `request ${state.view + 1} of ${n}` : "no request yet";
  $("#turn-prev").disabled = state.view <= 0;
  $("#turn-next").disabled = state.view >= n - 1;
  renderInspector($("#inspector"), state.turns[state.view], {
    entryText: (id) => state.entries.find((e) => e.id === id)?.content,
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

// ---- memory panel and chats ----------------------------------------------------------------

$("#pin-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = ev.target.elements.fact;
  if (!input.value.trim()) return;
  await call("pin", input.value.trim());
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

/** Opens chat `id` (`legacy`: what an earlier page kept for it, see legacy-chats.js). */
async function openSession(id, legacy = null) {
  await settleReply();
  // Sends typed in a chat being left and not made yet go back to the input (those typed
  // while the page started are for the chat it opens).
  if (state.opened) {
    const unsent = outbox.takeBack();
    if (unsent.length) $("#message-input").value = unsent.join("\n\n");
  }
  state.session = id;
  state.opened = false;
  chats.rememberChat(id);
  const { stored } = await outbox.track("the chat", call("open", memoryOptions(), id, legacy));
  state.opened = true;
  if (!stored && !state.warnedUnstored) {
    state.warnedUnstored = true;
    notice("This browser does not let the page use IndexedDB here (a private window?): chats last until the tab is closed.", "warn");
  }
  state.turns = [];
  state.error = null;
  await refresh();
  // The chat ends with a message the model never answered (the page was closed or reloaded
  // while the reply was written, or the chat was switched away from): offer to send it again.
  if (["user", "tool"].includes(state.entries.at(-1)?.role)) {
    state.error = { kind: "no reply", message: "The reply to the last message never arrived (the page was reloaded or closed, or the chat was left, while it was written)." };
    drawChat();
    showTurn(state.view);
  }
}

/** The chat to show: the one open last, else the newest, else a new one. */
async function chatToOpen() {
  const list = await call("sessions");
  const last = chats.lastChat();
  if (last && list.some((c) => c.id === last)) return last;
  return list.at(-1)?.id ?? chats.newChatId();
}

$("#session-select").onchange = (ev) => openSession(ev.target.value);
$("#session-new").onclick = () => openSession(chats.newChatId());
$("#session-delete").onclick = async () => {
  if (!confirm("Delete this chat from this browser?")) return;
  await settleReply();
  await call("deleteStored", state.session);
  const rest = (await call("sessions")).filter((c) => c.id !== state.session);
  await openSession(rest.at(-1)?.id ?? chats.newChatId());
};
$("#session-export").onclick = async () => {
  const title = $("#session-select").selectedOptions[0]?.textContent ?? "Chat";
  const blob = new Blob([chats.exportFile(title, await call("exportDoc"))], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `llm-memory-chat-${state.session}.json` });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
};
$("#session-import").onchange = async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  const id = chats.newChatId("imported");
  try {
    const { session, legacy } = chats.readExportFile(await file.text());
    if (session) await call("importDoc", session, id);
    await openSession(id, legacy);
  } catch (e) {
    await call("deleteStored", id).catch(() => {});
    if (state.session === id) await openSession(await chatToOpen()).catch(() => {});
    notice(`Import failed: ${e.message}`, "error");
  }
  ev.target.value = "";
};

// ---- composer ------------------------------------------------------------------------------

function submit(text) {
  if (!text.trim()) return;
  $("#message-input").value = "";
  outbox.push(text);
}
$("#composer").addEventListener("submit", (ev) => {
  ev.preventDefault();
  submit($("#message-input").value);
});
$("#message-input").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    submit(ev.target.value);
  }
});
$("#stop").onclick = () => state.abort?.abort();

// ---- start ---------------------------------------------------------------------------------

async function boot() {
  loaders.tokenizerStatus("loading", "Starting the memory worker…");
  const { entityTypes } = await call("init");
  setEntityTypes(entityTypes); // read by the settings below
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
  fillForm(form, state);
  await call("setEndpoint", endpointSettings());
  await applyRedaction();
  loadTokenizer();
  // Chats an earlier version of the page kept in localStorage move into the library once.
  for (const { id, data } of chats.legacyChats()) {
    try {
      await call("open", memoryOptions(), id, data);
      chats.dropLegacy(id);
    } catch (e) {
      notice(`A chat saved by an earlier version of this page could not be moved (${e.message}).`, "error");
    }
  }
  try {
    await openSession(await chatToOpen());
  } catch (e) {
    notice(`The saved chat could not be restored (${e.message}); starting a new one.`, "error");
    await openSession(chats.newChatId());
  }
  document.body.dataset.ready = "1";
  // The embedder loads beside the chat: until it is ready, memories are found by their words.
  semantic.apply().catch((e) => notice(`Semantic recall: ${e.code ?? e.name}: ${e.message}`, "error"));
}

outbox.track("the memory", boot()).catch((e) => {
  notice(`The demo failed to start: ${e.code ?? e.name}: ${e.message}`, "error");
  loaders.tokenizerStatus("fallback", "Not running.");
});
