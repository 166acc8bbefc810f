// What a context turn sends and reports, and the records it is built from.

export interface Entry {
  id: string;
  role: Role;
  content: string;
  timestamp: number;
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  metadata?: unknown;
  /** What this entry costs as a message, overhead included. */
  tokens: number;
}

export type EntryStatus = "included" | "dropped" | "summarized" | "retrieved";
export type EntryReason =
  | "latestUser" | "withinBudget" | "overBudget" | "outsideWindow" | "strategyNone"
  | "summarized" | "duplicate" | "orphanToolResult" | "toolPairIncomplete" | "relevant";
export type SectionName =
  | "system" | "pinned" | "summary" | "retrieved" | "episodes" | "tools" | "history";

export interface EntryReport {
  id: string;
  role: Role;
  tokens: number;
  status: EntryStatus;
  reason: EntryReason;
  /** Values redacted from this entry as sent, by type: { EMAIL: 1 }. */
  redacted?: Record<string, number>;
  /** Relevance score, for entries sent as retrieved memories. */
  score?: number;
}

/** Consecutive entries not sent, with one fate: `{ from: "e1", to: "e9880", count: 9880,
 * status: "dropped", reason: "overBudget" }`. */
export interface EntryRange {
  /** Id of the first entry of the range. */
  from: string;
  /** Id of the last entry of the range. */
  to: string;
  /** Position of `from` in `mem.entries()`. */
  fromIndex: number;
  count: number;
  status: Exclude<EntryStatus, "included" | "retrieved">;
  /** Entries the builder never reached (older than where the budget ran out, outside the
   * window) carry the reason that decided them as a block; `detail: "all"` judges each. */
  reason: EntryReason;
}

export interface SectionReport {
  name: SectionName;
  /** The source marker the section starts with, e.g. "[Summary of earlier conversation]". */
  marker?: string;
  tokens: number;
  messages: number;
  items: number;
  dropped: number;
}

export interface ContextReport {
  strategy: StrategyName;
  /** "Sending 6 of 40 messages (1234 / 2000 tokens)": history turns sent of all turns kept
   * (the system prompt, summary and memories are not counted there; see messagesSent). */
  headline: string;
  budget: { maxTokens?: number; reserveTokens: number; available?: number };
  /** Tokens of what is sent, overhead included, reserve excluded. */
  totalTokens: number;
  /** Length of `messages`: every message sent, system prompt, summary and memories included. */
  messagesSent: number;
  sections: SectionReport[];
  /** The entries sent, in order, with why (with `detail: "all"`: every entry). */
  entries: EntryReport[];
  /** The entries not in `entries`, as ranges in history order (empty with `detail: "all"`):
   * together the two name every entry exactly once. */
  ranges: EntryRange[];
  /** Entries in the history. */
  entryCount: number;
  summary?: { id: string; startId: string; endId: string; count: number; tokens: number; included: boolean; stale: boolean };
  tokenizer: { kind: string; exact: boolean };
  notes: string[];
  /** Values redacted from everything sent, by type (present when redaction is on). */
  redactions?: Record<string, number>;
  /** Memories strategy "retrieval" sent, with their scores. */
  retrieved?: RetrievedReport[];
}

export interface ContextResult {
  messages: ChatMessage[];
  report: ContextReport;
}

export interface PinnedFact { id: string; text: string }

export interface Summary {
  id: string;
  text: string;
  startId: string;
  endId: string;
  count: number;
  createdAt: number;
  /** Only on summaries stored by earlier versions: forgetting a turn now deletes the summaries
   *  that covered it. A stale summary is never sent. */
  stale: boolean;
}

export type StepInput =
  | { type: "task"; task: string }
  | { type: "planning"; plan: string }
  | { type: "action"; modelOutput?: string; toolCalls?: ToolCall[]; observations?: string; error?: string };

export type StepRecord = StepInput & { id: string; timestamp: number };

/** "full" for acting; "summary" for re-planning (no model outputs, latest plan only). */
export type StepView = "full" | "summary";
