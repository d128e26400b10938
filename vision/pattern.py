"""A tablecloth's repeating pattern is not a die.

On a polka-dot cloth, a window of the dots reads as a die: four dots as a 4, five as a 5,
at two to five times the real dice's size and by the dozen (`scripts/stress_vision.py
--table dots`: 11-62% precision). What tells them from dice is the pattern itself: the
window, shifted by less than its own side, matches the cloth again, and along more than
one line (a lattice). A die's face, shifted so, meets its own edge and the table beyond;
no die matches itself there, since two dice cannot overlap. Some faces do match along one
line (a 2 or a 3 shifted along its diagonal by a pip's spacing), so a find must repeat
along two lines at least 45 degrees apart to be a pattern. Four like dice showing 4,
squared up edge to edge in a block, make a grid of pips too (drawn red 4s a twentieth of
a side apart: 0.81-0.84); a cloth covers the table, so `faces.CLOTH_LEAST` asks for more
such finds in a look than a block gives before any is taken for a cloth.

Measured (session 47), each find's `repeats` in colour over the dice the reader reads in
the dev folders as shot: at most 0.55 (`byler_d6`), 0.46 (`fudw_tray`, a tray packed with
like dice) and 0.40 (`skovy_catan`); of the finds it reads on a drawn polka-dot cloth
that are the cloth, 89-94% score over `REPEATS` (0.75), no real die (at most 0.59).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

# A find whose patch matches itself this well shifted along two lines is a pattern
REPEATS = 0.75

# ... and this well, a pattern even alone in its look (`patterned`'s `alone`): a perfect
# lattice, such as a gingham check's window read as a 6 on a bare table (0.98). No die
# reaches it: the dev folders' dice at most 0.72 (on drawn cloths too), drawn blocks of
# two or three squared-up like dice 0.83, the finder's windows at their seams 0.92
ALONE = 0.95

# The patch: the find's box, seen at this many pixels a side; the shifts tried, in sides;
# and the light taken out before matching, the mean of a box this many pixels a side (a
# window of a cloth under a lamp's gradient matched itself worse than a die)
_SIDE_PX = 16
_SHIFTS = (0.3, 0.9)
_LIGHT = _SIDE_PX + 1


@lru_cache(maxsize=256)
def _shifts(shape: tuple[int, int], origin: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """For a match map of `shape` whose zero shift is at `origin` (x, y): the flat indices
    of the shifts in `_SHIFTS`, and each one's direction in radians."""
    yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]]
    dx, dy = (xx - origin[0]).ravel(), (yy - origin[1]).ravel()
    length = np.hypot(dx, dy) / _SIDE_PX
    tried = np.flatnonzero((length >= _SHIFTS[0]) & (length <= _SHIFTS[1]))
    return tried, np.arctan2(dy[tried], dx[tried])


def _repeat(image: np.ndarray, x: float, y: float, side: float, colour: bool) -> float:
    """`repeats` for one find."""
    if not side > 0:
        return 0.0
    h, w = image.shape[:2]
    k = _SIDE_PX / side
    reach = (0.5 + _SHIFTS[1]) * side
    x0, y0 = max(0, int(x - reach)), max(0, int(y - reach))
    x1, y1 = min(w, int(np.ceil(x + reach))), min(h, int(np.ceil(y + reach)))
    if min(x1 - x0, y1 - y0) * k < 4:  # (too little of it in the image for a patch)
        return 0.0
    crop = image[y0:y1, x0:x1]
    if crop.ndim == 3 and not colour:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    region = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    half = 0.5 * _SIDE_PX
    cx, cy = (x - x0) * k, (y - y0) * k
    px0, py0 = max(0, round(cx - half)), max(0, round(cy - half))
    px1, py1 = min(region.shape[1], round(cx + half)), min(region.shape[0], round(cy + half))
    if px1 - px0 < 4 or py1 - py0 < 4:
        return 0.0
    if cv2.meanStdDev(region[py0:py1, px0:px1])[1].max() < 1.0:
        return 0.0  # (a plain patch, each channel, matches anything)
    lit = region.astype(np.float32)
    lit = lit - cv2.blur(lit, (_LIGHT, _LIGHT))
    if cv2.meanStdDev(lit[py0:py1, px0:px1])[1].max() < 1.0:
        return 0.0  # (nor one plain but for a smooth light: what is left is rounding)
    match = cv2.matchTemplate(lit, lit[py0:py1, px0:px1], cv2.TM_CCOEFF_NORMED)
    tried, direction = _shifts(match.shape, (px0, py0))
    scores = match.ravel()[tried]
    if not len(scores):
        return 0.0
    best = int(np.argmax(scores))
    turn = np.abs((direction - direction[best] + np.pi / 2) % np.pi - np.pi / 2)
    across = scores[turn >= np.pi / 4]  # (the best across is the lesser of the two)
    return float(across.max()) if len(across) else 0.0


def repeats(image: np.ndarray, found: np.ndarray, *, colour: bool = True) -> np.ndarray:
    """For each find (x, y, side, ...) of a uint8 BGR or grey image: how well its patch matches
    itself shifted by `_SHIFTS` sides, along the best line and along the best line at least
    45 degrees from it (normalised correlation, the lesser of the two, in colour or, with
    `colour` False, in grey; 0 where too little of it is in the image, or it is plain)."""
    finds = np.asarray(found, np.float64)[:, :3].tolist()
    return np.array([_repeat(image, x, y, side, colour) for x, y, side in finds], np.float64)


def patterned(
    image: np.ndarray, found: np.ndarray, least: int = 1, *, alone: float = ALONE
) -> np.ndarray:
    """Which finds are windows of a repeating pattern (`repeats` over `REPEATS`), as a mask:
    none unless `least` are (a cloth covers the table: `faces.CLOTH_LEAST`), but for those
    over `alone`, a lattice no die makes. Each is tested in grey, which costs under half as
    much, then in colour if it passes, which sees the edge of a die that grey may lose (a
    red die on a green table)."""
    scores = np.zeros(len(found))
    for n, (x, y, side) in enumerate(np.asarray(found, np.float64)[:, :3].tolist()):
        grey = _repeat(image, x, y, side, False)
        if grey > REPEATS:
            scores[n] = grey if image.ndim == 2 else min(grey, _repeat(image, x, y, side, True))
    pattern = scores > REPEATS
    return pattern if pattern.sum() >= least else scores > alone
