"""Drawing detections on a copy of the image, so a person can check a reading at a glance."""

from __future__ import annotations

import cv2
import numpy as np

from .detections import Detections

SURE = (60, 200, 60)  # BGR green: confident
UNSURE = (0, 140, 255)  # orange: ask the player


def annotate(
    image: np.ndarray,
    detections: Detections,
    *,
    min_confident: float = 0.5,
    thickness: int | None = None,
    confidence: bool = True,
) -> np.ndarray:
    """A copy of `image` with each die outlined and labelled "value confidence" (the value
    alone without `confidence`: a phone's small preview, where the colour tells enough).

    Dice below `min_confident` are drawn in orange, the others in green.
    """
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = out.shape[:2]
    t = thickness or max(1, round(max(h, w) / 600))
    font = 0.4 * t
    for d in detections:
        x, y, bw, bh = d.box_xywh
        colour = SURE if d.confidence >= min_confident else UNSURE
        cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, t)
        label = f"{d.value} {d.confidence:.2f}" if confidence else str(d.value)
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font, t)
        ty = y - 2 if y - th - 4 >= 0 else min(h - 1, y + bh + th + 2)
        cv2.rectangle(out, (x, ty - th - 2), (x + tw + 2, ty + base - 1), colour, -1)
        cv2.putText(
            out, label, (x + 1, ty - 1), cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0), t, cv2.LINE_AA
        )
    return out
