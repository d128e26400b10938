"""`read(image) -> Detections`: find every die, then read each one's top face.

Two steps, each a small network run by OpenCV's DNN module or, where it is installed,
ONNX Runtime (see `model.py`):

1. The die finder looks at the whole image, scaled so its long side is about 640 pixels,
   and marks die centres and sizes. If the dice come out very small or very large at that
   scale, it looks again at a scale where they are about 34 pixels across (a closer look
   covers only the pieces of the image around its finds), so the result does not depend
   on the camera's resolution or distance. Dice too big for the first look (a close-up:
   their pips look like little dice) are found at coarser scales, dice too small for it
   to read anything at twice the scale, and a very dark frame is scaled up first, its
   noise smoothed (`light.brightened`), as are the deep parts of a shadow across a lit
   frame (`light.shadows_lifted`).
2. The face readers (two networks, averaged) look at each die in the full-resolution image,
   in a crop normalised to the die's size, and give a probability for "not a die" and for
   each value 1-6; a die read unsure is read again with its crop moved onto its top face
   (a die seen at a slant, `recentre.py`).

A die the finder is sure of but whose face the reader cannot decide (a printed logo, glare,
a cocked die) is still reported, with a low confidence, so the player confirms that one die,
if the readers are all but sure it is a die (0.9, `not_lookalike`).

This module takes the looks (which scales, which pieces of the image, in what order);
`finds.py` holds the arithmetic on their finds and scores (what counts as a die, one die
found twice), `closeup.py` the tests that tell a close-up's pips from a pile of dice, and
`light.py` the lifting of a dark frame or a shadow before any look.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from . import recentre, slant, small, smear
from .closeup import crowd, explains, holds, look_like_pips, stands
from .detections import Detections, DieDetection
from .finds import (
    centre_inside,
    clear_and_apart,
    clear_dice,
    confirmed_dice,
    count_once,
    dedupe,
    distances,
    maybe_dice,
    near_pairs,
    not_lookalike,
    readings,
    roll_sized,
    same_finds,
    surely_read,
    typical_sides,
)
from .light import LIFTED, brightening, lifted, shadows_lifted
from .marks import plain_faces
from .model import (
    FINDER_VIEWS,
    Halvings,
    Views,
    crop_die,
    det_scale,
    find_centres,
    finder_views,
    first_reading,
    glance,
    resize,
    vote,
)
from .pattern import patterned
from .perspective import fit_sizes, relative_sides
from .same_set import (
    ALIKE_DICE,
    colour_patches,
    coloured_as,
    strangers,
    unread_dice_of_the_set,
)


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if isinstance(image, (str, bytes, os.PathLike)):  # (the two likeliest slips, said so)
        raise ValueError(
            "read() takes a decoded image array: read a file with vision.load_image(path), "
            "bytes with vision.decode_image(data)"
        )
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise ValueError("image must be a non-empty numpy array")
    if image.ndim == 3 and image.shape[2] == 1:  # (a grey image kept with its channel axis)
        image = image[:, :, 0]
    if image.dtype != np.uint8:
        raise ValueError(f"image must be uint8, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be HxW, HxWx3 or HxWx4, got shape {image.shape}")
    return image


def _centres_at(
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


def _coarser(
    image: np.ndarray,
    scale: float,
    min_score: float,
    min_dieness: float,
    rotations: int,
    accept: Callable[[np.ndarray, np.ndarray], bool],
    candidates: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Look at a half, a quarter, an eighth and a sixteenth of `scale` until
    `accept(found, probs)`: a die far too big for the finder at one scale (its pips then
    look like little dice) is the right size at a smaller one. Only the finds `candidates`
    keeps are read. Returns the finds, their scores and the scale they were found at
    (none: `scale`). The smallest look is `SMALLEST_LOOK` pixels on the short side."""
    h, w = image.shape[:2]
    for k in (2, 4, 8, 16):
        if min(w, h) * scale / k < SMALLEST_LOOK:
            break
        found = _centres_at(image, scale / k, min_score, COARSE_VIEWS)
        if candidates is not None:
            found = found[candidates(found)]
        probs = _classify(image, found, rotations, min_dieness)
        if accept(found, probs):
            return found, probs, scale / k
    return np.zeros((0, 4), np.float32), np.zeros((0, 7), np.float32), scale


