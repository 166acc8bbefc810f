// The package's one error class: everything llm-memory throws or rejects with is an
// `LlmMemoryError` with a stable `code`, so `instanceof` and `switch (err.code)` both work.
// `LlmMemoryError.codes` lists the codes: `crates/core/src/error.rs` declares them once, the `.d.ts` union
// is generated from there, and scripts/finish-pkg.mjs writes the union into CODES below.
export class LlmMemoryError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = "LlmMemoryError";
    this.code = code;
  }
}
const CODES = [];
LlmMemoryError.codes = Object.freeze(CODES);

export function codedError(code, message) {
  return new LlmMemoryError(code, message);
}
