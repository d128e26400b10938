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
cloth's cartoon eye (`roll.RollLooks.sized`).

The set's colour also finds a die the finder missed altogether (`colour_patches`): a red
die on an orange wood grain blends into it for the finder, but not by its colour, and a
patch of the roll's face colour, a die's size, with the table around it, read clearly as
a die, is one (`roll.RollLooks.coloured_in`).

And the other way round (`strangers`): where the dice read surely are of one set, a find
the readers cannot read whose face is none of the set's colours is no die of it, but a
cloth's motif of a die's size (a printed fruit beside `fudw_tray`'s tray).

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
from .model import Halvings

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


SET_DICE = 4
"""The least dice read surely (each counted once) that can show a roll to be of one set
(`strangers`)."""

SET_SHARE = 0.6
"""The least share of those dice in one family of face colours (each within `SAME_COLOUR`
of another of the family, in all three channels) for the roll to be of one set. A set's
faces differ in the light (`fudw_tray`'s blue dice: 0.44-0.95 a photo, 14 of 20 at 0.6 or
more); two pairs of two sets beside a lone die (0.4) are no set."""

STRANGER = 3 * SAME_COLOUR
"""How far an unread find's face middle lies in colour (a and b of 8-bit Lab: hue and
saturation, not lightness, as a die in a shadow is darker but of its colour) from every
die of a roll of one set read surely, to be a stranger to it: three times what dice of a
set differ by (the farthest symbol face of the dev photos lies 9.8 from its set)."""

STRANGER_BODY = 0.1
"""The most of a stranger's box whose pixels may have a face colour of the roll's dice read
surely (a and b within `PATCH_COLOUR`, as for `STRANGER`): a die of the set shows its
body's colour around its pips or its symbol, even where a big white skull fills its
middle."""


def _one_family(colours: np.ndarray) -> np.ndarray:
    """The largest family of `colours` (Lab, NaN where unknown) linked by steps of at most
    `SAME_COLOUR`, as a mask."""
    near = np.nan_to_num(np.linalg.norm(colours[:, None] - colours[None], axis=2), nan=np.inf)
    near = near <= SAME_COLOUR
    best = np.zeros(len(colours), bool)
    left = np.isfinite(colours).all(axis=1)
    while left.any():
        family = np.zeros(len(colours), bool)
        family[np.flatnonzero(left)[0]] = True
        while True:
            grown = family | (near[family].any(axis=0) & left)
            if (grown == family).all():
                break
            family = grown
        left &= ~family
        if family.sum() > best.sum():
            best = family
    return best


def strangers(image: np.ndarray, found: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Which finds (reported unread) are no dice of the roll, as a mask. A table plays with
    one set: where the `dice` read surely are of one (`SET_DICE` of them at least,
    `SET_SHARE` in one family of colours), a find whose face middle is `STRANGER` to all of
    their colours, with under `STRANGER_BODY` of its box in them, is a cloth's motif of a
    die's size beside the tray, not a die the readers cannot read (a logo, a skull: still
    of the set's colour). None in a roll of mixed sets, or of too few dice; nor a find
    whose middle lies off the image (its colour unknown).
    Measured on the dev photos as shot (session 54), over the finds reported unread in
    rolls of one set: `byler_d6`'s 7 real dice lie 1.0-3.2 from the set's colours (0.98 of
    their box and more in them), `fudw_tray`'s 43 symbol faces 0-9.8 (0.40 and more); its
    cloth's motifs beside the tray: a printed fruit (58.2, none of its box in the colours
    of the blue dice) and a red owl (38.0, none; a later rule drops it too), strangers; a
    stitched strawberry, 19.0 or, read again cut to the roll's size, 32.0 with 0.55 of its
    box in their colours (a pale blue die's a and b are near the cloth's), which stays."""
    none = np.zeros(len(found), bool)
    if len(dice) < SET_DICE or not len(found):
        return none
    colours = face_looks(image, dice)[0]
    family = _one_family(colours)
    if family.sum() < SET_SHARE * len(dice):
        return none
    colours = colours[np.isfinite(colours).all(axis=1)]
    middles = face_looks(image, found)[0]
    far = np.linalg.norm(middles[:, None, 1:] - colours[None, :, 1:], axis=2)  # (a, b)
    odd = np.isfinite(middles).all(axis=1) & (far.min(axis=1) > STRANGER)  # (NaN: not over)
    for k in np.flatnonzero(odd):
        odd[k] = _body_share(image, found[k], colours) < STRANGER_BODY
    return odd


def _body_share(image: np.ndarray, find: np.ndarray, colours: np.ndarray) -> float:
    """The share of a find's box (x, y, side) in the image whose a and b lie within
    `PATCH_COLOUR` of one of `colours` (Lab); 1 where none of it is in the image."""
    h, w = image.shape[:2]
    x, y, side = (float(v) for v in find[:3])
    x0, x1 = max(0, round(x - side / 2)), min(w, round(x + side / 2))
    y0, y1 = max(0, round(y - side / 2)), min(h, round(y + side / 2))
    if x1 <= x0 or y1 <= y0:
        return 1.0
    lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB)
    near = _of_colours(lab, colours, any_lightness=True)
    return float(np.count_nonzero(near)) / near.size


def _of_colours(lab: np.ndarray, colours: np.ndarray, *, any_lightness: bool = False) -> np.ndarray:
    """Which pixels of a Lab image lie within `PATCH_COLOUR` of one of `colours` in each
    channel (a box, as `inRange` tests it; a and b only with `any_lightness`), as a 0/255
    mask."""
    near = np.zeros(lab.shape[:2], np.uint8)
    for colour in colours:
        low, high = np.clip(colour - PATCH_COLOUR, 0, 255), np.clip(colour + PATCH_COLOUR, 0, 255)
        if any_lightness:
            low[0], high[0] = 0, 255
        near |= np.asarray(cv2.inRange(lab, low, high), np.uint8)
    return near


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


PATCH_SCALE = 12.0
"""The side, in pixels, a die has in the image the colour patches are looked for in: a
face's middle is then 9 pixels across, and a large photo's search costs no more than a
small one's. Scaled as the finder's looks are (`model.resize`: halved, each pixel the mean
of four, then bilinear); scaled bilinearly at once, a pixel a sample of the photo's, costs
a 1080p frame about 1 ms less, but the held-out `fudw_tray` lost a die found (IMG_4543)
and the printed polka dots gained an extra (session 50)."""

PATCH_COLOUR = 20.0
"""The most a pixel may differ from a face colour of the set in each channel (8-bit Lab)
to count as one: twice `SAME_COLOUR`, as a pixel's colour is noisier than a face's
median (a box, not a ball, as OpenCV's `inRange` tests it fast)."""

PATCH_FILLED = 0.6
"""The least share of a patch's middle (`FACE_SPAN` of a die's side) in the set's colour."""

PATCH_AROUND = (1.6, 0.3)
"""The window around a patch (die sides), and the most of it outside the patch's middle
that may be of the set's colour, not counting the roll's dice: a die lies on a table,
while a table, a tray's rim or a pile of the dice's own colour surrounds a patch with
more of it. Of drawn red dice the finder missed on wood, 0.04-0.11 (scripts/drawn_rolls.py).
A band of the colour under 0.8 of a side wide passes (about 0.29 around): the readers'
test is then all that tells it from a die; so does a patch at the frame's edge or beside
a find, where what lies outside the image or near the find counts as not of the colour."""

APART = 0.75
"""How far a patch's centre lies from every find of the roll, and from another patch, in
sides (the larger of the find's and the dice's median): a die found is not found again."""

ALIKE_DICE = 2
"""The dice read surely a colour must be shared by (as a pixel of it is, `PATCH_COLOUR`) to
be the set's: a lone stray read is none. (Within `SAME_COLOUR`, red dice on wood lit from
one side were none: their faces' lightness 18-23 apart in three rolls of two or three.)"""


def set_colours(image: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """The face colours (Lab, (k, 3)) of the roll's set among `dice` (finds read surely):
    each shared by `ALIKE_DICE` of them (`face_looks`), less those within `SAME_COLOUR` / 2
    of one already taken (the pixels' tests are OR-ed, so a near copy adds nothing). (Taken
    at full size: a face's middle at `PATCH_SCALE` takes in its edge and,
    at a slant, its darker side faces, and some wood grain then passes for a die.)"""
    colours = face_looks(image, dice)[0]
    colours = colours[~np.isnan(colours).any(axis=1)]
    near = np.abs(colours[:, None, :] - colours[None, :, :]).max(axis=2) <= PATCH_COLOUR
    distinct: list[np.ndarray] = []
    for colour in colours[near.sum(axis=1) >= ALIKE_DICE]:
        if all(np.linalg.norm(colour - d) > SAME_COLOUR / 2 for d in distinct):
            distinct.append(colour)
    return np.array(distinct).reshape(-1, 3)


def colour_patches(
    image: np.ndarray, dice: np.ndarray, roll: np.ndarray, *, halvings: Halvings | None = None
) -> np.ndarray:
    """Centres (x, y) of patches of the set's colour (`set_colours` of `dice`, finds read
    surely) that could be a die of their median side no find of the `roll` (x, y, side,
    ...) lies on: the patch's middle `PATCH_FILLED` with the colour, what lies around it
    within `PATCH_AROUND`, and three quarters of a side from every find of the roll. Best
    filled first. None without a colour two dice share. `halvings`: those of `image`
    itself, if made already (`model.Halvings`, the finder's first look's)."""
    colours = set_colours(image, dice)
    if not len(colours):
        return np.zeros((0, 2))
    side = float(np.median(dice[:, 2]))
    scale = min(1.0, PATCH_SCALE / side)
    halvings = Halvings(image) if halvings is None else halvings
    lab = cv2.cvtColor(halvings.resize(scale), cv2.COLOR_BGR2LAB)
    in_colour = (_of_colours(lab, colours) > 0).astype(np.float32)
    middle = max(3, round(FACE_SPAN * side * scale) | 1)
    around = max(middle + 2, round(PATCH_AROUND[0] * side * scale) | 1)
    taken = np.zeros(in_colour.shape, np.uint8)  # (three quarters of a side of each find)
    for x, y, s in (roll[:, :3] * scale).tolist():
        cv2.circle(taken, (round(x), round(y)), round(APART * max(s, side * scale)), 1, -1)
    free = np.where(taken > 0, 0.0, in_colour).astype(np.float32)  # (the roll's dice do not
    # count against a patch beside them, nor what a find off its die's centre leaves)
    sums = [
        cv2.boxFilter(free, -1, (k, k), normalize=False, borderType=cv2.BORDER_CONSTANT)
        for k in (middle, around)
    ]
    filled = sums[0] / float(middle**2)
    ring = (sums[1] - sums[0]) / float(around**2 - middle**2)
    score = np.where((ring <= PATCH_AROUND[1]) & (taken == 0), filled, 0.0).astype(np.float32)
    edge = middle // 2  # (a middle wholly inside the image)
    score[:edge], score[-edge:], score[:, :edge], score[:, -edge:] = 0.0, 0.0, 0.0, 0.0
    peak = score >= cv2.dilate(score, np.ones((middle, middle), np.uint8))
    ys, xs = np.nonzero(peak & (score >= PATCH_FILLED))
    order = np.argsort(-score[ys, xs], kind="stable")
    kept: list[tuple[float, float]] = []
    for x, y in zip(xs[order].tolist(), ys[order].tolist(), strict=True):
        cx, cy = _centroid(free, x, y, middle)  # (one die's patch once, though its middle's
        if all((cx - a) ** 2 + (cy - b) ** 2 >= (APART * side * scale) ** 2 for a, b in kept):
            kept.append((cx, cy))  # plateau peaks more than once)
    centres = (np.array(kept).reshape(-1, 2) + 0.5) / scale - 0.5
    apart = np.hypot(*(centres[:, None, :] - roll[None, :, :2]).transpose(2, 0, 1))
    return centres[(apart >= APART * np.maximum(roll[None, :, 2], side)).all(axis=1)]


def _centroid(mask: np.ndarray, x: int, y: int, r: int) -> tuple[float, float]:
    """The centre of the pixels of `mask` within `r` of (x, y), and within `r` of that: a
    plateau's first pixel is at its corner, and the face's colour centred on the face."""
    cx, cy = float(x), float(y)
    for _ in range(2):
        x0, y0 = max(0, round(cx) - r), max(0, round(cy) - r)
        ys, xs = np.nonzero(mask[y0 : round(cy) + r + 1, x0 : round(cx) + r + 1])
        if len(xs):
            cx, cy = x0 + float(xs.mean()), y0 + float(ys.mean())
    return cx, cy
