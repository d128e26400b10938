"""The tie-break race of two players tied on top: the second's chance, and the first's turn.

Tied leaders at a game's end play tie-break turns (``companion.game`` runs them). The game's
solve (``companion.winprob``) values a tie on top at the chaser's chance in that race, and
the coach advises the race's first player by its solved turn. The race is the same at any
score, target and end rule, so it is solved once per set of turns, apart from any game:
hence a module of its own, beside the game's.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from dataclasses import replace

from companion.rules import MAX_TARGET, Finish, Rules
from companion.winprob_turn import (
    ChaseTurn,
    TurnValues,
    least_bank_units,
    mark_turn,
    solve_win_turn,
    turn_plan,
)

TIE_BREAK_STEP = 1e-6
"""The tie-break chance is solved until a secant step is shorter than this. Both players'
values are piecewise linear in it (maxima of linear functions, over their policies), so
once two points share the root's piece the step lands on it; a step this short has at
worst just crossed a kink, and is off by far less than itself."""


def tie_break_chance(rules: Rules) -> float:
    """The chance that the second of two players tied on top wins their tie-break turns,
    both playing to win (strike penalties, instant wins and the 5150 left out: each turn is
    scored for its points). The race is the same at any score and
    under any end rule, so the solution is kept per roll set, whatever the target.

    The first plays a turn to set a mark; the second, knowing it, plays to pass it; a tie
    (busts on both sides included) starts again with the same order, which ``game.apply``
    keeps: the player who just tied plays second. So the chance ``w`` is a fixed point: the
    second's last turn values a tie at ``w`` and the first's turn values a tie at
    ``1 - w``. Knowing the mark is worth about ten points of chance:

    >>> from companion.rules import load_rules
    >>> round(tie_break_chance(load_rules("farkle")), 4)
    0.6
    """
    return _tie_break_chance(tie_break_race(rules))


def tie_break_race(rules: Rules) -> Rules:
    """The rules a tie-break is solved under: the same turns, and nothing that only the
    game around them reads (its name, target, end, entry threshold: both players are on
    the board, takeovers: none in a tie-break, the 5150, strike penalties), so one
    solution serves every game with the same turns."""
    return replace(
        rules,
        name="tie-break",
        finish=Finish.FINAL_ROUND,
        target=MAX_TARGET,
        entry=0,
        takeover=False,
        the_5150=False,
        strike_penalty=0,
        strike_after=3,
    )


def _first_of_the_race(rules: Rules, w: float, keep: bool) -> tuple[float, TurnValues | None]:
    """The first player's turn in a tie-break of two whose second wins a tie's restart with
    chance ``w``: (the second's chance, and with ``keep`` the first's solved turn)."""
    plan = turn_plan(rules)
    least = least_bank_units(rules, 1)  # (both are on the board)
    chase = ChaseTurn(plan, w)
    # the first busts: any bank passes, and a bust ties again
    bust_first = 1.0 - solve_win_turn(plan, 1, least, lambda t: 0.0, w, slope=False)[0]
    past = mark_turn(plan, least, bust_first, lambda t: chase.chance(least, t + 1))
    first, _, values = solve_win_turn(
        plan, least, least, lambda t: 0.0, bust_first, keep=keep, past=past, slope=keep
    )
    return 1.0 - first, values


def tie_break_first_turn(rules: Rules) -> TurnValues:
    """The turn of the first of two players in a tie-break, solved: every state's chance to
    win the tie-break (``roll``, ``bank``, ``after`` as in ``TurnValues``), the second
    playing to pass the mark it sets (``tie_break_chance``)."""
    return _first_turn(tie_break_race(rules))


FIRST_TURNS_KEPT = 16
"""Solved first turns of tie-breaks kept (a few MB each under ``hot-dice``)."""

_first_turns: OrderedDict[Rules, TurnValues] = OrderedDict()  # (least recently used first)
_first_turns_lock = threading.Lock()


def _first_turn(race: Rules) -> TurnValues:
    """The race's first turn, solved once and kept while among the `FIRST_TURNS_KEPT` used
    last; a cache of its own, not ``lru_cache``, so that `first_turn_solved` can look in it
    without solving (the web's coach asks before it takes a slot of heavy work)."""
    with _first_turns_lock:
        values = _first_turns.get(race)
        if values is not None:
            _first_turns.move_to_end(race)
            return values
    _, values = _first_of_the_race(race, _tie_break_chance(race), keep=True)
    assert values is not None
    with _first_turns_lock:
        _first_turns[race] = values
        _first_turns.move_to_end(race)
        while len(_first_turns) > FIRST_TURNS_KEPT:
            _first_turns.popitem(last=False)
    return values


def first_turn_solved(rules: Rules) -> bool:
    """Whether `tie_break_first_turn` of ``rules`` is kept solved: answered at once."""
    with _first_turns_lock:
        return tie_break_race(rules) in _first_turns


@functools.lru_cache(maxsize=256)  # (a float each)
def _tie_break_chance(rules: Rules) -> float:
    def second_wins(w: float) -> float:
        return _first_of_the_race(rules, w, keep=False)[0]

    # w - second_wins(w) is nearly linear (its slope is one minus a tie's small chance):
    # the secant method settles it in three to five solves of the race
    x0 = 0.5  # (an even chance, to start)
    x1 = second_wins(x0)
    g0 = x0 - x1
    for _ in range(60):
        g1 = x1 - second_wins(x1)
        if g1 == g0:
            return x1
        x0, x1, g0 = x1, x1 - g1 * (x1 - x0) / (g1 - g0), g1
        if abs(x1 - x0) < TIE_BREAK_STEP:
            return x1
    raise ArithmeticError("the tie-break chance did not converge")
