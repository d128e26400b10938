"""Two-player win probability: the policy that maximises the chance to win the game.

The expected-score advisor (``companion.strategy``) plays a turn in a vacuum. Here the state
is the whole game for two players, as in Neller and Presser's solution of Pig and Busche and
Neller's of Farkle ("Optimal Play of the Farkle Dice Game", 2017): my banked score ``i``, the
opponent's ``j`` (both below the target, on the 50-point grid), the turn total and the dice in
hand (with whatever the rules hold across rolls). ``P(i, j)`` is the chance that the player
about to start a turn eventually wins, and a turn is the same exact DP as the expected-score
advisor's, over the engine's roll classes (``strategy.turn_model``: nothing is rescored),
except for what its ends are worth:

* banking a total ``t`` with ``i + t`` below the target is worth ``1 - P(j, i + t)``;
* reaching the target: under a ``final-round`` finish the opponent then has one last turn
  to pass ``i + t`` (a tie is worth the chaser's chance in the tie-break turns that follow,
  ``tie_break.tie_break_chance``), so the bank is worth one minus the opponent's best
  chance in that turn, and the player may roll on past the target to set a higher mark;
  under ``exact`` finishing the target must be hit exactly (a total past it is a bust, as
  in the engine) and wins; otherwise (``first-to-target``, and ``tie-or-beat``, which is
  not modelled) a bank that reaches the target wins (1);
* a bust is worth ``1 - P(j, i)``.

Scores only grow, so the pairs are solved by score sum from high to low. Within a sum,
``P(i, j)`` and ``P(j, i)`` are coupled through the bust: each is a convex, piecewise-linear
function of its bust value whose slope is the chance of busting under the optimal play,
which every turn DP returns alongside the value; the coupled pair is solved by Newton's
method on those slopes (policy iteration: exact once the policy stops changing, usually after
two or three turn solves per state), with a plain fixed-point iteration as a fallback.

This module holds the game: the table of score pairs, its final round and the report
``hotdice strategy --win-probability`` prints. One turn's solve is
``companion.winprob_turn``'s, the tie-break race ``companion.tie_break``'s.

>>> from companion.rules import load_rules
>>> game = solve_game(load_rules("farkle", target=500))
>>> round(game.first_player, 4)
0.5737
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import ParseError
from companion.rules import Finish, InstantWin, Rules
from companion.strategy import bank_thresholds, turn_model
from companion.strategy_dp import UNIT
from companion.tie_break import tie_break_chance
from companion.winprob_turn import (
    ChaseTurn,
    MarkTurn,
    TurnPlan,
    TurnValues,
    least_bank_units,
    mark_turn,
    solve_win_turn,
    turn_plan,
)

TOLERANCE = 1e-12
"""Newton stops when both coupled values change by less than this."""


# --- the game --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSolution:
    """``P[i][j]``: the chance that the player about to start a turn with ``i * UNIT`` points
    against the opponent's ``j * UNIT`` wins, both playing to win."""

    rules: Rules
    target: int
    P: tuple[tuple[float, ...], ...] = field(repr=False)
    seconds: float = field(compare=False)  # (how long a solve took: not what it found)
    turn_solves: int
    final_round: _FinalRound | None = field(default=None, repr=False, compare=False)

    @property
    def first_player(self) -> float:
        """The first player's chance to win under optimal play by both."""
        return self.P[0][0]

    def win_chance(self, score: int, opponent: int) -> float:
        """The chance that a player starting a turn with ``score`` against ``opponent`` wins."""
        return self.P[_units(score, self.target)][_units(opponent, self.target)]

    def turn(self, score: int, opponent: int) -> TurnValues:
        """Every state of the turn of a player with ``score`` against ``opponent``, solved."""
        i, j = _units(score, self.target), _units(opponent, self.target)
        plan = turn_plan(self.rules)
        P = self.P
        n = self.target // UNIT
        bust = 1.0 - P[j][i]
        _, _, values = solve_win_turn(
            plan,
            n - i,
            least_bank_units(self.rules, i),
            lambda t: 1.0 - P[j][i + t],
            bust,
            keep=True,
            past=self.final_round.past(i, j, bust) if self.final_round else None,
        )
        assert values is not None
        return values


