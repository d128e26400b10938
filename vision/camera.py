"""Live reading: wait until the dice stop moving, read them once, then wait for the next roll.

The motion test compares each frame with the previous one on a small grey thumbnail, so
it costs well under a millisecond a frame and ignores sensor noise. The logic takes any
iterable of frames, so it runs the same on a camera, a video file or a list in a test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from .detections import Detections
from .reader import DARK_LEVEL, top_level


@dataclass(frozen=True)
class Roll:
    """One settled roll: the frame index it was read at and what was read."""

    frame_index: int
    detections: Detections


def motion(prev: np.ndarray | None, thumb: np.ndarray) -> float:
    """Mean absolute change between two thumbnails, in grey levels (inf without a previous one)."""
    if prev is None or prev.shape != thumb.shape:
        return float("inf")
    return float(cv2.absdiff(prev, thumb).mean())


def thumbnail(frame: np.ndarray, *, width: int = 160) -> np.ndarray:
    """Small blurred grey copy of a frame for the motion test."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (5, 5), 0)


def light(thumb: np.ndarray) -> float:
    """The share of ordinary light a grey thumbnail shows, from a half to one: its brightest
    pixels (99th percentile) against DARK_LEVEL, under which the reader brightens a frame
    (the reader measures the brightest colour channel, this the grey: close enough for a
    motion test). In a dark room a rolling die changes the frame by only that share of
    what it changes in daylight, so the motion levels are scaled by it; not below a half,
    where a still, noisy dark frame would never count as still."""
    return min(1.0, max(0.5, top_level(thumb) / DARK_LEVEL))


def settled_rolls(
    frames: Iterable[np.ndarray],
    reader: Callable[[np.ndarray], Detections],
    *,
    still_frames: int = 8,
    still_level: float = 1.5,
    moving_level: float = 4.0,
) -> Iterator[Roll]:
    """Yield a Roll each time the scene becomes still after moving (and once at the start).

    A scene is still after `still_frames` frames in a row change by less than `still_level`;
    it must then change by more than `moving_level` (a hand, a new roll) before the next
    reading, so one roll is read once, however long it lies on the table. Both levels
    are scaled by the frame's `light`, so dice still rolling in a dark room are not read.
    """
    prev = None
    calm = 0
    armed = True
    for index, frame in enumerate(frames):
        thumb = thumbnail(frame)
        m = motion(prev, thumb)
        prev = thumb
        share = light(thumb)
        if m > moving_level * share:
            armed = True
            calm = 0
            continue
        calm = calm + 1 if m < still_level * share else 0
        if armed and calm >= still_frames:
            armed = False
            yield Roll(index, reader(frame))


def video_frames(source: str | int) -> Iterator[np.ndarray]:
    """Frames from a camera index or a video file, until the stream ends."""
    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        raise OSError(f"cannot open camera or video {source!r}")
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            yield frame
    finally:
        cap.release()
