//! The TypeScript shapes of the recall API (facts, episodes, tools, retrieval options).

use wasm_bindgen::prelude::*;

// One declaration per interface: the recall options of `MemoryOptions` and the recall parts
// of the report are declared with the rest of them in `types.rs`.
#[wasm_bindgen(typescript_custom_section)]
const RECALL_TYPES: &'static str = r#"
export interface RetrievedReport {
  /** The fact or episode id; "" for a turn (see the entry with status "retrieved"). */
  id: string;
  kind: "turn" | "fact" | "episode";
  /** The fused score it was ranked by (reciprocal-rank fusion of the two rankings, weighted
   *  by recency and importance). */
  score: number;
  /** Its part from words: the BM25 score for the query; absent when it shares no word with it. */
  bm25?: number;
  /** Its part from meaning: the cosine with the query's vector; absent without `embed` /
   *  `embedder`, or while the item waits for its vector (see `embedPending`). */
  cosine?: number;
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

export interface RememberOptions {
  category?: string;
  /** 0..1 (default 0.5); weighs retrieval. */
  importance?: number;
  /** What the fact is about; facts with the same subject supersede each other (default: found in the text). */
  subject?: string;
}

export interface FactsOptions {
  /** Also the superseded and deleted facts (default false). */
  all?: boolean;
}

export interface RecallOptions {
  /** Results (default 5). */
  k?: number;
  kinds?: ("turn" | "fact" | "episode")[];
  /** Only facts in this category. */
  category?: string;
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
"#;
