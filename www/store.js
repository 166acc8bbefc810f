// ---------------------------------------------------------------------------------------------
// PERSISTENCE SHIM — replace with `Memory.open({ session, storage })` once persistence lands.
// Until then the page keeps each session itself: after every change it saves the worker's
// snapshot (`mem.entries()`, the pinned texts, the redaction vault) to localStorage, and on
// load re-adds the entries with `add(role, content, { timestamp, toolCalls, toolCallId, name,
// metadata })`. Summaries are not restored (the API has no way to put one back): the next
// turn that crosses the trigger writes a new one.
// ---------------------------------------------------------------------------------------------

const INDEX = "llm-memory-demo:sessions";
const CURRENT = "llm-memory-demo:current-session";
const DATA = (id) => `llm-memory-demo:session:${id}`;

const read = (key, fallback) => {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
};

export function listSessions() {
  return read(INDEX, []);
}

function writeIndex(list) {
  localStorage.setItem(INDEX, JSON.stringify(list));
}

export function createSession(title) {
  const id = `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const list = listSessions();
  list.push({ id, title: title || `Chat ${list.length + 1}`, createdAt: Date.now() });
  writeIndex(list);
  localStorage.setItem(CURRENT, id);
  return id;
}

/** The current session id, creating the first session on a fresh browser. */
export function currentSession() {
  const id = localStorage.getItem(CURRENT);
  if (id && listSessions().some((s) => s.id === id)) return id;
  const first = listSessions()[0];
  if (first) {
    localStorage.setItem(CURRENT, first.id);
    return first.id;
  }
  return createSession("Chat 1");
}

export function switchSession(id) {
  localStorage.setItem(CURRENT, id);
}

export function deleteSession(id) {
  writeIndex(listSessions().filter((s) => s.id !== id));
  localStorage.removeItem(DATA(id));
  if (localStorage.getItem(CURRENT) === id) localStorage.removeItem(CURRENT);
}

export function renameSession(id, title) {
  writeIndex(listSessions().map((s) => (s.id === id ? { ...s, title } : s)));
}

/** `{ entries, pinned, vault }` of a session (empty for a new one). */
export function loadSession(id) {
  return read(DATA(id), { entries: [], pinned: [], vault: null });
}

export function saveSession(id, snapshot) {
  try {
    localStorage.setItem(DATA(id), JSON.stringify(snapshot));
    return null;
  } catch (e) {
    return `could not save the chat (${e.name}): localStorage may be full`;
  }
}

/** A file for "export": the session's snapshot with its title. */
export function exportSession(id) {
  const meta = listSessions().find((s) => s.id === id) ?? {};
  return JSON.stringify({ format: "llm-memory-demo-session", version: 1, title: meta.title, ...loadSession(id) }, null, 2);
}

export function importSession(text) {
  const doc = JSON.parse(text);
  if (doc?.format !== "llm-memory-demo-session" || !Array.isArray(doc.entries)) {
    throw new Error("not a session exported by this demo");
  }
  const id = createSession(`${doc.title ?? "Imported"} (imported)`);
  saveSession(id, { entries: doc.entries, pinned: doc.pinned ?? [], vault: doc.vault ?? null });
  return id;
}
