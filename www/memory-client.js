// The page's handle on the memory worker: `await memory.call("add", "user", "hi")`.
// Errors come back as `Error`s with the original `name` and `code`.
export function startMemoryWorker(onEvent) {
  const worker = new Worker(new URL("./memory-worker.js", import.meta.url), { type: "module" });
  const pending = new Map();
  let next = 1;
  worker.onmessage = ({ data }) => {
    if (data.event) return onEvent?.(data);
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.ok) p.resolve(data.value);
    else p.reject(Object.assign(new Error(data.error.message), { name: data.error.name, code: data.error.code }));
  };
  worker.onerror = (e) => {
    const err = new Error(`the memory worker failed: ${e.message ?? "unknown error"}`);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    onEvent?.({ event: "crash", message: err.message });
  };
  return {
    call(op, ...args) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, op, args });
      });
    },
    /** Hands bytes to the worker without copying them. */
    callTransfer(op, arg, transfer) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, op, args: [arg] }, transfer);
      });
    },
  };
}
