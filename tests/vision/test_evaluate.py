"""Scoring helpers of `hotdice eval` that need no networks."""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import decode_image, load_image, read
from vision.detections import Detections, DieDetection
from vision.evaluate import (
    CLOSE_UP_FRACTIONS,
    ImageResult,
    close_up,
    close_ups,
    evaluate,
    failure_lines,
    labels_upright,
    score_image,
    summarize,
)
from vision.io import box_upright, exif_orientation


def _die(value: int, x: float, y: float = 50.0, confidence: float = 0.9) -> DieDetection:
    return DieDetection(value, confidence, (round(x) - 5, round(y) - 5, 10, 10), (x, y))


def test_labelled_dice_are_paired_with_as_many_detections_as_can_be() -> None:
    """The detection at x=70 lies in both boxes and nearer the first box's centre; pairing
    it there first would leave the second die unpaired, though x=25 can only be the first."""
    entry = {
        "file": "x.jpg",
        "dice": [{"value": 3, "box": [0, 0, 100, 100]}, {"value": 5, "box": [60, 0, 100, 100]}],
    }
    result = score_image(entry, Detections((_die(5, 70), _die(3, 25))), 1.0)
    assert result.matched == 2 and result.face_correct == 2 and result.roll_ok


def test_an_ignore_box_takes_its_labelled_dice_out_of_the_count_too() -> None:
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


def test_a_pairing_the_nearest_first_completes_is_kept() -> None:
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
def test_as_many_dice_are_paired_as_any_pairing_could(
    box_list: list[tuple[int, int, int, int]], point_list: list[tuple[int, int]]
) -> None:
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


TWO_DICE = {
    "file": "x.jpg",
    "dice": [{"value": 2, "box": [0, 0, 20, 20]}, {"value": 5, "box": [40, 0, 20, 20]}],
}


@pytest.mark.parametrize(
    "read, asked, wrong_unasked, right_once_asked",
    [
        ([(2, 10, 0.9), (5, 50, 0.9)], 0, 0, True),  # right as read
        ([(2, 10, 0.9), (3, 50, 0.4)], 1, 0, True),  # misread, but asked
        ([(2, 10, 0.9), (3, 50, 0.9)], 0, 1, False),  # misread surely
        ([(2, 10, 0.9), (5, 50, 0.9), (4, 90, 0.3)], 1, 0, True),  # an extra, asked
        ([(2, 10, 0.9), (5, 50, 0.9), (4, 90, 0.7)], 0, 1, False),  # an extra, sure
        ([(2, 10, 0.4), (4, 90, 0.4)], 2, 0, False),  # a die missed: never asked about
        ([(2, 10, 0.9), (3, 50, 0.6)], 0, 1, False),  # 0.6 is sure: not asked
        ([(3, 10, 0.4), (2, 15, 0.9), (5, 50, 0.9)], 1, 0, True),  # the sure 2 is the die
    ],
)
def test_a_roll_is_right_once_asked_when_every_mistake_was_asked_about(
    read: list[tuple[int, float, float]], asked: int, wrong_unasked: int, right_once_asked: bool
) -> None:
    """A die read under `ASK_BELOW` is one the player checks: a roll whose only mistakes
    are such dice comes out right at the table; a sure mistake or a missed die does not."""
    dets = Detections(tuple(_die(v, x, 10, confidence=c) for v, x, c in read))
    result = score_image(TWO_DICE, dets, 1.0)
    assert (result.asked, result.wrong_unasked) == (asked, wrong_unasked)
    assert result.right_once_asked is right_once_asked
    assert result.roll_ok is (read == [(2, 10, 0.9), (5, 50, 0.9)])


def test_a_find_in_an_ignore_box_is_not_asked_about() -> None:
    """Dropped unscored, as its reading is: no question about it counts either."""
    entry = {**TWO_DICE, "ignore": [[80, 0, 20, 20]]}
    dets = (_die(2, 10, 10), _die(5, 50, 10), _die(4, 90, 10, confidence=0.3))
    result = score_image(entry, Detections(dets), 1.0)
    assert result.roll_ok and result.asked == 0


