"""The model container both converters write (`convert-ner-model.py`, `convert-embed-model.py`)
and `crates/encoder/src/format.rs` reads, plus the BERT checks and header fields the two share.

Layout (all little-endian):
  8 bytes  magic b"LMNERMDL"
  u32      format version (1)
  u32      header length in bytes
  u64      FNV-1a 64 of the header bytes
  header   UTF-8 JSON: architecture, sizes, labels, normalizer, special tokens, vocab, licence,
           tensor directory (name, dtype, shape, offset, bytes) and an FNV-1a 64 of the data
  padding  zeros up to a multiple of 16
  data     the tensors, each starting at a multiple of 16 from the start of the data
"""

import json
import os
import struct

import numpy as np

MAGIC = b"LMNERMDL"
FORMAT_VERSION = 1
ALIGN = 16
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1


def fnv1a64_words(data: bytes) -> int:
    """FNV-1a over the data read as little-endian u64 words (the data length is a multiple of 16),
    the same loop `format.rs` runs: one multiply per 8 bytes keeps the check cheap at load."""
    h = FNV_OFFSET
    for w in np.frombuffer(data, dtype="<u8").tolist():
        h = ((h ^ w) * FNV_PRIME) & MASK64
    return h


def fnv1a64_bytes(data: bytes) -> int:
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK64
    return h


def check_bert_graph(config, graph, fail):
    """The encoder in `crates/encoder/src/encoder.rs` runs exact-GELU BERT with absolute positions and the
    config's LayerNorm epsilon; refuse any graph that computes something else."""
    if config.get("hidden_act") != "gelu" or config.get("position_embedding_type") != "absolute":
        fail("only BERT with exact GELU and absolute positions is supported")
    if sum(n.op_type == "Erf" for n in graph.node) != config["num_hidden_layers"]:
        fail("expected the exact (erf) GELU in every layer")
    for node in graph.node:
        if node.op_type == "LayerNormalization":
            eps = [a.f for a in node.attribute if a.name == "epsilon"]
            if not eps or abs(eps[0] - config["layer_norm_eps"]) > 1e-15:
                fail(f"{node.name}: epsilon {eps} differs from config.json")


def encoder_linear_modules(layers_n):
    """The linear layers of a `layers_n`-layer BERT encoder, in the order they are written."""
    modules = []
    for layer in range(layers_n):
        p = f"bert.encoder.layer.{layer}"
        modules += [
            f"{p}.attention.self.query",
            f"{p}.attention.self.key",
            f"{p}.attention.self.value",
            f"{p}.attention.output.dense",
            f"{p}.intermediate.dense",
            f"{p}.output.dense",
        ]
    return modules


def config_fields(config):
    return {
        "hidden_size": config["hidden_size"],
        "num_attention_heads": config["num_attention_heads"],
        "num_hidden_layers": config["num_hidden_layers"],
        "intermediate_size": config["intermediate_size"],
        "max_position_embeddings": config["max_position_embeddings"],
        "type_vocab_size": config["type_vocab_size"],
        "vocab_size": config["vocab_size"],
        "layer_norm_eps": config["layer_norm_eps"],
    }


def tokenizer_fields(tokenizer, config, fail):
    """Normalizer, WordPiece settings, special token ids and the dense vocab of a BERT
    tokenizer.json, as `crates/encoder/src/wordpiece.rs` reads them."""
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
    return {
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
    }


def write_container(out, header, tensors):
    """Lays out `tensors` [(name, dtype, array)] 16-byte aligned, completes `header` with their
    directory and hash, and writes the file atomically (temp file + rename)."""
    data = bytearray()
    directory = []
    for name, dtype, array in tensors:
        raw = np.ascontiguousarray(array).tobytes()
        directory.append(
            {"name": name, "dtype": dtype, "shape": list(array.shape), "offset": len(data), "bytes": len(raw)}
        )
        data += raw
        data += b"\0" * (-len(data) % ALIGN)
    header = {**header, "tensors": directory, "data_bytes": len(data)}
    header["data_fnv1a64"] = f"{fnv1a64_words(bytes(data)):016x}"
    header_bytes = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    prefix = MAGIC + struct.pack("<IIQ", FORMAT_VERSION, len(header_bytes), fnv1a64_bytes(header_bytes))
    prefix += header_bytes
    prefix += b"\0" * (-len(prefix) % ALIGN)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(prefix)
        f.write(data)
    os.replace(tmp, out)
    print(f"wrote {out}: {len(prefix) + len(data)} bytes, {len(directory)} tensors")
