// Sends made while something they depend on is loading (the chat opening, the tokenizer, the
// PII model) wait here, shown as pending, and go out in order once those loads have settled;
// a load that fails settles too (the page falls back and says so). A send is never refused
// for being early, and never goes out before the PII model that should redact it.

/**
 * `send(text)` adds a turn and runs the model; `onChange()` is called whenever what is
 * pending or loading changes; `onError(error)` gets a send that failed (the next ones go on).
 */
export function createOutbox({ send, onChange, onError }) {
  const loads = new Map(); // what is loading (as the user reads it) -> its promise
  const queue = [];
  let draining = false;

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (queue.length) {
        while (loads.size) await Promise.allSettled([...loads.values()]);
        const text = queue.shift();
        onChange();
        await send(text).catch(onError);
      }
    } finally {
      draining = false;
      onChange();
    }
  }

  return {
    /** Sends wait for `promise` (named `what`, e.g. "the tokenizer") to settle. */
    track(what, promise) {
      loads.set(what, promise);
      onChange();
      promise.catch(() => {}).finally(() => {
        if (loads.get(what) === promise) loads.delete(what);
        onChange();
      });
      return promise;
    },
    push(text) {
      queue.push(text);
      onChange();
      drain();
    },
    /** Takes back the sends not made yet (the chat they were typed in is being left). */
    takeBack() {
      const texts = queue.splice(0);
      onChange();
      return texts;
    },
    get pending() {
      return [...queue];
    },
    get loading() {
      return [...loads.keys()];
    },
    get active() {
      return draining || queue.length > 0;
    },
  };
}