@pytest.mark.parametrize(
    "read, wrong_unasked, right_once_asked",
    [
        ([(2, 0.9), (3, 0.4)], 0, True),  # the 3 is asked about, and set to 5
        ([(2, 0.9), (3, 0.9)], 1, False),
        ([(2, 0.4)], 0, False),  # a die short
        ([(2, 0.9), (5, 0.9), (6, 0.3)], 0, True),  # an extra, asked about
    ],
)
def test_without_boxes_a_roll_is_right_once_asked_when_its_sure_values_are_labelled(
    read: list[tuple[int, float]], wrong_unasked: int, right_once_asked: bool
) -> None:
    entry = {"file": "x.jpg", "dice": [{"value": 2}, {"value": 5}]}
    dets = Detections(tuple(_die(v, 20 * k, confidence=c) for k, (v, c) in enumerate(read)))
    result = score_image(entry, dets, 1.0)
    assert result.wrong_unasked == wrong_unasked
    assert result.right_once_asked is right_once_asked
    logo = {"file": "x.jpg", "dice": [{"value": 2}, {"value": 6, "face": "symbol"}]}
    # (a symbol die takes any one value for the roll, but a sure 4 for a logo on the 6 is
    # one no one is asked to check, as with boxes; a sure 6, or an unsure 4, is not)
    sure_4 = score_image(logo, Detections((_die(2, 0), _die(4, 20))), 1.0)
    assert sure_4.roll_ok and (sure_4.wrong_unasked, sure_4.right_once_asked) == (1, False)
    assert score_image(logo, Detections((_die(2, 0), _die(6, 20))), 1.0).wrong_unasked == 0
    unsure_4 = score_image(logo, Detections((_die(2, 0), _die(4, 20, confidence=0.3))), 1.0)
    assert (unsure_4.wrong_unasked, unsure_4.right_once_asked) == (0, True)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 6), st.integers(0, 3), st.booleans()), max_size=4),
    st.lists(
        st.tuples(st.integers(1, 6), st.integers(0, 4), st.sampled_from([0.3, 0.6, 0.9])),
        max_size=5,
    ),
)
def test_once_asked_figures_match_every_way_of_pairing_the_dice(
    labels: list[tuple[int, int, bool]], reads: list[tuple[int, int, float]]
) -> None:
    """Boxes 50 px wide every 40 px, so a find may lie in two; labelled (some as symbols)
    and read at random. Against every one-to-one pairing where a find stands for a die
    (in its box, and asked about or read as labelled): the fewest sure finds left without
    a die are the wrong unasked, and the roll is right once asked when some pairing gives
    every die a find and every sure find a die (a symbol too: read surely, its face's
    value). The roll is right as read when its values are the labelled ones, some one to
    one pairing of any finds to any dice giving each die its value (a symbol's any); such
    a roll is right once asked too where its values are every labelled die's, symbols'
    too."""
    dice: list[dict] = [
        {"value": v, "box": [40 * s, 0, 50, 20], **({"face": "symbol"} if logo else {})}
        for v, s, logo in labels
    ]
    entry = {"file": "x.jpg", "dice": dice}
    dets = [_die(v, 40 * s + 10, 10, confidence=c) for v, s, c in reads]
    result = score_image(entry, Detections(tuple(dets)), 1.0)

    def stands_for(lab: dict, d: DieDetection) -> bool:
        x = lab["box"][0]
        return x <= d.center_xy[0] <= x + 50 and (d.confidence < 0.6 or d.value == lab["value"])

    sure = {j for j, d in enumerate(dets) if d.confidence >= 0.6}
    left_out, right = len(sure), False
    for order in itertools.permutations([*range(len(dets)), *[None] * len(labels)], len(labels)):
        if all(j is None or stands_for(lab, dets[j]) for lab, j in zip(dice, order, strict=True)):
            unpaired = len(sure - set(order))
            left_out = min(left_out, unpaired)
            right = right or (None not in order and not unpaired)
    values = [(lab["value"], lab) for lab in dice]
    as_read = len(dets) == len(dice) and any(
        all("face" in lab or dets[j].value == v for (v, lab), j in zip(values, order, strict=True))
        for order in itertools.permutations(range(len(dets)))
    )
    every_value = sorted(v for v, _s, _l in labels) == sorted(d.value for d in dets)
    assert result.roll_ok == as_read
    assert (result.wrong_unasked, result.right_once_asked) == (
        left_out,
        right or (as_read and every_value),
    )
    assert result.asked == len(dets) - len(sure)


