"""The small networks shipped in `vision/models/`, run on the CPU by OpenCV's DNN module.

All were trained by `scripts/train_vision.py` (see there for the data). The die finder is
fully convolutional: it takes any image whose sides are multiples of 16 and returns, on a
grid of 4x4-pixel cells, a centre heat map, the centre's offset inside its cell and the log
of the die's side. The face readers (two, of different shapes, listed in `config.json`)
take 44x44 crops and return 7 scores each: not-a-die, 1..6; their probabilities are
averaged, so a die one of them misreads with confidence comes out unsure.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

MODEL_DIR = Path(__file__).resolve().parent / "models"
DET_FILE = "dice_det.onnx"


def _config() -> dict:
    """Geometry the networks were trained with, written by the training script."""
    path = MODEL_DIR / "config.json"
    defaults = {
        "crop": 44,
        "crop_span": 1.3,
        "det_cell": 4,
        "det_size_ref": 32.0,
        "classifiers": ["dice_cls.onnx"],
    }
    if path.is_file():
        defaults.update(json.loads(path.read_text()))
    return defaults


_CFG = _config()
DET_CELL = int(_CFG["det_cell"])
DET_SIZE_REF = float(_CFG["det_size_ref"])
CROP = int(_CFG["crop"])
CROP_SPAN = float(_CFG["crop_span"])
CLS_FILES = tuple(str(name) for name in _CFG["classifiers"]) or ("dice_cls.onnx",)


@functools.lru_cache(maxsize=4)
def _net(name: str) -> cv2.dnn.Net:
    path = MODEL_DIR / name
    if not path.is_file():
        raise OSError(f"{path}: model file missing; run scripts/train_vision.py")
    # OpenCV's classic DNN engine runs these two small networks about 5-10% faster on one core
    # than the new engine that ENGINE_AUTO picks (same outputs to about 1e-6)
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is not None:
        try:
            return cv2.dnn.readNetFromONNX(str(path), engine)
        except cv2.error:
            pass
    return cv2.dnn.readNetFromONNX(str(path))


def _blob(images: list[np.ndarray]) -> np.ndarray:
    return cv2.dnn.blobFromImages(images, 1.0 / 255.0, None, (127.5, 127.5, 127.5), False, False)


def find_centres(image: np.ndarray, *, min_score: float = 0.3) -> np.ndarray:
    """Die centres in `image` (already at detector scale) as rows (x, y, side, score)."""
    h, w = image.shape[:2]
    ph, pw = (-h) % 16, (-w) % 16
    if ph or pw:
        image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    net = _net(DET_FILE)
    net.setInput(_blob([image]))
    out = net.forward()[0]
    heat = out[0]
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= peak) & (heat > min_score))
    cx = (xs + out[1, ys, xs]) * DET_CELL
    cy = (ys + out[2, ys, xs]) * DET_CELL
    side = np.exp(np.clip(out[3, ys, xs], -4, 4)) * DET_SIZE_REF
    keep = (cx < w) & (cy < h)
    return np.column_stack([cx, cy, side, heat[ys, xs]])[keep].astype(np.float32)


def crop_die(image: np.ndarray, center_xy: tuple[float, float], side: float) -> np.ndarray:
    """The face reader's view of one die: CROP x CROP pixels, CROP_SPAN die sides wide."""
    cx, cy = center_xy
    scale = CROP / (CROP_SPAN * max(side, 2.0))
    m = np.float32([[scale, 0, CROP / 2 - cx * scale], [0, scale, CROP / 2 - cy * scale]])
    return cv2.warpAffine(
        image,
        m,
        (CROP, CROP),
        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _scores(views: list[np.ndarray]) -> np.ndarray:
    """Averaged softmax of the face readers. One crop a forward pass: on one core OpenCV's
    DNN ran these small networks about 1.5 times slower per crop in batches of 2-8."""
    blob = _blob(views)
    total = np.zeros((len(views), 7), np.float64)
    for name in CLS_FILES:
        net = _net(name)
        for i in range(len(views)):
            net.setInput(blob[i : i + 1])
            logits = net.forward().reshape(1, 7)
            e = np.exp(logits - logits.max())
            total[i] += (e / e.sum())[0]
    return (total / len(CLS_FILES)).astype(np.float32)


def classify_crops(
    crops: list[np.ndarray],
    *,
    rotations: int = 4,
    sure: float = 0.8,
    wider: Callable[[int], np.ndarray] | None = None,
) -> np.ndarray:
    """Softmax scores (n, 7) for die crops: column 0 = not a die, column k = value k.

    A face reads the same turned by a quarter, so a crop whose first reading is below
    `sure` (and that is not plainly "not a die") is read again turned by 90, 180 and 270
    degrees (up to `rotations` views) and the scores averaged: a cheap vote that steadies
    small, blurred or odd dice, paid only for the dice that need it.

    With `wider` (crop index -> the same die cut with a wider margin), the vote also reads
    the wider crop turned by 90 and 270 degrees for the value (not for "is it a die"): they
    see past a die whose size the finder underestimated (its edge pips at the border of the
    first crop) or whose centre is off.
    """
    if not crops:
        return np.zeros((0, 7), np.float32)
    probs = _scores(crops)
    unsure = (probs.max(axis=1) < sure) & (probs[:, 0] < 0.8)
    redo = np.nonzero(unsure)[0] if rotations > 1 else []
    if len(redo):
        plan = [(None, k) for k in range(1, rotations)]
        if wider is not None:
            wide = [wider(int(i)) for i in redo]
            plan += [(wide, 1), (wide, 3)]
        views = [
            np.ascontiguousarray(np.rot90(crops[i] if src is None else src[j], k))
            for src, k in plan
            for j, i in enumerate(redo)
        ]
        more = _scores(views).reshape(len(plan), len(redo), 7)
        tight = 1 + sum(src is None for src, _ in plan)
        # "is it a die at all" is judged on the crops at the trained margin only (a wider
        # crop of a pip-sized find shows the face around it and looks like a die); the
        # value is read from all views
        not_die = (probs[redo, 0] + more[: tight - 1, :, 0].sum(axis=0)) / tight
        faces = probs[redo, 1:] + more[:, :, 1:].sum(axis=0)
        faces /= np.maximum(faces.sum(axis=1, keepdims=True), 1e-12)
        probs[redo] = np.column_stack([not_die, faces * (1.0 - not_die)[:, None]])
    return probs


def warm_up() -> None:
    """Load the networks and run each once, so a photo's timing is the reading alone."""
    find_centres(np.zeros((64, 64, 3), np.uint8))
    classify_crops([np.zeros((CROP, CROP, 3), np.uint8)], rotations=1)


def models_present() -> bool:
    """True when every model file ships with the package."""
    return all((MODEL_DIR / n).is_file() for n in (DET_FILE, *CLS_FILES))


def det_scale(size_wh: tuple[int, int], *, long_side: int) -> float:
    """Scale factor to the detector's working size (never upscaling by more than 2)."""
    return min(2.0, long_side / max(size_wh))
