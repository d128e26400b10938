"""The looks at coarser scales, for dice too big for a look: its pips look like little dice,
and windows of its face like dice of two or three.

A close-up's dice are found at a half, a quarter, an eighth or a sixteenth of the first
look's scale (`look_until`, `dice_behind`; `closeup.py` tells their pips from a pile of
dice), a photo's near dice at a slant at half the roll's scale (`CoarserLooks.nearer`),
and a die the first look found as pieces put in whole (`CoarserLooks.wholes`). These
looks all ask one question, whether a die is too big for the look that found it, so they
live together, apart from the finder's looks at one scale (`looks.py`) and the look at
twice the scale for dice too small (`finer_looks.py`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import looks
from .closeup import crowd, explains, holds
from .finds import (
    centre_inside,
    count_once,
    dedupe,
    distances,
    maybe_dice,
    near_pairs,
    readings,
    surely_read,
)
from .looks import REFIT_MARGIN, Looks
from .model import FINDER_VIEWS, Views
from .perspective import fit_sizes, relative_sides

# The coarser looks' finder looks: one. They look for dice far too big for the finder (a
# close-up's), whose mirrored looks peak cells apart, so that averaged they split the die.
# (The look for a `crowd` in a close-up's die, at twice the scale, takes `read`'s looks.)
COARSE_VIEWS: Views = FINDER_VIEWS[:1]


# The coarser looks' smallest, in pixels on the short side: a die filling the frame is then
# about the finder's best size (32). A die filling a 16:9 frame's height is 45 pixels at an
# eighth of a frame's first look (640x360), and one filling a 4:3 photo's at a sixteenth of
# a photo's (960x720; an eighth was 90). Until session 40 it was 40, and a photo of one die
# cut close (a 150-pixel crop, a die of 125: the look that would see it at 31 pixels was
# 37 on its short side) was read as its pips, or not at all: of 1,280 such close-ups cut
# from the three dev folders and sample_images/ (scripts/single_die_crops.py; the held-out
# fudw_tray measured, not tuned on), 1,232 were read right at 40 and 1,255 at 24.
SMALLEST_LOOK = 24


def look_until(
    image: np.ndarray,
    scale: float,
    min_score: float,
    classify: Callable[[np.ndarray], np.ndarray],
    accept: Callable[[np.ndarray, np.ndarray], bool],
    candidates: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Look at a half, a quarter, an eighth and a sixteenth of `scale` until
    `accept(found, probs)`: a die far too big for the finder at one scale (its pips then
    look like little dice) is the right size at a smaller one. Only the finds `candidates`
    keeps are read, by `classify` (`looks.Looks.classify`). Returns the finds, their scores
    and the scale they were found at (none: `scale`). The smallest look is `SMALLEST_LOOK`
    pixels on the short side."""
    h, w = image.shape[:2]
    for k in (2, 4, 8, 16):
        if min(w, h) * scale / k < SMALLEST_LOOK:
            break
        found = looks.centres_at(image, scale / k, min_score, COARSE_VIEWS)
        if candidates is not None:
            found = found[candidates(found)]
        probs = classify(found)
        if accept(found, probs):
            return found, probs, scale / k
    return np.zeros((0, 4), np.float32), np.zeros((0, 7), np.float32), scale


