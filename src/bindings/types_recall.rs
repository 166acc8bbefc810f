//! The TypeScript shapes of the recall API (facts, episodes, tools, retrieval options).

use wasm_bindgen::prelude::*;

// Interfaces declared here merge with those of the same name in `types.rs`.
#[wasm_bindgen(typescript_custom_section)]
const RECALL_TYPES: &'static str = r#"
export interface MemoryOptions {
  /** Called after each exchange (by context(), or by extractFacts()) with the turns it has not
   *  seen; resolves to fact operations, e.g. an LLM call that reads the turns. */
  extract?: (turns: Entry[]) => Promise<ExtractOp[]> | ExtractOp[];
  /** Embeds texts for hybrid retrieval (any embedding API or in-browser model). */
  embed?: (texts: string[]) => Promise<(number[] | Float32Array)[]> | (number[] | Float32Array)[];
  /** How long `extract`, `embed` and the `summarize` call of recordEpisode() may take, in ms
   *  (default 30 000). Past it, context() goes on without them (a note says so) and
   *  recordEpisode() rejects with CALLBACK_FAILED. */
  callbackTimeoutMs?: number;
  /** Count the memory tools' schemas (mem.tools()) against every context's budget. */
  tools?: boolean;
  /** Strategy "retrieval" knobs. */
  retrieval?: {
    /** Part of the budget after the mandatory messages that recent turns get first (default 0.5). */
    recentShare?: number;
    /** Most memories per context (default 24). */
    maxItems?: number;
    /** Age at which recency has halved, in days (default 30). */
    halfLifeDays?: number;
    /** 0..1, how much recency weighs (default 0.3). */
    recencyWeight?: number;
    /** 0..1, how much importance weighs (default 0.5). */
    importanceWeight?: number;
    /** Score vectors in int8 first, then re-score the best exactly (default false). */
    quantize?: boolean;
  };
}

export interface ContextOptions {
  /** Count the memory tools' schemas against this context's budget (default: the tools option). */
  tools?: boolean;
}

export interface EntryReport {
  /** Relevance score, for entries sent as retrieved memories. */
  score?: number;
}

export interface RetrievedReport {
  /** The fact or episode id; "" for a turn (see the entry with status "retrieved"). */
  id: string;
  kind: "turn" | "fact" | "episode";
  score: number;
  tokens: number;
  /** YYYY-MM-DD (UTC), as shown in the section. */
  date: string;
}

export interface ContextReport {
  /** Memories strategy "retrieval" sent, with their scores. */
  retrieved?: RetrievedReport[];
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
