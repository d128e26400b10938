"""`read(image) -> Detections`: the whole pipeline, image in, dice out."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .detections import Detections, DieDetection
from .faces import SIDE_PER_SPAN, group_pips, layout_error
from .pips import CONTRAST, R, SCORE, X, Y, find_pips


def working_scale(size_wh: tuple[int, int], *, min_long: int = 960, max_long: int = 1280) -> float:
    """Scale that brings the long side into [min_long, max_long]."""
    long_side = max(size_wh)
    if long_side < min_long:
        return min_long / long_side
    if long_side > max_long:
        return max_long / long_side
    return 1.0


def read(image: np.ndarray, *, strong_score: float = 2.4, strong_contrast: float = 18.0) -> Detections:
    """Every die in a BGR image with its top-face value and a confidence.

    >>> read(np.full((480, 640, 3), 200, np.uint8)).dice
    ()
    """
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise ValueError("image must be a non-empty HxW or HxWx3 uint8 array")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h0, w0 = image.shape[:2]
    s = working_scale((w0, h0))
    work = image if s == 1.0 else cv2.resize(image, None, fx=s, fy=s,
                                             interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    f = work.astype(np.float32)
    cand = find_pips(work)
    strong = cand[(cand[:, SCORE] > strong_score) & (cand[:, CONTRAST] > strong_contrast)]
    groups = group_pips(f, strong)
    dice = []
    spans = []
    for g in groups:
        pts = strong[g][:, :2]
        if 2 <= len(g) <= 6:
            spans.append(max(np.hypot(*(p - q)) for p in pts for q in pts))
    for g in groups:
        p = strong[g]
        n = len(g)
        if n > 6:
            continue
        pts = p[:, :2]
        cx, cy = pts.mean(axis=0)
        if n >= 2:
            span = max(float(np.hypot(*(a - b))) for a in pts for b in pts)
            side = SIDE_PER_SPAN * span
        else:
            side = float(np.median(spans)) * SIDE_PER_SPAN if spans else 7.0 * p[0, R]
        err = layout_error(pts)
        conf = float(np.clip(1.0 - 2.0 * err, 0.05, 1.0))
        if n == 1:
            conf = 0.6
        x0, y0 = (cx - side / 2) / s, (cy - side / 2) / s
        dice.append(DieDetection(n, conf, (round(x0), round(y0), max(1, round(side / s)), max(1, round(side / s))),
                                 (float(cx / s), float(cy / s))))
    dice.sort(key=lambda d: (d.center_xy[1] // 1, d.center_xy[0]))
    return Detections(tuple(dice), (w0, h0))
