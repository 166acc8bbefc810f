// The two slow loads, in the worker, with their status lines: the model's tokenizer.json (from
// the server, a URL or a file) and the PII model. Each resolves once the memory uses what was
// loaded, or has fallen back (approximate counts, the rules alone); the page's sends wait for
// them (outbox.js).
import { TOKENIZERS } from "./settings.js";

const $ = (sel) => document.querySelector(sel);
const mb = (n) => (n / 1048576).toFixed(1);
// The PII model's URL names its checksum (the start of weights/pii-ner.sha256): the page keeps a
// loaded model in IndexedDB under its URL and never asks again, so a new model needs a new URL.
const NER_MODEL_URL = "/models/pii-ner.bin?v=93e4a474";

export function tokenizerStatus(stateName, text, progress) {
  const box = $("#tokenizer-status");
  box.dataset.state = stateName;
  box.querySelector(".label").textContent = text;
  const bar = box.querySelector("progress");
  bar.hidden = progress == null;
  if (progress != null) bar.value = progress;
}

function nerStatus(stateName, text) {
  const box = $(".ner-status");
  box.dataset.state = stateName;
  box.textContent = text;
}

/** Shows the worker's progress events; returns false for other events. */
export function showProgress(ev) {
  if (ev.event === "tokenizer") {
    if (ev.state === "loading") {
      tokenizerStatus("loading", `Loading tokenizer… ${mb(ev.loaded)}${ev.total ? ` / ${mb(ev.total)}` : ""} MB (sends wait for it)`, ev.total ? ev.loaded / ev.total : 0);
    } else if (ev.state === "parsing") {
      tokenizerStatus("loading", "Reading tokenizer.json in a worker…", 1);
    }
    return true;
  }
  if (ev.event === "nerModel") {
    nerStatus("loading", `Loading the PII model… ${mb(ev.loaded)}${ev.total ? ` / ${mb(ev.total)}` : ""} MB (sends wait for it)`);
    return true;
  }
  return false;
}

/** Loads the tokenizer the settings name (or the approximate counter). */
export async function loadTokenizer(settings, call) {
  const choice = TOKENIZERS[settings.tokenizer];
  if (settings.tokenizer === "file") return; // waits for the file input
  if (settings.tokenizer === "approximate" || (settings.tokenizer === "url" && !settings.tokenizerUrl)) {
    await call("loadTokenizer", null);
    return tokenizerStatus("approximate", "Approximate token counts (4 characters per token): no tokenizer.json chosen.");
  }
  const url = settings.tokenizer === "url" ? settings.tokenizerUrl : choice.url;
  try {
    const { kind } = await call("loadTokenizer", { url });
    tokenizerStatus("ready", `Tokenizer: ${settings.tokenizer === "url" ? url.split("/").pop() : choice.label.split(" (")[0]} (${kind}), exact counts`);
  } catch (e) {
    if (e.message === "superseded") return;
    await call("loadTokenizer", null).catch(() => {});
    tokenizerStatus("fallback", `Could not load the tokenizer (${e.code ?? e.name}: ${e.message}); counting approximately (4 characters per token).`);
  }
}

/** Loads a tokenizer.json the user picked, handing its bytes to the worker without a copy. */
export async function loadTokenizerFile(file, memory) {
  try {
    tokenizerStatus("loading", `Reading ${file.name}…`, 0);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { kind } = await memory.callTransfer("loadTokenizer", { bytes }, [bytes.buffer]);
    tokenizerStatus("ready", `Tokenizer: ${file.name} (${kind}), exact counts`);
  } catch (e) {
    await memory.call("loadTokenizer", null).catch(() => {});
    tokenizerStatus("fallback", `${file.name} is not a usable tokenizer.json (${e.message}); counting approximately.`);
  }
}

/** Loads the PII model once (the worker then redacts with it); resolves whether it loaded. */
export async function loadNerModel(call) {
  try {
    const info = await call("loadNerModel", NER_MODEL_URL);
    nerStatus("ready", `PII model ready${info.fromCache ? " (cached)" : ""}: names and addresses found on this device. Fine-tuned from Rampart by National Design Studio, ${info.license}.`);
    $(".ner-status").title = info.attribution;
    return true;
  } catch (e) {
    nerStatus("fallback", `PII model unavailable (${e.code ?? e.name}: ${e.message}); the rules alone redact. Run \`make model\` on the server.`);
    return false;
  }
}
