"""A die's face carries marks (pips, a printed symbol); a button, a token or a coin's face
is plain.

The face readers learnt "not a die" from plain discs, yet a grey disc the size of the
roll's dice they half believe a die, and in a noisy photo (a webcam in dim light) all but
believe: the byler tray's grey button reads 0.46-0.52 "a die" as shot and 0.89-0.91 under
sensor noise of 6 grey levels, past `read`'s bar for reporting a find it cannot read. So a
find reported unread must show marks where a face has them, in the disc around its
centre. A 3x3 median takes out sensor noise first (a pip of a die of `MIN_SIDE` keeps its
middle); marks are told by colour, not lightness alone (red pips on a dark green die
differ in hue more than in lightness).

Measured (session 41) on every find `read` reported unread, on the licensed dev folders
as shot, under sensor noise of 6 levels, with the light times 1.6 (blown out), at a fifth
of the light with noise and a JPEG, blurred (1.5 px) and in grey: 556 of the 635 finds
that are no die are plain (at a fifth of the light 458 of 464: tray corners and walls; the
tray's buttons in 88 of 158 noisy reads), and 1 of the 353 real
dice (grey, misread). On the held-out `fudw_tray`, measured after: none of its 404 symbol
faces nor its 22 real dice reported unread are plain, 1 of its 22 false finds is.
"""

from __future__ import annotations

import cv2
import numpy as np

MARK_DISTANCE = 15.0
"""How far a mark's colour is from the face's (8-bit Lab): a pip, a symbol's stroke."""

FULL_LIGHT = 160.0
"""The level of an image's brightest pixels from which `MARK_DISTANCE` holds whole; in a
dimmer one (a dark room the reader does not brighten, `reader.DARK_LEVEL`) pips differ
from the face by less, and the distance is scaled down with the light."""

MARK_RADIUS = 0.35
"""The disc around a find's centre whose marks are counted, in die sides: it holds a 1's
pip and part of every other pip, and stays inside a round button the size of a die (a
square there took in the table at its corners, which counted as marks)."""

PLAIN = 0.04
"""A face with less than this share of its disc marked is plain: no die. A drawn 1's pip
is 4-6% of the disc; a 2's pips sit at its edge, so a crisp 2 can show 3-8% (it is read
surely, and never meets the test: the dice reported unread are hard to see, and only one
of 353 measured under it)."""

MIN_SIDE = 24
"""Finds smaller than this (pixels) are not judged: their pips are a pixel or two, which
the median takes out."""


def marked_share(
    image: np.ndarray, found: np.ndarray, distance: float = MARK_DISTANCE
) -> np.ndarray:
    """The share of the disc of `MARK_RADIUS` sides around each find's (x, y, side, ...)
    centre whose colour is `distance` or more from the disc's median; NaN where the disc
    lies outside the image. `image`: BGR."""
    h, w = image.shape[:2]
    shares = np.full(len(found), np.nan)
    for k, (x, y, side) in enumerate(found[:, :3].tolist()):
        r = MARK_RADIUS * side
        x0, x1 = max(0, int(x - r)), min(w, int(x + r) + 1)
        y0, y1 = max(0, int(y - r)), min(h, int(y + r) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        patch = cv2.medianBlur(np.ascontiguousarray(image[y0:y1, x0:x1]), 3)
        lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float64)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        inside = lab[(xx - x) ** 2 + (yy - y) ** 2 <= r * r]
        if len(inside):
            off = np.linalg.norm(inside - np.median(inside, axis=0), axis=1)
            shares[k] = float(np.mean(off >= distance))
    return shares


def plain_faces(image: np.ndarray, found: np.ndarray, light: float = FULL_LIGHT) -> np.ndarray:
    """Which finds (x, y, side, ...) show a plain face (`PLAIN`): a mask. `light`: the level
    of the image's brightest pixels, under `FULL_LIGHT` in a dim one. A find under
    `MIN_SIDE`, or whose disc lies outside the image, is not called plain."""
    plain = np.zeros(len(found), bool)
    judged = found[:, 2] >= MIN_SIDE
    if judged.any():
        distance = MARK_DISTANCE * min(1.0, max(light, 1.0) / FULL_LIGHT)
        shares = marked_share(image, found[judged], distance)
        plain[judged] = np.nan_to_num(shares, nan=1.0) < PLAIN
    return plain
