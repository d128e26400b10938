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

UNIT = 50
"""Every score of every rule set is a multiple of 50, so turn totals live on a 50-point grid."""

Held = Hashable
"""What is held across rolls (a ``double-turn`` set, the ``progressive`` sets); None if nothing."""

StateKey = tuple[int, Held]
"""(dice to roll, held)."""


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
    at which such a roll is rolled again instead of busting (``the-420``; None = always, as
    ``hard-six``), ``forced_add`` the points of keeping every scoring die (``exact-10000``:
    when they would carry the player past the target the roll busts).
    """

    weight: int
    outcomes: tuple[Outcome, ...]
    reroll_at: frozenset[int] | None = frozenset()
    forced_add: int = 0


def prune(outcomes: Iterable[Outcome]) -> tuple[Outcome, ...]:
    """Drop keeps that lead to the same dice and held state with fewer points.

    Only same-dice comparisons are safe: fewer dice can be worth more (one die left can turn
    into six hot dice), so nothing is pruned across dice counts.
    """
    best: dict[tuple[int, Held, int], Outcome] = {}
    for outcome in outcomes:
        key = (outcome.dice, outcome.held, outcome.mul)
        if key not in best or outcome.add > best[key].add:
            best[key] = outcome
    return tuple(sorted(best.values(), key=lambda o: (o.dice, o.add, o.mul, repr(o.held))))


def merge(rolls: Iterable[tuple[int, RollClass]]) -> tuple[RollClass, ...]:
    """Merge roll classes whose keeps, rerolls and forced points are identical."""
    merged: dict[tuple, int] = {}
    for weight, cls in rolls:
        key = (cls.outcomes, cls.reroll_at, cls.forced_add)
        merged[key] = merged.get(key, 0) + weight
    return tuple(
        RollClass(weight, outcomes, reroll_at, forced)
        for (outcomes, reroll_at, forced), weight in merged.items()
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

    def total_weight(self, key: StateKey) -> int:
        return 6 ** key[0]


@dataclass(frozen=True)
class Objective:
    """What a turn is worth at its end, and when it may end.

    ``bust_value`` is what a bust is worth (0 for a turn in a vacuum; the long-run relative
    cost of one more bust in a row under a strike penalty). Banking is allowed from
    ``bank_min`` on; with ``limit`` (exact finish) a total above it is a bust.
    """

    bank_min: int = 0
    limit: int | None = None
    hot_must_roll: bool = False
    bust_value: float = 0.0
    cap: int = 40_000


@dataclass(frozen=True)
class TurnSolution:
    """The optimal values of every state of a turn under one ``Objective``.

    ``roll[key][i]`` is the expected final value of rolling from state ``key`` at turn total
    ``i * UNIT`` and playing on optimally; ``after[key][i]`` the value of arriving there
    (bank or roll, whichever is better). Totals past ``top`` use the banking approximation.
    """

    model: TurnModel
    objective: Objective
    top: int
    roll: Mapping[StateKey, list[float]] = field(repr=False)
    after: Mapping[StateKey, list[float]] = field(repr=False)
    bust: Mapping[StateKey, list[float]] = field(repr=False)

    def can_bank(self, total: int) -> bool:
        o = self.objective
        return total >= o.bank_min and (o.limit is None or total <= o.limit)

    def roll_value(self, key: StateKey, total: int) -> float:
        """Expected final value of rolling ``key`` at ``total`` and playing on optimally."""
        return self._lookup(self.roll, key, total)

    def bust_probability(self, key: StateKey, total: int) -> float:
        """Chance that the next roll (counting any rerolls it allows) busts."""
        return self._lookup(self.bust, key, total)

    def arrive_value(self, key: StateKey, total: int) -> float:
        """Value of arriving at ``key`` with ``total`` (after a keep): bank or roll, the best."""
        if key[0] == 0:
            key = ("hot",)  # type: ignore[assignment]
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
        return float(total)


def solve_turn(model: TurnModel, objective: Objective) -> TurnSolution:
    """Backward induction over turn totals from the cap (or the exact limit) down to 0.

    States above ``top`` are valued as banking (the cap is set far past every threshold, so
    the chance of ever getting there is negligible; ``companion.strategy`` checks it).
    """
    o = objective
    top = (o.limit if o.limit is not None else o.cap) // UNIT
    adds = [out.add for classes in model.classes.values() for c in classes for out in c.outcomes]
    forced = [c.forced_add for classes in model.classes.values() for c in classes]
    span = top + 1 + max(adds + forced + [0]) // UNIT
    b = float(o.bust_value)
    bank_min_i = -(-o.bank_min // UNIT)

    def bank(i: int) -> float:
        return float(i * UNIT) if i >= bank_min_i and i <= top else -math.inf

    beyond = b if o.limit is not None else None
    keys = list(model.classes)
    roll = {k: [0.0] * span for k in keys}
    bust = {k: [0.0] * span for k in keys}
    hot_key = ("hot",)
    after: dict = {k: [0.0] * span for k in keys}
    after[hot_key] = [0.0] * span
    for i in range(top + 1, span):
        v = beyond if beyond is not None else float(i * UNIT)
        for k in keys:
            roll[k][i] = v
            after[k][i] = v
        after[hot_key][i] = v

    plans = []
    for k in keys:
        n = k[0]
        total = 6**n
        simple: list[tuple[int, tuple[tuple[int, list[float]], ...]]] = []
        general: list[tuple[int, tuple[Outcome, ...], int]] = []
        empty: list[RollClass] = []
        for c in model.classes[k]:
            if not c.outcomes:
                empty.append(c)
                continue
            targets = tuple(
                (out.add // UNIT, after[hot_key] if out.dice == 0 else after[(out.dice, out.held)])
                for out in c.outcomes
            )
            if o.limit is None and all(out.mul == 1 for out in c.outcomes):
                simple.append((c.weight, targets))
            else:
                general.append((c.weight, c.outcomes, c.forced_add // UNIT))
        plans.append((k, total, simple, general, empty))

    def arrive(out: Outcome, i: int) -> float:
        j = out.mul * i + out.add // UNIT
        if j >= span:
            return beyond if beyond is not None else float(j * UNIT)
        table = after[hot_key] if out.dice == 0 else after[(out.dice, out.held)]
        return table[j]

    start_key = model.hot
    for i in range(top, -1, -1):
        for k, total, simple, general, empty in plans:
            acc = 0.0
            busted = 0
            for weight, targets in simple:
                if len(targets) == 1:
                    a, arr = targets[0]
                    acc += weight * arr[i + a]
                else:
                    best = -math.inf
                    for a, arr in targets:
                        v = arr[i + a]
                        if v > best:
                            best = v
                    acc += weight * best
            for weight, outcomes, forced_i in general:
                if o.limit is not None and i + forced_i > top:
                    busted += weight
                    continue
                acc += weight * max(arrive(out, i) for out in outcomes)
            denominator = total
            for c in empty:
                if c.reroll_at is None or i * UNIT in c.reroll_at:
                    denominator -= c.weight
                else:
                    busted += c.weight
            busted += total - sum(c.weight for c in model.classes[k])
            acc += busted * b
            roll[k][i] = acc / denominator
            bust[k][i] = busted / denominator
        bank_i = bank(i)
        for k in keys:
            r = roll[k][i]
            after[k][i] = bank_i if bank_i > r else r
        r = roll[start_key][i]
        after[hot_key][i] = r if o.hot_must_roll or bank_i <= r else bank_i
    return TurnSolution(model, objective, top, roll, after, bust)


def solve_long_run(
    fresh_value: Callable[[float], float], penalty: float, streak: int, *, tol: float = 1e-9,
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