def test_labels_without_boxes_compare_values_and_score_no_face() -> None:
    entry = {"file": "x.jpg", "dice": [{"value": 2}, {"value": 5}, {"value": 6, "face": "symbol"}]}
    right = score_image(entry, Detections((_die(5, 10), _die(1, 30), _die(2, 50))), 1.0)
    assert right.roll_ok and right.matched == 3 and right.face_scored == 0
    misread = score_image(entry, Detections((_die(5, 10), _die(1, 30), _die(3, 50))), 1.0)
    assert not misread.roll_ok and misread.matched == 2 and misread.problems
    assert summarize([right, misread])["face_accuracy"] is None


@pytest.mark.parametrize("fraction", [0.3, 0.9])
def test_close_up_centres_the_die_at_the_asked_size(fraction: float) -> None:
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


def test_a_box_of_numbers_no_float_holds_is_a_label_problem_not_a_crash() -> None:
    from vision.evaluate import _label_problem

    for box in ([10**400, 10, 20, 20], [1, 2, float("nan"), 3], [1, 2, 0, 3]):
        entry = {"file": "a.jpg", "dice": [{"value": 3, "box": box}]}
        problem = _label_problem(entry)
        assert problem is not None and "not [x, y, w, h]" in problem
        problem = _label_problem({"file": "a.jpg", "dice": [], "ignore": [box]})
        assert problem is not None and "not a list of [x, y, w, h]" in problem
    assert _label_problem({"file": "a.jpg", "dice": [{"value": 3, "box": [1, 2, 30, 30]}]}) is None


def test_a_die_is_ignored_by_its_box_centre_not_its_corner() -> None:
    """The ignore box holds this die's centre (110, 10) but not its top-left corner."""
    entry = {
        "file": "x.jpg",
        "dice": [{"value": 3, "box": [0, 0, 20, 20]}, {"value": 5, "box": [100, 0, 20, 20]}],
        "ignore": [[105, 5, 10, 10]],
    }
    result = score_image(entry, Detections((_die(3, 10, 10),)), 1.0)
    assert (result.labelled, result.matched) == (1, 1) and result.roll_ok


def test_a_symbol_die_must_be_found_but_its_face_is_not_scored() -> None:
    """A printed logo has no pips: any value read for it leaves the roll right, a miss
    does not."""
    entry = {
        "file": "x.jpg",
        "dice": [
            {"value": 2, "box": [0, 0, 20, 20]},
            {"value": 6, "box": [40, 0, 20, 20], "face": "symbol"},
        ],
    }
    found = score_image(entry, Detections((_die(2, 10, 10), _die(1, 50, 10))), 1.0)
    assert found.roll_ok and found.matched == 2
    assert (found.face_correct, found.face_scored) == (1, 1)
    missed = score_image(entry, Detections((_die(2, 10, 10),)), 1.0)
    assert not missed.roll_ok and missed.matched == 1 and missed.face_scored == 1
    # but read surely as another value than its face's, no one is asked to check it (the
    # issue: such a die is reported unsure); asked about, the roll is right once the
    # player says its value; read surely as its face's value, it is right
    assert score_image(entry, Detections((_die(2, 10, 10), _die(6, 50, 10))), 1.0).right_once_asked
    sure = _die(1, 50, 10, confidence=0.97)
    read = score_image(entry, Detections((_die(2, 10, 10), sure)), 1.0)
    assert read.roll_ok and (read.wrong_unasked, read.right_once_asked) == (1, False)
    unsure = _die(1, 50, 10, confidence=0.3)
    asked = score_image(entry, Detections((_die(2, 10, 10), unsure)), 1.0)
    assert (asked.wrong_unasked, asked.right_once_asked, asked.asked) == (0, True, 1)


def test_an_extra_die_spoils_the_roll() -> None:
    """Every labelled die read right, plus one found on the bare table: the roll as read
    has a die too many, so it is not right."""
    entry = {"file": "x.jpg", "dice": [{"value": 4, "box": [0, 0, 20, 20]}]}
    result = score_image(entry, Detections((_die(4, 10, 10), _die(2, 80, 80))), 1.0)
    assert (result.labelled, result.detected, result.matched) == (1, 2, 1)
    assert result.face_correct == result.face_scored == 1
    assert not result.roll_ok and any(p.startswith("extra 2") for p in result.problems)


