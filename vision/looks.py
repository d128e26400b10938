"""The finder's looks at one image, at a scale: over all of it or over pieces of it, their
finds read; and the look at the scale that makes the dice the finder's best size.

`Looks` holds `read`'s settings for one image and what every other step asks of a look:
the finder's finds at a scale (`centres_at`, `Looks.finds`), read (`Looks.look`), which
of them count as dice (`Looks.confirmed`, `Looks.typical`), and the closer or farther look
at the roll's own size, over the pieces of the image around its finds (`Looks.refitted`,
`_pieces`). The looks for dice too big or too small for a look (`coarser_looks.py`,
`finer_looks.py`) and the roll reported (`roll.py`) extend it; `reader.read` decides which
looks to take, and in what order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from . import faces
from .closeup import look_like_pips
from .faces import SURE_AGAIN
from .finds import (
    confirmed_dice,
    count_once,
    near_pairs,
    not_lookalike,
    readings,
    roll_sized,
    surely_read,
)
from .model import FINDER_VIEWS, Halvings, Views, find_centres, resize


def centres_at(
    image: np.ndarray,
    scale: float,
    min_score: float,
    views: Views,
    *,
    halvings: Halvings | None = None,
    sees: float | None = None,
) -> np.ndarray:
    """Die centres (x, y, side, score) in image pixels, found at the given scale by the
    finder's `views` looks. `halvings`: the image's, where kept (`model.Halvings`);
    `sees`: `find_centres`'."""
    scaled = resize(image, scale) if halvings is None else halvings.resize(scale)
    found = find_centres(scaled, min_score=min_score, views=views, sees=sees)
    found[:, :3] /= scale
    return found


# A roll with dice read surely but none this surely takes the look at twice the scale
# (`read`); a lone unread die (a logo) does not pay for it
CLEARLY = 0.9


# The finder's looks at each scale unless `read` is told otherwise: one. Four (all of
# `model.FINDER_VIEWS`) found more dice in hard photos (grey, dim, tilted, far smaller or
# bigger) but misread small dark dice in piles that one look reads right (sample photos
# with their colours turned), and cost a read two to two and a half times the time (a
# 1080p frame 9-10 to 18-23 ms, six dice 14-19 to 34-44, against a target of 25;
# docs/vision-log.md, session 36). For photos over `reader.FRAME_SIDE` alone, where time allows
# more, four (or two) looks read a battery of big photos made hard worse than one
# (session 37).
FINDER_LOOKS = 1


# A closer look at small dice covers the finds of the first look (not only the confirmed
# dice: dice under the finder's trained size, 14 px, are often found but not confirmed), each
# with this many typical die sides around it: the finder sees about 1.6 sides each way
# around a centre (111 pixels for dice of 34), so a die this far inside its piece is found
# as in the whole frame
REFIT_MARGIN = 2.0


def _pieces(
    found: np.ndarray, size_wh: tuple[int, int], *, margin: float, dice: np.ndarray
) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) that cover every find with `margin` typical die sides around
    it: one box a find; boxes that overlap are merged into the box around both, and so are
    boxes holding `dice` (confirmed ones) closer than `margin` sides to each other, so a
    cluster of dice stays one piece, gaps and all (a die the first look missed among them
    is found), while a find that is no die (a speck, a shadow) is looked at on its own,
    however near. The finder's time follows the pixels it is shown (docs/vision.md: Speed)."""
    if not len(found):
        return []
    pad = margin * float(np.median(found[:, 2]))  # also the gap that merges dice's boxes
    w, h = size_wh
    boxes = [
        [
            max(0, int(x - pad)),
            max(0, int(y - pad)),
            min(w, int(np.ceil(x + pad))),
            min(h, int(np.ceil(y + pad))),
        ]
        for x, y in found[:, :2].tolist()
    ]
    holds_dice = [bool(v) for v in dice]
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(len(boxes) - 1, i, -1):
                a, b = boxes[i], boxes[j]
                gap = pad if holds_dice[i] and holds_dice[j] else 0.0
                if (
                    a[0] < b[2] + gap
                    and b[0] < a[2] + gap
                    and a[1] < b[3] + gap
                    and b[1] < a[3] + gap
                ):
                    boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    holds_dice[i] = holds_dice[i] or holds_dice[j]
                    del boxes[j], holds_dice[j]
                    merged = True
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in boxes]


