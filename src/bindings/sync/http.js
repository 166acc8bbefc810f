// The network side of sync: one request to the sync server, its answer as { status, text,
// retryAfter } (status 0 when the server cannot be reached). Never throws: what an answer means
// is decided by the core (crates/sync/src/protocol.rs).

const TIMEOUT_MS = 20000;

function requestId() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

export async function syncRequest(method, url, token, body) {
  const headers = { authorization: `Bearer ${token}` };
  if (method !== "GET") headers["x-request-id"] = requestId();
  if (body != null) headers["content-type"] = "application/json";
  try {
    const res = await fetch(url, {
      method, headers, body: body ?? undefined, cache: "no-store", credentials: "omit",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    const after = Number.parseFloat(res.headers.get("retry-after") ?? "");
    return { status: res.status, text, retryAfter: Number.isFinite(after) ? after : undefined };
  } catch (e) {
    return { status: 0, text: String(e?.message ?? e), retryAfter: undefined };
  }
}

/// Calls `f` after `ms` milliseconds; returns the handle for `cancelTimer`.
export function startTimer(f, ms) {
  return setTimeout(f, ms);
}

export function cancelTimer(handle) {
  clearTimeout(handle);
}