def test_a_roll_is_right_by_its_multiset_of_values_and_its_faces_in_place() -> None:
    """The issue's roll accuracy is the multiset of values (what the table scores): two
    dice each read as the other (a review's test) are a roll right and two faces wrong,
    listed as such; a die missed and the same value found where none is, too."""
    two = [{"value": 2, "box": [0, 0, 20, 20]}, {"value": 4, "box": [40, 40, 20, 20]}]
    entry = {"file": "x.jpg", "dice": two}
    swapped = score_image(entry, Detections((_die(4, 10, 10), _die(2, 50, 50))), 1.0)
    assert swapped.roll_ok and swapped.right_once_asked and swapped.face_correct == 0
    assert list(failure_lines([swapped])) == [
        "x.jpg: roll right, but read 4 (0.90) for 2 at [0, 0, 20, 20]; "
        "read 2 (0.90) for 4 at [40, 40, 20, 20]"
    ]
    moved = score_image(entry, Detections((_die(2, 10, 10), _die(4, 90, 90))), 1.0)
    assert moved.roll_ok and moved.matched == 1
    wrong = score_image(entry, Detections((_die(2, 10, 10), _die(5, 50, 50))), 1.0)
    assert not wrong.roll_ok and list(failure_lines([wrong])) == [
        "x.jpg: read 5 (0.90) for 4 at [40, 40, 20, 20]"
    ]


def test_without_boxes_an_extra_die_spoils_the_roll() -> None:
    entry = {"file": "x.jpg", "dice": [{"value": 2}, {"value": 5}]}
    result = score_image(entry, Detections((_die(2, 10), _die(5, 30), _die(3, 50))), 1.0)
    assert result.matched == 2 and result.detected == 3 and not result.roll_ok


def test_without_boxes_a_symbol_die_matches_one_die_at_most() -> None:
    """A symbol die takes one leftover value: two sixes for one logo die are one match and
    one extra; a symbol die with nothing left over for it is missed."""
    logo = {"value": 6, "face": "symbol"}
    two_sixes = score_image(
        {"file": "x.jpg", "dice": [logo]}, Detections((_die(6, 10), _die(6, 30))), 1.0
    )
    assert two_sixes.matched == 1 and not two_sixes.roll_ok
    entry = {"file": "x.jpg", "dice": [{"value": 2}, logo]}
    short = score_image(entry, Detections((_die(2, 10),)), 1.0)
    assert short.matched == 1 and not short.roll_ok


def _results() -> list[ImageResult]:
    # file, labelled, detected, matched, face_correct, face_scored, roll_ok, ms
    return [
        ImageResult(
            "a.jpg",
            4,
            6,
            3,
            2,
            3,
            False,
            10.0,
            ["missed 1 at [0, 0, 9, 9]"],
            asked=1,
            wrong_unasked=3,
        ),
        ImageResult(
            "b.jpg",
            2,
            2,
            2,
            1,
            2,
            False,
            40.0,
            ["read 3 (0.40) for 5 at [1, 1, 9, 9]"],
            asked=1,
            right_once_asked=True,
        ),
        ImageResult("c.jpg", 2, 1, 1, 1, 1, False, 20.0, ["missed 2 at [2, 2, 9, 9]"]),
        ImageResult("d.jpg", 1, 1, 1, 1, 1, True, 30.0, right_once_asked=True),
    ]


def test_summary_figures_are_worked_out_over_all_images() -> None:
    """Worked by hand: 7 matched of 10 detected and 9 labelled, 5 of 7 faces, 1 roll of 4;
    times 10, 20, 30, 40 ms: median 25, 95th percentile 30 + 0.85 * 10 (linear); 2 dice
    asked about, 3 wrong unasked, and 2 rolls of 4 right once asked (b.jpg, and d.jpg read
    right as it was)."""
    figures = summarize(_results())
    assert figures == {
        "images": 4,
        "dice_labelled": 9,
        "dice_detected": 10,
        "dice_matched": 7,
        "precision": 0.7,
        "recall": 0.7778,
        "face_accuracy": 0.7143,
        "roll_accuracy": 0.25,
        "ms_median": 25.0,
        "ms_p95": 38.5,
        "dice_asked": 2,
        "dice_wrong_unasked": 3,
        "roll_accuracy_once_asked": 0.5,
    }
    nothing = summarize([])  # (a share or a time of nothing is none, not 100% or 0 ms)
    assert [nothing[k] for k in ("precision", "recall", "ms_median", "ms_p95")] == [None] * 4


