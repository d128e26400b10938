"""A die too small to read surely (under 13 px) is read but asked about (`small.py`)."""

from __future__ import annotations

from pathlib import Path

import cv2

import vision
from vision.detections import ASK_BELOW, Detections, DieDetection
from vision.small import SMALL_BELOW, SMALL_CONFIDENCE, held, too_small


def test_a_die_under_the_bound_is_held_under_the_asking_level() -> None:
    """Only the confidence of a die under `SMALL_BELOW` on its longer side changes, and
    only down: its value, its box, and a die read less surely already stay as they are."""
    assert SMALL_CONFIDENCE < ASK_BELOW
    dice = (
        DieDetection(2, 0.96, (0, 0, SMALL_BELOW - 1, SMALL_BELOW - 1), (6.0, 6.0)),
        DieDetection(5, 0.3, (40, 0, 10, 10), (45.0, 5.0)),
        DieDetection(4, 0.96, (80, 0, SMALL_BELOW, SMALL_BELOW - 4), (86.0, 5.0)),  # (cut)
    )
    out = held(Detections(dice, (200, 100)))
    assert [(d.value, d.confidence, d.box_xywh) for d in out.dice] == [
        (2, SMALL_CONFIDENCE, dice[0].box_xywh),
        (5, 0.3, dice[1].box_xywh),
        (4, 0.96, dice[2].box_xywh),
    ]
    assert too_small((0, 0, 12, 12)) and not too_small((0, 0, 9, 13))
    assert out.size_wh == (200, 100)


def test_a_photo_shrunk_until_its_dice_are_tiny_is_all_asked_about(samples_dir: Path) -> None:
    """The sample photo's two dice read surely at its size; shrunk to a fifth (12 px dice),
    one read surely as a 1 was a 2. So small, both are reported unsure, with their values."""
    image = cv2.imread(str(samples_dir / "WIN_20221210_14_48_10.jpg"))
    assert image is not None
    as_shot = vision.read(image)
    assert len(as_shot) == 2 and not as_shot.uncertain()
    tiny = vision.read(cv2.resize(image, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA))
    assert len(tiny) == 2
    assert all(vision.too_small(d.box_xywh) for d in tiny.dice)
    assert all(d.confidence <= SMALL_CONFIDENCE for d in tiny.dice)