def _units(score: int, target: int) -> int:
    if score < 0 or score % UNIT or score >= target:
        raise ParseError(
            f"a score must be a multiple of {UNIT} from 0 to below the target "
            f"{target:,}, not {score}"
        )
    return score // UNIT


class _FinalRound:
    """The other player's last turn once a player reaches the target (``final-round``, two
    players); a tie on top is worth the chaser's chance in the tie-break turns that follow,
    where the chaser plays second (``tie_break_chance``)."""

    def __init__(self, rules: Rules, plan: TurnPlan) -> None:
        self.rules = rules
        self.plan = plan
        self.n = rules.target // UNIT
        self._chase = ChaseTurn(plan, tie_break_chance(rules))

    def chance(self, j: int, need: int) -> float:
        """The chance that the player at ``j`` wins the final round when a turn total of
        ``need`` (units) passes the leader and ``need - 1`` ties."""
        return self._chase.chance(least_bank_units(self.rules, j), need)

    def past(self, i: int, j: int, bust: float) -> MarkTurn:
        """The turn of the player at ``i`` against ``j``, a bust worth ``bust``."""
        return mark_turn(self.plan, self.n - i, bust, lambda t: self.chance(j, i + t - j + 1))


def check_solvable(rules: Rules) -> None:
    """Raise ParseError for a game the solver does not take (an odd target, an exact finish
    no first bank can meet, strike penalties), before any work is spent on it."""
    if rules.target <= 0 or rules.target % UNIT:
        raise ParseError(f"the target must be a positive multiple of {UNIT}, not {rules.target}")
    least = rules.least_bank(on_board=False)
    if rules.finish is Finish.EXACT and least > rules.target:
        raise ParseError(
            f"{rules.name}: a first bank needs {least:,}, "
            f"past the exact target {rules.target:,}: nobody can win"
        )
    if rules.strike_penalty:
        raise ParseError(
            f"{rules.name}: the win probability does not model strike penalties "
            "(busts in a row would be part of the state)"
        )


Progress = Callable[[float], None]
"""Told the share of the work done (0 to 1) after each score sum: big targets take minutes."""


def solve_game(rules: Rules, progress: Progress | None = None) -> GameSolution:
    """Solve the two-player game to ``rules.target`` (its finish as the module says).

    Pure Python: the time grows with the cube of the target (about 2-2.5 turn solves for
    each of (target/50)^2 score pairs); see docs/strategy.md for measured times.
    Without ``progress`` the solution is memoised per rule set; with it the game is solved
    afresh (whoever waits on a long solve is told how far it is; benchmarks time a cold one).
    """
    if progress is None:
        return _solved(rules)
    return _solve_game(rules, progress)


@functools.lru_cache(maxsize=16)
def _solved(rules: Rules) -> GameSolution:
    return _solve_game(rules, None)