def test_failure_lines_list_every_image_not_read_exactly_right() -> None:
    """b.jpg found every die but misread one: a failure too."""
    lines = list(failure_lines(_results()))
    assert [line.split(":")[0] for line in lines] == ["a.jpg", "b.jpg", "c.jpg"]
    assert lines[1] == "b.jpg: read 3 (0.40) for 5 at [1, 1, 9, 9]"


@pytest.mark.parametrize("value", [0, 7, True, 3.0])
def test_a_die_value_outside_1_to_6_is_a_label_problem(value: object) -> None:
    from vision.evaluate import _label_problem

    entry = {"file": "a.jpg", "dice": [{"value": value, "box": [1, 2, 30, 30]}]}
    problem = _label_problem(entry)
    assert problem is not None and '"value" of 1-6' in problem


@pytest.mark.parametrize(
    ("name", "said"),
    [("a.jpg\0", r"'a.jpg\\x00': a \"file\" name with a NUL"), ("\ud800.jpg", "no file system")],
)
def test_a_file_name_no_file_can_have_is_a_label_problem(name: str, said: str) -> None:
    """Both ended `eval` with a bare Python message naming neither labels.json nor the
    image (found by a review); the name is shown escaped (a lone surrogate cannot be
    printed)."""
    from vision.evaluate import _label_problem

    problem = _label_problem({"file": name, "dice": []})
    assert problem is not None and re.search(said, problem) and problem.isascii()


def test_close_up_of_an_oblong_box_fits_its_long_side_at_its_centre() -> None:
    """A box twice as tall as wide: its height spans the fraction, and its centre, not a
    centre from a square box, lands in the middle of the frame."""
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[60:100, 50:70] = 255  # box [50, 60, 20, 40]
    frame = close_up(photo, [50, 60, 20, 40], 0.5)
    ys, xs = np.nonzero(frame[..., 0] > 127)
    tol = 0.5 * 240 / 40 + 2  # half a photo pixel, 6 frame pixels a photo pixel
    assert abs(xs.mean() - 320) < tol and abs(ys.mean() - 240) < tol
    assert abs((ys.max() - ys.min() + 1) - 240) < tol
    assert abs((xs.max() - xs.min() + 1) - 120) < tol


def _labels(directory: Path, images: list[dict]) -> None:
    (directory / "labels.json").write_text(json.dumps({"images": images}))
    for entry in images:
        (directory / entry["file"]).write_bytes(b"stand-in: the reader here is a stub")


def test_close_ups_score_one_die_read_right_on_the_labelled_one(tmp_path: Path) -> None:
    """A stub reader finds a 3 at the frame's centre and a 4 in a corner: the labelled 3 is
    read right and the 4 is a find elsewhere; the symbol die before it is skipped, and two
    finds on the die are not a right reading."""
    _labels(
        tmp_path,
        [
            {
                "file": "a.jpg",
                "dice": [
                    {"value": 6, "box": [0, 0, 20, 20], "face": "symbol"},
                    {"value": 3, "box": [40, 0, 20, 20]},
                ],
            }
        ],
    )
    centre = DieDetection(3, 0.9, (310, 230, 20, 20), (320.0, 240.0))
    corner = DieDetection(4, 0.9, (0, 0, 10, 10), (5.0, 5.0))
    near = DieDetection(3, 0.9, (320, 240, 20, 20), (330.0, 250.0))

    def load(path: Path) -> np.ndarray:
        return np.zeros((100, 100, 3), np.uint8)

    one = close_ups(tmp_path, load, lambda f: Detections((centre, corner)), dice_per_image=1)
    assert sorted(one) == sorted(CLOSE_UP_FRACTIONS)
    for fig in one.values():
        assert fig == {"dice": 1, "read_right": 1, "other_finds": 1, "share": 1.0}
    two = close_ups(tmp_path, load, lambda f: Detections((centre, near)), fractions=[0.5])
    assert two[0.5] == {"dice": 1, "read_right": 0, "other_finds": 0, "share": 0.0}


