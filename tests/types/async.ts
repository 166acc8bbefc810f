// Type-checked by `tsc` in `make test`: the static async constructors and optional options
// read as users write them (`Promise<Memory>`, not a promise of a promise).
import { Memory, Tokenizer } from "../../pkg/llm_memory.js";
import type { Fact, SessionDocument, SessionInfo, SyncResult } from "../../pkg/llm_memory.js";

export function asyncUsage(json: string, doc: SessionDocument): Promise<unknown>[] {
  const opened: Promise<Memory> = Memory.open({ session: "chat", storage: "memory" });
  const imported: Promise<Memory> = Memory.import(doc, { session: "copy" });
  const asSaved: Promise<Memory> = Memory.import(doc);
  const listed: Promise<SessionInfo[]> = Memory.sessions();
  const gone: Promise<void> = Memory.delete("chat");
  const rough: Tokenizer = Tokenizer.approximate();
  const cached: Promise<Tokenizer> = Tokenizer.fromJsonCached(json);
  const current: Fact[] = new Memory().facts();
  const listening: Promise<Memory> = Memory.open({ session: "chat", onChange: () => console.log("changed") });
  const mem = new Memory();
  // @ts-expect-error: the listener is given to Memory.open / Memory.import as onChange
  mem.onchange = () => {};
  // @ts-expect-error: toolCalls holds tool calls
  mem.add("assistant", null, { toolCalls: "c1" });
  const synced: Promise<Memory> = Memory.open({
    session: "chat", sync: { url: "https://sync.example.com", token: "t", key: { passphrase: "p" }, intervalMs: 0 },
  });
  const moved: Promise<SyncResult> = mem.sync();
  const goneEverywhere: Promise<void> = Memory.delete("chat", { sync: { url: "https://sync.example.com", token: "t" } });
  // @ts-expect-error: a key is a CryptoKey or { passphrase }, not a string
  void Memory.open({ session: "chat", sync: { url: "https://sync.example.com", token: "t", key: "secret" } });
  // @ts-expect-error: Memory.import takes no sync (open the imported session with it)
  void Memory.import(doc, { sync: { url: "https://sync.example.com", token: "t", key: { passphrase: "p" } } });
  return [opened, imported, asSaved, listed, gone, cached, listening, synced, moved, goneEverywhere, Promise.resolve([current, rough])];
}
