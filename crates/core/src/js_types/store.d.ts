// Stored sessions: where, the export document, the bookkeeping and what a sync moved.

/** Where a session is stored. */
export type StorageName = "indexeddb" | "localstorage" | "memory";

/** What `mem.sync()` did: sync records pushed, other devices' records pulled, and records the
 * server rewrote without forgotten changes (`compacted`, after a `forget` or `clear`). */
export interface SyncResult { pushed: number; pulled: number; compacted: number }

export interface StoredRecord { kind: string; id: string; order: number; data: unknown }

/** The export format, version 2. `Memory.import` also takes version 1: `{ version: 1, messages: ChatMessage[] }`. */
export interface SessionDocument {
  format: "llm-memory/session";
  version: number;
  session: string;
  createdAt: number;
  updatedAt: number;
  ttlMs?: number;
  records: StoredRecord[];
}

export interface SessionInfo {
  session: string;
  schemaVersion: number;
  createdAt: number;
  updatedAt: number;
  ttlMs?: number;
  expiresAt?: number;
  turns: number;
  /** Approximate stored size. */
  bytes: number;
}
