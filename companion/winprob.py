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
  ``tie_break_chance``), so the bank is worth one minus the opponent's best chance in that
  turn, and the player may roll on past the target to set a higher mark; under ``exact``
  finishing the target must be hit exactly (a total past it is a bust, as in the engine)
  and wins; otherwise (``first-to-target``, and ``tie-or-beat``, which is not modelled) a
  bank that reaches the target wins (1);
* a bust is worth ``1 - P(j, i)``.

Scores only grow, so the pairs are solved by score sum from high to low. Within a sum,
``P(i, j)`` and ``P(j, i)`` are coupled through the bust: each is a convex, piecewise-linear
function of its bust value whose slope is the chance of busting under the optimal play,
which every turn DP returns alongside the value; the coupled pair is solved by Newton's
method on those slopes (policy iteration: exact once the policy stops changing, usually after
two or three turn solves per state), with a plain fixed-point iteration as a fallback.

>>> from companion.rules import load_rules
>>> game = solve_game(load_rules("farkle", target=500))
>>> round(game.first_player, 4)
0.5737
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.errors import ParseError
from companion.rules import MAX_TARGET, Finish, InstantWin, Rules
from companion.strategy import bank_thresholds, turn_model
from companion.strategy_dp import UNIT, StateKey, TurnModel, scoreless

TOLERANCE = 1e-12
"""Newton stops when both coupled values change by less than this."""

FINAL_ROUND_LEAST = 1e-12
"""Where no roll must risk a bust, the leader rolls on past the target only while the
other player's chance to pass is above this."""

FINAL_ROUND_REACH = 10_000
"""The most points past the target a turn is solved for: beyond, the player banks. Without
doublings the bound in ``_past`` stops far short of it (``farkle``: at most
3,800 past at targets of 500-2,000); with ``double-turn`` a mark doubles, the chance to
pass it only halves, and the bound would run on to 100,000."""


@dataclass(frozen=True)
class _Past:
    """A final round, in the turn of the player who reaches the target: ``bank(t)`` is what
    banking the turn total ``t`` (at or past the target) is worth, ``end`` the total from
    which banking is best in every state."""

    bank: Callable[[int], float]
    end: int


# --- one turn, given what its ends are worth -----------------------------------------------


@dataclass(frozen=True)
class _Plan:
    """A rule set's roll classes flattened for the inner loop of the turn DP."""

    keys: tuple[StateKey, ...]
    rows: tuple[tuple[int, int, tuple, tuple, tuple], ...]
    """Per key: (index, 6**n, unaccounted weight, [(weight, forced, targets)], [(weight,
    reroll_at)]), targets being (mul, add in units, arrival index)."""
    start: int
    hot: int
    hot_key: int
    """Index of the state rolled after hot dice (``hot`` is the arrival slot)."""
    max_add: int
    hot_must_roll: bool
    exact: bool
    hot_won: tuple[float, float]
    """Hot dice that must be rolled past the target: (value with bust 0, d/d bust)."""
    least_bust: float
    """The smallest chance that a roll busts, over every state rolled past a turn total of 0
    (rolls that may be rolled again counted as not busting): past the target it bounds what
    rolling on can gain."""
    doublings: tuple[tuple[int, int], ...]
    """Every (mul, add) of a keep that doubles (mul > 1): where past the rows they land."""
    layout: tuple[tuple[tuple, tuple, tuple], ...]
    """Per row, its classes as (weight as a float, forced, targets) by how the turn DP reads
    them, each in the rows' order: one keep, several keeps, and doublings (some mul > 1)."""


