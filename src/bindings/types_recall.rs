//! The TypeScript shapes of the recall API (facts, episodes, tools, retrieval options).

use wasm_bindgen::prelude::*;

// One declaration per interface: the recall options of `MemoryOptions` and the recall parts
// of the report are declared with the rest of them in `types.rs`.
#[wasm_bindgen(typescript_custom_section)]
const RECALL_TYPES: &'static str = r#"
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

"#;
