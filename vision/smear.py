"""A die smeared by a shaking hand or a lens out of focus: its reading is not to be trusted.

The face readers learnt from sharp and lightly blurred dice. A die smeared over more than
a pip's width still gets a reading, and often a sure one, of whatever its smudges suggest:
a phone moved while the shutter was open turned a 4 into a sure 6, a 2 into a sure 1.
The player can see the photo is blurred, so such a die is reported as read but unsure,
and the player is asked to confirm it rather than trust it.

The measure is how steep the die's edges are along each of `DIRECTIONS`: the box scaled to
`VIEW` pixels, its edges measured against its own contrast, so it is the same for a die of
any size, colour or light. A lens out of focus softens the edges every way; a moving
camera softens them along its motion only, so the edges across it stay steeper.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .detections import Detections

VIEW = 48  # (the box is judged at this side, in pixels)
DIRECTIONS = np.deg2rad(np.arange(0, 180, 15))
_COS = np.cos(DIRECTIONS).astype(np.float32)[:, None]
_SIN = np.sin(DIRECTIONS).astype(np.float32)[:, None]

# A die is smeared where its edges are, in their softest direction, under `SOFT_BELOW`, or
# under `ONE_WAY_BELOW` of those in their steepest. The dice of the dev photos (2,375 in
# all) measure at least 0.089 and 0.415 (1 in 100 under 0.123 and 0.63); of the dice
# read wrong with a confidence over 0.6 in those photos smeared by a tenth to half a
# die's side, or out of focus by 4-15% of it, three in four fall under one bound or the
# other (docs/vision.md, Known limits: a shaken or out-of-focus photo).
SOFT_BELOW = 0.08
ONE_WAY_BELOW = 0.4

# A smeared die's confidence is at most this: under `detections.ASK_BELOW`, so it is asked.
SMEARED_CONFIDENCE = 0.5


def steepness(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """How steep the edges of the die in `box` (x, y, w, h) of a BGR or grey image are
    along each of `DIRECTIONS`: the 97th percentile of the brightness change a pixel that
    way, the box scaled to `VIEW`, as a share of its contrast (its 98th less its 2nd
    percentile of brightness). A box with no contrast, or none in the image, gives 1s."""
    x, y, w, h = box
    crop = image[max(0, y) : y + h, max(0, x) : x + w]
    if crop.shape[0] < 2 or crop.shape[1] < 2:
        return np.ones(len(DIRECTIONS))
    if crop.ndim == 3:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    # (one scale both ways: a die cut by the frame's edge, its box narrower than tall,
    # stretched to a square had its edges one way softened, and passed for smeared)
    scale = VIEW / max(crop.shape[:2])
    size = (max(2, round(crop.shape[1] * scale)), max(2, round(crop.shape[0] * scale)))
    grey = cv2.resize(
        crop.astype(np.float32),
        size,
        interpolation=cv2.INTER_AREA if scale < 1.0 else cv2.INTER_LINEAR,
    )
    low, high = _rows_percentile(grey.reshape(1, -1), (2, 98))[0]
    if high - low < 1.0:
        return np.ones(len(DIRECTIONS))
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0).ravel() / 8.0  # (Sobel's weights sum to 8)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1).ravel() / 8.0
    return _steepest(gx, gy) / (high - low)


EDGE = 97.0  # (the percentile of a direction's brightness changes taken as its edges')

# The pixels `_steepest` looks at first: those of the steepest edges any way, at least
# this many, and four times as many as the percentile needs
CANDIDATES = 256


def _steepest(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """The `EDGE` percentile of |change along each of `DIRECTIONS`| over the pixels whose
    changes across and down are `gx` and `gy`: `_rows_percentile` of every pixel's, to the
    bit, in under half the time (all of a roll's dice are measured, a sure die too).
    A pixel's change along any direction is at most its gradient's length, so once the
    percentile among the pixels of the longest gradients (`CANDIDATES`, or four times
    the pixels the percentile needs: 284 of a box's 2,304) is above every other pixel's
    length, no other pixel can move it; else every pixel is taken."""
    n = gx.size
    at = EDGE / 100 * (n - 1)  # (where `_rows_percentile` takes it, between two ranks)
    below = int(at)
    above = min(below + 1, n - 1)
    m = min(n, max(CANDIDATES, 4 * (n - below)))
    if m < n:
        length = np.hypot(gx, gy)
        order = np.argpartition(length, n - m - 1)
        rest = length[order[n - m - 1]]  # (the longest of the pixels left out)
        kept = order[n - m :]
        ranks = [m - n + below, m - n + above]
        part = np.partition(np.abs(_COS * gx[kept] + _SIN * gy[kept]), ranks, axis=1)
        low, high = part[:, ranks[0]], part[:, ranks[1]]
        # (in float32 a change along a direction can pass its length by an ulp or two, a
        # relative 2e-7, and a tie moves no rank; the margin is far over that)
        if (low > rest * (1 + 1e-5)).all():
            # (float64 as `_rows_percentile` gives it, on NumPy 1 as on 2)
            return low + (at - below) * (high - low).astype(np.float64)
    return _rows_percentile(np.abs(_COS * gx + _SIN * gy), (EDGE,))[:, 0]


def _rows_percentile(values: np.ndarray, qs: tuple[float, ...]) -> np.ndarray:
    """`np.percentile(values, qs, axis=1).T` (linear), by one partition: a fraction of
    the time, which counts for a roll of a dozen dice."""
    n = values.shape[1]
    at = np.array(qs, np.float64) / 100 * (n - 1)
    below = at.astype(int)
    above = np.minimum(below + 1, n - 1)
    part = np.partition(values, np.unique(np.concatenate([below, above])), axis=1)
    return part[:, below] + (at - below) * (part[:, above] - part[:, below])


def smeared(image: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether the die in `box` is too smeared to trust its reading (`SOFT_BELOW`,
    `ONE_WAY_BELOW`)."""
    steep = steepness(image, box)
    return bool(steep.min() < SOFT_BELOW or steep.min() < ONE_WAY_BELOW * steep.max())


def doubted(image: np.ndarray, box: tuple[int, int, int, int], confidence: float) -> float:
    """A die's confidence, held under the asking level if it is smeared."""
    if confidence <= SMEARED_CONFIDENCE or not smeared(image, box):
        return confidence
    return SMEARED_CONFIDENCE


def held(image: np.ndarray, detections: Detections) -> Detections:
    """The roll read in `image`, each smeared die's confidence held under the asking level."""
    dice = tuple(
        replace(die, confidence=doubted(image, die.box_xywh, die.confidence))
        for die in detections.dice
    )
    return replace(detections, dice=dice)
