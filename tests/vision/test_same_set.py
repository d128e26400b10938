"""`same_set`: an unread die the colour and size of the roll's dice is one of them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read, reader
from vision.detections import DieDetection
from vision.same_set import (
    MARKED,
    SAME_COLOUR,
    coloured_as,
    face_looks,
    unread_dice_of_the_set,
)

WHITE, GREY, RED = (235, 235, 235), (150, 150, 150), (40, 40, 200)


def _probs(dieness: float, value: int | None) -> list[float]:
    """Readers' scores: a die read as `value` at 0.95, or (None) unread: even over 1-6."""
    faces = [0.0] * 6
    if value is None:
        faces = [1 / 6] * 6
    else:
        faces = [0.01] * 6
        faces[value - 1] = 0.95
    total = sum(faces)
    return [1.0 - dieness, *(dieness * f / total for f in faces)]


Square = tuple[int, int, int, tuple[int, int, int], str]
"""(x, y, side, BGR colour, mark): a drawn face centred at x, y; mark "pip" (a dot),
"logo" (a cross over a third of its middle) or "plain" (none: a button)."""


def _scene(squares: list[Square]) -> np.ndarray:
    """A wood-brown table with the `squares` drawn on it."""
    image = np.full((300, 560, 3), (40, 80, 130), np.uint8)
    for x, y, side, colour, mark in squares:
        h = side // 2
        cv2.rectangle(image, (x - h, y - h), (x + h, y + h), colour, -1)
        dark = (20, 20, 20)
        if mark == "pip":
            cv2.circle(image, (x, y), max(2, side // 8), dark, -1)
        elif mark == "logo":
            arm, bar = side // 3, max(2, side // 12)
            cv2.rectangle(image, (x - arm, y - bar), (x + arm, y + bar), dark, -1)
            cv2.rectangle(image, (x - bar, y - arm), (x + bar, y + arm), dark, -1)
    return image


def test_an_unread_find_like_the_rolls_dice_is_one_of_them() -> None:
    """Of five unread finds the readers believe dice, only the one with the colour and
    size of a die read surely, and a mark on its face, joins the roll: not a grey button
    of the same size, nor a plain white one, nor a white speck a third the size, nor a
    white box twice it; one they doubt (0.5) never."""
    squares: list[Square] = [
        (60, 80, 40, WHITE, "pip"),  # dice, read
        (140, 80, 40, WHITE, "pip"),
        (220, 80, 42, RED, "pip"),
        (60, 200, 40, WHITE, "logo"),  # a white die with a logo: unread
        (140, 200, 40, GREY, "logo"),  # a grey button (with a printed mark)
        (220, 200, 14, WHITE, "logo"),  # a speck
        (330, 150, 84, WHITE, "logo"),  # a white box
        (440, 200, 40, WHITE, "logo"),  # a white thing the readers doubt
        (510, 200, 40, WHITE, "plain"),  # a plain white button
    ]
    image = _scene(squares)
    found = np.array([(x, y, s, 0.4) for x, y, s, _, _ in squares], np.float32)
    probs = np.array(
        [_probs(0.99, 5), _probs(0.99, 3), _probs(0.99, 2)]
        + [_probs(0.8, None)] * 4
        + [_probs(0.5, None), _probs(0.8, None)],
        np.float32,
    )
    reported = np.array([True] * 3 + [False] * 6)
    of_set = unread_dice_of_the_set(image, found, probs, reported, 0.7)
    assert np.flatnonzero(of_set).tolist() == [3]
    # the grey button is far from the white dice's colour, the white die near; the die's
    # face is marked, the plain button's not
    colours, marked = face_looks(image, found)
    assert np.linalg.norm(colours[3] - colours[0]) <= SAME_COLOUR
    assert np.linalg.norm(colours[4] - colours[0]) > SAME_COLOUR
    assert np.linalg.norm(colours[8] - colours[0]) <= SAME_COLOUR
    assert marked[3] >= MARKED > marked[8]
    # with no die read surely there is nothing to be alike
    unsure = probs.copy()
    unsure[:3] = _probs(0.99, None)
    assert not unread_dice_of_the_set(image, found, unsure, reported, 0.7).any()


def test_coloured_as_matches_a_face_to_any_die_of_the_set_whatever_its_size() -> None:
    """A far white die a third the size of the white dice is of their set, and so is a red
    one beside a red die; a grey button is of neither, a find off the image has no colour,
    and with no dice to go by nothing is."""
    squares: list[Square] = [
        (60, 80, 60, WHITE, "pip"),  # dice
        (200, 80, 60, RED, "pip"),
        (320, 80, 20, WHITE, "pip"),  # far dice
        (380, 80, 20, RED, "pip"),
        (460, 80, 20, GREY, "pip"),  # a grey button
    ]
    image = _scene(squares)
    found = np.array([(x, y, s, 0.9) for x, y, s, _, _ in squares] + [(900, 900, 20, 0.9)])
    assert coloured_as(image, found[2:], found[:2]).tolist() == [True, True, False, False]
    assert coloured_as(image, found[2:], found[:1]).tolist() == [True, False, False, False]
    assert not coloured_as(image, found[2:], found[:0]).any()
    assert coloured_as(image, found[:0], found[:2]).shape == (0,)


def test_a_find_off_the_image_has_no_colour() -> None:
    image = _scene([(60, 80, 40, WHITE, "pip")])
    found = np.array([(60, 80, 40, 1), (900, 900, 40, 1)], np.float32)
    colours = face_looks(image, found)[0]
    assert np.isfinite(colours[0]).all() and np.isnan(colours[1]).all()


def test_a_logo_die_the_readers_half_doubt_is_reported_unread(
    shared_photos: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`fudw_tray`'s IMG_4547 (held out: no rule was tuned on it): the light-blue die
    showing its winged logo, found at a finder score of 0.49, is read as "a die, value
    unknown" beside dice of its set read surely. It is reported, unsure, so the player is
    asked; without the set's likeness it was dropped with the tokens."""
    image = cv2.imread(str(shared_photos / "fudw_tray" / "IMG_4547.jpg"))
    assert image is not None
    x, y, w, h = 325, 449, 60, 60  # (the labelled box of the logo die)

    def there() -> list[DieDetection]:
        dice = read(image).dice
        return [d for d in dice if x <= d.center_xy[0] <= x + w and y <= d.center_xy[1] <= y + h]

    found = there()
    assert len(found) == 1 and found[0].confidence < 0.5
    monkeypatch.setattr(
        reader, "unread_dice_of_the_set", lambda _i, found, *_a: np.zeros(len(found), bool)
    )
    assert there() == []
