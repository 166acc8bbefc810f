// Chats kept by earlier versions of the demo page, brought onto the library's own paths once.
// The oldest kept each chat's turns and pins in localStorage; the next stored them with the
// library but redacted as typed, its vault (placeholder -> value) in localStorage. Either way
// the chat is rewritten with the real values: the memory now redacts only what it sends.
import { Redactor } from "/pkg/llm_memory.js";

/** Puts a legacy vault's values back into text written with its placeholders. */
function restorerOf(vault) {
  if (!vault?.entries?.length) return (text) => text;
  const redactor = new Redactor();
  redactor.importVault(vault);
  return (text) => (typeof text === "string" ? redactor.restore(text) : text);
}

/** An entry as `mem.add` arguments, restored, without the old page's redaction marks. */
function addArgs(e, restore) {
  const extra = { timestamp: e.timestamp };
  if (e.name) extra.name = e.name;
  if (e.toolCalls?.length) extra.toolCalls = e.toolCalls.map((c) => ({ ...c, function: { ...c.function, arguments: restore(c.function.arguments) } }));
  if (e.toolCallId) extra.toolCallId = e.toolCallId;
  const { redacted, redactions, ...metadata } = e.metadata ?? {};
  if (Object.keys(metadata).length) extra.metadata = metadata;
  return [e.role, restore(e.content), extra];
}

/**
 * Applies `legacy` (`{ entries?, pinned?, vault? }` from localStorage, or null) to the chat
 * just opened; returns how many turns and pins it moved or rewrote (0: nothing to do).
 */
export function upgradeLegacy(mem, legacy) {
  if (!legacy) return 0;
  const restore = restorerOf(legacy.vault);
  const empty = mem.length === 0 && !mem.pinned().length;
  if (empty && (legacy.entries?.length || legacy.pinned?.length)) {
    for (const text of legacy.pinned ?? []) mem.pin(restore(text));
    for (const e of legacy.entries ?? []) mem.add(...addArgs(e, restore));
    return (legacy.pinned?.length ?? 0) + (legacy.entries?.length ?? 0);
  }
  if (!legacy.vault?.entries?.length) return 0;
  const entries = mem.entries();
  const pins = mem.pinned().filter((p) => restore(p.text) !== p.text);
  if (!entries.some((e) => e.metadata?.redacted) && !pins.length) return 0;
  mem.clear();
  for (const e of entries) mem.add(...addArgs(e, restore));
  for (const p of pins) {
    mem.unpin(p.id);
    mem.pin(restore(p.text));
  }
  for (const f of mem.facts()) {
    const text = restore(f.text);
    if (text === f.text) continue;
    mem.forget(f.id);
    mem.remember(text, { ...(f.category ? { category: f.category } : {}), importance: f.importance });
  }
  return entries.length + pins.length;
}
