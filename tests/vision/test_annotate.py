"""Drawing a reading on a copy of the image (`vision.annotate`)."""

from __future__ import annotations

import numpy as np

from vision.annotate import SURE, UNSURE, annotate, label_spots
from vision.detections import ASK_BELOW, Detections, DieDetection


def _reading() -> Detections:
    return Detections(
        (
            DieDetection(3, 0.97, (40, 60, 50, 50), (65.0, 85.0)),
            DieDetection(5, 0.31, (200, 60, 50, 50), (225.0, 85.0)),
        ),
        (320, 200),
    )


def _label_width(drawn: np.ndarray, colour: tuple[int, int, int], x0: int) -> int:
    """How far right of the box's left edge the filled label runs, above the box."""
    row = drawn[52, x0 : x0 + 110]
    return int(np.nonzero(np.all(row == colour, axis=1))[0].max()) + 1


def test_each_die_is_outlined_in_the_colour_of_how_sure_it_is() -> None:
    image = np.full((200, 320, 3), 128, np.uint8)
    drawn = annotate(image, _reading(), thickness=2)
    assert tuple(drawn[85, 40]) == SURE and tuple(drawn[85, 200]) == UNSURE
    assert (image == 128).all()  # a copy: the photo itself is left alone


def test_a_die_the_phone_would_ask_about_is_drawn_orange() -> None:
    """Orange below `ASK_BELOW` (0.6) by default, where the phone and `hotdice read` ask."""
    image = np.full((200, 320, 3), 128, np.uint8)
    reading = Detections(
        (
            DieDetection(2, 0.55, (40, 60, 50, 50), (65.0, 85.0)),
            DieDetection(4, 0.6, (200, 60, 50, 50), (225.0, 85.0)),
        ),
        (320, 200),
    )
    drawn = annotate(image, reading, thickness=2)
    assert ASK_BELOW == 0.6
    assert tuple(drawn[85, 40]) == UNSURE and tuple(drawn[85, 200]) == SURE


def test_the_value_alone_makes_a_shorter_label() -> None:
    """A phone's preview labels each die with its value only; `hotdice read --annotate`
    with the value and the confidence."""
    image = np.full((200, 320, 3), 128, np.uint8)
    full = annotate(image, _reading(), thickness=2)
    short = annotate(image, _reading(), thickness=2, confidence=False)
    for colour, x0 in ((SURE, 40), (UNSURE, 200)):
        assert _label_width(short, colour, x0) < _label_width(full, colour, x0) / 2


def test_labels_of_dice_touching_one_above_the_other_stay_apart_and_on_their_own() -> None:
    """Above its box, the lower die's label would cover the die above: it goes below or
    inside its own box's top instead; none covers another label or another die."""
    boxes = [(100, 4, 50, 50), (100, 56, 50, 50), (100, 108, 50, 50), (160, 108, 50, 50)]
    spots = label_spots(boxes, [(60, 14)] * 4, (320, 240))
    for i, (x, y, w, h) in enumerate(spots):
        assert 0 <= x and x + w <= 320 and 0 <= y and y + h <= 240
        for j, other in enumerate(spots[:i] + boxes[:i] + boxes[i + 1 :]):
            ox, oy, ow, oh = other
            assert not (x < ox + ow and ox < x + w and y < oy + oh and oy < y + h), (i, j, spots)
    assert spots[3][1] < 108  # (room above the fourth: the usual place)


def test_a_grey_photo_is_drawn_on_in_colour() -> None:
    image = np.full((200, 320), 128, np.uint8)
    drawn = annotate(image, _reading(), thickness=2)
    assert drawn.shape == (200, 320, 3)
    assert tuple(drawn[85, 40]) == SURE and tuple(drawn[85, 200]) == UNSURE


def test_lines_thicken_with_the_photo_s_long_side() -> None:
    """One pixel per 600 of the long side: 3 for a 1800x300 strip, whose short side alone
    would give under 1."""
    image = np.full((300, 1800, 3), 128, np.uint8)
    reading = Detections((DieDetection(3, 0.97, (400, 100, 80, 80), (440.0, 140.0)),))
    drawn = annotate(image, reading)
    assert (drawn == annotate(image, reading, thickness=3)).all()
    assert not (drawn == annotate(image, reading, thickness=1)).all()


def test_a_label_of_a_die_at_the_right_edge_stays_in_the_image() -> None:
    """A label wider than what is right of its box moves left to end at the edge."""
    spots = label_spots([(290, 100, 30, 30)], [(60, 14)], (320, 240))
    assert spots == [(260, 100 - 14 - 1, 60, 14)]


def test_a_label_that_just_fits_below_its_box_goes_there() -> None:
    """No room above a die at the top; below, the label ends on the image's last row."""
    spots = label_spots([(10, 5, 20, 20)], [(30, 14)], (100, 5 + 20 + 1 + 14))
    assert spots == [(10, 26, 30, 14)]


def test_labels_of_dice_side_by_side_sit_side_by_side_above_them() -> None:
    """Labels that only meet edge to edge cover nothing: neither moves."""
    spots = label_spots([(0, 50, 60, 30), (60, 50, 60, 30)], [(60, 14)] * 2, (320, 240))
    assert spots == [(0, 35, 60, 14), (60, 35, 60, 14)]