@dataclass(frozen=True, eq=False)
class Looks:
    """The looks `read` can take at one (brightened) image, under `read`'s settings (its
    parameters of the same names; `roll_size` is its `min_relative_side` and
    `max_relative_side`): the finder's finds at a scale, read (`finds`, `look`), what counts
    among them (`confirmed`, `typical`, `read_surely`, `read_clearly`), and the look at the
    scale that makes the dice the finder's best size (`refitted`). The looks for dice too big
    or too small for a look, and the roll made of the finds, build on it (`coarser_looks.py`,
    `finer_looks.py`, `roll.py`; `reader._Looks` is all of them)."""

    image: np.ndarray
    min_score: float
    min_dieness: float
    min_unread_dieness: float
    min_sure_score: float
    roll_size: tuple[float, float]  # (least and most side, relative to the roll's typical)
    target_side_px: float
    rotations: int
    views: Views = FINDER_VIEWS[:FINDER_LOOKS]  # the finder's looks at each scale
    gain: float = 1.0  # what `light.brightening` scaled the image by (its noise too)
    lift: np.ndarray | None = None  # or, pixel by pixel, its shadows (`shadows_lifted`)
    # the image as given, where the roll's smeared dice are held under the asking level
    # (`smear.held`); None: not looked for (`read`'s `doubt_smears`)
    smeared_in: np.ndarray | None = None

    @cached_property
    def halvings(self) -> Halvings:
        """The image's halvings, made once for every look at the whole image."""
        return Halvings(self.image)

    @property
    def w(self) -> int:
        return self.image.shape[1]

    @property
    def h(self) -> int:
        return self.image.shape[0]

    def confirmed(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """Which finds count as dice (`finds.py`'s `confirmed_dice`), as a mask."""
        return confirmed_dice(found[:, 3], probs, self.min_dieness, self.min_sure_score)

    def finds(
        self,
        scale: float,
        boxes: list[tuple[int, int, int, int]] | None = None,
        *,
        min_score: float | None = None,
    ) -> np.ndarray:
        """The finder's finds at `scale` (in `boxes` of the image only, if given), scored
        over `min_score` (default the look's; a big die is placed as at the look's)."""
        parts: list[np.ndarray] = []
        for x0, y0, x1, y1 in [(0, 0, self.w, self.h)] if boxes is None else boxes:
            whole = (x0, y0, x1, y1) == (0, 0, self.w, self.h)
            part = centres_at(
                self.image[y0:y1, x0:x1],
                scale,
                self.min_score if min_score is None else min_score,
                self.views,
                halvings=self.halvings if whole else None,
                sees=self.min_score,
            )
            part[:, 0] += x0
            part[:, 1] += y0
            parts.append(part)
        return np.concatenate(parts) if parts else np.zeros((0, 4), np.float32)

    def look(
        self,
        scale: float,
        boxes: list[tuple[int, int, int, int]] | None = None,
        known: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The finder's finds at `scale` (in `boxes` of the image only, if given), read."""
        found = self.finds(scale, boxes)
        return found, self.classify(found, known)

    @property
    def lifts_dark_faces(self) -> bool:
        """Whether the vote on a die also reads its face lifted where it is dark
        (`light.dark_face_lifted`): not in a frame scaled for the dark or with a shadow
        lifted, whose noise was scaled with it."""
        return self.gain == 1.0 and self.lift is None

    def classify(
        self, found: np.ndarray, known: tuple[np.ndarray, np.ndarray] | None = None
    ) -> np.ndarray:
        """The readers' scores for finds in the image (`faces.classify`), dark faces lifted
        for the vote where `lifts_dark_faces`."""
        return faces.classify(
            self.image,
            found,
            self.rotations,
            self.min_dieness,
            known=known,
            lift_dark=self.lifts_dark_faces,
        )

    def fit_scale(self, found: np.ndarray, probs: np.ndarray) -> float:
        """The scale at which the confirmed dice are `target_side_px` across."""
        return min(
            2.0, self.target_side_px / float(np.median(found[self.confirmed(found, probs), 2]))
        )

    def too_small(self, scale: float) -> bool:  # the whole image under 64 pixels: nothing to see
        return max(self.w, self.h) * scale < 64

    def refit_scale_of(self, found: np.ndarray, probs: np.ndarray, scale: float) -> float | None:
        """The scale that makes the confirmed dice `target_side_px` across, when they are
        far from it at `scale` (a factor 1.5) and the image is not too small there."""
        if not self.confirmed(found, probs).any():
            return None
        refit_scale = self.fit_scale(found, probs)
        if 1 / 1.5 < refit_scale / scale < 1.5 or self.too_small(refit_scale):
            return None
        return refit_scale

    def refitted(
        self, found: np.ndarray, probs: np.ndarray, scale: float, owed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, float]:
        """The finds (looked at at `scale`) again at `refit_scale_of`, if any. A closer look
        covers only the pieces around the finds (`_pieces`); dice read surely and finds
        more likely no die, found at about the same place and size, and finds rejected at
        nearly the same place and size, are not read again (`faces.classify`), nor are finds
        whose reading still `owed` a vote taken as known. If the dice a closer look finds
        are still far under the size, it looks once more, closer: dice under the finder's
        trained size are found as blots bigger than they are (dice of 8-10 pixels as finds
        of 13-30), so the first closer look stops short of the size. A die read surely
        before a look that the look takes for a die but does not report is kept as read
        before (`kept_from`), and a die read surely before a look farther away that the
        look lost is added back (`lost_dice`). Also returns the scale of the last look
        taken."""
        for again in (False, True):
            refit_scale = self.refit_scale_of(found, probs, scale)
            if refit_scale is None or (again and refit_scale < scale):
                break
            closer = refit_scale > scale
            boxes = (
                _pieces(
                    found, (self.w, self.h), margin=REFIT_MARGIN, dice=self.confirmed(found, probs)
                )
                if closer
                else None
            )
            known = (found, probs) if owed is None else (found[~owed], probs[~owed])
            found, probs = self.look(refit_scale, boxes, known=known)
            found, probs = self.kept_from(known[0], known[1], found, probs)
            scale, owed = refit_scale, None
            if not closer:  # (a look farther away is not taken twice)
                lost = self.lost_dice(found, probs, *known)
                found = np.concatenate([found, known[0][lost]])
                probs = np.concatenate([probs, known[1][lost]])
                break
        return found, probs, scale

    def lost_dice(
        self, found: np.ndarray, probs: np.ndarray, before: np.ndarray, before_probs: np.ndarray
    ) -> np.ndarray:
        """Which dice the look `before` a look farther away (`refitted`, `found`) read
        surely that the farther look lost (takes nothing for a die near: centres within
        half the bigger side), as a mask; none unless it reads fewer dice of the roll's
        size (`typical`) surely and lost one read clearly (`CLEARLY`). That look read such
        dice at its size, so they were not too big for it: six red dice of 72 px drawn at
        35 degrees on planks, their cubes found at 80-114 px and all read at 0.86-0.95,
        were found as one from a third farther. The die read clearly is needed: a side
        face found as a die of its own beside its die and read at 0.58 (surely, not
        clearly) is rightly lost, though the farther look then reads one die fewer surely."""
        sure = self.confirmed(before, before_probs) & surely_read(before_probs)
        near = near_pairs(before, found, overlap=0.5)
        lost = sure & ~(near & self.confirmed(found, probs)).any(axis=1)
        if not (lost & self.read_clearly(before, before_probs)).any():
            return np.zeros(len(before), bool)

        def sure_of_size(found: np.ndarray, probs: np.ndarray) -> int:
            kept = self.typical(found, probs)
            return count_once(found, kept[surely_read(probs[kept])])

        if sure_of_size(found, probs) >= sure_of_size(before, before_probs):
            return np.zeros(len(before), bool)
        return lost

    def kept_from(
        self, before: np.ndarray, before_probs: np.ndarray, found: np.ndarray, probs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The finds and readings of a look at the roll's own size (`refitted`, closer or
        farther), with the dice the look `before` it reported and read surely
        (`SURE_AGAIN`) kept as they were where the new look takes something near for a
        die (`confirmed`; centres within half the bigger side) but reports none there: it
        may find such a die at another size and read it worse (a red 3 of 24 pixels drawn
        at a slant, read at 0.79 at the first look, was found a third smaller by the closer
        one, read there as a 2 at 0.43 and left out of the roll). Where the new look takes
        nothing there for a die, the die is not kept: kept so, the windows of polka dots
        and of a printed cloth that the new look took for the cloth came back."""
        was = self.reported(before, before_probs) & (readings(before_probs)[1] >= SURE_AGAIN)
        if not was.any() or not len(found):
            return found, probs
        near = near_pairs(before, found, overlap=0.5)
        was &= (near & self.confirmed(found, probs)).any(axis=1)
        was &= ~(near & self.reported(found, probs)).any(axis=1)
        return np.concatenate([found, before[was]]), np.concatenate([probs, before_probs[was]])

    def read_surely(self, found: np.ndarray, probs: np.ndarray) -> int:
        """How many finds are dice read surely (a die found twice counted once)."""
        return count_once(found, self.confirmed(found, probs) & surely_read(probs))

    def read_clearly(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """Which finds are dice read clearly (`CLEARLY`)."""
        return self.confirmed(found, probs) & (readings(probs)[1] >= CLEARLY)

    def readable(self, found: np.ndarray, probs: np.ndarray, *, finder_sure: bool = False) -> bool:
        """Whether some confirmed die is read (and, with `finder_sure`, found surely)."""
        read = self.confirmed(found, probs) & surely_read(probs)
        if finder_sure:
            read &= found[:, 3] >= self.min_sure_score
        return bool(read.any())

    def typical(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The confirmed finds of the roll's typical size (`roll_sized`), as indices."""
        kept = np.nonzero(self.confirmed(found, probs))[0]
        if len(kept) >= 2:
            kept = kept[roll_sized(found[kept], *self.roll_size, sure=surely_read(probs[kept]))]
        return kept

    def straight_to_refit(
        self, found: np.ndarray, probs: np.ndarray, owed: np.ndarray, scale: float
    ) -> bool:
        """Whether the first look's finds go straight to a closer look (`refit_scale_of`
        above `scale`) whatever the vote `owed` to some of them says: a die found surely
        is read surely by a glance that owes no vote (so no coarser look comes next, nor
        a finer one for dice too small, though half the roll unread may still send it to
        twice the scale first), and they do not look like pips even with every find owed
        a vote taken as unread (so no look for bigger dice). The closer look reads again
        every find the glance left unsure, cut to the size it finds there, so their vote
        can wait for it: a vote now would be thrown away (on the six-dice benchmark
        frame, two dice were voted on twice). A look farther away (a close-up) takes the
        vote first, as before: there it decides which finds are dice."""
        final = self.confirmed(found, probs) & surely_read(probs) & ~owed
        if not (final & (found[:, 3] >= self.min_sure_score)).any():
            return False
        kept = self.typical(found, probs)
        values, confidences = readings(probs[kept])
        if look_like_pips(values, np.where(owed[kept], 0.0, confidences)):
            return False
        return (self.refit_scale_of(found, probs, scale) or 0.0) > scale

    def reported(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The finds `roll` reports (before dropping doubles and odd sizes)."""
        return self.confirmed(found, probs) & not_lookalike(probs, self.min_unread_dieness)
