"""vision/recentre.py: a die read unsure is read again with its crop moved onto its top face
(dice seen at a slant, side faces showing), never towards another die, and only a clear,
unambiguous reading is taken."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import vision
from tests.vision.conftest import read_scores
from vision import recentre
from vision.model import crop_die, glance


def test_a_find_is_moved_a_third_of_its_side_each_way() -> None:
    found = np.array([[100, 100, 40, 0.9], [300, 200, 60, 0.5]], np.float32)
    moved = recentre.moved(found, np.array([1]))
    assert moved.shape == (recentre.WAYS, 4)
    step = recentre.SHIFT * 60
    assert moved[0].tolist() == pytest.approx([300 + step, 200, 60, 0.5])  # (first: +x)
    assert moved[recentre.WAYS // 4].tolist() == pytest.approx([300, 200 + step, 60, 0.5])
    dist = np.hypot(moved[:, 0] - 300, moved[:, 1] - 200)
    assert dist == pytest.approx(np.full(recentre.WAYS, step), abs=1e-3)
    both = recentre.moved(found, np.array([0, 1]))  # (a find's ways one after another)
    assert np.array_equal(both[recentre.WAYS :], moved)


def test_the_ways_towards_a_neighbour_are_closed() -> None:
    found = np.array(
        [[100, 100, 40, 0.9], [160, 100, 40, 0.9], [100, 300, 40, 0.9], [400, 400, 40, 0.9]],
        np.float32,
    )
    closed = recentre.closed_ways(found, np.array([0, 3]))
    # the die 1.5 sides to the right closes right, down-right and up-right; the one 5 sides
    # below is too far to matter, and so are all for the lone die
    assert np.flatnonzero(closed[0]).tolist() == [0, 1, 7]
    assert not closed[1].any()
    big = found.copy()
    big[2, 2] = 120  # (within twice the bigger die's side)
    assert np.flatnonzero(recentre.closed_ways(big, np.array([0]))[0]).tolist() == [0, 1, 2, 3, 7]


def _ways(readings: dict[int, tuple[int, float, float]]) -> np.ndarray:
    """Scores of a die's moved crops: each way read unsure as a 3 unless given."""
    return np.array(
        [read_scores(*readings.get(k, (3, 0.5, 0.95))) for k in range(recentre.WAYS)], np.float32
    )


@pytest.mark.parametrize(
    "readings, closed, way",
    [
        ({2: (5, 0.96, 0.99)}, [], 2),  # one way reads it clearly: taken
        ({2: (5, 0.93, 0.99), 3: (5, 0.97, 0.99)}, [], 3),  # the clearest of two alike
        ({2: (5, 0.85, 0.99)}, [], -1),  # not clearly
        ({2: (5, 0.96, 0.99), 6: (2, 0.95, 0.99)}, [], -1),  # a top one way, a side the other
        ({2: (5, 0.96, 0.99)}, [2], -1),  # towards another die
        ({2: (5, 0.96, 0.99), 6: (2, 0.95, 0.99)}, [6], 2),  # ... whose face it read
        ({2: (5, 0.96, 0.6)}, [], -1),  # clear, but hardly a die there
    ],
)
def test_a_way_is_taken_only_where_it_reads_the_die_clearly_and_alone(
    readings: dict[int, tuple[int, float, float]], closed: list[int], way: int
) -> None:
    shut = np.isin(np.arange(recentre.WAYS), closed)
    assert recentre.best_way(_ways(readings), shut, clearly=0.9, dieness=0.7) == way


@pytest.mark.parametrize("seed, dice_set", [(20, "white"), (27, "black"), (22, "black")])
def test_a_die_seen_at_a_slant_is_read_on_its_top_face(
    drawn_rolls: ModuleType, seed: int, dice_set: str
) -> None:
    """Six dice of 48 px drawn at 35 degrees: one of them the readers misread at the centre
    the finder gives it (a side face's pips in the crop), read right with the crop moved."""
    img, drawn = drawn_rolls.drawn_roll(np.random.default_rng(seed), dice_set, "plain", 48, 35)
    read = vision.read(img)
    assert drawn_rolls.judged(drawn, read).right
    at_centre = [glance([crop_die(img, d.center_xy, d.box_xywh[2])])[0][0] for d in read.dice]
    wrong = [
        d for d, p in zip(read.dice, at_centre, strict=True) if int(np.argmax(p[1:])) + 1 != d.value
    ]
    assert wrong and all(d.confidence >= 0.9 for d in wrong)
