"""Scoring helpers of `hotdice eval` that need no networks."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detections import Detections, DieDetection
from vision.evaluate import close_up, score_image, summarize


def _die(value: int, x: float, y: float = 50.0) -> DieDetection:
    return DieDetection(value, 0.9, (round(x) - 5, round(y) - 5, 10, 10), (x, y))


def test_labelled_dice_are_paired_with_as_many_detections_as_can_be():
    """The detection at x=70 lies in both boxes and nearer the first box's centre; pairing
    it there first would leave the second die unpaired, though x=25 can only be the first."""
    entry = {
        "file": "x.jpg",
        "dice": [{"value": 3, "box": [0, 0, 100, 100]}, {"value": 5, "box": [60, 0, 100, 100]}],
    }
    result = score_image(entry, Detections((_die(5, 70), _die(3, 25))), 1.0)
    assert result.matched == 2 and result.face_correct == 2 and result.roll_ok


def test_an_ignore_box_takes_its_labelled_dice_out_of_the_count_too():
    """Detections in an `ignore` box are dropped; so is a labelled die whose box centre is
    in one (it counted as missed: recall 0% for an image all under an ignore box)."""
    entry = {
        "file": "x.jpg",
        "dice": [{"value": 3, "box": [0, 0, 20, 20]}, {"value": 5, "box": [100, 0, 20, 20]}],
        "ignore": [[90, 0, 40, 40]],
    }
    result = score_image(entry, Detections((_die(3, 10, 10), _die(6, 110, 10))), 1.0)
    assert (result.labelled, result.detected, result.matched) == (1, 1, 1)
    assert result.roll_ok and result.problems == []


def test_a_pairing_the_nearest_first_completes_is_kept():
    """Each detection is nearest its own die's centre; a pairing that only counts pairs
    could swap them and report two misreads."""
    entry = {
        "file": "x.jpg",
        "dice": [{"value": 5, "box": [0, 0, 100, 100]}, {"value": 3, "box": [40, 40, 100, 100]}],
    }
    result = score_image(entry, Detections((_die(3, 80, 80), _die(5, 45, 95))), 1.0)
    assert result.face_correct == 2 and result.roll_ok


boxes = st.lists(
    st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(5, 40), st.integers(5, 40)),
    max_size=4,
)
points = st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100)), max_size=4)


@settings(max_examples=300, deadline=None)
@given(boxes, points)
def test_as_many_dice_are_paired_as_any_pairing_could(box_list, point_list):
    """Against every one-to-one pairing of a few overlapping boxes and points."""
    entry = {"file": "x.jpg", "dice": [{"value": 1, "box": list(b)} for b in box_list]}
    dets = Detections(tuple(_die(1, x, y) for x, y in point_list))
    inside = [
        [j for j, (x, y) in enumerate(point_list) if bx <= x <= bx + w and by <= y <= by + h]
        for bx, by, w, h in box_list
    ]
    best = 0  # each box given a point of its own or none, every way
    for order in itertools.permutations(
        [*range(len(point_list)), *[None] * len(box_list)], len(box_list)
    ):
        best = max(best, sum(j in inside[k] for k, j in enumerate(order)))
    assert score_image(entry, dets, 1.0).matched == best


def test_labels_without_boxes_compare_values_and_score_no_face():
    entry = {"file": "x.jpg", "dice": [{"value": 2}, {"value": 5}, {"value": 6, "face": "symbol"}]}
    right = score_image(entry, Detections((_die(5, 10), _die(1, 30), _die(2, 50))), 1.0)
    assert right.roll_ok and right.matched == 3 and right.face_scored == 0
    misread = score_image(entry, Detections((_die(5, 10), _die(1, 30), _die(3, 50))), 1.0)
    assert not misread.roll_ok and misread.matched == 2 and misread.problems
    assert summarize([right, misread])["face_accuracy"] is None


@pytest.mark.parametrize("fraction", [0.3, 0.9])
def test_close_up_centres_the_die_at_the_asked_size(fraction):
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[60:100, 50:90] = 255  # the "die": box [50, 60, 40, 40]
    frame = close_up(photo, [50, 60, 40, 40], fraction)
    assert frame.shape == (480, 640, 3)
    ys, xs = np.nonzero(frame[..., 0] > 127)
    side = fraction * 480
    # within half a photo pixel (boxes are continuous, pixels sampled at their centres)
    tol = 0.5 * side / 40 + 2
    assert abs(xs.mean() - 320) < tol and abs(ys.mean() - 240) < tol
    assert abs((xs.max() - xs.min() + 1) - side) < tol
    assert abs((ys.max() - ys.min() + 1) - side) < tol


def test_a_box_of_numbers_no_float_holds_is_a_label_problem_not_a_crash():
    from vision.evaluate import _label_problem

    for box in ([10**400, 10, 20, 20], [1, 2, float("nan"), 3], [1, 2, 0, 3]):
        entry = {"file": "a.jpg", "dice": [{"value": 3, "box": box}]}
        assert "not [x, y, w, h]" in _label_problem(entry)
        assert "not a list of [x, y, w, h]" in _label_problem({"file": "a.jpg", "ignore": [box]})
    assert _label_problem({"file": "a.jpg", "dice": [{"value": 3, "box": [1, 2, 30, 30]}]}) is None
