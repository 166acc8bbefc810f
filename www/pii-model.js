// The PII model of the privacy settings, the page's half: loads models/pii-ner.bin in the
// memory worker once (the worker then redacts with it) and shows its download progress and
// state under the toggle.

const NER_MODEL_URL = "/models/pii-ner.bin";
const mb = (n) => (n / 1048576).toFixed(1);

/** `box` is the status line, `call` talks to the memory worker, `caps()` its capabilities. */
export function createPiiModel({ box, call, caps }) {
  let loaded = null; // "loading" | "ready" | null

  const show = (state, text) => {
    box.dataset.state = state;
    box.textContent = text;
  };

  return {
    /** Loads the model in the worker once. */
    async load() {
      if (!caps().nerModel || loaded) return;
      loaded = "loading";
      try {
        const info = await call("loadNerModel", NER_MODEL_URL);
        loaded = "ready";
        show("ready", `PII model ready${info.fromCache ? " (cached)" : ""}: names and addresses found on this device. Rampart by National Design Studio, ${info.license}.`);
        box.title = info.attribution;
      } catch (e) {
        loaded = null;
        show("fallback", `PII model unavailable (${e.code ?? e.name}: ${e.message}); the rules alone redact. Run \`make model\` on the server.`);
      }
    },
    /** Handles the worker's `nerModel` progress events; true when it was one. */
    onEvent(ev) {
      if (ev.event !== "nerModel") return false;
      show("loading", `Loading the PII model… ${mb(ev.loaded)}${ev.total ? ` / ${mb(ev.total)}` : ""} MB (the rules redact until then)`);
      return true;
    },
  };
}
