"""The arithmetic of finds and the readers' scores: what counts as a die, as reported, as
one die found twice. Plain arrays, no network."""

import numpy as np

from vision import finds


def test_confirmed_dice_needs_a_sure_finder_or_a_readable_face():
    clear = [0.01, 0.95, 0.01, 0.01, 0.01, 0.005, 0.005]
    logo = [0.05] + [0.95 / 6] * 6
    not_die = [0.5, 0.45, 0.01, 0.01, 0.01, 0.01, 0.01]
    probs = np.array([clear, clear, logo, logo, not_die], np.float32)
    scores = np.array([0.9, 0.35, 0.9, 0.35, 0.9], np.float32)
    keep = finds.confirmed_dice(scores, probs, min_dieness=0.7, min_sure_score=0.5)
    # a readable die counts even when the finder doubts it; an unreadable one (a logo) only
    # when the finder is sure; a find the readers doubt is a die never counts
    assert keep.tolist() == [True, True, True, False, False]


def test_an_unread_find_is_reported_only_if_all_but_surely_a_die():
    # a grey button: the readers call it a die at 0.8, and read no face
    button = [0.2] + [0.8 / 6] * 6
    # a readable die the readers believe as little is still a die: its face shows it
    faint = [0.2, 0.7, 0.02, 0.02, 0.02, 0.02, 0.02]
    logo = [0.05] + [0.95 / 6] * 6
    probs = np.array([button, faint, logo], np.float32)
    assert finds.not_lookalike(probs, 0.9).tolist() == [False, True, True]
    assert finds.not_lookalike(probs, 0.7).tolist() == [True, True, True]


def test_dedupe_keeps_dice_closer_than_a_side():
    """Dice seen at a slant overlap in the photo: centres 0.55 sides apart are two dice; a
    second find a quarter side from the first is the same die found twice."""
    found = np.array(
        [[100, 100, 60, 0.9], [133, 100, 60, 0.6], [300, 300, 60, 0.8], [315, 300, 60, 0.7]],
        np.float32,
    )
    kept = finds.dedupe(found, found[:, 3])
    assert sorted(kept.tolist()) == [0, 1, 2]


def test_same_finds_pairs_finds_at_about_the_same_place_and_size():
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
