"""The roll reported from a look's finds: which finds are the roll's dice, each counted once,
and the last readings of them.

`RollLooks.roll` takes the finds the last look left (`read` chose the look) and makes the
roll: the finds that count and are not lookalikes, with the unread dice of the roll's set
(`in_roll`), each die found twice counted once, a doubted find far over the roll's size
cut to it and read again (`cut_to_size`), the finds far from the roll's size dropped
(`sized`), the dice the finder missed that the set's colour shows (`coloured_in`,
`unread_patches`), dice read unsure read again with their crops moved (`recentred`,
`recentre.py`) or the roll read at a steep slant (`at_slant`, `slant.py`), and last the
detections, small and smeared dice held under the asking level (`small.py`, `smear.py`).
"""

from __future__ import annotations

import numpy as np

from . import faces, recentre, slant, small, smear
from .detections import Detections, DieDetection
from .finds import (
    clear_and_apart,
    clear_dice,
    dedupe,
    readings,
    roll_sized,
    surely_read,
    typical_sides,
)
from .light import LIFTED
from .looks import CLEARLY, Looks
from .marks import plain_faces
from .model import first_reader, glance
from .pattern import patterned
from .perspective import fit_sizes
from .same_set import (
    ALIKE_DICE,
    colour_patches,
    coloured_as,
    strangers,
    unread_dice_of_the_set,
)

# A find the finder doubts (a score under `read`'s `min_sure_score`) more than this many
# times the size the roll gives at its place is cut again at that size and read again
# (`RollLooks.cut_to_size`); any other find may be up to twice it (`finds.roll_sized`). On
# the dev photos the dice it doubts are at most 1.13 times their roll's, the floor's
# specks it took for dice at twice the photo's size 1.4 times or more
DOUBTED_MOST = 1.3


