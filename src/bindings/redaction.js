// The JS side of `Redactor.redact`, so a redaction crosses the boundary in one call each way.
//
// `encodeText` writes the input's UTF-8 straight into wasm memory with `TextEncoder.encodeInto`.
//
// `unpackRedaction` builds `{ text, findings }` from the packed form the wasm side writes (one
// string, one view of u32s) instead of a few calls and a string per finding. Scores come as
// hundredths.
//
// `all`: the placeholders (or, when `rebuild` is 0, the whole redacted text), then for each type
// a line feed and its name.
// `packed`: [length of that first part (UTF-16), number of types, rebuild,
//            then per finding: type index, start, end, placeholder start, placeholder end,
//            score × 100 plus 256 when the PII model found it].
// With `rebuild`, the redacted text is the input with each finding's span replaced by its
// placeholder, built here from slices of the input.
const encoder = new TextEncoder();

export function encodeText(text, memory, ptr, cap) {
  return encoder.encodeInto(text, new Uint8Array(memory.buffer, ptr, cap)).written;
}

export function unpackRedaction(input, all, packed) {
  const length = packed[0];
  const head = all.length === length ? all : all.slice(0, length);
  const types = packed[1] > 0 ? all.slice(length + 1).split("\n") : [];
  const rebuild = packed[2] === 1;
  const findings = [];
  let text = rebuild ? "" : head;
  let copied = 0;
  for (let i = 3; i < packed.length; i += 6) {
    const start = packed[i + 1];
    const end = packed[i + 2];
    const placeholder = head.slice(packed[i + 3], packed[i + 4]);
    if (rebuild) {
      text += input.slice(copied, start) + placeholder;
      copied = end;
    }
    const scored = packed[i + 5];
    findings.push({
      type: types[packed[i]], start, end, placeholder, score: (scored & 255) / 100,
      source: scored & 256 ? "model" : "rule",
    });
  }
  if (rebuild) text = copied === 0 ? input : text + input.slice(copied);
  return { text, findings };
}
