"""The face readers' reading of a look's finds: a glance at each find's crop, and a vote on
those it leaves unsure.

Every look `read` takes reads its finds here (`classify`): a crop cut from the
full-resolution image at each find (`crops_of`), read by the readers at a glance
(`model.glance`), the finds read surely at another scale taken as read (`glanced`), the
windows of a cloth's repeating pattern taken for no die (`_cloth`), and a vote on the rest,
each crop turned and cut wider, and lifted where the die's face is dark (`voted`,
`model.vote`). It lives apart from the looks so that what a reading is stays one place,
whichever look asks for it.
"""

from __future__ import annotations

import numpy as np

from .finds import maybe_dice, same_finds
from .model import crop_die, glance, vote
from .pattern import patterned

# The face reader's second look at a die it is unsure of partly uses a crop with a wider
# margin: the die's side taken 15% larger than the finder's estimate.
_WIDER = 1.15


# A die the readers were sure of (this share on one value) at one scale keeps its reading
# when the finder finds it again at another, at about the same place and size (a fifth of
# a side, a quarter of its size), and so does a find they took for more likely no die than
# a die (a die chance under `LIKELY_NOT`). A find they only doubted (a die chance from
# `LIKELY_NOT` up to the reader's `min_dieness`) keeps its rejection only when found again
# at nearly the same place and size (a tenth): a crop cut at a wrong size may have been
# rejected for that, which the new look mends; one cut alike reads alike (a stray find
# beside a roll was otherwise voted on again: four views for each reader).
SURE_AGAIN = 0.7
LIKELY_NOT = 0.5
_SAME_CROP = 0.1


def classify(
    image: np.ndarray,
    found: np.ndarray,
    rotations: int,
    min_dieness: float,
    *,
    known: tuple[np.ndarray, np.ndarray] | None = None,
    lift_dark: bool = False,
) -> np.ndarray:
    """The readers' scores for finds (x, y, side, score), cut from the full-resolution image:
    a glance (`glanced`), and a vote on the finds it leaves unsure (`voted`; with
    `lift_dark`, dark faces read lifted too)."""
    probs, owed = glanced(image, found, min_dieness, known=known)
    return voted(image, found, probs, owed, rotations, min_dieness, lift_dark=lift_dark)


def crops_of(image: np.ndarray, found: np.ndarray, *, stretch: float = 1.0) -> list[np.ndarray]:
    """The face readers' view of each find (x, y, side, score), cut from the full image
    (stretched upright by `stretch`: a top face seen at a slant, `slant.py`)."""
    return [
        crop_die(image, (float(x), float(y)), float(s), stretch=stretch) for x, y, s, _ in found
    ]


def glanced(
    image: np.ndarray,
    found: np.ndarray,
    min_dieness: float,
    *,
    known: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The readers' first look at finds (`model.glance`), and which of them a vote owes.
    `known` (finds, scores) from a look at another scale: a die among them read surely, or
    a find more likely no die than a die, found at about the same place and size, or a
    find rejected at nearly the same place and size, is not read again."""
    probs = np.zeros((len(found), 7), np.float32)
    owed = np.zeros(len(found), bool)
    todo = np.arange(len(found))
    if known is not None and len(found) and len(known[0]):
        match = same_finds(found, known[0])
        before = known[1][np.maximum(match, 0)]
        dieness = 1.0 - before[:, 0]
        unlikely = dieness < min(LIKELY_NOT, min_dieness)  # (never a find taken for a die)
        reuse = (match >= 0) & ((before[:, 1:].max(axis=1) >= SURE_AGAIN) | unlikely)
        # (both pair a find with the nearest one before: a close match is the same find)
        close = same_finds(found, known[0], off=_SAME_CROP, size=1.0 + _SAME_CROP) >= 0
        reuse |= close & (dieness < min_dieness)
        probs[reuse] = known[1][match[reuse]]
        todo = np.nonzero(~reuse)[0]
    probs[todo], owed[todo] = glance(crops_of(image, found[todo]))
    owed[_cloth(image, found, probs, todo)] = False
    return probs, owed


def _cloth(
    image: np.ndarray, found: np.ndarray, probs: np.ndarray, which: np.ndarray
) -> np.ndarray:
    """Of the finds `which` (indices), those the readers give even odds of being a die that
    are windows of a cloth's repeating pattern (`pattern.patterned`: polka dots read as 4s
    and 5s), their `probs` set in place to no die. Returns their indices. A cloth repeats
    across the table: under `CLOTH_LEAST` such finds among `which` (the look's finds read
    afresh; those it took from another look were judged there) are dice that happen to
    match themselves, and stay."""
    tested = which[maybe_dice(probs[which])]
    cloth = tested[patterned(image, found[tested], CLOTH_LEAST)]
    probs[cloth] = 0.0
    probs[cloth, 0] = 1.0
    return cloth


def voted(
    image: np.ndarray,
    found: np.ndarray,
    probs: np.ndarray,
    owed: np.ndarray,
    rotations: int,
    min_dieness: float,
    *,
    lift_dark: bool = False,
) -> np.ndarray:
    """`probs` (a glance at finds) with the finds `owed` a vote read again (`model.vote`;
    with `lift_dark`, a die's dark face read lifted too)."""
    todo = np.nonzero(owed)[0]
    if not len(todo) or rotations <= 1:
        return probs
    crops = crops_of(image, found[todo])

    def wider(i: int) -> np.ndarray:
        x, y, s = (float(v) for v in found[todo[i], :3])
        return crop_die(image, (x, y), s * _WIDER)

    probs = probs.copy()
    probs[todo] = vote(
        crops,
        probs[todo],
        np.ones(len(todo), bool),
        rotations=rotations,
        wider=wider,
        min_dieness=min_dieness,
        lift_dark=lift_dark,
    )
    return probs


# Finds of one look that must be windows of a repeating pattern before any is taken for a
# cloth (`_cloth`): more than a block of four like dice squared up and the windows at
# their seams (with two, three of four drawn red 4s so were lost; a blurred yellow 2 among
# dice once matched itself alone). Two read the stress's polka dots a little better
# (`byler_d6` rolls 83.3 against 78.3%, `skovy_catan` 93.9 against 85.7%; session 47)
CLOTH_LEAST = 5
