"""Write `train_vision.py`'s trained networks as the ONNX files `vision/` runs: the float
file (OpenCV's DNN and ONNX Runtime) and, for a face reader, its int8 copy (ONNX Runtime
only). Needs torch, onnx and onnxruntime (`pip install -e '.[train]'`)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

from vision.model import int8_file


def export(net: nn.Module, path: Path, shape: tuple[int, ...], dynamic: bool) -> None:
    """Write `net` to `path`, traced on an input of `shape`: with `dynamic`, any image
    size (the finder); else any batch of that crop size (a face reader)."""
    x = torch.zeros(shape)
    axes = {"input": {2: "h", 3: "w"}} if dynamic else {"input": {0: "n"}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            net,
            x,
            str(path),
            input_names=["input"],
            output_names=["output"],
            dynamic_axes=axes,
            opset_version=13,
            dynamo=False,
        )
    print("wrote", path, path.stat().st_size // 1024, "KB")


def quantize_reader(path: Path, blob: np.ndarray, *, float_first: bool = False) -> Path:
    """Write the int8 copy of a face reader's ONNX file beside it (`*.int8.onnx`: ONNX
    Runtime's static quantization, int8 weights per channel, uint8 activations whose ranges
    are read off the crops in `blob`: `train_vision.calibration_crops`). ONNX Runtime
    reads a crop several times faster so on one core (README: Speed); OpenCV's DNN runs
    int8 networks slower, so it keeps the float file. The finder stays float: quantized,
    it gained 8-22% and its first layer lost the most. With `float_first` the reader's
    first convolution (the one that reads the pixels) stays float too
    (`train_vision.FLOAT_FIRST`)."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(range(len(blob)))

        def get_next(self) -> dict | None:
            i = next(self.left, None)
            return None if i is None else {"input": blob[i : i + 1]}

    staged = path.with_suffix(".staged.onnx")
    out = path.with_name(int8_file(path.name))
    convs = [node.name for node in onnx.load(str(path)).graph.node if node.op_type == "Conv"]
    try:
        quant_pre_process(str(path), str(staged), skip_symbolic_shape=True)
        quantize_static(
            str(staged),
            str(out),
            Crops(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            nodes_to_exclude=convs[:1] if float_first else [],
        )
    finally:
        staged.unlink(missing_ok=True)
    # the quantizer declares operator sets that no node uses (ai.onnx.ml), which ONNX
    # Runtime before 1.18 refuses to load
    int8 = onnx.load(str(out))
    if float_first:  # the float layer is fed the input itself, not a dequantized copy
        conv = next(node for node in int8.graph.node if node.name == convs[0])
        if conv.input[0] != int8.graph.input[0].name:
            raise RuntimeError(f"{out}: {convs[0]} was quantized")
    used = {node.domain for node in int8.graph.node} | {"", "ai.onnx"}
    kept = [o for o in int8.opset_import if o.domain in used]
    del int8.opset_import[:]
    int8.opset_import.extend(kept)
    onnx.save(int8, str(out))
    print("wrote", out, out.stat().st_size // 1024, "KB")
    return out
