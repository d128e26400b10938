"""The exact dynamic programme behind the strategy advisor, independent of any rule set.

A turn is a Markov decision process whose states are (turn total, dice to roll, what is held
across rolls). Every keep adds points, so the turn total only grows: the states can be solved
by backward induction from a high cap down to zero, one pass, no iteration (Busche and
Neller's observation). ``companion.strategy`` turns a ``Rules`` into a ``TurnModel`` with the
engine's scoring; this module only knows rolls, weights and outcomes.

>>> model = TurnModel(1, {(1, None): (RollClass(2, (Outcome(100, 0),)),)}, (1, None), (1, None))
>>> round(solve_turn(model, Objective(cap=1000)).roll_value((1, None), 0), 3)  # a 1-die game
33.333
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from companion.rules import SCORE_STEP

UNIT = SCORE_STEP
"""Every score of every rule set is a multiple of it, so turn totals live on its grid."""

Held = Hashable
"""What is held across rolls (a ``double-turn`` set, the ``progressive`` sets); None if nothing."""

StateKey = tuple[int, Held]
"""(dice to roll, held)."""

HOT = ("hot",)
"""The state after hot dice (arriving there: roll, or bank where the rules allow)."""


@dataclass(frozen=True, order=True)
class Outcome:
    """Where one keep leads: turn total ``mul * total + add``, ``dice`` left (0 = hot dice)."""

    add: int
    dice: int
    held: Held = None
    mul: int = 1


@dataclass(frozen=True)
class RollClass:
    """Rolls that offer the same keeps, merged: ``weight`` orderings out of ``6**n``.

    ``outcomes`` is empty for a roll that scores nothing; ``reroll_at`` holds the turn totals
    at which such a roll may be rolled again instead of busting, or the turn banked
    (``the-420``; None = always, as ``hard-six``); keeping every scoring die takes a total
    ``t`` to ``forced_mul * t + forced_add`` (``exact-10000``: when that is past the target,
    the roll busts; ``forced_mul`` is over 1 where the keep doubles held sets).
    """

    weight: int
    outcomes: tuple[Outcome, ...]
    reroll_at: frozenset[int] | None = frozenset()
    forced_add: int = 0
    forced_mul: int = 1

    def forced_past(self, limit: int) -> int:
        """The forced keep's points ``f`` in units as the turn DPs test them, a total ``t``
        busting where ``t + f > limit`` (all in units): the keep's own points, or for a
        doubling keep (``forced_mul * t + add > limit``, so ``t > (limit - add) //
        forced_mul``) the ``f`` that tests the same (the doubled forced keep is not its
        points at a total of 0)."""
        add = self.forced_add // UNIT
        return add if self.forced_mul == 1 else limit - (limit - add) // self.forced_mul


def prune(outcomes: Iterable[Outcome], *, more_is_better: bool = True) -> tuple[Outcome, ...]:
    """Drop keeps that lead to the same dice and held state with fewer points.

    Only same-dice comparisons are safe: fewer dice can be worth more (one die left can turn
    into six hot dice), so nothing is pruned across dice counts. Nor are fewer points worse
    where a total must land exactly on a target (``more_is_better`` false: ``exact-10000``
    at 8,000 with 950 in the turn, the 5 of 1 2 2 3 3 5 kept for 1,000 is worth more than the
    1 for 1,050); then only repeats are dropped.
    """
    kept: Iterable[Outcome]
    if more_is_better:
        best: dict[tuple[int, Held, int], Outcome] = {}
        for outcome in outcomes:
            key = (outcome.dice, outcome.held, outcome.mul)
            if key not in best or outcome.add > best[key].add:
                best[key] = outcome
        kept = best.values()
    else:
        kept = set(outcomes)
    return tuple(sorted(kept, key=lambda o: (o.dice, o.add, o.mul, repr(o.held))))


def merge(rolls: Iterable[tuple[int, RollClass]]) -> tuple[RollClass, ...]:
    """Merge roll classes whose keeps, rerolls and forced points are identical."""
    merged: dict[tuple, int] = {}
    for weight, cls in rolls:
        key = (cls.outcomes, cls.reroll_at, cls.forced_add, cls.forced_mul)
        merged[key] = merged.get(key, 0) + weight
    return tuple(
        RollClass(weight, outcomes, reroll_at, forced, forced_mul)
        for (outcomes, reroll_at, forced, forced_mul), weight in merged.items()
    )


@dataclass(frozen=True)
class TurnModel:
    """A rule set's turn, as the DP needs it.

    ``classes[(n, held)]`` are the roll classes of rolling ``n`` dice with ``held`` kept;
    ``start`` is the state of a turn's first roll; ``hot`` the state after hot dice.
    """

    dice: int
    classes: Mapping[StateKey, tuple[RollClass, ...]]
    start: StateKey
    hot: StateKey


@dataclass(frozen=True)
class Objective:
    """What a turn is worth at its end, and when it may end.

    Banking is worth the turn total, or with a ``goal`` 1 if the total reaches it and 0 if
    not (the chance of making at least ``goal``, as in a final round), but ``tie`` for a
    total one step short of it (a tie on top, settled by tie-break turns). ``bust_value`` is what
    a bust is worth (0 for a turn in a vacuum; the long-run relative cost of one more bust in
    a row under a strike penalty). Banking is allowed from ``bank_min`` on; with ``limit``
    (exact finish) a total above it is a bust.
    """

    bank_min: int = 0
    limit: int | None = None
    hot_must_roll: bool = False
    bust_value: float = 0.0
    cap: int = 20_000
    goal: int | None = None
    tie: float = 0.0

    def goal_value(self, total: int) -> float:
        """With a ``goal``: what banking ``total`` is worth (1, ``tie`` one step short, 0)."""
        assert self.goal is not None
        return 1.0 if total >= self.goal else (self.tie if total == self.goal - UNIT else 0.0)


@dataclass(frozen=True)
class TurnSolution:
    """The optimal values of every state of a turn under one ``Objective``.

    ``roll[key][i]`` is the expected final value of rolling from state ``key`` at turn total
    ``i * UNIT`` and playing on optimally; ``after[key][i]`` the value of arriving there
    (bank or roll, whichever is better). Past the arrays a state is worth
    ``growth * total + offset`` (``asymptotic_growth``).
    """

    model: TurnModel
    objective: Objective
    top: int
    roll: Mapping[Hashable, list[float]] = field(repr=False)
    after: Mapping[Hashable, list[float]] = field(repr=False)  # (and ``("hot",)``)
    bust: Mapping[Hashable, list[float]] = field(repr=False)
    growth: Mapping[Hashable, tuple[float, float]] = field(repr=False)

    def can_bank(self, total: int) -> bool:
        o = self.objective
        return total >= o.bank_min and (o.limit is None or total <= o.limit)

    def bank_value(self, total: int) -> float | None:
        """What banking ``total`` is worth under the objective (None if not allowed)."""
        if not self.can_bank(total):
            return None
        o = self.objective
        return float(total) if o.goal is None else o.goal_value(total)

    def roll_value(self, key: StateKey, total: int) -> float:
        """Expected final value of rolling ``key`` at ``total`` and playing on optimally.

        Past ``top`` (turn totals ``hot-dice``'s doublings reach) one roll is looked ahead:
        where each keep leads is valued exactly by the asymptotics, rolling on is not (they
        made it worth banking: two dice at 30,000 under farkle "30,000 expected", not the
        16,716.67 of 20 scoring rolls in 36 banked)."""
        if total // UNIT > self.top and self.objective.limit is None:
            return self._roll_beyond(key, total)
        return self._lookup(self.roll, key, total)

    def taker_roll_value(self, key: StateKey, total: int) -> float:
        """`roll_value` for dice taken over, before the taker has kept any: the engine banks
        only after a keep, so a free re-roll (`the-420`, `hard-six`) is rolled again, never
        banked (takeovers of one die had been valued as if it could be). Where the
        tables bank it, ``(A + r * bank) / n`` over the ``n`` rolls, ``r`` of them re-rolled,
        rolling again instead is worth ``A / (n - r)``."""
        value = self.roll_value(key, total)
        bank = self.bank_value(total)
        empty = [(c.weight, c.reroll_at) for c in self.model.classes[key] if not c.outcomes]
        rerolled, _ = scoreless(empty, total)
        if not rerolled or bank is None or value >= bank:  # (a re-roll is rolled on anyway)
            return value
        n = 6 ** key[0]
        return (value * n - rerolled * bank) / (n - rerolled)

    def _roll_beyond(self, key: StateKey, total: int) -> float:
        """One roll from ``key`` at a total past the tables, as ``solve_turn`` rolls one."""
        if key not in self.model.classes:
            raise KeyError(f"state {key!r} is not reachable under these rules")
        b = self.objective.bust_value
        denominator = 6 ** key[0]
        busted, rerolled, acc = denominator, 0, 0.0
        for c in self.model.classes[key]:
            busted -= c.weight
            if not c.outcomes:
                if c.reroll_at is None or total in c.reroll_at:
                    rerolled += c.weight
                else:
                    busted += c.weight
                continue
            acc += c.weight * max(
                self.arrive_value((out.dice, out.held), out.mul * total + out.add)
                for out in c.outcomes
            )
        value = (acc + busted * b) / (denominator - rerolled)
        bank = self.bank_value(total)
        if rerolled and bank is not None and bank > value:
            value = (acc + busted * b + rerolled * bank) / denominator
        return value

    def bust_probability(self, key: StateKey, total: int) -> float:
        """Chance that the next roll (counting any rerolls it allows) busts: past the
        tables, as at their last total (what busts a roll no longer depends on the total
        there)."""
        limit = self.objective.limit
        if limit is not None and total > limit:
            return 1.0
        return self._lookup(self.bust, key, min(total, self.top * UNIT))

    def arrive_value(self, key: StateKey, total: int) -> float:
        """Value of arriving at ``key`` with ``total`` (after a keep): bank or roll, the best."""
        if key[0] == 0:
            key = HOT  # type: ignore[assignment]
        return self._lookup(self.after, key, total)

    def _lookup(self, table: Mapping, key: StateKey, total: int) -> float:
        limit = self.objective.limit
        if limit is not None and total > limit:
            return self.objective.bust_value
        i = total // UNIT
        if key not in table:
            raise KeyError(f"state {key!r} is not reachable under these rules")
        values = table[key]
        if i < len(values):
            return values[i]
        growth, offset = self.growth[key]
        return growth * total + offset


def scoreless(empty: Iterable[tuple[int, frozenset[int] | None]], total: int) -> tuple[int, int]:
    """The weights of a state's scoreless rolls at turn total ``total``: (rolled again, bust).
    A rule set's free re-roll (``reroll_at`` None: always, else at those totals) is no bust."""
    rerolled = busted = 0
    for weight, reroll_at in empty:
        if reroll_at is None or total in reroll_at:
            rerolled += weight
        else:
            busted += weight
    return rerolled, busted


def solve_turn(model: TurnModel, objective: Objective) -> TurnSolution:
    """Backward induction over turn totals from the cap (or the exact limit) down to 0.

    Past ``top`` a state is valued by its asymptotics (``asymptotic_growth``): banking for
    additive rules, ``growth * total + offset`` where doublings (or a roll that cannot bust)
    make rolling on pay at any total; with a ``goal`` every such state has made it (1). The
    cap is far past every threshold, so the chance of getting there is negligible
    (``companion.strategy`` checks that doubling it changes nothing).
    """
    o = objective
    if o.limit is not None:
        top = o.limit // UNIT
    else:
        top = (o.cap + (o.goal or 0)) // UNIT
    adds = [out.add for classes in model.classes.values() for c in classes for out in c.outcomes]
    forced = [c.forced_add for classes in model.classes.values() for c in classes]
    span = top + 1 + max(adds + forced + [0]) // UNIT
    b = float(o.bust_value)
    bank_min_i = -(-o.bank_min // UNIT)

    def bank(i: int) -> float:
        if i < bank_min_i or i > top:
            return -math.inf
        return float(i * UNIT) if o.goal is None else o.goal_value(i * UNIT)

    beyond = b if o.limit is not None else (1.0 if o.goal is not None else None)
    keys = list(model.classes)
    hot_key: Hashable = HOT
    growth: dict[Hashable, tuple[float, float]]
    if beyond is None:
        growth = asymptotic_growth(model, hot_must_roll=o.hot_must_roll, bust_value=b)
    else:
        flat = (0.0, beyond) if o.limit is None else (1.0, 0.0)
        growth = {k: flat for k in [*keys, hot_key]}
    roll: dict[Hashable, list[float]] = {k: [0.0] * span for k in keys}
    bust: dict[Hashable, list[float]] = {k: [0.0] * span for k in keys}
    after: dict[Hashable, list[float]] = {k: [0.0] * span for k in keys}
    after[hot_key] = [0.0] * span
    for i in range(top + 1, span):
        for k in [*keys, hot_key]:
            alpha, beta = growth[k]
            v = beyond if beyond is not None else alpha * i * UNIT + beta
            after[k][i] = v
            if k != hot_key:
                roll[k][i] = v

    beyond_value = beyond if beyond is not None else 0.0
    per_unit = 0.0 if beyond is not None else float(UNIT)
    plans = []
    no_force = -span - 1
    for k in keys:
        n = k[0]
        single: list[tuple[int, int, list[float]]] = []
        several: list[tuple[int, int, tuple[tuple[int, int, list[float], float, float], ...]]]
        several = []
        empty: list[tuple[int, frozenset[int] | None]] = []
        for c in model.classes[k]:
            if not c.outcomes:
                empty.append((c.weight, c.reroll_at))
                continue
            targets = tuple(
                (
                    out.mul,
                    out.add // UNIT,
                    after[target],
                    per_unit * growth[target][0],
                    growth[target][1] if beyond is None else beyond_value,
                )
                for out in c.outcomes
                for target in [hot_key if out.dice == 0 else (out.dice, out.held)]
            )
            forced_i = c.forced_past(top) if o.limit is not None else no_force
            if len(targets) == 1 and targets[0][0] == 1 and o.limit is None:
                single.append((c.weight, targets[0][1], targets[0][2]))
            else:
                several.append((c.weight, forced_i, targets))
        unaccounted = 6**n - sum(c.weight for c in model.classes[k])
        plans.append((k, 6**n, unaccounted, single, several, empty))

    hot_roll = model.hot
    inf = math.inf
    for i in range(top, -1, -1):
        bank_i = bank(i)
        for k, total, unaccounted, single, several, empty in plans:
            acc = 0.0
            busted = unaccounted
            for weight, a, arr in single:
                acc += weight * arr[i + a]
            for weight, forced_i, targets in several:
                if i + forced_i > top:
                    busted += weight
                    continue
                best = -inf
                for mul, a, arr, far, offset in targets:
                    j = i + a if mul == 1 else mul * i + a
                    v = arr[j] if j < span else offset + far * j
                    if v > best:
                        best = v
                acc += weight * best
            rerolled, unscored = scoreless(empty, i * UNIT)
            busted += unscored
            value = (acc + busted * b) / (total - rerolled)
            if rerolled and bank_i > value:
                value = (acc + busted * b + rerolled * bank_i) / total
            roll[k][i] = value
            bust[k][i] = busted / (total - rerolled)
        for k in keys:
            r = roll[k][i]
            after[k][i] = bank_i if bank_i > r else r
        r = roll[hot_roll][i]
        after[hot_key][i] = r if o.hot_must_roll or bank_i <= r else bank_i
    return TurnSolution(model, objective, top, roll, after, bust, growth)


def asymptotic_growth(
    model: TurnModel, *, hot_must_roll: bool = False, bust_value: float = 0.0, tol: float = 1e-12
) -> dict[Hashable, tuple[float, float]]:
    """How the value of each state behaves at huge turn totals: ``growth * total + offset``.

    Added points vanish beside a huge total, but ``double-turn`` doublings do not: there
    rolling on can pay at any total. ``growth`` is the fixed point of the Bellman equation
    with every keep reduced to its multiplier (bust 0, bank 1); ``offset`` the next term,
    under the policy that growth picks (ties broken by offset). For additive rules this is
    banking (1, 0), except where a roll cannot bust (``zilch``'s six dice) and rolling on adds
    its expected points. Keys are the model's states plus ``("hot",)`` (after hot dice);
    values are ``(growth, offset)`` for arriving there. ``ValueError`` if rolling on forever
    would be worth an unbounded amount.
    """
    hot_key: Hashable = HOT
    keys = sorted(model.classes, key=lambda k: (k[0], repr(k[1])))
    targets = {
        k: [
            (c, [(out, hot_key if out.dice == 0 else (out.dice, out.held)) for out in c.outcomes])
            for c in model.classes[k]
        ]
        for k in keys
    }
    alpha: dict[Hashable, float] = {k: 1.0 for k in [*keys, hot_key]}
    beta: dict[Hashable, float] = {k: 0.0 for k in [*keys, hot_key]}
    rolling = {k: 1.0 for k in keys}

    def sweep(second: bool) -> float:
        change = 0.0
        for k in keys:
            acc = 0.0
            denominator = 6 ** k[0]
            busted = denominator
            for c, outs in targets[k]:
                busted -= c.weight
                if not outs:
                    if c.reroll_at is None:
                        denominator -= c.weight
                    else:
                        busted += c.weight
                    continue
                best = max(out.mul * alpha[t] for out, t in outs)
                if second:
                    best = max(
                        alpha[t] * out.add + beta[t]
                        for out, t in outs
                        if out.mul * alpha[t] >= best * (1 - 1e-12)
                    )
                acc += c.weight * best
            if not second:
                value = acc / denominator
                rolling[k] = value
                new: dict[Hashable, float] = {k: max(1.0, value)}
                if k == model.hot:
                    new[hot_key] = value if hot_must_roll else max(1.0, value)
                table = alpha
            else:
                value = (acc + busted * bust_value) / denominator
                new = {k: _second(rolling[k], value)}
                if k == model.hot:
                    new[hot_key] = value if hot_must_roll else _second(rolling[k], value)
                table = beta
            for key, v in new.items():
                change = max(change, abs(v - table[key]) / max(1.0, abs(v)))
                table[key] = v
        return change

    for second in (False, True):
        for _ in range(100_000):
            change = sweep(second)
            if max(alpha.values()) > 1e6 or max(beta.values()) > 1e12:
                raise ValueError("rolling on forever has an unbounded expected value")
            if change < tol:
                break
        else:
            raise ValueError("the asymptotic growth did not converge")
    return {k: (alpha[k], beta[k]) for k in alpha}


def _second(growth_if_roll: float, offset_if_roll: float) -> float:
    """Offset after arriving: rolling's if it grows faster than banking, else banking's 0."""
    if growth_if_roll > 1 + 1e-12:
        return offset_if_roll
    if growth_if_roll < 1 - 1e-12:
        return 0.0
    return max(0.0, offset_if_roll)


def solve_long_run(
    fresh_value: Callable[[float], float],
    penalty: float,
    streak: int,
    *,
    tol: float = 1e-9,
) -> tuple[float, tuple[float, ...]]:
    """The best long-run average score per turn when ``streak`` busts in a row cost ``penalty``.

    The streak (busts in a row so far, ``0 .. streak-1``) is the only state that carries from
    turn to turn, so this is a small average-reward MDP. With relative values ``h[0] = 0``,
    a turn from streak ``k`` is a turn in a vacuum whose bust is worth ``h[k+1]`` (or
    ``-penalty`` at the last step, which resets the count), and ``g + h[k] = W(bust value)``
    where ``W`` is ``fresh_value``. Returns ``(g, bust values per streak)``; ``g`` is found
    by the secant method on a monotone piecewise-linear function of ``g``.
    """

    def residual(g: float) -> tuple[float, list[float]]:
        h_next = -penalty
        busts = [0.0] * streak
        for k in range(streak - 1, 0, -1):
            busts[k] = h_next
            h_next = fresh_value(h_next) - g
        busts[0] = h_next
        return fresh_value(h_next) - g, busts

    g0 = fresh_value(0.0)
    g1 = g0 - 10.0
    f0, _ = residual(g0)
    f1, busts = residual(g1)
    for _ in range(100):
        if abs(f1) < tol or f1 == f0:
            break
        g0, g1, f0 = g1, g1 - f1 * (g1 - g0) / (f1 - f0), f1
        f1, busts = residual(g1)
    return g1, tuple(busts)