def test_close_ups_say_a_missing_photo_before_reading_any(tmp_path: Path) -> None:
    """A missing photo was found only when its close-ups were reached (a review)."""
    _labels(tmp_path, [{"file": "a.jpg", "dice": [{"value": 3, "box": [40, 0, 20, 20]}]}])
    labels = json.loads((tmp_path / "labels.json").read_text())
    labels["images"].append({"file": "gone.jpg", "dice": []})
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    loaded: list[Path] = []

    def load(path: Path) -> np.ndarray:
        loaded.append(path)
        return np.zeros((100, 100, 3), np.uint8)

    with pytest.raises(OSError, match="gone.jpg: labelled, but no such file"):
        close_ups(tmp_path, load, lambda f: Detections(()))
    assert loaded == []
    assert close_ups(tmp_path, load, lambda f: Detections(()), images=1)[0.5]["dice"] == 1


def test_close_ups_go_on_past_a_photo_that_does_not_decode(tmp_path: Path) -> None:
    """One damaged photo had ended `eval --close-ups` (a review); plain `eval` goes on."""
    _labels(
        tmp_path,
        [
            {"file": "bad.jpg", "dice": [{"value": 2, "box": [40, 0, 20, 20]}]},
            {"file": "a.jpg", "dice": [{"value": 3, "box": [40, 0, 20, 20]}]},
        ],
    )
    centre = DieDetection(3, 0.9, (310, 230, 20, 20), (320.0, 240.0))
    said: list[tuple[str, str]] = []

    def load(path: Path) -> np.ndarray:
        if path.name == "bad.jpg":
            raise ValueError(f"{path}: data is not a readable image")
        return np.zeros((100, 100, 3), np.uint8)

    figures = close_ups(
        tmp_path,
        load,
        lambda f: Detections((centre,)),
        fractions=[0.5],
        not_read=lambda path, why: said.append((path.name, why)),
    )
    assert figures[0.5] == {"dice": 1, "read_right": 1, "other_finds": 0, "share": 1.0}
    assert said == [("bad.jpg", "not read: data is not a readable image")]


def test_evaluate_reads_each_labelled_photo_once_and_counts_progress(tmp_path: Path) -> None:
    _labels(
        tmp_path,
        [
            {"file": "a.jpg", "dice": [{"value": 2, "box": [0, 0, 20, 20]}]},
            {"file": "b.jpg", "dice": []},
        ],
    )
    read, calls = [], []

    def read_file(path: Path) -> tuple[Detections, float]:
        read.append(path.name)
        return Detections((_die(2, 10, 10),)), 5.0

    results = evaluate(tmp_path, read_file, progress=lambda k, n: calls.append((k, n)))
    assert read == ["a.jpg", "b.jpg"] and calls == [(1, 2), (2, 2)]
    assert [r.roll_ok for r in results] == [True, False]  # b.jpg: a die on a bare table


@pytest.mark.parametrize(
    "entry, said",
    [
        (
            {"file": "a.jpg", "width": 1280, "height": 720, "dice": []},
            "a.jpg: labelled as 1280x720, but the image is 640x360",
        ),
        (
            {"file": "a.jpg", "dice": [{"value": 2, "box": [5000, 5000, 40, 40]}]},
            r"a.jpg: a labelled box \[5000, 5000, 40, 40\] lies outside the 640x360 image",
        ),
    ],
)
def test_labels_that_do_not_fit_the_image_are_said_so_not_silent_misses(
    tmp_path: Path, entry: dict, said: str
) -> None:
    # (found by a review: labels made for a copy of twice the size scored 0%, every die
    # "missed", with no word of why)
    _labels(tmp_path, [entry, {"file": "b.jpg", "dice": []}])
    fits = {**entry, "width": 640, "height": 360, "dice": []}

    def read_file(path: Path) -> tuple[Detections, float]:
        return Detections((), (640, 360)), 1.0

    bad, good = evaluate(tmp_path, read_file)  # (the run goes on past it)
    assert not bad.roll_ok and good.roll_ok
    assert not bad.right_once_asked and good.right_once_asked  # (no asking mends it)
    assert bad.unmeasured and good.unmeasured is None  # (`hotdice eval` exits 2 for it)
    (line,) = failure_lines([bad, good])
    assert re.match(said.replace(": ", ": labels do not fit the photo: ", 1), line)
    _labels(tmp_path, [fits])
    assert evaluate(tmp_path, read_file)[0].roll_ok