class RollLooks(Looks):
    """`Looks` with the steps from a look's finds to the roll reported (`roll`): which finds
    it takes (`in_roll`, `sized`, `cut_to_size`), the dice their colour shows (`coloured_in`,
    `unread_patches`), and its dice read again with their crops moved (`recentred`,
    `at_slant`)."""

    def gains_at(self, found: np.ndarray) -> np.ndarray:
        """What the image was scaled by at each find's centre (its noise too): a dark
        frame's `gain` everywhere, or the lift of the shadow the find lies in."""
        if self.lift is None:
            return np.full(len(found), self.gain)
        xs = np.clip(np.nan_to_num(found[:, 0]), 0, self.w - 1).astype(int)
        ys = np.clip(np.nan_to_num(found[:, 1]), 0, self.h - 1).astype(int)
        return self.lift[ys, xs].astype(np.float64)

    def cut_to_size(
        self, found: np.ndarray, probs: np.ndarray, once: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, bool]:
        """The roll's finds with those the finder doubts (a score under `min_sure_score`) over
        `DOUBTED_MOST` times the size the roll gives at their place cut again at that size and
        read again. That size is the roll's typical side (`finds.typical_sides`, over its finds
        each counted once); where the photo is at a slant (`perspective.fit_sizes`, fitted
        without the finds in question) a find must be over `DOUBTED_MOST` times the slant's size
        there too, and is cut to that (a near die is bigger than the median, a far one smaller).
        The dice the finder doubts are the ones hard to see (small, in a pile, at the frame's
        edge), not one bigger than the rest: such a find is a die it misjudged or no die. A wood
        floor's speck in `skovy_catan` read at twice its size came out as a die of 1.4-1.7 times
        the roll's, read as a 1, and cut to size is no die; a die of a pile found twice its
        size, cut to size, reads as it did. On the dev photos as shot no die the finder doubts
        is over 1.13 times its roll's. `once`: the finds that count a die found twice once
        (`dedupe`), for the roll's size. Also returns whether any find was cut."""
        if len(once) < 3:  # (of two dice, neither tells the other's size)
            return found, probs, False
        expected = np.full(len(found), float(np.median(found[once, 2])))
        expected[once] = typical_sides(found[once])
        over = (found[:, 3] < self.min_sure_score) & (found[:, 2] > DOUBTED_MOST * expected)
        if not over.any():  # (as a roll mostly is)
            return found, probs, False
        fit = np.zeros(len(found), bool)
        fit[once] = True
        fit &= ~over  # (a find in question does not vouch for its own size)
        plane = fit_sizes(found[fit], band=self.roll_size, sure=surely_read(probs[fit]))
        if plane is not None:
            expected = plane.at(found[:, :2])
            over &= found[:, 2] > DOUBTED_MOST * expected
        if not over.any():
            return found, probs, False
        found, probs = found.copy(), probs.copy()
        found[over, 2] = expected[over]
        probs[over] = self.classify(found[over])
        return found, probs, True

    def in_roll(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The finds `roll` reports: those `reported`, and the unread dice of the roll's set
        (`same_set`: a logo face the readers or the finder half doubt), ranked after them
        where two are one die found twice; of those unread, none with a plain face
        (`marks`: a button or a token), and, in a roll of one set, none of another colour
        (`same_set.strangers`: a cloth's motif). Returns the rank (-1: not reported)."""
        reported = self.reported(found, probs)
        of_set = unread_dice_of_the_set(self.image, found, probs, reported, self.min_dieness)
        sure = surely_read(probs)
        unread = (reported | of_set) & ~sure
        if unread.any():  # (a face read is marked; one unread must show its marks)
            plain = np.zeros(len(found), bool)
            plain[unread] = plain_faces(self.image, found[unread], self.gains_at(found[unread]))
            reported, of_set = reported & ~plain, of_set & ~plain
            odd = reported & ~sure  # (a die of the set unread is its colour already)
            if odd.any():
                dice = found[reported & sure]
                odd[odd] = strangers(self.image, found[odd], dice[dedupe(dice, dice[:, 3])])
                reported &= ~odd
        return np.where(reported, found[:, 3] + 1.0, np.where(of_set, found[:, 3], -1.0))

    def roll(self, found: np.ndarray, probs: np.ndarray) -> Detections:
        rank = self.in_roll(found, probs)
        listed = rank >= 0
        found, probs, rank = found[listed], probs[listed], rank[listed]
        keep = dedupe(found, rank)  # (a die found twice, once)
        found, probs, cut = self.cut_to_size(found, probs, keep)
        if cut:  # a find read again may be no die, and the die it duplicated then stays
            rank = self.in_roll(found, probs)
            keep = np.flatnonzero(rank >= 0)
            keep = keep[dedupe(found[keep], rank[keep])]
        found, probs, patches = self.coloured_in(*self.sized(found[keep], probs[keep]))
        found, probs = self.recentred(found, probs, also=patches)
        probs = self.at_slant(found, probs)  # (a patch too: read at the slant, it may be a die)
        keep = ~patches | self.read_as_dice(probs)  # (a patch's die, read clearly at last)
        keep |= self.unread_patches(found, probs, patches & ~keep)
        dets = small.held(_detections(found[keep], probs[keep], (self.w, self.h)))
        return dets if self.smeared_in is None else smear.held(self.smeared_in, dets)

    def unread_patches(self, found: np.ndarray, probs: np.ndarray, which: np.ndarray) -> np.ndarray:
        """Of the colour patches `which` (a mask) that no way read clearly, those to report
        as dice at the confidence they read (under 0.9; under 0.6 the player is asked):
        the readers all but sure each is a die (`min_unread_dieness`), none a window of a
        repeating pattern (`patterned`: polka dots of the set's colour read as 4s), none
        with a plain face (`plain_faces`, as `in_roll` asks of an unread find: the grey
        buttons on a tray's rim, in a noisy photo), and none in a dark frame scaled up
        (`light.brightened`) or a shadow lifted (`shadows_lifted`), whose noise the readers take
        for dice."""
        keep = which & (1.0 - probs[:, 0] >= self.min_unread_dieness)
        keep &= self.gains_at(found) <= LIFTED  # (a lit part)
        if not keep.any():
            return np.zeros(len(found), bool)
        idx = np.flatnonzero(keep)
        keep[idx[patterned(self.image, found[idx])]] = False
        idx = np.flatnonzero(keep)
        keep[idx[plain_faces(self.image, found[idx], self.gains_at(found[idx]))]] = False
        return keep

    def read_as_dice(self, probs: np.ndarray) -> np.ndarray:
        """Which finds are read clearly (`CLEARLY`) and all but surely dice
        (`min_unread_dieness`): what a patch of the set's colour must be to join the roll."""
        return clear_dice(probs, clearly=CLEARLY, dieness=self.min_unread_dieness)

    def coloured_in(
        self, found: np.ndarray, probs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The roll with the dice the finder missed that the set's colour may show
        (`same_set.colour_patches`: a patch of the colour two dice read surely share, a
        die's size, on a table of another colour), each read at the median side of those
        dice and all but surely a die (`min_unread_dieness`); and which finds they are.
        `roll` keeps those read clearly (`CLEARLY`), at once or with the crop moved
        (`recentred`: seen at a slant, a die's side faces have its colour too, and the
        patch's centre lies towards them). Red dice on an orange wood grain: the finder
        scores some 0.1-0.45 and the look at twice the scale (`filled_in`) misses them too,
        while their colour stands out (scripts/drawn_rolls.py; session 50). A patch the
        readers doubt is a die is left out: a red button or a printed motif."""
        none = np.zeros(len(found), bool)
        sure = surely_read(probs)
        if sure.sum() < ALIKE_DICE:  # (no colour two dice share)
            return found, probs, none
        centres = colour_patches(self.image, found[sure], found, halvings=self.halvings)
        if not len(centres):
            return found, probs, none
        more = np.zeros((len(centres), 4), np.float32)
        more[:, :2], more[:, 2] = centres, float(np.median(found[sure, 2]))
        more_probs = glance(faces.crops_of(self.image, more))[0]
        new = 1.0 - more_probs[:, 0] >= self.min_unread_dieness
        patches = np.concatenate([none, np.ones(int(new.sum()), bool)])
        return np.concatenate([found, more[new]]), np.concatenate([probs, more_probs[new]]), patches

    def recentred(
        self, found: np.ndarray, probs: np.ndarray, *, also: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The roll's scores with each die read unsure (`recentre.BELOW`), and those `also`
        marks read under `recentre.CLEARLY`, read again with its crop moved onto its top
        face, where a way reads it clearly (`recentre.best_way`: `SHIFT` off, or, for a die
        that took none and no other find lies near, with the ways `FARTHER` off too) or,
        failing that, the way the roll's other dice took, near or far, does
        (`recentre.roll_way`); finds and boxes unchanged. Only the open ways are read."""
        confidence = readings(probs)[1]
        again = confidence < recentre.BELOW
        if also is not None:
            again |= also & (confidence < recentre.CLEARLY)
        which = np.flatnonzero(again)
        if not len(which):
            return found, probs
        closed = recentre.closed_ways(found, which)
        if closed.all():
            return found, probs
        moved_probs = self._ways_read(found, which, closed, (recentre.SHIFT,))
        ways = [
            recentre.best_way(moved_probs[row], closed[row], dieness=self.min_dieness)
            for row in range(len(which))
        ]
        probs = probs.copy()
        for row, i in enumerate(which.tolist()):
            if ways[row] >= 0:
                probs[i] = moved_probs[row, ways[row]]
        far = np.flatnonzero((np.array(ways) < 0) & ~closed.any(axis=1))  # (alone, unread)
        if len(far) and recentre.FARTHER:  # (with the near ways: a side face may read
            # clearly only far out)
            farther = self._ways_read(found, which[far], closed[far], recentre.FARTHER)
            # (len(far), (1 + len(FARTHER)) * WAYS, 7), and none of their ways closed
            all_probs = np.concatenate([moved_probs[far], farther], axis=1)
            all_closed = np.tile(closed[far], 1 + len(recentre.FARTHER))
            for row, ways_probs, shut in zip(far.tolist(), all_probs, all_closed, strict=True):
                way = recentre.best_way(ways_probs, shut, dieness=self.min_dieness)
                if way >= 0:
                    probs[which[row]] = ways_probs[way]
                    ways[row] = way % recentre.WAYS
        shared = recentre.roll_way([way for way in ways if way >= 0])
        for row, i in enumerate(which.tolist()):
            if ways[row] < 0 and recentre.on_roll_way(
                moved_probs[row], closed[row], shared, probs[i], dieness=self.min_dieness
            ):
                probs[i] = moved_probs[row, shared]
        return found, probs

    def at_slant(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The roll's scores, read again at a steep slant where the readers read its dice
        more clearly so on the whole (`slant.slant_taken`): each die's crop moved up onto
        its top face and stretched upright, and its reading there taken unless the roll as
        read read it much more surely (`slant.taken_dice`); finds and boxes unchanged. The
        first reader's look at a few dice at two slants (`slant.steeper_worth_reading`) tells
        whether the roll is worth reading at every slant."""
        if len(found) < slant.ROLL_LEAST:
            return probs
        some = found[: slant.FIRST_DICE]  # (the slant is the camera's: a few dice show it)
        looked = (slant.AS_FOUND, *slant.FIRST_SLANTS)
        seen = first_reader(self._slanted(some, looked))
        if not slant.steeper_worth_reading(*seen.astype(np.float32).reshape(-1, len(some), 7)):
            return probs
        every = (slant.AS_FOUND, *slant.SLANTS)
        crops = self._slanted(found, every)
        # (the first reader's look at those few dice is not read again: a roll of two or
        # three, all of its dice, reads two slants of five afresh)
        at = np.full((len(every), len(found)), -1)  # (each crop's row in `seen`, or -1)
        for k, way in enumerate(looked):
            at[every.index(way), : len(some)] = np.arange(len(some)) + k * len(some)
        known = at.ravel()
        first = np.zeros((len(crops), 7), np.float64)
        first[known >= 0] = seen[known[known >= 0]]
        fresh = np.flatnonzero(known < 0)
        first[fresh] = first_reader([crops[i] for i in fresh])
        as_found, *at_slants = glance(crops, first=first)[0].reshape(-1, len(found), 7)
        which = slant.slant_taken(as_found, np.array(at_slants))
        if which < 0:
            return probs
        taken = slant.taken_dice(probs, at_slants[which])
        return np.where(taken[:, None], at_slants[which], probs)

    def _slanted(
        self, found: np.ndarray, slants: tuple[tuple[float, float], ...]
    ) -> list[np.ndarray]:
        """The readers' crops of the finds as seen from each of `slants` ((shift, stretch),
        `slant.SLANTS`): slant after slant, the finds in order within each."""
        return [
            crop
            for shift, stretch in slants
            for crop in faces.crops_of(self.image, slant.moved_up(found, shift), stretch=stretch)
        ]

    def _ways_read(
        self,
        found: np.ndarray,
        which: np.ndarray,
        closed: np.ndarray,
        shifts: tuple[float, ...],
    ) -> np.ndarray:
        """The readers' scores of the finds `which` with their crops moved each of `shifts`
        of a side each way, in one glance: (len(which), len(shifts) * WAYS, 7), a find's
        ways shift after shift, each crop cut at each of `recentre.SIDES` of the find's
        side and the clearest reading kept (`recentre.clearest`). A way `closed`
        ((len(which), WAYS), `recentre.closed_ways`) is closed at every shift: not read,
        and scored no die."""
        shut = np.tile(closed, len(shifts))  # (which, shifts * ways)
        moved = np.stack(
            [
                recentre.moved(found, which, shift=shift).reshape(len(which), -1, 4)
                for shift in shifts
            ],
            axis=1,
        ).reshape(-1, 4)
        flat = np.zeros((shut.size, 7), np.float32)
        flat[:, 0] = 1.0  # (a closed way: no die, never taken)
        open_ways = np.flatnonzero(~shut.ravel())
        at_sides = [recentre.narrowed(moved[open_ways], share) for share in recentre.SIDES]
        read = glance(faces.crops_of(self.image, np.concatenate(at_sides)))[0]
        flat[open_ways] = recentre.clearest(
            read.reshape(len(recentre.SIDES), len(open_ways), 7), dieness=self.min_dieness
        )
        return flat.reshape(len(which), -1, 7)

    def sized(self, found: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The roll's finds (each found once) none far from its typical size (`roll_sized`),
        but for the dice that stand clear of that rule (`finds.clear_and_apart`: read clearly,
        all but surely dice, alone), a 1 only if its face is the colour of another die of
        the roll read surely (`same_set.coloured_as`): a cloth's cartoon eyes read clearly
        as 1s, at every size, and only a colour tells them from a far die showing 1 (the
        held-out table's owl eyes, white, beside blue dice). Without a slant to go by (four
        dice read surely), a near die over twice the others' median, or a far die under 0.6
        of the mean of it and a near one, was dropped (`scripts/near_and_far.py`, drawn
        rolls of two and three dice 1.5 to 3 times apart in size: 70 of 144 read right
        before, 132 after, 137 with `nearer`'s look at a lone near 1; sparing 2-6 only,
        120; session 46)."""
        if len(found) < 2:
            return found, probs
        ok = roll_sized(found, *self.roll_size, sure=surely_read(probs))
        spared = clear_and_apart(found, probs, clearly=CLEARLY, dieness=self.min_unread_dieness)
        ones = spared & ~ok & (readings(probs)[0] == 1)
        if ones.any():
            dice = (ok | spared) & ~ones & surely_read(probs)
            spared[ones] = coloured_as(self.image, found[ones], found[dice])
        return found[ok | spared], probs[ok | spared]


def _detections(found: np.ndarray, probs: np.ndarray, size_wh: tuple[int, int]) -> Detections:
    """The dice confirmed as a roll, each found once and of the roll's size (`RollLooks.roll`
    sees to it), as detections in a `size_wh` image, left to right."""
    w, h = size_wh
    if not len(found):
        return Detections.empty(size_wh)
    values, confidences = readings(probs)
    dice = []
    for (x, y, side, _score), value, confidence in zip(
        found.tolist(), values.tolist(), confidences.tolist(), strict=True
    ):
        half = side / 2.0
        x0, y0 = max(0.0, x - half), max(0.0, y - half)
        x1, y1 = min(float(w), x + half), min(float(h), y + half)
        box = (round(x0), round(y0), max(1, round(x1 - x0)), max(1, round(y1 - y0)))
        dice.append(DieDetection(value, confidence, box, (float(x), float(y))))
    dice.sort(key=lambda d: (d.center_xy[0], d.center_xy[1]))
    return Detections(tuple(dice), (w, h))
