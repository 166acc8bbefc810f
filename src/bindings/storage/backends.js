// IndexedDB's raw I/O (localStorage and memory are read in Rust); storage/mod.rs calls a method with
// `run`. Rust hands over where a session is (`place`: [name, meta key, records' prefix,
// session's prefix], from the core's layout), JSON texts and the core's op rows
// `[verb, kind, id, text, key]`, and parses what comes back: flat `[meta, label, text, ...]`
// lists. A failure rejects with { step, name, message, bytes }, which the core words
// (crates/core/src/store/failure.rs).

const DB_NAME = "llm-memory";
/** Version 2 added `prepared` (tokenizers' and models' compact forms). */
const DB_VERSION = 2;
const SESSION_STORES = ["records", "sessions"];

function failure(step, e, bytes = 0) {
  if (e?.step) return e;
  return { step, name: String(e?.name ?? ""), message: String(e?.message ?? ""), bytes };
}

/** Runs `f`; what it throws or rejects with is a failure of `step`. */
async function attempt(step, f) {
  try {
    return await f();
  } catch (e) {
    throw failure(step, e);
  }
}

export function indexedDbHere() {
  return globalThis.indexedDB != null;
}

/** Calls a backend's method: one import serves them all. */
export async function run(backend, method, args) {
  return backend[method](...args);
}

/** IndexedDB; `localstorage` and `memory` are in Rust (`storage/key_value.rs`). */
export async function openBackend() {
  return new IdbBackend(await openDb());
}

async function openDb() {
  if (!indexedDbHere()) throw failure("unavailable");
  // A request's events fire in a later task, so the handlers set after this await are in time.
  const open = await attempt("refused", async () => indexedDB.open(DB_NAME, DB_VERSION));
  let blocked = false;
  open.onupgradeneeded = () => {
    for (const store of [...SESSION_STORES, "prepared"]) {
      if (!open.result.objectStoreNames.contains(store)) open.result.createObjectStore(store);
    }
  };
  open.onblocked = () => (blocked = true);
  const db = await settled(open).catch((e) => {
    throw failure(blocked ? "blocked" : "open", e);
  });
  db.onversionchange = () => db.close(); // never be the tab that blocks another's upgrade
  return db;
}

/** A request's result once it succeeds. */
function settled(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Every key `[...prefix, ...]`: arrays sort after strings, so `[...prefix, []]` is above them. */
const below = (prefix) => IDBKeyRange.bound(prefix, [...prefix, []]);

/** `indexeddb`: stores `records` (key `[session, kind, id]`), `sessions` and `prepared`. */
class IdbBackend {
  constructor(db) {
    this.db = db;
  }

  /** The results of the requests `f` makes of `stores` in one readonly transaction. */
  read(stores, f) {
    return attempt("read", () => {
      const tx = this.db.transaction(stores, "readonly");
      return Promise.all(f(...[stores].flat().map((s) => tx.objectStore(s))).map(settled));
    });
  }

  /** The changes `f` makes to `stores` in one transaction (all or nothing), once committed.
   * Relaxed durability: the commit does not wait for the disk flush, which is what makes
   * per-turn writes cheap. */
  change(step, stores, f) {
    return attempt(step, () => {
      const tx = this.db.transaction(stores, "readwrite", { durability: "relaxed" });
      try {
        f(...[stores].flat().map((s) => tx.objectStore(s)));
      } catch (e) {
        tx.abort(); // still active: a request that throws is never queued
        throw e;
      }
      return new Promise((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = tx.onabort = (e) => reject(tx.error ?? e.target?.error);
      });
    });
  }

  async load([session]) {
    const [text, all] = await this.read(SESSION_STORES, (records, sessions) => [
      sessions.get(session),
      records.getAll(below([session])),
    ]);
    if (typeof text !== "string") return [];
    return [text, ...all.flatMap((t, i) => [`records[${i}]`, t])];
  }

  write([session], text, ops, replace) {
    return this.change("write", SESSION_STORES, (records, sessions) => {
      if (replace) records.delete(below([session]));
      for (const [verb, kind, id, value] of ops) {
        if (verb === "put") records.put(value, [session, kind, id]);
        else records.delete(verb === "del" ? [session, kind, id] : below([session, kind]));
      }
      sessions.put(text, session);
    });
  }

  async metas() {
    const [names, texts] = await this.read("sessions", (s) => [s.getAllKeys(), s.getAll()]);
    // Both lists come in key order, so a damaged meta is named by its key.
    return names.flatMap((name, i) => [String(name), texts[i]]);
  }

  delete([session]) {
    return this.change("delete", SESSION_STORES, (records, sessions) => {
      records.delete(below([session]));
      sessions.delete(session);
    });
  }

  async getPrepared(key) {
    const [value] = await this.read("prepared", (prepared) => [prepared.get(key)]);
    return value instanceof Uint8Array ? value : undefined;
  }

  putPrepared(key, bytes) {
    return this.change("write", "prepared", (prepared) => prepared.put(bytes, key));
  }
}

/** `[key, text, ...]` of a Storage's keys under `prefix`, in one call (the Storage API has no
 * prefix query, and a call per key dominated a long reopen). */
export function entriesOf(storage, prefix) {
  return Object.entries(storage).filter(([k]) => k.startsWith(prefix)).flat();
}
