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

This module decides which looks to take and in what order (`read`). The looks live by
idea: `looks.py` the finder's looks at a scale, over all of the image or pieces of it, and
the closer or farther look at the dice's own size; `faces.py` the face readers' glance and
vote on a look's finds; `coarser_looks.py` the looks for dice too big for a look (a
close-up's, a slant's near dice, dice found as pieces); `finer_looks.py` the look at twice
the scale for dice too small or all but missed; `roll.py` the roll reported from the last
look's finds. `finds.py` holds the arithmetic on finds and scores (what counts as a die,
one die found twice), `closeup.py` the tests that tell a close-up's pips from a pile of
dice, and `light.py` the lifting of a dark frame or a shadow before any look.
"""

from __future__ import annotations

import os

import cv2
import numpy as np

from . import coarser_looks, faces
from .closeup import crowd, look_like_pips, stands
from .coarser_looks import CoarserLooks
from .detections import Detections
from .finds import readings
from .finer_looks import FinerLooks
from .light import brightening, lifted, shadows_lifted
from .looks import FINDER_LOOKS
from .model import det_scale, finder_views
from .roll import RollLooks


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


# A first look that finds nothing over `read`'s `min_score` takes that look too if the
# finder scores something over this: the two of 48 drawn rolls of red dice on wood whose
# first look found nothing scored 0.15 and 0.28 at best; bare plain and felt tables score
# 0.03-0.09 (no look at twice the scale, which cost a blank frame 15 to 38 ms; until
# session 61 a second run of the finder asked, about 4 ms for a 1080p frame, where the
# first look's run now keeps its finds down to this), a bare wooden one 0.08-0.47, which
# pays for the look (30-43 ms a 1080p frame; the camera loop reads a settled table once).
_FAINT = 0.1


# An image up to this long (a camera frame: 1080p) gets its first look at `read`'s
# `long_side` (640), fast enough for a live camera; a bigger one (a phone's photo, whose
# reading may take longer) at PHOTO_LOOK, so that dice of 1.5% of its long side are
# still the finder's least trained size (14 px) there, and with the look at twice the
# scale for dice too small to read, 0.75%: a phone photo of a whole table from standing
# height has dice of about 1% (40 px in 4032), which the 640 look saw as one die a group.
FRAME_SIDE = 1920
PHOTO_LOOK = 960


class _Looks(CoarserLooks, FinerLooks, RollLooks):
    """The looks `read` can take at one (brightened) image and its tests on what they find,
    under `read`'s settings (`looks.Looks`). `read` decides which looks to take and in
    what order. Most of the steps its docstring names in backticks are methods here,
    defined by idea: in `looks.py` (the looks at a scale, the closer look),
    `coarser_looks.py` (dice too big for a look), `finer_looks.py` (dice too small or all
    but missed) and `roll.py` (the roll reported). The first glance and vote
    (`faces.glanced`, `faces.voted`), the coarser looks (`coarser_looks.look_until`), a
    close-up's bigger dice (`coarser_looks.dice_behind`) and `closeup.py`'s tests are
    functions."""


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
    cloth's dots read as 4s and 5s: `pattern.py`, `faces._cloth`) are no dice.
    A first look whose dice the finder scores weakly (`finer_looks._WEAK_FIND` at the
    median: red dice on a grain of wood, some missed), or that finds beside them a faint
    find (`_FAINT`) the first reader reads clearly as a die (`faint_dice`), or that finds
    nothing but something faint, is followed at the end (unless a finer or coarser look gave the
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
    probs, owed = faces.glanced(image, found, min_dieness)
    whole = looks.wholes(found, probs, owed, scale)
    if whole is not None:
        found, probs, owed = whole
    waiting: np.ndarray | None = owed  # the finds whose vote the closer look takes
    if not looks.straight_to_refit(found, probs, owed, scale):
        probs = faces.voted(
            image, found, probs, owed, rotations, min_dieness, lift_dark=looks.lifts_dark_faces
        )
        waiting = None
    keep = looks.confirmed(found, probs)
    unconfirmed = bool((~keep).any())  # finds not taken for dice: specks, or dice too small
    first_scale = scale
    finer = min(1.0, 2.0 * first_scale)  # (the look at twice the scale, at most full size)
    weak = looks.weakly_found(found, probs)  # (dice that blend into the table)
    weak = weak or (finer > first_scale and looks.faint_dice(faint, found, probs))
    nothing = not len(found)  # (or nothing found: perhaps something `faint`)
    if not keep.any():
        found, probs, scale = coarser_looks.look_until(
            image,
            scale,
            min_score,
            looks.classify,
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
        bigger, big_probs = coarser_looks.dice_behind(
            pips, image, scale, min_score, looks.classify, looks.confirmed
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
    # no die does not: `LIKELY_NOT`)
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
