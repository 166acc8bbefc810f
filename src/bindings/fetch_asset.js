// The one download helper of the package, behind every `X.fromUrl` (Tokenizer, NerModel,
// EmbedModel): fetch with an optional AbortSignal, read as a stream so a 15 MB file reports
// `onProgress({ loaded, total })` as it arrives. Failures become coded errors
// (MODEL_UNAVAILABLE; ABORTED when the caller's signal stopped it).

import { LlmMemoryError } from "./errors.js";

export async function fetchAsset(url, onProgress, signal) {
  const stopped = () => signal?.aborted;
  const failed = (what, e) =>
    stopped()
      ? new LlmMemoryError("ABORTED", `the download of ${url} was aborted`)
      : new LlmMemoryError("MODEL_UNAVAILABLE", `${what} ${url}: ${e?.message ?? e}`);
  let response;
  try {
    response = await fetch(url, signal ? { signal } : undefined);
  } catch (e) {
    const err = failed("could not download", e);
    // A path ("./models/x.bin") or a file: URL is what Node users try first; fetch says
    // "Failed to parse URL" or "not implemented", which does not say what to do instead.
    if (err.code === "MODEL_UNAVAILABLE" && !/^(https?|blob|data):/i.test(String(url))) {
      err.message += " (fromUrl downloads a URL; for a file on disk, read it and pass its bytes to fromBytes)";
    }
    throw err;
  }
  if (!response.ok) {
    throw new LlmMemoryError("MODEL_UNAVAILABLE", `could not download ${url}: HTTP ${response.status}`);
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
      throw failed(`the download broke off after ${loaded} bytes of`, e);
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
