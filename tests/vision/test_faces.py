"""vision/faces.py: the face readers' glance at a look's finds, which reads again only what
another look was not sure of, and their vote, which reads a crop cut wider too."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision import faces

# Every test here runs on both engines, as test_reader.py's do (they were there)
pytestmark = pytest.mark.usefixtures("engine")


def test_classify_reads_again_only_what_it_was_not_sure_of(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finds seen again at another scale keep a sure reading of a value, and a plain
    rejection (under even odds of being a die), when they are found at about the same place
    and size (a fifth of a side, a quarter of the size); a find only doubted keeps its
    rejection only at nearly the same place and size (a tenth), as that crop may have been
    cut wrong. The rest is read again, their wider crops taken from the right finds."""
    before = np.array([[x, 100, 40, 0.9] for x in (100, 300, 400, 500, 600, 800, 900)], np.float32)
    sure_five = [0.01, 0.01, 0.01, 0.01, 0.01, 0.94, 0.01]
    unsure = [0.1, 0.2, 0.2, 0.2, 0.1, 0.1, 0.1]
    doubted = [0.4, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]  # a die chance of 0.6: rejected
    not_die = [0.94, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]  # 0.06: more likely no die
    # (each row its own, so a reading taken from the wrong find shows)
    known = (
        np.array([sure_five, unsure, doubted, doubted, doubted, not_die, not_die], np.float32)
        + np.arange(7, dtype=np.float32)[:, None] * 1e-3
    )
    found = np.array(
        [
            [502, 101, 41, 0.8],  # doubted before, at the same place and size
            [101, 99, 39, 0.8],  # read surely before
            [301, 100, 40, 0.8],  # read unsurely before
            [600, 100, 48, 0.8],  # doubted before, but a fifth bigger now
            [406, 100, 40, 0.8],  # doubted before, but 0.15 sides away now
            [806, 100, 48, 0.8],  # no die before; a fifth bigger, 0.15 sides away (of 40)
            [900, 100, 56, 0.8],  # no die before, but 1.4 times the size now
            [700, 100, 40, 0.8],  # new
        ],
        np.float32,
    )
    monkeypatch.setattr(faces, "crop_die", lambda image, xy, side, **_: np.full((2, 2, 3), xy[0]))
    read_xs: list[float] = []
    wider_xs: list[float] = []

    def glance(crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        read_xs.extend(float(c[0, 0, 0]) for c in crops)
        return np.tile(np.array(unsure, np.float32), (len(crops), 1)), np.ones(len(crops), bool)

    def vote(
        crops: list[np.ndarray],
        probs: np.ndarray,
        owed: np.ndarray,
        *,
        wider: Callable[[int], np.ndarray],
        **_: object,
    ) -> np.ndarray:
        wider_xs.extend(float(wider(i)[0, 0, 0]) for i in range(len(crops)))
        return probs

    monkeypatch.setattr(faces, "glance", glance)
    monkeypatch.setattr(faces, "vote", vote)
    image = np.zeros((200, 1000, 3), np.uint8)
    probs = faces.classify(image, found, 4, 0.7, known=(before, known))
    assert read_xs == wider_xs == [301.0, 600.0, 406.0, 900.0, 700.0]
    np.testing.assert_allclose(probs[0], known[3])
    np.testing.assert_allclose(probs[1], known[0])
    np.testing.assert_allclose(probs[3], unsure)
    np.testing.assert_allclose(probs[5], known[5])


def test_the_vote_reads_a_crop_cut_wider_than_the_finder_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The vote's wider view cuts the die 15% larger than the finder's side (`_WIDER`), to
    see the edge pips of a die whose size the finder underestimated."""
    sides: list[float] = []
    crop = faces.crop_die

    def spy(
        image: np.ndarray, center_xy: tuple[float, float], side: float, **kw: float
    ) -> np.ndarray:
        sides.append(side)
        return crop(image, center_xy, side, **kw)

    def vote(
        crops: list[np.ndarray],
        probs: np.ndarray,
        owed: np.ndarray,
        *,
        rotations: int,
        wider: Callable[[int], np.ndarray],
        min_dieness: float,
        lift_dark: bool,
    ) -> np.ndarray:
        wider(0)
        return probs

    monkeypatch.setattr(faces, "crop_die", spy)
    monkeypatch.setattr(faces, "vote", vote)
    found = np.array([[50, 50, 40, 0.9]], np.float32)
    probs = np.zeros((1, 7), np.float32)
    image = np.zeros((100, 100, 3), np.uint8)
    faces.voted(image, found, probs, np.array([True]), 4, 0.7)
    assert sides == [40.0, pytest.approx(46.0)]


@pytest.mark.parametrize("lift_dark", [True, False])
def test_the_vote_is_told_whether_to_lift_dark_faces(
    monkeypatch: pytest.MonkeyPatch, lift_dark: bool
) -> None:
    """`classify`'s `lift_dark` (a look at a frame neither scaled for the dark nor with a
    shadow lifted) reaches the vote, which lifts a die's dark face (`model.vote`)."""
    told: list[bool] = []

    def glance(crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        return np.full((len(crops), 7), 1 / 7, np.float32), np.ones(len(crops), bool)

    def vote(
        crops: list[np.ndarray], probs: np.ndarray, owed: np.ndarray, **kw: object
    ) -> np.ndarray:
        told.append(bool(kw["lift_dark"]))
        return probs

    monkeypatch.setattr(faces, "glance", glance)
    monkeypatch.setattr(faces, "vote", vote)
    found = np.array([[50, 50, 40, 0.9]], np.float32)
    faces.classify(np.zeros((100, 100, 3), np.uint8), found, 4, 0.7, lift_dark=lift_dark)
    assert told == [lift_dark]