@functools.lru_cache(maxsize=32)
def _plan(rules: Rules) -> _Plan:
    model: TurnModel = turn_model(rules)
    keys = tuple(model.classes)
    index = {k: n for n, k in enumerate(keys)}
    hot = len(keys)
    rows = []
    max_add = 0
    for k in keys:
        several = []
        empty = []
        for c in model.classes[k]:
            if not c.outcomes:
                empty.append((c.weight, c.reroll_at))
                continue
            targets = tuple(
                (o.mul, o.add // UNIT, hot if o.dice == 0 else index[(o.dice, o.held)])
                for o in c.outcomes
            )
            max_add = max(max_add, *(t[1] for t in targets), c.forced_add // UNIT)
            forced = c.forced_add // UNIT if rules.finish is Finish.EXACT else -1
            several.append((c.weight, forced, targets))
        unaccounted = 6 ** k[0] - sum(c.weight for c in model.classes[k])
        rows.append((index[k], 6 ** k[0], unaccounted, tuple(several), tuple(empty)))
    # Past the target with hot dice that must be rolled: any scoring roll that leaves dice
    # in hand wins (bank), only hot dice again must roll on; a bust is a bust.
    hot_classes = model.classes[model.hot]
    total = 6 ** model.hot[0]
    wins = sum(c.weight for c in hot_classes if any(o.dice for o in c.outcomes))
    again = sum(c.weight for c in hot_classes if c.outcomes and not any(o.dice for o in c.outcomes))
    busts = total - wins - again
    hot_won = (wins / (total - again), busts / (total - again))
    # (a state rolled only at a turn total of 0, as a first roll that never busts, is
    # never rolled past the target)
    least_bust = min(
        unaccounted / total
        for k, total, unaccounted, _, _ in rows
        if keys[k] != model.start or model.start == model.hot
    )
    keeps = [keep for _, _, _, several, _ in rows for _, _, targets in several for keep in targets]
    # (every keep adds points: the turn DP reads its rows at totals that only grow)
    assert all(add >= 0 for _, add, _ in keeps)
    layout = []
    for _, _, _, classes, _ in rows:
        split: tuple[list, list, list] = ([], [], [])
        for weight, forced, targets in classes:
            kind = 2 if any(mul != 1 for mul, _, _ in targets) else int(len(targets) > 1)
            split[kind].append((float(weight), forced, targets))
        layout.append((tuple(split[0]), tuple(split[1]), tuple(split[2])))
    return _Plan(
        keys,
        tuple(rows),
        index[model.start],
        hot,
        index[model.hot],
        max_add,
        rules.hot_dice_must_roll,
        rules.finish is Finish.EXACT,
        hot_won,
        least_bust,
        tuple(sorted({(mul, add) for mul, add, _ in keeps if mul != 1})),
        tuple(layout),
    )


@dataclass(frozen=True)
class TurnValues:
    """The solved turn of one (my score, opponent's score): values are winning chances.

    ``roll[k][t]`` is the chance of winning if the player rolls state ``k`` at turn total
    ``t * UNIT`` and plays on optimally, ``bank[t]`` that of banking there (None: not
    allowed), ``after[k][t]`` the better of the two on arriving there (``after[-1]``: after
    hot dice), ``goal`` the turn total (in units) that reaches the target, ``slope``
    the derivative of the fresh-turn value with respect to the bust value (the chance that
    the turn busts under the optimal play). Past the solved totals banking is best:
    ``arriving`` answers there too (a tie-break's first turn can run on past them).
    """

    keys: tuple[StateKey, ...]
    goal: int
    roll: list[list[float]] = field(repr=False)
    after: list[list[float]] = field(repr=False)
    bank: list[float | None] = field(repr=False)
    value: float
    slope: float
    beyond: Callable[[int, bool], float] | None = field(default=None, repr=False, compare=False)
    """A bank's worth past the solved totals, by total and hot dice (None: constant there)."""

    def arriving(self, k: int, t: int) -> float:
        """``after[k][t]`` at any total ``t``, however far past the solved ones."""
        row = self.after[k]
        if t < len(row):
            return row[t]
        if self.beyond is None:  # (every bank there wins, or busts past an exact target)
            return row[-1]
        return self.beyond(t, k == len(self.keys))


def _solve_turn(
    plan: _Plan,
    goal: int,
    bank_min: int,
    bank: Callable[[int], float],
    bust: float,
    keep: bool = False,
    past: _Past | None = None,
    slope: bool = True,
) -> tuple[float, float, TurnValues | None]:
    """One turn by backward induction over turn totals (in units of 50) with bust value
    ``bust`` and bank values ``bank(t)`` for ``bank_min <= t < goal``; a bank at or past
    ``goal`` wins (1), or with ``past`` (a final round) is worth ``past.bank(t)``, and the
    turn is solved on up to ``past.end``, from where on banking is best. Returns the fresh
    turn's (value, d value / d bust) and, with ``keep``, every state's values; without
    ``slope`` the derivative is not carried (NaN in its place: the values are the same)."""
    assert slope or not keep, "a kept turn carries its slope"
    n_keys = len(plan.keys)
    plan_hot = plan.hot
    if plan.exact:
        won = goal + 1  # rows past the goal bust
        top = goal
    elif past is not None:
        won = max(past.end, goal, bank_min)  # from here on banking is best
        top = won - 1
    else:
        won = max(goal, bank_min)  # from here on every bank wins
        top = won - 1
    span = won + plan.max_add + 1
    # A doubling (mul > 1) can land past the rows, where a state is worth what the rows'
    # tail is: the rows run on to every total a doubling reaches, so the sweep reads them as
    # any other total (past the target, only the totals read are filled in: ``past.bank``).
    reach = max([span] + [mul * top + add + 1 for mul, add in plan.doublings])
    if plan.exact:
        const, dconst, hconst, dhconst = bust, 1.0, bust, 1.0
    else:
        const, dconst = 1.0, 0.0
        if plan.hot_must_roll:
            hconst = plan.hot_won[0] + plan.hot_won[1] * bust
            dhconst = plan.hot_won[1]
        else:
            hconst, dhconst = 1.0, 0.0
    tail = [past.bank(t) for t in range(won, span)] if past is not None else []
    after: list[list[float]] = []
    dafter: list[list[float]] = []  # (left empty without ``slope``)
    for k in range(n_keys + 1):
        hot = k == plan_hot
        c, d = (hconst, dhconst) if hot else (const, dconst)
        if past is None:
            after.append([0.0] * won + [c] * (reach - won))
        else:
            ends = [_banked_past(plan, bank, hot, bust) for bank in tail]
            after.append([0.0] * won + ends + [c] * (reach - span))
        if slope:
            dafter.append([0.0] * won + [d] * (reach - won))
    if past is not None and reach > span:
        for mul, add in plan.doublings:
            for t in range(max(0, -(-(span - add) // mul)), top + 1):
                s = mul * t + add
                worth = past.bank(s)
                for k in range(n_keys + 1):
                    after[k][s] = _banked_past(plan, worth, k == plan_hot, bust)
    roll = [[0.0] * (top + 1) for _ in range(n_keys)] if keep else []
    banks: list[float | None] = [None] * (top + 1)
    bank_at = [-math.inf] * (top + 1)  # (-inf: no bank)
    for t in range(top, -1, -1):
        if t >= bank_min:
            banks[t] = bank_at[t] = (
                (1.0 if past is None else past.bank(t)) if t >= goal else bank(t)
            )
    # Each state's roll classes bound to the arrays their keeps arrive in (the first keep
    # apart: it is the best so far without a comparison), in the order of the sums; weights
    # as floats: the same products (small integers are exact as floats), and float * float
    # is CPython's fast path. ``forced``: the class busts where ``t + forced > goal``.
    never = -(span + 1)  # no forced keep: never past the goal
    rows: list[tuple[Any, ...]] = []
    for (k, total, unaccounted, _, empty), layout in zip(plan.rows, plan.layout, strict=True):
        kinds: list[list[tuple[Any, ...]]] = []
        for kind, classes in enumerate(layout):  # one keep, several, doublings
            bound = []
            for weight, forced, targets in classes:
                arrive: list[tuple[Any, ...]] = [
                    (m, a, after[tg], dafter[tg]) if slope else (m, a, after[tg])
                    for m, a, tg in targets
                ]
                if kind < 2:  # (mul is 1 throughout: left out)
                    arrive = [arrival[1:] for arrival in arrive]
                rest = (tuple(arrive[1:]),) if kind else ()
                bound.append((weight, forced if forced >= 0 else never, *arrive[0], *rest))
            kinds.append(bound)
        state: tuple[Any, ...] = (after[k], k == plan.hot_key)
        if slope:
            state = (after[k], dafter[k], k == plan.hot_key, roll[k] if keep else None)
        rows.append((total, unaccounted, *kinds, empty, *state))
    if slope:
        _sweep(
            rows, top, goal, bank_at, bust, after[plan_hot], dafter[plan_hot], plan.hot_must_roll
        )
    else:
        _sweep_values(rows, top, goal, bank_at, bust, after[plan_hot], plan.hot_must_roll)
    # a fresh turn cannot bank at 0, so arriving there is rolling
    value, dvalue = after[plan.start][0], dafter[plan.start][0] if slope else math.nan
    if not keep:
        return value, dvalue, None
    for row in after:  # (as solved: past them ``arriving`` answers)
        del row[span:]
    beyond = None
    if past is not None:
        end = past

        def beyond(t: int, hot: bool) -> float:
            return _banked_past(plan, end.bank(t), hot, bust)

    return value, dvalue, TurnValues(plan.keys, goal, roll, after, banks, value, dvalue, beyond)


def _sweep(
    rows: list[tuple[Any, ...]],
    top: int,
    goal: int,
    bank_at: list[float],
    bust: float,
    after_hot: list[float],
    dafter_hot: list[float],
    hot_must_roll: bool,
) -> None:
    """``_solve_turn``'s backward induction from ``top`` down to 0, values and their
    derivatives with respect to the bust value, over ``rows`` as it binds them. The hot loop
    of the module: every (total, state, roll class, keep); it is written for CPython's speed
    (locals, no per-total tests but the forced points), but each value is the same float
    operations in the same order as ever (sums of floats depend on their order), and the
    first best keep gives the derivative, as ever."""
    for t in range(top, -1, -1):
        b_t = bank_at[t]
        room = goal - t  # a class busts where its forced points pass this
        for total, busted, singles, fast, several, empty, row, drow, is_hot, rolled in rows:
            acc = 0.0
            dacc = 0.0
            for weight, forced, s, arr, darr in singles:
                if forced > room:
                    busted += weight
                    continue
                i = t + s
                acc += weight * arr[i]
                dacc += weight * darr[i]
            for weight, forced, s, arr, at, targets in fast:
                if forced > room:
                    busted += weight
                    continue
                where = t + s
                best = arr[where]
                for s, arr, darr in targets:
                    i = t + s
                    v = arr[i]
                    if v > best:
                        best = v
                        at = darr
                        where = i
                acc += weight * best
                dacc += weight * at[where]
            for weight, forced, mul, s, arr, at, targets in several:  # doublings (mul > 1)
                if forced > room:
                    busted += weight
                    continue
                where = mul * t + s
                best = arr[where]
                for mul, s, arr, darr in targets:
                    i = mul * t + s
                    v = arr[i]
                    if v > best:
                        best = v
                        at = darr
                        where = i
                acc += weight * best
                dacc += weight * at[where]
            rerolled, unscored = scoreless(empty, t * UNIT)
            busted += unscored
            value = (acc + busted * bust) / (total - rerolled)
            dvalue = (dacc + busted) / (total - rerolled)
            if rerolled and b_t > value:
                value = (acc + busted * bust + rerolled * b_t) / total
                dvalue = (dacc + busted) / total
            if rolled is not None:
                rolled[t] = value
            if b_t > value:
                row[t] = b_t
                drow[t] = 0.0
            else:
                row[t] = value
                drow[t] = dvalue
            if is_hot:
                if hot_must_roll or b_t <= value:
                    after_hot[t] = value
                    dafter_hot[t] = dvalue
                else:
                    after_hot[t] = b_t
                    dafter_hot[t] = 0.0


def _sweep_values(
    rows: list[tuple[Any, ...]],
    top: int,
    goal: int,
    bank_at: list[float],
    bust: float,
    after_hot: list[float],
    hot_must_roll: bool,
) -> None:
    """``_sweep`` without the derivatives, for the callers that only read the values (a
    chaser's last turns: most of the solves under doublings): the same values."""
    for t in range(top, -1, -1):
        b_t = bank_at[t]
        room = goal - t
        for total, busted, singles, fast, several, empty, row, is_hot in rows:
            acc = 0.0
            for weight, forced, s, arr in singles:
                if forced > room:
                    busted += weight
                    continue
                acc += weight * arr[t + s]
            for weight, forced, s, arr, targets in fast:
                if forced > room:
                    busted += weight
                    continue
                best = arr[t + s]
                for s, arr in targets:
                    v = arr[t + s]
                    if v > best:
                        best = v
                acc += weight * best
            for weight, forced, mul, s, arr, targets in several:  # doublings (mul > 1)
                if forced > room:
                    busted += weight
                    continue
                best = arr[mul * t + s]
                for mul, s, arr in targets:
                    v = arr[mul * t + s]
                    if v > best:
                        best = v
                acc += weight * best
            rerolled, unscored = scoreless(empty, t * UNIT)
            busted += unscored
            value = (acc + busted * bust) / (total - rerolled)
            if rerolled and b_t > value:
                value = (acc + busted * bust + rerolled * b_t) / total
            row[t] = b_t if b_t > value else value
            if is_hot:
                after_hot[t] = value if hot_must_roll or b_t <= value else b_t


def _banked_past(plan: _Plan, bank: float, hot: bool, bust: float) -> float:
    """A state beyond ``_Past.end``, where a bank is worth ``bank``: bank (hot dice that must
    be rolled: roll once more, then bank the same total, a little under what a scoring roll
    makes it worth)."""
    if hot and plan.hot_must_roll:
        return plan.hot_won[0] * bank + plan.hot_won[1] * bust
    return bank


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
        plan = _plan(self.rules)
        P = self.P
        n = self.target // UNIT
        bust = 1.0 - P[j][i]
        _, _, values = _solve_turn(
            plan,
            n - i,
            _bank_min(self.rules, i),
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


def _bank_min(rules: Rules, i: int) -> int:
    """The smallest bankable turn total, in units: the entry threshold while at 0 points."""
    least = max(rules.least_bank(on_board=i > 0), UNIT)
    return -(-least // UNIT)


class _Chase:
    """The last turn of a player who must pass a mark (a final round's, a tie-break's
    second): the chance to pass, memoised by the least bank and the total that passes (in
    units), a bank of one unit less (a tie on top) worth ``tie``, a bust nothing."""

    def __init__(self, plan: _Plan, tie: float) -> None:
        self.plan = plan
        self.tie = tie
        self._chances: dict[tuple[int, int], float] = {}
        self._fits = _StillNeeded.fits(plan)
        self._still: dict[int, _StillNeeded] = {}

    def chance(self, least: int, need: int) -> float:
        if self._fits:
            still = self._still.get(least)
            if still is None:
                still = self._still[least] = _StillNeeded(self.plan, self.tie, least)
            return still.chance(need)
        found = self._chances.get((least, need))
        if found is None:
            tie, value = need - 1, self.tie
            found, _, _ = _solve_turn(
                self.plan, need, least, lambda t: value if t == tie else 0.0, 0.0, slope=False
            )
            self._chances[least, need] = found
        return found


def _past(plan: _Plan, goal: int, bust: float, chance: Callable[[int], float]) -> _Past:
    """The turn of a player whose bank at ``t >= goal`` (units) leaves the other player one
    turn with ``chance(t)`` to pass it, a bust worth ``bust``. Past ``goal`` a roll is worth
    at most ``1 - b (1 - bust)``, ``b`` its chance to bust, and a bank ``1 - chance``: from
    the first total where the chance is below ``least_bust * (1 - bust)`` on, banking is best
    in every state, so the turn is exact (but for hot dice that must be rolled,
    ``_banked_past``, and past ``FINAL_ROUND_REACH``)."""
    least = max(plan.least_bust * (1.0 - bust), FINAL_ROUND_LEAST)
    reach = goal + FINAL_ROUND_REACH // UNIT + plan.max_add

    def bank(t: int) -> float:  # (a doubling past the solved totals: as at their end)
        return 1.0 - chance(min(t, reach))

    end = goal
    while 1.0 - bank(end) > least and end - goal < FINAL_ROUND_REACH // UNIT:
        end += 1
    return _Past(bank, end)


class _FinalRound:
    """The other player's last turn once a player reaches the target (``final-round``, two
    players); a tie on top is worth the chaser's chance in the tie-break turns that follow,
    where the chaser plays second (``tie_break_chance``)."""

    def __init__(self, rules: Rules, plan: _Plan) -> None:
        self.rules = rules
        self.plan = plan
        self.n = rules.target // UNIT
        self._chase = _Chase(plan, tie_break_chance(rules))

    def chance(self, j: int, need: int) -> float:
        """The chance that the player at ``j`` wins the final round when a turn total of
        ``need`` (units) passes the leader and ``need - 1`` ties."""
        return self._chase.chance(_bank_min(self.rules, j), need)

    def past(self, i: int, j: int, bust: float) -> _Past:
        """The turn of the player at ``i`` against ``j``, a bust worth ``bust``."""
        return _past(self.plan, self.n - i, bust, lambda t: self.chance(j, i + t - j + 1))


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
    plan = _plan(rules)
    least = _bank_min(rules, 1)  # (both are on the board)
    chase = _Chase(plan, w)
    # the first busts: any bank passes, and a bust ties again
    bust_first = 1.0 - _solve_turn(plan, 1, least, lambda t: 0.0, w, slope=False)[0]
    past = _past(plan, least, bust_first, lambda t: chase.chance(least, t + 1))
    first, _, values = _solve_turn(
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


@functools.lru_cache(maxsize=FIRST_TURNS_KEPT)
def _first_turn(race: Rules) -> TurnValues:
    _, values = _first_of_the_race(race, _tie_break_chance(race), keep=True)
    assert values is not None
    return values


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


class _StillNeeded:
    """The last turn's chance for every total to pass at once, by the points still needed:
    where a roll's worth depends on nothing else (no doublings, no free re-rolls), one pass
    over that count replaces a turn solve per total (``_Chase.chance`` solves one per total
    otherwise: time grows with its square). Under a least bank or entry threshold of
    ``least`` units the turn total counts too, but only up to ``least``: a state is the
    points still needed and the total so far, capped there."""

    def __init__(self, plan: _Plan, tie: float, least: int = 1) -> None:
        self.plan = plan
        self.tie = tie
        self.least = least = max(least, 1)
        # (at a least bank of one unit every scoring roll reaches it: the total is never
        # short of it but at the start, and there it leads where the capped total would)
        self.low = 0 if least > 1 else 1
        n_keys = len(plan.keys)
        won_hot = plan.hot_won[0] if plan.hot_must_roll else 1.0
        # after[k][r][u]: arriving in state k (n_keys: after hot dice) with r units still to
        # make and a turn total of u units (capped at least); r <= 0 has passed (index 0
        # holds every such r), and banks only from the least bank on
        passed = [[0.0] * (least + 1) for _ in range(n_keys + 1)]
        for k in range(n_keys + 1):
            passed[k][least] = won_hot if k == plan.hot else 1.0
        self.after = [[row] for row in passed]
        for u in range(least - 1, self.low - 1, -1):  # short of the least bank: roll on
            values = self._values(0, u)
            for k, value in enumerate(values):
                passed[k][u] = value
            passed[plan.hot][u] = values[plan.hot_key]
        self.roll: list[float] = [0.0]  # the fresh turn's chance, by units to make

    @staticmethod
    def fits(plan: _Plan) -> bool:
        return not plan.exact and all(
            not empty
            and all(mul == 1 and add >= 1 for _, _, targets in classes for mul, add, _ in targets)
            for _, _, _, classes, empty in plan.rows
        )

    def _values(self, r: int, u: int) -> list[float]:
        """Each state's chance if rolled with ``r`` units still to make at total ``u``."""
        after, least = self.after, self.least
        values = [0.0] * len(self.plan.keys)
        for k, total, _, classes, _ in self.plan.rows:
            acc = 0.0
            for weight, _, targets in classes:
                acc += weight * max(
                    after[tg][max(0, r - add)][min(least, u + add)] for _, add, tg in targets
                )
            values[k] = acc / total  # (a bust is worth 0)
        return values

    def chance(self, need: int) -> float:
        plan, after, least = self.plan, self.after, self.least
        while len(self.roll) <= need:
            r = len(self.roll)
            rows = [[0.0] * (least + 1) for _ in after]
            for row, new in zip(after, rows, strict=True):
                row.append(new)
            for u in range(self.low, least + 1):
                values = self._values(r, u)
                bank = self.tie if r == 1 and u == least else 0.0
                for k, value in enumerate(values):
                    rows[k][u] = max(bank, value)
                hot = values[plan.hot_key]
                rows[plan.hot][u] = hot if plan.hot_must_roll else max(bank, hot)
                if u == self.low:
                    self.roll.append(values[plan.start])
        return self.roll[need]


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
    each of (target/50)^2 score pairs); see the README (strategy advisor) for measured times.
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
    plan = _plan(rules)
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
        value, slope, _ = _solve_turn(
            plan, n - i, _bank_min(rules, i), lambda t: 1.0 - Pj[i + t], bust, past=past
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
