// Type check of the recall API (tsc --noEmit): options, results and the tool loop.
import { Memory, type ChatMessage, type Fact, type RecallHit, type FactChange, type Episode, type MemoryTool } from "../../pkg/llm_memory.js";

export async function recallUsage(): Promise<void> {
  const mem = new Memory({
    strategy: "retrieval",
    maxTokens: 4000,
    tools: true,
    extract: async (turns) => turns.map((t) => ({ op: "add" as const, text: t.content })),
    embed: async (texts) => texts.map(() => new Float32Array(384)),
    retrieval: { recentShare: 0.4, maxItems: 12, halfLifeDays: 14, quantize: true },
  });
  const id: string = mem.remember("The user is vegetarian", { category: "diet", importance: 0.8 });
  mem.updateFact(id, "The user is vegan");
  const hits: RecallHit[] = await mem.recall("diet", { k: 3, kinds: ["fact", "turn"] });
  const kind: "turn" | "fact" | "episode" = hits[0].kind;
  const facts: Fact[] = mem.facts({ all: true });
  const status: "active" | "superseded" | "deleted" = facts[0].status;
  const trail: FactChange[] = mem.factHistory(id);
  mem.updateFact(id, "The user is vegan");
  // @ts-expect-error: one name per thing (updateFact, factHistory)
  mem.history(id);
  const episode: Episode | null = await mem.recordEpisode();
  const similar = await mem.recallEpisodes("planning a trip", { k: 2 });
  const score: number = similar[0].score;
  const tools: MemoryTool[] = mem.tools();
  const result: string = await mem.callTool(tools[0].function.name, { text: "x" });
  const { messages, report } = await mem.context({ query: "diet", tools: true });
  const sent: ChatMessage[] = messages;
  const scores = report.entries.map((e) => e.score ?? 0);
  const retrieved = report.retrieved?.map((r) => `${r.kind} ${r.id} ${r.score} ${r.date}`);
  const extracted: { applied: number; notes: string[] } = await mem.extractFacts();
  mem.forget(id);
  // @ts-expect-error: not a recall option
  await mem.recall("diet", { kk: 3 });
  // @ts-expect-error: not an item kind
  await mem.recall("diet", { kinds: ["memo"] });
  // @ts-expect-error: not a strategy
  new Memory({ strategy: "retreival" });
  void [kind, status, trail, episode, result, sent, scores, retrieved, extracted];
}
