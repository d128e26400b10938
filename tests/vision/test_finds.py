"""The arithmetic of finds and the readers' scores: what counts as a die, as reported, as
one die found twice, as the roll's size. Plain arrays, no network."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.conftest import read_scores
from vision import finds


def test_confirmed_dice_needs_a_sure_finder_or_a_readable_face() -> None:
    clear = [0.01, 0.95, 0.01, 0.01, 0.01, 0.005, 0.005]
    logo = [0.05] + [0.95 / 6] * 6
    not_die = [0.5, 0.45, 0.01, 0.01, 0.01, 0.01, 0.01]
    probs = np.array([clear, clear, logo, logo, not_die], np.float32)
    scores = np.array([0.9, 0.35, 0.9, 0.35, 0.9], np.float32)
    keep = finds.confirmed_dice(scores, probs, min_dieness=0.7, min_sure_score=0.5)
    # a readable die counts even when the finder doubts it; an unreadable one (a logo) only
    # when the finder is sure; a find the readers doubt is a die never counts
    assert keep.tolist() == [True, True, True, False, False]


def test_an_unread_find_is_reported_only_if_all_but_surely_a_die() -> None:
    # a grey button: the readers call it a die at 0.8, and read no face
    button = [0.2] + [0.8 / 6] * 6
    # a readable die the readers believe as little is still a die: its face shows it
    faint = [0.2, 0.7, 0.02, 0.02, 0.02, 0.02, 0.02]
    logo = [0.05] + [0.95 / 6] * 6
    probs = np.array([button, faint, logo], np.float32)
    assert finds.not_lookalike(probs, 0.9).tolist() == [False, True, True]
    assert finds.not_lookalike(probs, 0.7).tolist() == [True, True, True]


def test_dedupe_keeps_dice_closer_than_a_side() -> None:
    """Dice seen at a slant overlap in the photo: centres 0.55 sides apart are two dice; a
    second find a quarter side from the first is the same die found twice."""
    found = np.array(
        [[100, 100, 60, 0.9], [133, 100, 60, 0.6], [300, 300, 60, 0.8], [315, 300, 60, 0.7]],
        np.float32,
    )
    kept = finds.dedupe(found, found[:, 3])
    assert sorted(kept.tolist()) == [0, 1, 2]


def test_same_finds_pairs_finds_at_about_the_same_place_and_size() -> None:
    before = np.array([[100, 100, 40, 0.9], [300, 100, 40, 0.9]], np.float32)
    found = np.array(
        [
            [104, 98, 42, 0.8],  # the first die again
            [300, 100, 60, 0.8],  # at the second's place, but half as big again
            [200, 100, 40, 0.8],  # between them
        ],
        np.float32,
    )
    assert finds.same_finds(found, before).tolist() == [0, -1, -1]
    assert finds.same_finds(found, before[:0]).tolist() == [-1, -1, -1]


def test_dedupe_judges_closeness_by_the_bigger_find() -> None:
    """A pip found inside its die (30 px from a 100 px die's centre) is that die found
    again, though it is far more than half its own side from it."""
    found = np.array([[100, 100, 100, 0.9], [130, 100, 20, 0.5]], np.float32)
    assert finds.dedupe(found, found[:, 3]).tolist() == [0]


def test_same_finds_needs_both_coordinates_close() -> None:
    """A find straight below another (same x, 30 px lower) is not the same find."""
    before = np.array([[100, 100, 40, 0.9]], np.float32)
    found = np.array([[100, 130, 40, 0.8], [130, 100, 40, 0.8]], np.float32)
    assert finds.same_finds(found, before).tolist() == [-1, -1]


def test_readings_scale_confidence_down_for_a_doubtful_die() -> None:
    """The value is 1-6 (column k is value k); its confidence is its share of "a die",
    halved again where the readers give under even odds of a die at all."""
    probs = np.array(
        [
            [0.6, 0.02, 0.3, 0.02, 0.02, 0.02, 0.02],  # a 2, the readers doubting it is a die
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.1, 0.9],  # a 6, surely
        ],
        np.float32,
    )
    values, confidence = finds.readings(probs)
    assert values.tolist() == [2, 6]
    assert confidence[0] == pytest.approx(0.3 / 0.4 * 0.8, abs=1e-6)
    assert confidence[1] == pytest.approx(0.9, abs=1e-6)


def test_a_reading_of_exactly_half_is_sure() -> None:
    """Sure means at least 0.5: a die read at exactly even odds between two values is not
    asked about."""
    probs = np.array([[0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0]], np.float32)
    assert finds.readings(probs)[1].tolist() == [0.5]
    assert finds.surely_read(probs).tolist() == [True]


def test_centre_inside_uses_half_the_side() -> None:
    """A centre 15 px from a 40 px find's centre is inside its box; one 30 px away is not."""
    big = np.array([[100, 100, 40, 0.9]], np.float32)
    small = np.array([[115, 100, 10, 0.5], [100, 130, 10, 0.5], [130, 100, 10, 0.5]], np.float32)
    assert finds.centre_inside(big, small).tolist() == [[True, False, False]]


def test_distances_run_centre_to_centre_whatever_the_sides() -> None:
    a = np.array([[0, 0, 10, 0.9], [3, 4, 50, 0.5]], np.float32)
    b = np.array([[6, 8, 20, 0.7]], np.float32)
    assert finds.distances(a, b).tolist() == [[10.0], [5.0]]
    assert finds.distances(a, a).tolist() == [[0.0, 5.0], [5.0, 0.0]]


def test_near_pairs_measures_by_the_bigger_find() -> None:
    """Closeness is in sides of the bigger find of a pair, so a pip near its die is near."""
    a = np.array([[0, 0, 40, 0.9]], np.float32)
    b = np.array([[15, 0, 10, 0.5], [0, 25, 10, 0.5]], np.float32)
    assert finds.near_pairs(a, b, overlap=0.5).tolist() == [[True, False]]


def test_confidence_never_exceeds_one() -> None:
    """Averaged float32 scores can sum a hair over 1: the confidence stays at most 1 (a
    `DieDetection` refuses more)."""
    probs = np.array([[0.1, 0.90000004, 0.0, 0.0, 0.0, 0.0, 0.0]], np.float32)
    assert finds.readings(probs)[1].tolist() == [1.0]


def test_roll_sized_drops_specks_and_giants() -> None:
    # dice in a row, as seen from above: no slant to fit, so the median is the typical die
    sides = [40.0, 42.0, 38.0, 20.0, 90.0, 79.0]
    found = np.array([[60.0 * k, 100.0, side, 0.9] for k, side in enumerate(sides)])
    keep = finds.roll_sized(found, 0.6, 2.0)
    # typical (median) side 41: 20 is under 0.6 of it (a pip, a speck), 90 over twice it
    assert keep.tolist() == [True, True, True, False, False, True]


def test_roll_sized_holds_a_big_find_to_the_other_finds() -> None:
    """Two dice and the dark corner of a box (a `skovy_catan` photo: sides 51, 62 and 119).
    The median of all three is the bigger die, and the corner is 1.92 times it; against
    the other two finds (56.5) it is 2.1 times, so it goes. A near die 1.8 times the
    others stays. Only a big find is judged so: a speck of 25 beside dice of 40 and 44 is
    0.625 of the median and stays, though against the others (42) it would be 0.595."""
    corner = np.array([[800.0, 120.0, 51.0, 0.9], [630.0, 400.0, 62.0, 0.9], [120, 130, 119, 0.6]])
    assert finds.roll_sized(corner, 0.6, 2.0).tolist() == [True, True, False]
    near = corner.copy()
    near[2, 2] = 1.8 * 56.5
    assert finds.roll_sized(near, 0.6, 2.0).tolist() == [True, True, True]
    speck = np.array([[100.0, 100.0, 40.0, 0.9], [200.0, 100.0, 44.0, 0.9], [300, 100, 25, 0.6]])
    assert finds.roll_sized(speck, 0.6, 2.0).tolist() == [True, True, True]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(1.0, 500.0), st.integers(1, 6).map(float)),  # (ties, too)
        min_size=2,
        max_size=30,
    )
)
def test_median_of_others_leaves_each_value_out(values: list[float]) -> None:
    sides = np.array(values)
    expected = [np.median(np.delete(sides, i)) for i in range(len(sides))]
    assert finds.median_of_others(sides).tolist() == pytest.approx(expected)