def _dice_behind(
    pips: np.ndarray,
    image: np.ndarray,
    scale: float,
    min_score: float,
    min_dieness: float,
    rotations: int,
    confirmed: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The bigger dice whose pips `pips` may be: at coarser scales, finds that hold some of
    them are read, until some `explains` them."""
    found, probs, _ = _coarser(
        image,
        scale,
        min_score,
        min_dieness,
        rotations,
        lambda found, probs: explains(found, probs, pips, confirmed),
        lambda found: np.asarray(holds(found, pips).any(axis=1)),
    )
    return found, probs


# The face reader's second look at a die it is unsure of partly uses a crop with a wider
# margin: the die's side taken 15% larger than the finder's estimate.
_WIDER = 1.15


# A die the readers were sure of (this share on one value) at one scale keeps its reading
# when the finder finds it again at another, at about the same place and size (a fifth of
# a side, a quarter of its size), and so does a find they took for more likely no die than
# a die (a die chance under `_LIKELY_NOT`). A find they only doubted (a die chance from
# `_LIKELY_NOT` up to the reader's `min_dieness`) keeps its rejection only when found again
# at nearly the same place and size (a tenth): a crop cut at a wrong size may have been
# rejected for that, which the new look mends; one cut alike reads alike (a stray find
# beside a roll was otherwise voted on again: four views for each reader).
_SURE_AGAIN = 0.7
_LIKELY_NOT = 0.5
# A roll with dice read surely but none this surely takes the look at twice the scale
# (`read`); a lone unread die (a logo) does not pay for it
_CLEARLY = 0.9
# A find this many times smaller than a die read clearly at a coarser look, inside it, may
# be its pip (a pip is under a fifth of the side, its find about as big); dice in a block
# of two or three a side are a half or a third of the block's side (`reads_better`)
_PIECE_SIDES = 3.5
_SAME_CROP = 0.1
# A first look whose dice the finder scores under this at the median finds this table's
# dice poorly, and may have missed some: at the end, a look at twice its scale fills in
# the dice it missed (`_Looks.filled_in`). Of red dice on a drawn grain of wood (session
# 48, scripts/drawn_rolls.py) the finder missed about one in six; in 16 of 20 rolls read
# wrong its median score of a roll's dice was 0.33-0.6 (0.66 and 0.78 in two, nothing
# found in two); the dev folders' photos score 0.62 at the least (byler_d6 0.72 for 19 in
# 20, skovy_catan 0.69, fudw_tray 0.67), so the look costs them nothing.
_WEAK_FIND = 0.6
# A first look that finds its dice surely enough, but also, under `read`'s `min_score`, a
# find of the roll's size where it has no die that the readers read clearly, takes that
# look too (`_Looks.faint_dice`, session 61): six red dice of 32 px on drawn planks, five
# of them scored 0.13-0.23 and lost, the one found at 0.61. Of such faint finds the
# finder's surest few inside the image are read, by the first reader alone (a 1080p frame
# of two dice on a grey table had seven such finds, at its edges: 1 ms, 2.4 with both).
_FAINT_READ = 4
# A first look that finds nothing over `read`'s `min_score` takes that look too if the
# finder scores something over this: the two of 48 drawn rolls of red dice on wood whose
# first look found nothing scored 0.15 and 0.28 at best; bare plain and felt tables score
# 0.03-0.09 (no look at twice the scale, which cost a blank frame 15 to 38 ms; until
# session 61 a second run of the finder asked, about 4 ms for a 1080p frame, where the
# first look's run now keeps its finds down to this), a bare wooden one 0.08-0.47, which
# pays for the look (30-43 ms a 1080p frame; the camera loop reads a settled table once).
_FAINT = 0.1


def _classify(
    image: np.ndarray,
    found: np.ndarray,
    rotations: int,
    min_dieness: float,
    *,
    known: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """The readers' scores for finds (x, y, side, score), cut from the full-resolution image:
    a glance (`_glanced`), and a vote on the finds it leaves unsure (`_voted`)."""
    probs, owed = _glanced(image, found, min_dieness, known=known)
    return _voted(image, found, probs, owed, rotations, min_dieness)


def _crops(image: np.ndarray, found: np.ndarray, *, stretch: float = 1.0) -> list[np.ndarray]:
    """The face readers' view of each find (x, y, side, score), cut from the full image
    (stretched upright by `stretch`: a top face seen at a slant, `slant.py`)."""
    return [
        crop_die(image, (float(x), float(y)), float(s), stretch=stretch) for x, y, s, _ in found
    ]


def _glanced(
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
        unlikely = dieness < min(_LIKELY_NOT, min_dieness)  # (never a find taken for a die)
        reuse = (match >= 0) & ((before[:, 1:].max(axis=1) >= _SURE_AGAIN) | unlikely)
        # (both pair a find with the nearest one before: a close match is the same find)
        close = same_finds(found, known[0], off=_SAME_CROP, size=1.0 + _SAME_CROP) >= 0
        reuse |= close & (dieness < min_dieness)
        probs[reuse] = known[1][match[reuse]]
        todo = np.nonzero(~reuse)[0]
    probs[todo], owed[todo] = glance(_crops(image, found[todo]))
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


def _voted(
    image: np.ndarray,
    found: np.ndarray,
    probs: np.ndarray,
    owed: np.ndarray,
    rotations: int,
    min_dieness: float,
) -> np.ndarray:
    """`probs` (a glance at finds) with the finds `owed` a vote read again (`model.vote`)."""
    todo = np.nonzero(owed)[0]
    if not len(todo) or rotations <= 1:
        return probs
    crops = _crops(image, found[todo])

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
    )
    return probs


# Finds of one look that must be windows of a repeating pattern before any is taken for a
# cloth (`_cloth`): more than a block of four like dice squared up and the windows at
# their seams (with two, three of four drawn red 4s so were lost; a blurred yellow 2 among
# dice once matched itself alone). Two read the stress's polka dots a little better
# (`byler_d6` rolls 83.3 against 78.3%, `skovy_catan` 93.9 against 85.7%; session 47)
CLOTH_LEAST = 5


# A find the finder doubts (a score under `read`'s `min_sure_score`) more than this many
# times the size the roll gives at its place is cut again at that size and read again
# (`_Looks.cut_to_size`); any other find may be up to twice it (`finds.roll_sized`). On
# the dev photos the dice it doubts are at most 1.13 times their roll's, the floor's
# specks it took for dice at twice the photo's size 1.4 times or more
DOUBTED_MOST = 1.3


# Where a photo's slant makes the near dice this many times the finder's best size at the
# roll's look, a look at half the scale looks for them (`read`, `nearer`)
NEAR_TOO_BIG = 1.5


# An image up to this long (a camera frame: 1080p) gets its first look at `read`'s
# `long_side` (640), fast enough for a live camera; a bigger one (a phone's photo, whose
# reading may take longer) at PHOTO_LOOK, so that dice of 1.5% of its long side are
# still the finder's least trained size (14 px) there, and with the look at twice the
# scale for dice too small to read, 0.75%: a phone photo of a whole table from standing
# height has dice of about 1% (40 px in 4032), which the 640 look saw as one die a group.
FRAME_SIDE = 1920
PHOTO_LOOK = 960
# The finder's looks at each scale unless `read` is told otherwise: one. Four (all of
# `model.FINDER_VIEWS`) found more dice in hard photos (grey, dim, tilted, far smaller or
# bigger) but misread small dark dice in piles that one look reads right (sample photos
# with their colours turned), and cost a read two to two and a half times the time (a
# 1080p frame 9-10 to 18-23 ms, six dice 14-19 to 34-44, against a target of 25;
# docs/vision-log.md, session 36). For photos over FRAME_SIDE alone, where time allows
# more, four (or two) looks read a battery of big photos made hard worse than one
# (session 37).
FINDER_LOOKS = 1


# A closer look at small dice covers the finds of the first look (not only the confirmed
# dice: dice under the finder's trained size, 14 px, are often found but not confirmed), each
# with this many typical die sides around it: the finder sees about 1.6 sides each way
# around a centre (111 pixels for dice of 34), so a die this far inside its piece is found
# as in the whole frame
REFIT_MARGIN = 2.0

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
class _Looks:
    """The looks `read` can take at one (brightened) image and its tests on what they find,
    under `read`'s settings (its parameters of the same names; `roll_size` is its
    `min_relative_side` and `max_relative_side`). `read` decides which looks to take and in
    what order. Most of the steps its docstring names in backticks are methods here; the
    first glance and vote (`_glanced`, `_voted`), the coarser looks (`_coarser`), a
    close-up's bigger dice (`_dice_behind`) and `closeup.py`'s tests stay functions."""

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

    def gains_at(self, found: np.ndarray) -> np.ndarray:
        """What the image was scaled by at each find's centre (its noise too): a dark
        frame's `gain` everywhere, or the lift of the shadow the find lies in."""
        if self.lift is None:
            return np.full(len(found), self.gain)
        xs = np.clip(np.nan_to_num(found[:, 0]), 0, self.w - 1).astype(int)
        ys = np.clip(np.nan_to_num(found[:, 1]), 0, self.h - 1).astype(int)
        return self.lift[ys, xs].astype(np.float64)

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
            part = _centres_at(
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
        return found, _classify(self.image, found, self.rotations, self.min_dieness, known=known)

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
        nearly the same place and size, are not read again (`_classify`), nor are finds
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
        size (`typical`) surely and lost one read clearly (`_CLEARLY`). That look read such
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
        (`_SURE_AGAIN`) kept as they were where the new look takes something near for a
        die (`confirmed`; centres within half the bigger side) but reports none there: it
        may find such a die at another size and read it worse (a red 3 of 24 pixels drawn
        at a slant, read at 0.79 at the first look, was found a third smaller by the closer
        one, read there as a 2 at 0.43 and left out of the roll). Where the new look takes
        nothing there for a die, the die is not kept: kept so, the windows of polka dots
        and of a printed cloth that the new look took for the cloth came back."""
        was = self.reported(before, before_probs) & (readings(before_probs)[1] >= _SURE_AGAIN)
        if not was.any() or not len(found):
            return found, probs
        near = near_pairs(before, found, overlap=0.5)
        was &= (near & self.confirmed(found, probs)).any(axis=1)
        was &= ~(near & self.reported(found, probs)).any(axis=1)
        return np.concatenate([found, before[was]]), np.concatenate([probs, before_probs[was]])

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
        big = _centres_at(self.image[y0:y1, x0:x1], scale, self.min_score, self.views)
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
        big_probs = _classify(self.image, big, self.rotations, self.min_dieness)
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
        its side, read clearly (`_CLEARLY`), replaces the finds inside it under
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
        big_probs = _classify(self.image, big, self.rotations, self.min_dieness)
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

    def read_surely(self, found: np.ndarray, probs: np.ndarray) -> int:
        """How many finds are dice read surely (a die found twice counted once)."""
        return count_once(found, self.confirmed(found, probs) & surely_read(probs))

    def read_clearly(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """Which finds are dice read clearly (`_CLEARLY`)."""
        return self.confirmed(found, probs) & (readings(probs)[1] >= _CLEARLY)

    def reads_better(
        self, big: np.ndarray, big_probs: np.ndarray, found: np.ndarray, probs: np.ndarray
    ) -> bool:
        """Whether a coarser look (`big`) reads the roll better than `found`: it reads more
        dice surely, or more clearly (`_CLEARLY`) and as many surely when the sure finds its
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

    def doubtful(
        self, found: np.ndarray, probs: np.ndarray, kept: np.ndarray, owed: np.ndarray | None
    ) -> int:
        """How many finds the readers give more than even odds of being a die, yet do not
        confirm: none a `kept` die found again, none whose vote is still `owed` (read at a
        glance only), none twice the kept dice's median side or more (the corner of a box
        or a cup beside two dice), and one found twice counted once. Smaller ones count:
        dice of 7 pixels come out as finds of half to a whole blot's size (the blots
        confirmed)."""
        doubt = ~self.confirmed(found, probs) & (1.0 - probs[:, 0] > _LIKELY_NOT)
        if owed is not None:
            doubt &= ~owed
        if len(kept):
            doubt &= found[:, 2] < self.roll_size[1] * float(np.median(found[kept, 2]))
            doubt &= ~near_pairs(found, found[kept], overlap=0.5).any(axis=1)
        return count_once(found, doubt)

    def pieces(self, big: np.ndarray, big_probs: np.ndarray, found: np.ndarray) -> np.ndarray:
        """(len(big), len(found)): find j may be a piece (a pip) of `big`'s die i, read
        clearly (`_CLEARLY`): inside it and `_PIECE_SIDES` to `closeup.PIP_SIDES` times
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

    def weakly_found(self, found: np.ndarray, probs: np.ndarray) -> bool:
        """Whether a look found its dice of the roll's size only weakly (the finder's
        median score under `_WEAK_FIND`): dice that blend into the table (red on wood)
        are found some and missed some."""
        kept = self.typical(found, probs)
        return bool(len(kept) and np.median(found[kept, 3]) < _WEAK_FIND)

    def faint_dice(self, faint: np.ndarray, found: np.ndarray, probs: np.ndarray) -> bool:
        """Whether, of a look's `faint` finds (scored under `min_score`), one inside the
        image, of the roll's size where it has no die (`beside_the_roll`; the finder's
        surest `_FAINT_READ`), reads clearly as a die to the first reader alone
        (`first_reading`): a die that blends into the table, all but missed beside one
        the finder found surely enough to take no look for dice found weakly."""
        if not len(faint) or not self.confirmed(found, probs).any():
            return False
        inside = (faint[:, 0] >= 0) & (faint[:, 0] < self.w)
        inside &= (faint[:, 1] >= 0) & (faint[:, 1] < self.h)
        faint = faint[inside & self.beside_the_roll(faint, found, probs)]
        faint = faint[np.argsort(-faint[:, 3])][:_FAINT_READ]
        return bool(self.read_clearly(faint, first_reading(_crops(self.image, faint))).any())

    def beside_the_roll(self, more: np.ndarray, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """Which of `more` (finds of another look, or faint ones) are of the roll's size
        (`roll_size` times the median of its typical dice) where no confirmed find of it
        lies (centres over three quarters of the bigger side apart): dice it missed, not a
        pip or a window of a die it has. The roll `found` must confirm a die."""
        is_die = self.confirmed(found, probs)
        kept = self.typical(found, probs)
        median = float(np.median(found[kept if len(kept) else is_die, 2]))
        low, high = self.roll_size
        fits = (more[:, 2] >= low * median) & (more[:, 2] <= high * median)
        dice = found[is_die]
        apart = np.hypot(*(more[:, None, :2] - dice[None, :, :2]).transpose(2, 0, 1))
        return fits & (apart > 0.75 * np.maximum(more[:, None, 2], dice[None, :, 2])).all(axis=1)

    def blended(
        self, found: np.ndarray, probs: np.ndarray, first: float, finer: float, faint: bool
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """After a first look (at scale `first`) that found nothing and a coarser one that
        found the roll `found`: the look at `finer` over the whole image, if something
        `faint` was there at the first look (scored over `_FAINT`: dice that blend into
        the table, all but seen) and the finer look reads more dice surely than the
        coarser one, not as their pips (`look_like_pips`, unless they are a `crowd` in the
        coarser dice); else None. The coarser looks are for dice too big
        for the first; six red dice of 32 pixels drawn on wooden planks at a slant
        were all but missed at the first look, and a coarser one found two of them as one
        die, which its closer look then lost (none read), where the finer look read all six
        right."""
        if finer <= first or not faint:
            return None
        more, more_probs = self.look(finer)
        if self.read_surely(more, more_probs) <= self.read_surely(found, probs):
            return None
        kept = self.typical(more, more_probs)
        pips = look_like_pips(*readings(more_probs[kept]))
        if pips and not crowd(found, probs, more, more_probs, self.confirmed):
            return None
        return more, more_probs

    def filled_in(
        self,
        found: np.ndarray,
        probs: np.ndarray,
        finer: float,
        seen: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The roll `found`, with the dice a look at `finer` over the whole image (`seen`,
        if `read` took that look already) reads clearly (`_CLEARLY`) where no confirmed
        find lies (centres over three quarters of the bigger side apart), of the roll's
        size (`roll_size` times the median of its typical dice), and, if a 1, with a face
        the colour of a die the roll reads surely (`coloured_as`: a cloth's eyes read
        clearly as 1s; of a die of another value the look adds, where the roll has no
        die). Taking the finer look's whole roll instead, when it read more dice surely,
        read 2 more of 48 drawn rolls of red dice on wood right, but lost the dice of
        close-ups found as their pips at that look, and let in owl eyes on the held-out
        table's cloth."""
        more, more_probs = self.look(finer, known=(found, probs)) if seen is None else seen
        new = self.read_clearly(more, more_probs)
        ones = readings(more_probs)[0] == 1
        is_die = self.confirmed(found, probs)
        if is_die.any():
            new &= self.beside_the_roll(more, found, probs)
            sure = found[is_die & surely_read(probs)]
        else:
            sure = more[new & ~ones]
        new[new & ones] = coloured_as(self.image, more[new & ones], sure)
        return np.concatenate([found, more[new]]), np.concatenate([probs, more_probs[new]])

    def unsure(self, found: np.ndarray, probs: np.ndarray, owed: np.ndarray | None) -> bool:
        """Whether half the roll's dice or more are read unsure (counting the `doubtful`
        finds), or some are read surely and none clearly (`_CLEARLY`)."""
        kept = self.typical(found, probs)
        judged = len(kept) + self.doubtful(found, probs, kept, owed)
        sure = surely_read(probs[kept])
        clearly = readings(probs[kept])[1] >= _CLEARLY
        return bool(judged >= 2 and sure.sum() <= judged / 2) or bool(
            sure.any() and not clearly.any()
        )

    def reported(self, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The finds `roll` reports (before dropping doubles and odd sizes)."""
        return self.confirmed(found, probs) & not_lookalike(probs, self.min_unread_dieness)

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
        probs[over] = _classify(self.image, found[over], self.rotations, self.min_dieness)
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
        """Which finds are read clearly (`_CLEARLY`) and all but surely dice
        (`min_unread_dieness`): what a patch of the set's colour must be to join the roll."""
        return clear_dice(probs, clearly=_CLEARLY, dieness=self.min_unread_dieness)

    def coloured_in(
        self, found: np.ndarray, probs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The roll with the dice the finder missed that the set's colour may show
        (`same_set.colour_patches`: a patch of the colour two dice read surely share, a
        die's size, on a table of another colour), each read at the median side of those
        dice and all but surely a die (`min_unread_dieness`); and which finds they are.
        `roll` keeps those read clearly (`_CLEARLY`), at once or with the crop moved
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
        more_probs = glance(_crops(self.image, more))[0]
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
        first = first_reading(self._slanted(some, (slant.AS_FOUND, *slant.FIRST_SLANTS)))
        if not slant.steeper_worth_reading(*first.reshape(-1, len(some), 7)):
            return probs
        crops = self._slanted(found, (slant.AS_FOUND, *slant.SLANTS))
        as_found, *at_slants = glance(crops)[0].reshape(-1, len(found), 7)
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
            for crop in _crops(self.image, slant.moved_up(found, shift), stretch=stretch)
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
        read = glance(_crops(self.image, np.concatenate(at_sides)))[0]
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
        spared = clear_and_apart(found, probs, clearly=_CLEARLY, dieness=self.min_unread_dieness)
        ones = spared & ~ok & (readings(probs)[0] == 1)
        if ones.any():
            dice = (ok | spared) & ~ones & surely_read(probs)
            spared[ones] = coloured_as(self.image, found[ones], found[dice])
        return found[ok | spared], probs[ok | spared]


def read(
    image: np.ndarray,
    *,
    long_side: int = 640,
    min_score: float = 0.3,
    min_dieness: float = 0.7,
    min_unread_dieness: float = 0.9,
    min_sure_score: float = 0.5,
    min_relative_side: float = 0.6,
    max_relative_side: float = 2.0,
    target_side_px: float = 34.0,
    rotations: int = 4,
    photo: bool | None = None,
    finder_looks: int = FINDER_LOOKS,
    doubt_smears: bool = True,
) -> Detections:
    """Every die in a BGR uint8 image: top-face value 1-6, confidence, box and centre.

    `confidence` is the face reader's probability for the value it reports, given that the
    object is a die; below `detections.ASK_BELOW` (0.6) the user interface asks the player.
    At each scale the finder takes `finder_looks` looks (default `FINDER_LOOKS`, one), the
    image as it is and then mirrored (`model.FINDER_VIEWS`), and averages them: four
    found more dice in one battery of hard photos (grey, dim, tilted) and fewer in another
    (big photos made hard), misread some small dark dice in piles, and take two to two and
    a half times the read's time.
    The finder looks with the long side at `long_side` pixels, or at least `PHOTO_LOOK`
    for a `photo` (default: an image over `FRAME_SIDE` pixels long; a caller that decoded
    a big photo at a reduced size says so, and a camera loop that its frames are none),
    and, if it confirms nothing there, at a half, a quarter, an eighth and a sixteenth of
    that; where that first look found nothing at all but something faint and a coarser
    one found a die, the look at twice the first scale is taken instead if it reads more
    dice surely, not as their pips (`blended`: dice that blend into the table). A first
    look with two pairs of overlapping finds or more is followed by the
    finder's look at half its scale, which puts in whole the dice too big for the first
    look that it found as pieces (`wholes`).
    If two in three of the dice it confirms read as 1 or unsure, as the pips of a
    close-up's dice do, it looks at those scales for bigger dice that hold them
    (`explains`), and takes them only if a second look at their own size bears them out
    (`stands`) and a look at twice the first scale over them finds no `crowd` of dice in
    them. If it finds things it does not take for dice and reads no die it is sure of
    finding (score `min_sure_score`), or only a coarser look found one, or half its dice
    or more are read unsure (counting the finds it does not confirm that the readers give
    more than even odds of being a die, `doubtful`), it looks at twice the scale (dice
    under the finder's trained size); a roll half unsure that the finer look did not read
    better, or half unsure after it (taken or not), also gets a look at half the first
    scale (dice too big for the finder, found as pieces), taken if it reads better
    (`reads_better`: more dice surely, or more clearly with the pieces its dice hold
    counted once). If the dice it confirms are far from
    `target_side_px` (a factor 1.5), it looks again at the scale that makes them so (a
    closer look: only the pieces of the image around its finds), reading again only the
    finds it was not sure of, and, if the dice found there are still far under that size,
    once more, closer (a die read surely before that such a look takes for a die but
    does not report is kept as read before: `kept_from`; dice read surely before a look
    farther away that it lost, where it reads fewer dice surely and lost one read clearly,
    are added back: `lost_dice`); when the first look already
    reads a die surely, its vote on the others waits for that look (`straight_to_refit`).
    A find counts as a die when the face readers give it at least `min_dieness`: the
    readers also call a die "a die, value unknown" when its face is a logo, and a round
    token or a blot can get that reading half-heartedly, so half is not enough. A find
    whose finder score is below `min_sure_score` must also be readable (confidence 0.5),
    and one reported unread, a die at least `min_unread_dieness` (`not_lookalike`), unless
    it is a die of the roll's set: its size and face colour those of a die read surely,
    its face marked, `min_dieness` is then enough, whatever the other two say (`same_set`).
    Five finds of a look or more that are windows of a repeating pattern (a polka-dot
    cloth's dots read as 4s and 5s: `pattern.py`, `_cloth`) are no dice.
    A first look whose dice the finder scores weakly (`_WEAK_FIND` at the median: red dice
    on a grain of wood, some missed), or that finds beside them a faint find (`_FAINT`)
    the first reader reads clearly as a die (`faint_dice`), or that finds nothing but
    something faint, is followed at the end (unless a finer or coarser look gave the
    roll) by a look at twice its scale, at most full size, over the whole image, which
    adds the dice it reads clearly where none was found (`filled_in`).
    A die the finder missed altogether (red on an orange wood grain) that shows as a
    patch of the colour two dice of the roll share, a die's size, on a table of another
    colour, is added if read clearly and all but surely a die (0.9 each; `coloured_in`,
    `same_set.colour_patches`), at once or with its crop moved (below), or else at the
    confidence it reads if all but surely a die, its face marked, not a window of a
    pattern, in a frame not scaled up for the dark (`unread_patches`).
    A frame lit as a whole with a deep shadow over part of it (under `light.DARK_LEVEL` and
    under half the frame's brightest) has that part lifted and smoothed as a dark frame
    is (`shadows_lifted`), and its unread finds held to that part's gain.
    Last, each die of the roll read under 0.8 is read again with its crop moved 0.3 of
    its side each of 8 ways, and a clear reading taken (`recentred`, `recentre.py`):
    seen at a slant, the finder's centre lies towards the side faces, whose pips the
    crop then takes in. A roll of two dice or more whose dice, their crops moved up onto
    the top faces and stretched upright, read clearly better on the whole than as found
    is read so (`at_slant`, `slant.py`): seen from 40 degrees off vertical or more, the
    finder's centres lie on the side faces, and most of their misreads are sure.
    A die under 13 pixels a side is reported at 0.5 at most, so the player is asked: so
    small, the readers read many dice surely and wrongly (`small.py`).
    With `doubt_smears` (the default), a die reported over 0.5 whose edges are smeared
    past any of the dev photos' (a camera moving, or out of focus) is reported at 0.5,
    so the player is asked (`smear.py`); a caller that reads an image again, larger,
    on a die's doubt (`photo.read_photo_data`) holds them itself, once, at the end.

    >>> read(np.full((480, 640, 3), 200, np.uint8)).dice
    ()
    """
    bgr = _as_bgr(image)
    gain = brightening(bgr)
    lift = None
    if gain != 1.0:
        image = lifted(bgr, gain)
    else:  # (a dark frame is scaled as a whole: no part of it lifted again)
        image, lift = shadows_lifted(bgr)
    h, w = image.shape[:2]

    views = finder_views(finder_looks)  # (a ValueError before any look is taken)
    looks = _Looks(
        image,
        min_score=min_score,
        min_dieness=min_dieness,
        min_unread_dieness=min_unread_dieness,
        min_sure_score=min_sure_score,
        roll_size=(min_relative_side, max_relative_side),
        target_side_px=target_side_px,
        rotations=rotations,
        views=views,
        gain=gain,
        lift=lift,
        smeared_in=bgr if doubt_smears else None,
    )
    if photo is None:
        photo = max(w, h) > FRAME_SIDE
    first_side = max(long_side, PHOTO_LOOK) if photo else long_side
    scale = det_scale((w, h), long_side=first_side)
    found = looks.finds(scale, min_score=min(_FAINT, min_score))
    faint, found = found[found[:, 3] <= min_score], found[found[:, 3] > min_score]
    probs, owed = _glanced(image, found, min_dieness)
    whole = looks.wholes(found, probs, owed, scale)
    if whole is not None:
        found, probs, owed = whole
    waiting: np.ndarray | None = owed  # the finds whose vote the closer look takes
    if not looks.straight_to_refit(found, probs, owed, scale):
        probs = _voted(image, found, probs, owed, rotations, min_dieness)
        waiting = None
    keep = looks.confirmed(found, probs)
    unconfirmed = bool((~keep).any())  # finds not taken for dice: specks, or dice too small
    first_scale = scale
    finer = min(1.0, 2.0 * first_scale)  # (the look at twice the scale, at most full size)
    weak = looks.weakly_found(found, probs)  # (dice that blend into the table)
    weak = weak or (finer > first_scale and looks.faint_dice(faint, found, probs))
    nothing = not len(found)  # (or nothing found: perhaps something `faint`)
    if not keep.any():
        found, probs, scale = _coarser(
            image,
            scale,
            min_score,
            min_dieness,
            rotations,
            lambda f, p: bool(looks.confirmed(f, p).any()),
        )
        if nothing and scale != first_scale:  # (dice that blend into the table, or big ones)
            blended = looks.blended(found, probs, first_scale, finer, bool(len(faint)))
            if blended is not None:
                found, probs, scale = *blended, finer
        keep = looks.confirmed(found, probs)
    kept = looks.typical(found, probs)  # (judged on the finds of the typical size, as at the end)
    if look_like_pips(*readings(probs[kept])):
        pips = found[kept]
        bigger, big_probs = _dice_behind(
            pips, image, scale, min_score, min_dieness, rotations, looks.confirmed
        )
        if looks.confirmed(bigger, big_probs).any():
            # a second, independent look where the bigger dice are `target_side_px` across
            # (unless the frame would be too small to look at) must bear them out: it reads
            # some die, and under half of the finds the readers give even odds of being a
            # die are piles of the first finds (`stands`)
            again_scale = looks.fit_scale(bigger, big_probs)
            if looks.too_small(again_scale):
                return looks.roll(bigger, big_probs)
            again, again_probs = looks.look(again_scale)
            if stands(again, again_probs, pips, looks.confirmed) and not looks.dice_within(
                again, again_probs, first_scale
            ):
                # what it found is the roll, seen at the size the finder reads best (or
                # looked at again there, if it found dice of another size); a close-up's
                # few big dice are not looked at for a slant (`nearer`)
                return looks.roll(*looks.refitted(again, again_probs, again_scale)[:2])
    small = not looks.readable(found, probs, finder_sure=True)
    coarser_die = scale < first_scale and bool(looks.reported(found, probs).any())
    # finds it cannot take for dice, and no die both found surely and read: perhaps dice
    # under the finder's trained size (14 px), which it finds but misplaces and misjudges
    # (9 px dice came out as 19-60 px finds, so their size cannot tell; a blot the finder
    # doubts may still read as a die); a look at twice the scale sees them twice as big.
    # A lone logo die the first look finds (one find, a die, unread) does not pay for it.
    # A die that a coarser look found may be such dice too, seen as one (a whole photo of
    # two dice of 8 pixels passed for a 2), so then it is taken (a logo die filling the
    # frame pays for it), and kept unless its dice read as that die's pips would
    # (`look_like_pips`, and no `crowd` of dice in it).
    tiny = unconfirmed and (small or coarser_die)
    # or half the roll's dice or more are read unsure (and did not stand as a close-up's
    # pips, above): dice of 10 pixels, found as bigger and read unsure; the finer look is
    # taken if it reads more dice surely. Since session 17 the finds the readers give more
    # than even odds of being a die but do not confirm (`doubtful`) count as dice read
    # unsure: dice of 7-9 pixels come out as blots, most of them not confirmed. So one
    # die read surely beside one such find takes the look too (a speck the readers think
    # no die does not: `_LIKELY_NOT`)
    unsure = not tiny and scale == first_scale and looks.unsure(found, probs, waiting)
    finer_look: tuple[np.ndarray, np.ndarray] | None = None
    if (tiny or unsure) and first_scale < 1.0:
        finer_found, finer_probs = looks.look(finer)
        finer_look = finer_found, finer_probs  # (taken or not, `filled_in` may use it)
        if tiny:
            kept_finer = looks.typical(finer_found, finer_probs)
            take = looks.readable(finer_found, finer_probs) and (
                not coarser_die
                or not look_like_pips(*readings(finer_probs[kept_finer]))
                or crowd(found, probs, finer_found, finer_probs, looks.confirmed)
            )
        else:
            take = looks.read_surely(finer_found, finer_probs) > looks.read_surely(found, probs)
        if take:
            found, probs, scale, waiting = finer_found, finer_probs, finer, None
    # a roll half unsure that no finer look read better may be dice too big for the look
    # (75-110 px in a `byler_d6` roll cut close), found as pieces: at half the scale they
    # are whole (session 44). So may a roll still half unsure after the finer look, taken
    # or not: the pips of 200 px dice, doubtful blots at the first look, or unsure beside
    # a die read clearly (both by the `tiny` route; session 45)
    if tiny or scale > first_scale:
        unsure = looks.unsure(found, probs, waiting)
    coarse = first_scale / 2
    # A roll of two sizes no roll has (`mixed`: a close-up's windows of one face beside
    # another die's pips) gets that look too, taken only where a die found there holds two
    # of its dice as pieces (`holds_pieces`): a steep slant's near dice can be three times
    # the far ones, and there the coarser look found big near dice and lost far ones
    mixed = not unsure and scale == first_scale and looks.mixed(found, probs, scale)
    if (unsure or mixed) and scale >= first_scale and not looks.too_small(coarse):
        coarse_found, coarse_probs = looks.look(coarse)
        holding = not mixed or looks.holds_pieces(coarse_found, coarse_probs, found, probs)
        if holding and looks.reads_better(coarse_found, coarse_probs, found, probs):
            found, probs, scale, waiting = coarse_found, coarse_probs, coarse, None
    # dice found weakly or beside a faint one read clearly, or something faint where nothing
    # was found: the look at twice the first scale (at most full size) fills in the dice
    # missed, unless a finer or coarser look was taken for the roll
    fill = scale == first_scale and first_scale < 1.0
    fill = fill and (weak or (nothing and bool(len(faint))))
    found, probs = looks.nearer(*looks.refitted(found, probs, scale, waiting))
    if fill:
        found, probs = looks.filled_in(found, probs, finer, finer_look)
    return looks.roll(found, probs)


def _detections(found: np.ndarray, probs: np.ndarray, size_wh: tuple[int, int]) -> Detections:
    """The dice confirmed as a roll, each found once and of the roll's size (`_Looks.roll`
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
