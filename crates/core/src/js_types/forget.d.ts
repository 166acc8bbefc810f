// What `forget` and `clear` erased: the core's `Erasure`, with whether storage holds it.

/** What `forget` or `clear` erased, resolved once storage holds the erasure. */
export interface ForgetReceipt {
  removed: {
    /** Ids of the turns, summaries, agent steps, facts and episodes removed. */
    turns: string[];
    summaries: string[];
    steps: string[];
    facts: string[];
    episodes: string[];
    /** Embeddings removed from the stored vector chunks. */
    vectors: number;
    /** Placeholders whose real values left the redaction vault. */
    vaultValues: string[];
  };
  kept: {
    /** Placeholders of values the erased records held that stay in the vault: a kept turn,
     *  fact, pinned fact, summary, episode, step or the system prompt still holds the value or
     *  its placeholder. */
    vaultValues: string[];
  };
  /** true once storage (IndexedDB, localStorage; always true without storage) holds the erasure. */
  stored: boolean;
  /** Why the write failed (`stored: false`): the erasure stays queued for the next `flush()`. */
  error?: LlmMemoryError;
}