def test_a_photo_that_does_not_decode_is_a_failure_of_its_own(tmp_path: Path) -> None:
    """One damaged photo had stopped the run, every figure lost, after the photos before
    it were read: now it counts as a roll read wrong (its dice missed), says why, and is
    left out of the timings. So does one of a bare table: no die is there to miss, but
    nothing was read either, and no asking mends that."""
    _labels(
        tmp_path,
        [
            {"file": "a.jpg", "dice": [{"value": 2, "box": [0, 0, 20, 20]}]},
            {"file": "cut.png", "dice": [{"value": 5, "box": [0, 0, 20, 20]}]},
            {"file": "bare.png", "dice": []},
        ],
    )

    def read_file(path: Path) -> tuple[Detections, float]:
        if path.suffix == ".png":
            raise ValueError(f"{path}: the PNG is cut off before its end")
        return Detections((_die(2, 10, 10),), (640, 360)), 5.0

    results = evaluate(tmp_path, read_file)
    assert [r.roll_ok for r in results] == [True, False, False]

    # (so is one that cannot be read at all, an OSError: a file over the size a photo
    # may have, a read error; it had ended the run, every figure lost)
    def read_big(path: Path) -> tuple[Detections, float]:
        if path.suffix == ".png":
            raise OSError(f"{path}: over 256 MB, too big for a photo")
        return read_file(path)

    unreadable = evaluate(tmp_path, read_big)
    assert [r.roll_ok for r in unreadable] == [True, False, False]
    assert next(failure_lines(unreadable)) == (
        "cut.png: not read: over 256 MB, too big for a photo; missed 5 at [0, 0, 20, 20]"
    )
    assert [r.right_once_asked for r in results] == [True, False, False]
    assert list(failure_lines(results)) == [
        "cut.png: not read: the PNG is cut off before its end; missed 5 at [0, 0, 20, 20]",
        "bare.png: not read: the PNG is cut off before its end",
    ]
    summary = summarize(results)
    assert summary["recall"] == 0.5 and summary["roll_accuracy"] == 0.3333
    assert summary["roll_accuracy_once_asked"] == 0.3333
    assert summary["ms_median"] == 5.0  # (the photo not read takes no time to count)


def test_evaluate_names_a_missing_photo_before_reading_any(tmp_path: Path) -> None:
    _labels(tmp_path, [{"file": "a.jpg", "dice": []}])
    (tmp_path / "labels.json").write_text(
        json.dumps({"images": [{"file": "a.jpg", "dice": []}, {"file": "gone.jpg", "dice": []}]})
    )
    read: list[Path] = []

    def read_file(path: Path) -> tuple[Detections, float]:
        read.append(path)
        return Detections(), 1.0

    with pytest.raises(OSError, match="gone.jpg: labelled, but no such file"):
        evaluate(tmp_path, read_file)
    assert read == []


def test_a_labels_file_or_photo_that_is_no_plain_file_is_said_so(
    tmp_path: Path, ends_or_fails: None
) -> None:
    """A folder (or a pipe, a device) where a file should be was called missing."""
    (tmp_path / "labels.json").mkdir()
    with pytest.raises(OSError, match="labels.json: not a file"):
        evaluate(tmp_path, lambda path: (Detections(), 1.0))
    (tmp_path / "labels.json").rmdir()
    (tmp_path / "labels.json").write_text(json.dumps({"images": [{"file": "sub", "dice": []}]}))
    (tmp_path / "sub").mkdir()
    with pytest.raises(OSError, match="sub: labelled, but not a file"):
        evaluate(tmp_path, lambda path: (Detections(), 1.0))
    (tmp_path / "labels.json").unlink()
    os.mkfifo(tmp_path / "labels.json")  # (never opened: it would wait for a writer)
    with pytest.raises(OSError, match="labels.json: not a file"):
        evaluate(tmp_path, lambda path: (Detections(), 1.0))


