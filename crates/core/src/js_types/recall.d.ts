// Long-term memory: search hits, facts and their trail, episodes, the memory tools and what
// strategy "retrieval" reports.

export interface RetrievedReport {
  /** The entry, fact or episode id (a turn's entry also has status "retrieved"). */
  id: string;
  kind: "turn" | "fact" | "episode";
  /** The score it was ranked by: its relevance weighted by recency and importance, plus half
   *  the score of the best hit within three turns of it in the same sitting. */
  score: number;
  /** How well it answers the query, 0..1: BM25 over the query's best BM25, and the cosine
   *  placed between an unrelated item's level and the best, mixed by `lexicalWeight` (words
   *  alone without vectors). 0 for a turn sent only as a neighbour. */
  relevance: number;
  /** Its part from words: the BM25 score for the query; absent when it shares no word with it. */
  bm25?: number;
  /** Its part from meaning: the cosine with the query's vector; absent without `embed` /
   *  `embedder`, or while the item waits for its vector (see `embedPending`). */
  cosine?: number;
  /** The entry id of the hit it was sent beside: a turn said just before or after a hit in the
   *  same sitting (no pause over 30 minutes), which ranks mostly for being its neighbour. */
  neighborOf?: string;
  /** true when it was said within the span of a date the query names ("in May 2023", "on 8
   *  May", "2023-05-08", a week past the date included): such hits gain half the best score. */
  dateMatch?: true;
  /** Present when only a part of a long turn was sent (the passage that best matches the
   *  query, with its neighbours: whole paragraphs, list items, code blocks and tables, never
   *  cut inside one): `text.slice(from, to)` of the turn as sent (redacted when a redactor is
   *  set), `length` the whole turn's; the line sent marks each cut with `[…]`. */
  excerpt?: { from: number; to: number; length: number };
  tokens: number;
  /** YYYY-MM-DD (UTC), as shown in the section. */
  date: string;
}

export interface ExtractOp {
  op: "add" | "update" | "delete";
  text?: string;
  /** The fact to update or delete. */
  id?: string;
  category?: string;
  importance?: number;
}

export interface RecallHit {
  id: string;
  kind: "turn" | "fact" | "episode";
  text: string;
  score: number;
  timestamp: number;
  role?: Role;
  category?: string;
}

export interface Fact {
  id: string;
  text: string;
  category?: string;
  importance: number;
  subject: string;
  createdAt: number;
  updatedAt: number;
  status: "active" | "superseded" | "deleted";
  supersededBy?: string;
  /** The turns it was extracted from: forgetting one forgets the fact (unless `keepDerived`). */
  from?: string[];
}

export interface FactChange {
  factId: string;
  op: "add" | "update" | "supersede" | "delete";
  text: string;
  previousText?: string;
  /** For "supersede": the newer fact. */
  by?: string;
  at: number;
}

export interface Episode {
  id: string;
  summary: string;
  actions: string[];
  outcome: string;
  importance: number;
  startTime: number;
  endTime: number;
  entryIds: string[];
  createdAt: number;
}

export interface MemoryTool {
  type: "function";
  function: { name: "store_memory" | "recall_memory" | "list_memories" | "forget_memory"; description: string; parameters: object };
}
