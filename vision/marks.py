"""A die's face carries marks (pips, a printed symbol); a button, a token or a tray's corner
is plain.

The face readers learnt "not a die" from plain discs, yet a grey disc the size of the
roll's dice they half believe a die, and in a noisy photo (a webcam in dim light) all but
believe: the byler tray's grey button reads 0.46-0.52 "a die" as shot and 0.89-0.91 under
sensor noise of 6 grey levels, past `read`'s bar for reporting a find it cannot read; in
a dark photo brightened, the tray's dark corners pass too. So a find reported unread
must show marks where a face has them, in the disc around its centre: pixels whose
colour (not lightness alone: red pips on a dark green die differ in hue) stands out of
the disc's median by more than the photo's noise there. A 3x3 median takes the noise
out of the pixels first, and the noise it took out sets how far a mark must stand out: a
fixed distance dropped real dice in a shadow or a washed-out photo, where pips differ
from the face by little but nothing is noisy. (The median sees noise that changes from
pixel to pixel, not a JPEG's blotches: those count as marks, but for the least distance
growing with a dark photo's brightening, `LEAST`.)

Measured in session 41 (docs/vision-log.md): on every find `read` reported unread, with
the rule off, in the licensed dev folders as shot and in nine harder versions (noise,
blown out, a fifth of the light with noise, blurred, low contrast at 0.5 and 0.4, a
shadow at 35% and 25% over part of the table, grey): 401 of 495 finds that are no die
are plain, 2 of 939 real dice (in the deepest shadow).
"""

from __future__ import annotations

import cv2
import numpy as np

MARK_RADIUS = 0.35
"""The disc around a find's centre whose marks are counted, in die sides: it holds a 1's
pip and part of every other pip, and stays inside a round button the size of a die (a
square there took in the table at its corners, which counted as marks)."""

NOISE_MARGIN = 2.0
"""How many times the disc's noise a mark must stand out of its median colour by."""

LEAST = 5.0
"""The least distance (8-bit Lab) a mark must stand out by: in a clean photo JPEG's
ripples stand out by a few levels. The noise estimate sees noise that changes from pixel
to pixel only, not JPEG's blotches, so in a dark photo the reader brightened (which
scales those too) it grows with the brightening."""

MOST = 15.0
"""The most that distance may be: a pip clears it in any light the reader reads in."""

DISC_PX = 64
"""A disc wider than this (pixels) is shrunk to it first: a close-up die of 1,500 px in
a 12 MP photo took 140 ms measured whole."""

PLAIN = 0.04
"""A face with less than this share of its disc marked is plain: no die. A drawn 1's pip
is 4-6% of the disc; a 2's pips sit at its edge, so a 2 found a little small can show
less: a crisp one is read surely and never meets the test, but an unsure 2 in a deep
shadow can be lost (2 of the 939 dice measured)."""

MIN_SIDE = 24
"""Finds smaller than this (pixels) are not judged: their pips are a pixel or two, which
the median takes out."""


def marked_share(
    image: np.ndarray, found: np.ndarray, least: float | np.ndarray = LEAST
) -> np.ndarray:
    """The share of the disc of `MARK_RADIUS` sides around each find's (x, y, side, ...)
    centre marked: its colour, after a 3x3 median, `NOISE_MARGIN` times the noise the
    median took out (a robust spread) or more from the disc's median, and `least` to
    `MOST` (`least`: one for all, or one a find). A disc over `DISC_PX` across is shrunk
    to it first. NaN where less than half the disc lies in the image, or a find is not a
    number or has no size. `image`: BGR uint8."""
    h, w = image.shape[:2]
    shares = np.full(len(found), np.nan)
    leasts = np.broadcast_to(np.asarray(least, np.float64), (len(found),))
    for k, (x, y, side) in enumerate(found[:, :3].tolist()):
        if not (np.isfinite((x, y, side)).all() and side > 0):
            continue
        r = MARK_RADIUS * side
        x0, x1 = max(0, int(x - r)), min(w, int(x + r) + 1)
        y0, y1 = max(0, int(y - r)), min(h, int(y + r) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        raw = np.ascontiguousarray(image[y0:y1, x0:x1])
        shrink = min(1.0, DISC_PX / (2 * r))
        if shrink < 1.0:
            size = (max(1, round((x1 - x0) * shrink)), max(1, round((y1 - y0) * shrink)))
            raw = cv2.resize(raw, size, interpolation=cv2.INTER_AREA)
        # where the patch's pixels (shrunk or not) lie in the image
        yy, xx = np.mgrid[0 : raw.shape[0], 0 : raw.shape[1]]
        px, py = x0 + (xx + 0.5) / shrink - 0.5, y0 + (yy + 0.5) / shrink - 0.5
        inside = (px - x) ** 2 + (py - y) ** 2 <= r * r
        if inside.sum() < 0.5 * np.pi * (r * shrink) ** 2:  # (a die mostly off the frame)
            continue
        smooth = cv2.cvtColor(cv2.medianBlur(raw, 3), cv2.COLOR_BGR2LAB).astype(np.float64)
        rough = cv2.cvtColor(raw, cv2.COLOR_BGR2LAB).astype(np.float64)
        colours = smooth[inside]
        noise = 1.4826 * float(np.median(np.linalg.norm(rough[inside] - colours, axis=1)))
        distance = float(np.clip(NOISE_MARGIN * noise, leasts[k], MOST))
        off = np.linalg.norm(colours - np.median(colours, axis=0), axis=1)
        shares[k] = float(np.mean(off >= distance))
    return shares


def plain_faces(image: np.ndarray, found: np.ndarray, gain: float | np.ndarray = 1.0) -> np.ndarray:
    """Which finds (x, y, side, ...) show a plain face (`PLAIN`): a mask. `gain`: what the
    reader scaled a dark image by (`light.brightened`), or the part of a shadow each find
    lies in (one a find: `light.shadows_lifted`), which scaled its JPEG's ripples too: the
    least distance a mark stands out by grows with it, to `MOST`. A find under `MIN_SIDE`,
    or with less than half its disc in the image, is not called plain."""
    plain = np.zeros(len(found), bool)
    judged = found[:, 2] >= MIN_SIDE
    if judged.any():
        least = np.minimum(MOST, LEAST * np.maximum(1.0, gain))
        least = np.broadcast_to(least, (len(found),))[judged]
        shares = marked_share(image, found[judged], least)
        plain[judged] = np.nan_to_num(shares, nan=1.0) < PLAIN
    return plain
