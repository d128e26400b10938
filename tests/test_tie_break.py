"""The tie-break race of two players tied on top: the second's chance against plain iteration
on the value of a tie (the recursions of ``tests.reference_turns``: a chaser's last turn, a
leader setting a mark), and what the race leaves out."""

from __future__ import annotations

import functools

import pytest

from companion.rules import Rules, load_rules
from companion.strategy import bust_fraction
from companion.tie_break import tie_break_chance, tie_break_race
from tests.reference_turns import last_turn_chance, setting_a_mark

FARKLE = load_rules("farkle")


# --- an independent computation --------------------------------------------------------------


def _tie_break_value_iteration(rules: Rules, least: float = 1e-12) -> float:
    """The second player's chance in a tie-break of two, by plain iteration on the value of
    a tie: the first player's turn sets a mark as a final round's leader does, from any
    bank; a bust leaves the second needing any bank, and a second bust ties again."""
    bust = float(bust_fraction(rules, rules.dice))
    w = 0.5
    for _ in range(100):
        chance = last_turn_chance(rules, w)
        mark = functools.partial(lambda chance, t: chance(t + 1), chance)
        against_a_bust = (1 - bust) + bust * w
        first = setting_a_mark(rules, 1, None, mark, 1 - against_a_bust, least)
        if abs(1.0 - first - w) < 1e-14:
            return w
        w = 1.0 - first
    raise AssertionError("the tie-break iteration did not converge")


def test_the_tie_break_matches_plain_iteration_on_the_value_of_a_tie() -> None:
    # the secant method on the value of a tie, and the solved turns, against a recursion
    # over the roll classes iterated until the value of a tie stops moving
    rules = load_rules("ten-thousand")
    assert tie_break_chance(rules) == pytest.approx(_tie_break_value_iteration(rules), abs=1e-12)


def test_the_second_in_a_tie_break_is_favoured_and_the_race_ignores_the_game() -> None:
    # knowing the first player's mark is worth about ten points of chance to the second
    for name in ("farkle", "ten-thousand", "minnesota"):
        assert 0.55 < tie_break_chance(load_rules(name)) < 0.65
    # the race is the same at any score, target or end rule, and a strike penalty (which
    # the coach leaves out once the game is in its last round) does not enter it
    w = tie_break_chance(FARKLE)
    assert tie_break_chance(load_rules("farkle", target=500)) == w
    assert tie_break_chance(load_rules({"base": "farkle", "finish": "first-to-target"})) == w
    assert tie_break_chance(load_rules("ten-thousand+strike-out")) == tie_break_chance(
        load_rules("ten-thousand")
    )


# --- from the session-30 mutation review: each fails on a plausible bug the others missed


def test_the_race_ignores_the_end_rule_even_an_exact_one() -> None:
    exact = load_rules("exact-10000")
    final = load_rules({"base": "exact-10000", "finish": "final-round"})
    assert tie_break_race(exact) == tie_break_race(final)
    assert tie_break_chance(exact) == tie_break_chance(final)
