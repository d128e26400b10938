"""A die too small in the image to read surely: its reading is asked about.

Under about 13 pixels a side a die's pips are a pixel or two across, and the face readers
read many such dice surely and wrongly. Photos of the dev sets scaled down until their dice
were 8-20 pixels, the dice read at 0.6 or more that were wrong (session 68):

| die side | `byler_d6` | `skovy_catan` |
|---|---|---|
| under 10 px | 12 of 129 | 1 of 2 |
| 10-11 px | 10 of 187 | 7 of 32 |
| 11-12 px | 1 of 241 | 9 of 49 |
| 12-13 px | 1 of 237 | 4 of 55 |
| 13-14 px | 2 of 217 | 2 of 60 |
| 14-16 px | 1 of 323 | 0 of 62 |

So a die under `SMALL_BELOW` pixels is reported as read but unsure, and the player is
asked to confirm it: a camera farther off, or a photo of few pixels. Its value never
changes. The box is measured in the image read: a photo file is decoded larger while its
dice come out under 24 pixels (`photo.MIN_DIE_PX`, unless that finds fewer dice), so
this holds mostly for dice small in the photo itself. The dev photos' dice are 25 pixels
or more. (`scripts/small_dice.py` measures the table.)
"""

from __future__ import annotations

from dataclasses import replace

from .detections import Detections

SMALL_BELOW = 13  # pixels, the longer side of the die's box in the image read
SMALL_CONFIDENCE = 0.5  # (under `detections.ASK_BELOW`, so the player is asked)


def too_small(box: tuple[int, int, int, int]) -> bool:
    """Whether a die boxed (x, y, w, h) is too small to trust its reading (`SMALL_BELOW`)."""
    return max(box[2], box[3]) < SMALL_BELOW


def held(detections: Detections) -> Detections:
    """The roll as read, each die too small to trust held under the asking level."""
    dice = tuple(
        replace(die, confidence=min(die.confidence, SMALL_CONFIDENCE))
        if too_small(die.box_xywh)
        else die
        for die in detections.dice
    )
    return replace(detections, dice=dice)
