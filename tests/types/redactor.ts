// Type-checked by `tsc` in `make test`: the Redactor surface as apps that redact before upload
// use it (issue contract: `new Redactor(options?)`, `redact`, `restore`, a streaming restorer,
// the vault kept by the app).
import { Memory, NerModel, Redactor } from "../../pkg/llm_memory.js";
import type {
  BuiltInEntityType, EntityType, EntityTypeInfo, Finding, RedactionResult, RedactorInit, RedactorOptions, VaultDocument,
} from "../../pkg/llm_memory.js";

export function redactorUsage(chunks: string[]): string {
  const every = new Redactor(); // options are optional: every built-in type
  const options: RedactorInit = {
    types: ["EMAIL", "PHONE", "TICKET"],
    allowList: ["help@acme.com"],
    patterns: [{ name: "TICKET", regex: "TCK-\\d{6}", score: 0.9 }, { name: "CARD", regex: "\\d{16}", validate: "luhn" }],
    mode: "placeholder",
    minScore: 0.6,
  };
  const r = new Redactor(options);
  const result: RedactionResult = r.redact("mail ann@example.com");
  const first: Finding | undefined = result.findings[0];
  const span: [number, number, string, number] | undefined = first && [first.start, first.end, first.placeholder, first.score];
  const type: EntityType | undefined = first?.type;
  const restored: string = r.restore(result.text);
  const stream = r.streamRestorer();
  let shown = chunks.map((c) => stream.push(c)).join("") + stream.finish();
  const doc: VaultDocument = r.vault();
  const saved: string = JSON.stringify(r.vault());
  every.importVault(saved);
  every.importVault(doc);
  // @ts-expect-error: JSON.stringify(r.vault()) is the one way to get the vault as text
  r.exportVault();
  shown += every.redact(restored).text + String(span) + String(type);
  // @ts-expect-error: not a mode
  new Redactor({ mode: "hash" });
  // @ts-expect-error: not a validator
  new Redactor({ patterns: [{ name: "X", regex: "x", validate: "crc" }] });
  // @ts-expect-error: text must be a string
  r.redact(42);
  // @ts-expect-error: a vault document has a version
  r.importVault({ entries: [] });
  // The built-in types, listed at run time and as a closed union.
  const info: EntityTypeInfo[] = Redactor.types;
  const builtIn: BuiltInEntityType[] = info.filter((t) => !t.national).map((t) => t.type);
  new Redactor({ types: builtIn });
  // @ts-expect-error: a misspelled built-in type
  const typo: BuiltInEntityType = "EMAL";
  // @ts-expect-error: with no custom pattern, only built-in names
  new Redactor({ types: ["EMAIL", "EMAL"] });
  // With custom patterns, `types` may name them.
  new Redactor({ types: ["EMAIL", "TICKET"], patterns: [{ name: "TICKET", regex: "x" }] });
  // Custom names given as the type argument: every name in `types` is checked.
  const named: RedactorOptions<"TICKET"> = { types: ["EMAIL", "TICKET"], patterns: [{ name: "TICKET", regex: "x" }] };
  // @ts-expect-error: not a built-in type nor a declared pattern
  const misspelled: RedactorOptions<"TICKET"> = { types: ["EMAL"] };
  // @ts-expect-error: custom names are upper case
  new Redactor({ patterns: [{ name: "ticket", regex: "x" }] });
  shown += String(typo) + String(named) + String(misspelled);
  return shown;
}

// The PII model: loaded once, given to redactors and memories; findings say what found them.
export async function nerModelUsage(bytes: Uint8Array, bar: { update(x: number): void }): Promise<string> {
  const model = await NerModel.fromUrl("/models/pii-ner.bin", {
    onProgress: ({ loaded, total }) => bar.update(total ? loaded / total : 0),
    cache: true,
  });
  const again: NerModel = await NerModel.fromBytes(bytes);
  const labels: string[] = model.labels;
  const about: string = `${model.attribution} (${model.license}), cached: ${model.fromCache}`;
  const r = new Redactor({ model, modelThreshold: 0.6, types: ["PERSON", "ADDRESS", "ID_NUMBER"] });
  const mem = new Memory({ redact: { model: again } });
  const source: "rule" | "model" | undefined = r.redact("i'm seeing maria gonzalez").findings[0]?.source;
  const logits: Float32Array = model.logits(model.tokenIds("maria gonzalez"));
  // @ts-expect-error: a model is a NerModel, not its URL
  new Redactor({ model: "/models/pii-ner.bin" });
  // @ts-expect-error: onProgress gets one object
  NerModel.fromUrl("/m.bin", { onProgress: (loaded: number, total: number) => loaded + total });
  mem.free();
  again.free();
  return labels.join() + about + String(source) + logits.length;
}
