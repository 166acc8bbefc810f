// Downloads a file as bytes with progress, for EmbedModel.fromUrl: the response body is read
// chunk by chunk so `onProgress(loaded, total)` can drive a progress bar (`total` is 0 when the
// server sends no Content-Length).
export async function fetchBytes(url, onProgress) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered HTTP ${response.status}`);
  const total = Number(response.headers.get("content-length")) || 0;
  const report = typeof onProgress === "function" ? onProgress : () => {};
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    report(bytes.length, bytes.length);
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    report(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}
