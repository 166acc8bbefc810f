// The download side of `NerModel.fromUrl`: fetch with progress, read as a stream so a 15 MB
// file reports as it arrives. Failures become coded errors (MODEL_UNAVAILABLE) like the rest of
// the package's.

import { LlmMemoryError } from "./errors.js";

function unavailable(message) {
  return new LlmMemoryError("MODEL_UNAVAILABLE", message);
}

export async function fetchModel(url, onProgress) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw unavailable(`could not download the model from ${url}: ${e?.message ?? e}`);
  }
  if (!response.ok) {
    throw unavailable(`could not download the model from ${url}: HTTP ${response.status}`);
  }
  // A compressed response's Content-Length is not the size of what the stream yields.
  const length = Number(response.headers.get("content-length"));
  const total = length > 0 && !response.headers.get("content-encoding") ? length : undefined;
  const report = typeof onProgress === "function" ? onProgress : null;
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    report?.({ loaded: bytes.length, total: bytes.length });
    return bytes;
  }
  const reader = response.body.getReader();
  let bytes = new Uint8Array(total ?? 1 << 20);
  let loaded = 0;
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {
      throw unavailable(`the model download from ${url} broke off after ${loaded} bytes: ${e?.message ?? e}`);
    }
    if (chunk.done) break;
    const value = chunk.value;
    if (loaded + value.length > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, loaded + value.length));
      grown.set(bytes.subarray(0, loaded));
      bytes = grown;
    }
    bytes.set(value, loaded);
    loaded += value.length;
    report?.({ loaded, total });
  }
  return bytes.subarray(0, loaded);
}
