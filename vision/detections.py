"""The one result type of the vision layer: dice found in an image.

Coordinates are image pixels of the array that was read, (x, y) order as OpenCV uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

ASK_BELOW = 0.6
"""Dice read under this confidence are for the player to confirm, everywhere a reading is
shown (`hotdice read`, `--annotate`, the phone). A die the readers cannot read is reported
under 0.5; the margin asks about the ones read barely over that too. On the dev photos
(session 69: 2,287 dice read right, 15 wrong, symbols left out) the dice read at 0.6-0.8
are right 38 times in 42: asking about them too would catch 4 misreads for 42 more
questions (38 about dice read right), so the bound stays at 0.6; none of the 72 read at
0.8-0.9 is wrong."""


@dataclass(frozen=True)
class DieDetection:
    """One die: its top-face value, how sure the reader is, and where it lies.

    >>> DieDetection(3, 0.9, (10, 20, 30, 30), (25.0, 35.0)).value
    3
    """

    value: int
    confidence: float
    box_xywh: tuple[int, int, int, int]
    center_xy: tuple[float, float]

    def __post_init__(self) -> None:
        if not isinstance(self.value, int) or not 1 <= self.value <= 6:
            raise ValueError(f"die value must be an int 1-6, got {self.value!r}")
        if not (isinstance(self.confidence, float | int) and 0.0 <= self.confidence <= 1.0):
            raise ValueError(f"confidence must be in [0, 1], got {self.confidence!r}")
        if len(self.box_xywh) != 4 or self.box_xywh[2] <= 0 or self.box_xywh[3] <= 0:
            raise ValueError(f"box_xywh must be (x, y, w, h) with w, h > 0, got {self.box_xywh!r}")
        if len(self.center_xy) != 2 or not all(math.isfinite(c) for c in self.center_xy):
            raise ValueError(f"center_xy must be two finite numbers, got {self.center_xy!r}")
        object.__setattr__(self, "confidence", float(self.confidence))
        object.__setattr__(self, "box_xywh", tuple(int(v) for v in self.box_xywh))
        object.__setattr__(self, "center_xy", tuple(float(v) for v in self.center_xy))

    def to_json(self) -> dict:
        """The JSON object `hotdice read --json` prints for this die."""
        return {
            "value": self.value,
            "confidence": round(self.confidence, 3),
            "box_xywh": list(self.box_xywh),
        }


@dataclass(frozen=True)
class Detections:
    """All dice read from one image, ordered left to right then top to bottom."""

    dice: tuple[DieDetection, ...] = field(default_factory=tuple)
    size_wh: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        dice = tuple(self.dice)
        if not all(isinstance(d, DieDetection) for d in dice):
            raise ValueError("Detections.dice must hold DieDetection objects")
        object.__setattr__(self, "dice", dice)

    @classmethod
    def empty(cls, size_wh: tuple[int, int] = (0, 0)) -> Detections:
        """No dice: what a blank table gives."""
        return cls((), size_wh)

    def __len__(self) -> int:
        return len(self.dice)

    def __iter__(self) -> Iterator[DieDetection]:
        return iter(self.dice)

    @property
    def values(self) -> list[int]:
        """The roll as read, in detection order."""
        return [d.value for d in self.dice]

    def scaled(self, factor: float, size_wh: tuple[int, int]) -> Detections:
        """The same dice in an image `factor` times the size, `size_wh` (a photo decoded
        at a reduced size, reported in the photo's own pixels)."""
        if factor == 1:
            return Detections(self.dice, size_wh)
        dice = []
        for d in self.dice:
            x, y, w, h = d.box_xywh
            box = (
                round(x * factor),
                round(y * factor),
                max(1, round(w * factor)),
                max(1, round(h * factor)),
            )
            centre = (d.center_xy[0] * factor, d.center_xy[1] * factor)
            dice.append(DieDetection(d.value, d.confidence, box, centre))
        return Detections(tuple(dice), size_wh)

    def uncertain(self, threshold: float = ASK_BELOW) -> tuple[DieDetection, ...]:
        """Dice the player should confirm by eye."""
        return tuple(d for d in self.dice if d.confidence < threshold)