def dice_behind(
    pips: np.ndarray,
    image: np.ndarray,
    scale: float,
    min_score: float,
    classify: Callable[[np.ndarray], np.ndarray],
    confirmed: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The bigger dice whose pips `pips` may be: at coarser scales, finds that hold some of
    them are read (by `classify`), until some `explains` them."""
    found, probs, _ = look_until(
        image,
        scale,
        min_score,
        classify,
        lambda found, probs: explains(found, probs, pips, confirmed),
        lambda found: np.asarray(holds(found, pips).any(axis=1)),
    )
    return found, probs


# A find this many times smaller than a die read clearly at a coarser look, inside it, may
# be its pip (a pip is under a fifth of the side, its find about as big); dice in a block
# of two or three a side are a half or a third of the block's side (`reads_better`)
_PIECE_SIDES = 3.5


# Where a photo's slant makes the near dice this many times the finder's best size at the
# roll's look, a look at half the scale looks for them (`read`, `nearer`)
NEAR_TOO_BIG = 1.5


# A find under this share of a bigger find's side, inside it, may be a piece of it (a pip,
# a window of its face); one over it, at its centre, is that die found whole (`wholes`)
_WHOLE = 0.85


def _box_around(
    found: np.ndarray, pad: float, size_wh: tuple[int, int]
) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) around the finds' centres, `pad` wider each way, within the
    image; None for no finds."""
    if not len(found):
        return None
    w, h = size_wh
    x0, y0 = (int(v) for v in np.maximum(found[:, :2].min(axis=0) - pad, 0.0))
    x1, y1 = (int(np.ceil(v)) for v in np.minimum(found[:, :2].max(axis=0) + pad, (w, h)))
    return x0, y0, x1, y1


class CoarserLooks(Looks):
    """`Looks` with the looks at coarser scales, for dice too big for a look: whether a
    close-up's dice are a crowd of small ones (`dice_within`), a slant's near dice
    (`nearer`), dice found as pieces (`wholes`, `mixed`, `holds_pieces`), and whether a
    coarser look reads the roll better (`reads_better`)."""

    def nearer(
        self, found: np.ndarray, probs: np.ndarray, scale: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """The finds (looked at at `scale`) with the dice near the camera of a photo taken at
        a slant, which may be too big for that look (their pips found as little dice, or
        the die found too small to read). Where the roll's sizes (`perspective.fit_sizes`)
        put dice over `NEAR_TOO_BIG` times `target_side_px` at `scale`, a look at half the
        scale, over the box around the finds there (`REFIT_MARGIN` such dice wider each
        way), adds the dice it finds there that are not already found, none holding a
        confirmed find of the size expected at its place (a pile of dice seen as one, or a
        die already read), and drops the smaller finds inside them (their pips). A die is
        taken as anywhere (`confirmed_dice`), so one the readers cannot read is reported
        unsure (taking only dice read surely lost 12 near dice of 20 `fudw_tray` photos
        tilted 50 degrees, most blurred by the warp, and 5 of 60 `byler_d6` ones).

        Then, slant or none (too few dice confirmed to fit one, as when the near dice are
        all too big to be read at this look, or a fit through the far dice's misjudged
        sizes that runs the wrong way), a second look at half the scale goes over the
        box around the finds still not taken for dice (nor inside one) that have another
        such find within two `NEAR_TOO_BIG` dice: a die too big for this look is found as
        pieces (its pips), a speck alone (a look around every leftover find cost a photo
        2-5 ms). So is a lone one the finder is sure of (`min_sure_score`) and the readers
        call no die: a near die showing 1 gives one piece, its pip, found as a die of the
        far dice's size (drawn rolls of a near 1 two and a half to three times two far
        dice lost it; in the dev folders, one such look a `byler_d6` photo, about 0.3 ms,
        and no figure of the stress batteries moved; session 46). It adds the dice it finds
        over such a find that are over `NEAR_TOO_BIG` times `target_side_px` at `scale` and
        read surely (no slant vouches for a die that big; taken unsure too, they were
        mostly a cloth's pattern or a box's edge), none
        near or holding a confirmed find of `min_relative_side` times the roll's median
        side or more (a die already there, or a pile of dice seen as one), and drops the
        finds under that size inside them (session 44: `byler_d6` tilted 50
        degrees with a wide lens, recall 93.6% to 95.1% and rolls 46.7% to 51.7%; the
        rest of the `base` battery gained 0.4 points of precision and of faces on
        `fudw_tray` so tilted, and lost a fifth of a point of precision to an owl on the
        held-out table's cloth read as a 5 at 0.59, in a 12 MP photo). The looks are
        separate: one look over both boxes saw the slant's dice differently (the finder's
        finds move with the crop's alignment).

        A near die that gave no find at all is not looked for: a look over all of the image
        where the plane expects such dice cost 6 ms on 5 of 84 `byler_d6` photos in 1080p
        frames and found about as many on tilted photos. (Looking only around finds the
        readers took for more likely a die than not and could not read lost near dice.)"""
        coarse = scale / 2
        if self.too_small(coarse):
            return found, probs
        too_big = NEAR_TOO_BIG * self.target_side_px / scale  # (image pixels)
        if not np.isfinite(too_big):  # (no die can be that big)
            return found, probs
        found, probs = self._near_by_slant(found, probs, coarse, too_big)
        return self._near_by_pieces(found, probs, coarse, too_big)

    def _roll_dice(self, found: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which finds are confirmed dice (a mask), and those dice each counted once
        (indices)."""
        is_die = self.confirmed(found, probs)
        dice = np.nonzero(is_die)[0]
        return is_die, dice[dedupe(found[dice], found[dice, 3])]

    def _coarse_look(self, box: tuple[int, int, int, int], scale: float) -> np.ndarray:
        """The finder's finds in the box (x0, y0, x1, y1) of the image, at `scale`."""
        x0, y0, x1, y1 = box
        big = looks.centres_at(self.image[y0:y1, x0:x1], scale, self.min_score, self.views)
        big[:, 0] += x0
        big[:, 1] += y0
        return big

    def _near_by_slant(
        self, found: np.ndarray, probs: np.ndarray, coarse: float, too_big: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """`nearer`'s look where the slant puts dice over `too_big` (image pixels)."""
        is_die, dice = self._roll_dice(found, probs)
        plane = fit_sizes(found[dice], band=self.roll_size, sure=surely_read(probs[dice]))
        if plane is None:
            return found, probs
        there = found[plane.at(found[:, :2]) >= too_big]
        box = _box_around(there, REFIT_MARGIN * too_big, (self.w, self.h))
        if box is None:
            return found, probs
        big = self._coarse_look(box, coarse)
        expected = plane.at(big[:, :2])
        relative = big[:, 2] / expected
        lowest, highest = self.roll_size
        candidate = (expected >= too_big) & (relative >= lowest) & (relative <= highest)
        # confirmed finds of the expected size: dice, not pips (which do not veto a big die)
        real = is_die & (relative_sides(found, plane) >= lowest)
        return self._with_big_dice(found, probs, big[candidate], real, ~real, surely=False)

    def _near_by_pieces(
        self, found: np.ndarray, probs: np.ndarray, coarse: float, too_big: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """`nearer`'s look over finds not taken for dice that lie in twos or more."""
        is_die, dice = self._roll_dice(found, probs)
        left = ~is_die & ~centre_inside(found[is_die], found).any(axis=0)
        # (a die too big for the look gives pieces, its pips, up to a near die's side apart;
        # a speck comes alone, and looking around every one cost a photo 2-5 ms; a near 1
        # comes alone too, found surely and read as no die)
        together = (distances(found[left], found[left]) < 2 * too_big).sum(axis=1) >= 2
        lone_pip = (found[left, 3] >= self.min_sure_score) & ~maybe_dice(probs[left])
        left[left] = together | lone_pip
        box = _box_around(found[left], REFIT_MARGIN * too_big, (self.w, self.h))
        if box is None:
            return found, probs
        big = self._coarse_look(box, coarse)
        candidate = (big[:, 2] >= too_big) & centre_inside(big, found[left]).any(axis=1)
        typical = float(np.median(found[dice, 2])) if len(dice) else np.inf
        pip_sized = found[:, 2] < self.roll_size[0] * typical
        real = is_die & ~pip_sized
        return self._with_big_dice(found, probs, big[candidate], real, pip_sized, surely=True)

    def _with_big_dice(
        self,
        found: np.ndarray,
        probs: np.ndarray,
        big: np.ndarray,
        real: np.ndarray,
        pip_sized: np.ndarray,
        *,
        surely: bool,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The finds with the `big` ones (a coarser look's) that the readers confirm (and, if
        `surely`, read surely), none near or holding a `real` find (a die already there), and
        without the `pip_sized` finds inside the big ones taken."""
        holds = near_pairs(big, found[real], overlap=0.5).any(axis=1)
        holds |= (centre_inside(big, found) & real[None, :]).any(axis=1)
        big = big[~holds]
        if not len(big):
            return found, probs
        big_probs = self.classify(big)
        take = self.confirmed(big, big_probs)
        if surely:
            take &= surely_read(big_probs)
        if not take.any():
            return found, probs
        big, big_probs = big[take], big_probs[take]
        stay = ~(pip_sized & centre_inside(big, found).any(axis=0))
        return np.concatenate([found[stay], big]), np.concatenate([probs[stay], big_probs])

    def wholes(
        self, found: np.ndarray, probs: np.ndarray, owed: np.ndarray, scale: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The first look's finds (at `scale`, read at a glance, `owed` a vote) with dice
        too big for that look put in whole, or None where there are none. A die over
        `NEAR_TOO_BIG` times `target_side_px` there is found as pieces: its pips, read as
        1s, and windows of two or three of them, read surely as 2s and 3s, overlapping each
        other; so a first look without two pairs of overlapping finds takes no look (after
        every first look, it cost every frame a look). The look at half the scale finds
        such a die whole: a find there that big holding two finds or more under `_WHOLE` of
        its side, read clearly (`CLEARLY`), replaces the finds inside it under
        `min_relative_side` of its side, unless the first look found that die whole (a
        confirmed find of `_WHOLE` of its side or more, near its centre) or two finds in it
        that may be dice (even odds) lie side by side, not overlapping as windows of one
        face do: a pile of dice seen as one."""
        coarse = scale / 2
        too_big = NEAR_TOO_BIG * self.target_side_px / scale
        if self.too_small(coarse) or not len(found):
            return None
        # (pieces of one face overlap: without two pairs of finds that do, no look)
        overlapping = near_pairs(found, found, overlap=0.5)
        if int(overlapping.sum()) - len(found) < 4:
            return None
        big = self.finds(coarse)
        inside = centre_inside(big, found)
        relative = found[None, :, 2] / big[:, None, 2]
        pieces = inside & (relative < _WHOLE)
        candidate = (big[:, 2] >= too_big) & (pieces.sum(axis=1) >= 2)
        if not candidate.any():
            return None
        big, inside, relative = big[candidate], inside[candidate], relative[candidate]
        # a die the first look found whole (about its size, at its centre) is no die's piece
        centred = distances(big, found) < big[:, None, 2] / 4
        whole = (inside & centred & (relative >= _WHOLE) & self.confirmed(found, probs)).any(1)
        # two dice side by side, not overlapping as windows of one face do: a pile
        maybe = maybe_dice(probs)
        apart = distances(found, found) >= 0.7 * np.maximum(found[:, None, 2], found[None, :, 2])
        piles = np.zeros(len(big), bool)
        for i in range(len(big)):
            held = np.flatnonzero(inside[i] & maybe & (relative[i] >= 1 / 3))
            piles[i] = bool(apart[np.ix_(held, held)].any())
        big = big[~piles & ~whole]
        if not len(big):
            return None
        big_probs = self.classify(big)
        take = self.read_clearly(big, big_probs)
        if not take.any():
            return None
        big, big_probs = big[take], big_probs[take]
        pieces = centre_inside(big, found) & (
            found[None, :, 2] < self.roll_size[0] * big[:, None, 2]
        )
        stay = ~pieces.any(axis=0)
        return (
            np.concatenate([found[stay], big]),
            np.concatenate([probs[stay], big_probs]),
            np.concatenate([owed[stay], np.zeros(len(big), bool)]),
        )

    def reads_better(
        self, big: np.ndarray, big_probs: np.ndarray, found: np.ndarray, probs: np.ndarray
    ) -> bool:
        """Whether a coarser look (`big`) reads the roll better than `found`: it reads more
        dice surely, or more clearly (`CLEARLY`) and as many surely when the sure finds its
        clear dice hold as pieces (centre inside, `_PIECE_SIDES` to `closeup.PIP_SIDES`
        times smaller) count once per holder. A close-up's pips, each read as a 4 at 0.5-0.6
        from a window of its neighbours, outnumbered the two dice read at 0.97 that hold
        them (session 45). Not where a clear die holds more such pieces that may be dice
        (even odds) than its value plus one: eight dice of 16 px in a 1080p frame, seen as
        one 3, a pile (windows of its face, over a pip's size, are left out)."""
        if self.read_surely(big, big_probs) > self.read_surely(found, probs):
            return True
        clear = self.read_clearly(big, big_probs)
        if count_once(big, clear) <= count_once(found, self.read_clearly(found, probs)):
            return False
        inside = self.pieces(big, big_probs, found)
        # (a piece the readers half doubt tells as much)
        if (inside[:, maybe_dice(probs)].sum(axis=1) > readings(big_probs)[0] + 1).any():
            return False  # a pile of dice seen as one
        sure = np.flatnonzero(self.confirmed(found, probs) & surely_read(probs))
        held = inside[:, sure]
        loose = np.zeros(len(found), bool)
        loose[sure[~held.any(axis=0)]] = True
        collapsed = count_once(found, loose) + count_once(big, np.asarray(held.any(axis=1)))
        return self.read_surely(big, big_probs) >= collapsed

    def dice_within(self, big: np.ndarray, big_probs: np.ndarray, scale: float) -> bool:
        """Whether the bigger dice a close-up seems to show are a `crowd` of small dice,
        seen by a look at twice `scale` (the first look's) over them. A tray of twenty
        dice of 8 pixels at the first look came out as one die read as a 6, its dice
        found as a few pips (with two finder draws of six)."""
        finer = min(1.0, 2.0 * scale)
        held = self.confirmed(big, big_probs)
        if finer <= scale or not held.any():
            return False
        x0, y0 = np.maximum(0, (big[held, :2] - big[held, 2:3] / 2).min(axis=0)).astype(int)
        x1, y1 = np.ceil((big[held, :2] + big[held, 2:3] / 2).max(axis=0)).astype(int)
        small, small_probs = self.look(finer, [(x0, y0, min(self.w, x1), min(self.h, y1))])
        return crowd(big, big_probs, small, small_probs, self.confirmed)

    def pieces(self, big: np.ndarray, big_probs: np.ndarray, found: np.ndarray) -> np.ndarray:
        """(len(big), len(found)): find j may be a piece (a pip) of `big`'s die i, read
        clearly (`CLEARLY`): inside it and `_PIECE_SIDES` to `closeup.PIP_SIDES` times
        smaller."""
        clear = self.read_clearly(big, big_probs)
        return np.asarray(holds(big, found, ratio=_PIECE_SIDES) & clear[:, None])

    def holds_pieces(
        self, big: np.ndarray, big_probs: np.ndarray, found: np.ndarray, probs: np.ndarray
    ) -> bool:
        """Whether a die among `big` read clearly holds two of the dice confirmed among
        `found` (each counted once) as pieces (`pieces`)."""
        dice = np.flatnonzero(self.confirmed(found, probs))
        dice = dice[dedupe(found[dice], found[dice, 3])]
        return bool((self.pieces(big, big_probs, found[dice]).sum(axis=1) >= 2).any())

    def mixed(self, found: np.ndarray, probs: np.ndarray, scale: float) -> bool:
        """Whether the confirmed finds at `scale` are of two sizes a roll seen straight
        down has not: one too big for the look (`NEAR_TOO_BIG` times `target_side_px`) and
        one a third of it or less (a close-up's windows of a face beside another die's
        pips; a steep slant's near and far dice too, so `read` asks `holds_pieces`)."""
        sides = found[self.confirmed(found, probs), 2]
        if len(sides) < 2:
            return False
        big = float(sides.max())
        return big * scale >= NEAR_TOO_BIG * self.target_side_px and 3 * sides.min() <= big