def test_roll_sized_follows_a_slant() -> None:
    """A photo at a slant: dice grow from 30 px at the far edge to 110 px at the near one.
    Each is also judged against the size the roll gives at its place, not only the median
    (45 px), so the near dice of 108 px stay; a speck among them (20 px) is no die by
    either, and goes."""
    rows = [(100, 100), (300, 110), (500, 90), (200, 300), (450, 320), (300, 700), (520, 720)]
    found = np.array([[x, y, 20.0 + 0.125 * y, 0.9] for x, y in rows] + [[400, 700, 20.0, 0.6]])
    assert found[5, 2] > 2 * np.median(found[:, 2])  # the median rule alone would drop it
    sure = np.array([True] * 7 + [False])  # the speck is not read surely
    assert finds.roll_sized(found, 0.6, 2.0, sure=sure).tolist() == [True] * 7 + [False]


def test_clear_and_apart_spares_a_clear_die_alone_whatever_its_size() -> None:
    """A near die twice the far ones' size, read clearly as a 4, stands clear of the size
    rules; so does a far die read clearly, and a 1 (`_Looks.sized` asks a 1 for more).
    Not a face read unclearly, nor a find the readers doubt is a die, nor one inside
    another find (a pip) or holding one (a pile seen as one die)."""
    found = np.array(
        [
            [100, 100, 80, 0.9],  # near die, a 4
            [300, 100, 30, 0.9],  # far die, a 5
            [500, 100, 80, 0.9],  # a 1
            [700, 100, 80, 0.9],  # read unclearly
            [900, 100, 80, 0.9],  # half a die
            [1100, 100, 90, 0.9],  # holds the next find: a pile seen as one
            [1110, 110, 30, 0.9],  # inside the one before
        ],
        np.float32,
    )
    probs = np.array(
        [
            read_scores(4, 0.95),
            read_scores(5, 0.92),
            read_scores(1, 0.99),
            read_scores(3, 0.8),
            read_scores(6, 0.95, dieness=0.85),
            read_scores(2, 0.95),
            read_scores(6, 0.95),
        ],
        np.float32,
    )
    apart = finds.clear_and_apart(found, probs, clearly=0.9, dieness=0.9)
    assert apart.tolist() == [True, True, True, False, False, False, False]


def test_clear_and_apart_tells_a_find_inside_from_one_holding_it() -> None:
    """A small find in a big one's corner: the big one holds its centre, the small one's
    box does not reach the big one's centre; each is left to the size rules."""
    found = np.array([[100, 100, 90, 0.9], [130, 130, 30, 0.9]], np.float32)
    probs = np.array([read_scores(2, 0.95), read_scores(6, 0.95)], np.float32)
    assert finds.centre_inside(found, found).tolist() == [[True, True], [False, True]]
    assert finds.clear_and_apart(found, probs, clearly=0.9, dieness=0.9).tolist() == [False, False]
