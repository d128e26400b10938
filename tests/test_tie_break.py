"""The tie-break race of two players tied on top: the second's chance against plain iteration
on the value of a tie, and what the race leaves out. Its recursions (a chaser's last turn, a
leader setting a mark) are also ``test_winprob``'s independent check of a final round."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from companion.rules import Rules, load_rules
from companion.strategy import bust_fraction, turn_model
from companion.strategy_dp import UNIT, Outcome, StateKey, TurnModel
from companion.tie_break import tie_break_chance, tie_break_race

FARKLE = load_rules("farkle")


# --- an independent computation --------------------------------------------------------------


def _last_turn(rules: Rules, tie: float) -> Callable[[int], float]:
    """The last turn's chance to pass, by recursion over the points still needed (farkle's
    rolls depend on nothing else: no entry, no doublings), a tie on top worth ``tie``."""
    model = turn_model(rules)
    assert rules.entry == 0 and rules.min_bank <= UNIT and not rules.hot_dice_must_roll

    @functools.cache
    def short(r: int, key: StateKey) -> float:  # r units still needed to pass, about to roll
        seen = sum(c.weight for c in model.classes[key] if c.outcomes)
        assert seen <= 6 ** key[0]
        return (
            sum(
                c.weight * max(chased(r - o.add // UNIT, _arrival(model, o)) for o in c.outcomes)
                for c in model.classes[key]
                if c.outcomes
            )
            / 6 ** key[0]
        )

    def chased(r: int, key: StateKey) -> float:  # arrived with r still needed: bank or roll on
        if r <= 0:
            return 1.0
        return max(tie if r == 1 else 0.0, short(r, key))

    def chance(need: int) -> float:
        for r in range(1, need):  # fill the memo upwards: no deep recursion
            short(r, model.start)
        return short(need, model.start)

    return chance


def _arrival(model: TurnModel, o: Outcome) -> StateKey:
    return model.hot if o.dice == 0 else (o.dice, o.held)


def _setting_a_mark(
    rules: Rules,
    goal: int,
    bank: Callable[[int], float] | None,
    chance: Callable[[int], float],
    bust: float,
    least: float,
) -> float:
    """The turn of a player whose bank at a total ``t >= goal`` (units) leaves the other one
    last turn with ``chance(t)`` to pass it (below ``goal``, ``bank(t)``), by recursion over
    its totals; banking past ``goal`` once that chance is under ``least`` (rolling on can
    then gain no more than that)."""
    model = turn_model(rules)

    @functools.cache
    def arrive(t: int, key: StateKey) -> float:
        if t >= goal:
            mark = 1.0 - chance(t)
            if mark >= 1.0 - least:
                return mark
        else:
            assert bank is not None  # (None only with a goal that every arrival reaches)
            mark = bank(t)
        return max(mark, roll(t, key))

    @functools.cache
    def roll(t: int, key: StateKey) -> float:
        acc, seen = 0.0, 0
        for c in model.classes[key]:
            seen += c.weight
            if c.outcomes:
                acc += c.weight * max(
                    arrive(t + o.add // UNIT, _arrival(model, o)) for o in c.outcomes
                )
            else:
                acc += c.weight * bust
        return (acc + (6 ** key[0] - seen) * bust) / 6 ** key[0]

    end = goal
    while chance(end) > least:
        end += 1
    for t in range(end, 0, -1):  # fill the memo downwards: no deep recursion
        for key in model.classes:
            roll(t, key)
    return roll(0, model.start)


def _tie_break_value_iteration(rules: Rules, least: float = 1e-12) -> float:
    """The second player's chance in a tie-break of two, by plain iteration on the value of
    a tie: the first player's turn sets a mark as a final round's leader does, from any
    bank; a bust leaves the second needing any bank, and a second bust ties again."""
    bust = float(bust_fraction(rules, rules.dice))
    w = 0.5
    for _ in range(100):
        chance = _last_turn(rules, w)
        mark = functools.partial(lambda chance, t: chance(t + 1), chance)
        against_a_bust = (1 - bust) + bust * w
        first = _setting_a_mark(rules, 1, None, mark, 1 - against_a_bust, least)
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