def _solve_game(rules: Rules, progress: Progress | None) -> GameSolution:
    check_solvable(rules)
    started = time.process_time()
    plan = turn_plan(rules)
    n = rules.target // UNIT
    P = [[0.5] * n for _ in range(n)]
    final = _FinalRound(rules, plan) if rules.finish is Finish.FINAL_ROUND else None
    solves = 0
    # a turn at (i, j) runs over the n - i turn totals still short of the target
    work, done = n * n * (n + 1) / 2, 0.0

    def turn(i: int, j: int, bust: float) -> tuple[float, float]:
        nonlocal solves
        solves += 1
        Pj = P[j]
        past = final.past(i, j, bust) if final else None
        value, slope, _ = solve_win_turn(
            plan, n - i, least_bank_units(rules, i), lambda t: 1.0 - Pj[i + t], bust, past=past
        )
        return value, slope

    for s in range(2 * (n - 1), -1, -1):
        for i in range(max(0, s - n + 1), s // 2 + 1):
            j = s - i
            mine = functools.partial(turn, i, j)
            if i == j:
                P[i][i] = _solve_single(mine, _guess(P, i, i))
                done += n - i
            else:
                theirs = functools.partial(turn, j, i)
                P[i][j], P[j][i] = _solve_pair(mine, theirs, _guess(P, i, j), _guess(P, j, i))
                done += 2 * n - i - j
        if progress is not None:
            progress(min(1.0, done / work))
    return GameSolution(
        rules,
        rules.target,
        tuple(tuple(row) for row in P),
        time.process_time() - started,
        solves,
        final,
    )


def _guess(P: list[list[float]], i: int, j: int) -> float:
    """A start for Newton at ``P[i][j]`` from the solved pairs a score sum above: the plane
    through the three neighbours where there are three. The closer the start, the likelier
    its bust value already has the optimal policy, and then two turn solves settle the pair
    (a neighbour alone as the start took about 2.8 per state at 2,000, the plane 2.2)."""
    n = len(P)
    if i + 1 < n and j + 1 < n:
        return min(1.0, max(0.0, P[i][j + 1] + P[i + 1][j] - P[i + 1][j + 1]))
    if j + 1 < n:
        return P[i][j + 1]
    if i + 1 < n:
        return P[i + 1][j]
    return 0.5


def _solve_single(F: Callable[[float], tuple[float, float]], x: float) -> float:
    """The fixed point of ``x = F(1 - x)`` (a player's turn against the same score)."""
    for _ in range(60):
        v, d = F(1.0 - x)
        if abs(v - x) < TOLERANCE:
            return v
        x += (v - x) / (1.0 + d)
    for _ in range(10_000):  # contraction (slope < 1): plain iteration as a fallback
        v, _ = F(1.0 - x)
        if abs(v - x) < TOLERANCE:
            return v
        x = v
    raise ArithmeticError("the win probability did not converge")


def _solve_pair(
    F1: Callable[[float], tuple[float, float]],
    F2: Callable[[float], tuple[float, float]],
    x: float,
    y: float,
) -> tuple[float, float]:
    """The fixed point of ``x = F1(1 - y)``, ``y = F2(1 - x)`` (each side's bust hands the
    turn to the other at the same scores), by Newton's method on the slopes."""
    for _ in range(60):
        v1, d1 = F1(1.0 - y)
        v2, d2 = F2(1.0 - x)
        r1, r2 = v1 - x, v2 - y
        if abs(r1) < TOLERANCE and abs(r2) < TOLERANCE:
            return v1, v2
        if d1 * d2 > 1.0 - 1e-9:
            break
        dx = (r1 - d1 * r2) / (1.0 - d1 * d2)
        dy = r2 - d2 * dx
        x, y = x + dx, y + dy
    for _ in range(10_000):
        v1, _ = F1(1.0 - y)
        v2, _ = F2(1.0 - v1)
        if abs(v1 - x) < TOLERANCE and abs(v2 - y) < TOLERANCE:
            return v1, v2
        x, y = v1, v2
    raise ArithmeticError("the win probability did not converge")


def first_player_win_probability(rules: Rules) -> float:
    """The first player's chance to win a two-player game to ``rules.target``.

    >>> from companion.rules import load_rules
    >>> first_to = {"base": "farkle", "finish": "first-to-target"}
    >>> round(first_player_win_probability(load_rules(first_to, target=50)), 6)
    0.977376
    """
    return solve_game(rules).first_player


# --- reports -------------------------------------------------------------------------------


END_RULES = {Finish.EXACT: "exact target", Finish.FINAL_ROUND: "final round"}
"""What ``win_report`` says of the finish it solved (others: "first to the target")."""


def bank_ranges(game: GameSolution, score: int, opponent: int) -> dict[int, list[tuple[int, int]]]:
    """For each number of dice in hand (nothing held), the turn totals below what reaches
    the target at which banking is at least as good as rolling on, as (from, to) ranges
    (at or past the target a bank wins, the exact target must be hit, or under a final
    round the play goes on in ``game.turn``)."""
    values = game.turn(score, opponent)
    rules = game.rules
    index = {k: n for n, k in enumerate(values.keys)}
    plain = turn_model(rules).hot[1]
    reach = min(values.goal, len(values.bank))
    out: dict[int, list[tuple[int, int]]] = {}
    for dice in range(1, rules.dice + 1):
        k = index.get((dice, plain))
        ranges: list[tuple[int, int]] = []
        out[dice] = ranges
        if k is None or (dice == rules.dice and rules.hot_dice_must_roll):
            continue
        for t in range(1, reach):
            b = values.bank[t]
            if b is None or b < values.roll[k][t]:
                continue
            if ranges and ranges[-1][1] == (t - 1) * UNIT:
                ranges[-1] = (ranges[-1][0], t * UNIT)
            else:
                ranges.append((t * UNIT, t * UNIT))
    return out


def situations(target: int, entry: int = 0) -> list[tuple[int, int]]:
    """A few (my score, opponent's score) pairs worth showing: level, behind, ahead; none
    with a score between 0 and the entry threshold, which no player can have."""

    def grid(x: float) -> int:
        return max(0, min(target - UNIT, int(x) // UNIT * UNIT))

    pairs = [
        (0, 0),
        (grid(target * 0.5), grid(target * 0.5)),
        (grid(target * 0.3), grid(target * 0.85)),
        (grid(target * 0.85), grid(target * 0.3)),
    ]
    return [pair for pair in pairs if not any(0 < v < entry for v in pair)]


def left_out(rules: Rules) -> list[str]:
    """What of these rules the two-player solution does not play, in words (strike
    penalties are refused instead: ``check_solvable``)."""
    out = []
    if rules.finish is Finish.TIE_OR_BEAT:
        out.append("tie-or-beat (solved as first to the target)")
    if rules.takeover:
        out.append("takeovers (every turn starts fresh)")
    if rules.instant_win is not InstantWin.NONE:
        out.append("instant wins (counted as their points)")
    if rules.the_5150:
        out.append("the 5150 bonus roll")
    return out


def win_report(rules: Rules, progress: Progress | None = None) -> dict[str, Any]:
    """What ``hotdice strategy --win-probability`` prints: the first player's chance under
    optimal play and, for a few score pairs, the bank thresholds of the win-maximising play
    where they differ from the expected-score play's (both read up to the total that reaches
    the target; None = roll on until the target is reached).
    """
    game = solve_game(rules, progress)
    # the expected-score play's thresholds; at 0 points, under the entry threshold
    on_board = bank_thresholds(rules)
    at_zero = bank_thresholds(rules, on_board=False) if rules.entry else on_board
    differences = []
    for score, opponent in situations(game.target, rules.entry):
        reach = game.target - score
        win = bank_ranges(game, score, opponent)
        expected = on_board if score else at_zero
        for dice, ranges in win.items():
            ev = expected.get(dice)
            ev_ranges = [(ev, reach - UNIT)] if ev is not None and ev < reach else []
            if ranges != ev_ranges:
                differences.append(
                    {
                        "score": score,
                        "opponent": opponent,
                        "dice": dice,
                        "bank_when_playing_to_win": [list(r) for r in ranges],
                        "bank_when_playing_for_points": [list(r) for r in ev_ranges],
                    }
                )
    return {
        "rules": rules.name,
        "target": game.target,
        "end_rule": END_RULES.get(rules.finish, "first to the target"),
        "left_out": left_out(rules),
        "first_player_win_probability": game.first_player,
        "second_player_win_probability": 1.0 - game.first_player,
        "win_chance": {
            f"{s}-{o}": game.win_chance(s, o) for s, o in situations(game.target, rules.entry)
        },
        "states": (game.target // UNIT) ** 2,
        "turn_solves": game.turn_solves,
        "seconds": round(game.seconds, 3),
        "differences": differences,
    }
