// Semantic recall, the page's half: the "semantic recall" toggle of the settings (shown with
// strategy "retrieval", see settings-form.js), on by default when the server has the sentence
// embedder (models/embed.bin, from `make embed-model`). The Worker loads it (semantic-worker.js)
// and reports download progress and the backlog of messages still to embed, shown here under
// the toggle. Sends do not wait for it: until it is ready, memories are found by their words.

export const EMBED_MODEL_URL = "/models/embed.bin";

const mb = (n) => (n / 1048576).toFixed(1);

/**
 * `root` is the toggle's fieldset, `call` talks to the memory worker, `settings()` gives the
 * current settings, `reopen()` opens the chat again (so a Memory made with the embedder is
 * made without it).
 */
export function createSemantic({ root, call, settings, reopen }) {
  const toggle = root.querySelector("input[name=semantic]");
  const status = root.querySelector(".semantic-status");
  const bar = root.querySelector("progress");
  let served = null; // whether the server has the model file (asked once)
  let on = false;    // the Worker's memory has the embedder
  let modelNote = "";

  const show = (state, text, progress) => {
    status.dataset.state = state;
    status.textContent = text;
    bar.hidden = progress == null;
    if (progress != null) bar.value = progress;
  };

  async function isServed() {
    served ??= await fetch(EMBED_MODEL_URL, { method: "HEAD" }).then((r) => r.ok, () => false);
    return served;
  }

  return {
    /** Loads the model and hands it to the memory, or takes it away, as the settings say
     * (with strategy "retrieval"; other strategies do not search). */
    async apply() {
      const s = settings();
      if (s.strategy !== "retrieval") return;
      if (!(await isServed())) {
        toggle.disabled = true;
        return show("fallback", "No sentence embedder on this server (run `make embed-model`): memories are found by their words only.");
      }
      if (s.semantic && !on) {
        show("loading", "Loading the sentence embedder…", 0);
        try {
          const info = await call("setSemantic", true, EMBED_MODEL_URL);
          on = info.on;
          modelNote = `all-MiniLM-L6-v2 on this device (${info.license})`;
          root.title = info.attribution;
          show("ready", `Semantic recall on${info.fromCache ? " (cached)" : ""}: ${modelNote}. ${info.pending ? `${info.pending} messages to embed…` : "Every message is embedded."}`);
          // Turned off while the model loaded: take it away again.
          if (!settings().semantic) await this.apply();
        } catch (e) {
          show("fallback", `Sentence embedder unavailable (${e.code ?? e.name}: ${e.message}): memories are found by their words only.`);
        }
      } else if (!s.semantic && on) {
        await call("setSemantic", false);
        on = false;
        await reopen();
        show("off", "Semantic recall off: memories are found by their words only.");
      } else if (!s.semantic) {
        show("off", "Semantic recall off: memories are found by their words only.");
      }
    },
    /** Handles the Worker's `embedModel` and `embedding` events; true when it was one. */
    onEvent(ev) {
      if (ev.event === "embedModel") {
        show("loading", `Loading the sentence embedder… ${mb(ev.loaded)}${ev.total ? ` / ${mb(ev.total)}` : ""} MB (words alone until then)`, ev.total ? ev.loaded / ev.total : 0);
        return true;
      }
      if (ev.event === "embedding") {
        if (ev.error) show("fallback", `Embedding stopped: ${ev.error}`);
        else if (on) show("ready", `Semantic recall on: ${modelNote}. ${ev.pending ? `${ev.pending} messages to embed…` : "Every message is embedded."}`);
        status.dataset.pending = String(ev.pending ?? "");
        return true;
      }
      return false;
    },
  };
}
