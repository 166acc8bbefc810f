// Builds `Redactor.redact`'s result from the packed form the wasm side writes, so a redaction
// crosses the boundary in one call (one string, one view of u32s) instead of a few calls and a
// string per finding. Placeholders are slices of the redacted text; scores come as hundredths.
//
// `all`: the redacted text, then for each type a line feed and its name.
// `packed`: [text length (UTF-16), number of types,
//            then per finding: type index, start, end, placeholder start, placeholder end, score × 100].
export function unpackRedaction(all, packed) {
  const length = packed[0];
  const text = all.length === length ? all : all.slice(0, length);
  const types = packed[1] > 0 ? all.slice(length + 1).split("\n") : [];
  const findings = [];
  for (let i = 2; i < packed.length; i += 6) {
    findings.push({
      type: types[packed[i]],
      start: packed[i + 1],
      end: packed[i + 2],
      placeholder: text.slice(packed[i + 3], packed[i + 4]),
      score: packed[i + 5] / 100,
    });
  }
  return { text, findings };
}
