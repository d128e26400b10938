"""The result type validates what it holds."""

from __future__ import annotations

from typing import TypedDict

import pytest

from vision.detections import ASK_BELOW, Detections, DieDetection


class _DieFields(TypedDict, total=False):
    value: int
    confidence: float
    box_xywh: tuple[int, int, int, int]
    center_xy: tuple[float, float]


def test_valid_die_round_trips_to_json() -> None:
    d = DieDetection(4, 0.875, (10, 20, 30, 31), (25.0, 35.5))
    assert d.to_json() == {"value": 4, "confidence": 0.875, "box_xywh": [10, 20, 30, 31]}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"value": 0},
        {"value": 7},
        {"confidence": 1.5},
        {"confidence": -0.1},
        {"box_xywh": (0, 0, 0, 10)},
        {"box_xywh": (0, 0, 10, 0)},
        {"center_xy": (float("nan"), 1.0)},
    ],
)
def test_invalid_die_is_rejected(kwargs: _DieFields) -> None:
    args: _DieFields = {
        "value": 3,
        "confidence": 0.5,
        "box_xywh": (0, 0, 10, 10),
        "center_xy": (5.0, 5.0),
    }
    args.update(kwargs)
    with pytest.raises(ValueError):
        DieDetection(**args)


def test_empty_and_uncertain() -> None:
    assert len(Detections.empty((640, 480))) == 0
    dets = Detections(
        (
            DieDetection(1, 0.9, (0, 0, 5, 5), (2.5, 2.5)),
            DieDetection(6, 0.3, (9, 0, 5, 5), (11.5, 2.5)),
        ),
        (20, 10),
    )
    assert dets.values == [1, 6]
    assert [d.value for d in dets.uncertain()] == [6]


def test_scaled_moves_boxes_and_centres_with_the_image() -> None:
    dets = Detections((DieDetection(2, 0.8, (10, 20, 30, 30), (25.0, 35.0)),), (100, 50))
    big = dets.scaled(4.0, (400, 200))
    assert big.size_wh == (400, 200)
    assert big.dice[0].box_xywh == (40, 80, 120, 120) and big.dice[0].center_xy == (100.0, 140.0)
    assert big.dice[0].value == 2 and big.dice[0].confidence == 0.8
    tiny = dets.scaled(0.01, (1, 1))  # a box never shrinks to nothing
    assert tiny.dice[0].box_xywh[2:] == (1, 1)
    assert dets.scaled(1, (100, 50)) == dets


@pytest.mark.parametrize("confidence", [0.0, 1.0])
def test_confidence_may_be_either_end_of_0_to_1(confidence: float) -> None:
    """A reader sure a die is unreadable says 0; one certain says 1."""
    assert DieDetection(2, confidence, (0, 0, 5, 5), (2.5, 2.5)).confidence == confidence


def test_a_die_read_at_the_ask_level_is_not_asked_about() -> None:
    """Below `ASK_BELOW` is asked, as `annotate` draws a die at it green."""
    dets = Detections(
        (
            DieDetection(1, ASK_BELOW, (0, 0, 5, 5), (2.5, 2.5)),
            DieDetection(2, ASK_BELOW - 0.01, (9, 0, 5, 5), (11.5, 2.5)),
        )
    )
    assert [d.value for d in dets.uncertain()] == [2]


def test_scaled_by_one_still_takes_the_new_size() -> None:
    dets = Detections((DieDetection(2, 0.8, (10, 20, 30, 30), (25.0, 35.0)),), (100, 50))
    same = dets.scaled(1, (640, 480))
    assert same.size_wh == (640, 480) and same.dice == dets.dice


def test_detections_hold_only_dice() -> None:
    with pytest.raises(ValueError, match="DieDetection"):
        Detections(({"value": 3},))  # type: ignore[arg-type]  # a dict: refused
