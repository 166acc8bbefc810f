// The Redactor's options and what it returns, as JS sees them (the JS face emits this).

/**
 * A custom pattern's name (`patterns: [{ name: "TICKET", ... }]`): upper-case letters, digits
 * and `_`. Options with no custom pattern take built-in names only, so `tsc` rejects a typo such
 * as `"EMAL"`; with patterns, `types` may name them too (give the names as the type argument,
 * `RedactorOptions<"TICKET">`, to have every name checked).
 */
export type CustomEntityType = Uppercase<string>;

/** A built-in entity type or a custom pattern's name. */
export type EntityType = BuiltInEntityType | CustomEntityType;

/** One entry of `Redactor.types`. */
export interface EntityTypeInfo {
  type: BuiltInEntityType;
  /** What it finds, in a sentence. */
  description: string;
  /** A national identifier, tax, licence or account number. */
  national: boolean;
}

/** A user-declared recognizer. `name` is upper case (`TICKET`) and becomes `[TICKET_1]`. */
export interface CustomPattern<Name extends string = CustomEntityType> {
  name: Name;
  /** Rust `regex` syntax (no look-around or back-references; matching is linear-time). */
  regex: string;
  /** A built-in check the match must pass. */
  validate?: "luhn" | "iban" | "usSsn" | "ipv4" | "ipv6" | "base58check" | "bech32";
  /** Confidence reported for matches (default 1). */
  score?: number;
}

export interface RedactorOptions<Custom extends string = never> {
  /** Entity types to detect; default: every built-in type and every custom pattern. */
  types?: (BuiltInEntityType | Custom)[];
  /** Values never redacted (compared case-insensitively). */
  allowList?: string[];
  patterns?: CustomPattern<Custom>[];
  /** `placeholder` (default): `[EMAIL_1]`, reversible. `mask`: `[EMAIL]`, not reversible. */
  mode?: "placeholder" | "mask";
  /** Findings scoring below this are dropped (default 0.5). Not applied to the model's. */
  minScore?: number;
  /** The PII model: adds lower-case names, addresses without a cue word and numbers after a
   *  label that the rules miss. Loaded once with `NerModel.fromUrl` / `fromBytes`, shared. */
  model?: NerModel;
  /** A word counts for the model when its label's probability reaches this (default 0.5). */
  modelThreshold?: number;
}

/** Options with custom patterns: `types` may also name the patterns. */
export type RedactorOptionsWithPatterns = RedactorOptions<CustomEntityType> & { patterns: CustomPattern[] };

/** What `new Redactor(...)` and `new Memory({ redact })` take. */
export type RedactorInit = RedactorOptions | RedactorOptionsWithPatterns;

export interface Finding {
  type: EntityType;
  /** UTF-16 offsets into the input, as `String.prototype.slice` takes them. */
  start: number;
  end: number;
  placeholder: string;
  score: number;
  /** What found the value: the rules (or the vault, which knew it) or the PII model. */
  source: "rule" | "model";
}

export interface RedactionResult {
  text: string;
  findings: Finding[];
}

export interface VaultEntry {
  placeholder: string;
  type: EntityType;
  value: string;
}

/** The placeholder vault as stored by the app. Keep it on the device. */
export interface VaultDocument {
  version: 1;
  entries: VaultEntry[];
}
