// The page's chats. Each is a session the library stores (`Memory.open`, IndexedDB) and
// lists (`Memory.sessions`), named `demo/<id>`; all the page keeps itself is which chat was
// open last. Earlier versions of the page kept a list, turns or vaults in localStorage: they
// are read here once, moved into the library by the worker (legacy-chats.js), then removed.

const CURRENT = "llm-memory-demo:current-session";
const LEGACY_INDEX = "llm-memory-demo:sessions";
const LEGACY_DATA = (id) => `llm-memory-demo:session:${id}`;

const read = (key) => {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
};

export const newChatId = (kind = "c") => `${kind}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const lastChat = () => localStorage.getItem(CURRENT);
export const rememberChat = (id) => localStorage.setItem(CURRENT, id);

/** "Chat of 1 Dec, 16:20", or "... (imported)" for a chat made by an import. */
export function titleOf(chat) {
  const when = new Date(chat.createdAt).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  return `Chat of ${when}${chat.id.startsWith("imported") ? " (imported)" : ""}`;
}

/** Chats an earlier version of the page kept in localStorage: `[{ id, data }]`. */
export function legacyChats() {
  const index = read(LEGACY_INDEX);
  if (!Array.isArray(index)) return [];
  return index.map(({ id }) => ({ id, data: read(LEGACY_DATA(id)) })).filter((c) => typeof c.id === "string");
}

/** Forgets a legacy chat's localStorage record once the library has it. */
export function dropLegacy(id) {
  localStorage.removeItem(LEGACY_DATA(id));
  const rest = (read(LEGACY_INDEX) ?? []).filter((c) => c.id !== id);
  if (rest.length) localStorage.setItem(LEGACY_INDEX, JSON.stringify(rest));
  else localStorage.removeItem(LEGACY_INDEX);
}

/** A file for "export": the library's export of the chat (its vault inside), with a title. */
export function exportFile(title, session) {
  return JSON.stringify({ format: "llm-memory-demo-session", version: 3, title, session }, null, 2);
}

/**
 * Reads an exported chat: `{ session, legacy }`, where `session` is the library's document
 * (versions 2 and 3) and `legacy` what version 1 and 2 files kept beside it (turns, pins, the
 * vault of a chat written redacted), for legacy-chats.js.
 */
export function readExportFile(text) {
  const doc = JSON.parse(text);
  const ok = doc?.format === "llm-memory-demo-session" &&
    ((doc.version === 1 && Array.isArray(doc.entries)) || ([2, 3].includes(doc.version) && doc.session && typeof doc.session === "object"));
  if (!ok) throw new Error("not a chat exported by this demo");
  if (doc.version === 1) return { session: null, legacy: { entries: doc.entries, pinned: doc.pinned ?? [], vault: doc.vault ?? null } };
  return { session: doc.session, legacy: doc.vault ? { vault: doc.vault } : null };
}
