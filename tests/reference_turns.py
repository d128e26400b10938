"""Independent computations the tests check the two-player solvers against: plain
recursion over the engine's roll classes, sharing nothing with ``companion.winprob_turn``'s
backward induction but the roll classes themselves. ``test_tie_break`` iterates them into
the tie-break race, ``test_winprob`` checks a final round with them."""

from __future__ import annotations

import functools
from collections.abc import Callable

from companion.rules import Rules
from companion.strategy import turn_model
from companion.strategy_dp import UNIT, Outcome, StateKey, TurnModel


def last_turn_chance(rules: Rules, tie: float) -> Callable[[int], float]:
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
                c.weight * max(chased(r - o.add // UNIT, arrival(model, o)) for o in c.outcomes)
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


def arrival(model: TurnModel, o: Outcome) -> StateKey:
    """The state an outcome leads to: hot dice, or its dice and what it holds."""
    return model.hot if o.dice == 0 else (o.dice, o.held)


def setting_a_mark(
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
                    arrive(t + o.add // UNIT, arrival(model, o)) for o in c.outcomes
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
