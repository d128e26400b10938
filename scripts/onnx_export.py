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
    reads a crop several times faster so on one core (docs/vision.md: Speed); OpenCV's DNN runs
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


def load_reader(net: nn.Module, path: Path) -> nn.Module:
    """Load a face reader's float ONNX file back into `net`, a fresh network of the same
    shape, to train it on (`train_vision.py --more`). The export folded each batch norm
    into the convolution before it, so here each batch norm passes its input through
    (scale 1, shift the folded bias, mean 0, variance 1 - eps); they must stay frozen (eval
    mode) while it trains, as `fit(..., frozen_norms=True)` keeps them. Checked: the
    loaded network reads 8 crops of noise as the file does, or this raises."""
    import onnx
    import onnxruntime
    from onnx import numpy_helper

    try:
        model = onnx.load(str(path))
        weights = {w.name: numpy_helper.to_array(w) for w in model.graph.initializer}
        nodes = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
        shapes = [(weights[n.input[1]].shape, weights[n.input[2]].shape) for n in nodes]
    except Exception as e:  # not ONNX at all, or weights held otherwise than exported here
        raise ValueError(f"{path}: not a face reader written by export ({e})") from e
    layers = [m for m in net.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    want = [(tuple(m.weight.shape), (m.weight.shape[0],)) for m in layers]
    if [(tuple(w), tuple(b)) for w, b in shapes] != want or len(norms) != len(layers) - 1:
        raise ValueError(f"{path}: not a face reader of this shape")
    with torch.no_grad():
        for node, layer in zip(nodes, layers, strict=True):
            layer.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            bias = torch.from_numpy(weights[node.input[2]].copy())
            if isinstance(layer, nn.Linear):
                layer.bias.copy_(bias)
                continue
            norm = norms.pop(0)
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    net.eval()
    crops = np.random.default_rng(0).random((8, 3, 44, 44)).astype(np.float32) - 0.5
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    want = session.run(None, {"input": crops})[0]
    with torch.no_grad():
        got = net(torch.from_numpy(crops)).numpy()
    if not np.allclose(got, want, atol=1e-4):
        raise ValueError(f"{path}: loaded, it reads otherwise than the file")
    return net