@pytest.mark.parametrize("kind", ["jpeg", "png", "png, eXIf after the image data"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_stored_box_is_turned_upright_as_opencv_turns_the_photo(
    orientation: int,
    kind: str,
    exif_jpeg: Callable[[np.ndarray, int], bytes],
    exif_png: Callable[..., bytes],
) -> None:
    stored = np.zeros((120, 200, 3), np.uint8)
    stored[10:30, 30:70] = 255  # the box [30, 10, 40, 20]
    if kind == "jpeg":
        data = exif_jpeg(stored, orientation)
    else:
        data = exif_png(stored, orientation, at_end=kind != "png")
    assert exif_orientation(data) == orientation
    upright = decode_image(data)
    ys, xs = np.nonzero(upright[..., 0] > 128)
    seen = [xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1]
    assert box_upright([30, 10, 40, 20], orientation, (200, 120)) == seen


def test_an_xmp_segment_before_the_exif_one_does_not_hide_the_orientation(
    exif_jpeg: Callable[[np.ndarray, int], bytes],
) -> None:
    data = exif_jpeg(np.zeros((20, 40, 3), np.uint8), 6)
    xmp = b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta/>"
    xmp_segment = b"\xff\xe1" + (len(xmp) + 2).to_bytes(2, "big")
    assert exif_orientation(data[:2] + xmp_segment + xmp + data[2:]) == 6


def test_labels_made_on_a_phone_photos_stored_pixels_are_turned_with_it(
    samples_dir: Path, tmp_path: Path, exif_jpeg: Callable[[np.ndarray, int], bytes]
) -> None:
    """A phone photo taken upright is stored on its side, with EXIF orientation 6; a tool
    that ignores EXIF labels the stored pixels, and says so by the `width` and `height` it
    gives. Its labels were scored against the upright photo: every die missed."""
    entry = json.loads((samples_dir / "labels.json").read_text())["images"]
    entry = next(e for e in entry if e["width"] != e["height"])
    photo = load_image(samples_dir / entry["file"])
    h, w = photo.shape[:2]
    (tmp_path / "side.jpg").write_bytes(
        exif_jpeg(cv2.rotate(photo, cv2.ROTATE_90_COUNTERCLOCKWISE), 6)
    )
    # (the upright photo turned a quarter back, as orientation 8 turns: the stored pixels)
    dice = [{**d, "box": box_upright(d["box"], 8, (w, h))} for d in entry["dice"]]
    stored = {"file": "side.jpg", "width": h, "height": w, "dice": dice}
    said: list[tuple[str, str]] = []

    def halves() -> dict[float, dict]:  # (close-ups at half the frame, what is said kept)
        return close_ups(
            tmp_path,
            load_image,
            read,
            fractions=[0.5],
            not_read=lambda path, why: said.append((path.name, why)),
        )

    cut = []
    for labels in (stored, {**entry, "file": "side.jpg"}):  # stored pixels, and upright
        (tmp_path / "labels.json").write_text(json.dumps({"images": [labels]}))
        results = evaluate(tmp_path, lambda p: (read(load_image(p)), 0.0))
        assert results[0].problems == [] and results[0].matched == len(entry["dice"])
        # and the close-ups are cut round the same dice (they had been cut elsewhere)
        cut.append(halves())
    assert said == [] and cut[0] == cut[1] and cut[0][0.5]["read_right"] >= 2
    # labels that do not fit: said, and no close-ups cut from them
    (tmp_path / "labels.json").write_text(
        json.dumps({"images": [{**stored, "width": 100, "height": 50}]})
    )
    with pytest.raises(ValueError, match="no labelled dice with boxes"):
        halves()
    assert said == [
        ("side.jpg", f"labels do not fit the photo: labelled as 100x50, but the image is {w}x{h}")
    ]
    # an ignore box is turned with the dice; labels of neither size are left as they are
    ignored = {**stored, "ignore": [dice[0]["box"]]}
    turned = labels_upright(ignored, tmp_path / "side.jpg", (w, h))
    assert turned["ignore"] == [entry["dice"][0]["box"]]
    other = {**stored, "width": 100, "height": 50}
    assert labels_upright(other, tmp_path / "side.jpg", (w, h)) == other
