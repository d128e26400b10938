"""One turn of the two-player game: each state's chance to win, given what its ends are worth.

The game (``companion.winprob``) and the tie-break race (``companion.tie_break``) ask the
same of every turn they meet: with a bust worth this and each bank worth that, what is
each state's chance to win under the best play? The answer is the expected-score advisor's
exact DP (``companion.strategy_dp``) over the engine's roll classes
(``strategy.turn_model``), with winning chances for points: the rule set flattened for the
hot loop (``TurnPlan``), the backward induction over turn totals (``solve_win_turn``,
``_sweep``), the turn of a leader setting a mark past the target (``mark_turn``) and the last
turn of a chaser who must pass one (``ChaseTurn``, ``StillNeeded``). Its public names are
the pieces those two modules build on; the underscored ones are its own.

A goal of 50 that any bank reaches: the chance to win is the chance that six dice score, and
its slope (d value / d bust value) the chance to bust:

>>> from companion.rules import load_rules
>>> value, slope, _ = solve_win_turn(turn_plan(load_rules("farkle")), 1, 1, lambda t: 0.0, 0.0)
>>> round(value, 6), round(slope, 6)
(0.976852, 0.023148)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.rules import Finish, Rules
from companion.strategy import turn_model
from companion.strategy_dp import UNIT, StateKey, TurnModel, scoreless

FINAL_ROUND_LEAST = 1e-12
"""Where no roll must risk a bust, the leader rolls on past the target only while the
other player's chance to pass is above this."""

FINAL_ROUND_REACH = 10_000
"""The most points past the target a turn is solved for: beyond, the player banks. Without
doublings the bound in ``mark_turn`` stops far short of it (``farkle``: at most
3,800 past at targets of 500-2,000); with ``double-turn`` a mark doubles, the chance to
pass it only halves, and the bound would run on to 100,000."""


@dataclass(frozen=True)
class MarkTurn:
    """A final round, in the turn of the player who reaches the target: ``bank(t)`` is what
    banking the turn total ``t`` (at or past the target) is worth, ``end`` the total from
    which banking is best in every state."""

    bank: Callable[[int], float]
    end: int


@dataclass(frozen=True)
class TurnPlan:
    """A rule set's roll classes flattened for the inner loop of the turn DP."""

    keys: tuple[StateKey, ...]
    rows: tuple[tuple[int, int, tuple, tuple, tuple], ...]
    """Per key: (index, 6**n, unaccounted weight, [(weight, forced, targets)], [(weight,
    reroll_at)]), targets being (mul, add in units, arrival index), ``forced`` the roll
    class under an exact finish (its forced keep, `RollClass.forced_past`), else None."""
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
def turn_plan(rules: Rules) -> TurnPlan:
    """The rule set's roll classes as the turn DP reads them, made once per rule set:
    the game and the tie-break race solve thousands of turns on the same plan."""
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
            forced = c if rules.finish is Finish.EXACT else None  # (`RollClass.forced_past`)
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
    return TurnPlan(
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


def solve_win_turn(
    plan: TurnPlan,
    goal: int,
    bank_min: int,
    bank: Callable[[int], float],
    bust: float,
    keep: bool = False,
    past: MarkTurn | None = None,
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
                busts_past = never if forced is None else forced.forced_past(goal)
                bound.append((weight, busts_past, *arrive[0], *rest))
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
    """``solve_win_turn``'s backward induction from ``top`` down to 0, values and their
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


def _banked_past(plan: TurnPlan, bank: float, hot: bool, bust: float) -> float:
    """A state beyond ``MarkTurn.end``, where a bank is worth ``bank``: bank (hot dice that must
    be rolled: roll once more, then bank the same total, a little under what a scoring roll
    makes it worth)."""
    if hot and plan.hot_must_roll:
        return plan.hot_won[0] * bank + plan.hot_won[1] * bust
    return bank


def least_bank_units(rules: Rules, i: int) -> int:
    """The smallest bankable turn total, in units: the entry threshold while at 0 points."""
    least = max(rules.least_bank(on_board=i > 0), UNIT)
    return -(-least // UNIT)


# --- past the target: the leader's mark, the chaser's last turn --------------------------


def mark_turn(plan: TurnPlan, goal: int, bust: float, chance: Callable[[int], float]) -> MarkTurn:
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
    return MarkTurn(bank, end)


class ChaseTurn:
    """The last turn of a player who must pass a mark (a final round's, a tie-break's
    second): the chance to pass, memoised by the least bank and the total that passes (in
    units), a bank of one unit less (a tie on top) worth ``tie``, a bust nothing."""

    def __init__(self, plan: TurnPlan, tie: float) -> None:
        self.plan = plan
        self.tie = tie
        self._chances: dict[tuple[int, int], float] = {}
        self._fits = StillNeeded.fits(plan)
        self._still: dict[int, StillNeeded] = {}

    def chance(self, least: int, need: int) -> float:
        if self._fits:
            still = self._still.get(least)
            if still is None:
                still = self._still[least] = StillNeeded(self.plan, self.tie, least)
            return still.chance(need)
        found = self._chances.get((least, need))
        if found is None:
            tie, value = need - 1, self.tie
            found, _, _ = solve_win_turn(
                self.plan, need, least, lambda t: value if t == tie else 0.0, 0.0, slope=False
            )
            self._chances[least, need] = found
        return found


class StillNeeded:
    """The last turn's chance for every total to pass at once, by the points still needed:
    where a roll's worth depends on nothing else (no doublings, no free re-rolls), one pass
    over that count replaces a turn solve per total (``ChaseTurn.chance`` solves one per total
    otherwise: time grows with its square). Under a least bank or entry threshold of
    ``least`` units the turn total counts too, but only up to ``least``: a state is the
    points still needed and the total so far, capped there."""

    def __init__(self, plan: TurnPlan, tie: float, least: int = 1) -> None:
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
    def fits(plan: TurnPlan) -> bool:
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
