"""Dice of one set look alike: an unread die whose face has the colour and size of the
roll's dice is one of them.

A die showing a printed logo or symbol instead of pips (a maker's emblem on the 6, a skull
on the 1) cannot be read, and the readers, trained to call such a face "a die, value
unknown", sometimes believe it a die only three times in four, or the finder doubts it.
`read` then drops it with the round tokens and blots it must not report
(`finds.not_lookalike`, `finds.confirmed_dice`). What tells that die from a token is the
rest of the roll: a table plays with a set of like dice, so the die is the size of the
dice read beside it and its face the colour of one of theirs, and marked (pips, or a
symbol), where a button is plain. Such a find is reported, unread (a low confidence), so
the player is asked about that one die. The colour alone (`coloured_as`) also tells a
far or near die showing 1, read clearly at a size the roll's others make odd, from a
cloth's cartoon eye (`reader._Looks.sized`).

Measured (session 38): of the dice read surely in `fudw_tray`'s photos (sets of blue
dice), 86% have another within `SAME_COLOUR` (median 4.1); `byler_d6` mixes colours (37%),
`skovy_catan`'s two dice never match. Of the finds the dev folders drop that the readers
give 0.7 of being a die, none is both: the byler tray's grey button is a die's size but
24-66 from the nearest die's colour (12-15 through a JPEG at quality 40, which a bound
of 15 let in, and within 10 shrunk to dice of 20 px: then plain, `MARKED`); specks, pips
and a dice box match a colour at a third to half a die's size or twice it.
"""

from __future__ import annotations

import cv2
import numpy as np

from .finds import surely_read

SAME_COLOUR = 10.0
"""The most a face's median colour may differ from a die's of the roll, read surely
(distance in OpenCV's 8-bit Lab, each channel 0-255)."""

SAME_SIZE = (0.75, 1.33)
"""The side a die of the set may have, relative to the median side of the roll's dice."""

FACE_SPAN = 0.7
"""The middle of a face whose colour is taken, in die sides: inside its rounded edges and
shading; its pips, or a logo, are the minority of it, so the median is the face's colour."""

MARKED = 0.3
"""The least share of a face's middle whose lightness is `MARK_LEVEL` or more from its
median: a die's face carries marks, a symbol most of all (`fudw_tray`'s 74 symbol faces, at
their labelled boxes: median 0.61, 0.43 at the 5th percentile), while a plain disc of a
die's colour is a button (the byler tray's, 0.11-0.24 in the dev folders' stress runs,
where it came within `SAME_COLOUR` of a grey die)."""

MARK_LEVEL = 15.0
"""Lightness levels (8-bit Lab) a mark differs from the face by."""


def face_looks(image: np.ndarray, found: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The median Lab colour (n, 3) of the middle of each find's (x, y, side, ...) face, and
    the share of that middle marked (`MARKED`); NaN for a find whose middle lies outside
    the image."""
    h, w = image.shape[:2]
    colours, marked = np.full((len(found), 3), np.nan), np.full(len(found), np.nan)
    for k, (x, y, side) in enumerate(found[:, :3].tolist()):
        r = FACE_SPAN * side / 2
        x0, x1 = max(0, round(x - r)), min(w, round(x + r) + 1)
        y0, y1 = max(0, round(y - r)), min(h, round(y + r) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB)
        lab = lab.reshape(-1, 3).astype(np.float64)
        colours[k] = np.median(lab, axis=0)
        marked[k] = float(np.mean(np.abs(lab[:, 0] - colours[k, 0]) >= MARK_LEVEL))
    return colours, marked


def unread_dice_of_the_set(
    image: np.ndarray,
    found: np.ndarray,
    probs: np.ndarray,
    reported: np.ndarray,
    min_dieness: float,
) -> np.ndarray:
    """Which finds not `reported` are dice of the roll's set: the readers give them at least
    `min_dieness` of being a die, they are `SAME_SIZE` as the reported dice, their face is
    `SAME_COLOUR` as a die of the roll read surely (confidence 0.5) and it is `MARKED`. A
    mask over `found`; none without such a die to compare with."""
    sure = reported & surely_read(probs)
    candidate = ~reported & (1.0 - probs[:, 0] >= min_dieness)
    if not sure.any() or not candidate.any():
        return np.zeros(len(found), bool)
    relative = found[:, 2] / float(np.median(found[reported, 2]))
    candidate &= (relative >= SAME_SIZE[0]) & (relative <= SAME_SIZE[1])
    if not candidate.any():
        return candidate
    colours, marked = face_looks(image, found[candidate])
    alike = _alike(colours, face_looks(image, found[sure])[0])
    candidate[np.flatnonzero(candidate)] = alike & (np.nan_to_num(marked) >= MARKED)
    return candidate


def coloured_as(image: np.ndarray, found: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Which finds have a face `SAME_COLOUR` as one of `dice` (finds too): a die of their
    set. None where there are no `dice`."""
    if not len(found) or not len(dice):
        return np.zeros(len(found), bool)
    return _alike(face_looks(image, found)[0], face_looks(image, dice)[0])


def _alike(colours: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Which of `colours` (Lab, NaN where unknown) lie within `SAME_COLOUR` of a die's."""
    distance = np.linalg.norm(colours[:, None, :] - dice[None, :, :], axis=2)
    return np.asarray(np.nan_to_num(distance, nan=np.inf).min(axis=1) <= SAME_COLOUR)
