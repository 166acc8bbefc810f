// The page's own bookkeeping of its chats, in localStorage: the list with titles, the current
// chat, and each chat's redaction vault (the page's Redactor, which redacts user turns as
// they are typed). The chats themselves are stored by the library: the worker opens each with
// `Memory.open({ session, storage: "indexeddb" })`. Earlier versions of this page kept the
// turns here as well (`entries`, `pinned`); the worker moves such a chat into IndexedDB the
// first time it is opened.

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

/** `{ vault }` of a chat, plus `entries` and `pinned` for one saved by an earlier version. */
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

/** A file for "export": the library's export of the chat, with its title and vault. */
export function exportSession(id, session) {
  const meta = listSessions().find((s) => s.id === id) ?? {};
  return JSON.stringify({ format: "llm-memory-demo-session", version: 2, title: meta.title, vault: loadSession(id).vault, session }, null, 2);
}

/**
 * Reads an exported chat into a new chat of this page: `{ id, session }`, where `session` is
 * the library's document for the worker to import (version 2), or null for a version-1 file,
 * whose turns are moved in when the chat is opened.
 */
export function importSession(text) {
  const doc = JSON.parse(text);
  const v1 = doc?.version === 1 && Array.isArray(doc.entries);
  const v2 = doc?.version === 2 && doc.session && typeof doc.session === "object";
  if (doc?.format !== "llm-memory-demo-session" || !(v1 || v2)) {
    throw new Error("not a chat exported by this demo");
  }
  const id = createSession(`${doc.title ?? "Imported"} (imported)`);
  if (v1) saveSession(id, { entries: doc.entries, pinned: doc.pinned ?? [], vault: doc.vault ?? null });
  else saveSession(id, { vault: doc.vault ?? null });
  return { id, session: v2 ? doc.session : null };
}
