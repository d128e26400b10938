"""Live reading: wait until the dice stop moving, read them once, then wait for the next roll.

The motion test compares small grey thumbnails of the frames pixel by pixel, so it costs
about 1 ms a still 1080p frame on one core (3.5 with a hand moving at the edge), ignores
sensor noise and exposure drift, and sees two small dice move in a wide view. The logic
takes any iterable of frames, so it runs the same on a camera, a video file or a list in
a test.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import queue
import stat
import threading
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from .detections import Detections
from .io import native_stderr_kept, opencv_message
from .light import top_level
from .model import resize


@dataclass(frozen=True)
class Roll:
    """One settled roll: the frame index it was read at and what was read."""

    frame_index: int
    detections: Detections


_TO_GREY = {3: cv2.COLOR_BGR2GRAY, 4: cv2.COLOR_BGRA2GRAY}

# Grey levels a thumbnail pixel must change by, in daylight, to count as changed
CHANGE_LEVEL = 12.0

# How long the view must lie still to be read: 8 frames of a 30 fps camera. A camera of
# another rate waits as long (`still_frames_at`): counted in frames alone, a 60 fps one
# read a die that paused for 0.13 s, and a 10 fps one waited 0.8 s
STILL_SECONDS = 0.27
STILL_FRAMES = 8  # (where the rate is unknown: a 30 fps camera's)
# ...but at least this many frames (a run of fewer is no test of stillness) and at most
# this many (a rate past any camera's, as a file may claim, is taken as unknown)
FEWEST_STILL, MOST_RATE = 4, 240.0


def still_frames_at(rate: float) -> int:
    """The frames in a row `settled_rolls` waits for at `rate` frames a second (as the
    source says: `video_frames`' `opened`), so that a camera of 15 frames a second or
    more waits `STILL_SECONDS`, a slower one `FEWEST_STILL` frames. FFmpeg gives a stream
    with no rate of its own (MJPEG) 25, which is taken as it is: 7 frames."""
    if not 0.0 < rate <= MOST_RATE:  # (0 or NaN: a stream that does not say)
        return STILL_FRAMES
    return max(FEWEST_STILL, round(STILL_SECONDS * rate))


def thumbnail(frame: np.ndarray, *, width: int = 320) -> np.ndarray:
    """Small blurred grey copy of a frame for the motion test: 320 pixels wide, a die of 40
    pixels in a 1080p frame is still 7 across, and sensor noise is averaged away."""
    channels = frame.shape[2] if frame.ndim == 3 else 1
    if frame.ndim not in (2, 3) or channels not in (1, *_TO_GREY) or not frame.size:
        raise ValueError(f"a frame must be HxW, HxWx3 or HxWx4, got shape {frame.shape}")
    small = resize(frame, min(1.0, width / frame.shape[1]))
    if small.ndim == 3:
        small = small[..., 0] if channels == 1 else cv2.cvtColor(small, _TO_GREY[channels])
    return cv2.GaussianBlur(small, (5, 5), 0)


def changed_share(before: np.ndarray | None, after: np.ndarray, level: float) -> float:
    """The share of a thumbnail's pixels that changed by more than `level` grey levels once
    the frame's overall change of light is taken out (1 without a thumbnail before)."""
    changed = changed_mask(before, after, level)
    return 1.0 if changed is None else _share(changed)


def changed_mask(before: np.ndarray | None, after: np.ndarray, level: float) -> np.ndarray | None:
    """Which of a thumbnail's pixels changed by more than `level` grey levels once the
    frame's overall change of light is taken out (None without a thumbnail before, or one
    of another size: everything changed). A die that moves changes a few pixels a lot,
    wherever it is; the camera's exposure or the room's light changing scales every pixel a
    little, or shifts them all alike (taken out as the ratio of the two frames' medians, or
    not at all, then the median difference of what is left), or bends them along a curve,
    white clipped (taken out by `_matched`, both ways), or shifts the whole view by a
    pixel or so (a camera held in a hand: `_steadied`), or changes row by row (a lamp's
    flicker through a rolling shutter: `_row_gains`), or both at once, whichever leaves
    fewest changed;
    and a mean change over the frame would miss two small dice moving in a wide view."""
    if before is None or before.shape != after.shape:
        return None
    now, then = after.astype(np.float32), before.astype(np.float32)
    gain = _gain(before, after)
    masks = [_changed(now - then * gain, level), _changed(now - then, level)]
    # (not needed where nothing changed, most frames of a still scene)
    if all(m.any() for m in masks) and before.dtype == np.uint8 and after.dtype == np.uint8:
        then_as_now, now_as_then = _matched(before, after)
        both_ways = [_changed(now - then_as_now, level), _changed(then - now_as_then, level)]
        masks.append(max(both_ways, key=np.count_nonzero))
    steadied = _steadied(then, now) if all(m.any() for m in masks) else None
    if steadied is not None:
        masks.append(_changed(now - steadied * gain, level))
    if all(m.any() for m in masks):
        masks.append(_changed(now - then * _row_gains(then, now), level))
    if steadied is not None and all(m.any() for m in masks):  # (a trembling hand, banded)
        masks.append(_changed(now - steadied * _row_gains(steadied, now), level))
    return min(masks, key=np.count_nonzero)


def _row_gains(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Each row's change of light, as the ratio of its medians (a column): a lamp on mains
    power flickers, and a camera's rolling shutter, reading its rows one after another,
    sees it as bands of light that roll down the frame (at 5% and more the view never lay
    still, a review found). A die changes a few pixels of its rows, not their medians."""
    return ((np.median(after, axis=1) + 1.0) / (np.median(before, axis=1) + 1.0))[:, None]


SHAKE_PX = 3.0
"""The most a thumbnail may shift as a whole, in its pixels (12 in a 1280-wide frame), and be
taken for the camera's shake: a phone or a webcam held in a hand trembles by a pixel or
three of a 1280-wide frame, which at a die's edges changes the thumbnail past the level,
and the view never lay still (a review's tremor of 3 px: no roll read in 170 frames)."""


def _view_shift(
    before: np.ndarray | None, after: np.ndarray, frame: np.ndarray
) -> tuple[float, float]:
    """How far the whole view has moved from thumbnail `before` to `after`, in `frame`'s
    pixels (phase correlation: the table's shift, where dice are a small part of the
    view); none without a thumbnail before, or of another size. A camera drifting or
    panning slowly lets the view lie still as `_steadied` takes it, and its dice, read
    where they lay, had then been taken for a new roll once they were half a die off
    (a review: one roll printed two and three times)."""
    if before is None or before.shape != after.shape:
        return (0.0, 0.0)
    dx, dy = _shift(before.astype(np.float32), after.astype(np.float32))
    if abs(dx) > EDGE_BAND * after.shape[1] or abs(dy) > EDGE_BAND * after.shape[0]:
        return (0.0, 0.0)  # (no camera moved so far: two scenes unlike, a shift of nothing)
    scale = frame.shape[1] / after.shape[1]
    return (dx * scale, dy * scale)


def _shift(before: np.ndarray, after: np.ndarray) -> tuple[float, float]:
    """How far float thumbnail `after` lies shifted from `before` as a whole (phase
    correlation, to a fraction of a pixel), tapered to its edges: the frame's own edges,
    which do not move with the view, had outweighed a shift of ten pixels."""
    (dx, dy), _ = cv2.phaseCorrelate(before, after, window=_taper(after.shape[:2]))
    return float(dx), float(dy)


@functools.lru_cache(maxsize=8)
def _taper(shape: tuple[int, ...]) -> np.ndarray:
    return cv2.createHanningWindow((shape[1], shape[0]), cv2.CV_32F)


def _steadied(before: np.ndarray, after: np.ndarray) -> np.ndarray | None:
    """`before` moved as the whole view moved to `after` (phase correlation, to a fraction
    of a pixel), or None where it moved by more than `SHAKE_PX` or not at all. Dice that
    move leave the table where it was: the view's shift is the table's."""
    dx, dy = _shift(before, after)
    if not 0.05 < np.hypot(dx, dy) <= SHAKE_PX:
        return None
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    h, w = before.shape
    return cv2.warpAffine(
        before, shift, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _changed(change: np.ndarray, level: float) -> np.ndarray:
    """The pixels of `change` more than `level` from its median."""
    change = change - float(np.median(change[::4, ::4]))
    return np.abs(change) > level


def _share(mask: np.ndarray) -> float:
    return np.count_nonzero(mask) / mask.size


def _matched(before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`before`'s grey levels mapped onto `after`'s rank for rank (their histograms
    matched), and `after`'s onto `before`'s. A change of exposure keeps the order of a
    still scene's levels, whatever its curve (gamma 0.7 or 1.4 had read 5 and 3 of 8
    sample photos' still rolls twice: a ratio of medians or an offset takes out no curve).
    Dice that moved do not keep it: where a die was, the table shows, and where it went,
    the die covers the table. Both ways, as a map may merge levels but an exposure change
    does not merge a whole scene's: any frame maps onto a blank one, a lens cap's, as that
    one level."""
    levels = np.arange(256, dtype=np.float64)
    images = (before, after)
    counts = [
        cv2.calcHist([i], [0], None, [256], [0, 256]).ravel().astype(np.float64) for i in images
    ]
    ranks = [(np.cumsum(c) - c / 2) / i.size for c, i in zip(counts, images, strict=True)]

    def onto(k: int) -> np.ndarray:  # (image k's levels as the other's mid-ranks place them)
        shown = counts[1 - k] > 0
        mapped = np.interp(ranks[k], ranks[1 - k][shown], levels[shown]).astype(np.float32)
        return cv2.LUT(images[k], mapped.reshape(1, 256))  # (OpenCV's: 4 times NumPy's speed)

    return onto(0), onto(1)


# The brightest pixels (99th percentile, grey) of a frame in what the motion test takes for
# ordinary light: `DARK_LEVEL` (vision/light.py) until session 57, which raised that to 96 (with
# the smoothing of dark frames) and left the motion test, untested on real dark video, as
# it was.
LIT_LEVEL = 64.0


def light(thumb: np.ndarray) -> float:
    """The share of ordinary light a grey thumbnail shows, from a half to one: its brightest
    pixels (99th percentile) against `LIT_LEVEL`. In a dark room a rolling die changes the
    frame by only that share of what it changes in daylight, so the change level is scaled
    by it; not below a half, where a still, noisy dark frame would never count as still."""
    return min(1.0, max(0.5, top_level(thumb) / LIT_LEVEL))


# How far into the view, as a share of its width or height, a change reaching in from an
# edge may go and pass for a hand at the edge (`reaching_in`): an arm reaching further is
# over the table, where it may hide a die, and a change across the view is the camera
# knocked, or the light.
EDGE_BAND = 0.25


def reaching_in(changed: np.ndarray, around: np.ndarray | None = None) -> np.ndarray:
    """The part of a change that reaches in from the frame's edge and stays within
    `EDGE_BAND` of it: a hand, an arm, a sleeve or a shadow at the edge (a thrown die lands
    inside the view). `around` is what else differs from the scene last read (a hand come
    into view since, whose fingertips' moves alone do not touch the edge). Changed pixels
    up to 4 apart are taken as one patch first, as a hand's mask is broken up where it
    crosses a table's pattern, and the camera knocked joins a change scattered over the
    view into one patch across it."""
    labels, stats = _patches(changed if around is None else changed | around)
    x, y, w, h = (stats[:, k] for k in range(4))
    height, width = changed.shape
    band_x, band_y = EDGE_BAND * width, EDGE_BAND * height
    at_edge = (
        ((x == 0) & (x + w <= band_x))
        | ((y == 0) & (y + h <= band_y))
        | ((x + w == width) & (x >= width - band_x))
        | ((y + h == height) & (y >= height - band_y))
    )
    at_edge[0] = False  # (the unchanged rest)
    return changed & at_edge[labels]


def _patches(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A mask's patches (their labels and OpenCV's stats), pixels up to 4 apart joined."""
    joined = cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    return labels, stats


def _boxes(dets: Detections, shape: tuple[int, ...], frame: np.ndarray) -> np.ndarray:
    """The thumbnail's pixels on the dice read in `frame`, or within 4 of them (16 in a
    1280-wide frame: a box that jitters, a hand about to touch a die)."""
    on = np.zeros(shape[:2], bool)
    for x0, y0, x1, y1 in _corners(dets, shape, frame, grown=4.0):
        on[y0:y1, x0:x1] = True
    return on


def _corners(
    dets: Detections, shape: tuple[int, ...], frame: np.ndarray, *, grown: float | str
) -> list[tuple[int, int, int, int]]:
    """The dice's boxes in a thumbnail of `frame` (`shape`), grown by `grown` pixels each
    way or, "side", by the largest die's side, as (x0, y0, x1, y1) cut to the thumbnail;
    a box wholly outside it is left out (a slice's negative end counts from the far one)."""
    if not len(dets):
        return []
    boxes = np.array([die.box_xywh for die in dets], np.float64) * (shape[1] / frame.shape[1])
    more = boxes[:, 2:].max() if grown == "side" else float(grown)
    low = np.floor(boxes[:, :2] - more)
    high = np.ceil(boxes[:, :2] + boxes[:, 2:] + more)
    size = np.array([shape[1], shape[0]], np.float64)
    low, high = low.clip(0, size), high.clip(0, size)
    keep = (high > low).all(axis=1)
    return [
        (int(a[0]), int(a[1]), int(b[0]), int(b[1]))
        for a, b in zip(low[keep], high[keep], strict=True)
    ]


def same_dice(before: Detections, after: Detections) -> bool:
    """Whether two readings are the same dice lying where they lay: as many, each with a
    die of its value whose box holds its centre. Dice thrown again do not land so."""
    return len(before) == len(after) and _all_lay_before(before, after)


def _all_lay_before(
    before: Detections, after: Detections, shift: tuple[float, float] = (0.0, 0.0)
) -> bool:
    """Whether each die of `after` is one of `before` where it lay (of its value, its
    centre in that one's box, one to one): dice kept from a roll, the others picked up.
    `shift`: how far the whole view has moved since `before` (`_view_shift`), in pixels."""
    left = list(before)
    for die in after:
        cx, cy = die.center_xy[0] - shift[0], die.center_xy[1] - shift[1]
        for old in left:
            x, y, w, h = old.box_xywh
            if old.value == die.value and x <= cx <= x + w and y <= cy <= y + h:
                left.remove(old)
                break
        else:
            return False
    return True


def settled_rolls(
    frames: Iterable[np.ndarray | None],
    reader: Callable[[np.ndarray], Detections],
    *,
    still_frames: int = STILL_FRAMES,
    change_level: float = CHANGE_LEVEL,
    min_change: float = 0.0005,
) -> Generator[Roll, None, None]:
    """Yield a Roll each time the scene settles into something new (and once at the start),
    or lies still but for a hand come into view at its edge since the last reading.

    The scene is still once `still_frames` frames in a row are alike: each differs from the
    first of them in under `min_change` of its pixels (by `change_level` grey levels, scaled
    by the frame's `light`, so dice still rolling in a dark room are not read). Comparing
    with the first frame of the run, not the frame before, catches a die sliding slowly.
    A still scene is read only if it differs so from the scene last read, and taken only
    if its dice do not all lie where dice of theirs were last read (`_all_lay_before`): a
    hand passing over the dice, or one that rested in view and went, or the camera's
    exposure drifting, does not read one roll twice, nor do the dice a player leaves on
    the table after taking the scoring ones aside (or the kept ones, the others picked up
    to throw), while dice thrown in (or moved) without a hand in view are a new roll. (The
    price: a die thrown alone that lands in the box of a die of its value last read, the
    others gone, is taken for one left there; the still empty table read between two
    throws, as where the player picks up every die, makes it a roll again.) A hand resting
    over every die reads as such a table: the same dice back where they lay (`_back`)
    are no roll either.

    A hand or arm come into view at its edge since the last reading does not hold the
    reading while it moves there (one in the scene read still does): where all that
    moved is `reaching_in` (with what else differs from the scene last read, so that a
    hand's moving fingertips count with its arm), the frame is read at every
    `still_frames` such frames, if it differs from the scene last read away from the
    edge's changes; it is taken once two such readings in a row are the same dice, with a
    die not among those last read, as far as `_read_past_a_hand` can tell that nothing
    hides or moves a die. A frame given as None (one the stream lost: `video_frames`)
    keeps its place in the count and nothing else.
    """
    anchor = None  # the first frame of the current still run
    calm = 0
    inside = None  # the first frame of the current run still but for what reaches in
    calm_inside = 0
    last_read, last_dice = None, Detections()
    pending = None  # the dice read before in this run, while a hand moved at the edge
    hidden: tuple[np.ndarray | None, Detections] | None = None  # (read before a scene
    # with no dice: `_back`)
    for index, frame in enumerate(frames):
        if frame is None:
            continue
        thumb = thumbnail(frame)
        level = change_level * light(thumb)
        changed = changed_mask(anchor, thumb, level)
        # (the same first frame, most of the time: compared once)
        moved = changed if inside is anchor else changed_mask(inside, thumb, level)
        if changed is None or _share(changed) > min_change:
            anchor, calm = thumb, 1
        else:
            calm += 1
        # (what differs from the scene last read: compared once a frame, where needed)
        new = functools.cache(lambda: changed_mask(last_read, thumb, level))  # noqa: B023
        edge = None  # (what moved at the edge; None where the whole view is new)
        if moved is None:
            inside, calm_inside, pending = thumb, 1, None
        else:
            quiet = _share(moved) <= min_change
            edge = np.zeros_like(moved) if quiet else reaching_in(moved, around=new())
            if _share(moved & ~edge) > min_change:
                inside, calm_inside, pending = thumb, 1, None
            else:
                calm_inside += 1
        dets = None
        if calm == still_frames:
            since = new()
            if since is None or _share(since) > min_change:
                dets = reader(frame)
                # (dice that all lie where they were read are none thrown: the same roll
                # after a hand passed, or the dice left once a player set the scoring ones
                # aside, which had been printed as a new roll, a bust; where the camera
                # has moved since, where they were is where it shows them now)
                if len(dets) and _all_lay_before(
                    last_dice, dets, _view_shift(last_read, thumb, frame)
                ):
                    dets = None
        elif calm < still_frames and calm_inside % still_frames == 0 and edge is not None:
            dets = _read_past_a_hand(
                new(), last_read, last_dice, thumb, frame, reader, edge, min_change
            )
            agreed = dets is not None and pending is not None and same_dice(pending, dets)
            dets, pending = (dets if agreed else None), dets
        if dets is not None:
            if not len(dets):
                hidden = (last_read, last_dice) if len(last_dice) else hidden
            elif hidden is not None and _back(hidden, dets, thumb, frame):
                # (not printed again, but the scene they are read in now; the roll stays
                # hidden's until a new one is printed: a hand that stopped over some dice
                # on its way off had left the rest, once it went, to be printed again)
                last_read, last_dice, pending = thumb, dets, None
                continue
            else:
                hidden = None
            last_read, last_dice, pending = thumb, dets, None
            yield Roll(index, dets)


def _back(
    hidden: tuple[np.ndarray | None, Detections],
    dets: Detections,
    thumb: np.ndarray,
    frame: np.ndarray,
) -> bool:
    """Whether the dice read after a still scene with none are dice read before it, each
    where it lay: a hand rested over the whole roll (read as a table with no dice), and
    the roll had been printed again when it left (a review), or what it left of it once
    it took the scoring dice aside. Two dice or more: a throw that lands so is as good as
    never, where one die thrown alone into its old box with its old value (one throw in a
    few hundred) would be lost."""
    before_read, before = hidden
    return 2 <= len(dets) <= len(before) and _all_lay_before(
        before, dets, _view_shift(before_read, thumb, frame)
    )


def _read_past_a_hand(
    changed: np.ndarray | None,
    last_read: np.ndarray | None,
    last_dice: Detections,
    thumb: np.ndarray,
    frame: np.ndarray,
    reader: Callable[[np.ndarray], Detections],
    moving: np.ndarray,
    min_change: float,
) -> Detections | None:
    """The dice of a frame in which a hand moves at the edge (`settled_rolls`), or None
    where they are not yet to be taken: the first roll (no scene read to tell a hand
    from), the frame's light changed (the camera's exposure at work), nothing new away
    from the edge, no die read that was not there before (dice kept from the last roll,
    the others shaken in the hand), anything else new near the dice (a hand at one, or
    its shadow, may hide a die), or what moves at the edge under four dice in size (a
    die rocking there, too blurred to read)."""
    if last_read is None or changed is None:  # (the first roll, or a new frame size)
        return None
    if abs(_gain(last_read, thumb) - 1.0) > MOST_GAIN:  # (the camera's exposure at work)
        return None
    hand = reaching_in(changed)
    if _share(changed & ~hand) <= min_change:
        return None
    dets = reader(frame)
    # (none new: the dice kept from the last roll, the others being shaken in the hand)
    if not len(dets) or _all_lay_before(last_dice, dets):
        return None
    # (anything new near the dice but them, a hand at one or its shadow, may hide a die)
    besides = (changed | moving) & ~_boxes(dets, thumb.shape, frame)
    besides &= _spread(dets, thumb.shape, frame)
    if _share(besides) > min_change:
        return None
    return None if _die_sized(hand | moving, moving, dets, frame) else dets


# How far a frame's median grey level may be from the scene last read's, as a share, for
# dice to be read past a hand: a bright hand makes the camera's auto exposure darken the
# frame, and a die the readers then misread would be printed, and again once the hand goes.
MOST_GAIN = 0.05


def _gain(before: np.ndarray, after: np.ndarray) -> float:
    """The ratio of two thumbnails' median grey levels (a sixteenth of the pixels is
    plenty for a median)."""
    return (float(np.median(after[::4, ::4])) + 1.0) / (float(np.median(before[::4, ::4])) + 1.0)


def _die_sized(reach: np.ndarray, moving: np.ndarray, dets: Detections, frame: np.ndarray) -> bool:
    """Whether something moving at the edge is under four dice in size (four times the
    largest read): a die rocking against the edge, blurred past reading, not a hand."""
    labels, stats = _patches(reach)
    scale = reach.shape[1] / frame.shape[1]
    die = max(w * h for _, _, w, h in (d.box_xywh for d in dets)) * scale * scale
    patches = np.unique(labels[moving])
    return bool((stats[patches[patches > 0], cv2.CC_STAT_AREA] < 4 * die).any())


def _spread(dets: Detections, shape: tuple[int, ...], frame: np.ndarray) -> np.ndarray:
    """The thumbnail's pixels on the box round the dice read in `frame`, grown by a die's
    side each way: a hand that reaches into it may cover a die none can see."""
    on = np.zeros(shape[:2], bool)
    corners = np.array(_corners(dets, shape, frame, grown="side")).reshape(-1, 4)
    if len(corners):
        (x0, y0), (x1, y1) = corners[:, :2].min(axis=0), corners[:, 2:].max(axis=0)
        on[y0:y1, x0:x1] = True
    return on


def _a_folder(path: str) -> bool:
    """Whether `path` is a folder, which holds no video (a stream's URL, a file, a camera
    device or a pipe, `--camera /dev/stdin`, go to OpenCV, which says if it cannot open one)."""
    return _mode_is(path, stat.S_ISDIR)


def _mode_is(path: str, test: Callable[[int], bool]) -> bool:
    """Whether `path` names something whose mode passes `test` (False where there is none)."""
    try:
        return test(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _utf8(text: str) -> bool:
    """Whether a path is UTF-8 text: a name that is not keeps its bytes as lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _capture(source: str | int) -> cv2.VideoCapture | None:
    """OpenCV's capture of `source`, or None where OpenCV refuses it. Opened on a thread of
    its own while this one waits in short steps: a named pipe with no writer yet holds
    the open in C, where Ctrl-C went unheard, and now ends the wait (KeyboardInterrupt)."""
    opened: list[cv2.VideoCapture | None] = []

    def open_it() -> None:
        try:
            opened.append(cv2.VideoCapture(source))
        except (cv2.error, OverflowError):  # (a camera number past a C int: no such camera)
            opened.append(None)

    # (a file's complaints, printed by OpenCV's AVI reader with C's fprintf past its log
    # level, are kept off the terminal: the one-line error says the video does not open)
    quiet = native_stderr_kept() if isinstance(source, str) else contextlib.nullcontext()
    with quiet:
        worker = threading.Thread(target=open_it, name="open-video", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.1)
        except KeyboardInterrupt:
            _GIVEN_UP.set()
            raise
    return opened[0] if opened else None


_GIVEN_UP = threading.Event()
"""Set once a Ctrl-C gave up on an open (`_capture`)."""


def open_given_up() -> bool:
    """Whether a Ctrl-C gave up on opening a video source. Python's shutdown after it
    aborted the process ("terminate called without an active exception", exit 134) where
    the open finished in OpenCV's C code just before or during it, even with the capture
    released (a camera takes a second or more to open, a named pipe until its writer
    comes): the process must then end without it."""
    return _GIVEN_UP.is_set()


def _why_not_opened(source: str | int) -> str:
    """Why OpenCV could not open a video file, where the file system says (": no such
    file", as `hotdice read` says of a photo): a stream's URL, an image sequence's
    pattern or a camera number is OpenCV's to judge, and left unexplained."""
    if not isinstance(source, str) or "://" in source or "%" in source:
        return ""
    try:
        found = os.stat(source)
    except OSError as exc:
        missing = exc.errno in (errno.ENOENT, errno.ENOTDIR)
        return ": no such file" if missing else f": {(exc.strerror or str(exc)).lower()}"
    except ValueError:  # (a NUL in the name: no file has it)
        return ": no such file"
    if stat.S_ISREG(found.st_mode) and not found.st_size:
        return ": the file is empty"
    return ""


# Failed reads in a row that end a stream. OpenCV fails one read for a frame it cannot
# decode and goes on with the next: a video with one damaged frame had ended there, its
# later rolls never read and nothing said. A stream's end fails every
# read; so does a camera unplugged or frozen, whose every read may wait for a timeout
# (10 s for a V4L2 camera), so failed reads that have gone on for `MISSED_SECONDS` end it
# too, as the first such read did before. A video file that counts its frames is read to
# its last one however many in a row fail (its index's count of frames: a camera or a
# pipe counts none, 0 or -1), unless they go on that long: a file's ten damaged frames in a
# row had ended it there, its later rolls lost unsaid, and ten at its start took it for no
# video.
MISSED_FRAMES = 10
MISSED_SECONDS = 2.0


def video_frames(
    source: str | int, *, opened: Callable[[float], None] | None = None
) -> Generator[np.ndarray | None, None, None]:
    """Frames from a camera index or a video file, until the stream ends (a file's last
    frame, or `MISSED_FRAMES` failed reads in a row, or `MISSED_SECONDS` of them). A
    frame lost between two read is given as None, so that frames keep their numbers. A
    file none of whose frames decodes is an OSError. `opened` is told the frame rate the
    source gives (0 where it gives none) once it is open, before its first frame. The
    frames are read on a thread of their own while this one waits in short steps: a pipe
    whose writer stalls holds a read in C, where Ctrl-C went unheard until the writer let
    go."""
    # (a file's complaints are kept off the terminal; a camera's, "busy" or "permission
    # denied", are what explain the one-line error, and are left)
    text = str(source)  # (a path past 100 characters is cut: the error is one line)
    shown = repr(source) if len(text) <= 100 else f"{text[:40]!r}… ({len(text):,} characters)"
    if isinstance(source, str) and _a_folder(source):
        raise OSError(f"cannot open camera or video {shown}: a folder, not a video")
    if isinstance(source, str) and not _utf8(source):  # (OpenCV's string conversion crashed)
        raise OSError(f"cannot open camera or video {shown}: OpenCV needs a UTF-8 file name")
    cap = _capture(source)
    if cap is None or not cap.isOpened():
        raise OSError(f"cannot open camera or video {shown}{_why_not_opened(source)}")
    if opened is not None:
        opened(float(cap.get(cv2.CAP_PROP_FPS)))
    # (a pipe's MP4 decodes no frame either: the command says why, `cli.run_camera`)
    a_file = isinstance(source, str) and _mode_is(source, stat.S_ISREG)
    counted = cap.get(cv2.CAP_PROP_FRAME_COUNT)  # (a file's frames, by its index)
    frames: queue.Queue[np.ndarray | BaseException | None] = queue.Queue(maxsize=2)
    done = threading.Event()

    def handed(item: np.ndarray | BaseException | None) -> bool:
        while not done.is_set():
            with contextlib.suppress(queue.Full):
                frames.put(item, timeout=0.1)
                return True
        return False

    def read_frames() -> None:
        missed, since, reads, decoded = 0, 0.0, 0, 0
        try:
            while not done.is_set():
                started = time.monotonic()
                ok, frame = cap.read()
                reads += 1
                if ok:
                    lost = [_LOST] * missed  # (lost between two frames read: counted)
                    missed, decoded = 0, decoded + 1
                    if not all(handed(item) for item in [*lost, frame]):
                        return
                    continue
                missed, since = missed + 1, since if missed else started
                stalled = time.monotonic() - since >= MISSED_SECONDS
                if stalled or (missed >= MISSED_FRAMES and reads >= counted):
                    # (a file of one frame is a still image, OpenCV's or not: no video)
                    if a_file and not decoded and counted > 1:
                        handed(OSError(f"cannot read video {shown}: none of its frames decodes"))
                    return
        except cv2.error as exc:  # (the command's one line, as a source that will not open)
            why = next(iter(opencv_message(exc).strip().splitlines()), "")
            handed(OSError(f"cannot read camera or video {shown}: {why or 'OpenCV failed'}"))
        except BaseException as exc:  # (for the reading thread to raise: not lost here)
            handed(exc)
        finally:
            handed(None)

    worker = threading.Thread(target=read_frames, name="read-video", daemon=True)
    worker.start()
    try:
        while (item := _next(frames)) is not None:
            if isinstance(item, BaseException):
                raise item
            yield None if item is _LOST else item
    finally:
        done.set()
        worker.join(1.0)
        if not worker.is_alive():  # (else a read still holds it: the process's end frees it)
            cap.release()


# A frame the stream lost between two it gave (`video_frames`)
_LOST = np.zeros(0, np.uint8)


def _next(
    frames: queue.Queue[np.ndarray | BaseException | None],
) -> np.ndarray | BaseException | None:
    """The next frame, waited for in short steps (Ctrl-C is heard between them)."""
    while True:
        with contextlib.suppress(queue.Empty):
            return frames.get(timeout=0.1)
