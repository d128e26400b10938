"""Drawing detections on a copy of the image, so a person can check a reading at a glance."""

from __future__ import annotations

import cv2
import numpy as np

from .detections import ASK_BELOW, Detections

SURE = (60, 200, 60)  # BGR green: confident
UNSURE = (0, 140, 255)  # orange: ask the player


def annotate(
    image: np.ndarray,
    detections: Detections,
    *,
    min_confident: float = ASK_BELOW,
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
    colours = [SURE if d.confidence >= min_confident else UNSURE for d in detections]
    labels = [f"{d.value} {d.confidence:.2f}" if confidence else str(d.value) for d in detections]
    sizes = [cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, t) for text in labels]
    rects = label_spots(
        [d.box_xywh for d in detections],
        [(tw + 2, th + base + 1) for (tw, th), base in sizes],
        (w, h),
    )
    for d, colour in zip(detections, colours, strict=True):  # every box first: labels on top
        x, y, bw, bh = d.box_xywh
        cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, t)
    for text, ((_, th), _), (lx, ly, lw, lh), colour in zip(
        labels, sizes, rects, colours, strict=True
    ):
        cv2.rectangle(out, (lx, ly), (lx + lw - 1, ly + lh - 1), colour, -1)
        cv2.putText(
            out,
            text,
            (lx + 1, ly + th + 1),
            cv2.FONT_HERSHEY_SIMPLEX,
            font,
            (0, 0, 0),
            t,
            cv2.LINE_AA,
        )
    return out


Rect = tuple[int, int, int, int]


def label_spots(
    boxes: list[Rect], sizes: list[tuple[int, int]], image_wh: tuple[int, int]
) -> list[Rect]:
    """Where each die's label goes (x, y, w, h): above its box, below it, or inside its top
    edge, whichever inside the image covers no label placed before and, failing that, no
    other die; touching dice (one above the other) keep their labels apart and on their own."""
    w, h = image_wh
    placed: list[Rect] = []
    for i, ((x, y, _, bh), (lw, lh)) in enumerate(zip(boxes, sizes, strict=True)):
        lx = max(0, min(x, w - lw))
        tops = [y - lh - 1, y + bh + 1, y + 1]
        fits = [top for top in tops if 0 <= top and top + lh <= h] or [max(0, min(y, h - lh))]
        spots = [(lx, top, lw, lh) for top in fits]
        others = boxes[:i] + boxes[i + 1 :]
        costs = [
            (any(_overlap(r, q) for q in placed), any(_overlap(r, q) for q in others))
            for r in spots
        ]
        placed.append(spots[costs.index(min(costs))])  # (the first of the best)
    return placed


def _overlap(a: Rect, b: Rect) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah
