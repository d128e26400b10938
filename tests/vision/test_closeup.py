"""Telling a close-up's pips from a pile of dice seen as one, on finds and scores written
out by hand (the reader's looks that lead to them are tested in test_reader.py)."""

from __future__ import annotations

import numpy as np

from vision import closeup
from vision.finds import confirmed_dice


def test_look_like_pips_when_most_finds_read_one_or_unsure() -> None:
    values, sure = np.array([1, 1, 3]), np.array([0.9, 0.8, 0.95])
    assert closeup.look_like_pips(values, sure)  # two ones in three: maybe pips
    assert not closeup.look_like_pips(np.array([1, 2, 3]), sure)  # one 1 in three: a roll
    assert closeup.look_like_pips(np.array([4, 5]), np.array([0.3, 0.4]))  # both unsure
    assert closeup.look_like_pips(np.array([1]), np.array([0.9]))  # a lone pip confirmed
    assert not closeup.look_like_pips(np.array([5]), np.array([0.9]))
    assert not closeup.look_like_pips(np.array([], int), np.array([]))


def test_holds_needs_a_bigger_find_around_the_smaller() -> None:
    big = np.array([[100.0, 100.0, 200.0, 0.8]])
    small = np.array(
        [
            [60.0, 140.0, 40.0, 0.5],  # a corner pip of the big die
            [230.0, 100.0, 40.0, 0.5],  # outside it
            [100.0, 100.0, 120.0, 0.5],  # inside, but a die of its own (not 2.5 times smaller)
            [120.0, 90.0, 10.0, 0.5],  # inside, but 20 times smaller: a die of a far pile
        ]
    )
    assert closeup.holds(big, small).tolist() == [[True, False, False, False]]


def test_stands_rejects_a_pile_taken_for_one_die() -> None:
    pips = np.array([[100, 100, 20, 0.8], [130, 100, 20, 0.8], [100, 130, 20, 0.8]], np.float32)
    big = np.array([[115, 115, 100, 0.9]], np.float32)

    def reads(value: int, share: float = 0.95) -> np.ndarray:
        probs = np.full((1, 7), (1 - share) / 6, np.float32)
        probs[0, value] = share
        return probs

    def confirmed(found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        return confirmed_dice(found[:, 3], probs, 0.7, 0.5)

    assert closeup.stands(big, reads(3), pips, confirmed)  # a 3 holding its three pips
    assert closeup.stands(big, reads(2), pips, confirmed)  # one find more: a pip found twice
    assert not closeup.stands(big, reads(1), pips, confirmed)  # a 1 cannot hold three
    assert not closeup.stands(big, reads(3, share=0.3), pips, confirmed)  # read no value
    assert not closeup.stands(big[:0], reads(3)[:0], pips, confirmed)  # nothing seen
    # a piece of the pile that the readers half doubt (a die at 0.68, under the 0.7 that
    # confirms one) is as telling: a 1 holding three pips, beside a sure 3 elsewhere
    elsewhere = np.array([[115, 115, 100, 0.9], [600, 115, 100, 0.9]], np.float32)
    doubted = np.vstack([reads(1), reads(3)])
    doubted[0] *= 0.68 / (1 - doubted[0, 0])
    doubted[0, 0] = 0.32
    assert not confirmed_dice(elsewhere[:1, 3], doubted[:1], 0.7, 0.5).any()
    assert not closeup.stands(elsewhere, doubted, pips, confirmed)
    doubted[0, 0], doubted[0, 1:] = 0.49, doubted[0, 1:] * 0.51 / 0.68  # even odds, just
    assert not closeup.stands(elsewhere, doubted, pips, confirmed)
    doubted[0, 0], doubted[0, 1:] = 0.51, doubted[0, 1:] * 0.49 / 0.51  # "not a die" wins
    assert closeup.stands(elsewhere, doubted, pips, confirmed)


def test_crowd_tells_a_pile_of_dice_from_a_die_and_its_pips() -> None:
    def confirmed(found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        return confirmed_dice(found[:, 3], probs, 0.7, 0.5)

    def reads(value: int, n: int = 1) -> np.ndarray:
        probs = np.full((n, 7), 0.01, np.float32)
        probs[:, value] = 0.94
        return probs

    big = np.array([[100, 100, 60, 0.9]], np.float32)
    dozen = np.array([[82 + 9 * (k % 4), 85 + 12 * (k // 4), 7, 0.8] for k in range(12)])
    dozen = dozen.astype(np.float32)
    assert closeup.crowd(big, reads(6), dozen, reads(3, 12), confirmed)  # 12 dice in a 6
    # the big die found again at the finer look, with a better score, hides none of them
    again = np.vstack([dozen, [[100, 100, 58, 0.95]]]).astype(np.float32)
    assert closeup.crowd(big, reads(6), again, np.vstack([reads(3, 12), reads(6)]), confirmed)
    six_pips = dozen[:6].copy()
    six_pips[:, 2] = 10  # a sixth of the die: pips, read as 1s
    assert not closeup.crowd(big, reads(6), six_pips, reads(1, 6), confirmed)
    assert not closeup.crowd(big, reads(6), six_pips[:0], reads(1, 6)[:0], confirmed)
    two = dozen[:2].copy()
    two[:, 2] = 4
    assert closeup.crowd(big, reads(2), two, reads(4, 2), confirmed)  # under a twelfth, sure
    two[:, 2] = 10  # pip-sized: a window that small holds no two whole pips
    assert not closeup.crowd(big, reads(2), two, reads(1, 2), confirmed)
    assert closeup.crowd(big, reads(2), two, reads(4, 2), confirmed)  # four pips in it: dice
    assert not closeup.crowd(big, reads(2), two[:1], reads(4), confirmed)  # one may be misread
    unsure = reads(4, 2)
    unsure[:, 4] = unsure[:, 5] = 0.47
    assert not closeup.crowd(big, reads(2), two, unsure, confirmed)  # a 4 or a 5, unsure
    apart = dozen[[0, 2]].copy()  # (18 px apart: two finds, not one found twice)
    apart[:, 2] = 20  # a third of the side: a window that may hold two of a 6's pips
    assert not closeup.crowd(big, reads(6), apart, reads(4, 2), confirmed)
    apart[:, 2] = 10
    assert closeup.crowd(big, reads(6), apart, reads(4, 2), confirmed)
    far = dozen + np.array([300, 0, 0, 0], np.float32)  # dice beside the big one, not in it
    assert not closeup.crowd(big, reads(6), far, reads(3, 12), confirmed)


def _reads(value: int, n: int = 1, share: float = 0.94) -> np.ndarray:
    """Readers' scores of `n` finds all read as `value` with probability `share`."""
    probs = np.full((n, 7), (1 - share) / 6, np.float32)
    probs[:, value] = share
    return probs


def _confirmed(found: np.ndarray, probs: np.ndarray) -> np.ndarray:
    return confirmed_dice(found[:, 3], probs, 0.7, 0.5)


def test_a_die_read_at_even_odds_is_no_pip() -> None:
    """Only a die read under 0.5 is unsure (the readers' own line for a face read): two
    dice read at 0.5 exactly, as 4 and 5, are a roll, not pips."""
    assert not closeup.look_like_pips(np.array([4, 5]), np.array([0.5, 0.5]))


def test_holds_takes_both_ends_of_its_ratio() -> None:
    """`ratio` to `max_ratio` times the find's size, both included: a find 2.5 times and
    one 12 times smaller than the die are its pips."""
    big = np.array([[100.0, 100.0, 120.0, 0.8]])
    small = np.array([[90.0, 90.0, 48.0, 0.5], [110.0, 110.0, 10.0, 0.5]])
    assert closeup.holds(big, small).tolist() == [[True, True]]


def test_explains_needs_half_the_pips_in_readable_confirmed_dice() -> None:
    pips = np.array([[100, 100, 20, 0.8], [130, 100, 20, 0.8], [100, 130, 20, 0.8]], np.float32)
    die = np.array([[115, 115, 100, 0.9]], np.float32)
    assert closeup.explains(die, _reads(3), pips, _confirmed)  # a 3 and its three pips
    assert closeup.explains(die, _reads(2), pips, _confirmed)  # a pip found twice
    assert not closeup.explains(die, _reads(1), pips, _confirmed)  # a 1 cannot hold three

    def nothing(found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        return np.zeros(len(found), bool)

    assert not closeup.explains(die, _reads(3), pips, nothing)  # no die confirmed
    assert not closeup.explains(die, _reads(3, share=0.3), pips, _confirmed)  # read no value
    # two of four pips inside a die are half of them: enough; one of three is not
    outside = np.array([[600, 100, 20, 0.8]], np.float32)
    assert closeup.explains(die, _reads(3), np.vstack([pips[:2], outside, outside]), _confirmed)
    assert not closeup.explains(die, _reads(3), np.vstack([pips[:1], outside, outside]), _confirmed)
    assert not closeup.explains(die, _reads(3), pips[:0], _confirmed)  # no pips at all


def test_stands_counts_a_find_at_even_odds_as_maybe_a_die() -> None:
    """A find the readers give exactly even odds of being a die is a piece of a pile."""
    pips = np.array([[100, 100, 20, 0.8], [130, 100, 20, 0.8], [100, 130, 20, 0.8]], np.float32)
    found = np.array([[115, 115, 100, 0.9], [600, 115, 100, 0.9]], np.float32)
    probs = np.vstack([_reads(1), _reads(3)])
    probs[0] = [0.5, 0.5, 0, 0, 0, 0, 0]  # a 1 holding three pips, at even odds a die
    assert not closeup.stands(found, probs, pips, _confirmed)


def test_stands_when_most_bigger_dice_hold_no_more_than_their_pips() -> None:
    """Five dice of a close-up, one of them (a 4 at a slant) holding six finds, its side
    face's pips too: one die in five holding too many is a die, not the roll a pile (since
    session 44). Three in five holding too many are piles."""
    found = np.array([[100 + 200 * k, 100, 100, 0.9] for k in range(5)], np.float32)
    pips = [[x + dx, 100 + dy, 15, 0.8] for x in (100, 300, 500, 700) for dx, dy in _FOUR]
    pips += [[900 + dx, 100 + dy, 15, 0.8] for dx, dy in [*_FOUR, (-40, 0), (-40, 25)]]
    probs = np.vstack([_reads(4)] * 5)
    assert closeup.stands(found, probs, np.array(pips, np.float32), _confirmed)
    crowded = [[x - 40, 100 + dy, 15, 0.8] for x in (100, 300) for dy in (0, 25)]
    assert not closeup.stands(found, probs, np.array(pips + crowded, np.float32), _confirmed)


_FOUR = [(-25, -25), (25, -25), (-25, 25), (25, 25)]  # a 4's pips about its die's centre


def test_crowd_when_a_die_holds_more_dice_than_its_value_plus_one() -> None:
    """A 2 holding four finds read as 1s (pip-sized, so neither too small nor read as
    several pips) is a pile; three are a 2's pips, one found twice."""
    big = np.array([[100, 100, 60, 0.9]], np.float32)
    finds = np.array([[82 + 9 * k, 95, 10, 0.8] for k in range(4)], np.float32)
    assert closeup.crowd(big, _reads(2), finds, _reads(1, 4), _confirmed)
    assert not closeup.crowd(big, _reads(2), finds[:3], _reads(1, 3), _confirmed)
