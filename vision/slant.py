"""A roll photographed at a steep slant: its dice read again on their top faces, stretched.

A phone held 40 degrees or more off vertical sees each die's top face squashed upright by
the slant's cosine, and below it the side face turned to the camera, nearly as tall. The
finder's centre slides down onto that side face (drawn cubes: 0.14 of a side below the
top's centre at 35 degrees, 0.24 at 45, 0.33 at 50), and the readers, shown a crop of half
a top and half a side, misread it, most of them surely (median 0.92), so no check on one
die's confidence catches it (session 63). A crop moved up onto the top face and stretched
upright by one over the slant's cosine reads those dice right again: 95.6% at 45 degrees
where they read 76.6% as found (docs/vision-log.md).

The slant is the camera's, so it is the same for every die of a roll, and the roll is the
unit judged: its dice are read again as seen from each of `SLANTS`, and the slant whose
crops the readers read most clearly, on the mean over the roll's dice of the log of each
die's confidence, is taken if that mean beats the one of the same dice's crops cut as
found by `GAIN` (`slant_taken`). A first look decides whether that is worth its crops:
the first reader alone reads a few of the roll's dice as found and at two of the slants,
and the roll is read on only where either reads them more clearly
(`steeper_worth_reading`). A photo from straight above reads no more clearly stretched
(on the dev photos the best of these slants beat the crops as found by 0.08 at most, and
no roll was read at a slant). The slant taken, each die takes its reading there unless
the roll as read already read it `KEEP` more surely (`taken_dice`): a die the pipeline
read right at 0.95, moved onto its top face and read 0.43 there, keeps its reading.

Only the image's up is tried: a photo is read as the phone held it (its EXIF orientation
applied), so the side faces show below the tops; a camera looking across the table from
its left or right side is not covered. The arithmetic lives here, without networks or
images; `roll.RollLooks.at_slant` cuts and reads the crops.
"""

from __future__ import annotations

import numpy as np

from .finds import readings

# The slants tried, as (how far the crop is moved up, in the find's sides; how much it is
# stretched upright): 40 and 45 degrees (1 / cos), then 45 degrees' stretch moved further
# up, for steeper rolls. The move grows with the slant as the finder's slide onto the side
# face does, and past 45 degrees moving the crop up reads the top face better than
# stretching it more: with each of 42 slants (moved 0-0.3, stretched 1-1.9) forced on
# every roll, 45-degree rolls read best moved 0.25-0.3, stretched 1.31-1.41 (session 65).
# The rolls a phone held upright sees, read right of 96 (`scripts/drawn_rolls.py --upright
# --seed 0`), before any slant / with session 64's slants (moved 0.15-0.25, stretched to
# 54 degrees' 1.7) / these: 35 degrees 84 / 85 / 85, 40 degrees 60 / 69 / 72, 45 degrees
# 13 / 56 / 59, 50 degrees 2 / 38 / 43; flat and 20 degrees and the dev photos as before.
# Milder slants are not tried, since the dev photos read up to 0.17 more clearly at slants
# of 0-20 degrees (session 64)
SLANTS: tuple[tuple[float, float], ...] = ((0.15, 1.31), (0.2, 1.41), (0.25, 1.41), (0.3, 1.41))
# How much more clearly, on the mean log confidence over the roll's dice, the best slant
# must read the roll than its crops cut as found. The dev photos' rolls, read at these
# slants, beat their crops as found by 0.08 at most; drawn rolls at 45 degrees by 0.32 at
# the median, at 35 degrees 0.08
GAIN = 0.1
# A die read this much more surely as the roll was read keeps that reading: of the rolls
# drawn at 40 degrees, two dice read right at 0.95-0.97 were misread at 0.43-0.75 at the
# slant. It costs steeper rolls, but a die read surely at a moderate slant, the common
# photo, is not put at the mercy of a roll's mean: with 0.3 instead, upright rolls read
# 84, 66, 57 and 43 of 96 at 35, 40, 45 and 50 degrees (85, 69, 56 and 38 with 0.2;
# both at session 64's slants)
KEEP = 0.2
# The first look (`steeper_worth_reading`): this many of the roll's dice, read by the first
# reader alone as found and at these slants, tell whether to read the whole roll at every
# slant. A roll of six seen from above pays for nine crops of one reader, not thirty of
# the readers. Measured against reading every roll at every slant (40, 45 and 50 degrees
# upright: 72, 60 and 44 rolls of 96), this look, at the mildest and the farthest moved,
# loses a roll at 45 degrees and one at 50 (at the mildest and the one moved 0.25: none
# and 3). At session 64's slants it lost none, and the first reader at the mildest slant
# alone lost 3 and 7 on three dice, 1 and 5 on every die
FIRST_DICE = 3
FIRST_SLANTS = (SLANTS[0], SLANTS[-1])  # (the mildest, and the one moved furthest)
# The crops as found, among the slants: not moved, not stretched
AS_FOUND = (0.0, 1.0)
# A roll of fewer dice is not judged: one die's confidence is too little to tell a slant by
ROLL_LEAST = 2
# `log(confidence + FLOOR)`: a die read at 0 counts as much as one read at 0.001
FLOOR = 1e-3


def clarity(probs: np.ndarray) -> float:
    """The mean over a roll's dice of the log of each die's confidence (`readings`)."""
    return float(np.mean(np.log(readings(probs)[1] + FLOOR)))


def steeper_worth_reading(as_found: np.ndarray, *at_first: np.ndarray) -> bool:
    """Whether to read a roll at every one of `SLANTS`: only if some dice's crops at one of
    `FIRST_SLANTS` (each of them dice x 7) read more clearly than as found (`as_found`). On the dev
    photos 54 of 307 rolls of two dice or more read on (none then taken at a slant)."""
    return len(as_found) >= ROLL_LEAST and max(map(clarity, at_first)) > clarity(as_found)


def slant_taken(as_found: np.ndarray, at_slants: np.ndarray) -> int:
    """Which of `SLANTS` to read a roll at: given the readers' scores of its dice's crops
    cut as found (dice, 7) and at each slant (slants, dice, 7), the slant read most clearly
    if it beats the crops as found by `GAIN`; else -1 (a roll under `ROLL_LEAST` dice: -1)."""
    if len(as_found) < ROLL_LEAST or not len(at_slants):
        return -1
    clear = [clarity(probs) for probs in at_slants]
    best = int(np.argmax(clear))
    return best if clear[best] - clarity(as_found) > GAIN else -1


def taken_dice(read_as: np.ndarray, at_slant: np.ndarray) -> np.ndarray:
    """Which dice of a roll read at a slant take their reading there: all but those the
    roll as read (`read_as`, dice x 7) read `KEEP` more surely than the slant (`at_slant`)."""
    return ~(readings(read_as)[1] > readings(at_slant)[1] + KEEP)


def moved_up(found: np.ndarray, shift: float) -> np.ndarray:
    """The finds (x, y, side, score) with their centres moved `shift` of their side up."""
    out = np.array(found, np.float32, copy=True)
    out[:, 1] -= shift * out[:, 2]
    return out
