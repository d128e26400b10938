"""The strategy advisor: exact optimal play of a turn for any rule set, bank or roll.

A turn is solved exactly by dynamic programming over the distinct rolls (Busche and Neller,
"Optimal Play of the Farkle Dice Game", 2017): the engine (``scoring``, ``turn``) says what
every keep of every roll is worth and where it leads, ``strategy_dp`` does the backward
induction. Under a strike penalty (``zilch``, ``strike-out``) the busts in a row carry from
turn to turn, so the advisor maximises the long-run average score per turn instead.

>>> from companion.rules import load_rules
>>> farkle = load_rules("farkle")
>>> round(expected_turn_score(farkle), 2)
542.06
>>> advise_state(farkle, turn_total=300, dice=2)["advice"]
'bank'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from companion.errors import ParseError
from companion.rules import Finish, Multiples, Rules
from companion.scoring import (
    NO_COUNTS,
    Counts,
    Held,
    Keep,
    counts_of,
    distinct_rolls,
    keep_options,
    parse_dice,
)
from companion.strategy_dp import (
    UNIT,
    Objective,
    Outcome,
    RollClass,
    StateKey,
    TurnModel,
    TurnSolution,
    merge,
    prune,
    solve_long_run,
    solve_turn,
)
from companion.turn import Phase, Turn

CAP = 40_000
"""Turn totals are solved exactly up to here; past it a turn is valued as banked.

Every bank threshold of every preset is far below it (the highest, six dice in ``farkle``, is
about 16,800), and reaching it from a fresh turn is so unlikely that doubling it changes the
fresh-turn value by less than 1e-9 points (checked in the tests).
"""

_PROBES = (1000, 2000)
"""Turn totals at which keeps are scored: ``double-turn`` doublings make the new total an
affine function ``mul * total + add`` of the old one, so two probes recover it exactly."""


# --- the turn model from the engine ---------------------------------------------------

HeldKey = tuple[frozenset[int], Counts, bool]
"""(held sets of ``double-turn``, kept counts of ``progressive``, first roll of the turn)."""

_NOTHING_HELD: HeldKey = (frozenset(), NO_COUNTS, False)


def _first_roll_matters(rules: Rules) -> bool:
    return bool(rules.nothing_scores and rules.nothing_scores_first_roll_only)


def _held_key(rules: Rules, sets: frozenset[int], kept: Counts, first: bool) -> HeldKey:
    """Keep only what changes future scoring, so equal futures share one DP state."""
    if rules.multiples is not Multiples.DOUBLE_TURN:
        sets = frozenset()
    if rules.multiples is not Multiples.PROGRESSIVE:
        kept = NO_COUNTS
    return (sets, kept, first and _first_roll_matters(rules))


def _context(rules: Rules, key: StateKey, total: int) -> Held:
    sets, kept, first = key[1]
    return Held(turn_total=total, sets=sets, kept=kept, first_roll=first)


def _outcome(rules: Rules, n: int, held: HeldKey, keep: Keep, points: Sequence[int]) -> Outcome:
    """Where a keep leads; the state update is ``Turn.keep``'s (checked against it in tests)."""
    left = n - len(keep.dice)
    low, high = points
    mul = 1 + (high - low) // (_PROBES[1] - _PROBES[0])
    add = low - (mul - 1) * _PROBES[0]
    if left == 0:
        return Outcome(add, 0, None, mul)
    kept = tuple(a + b for a, b in zip(held[1], counts_of(keep.dice), strict=True))
    return Outcome(add, left, _held_key(rules, keep.held_sets, kept, False), mul)  # type: ignore[arg-type]


def _free_reroll_totals(rules: Rules, roll: tuple[int, ...]) -> frozenset[int] | None:
    """Turn totals at which a scoreless one-die roll is rolled again (None: at any total)."""
    if len(roll) != 1 or not (rules.the_420 or rules.hard_six):
        return frozenset()
    rerolled = []
    for total in (400, 1000):
        turn = Turn(rules, on_board=True, total=total, dice_left=1, rolled=True, has_kept=True)
        rerolled.append(turn.roll(roll).phase is Phase.ROLL)
    if all(rerolled):
        return None
    return frozenset({400}) if rerolled[0] else frozenset()


@functools.lru_cache(maxsize=32)
def turn_model(rules: Rules) -> TurnModel:
    """Every reachable (dice, held) state with its merged roll classes, from the engine."""
    scoring_rules = replace(rules, finish=Finish.FINAL_ROUND)
    hot: StateKey = (rules.dice, _NOTHING_HELD)
    start: StateKey = (rules.dice, _held_key(rules, frozenset(), NO_COUNTS, True))
    classes: dict[StateKey, tuple[RollClass, ...]] = {}
    todo = [start, hot] + [(n, _NOTHING_HELD) for n in range(1, rules.dice)]
    while todo:
        key = todo.pop()
        if key in classes:
            continue
        n, held = key
        contexts = [_context(rules, key, total) for total in _PROBES]
        rolls = []
        for roll, weight in distinct_rolls(n):
            low, high = (keep_options(scoring_rules, roll, c) for c in contexts)
            if not low:
                rolls.append((weight, RollClass(0, (), _free_reroll_totals(rules, roll))))
                continue
            by_dice = {k.dice: k.points for k in high}
            outcomes = prune(_outcome(rules, n, held, k, (k.points, by_dice[k.dice]))
                             for k in low)
            most = max(low, key=lambda k: (len(k.dice), k.points))
            forced = most.points if rules.finish is Finish.EXACT else 0
            rolls.append((weight, RollClass(0, outcomes, frozenset(), forced)))
            todo.extend((o.dice, o.held) for o in outcomes if o.dice)
        classes[key] = tuple(c for c in merge(rolls) if c.outcomes or c.reroll_at != frozenset())
    return TurnModel(rules.dice, classes, start, hot)


# --- solutions -------------------------------------------------------------------------

def _objective(rules: Rules, score: int, on_board: bool, bust_value: float) -> Objective:
    bank_min = max(rules.min_bank, 0 if on_board else rules.entry, UNIT)
    limit = rules.target - score if rules.finish is Finish.EXACT else None
    if limit is not None and limit < 0:
        raise ParseError(f"score {score:,} is already past the exact target {rules.target:,}")
    return Objective(bank_min=bank_min, limit=limit, hot_must_roll=rules.hot_dice_must_roll,
                     bust_value=bust_value, cap=CAP)


@functools.lru_cache(maxsize=64)
def solve(rules: Rules, *, score: int = 0, on_board: bool = True,
          bust_value: float = 0.0) -> TurnSolution:
    """The optimal values of every state of a turn (memoised per rule set and situation).

    ``score`` matters only for ``exact-10000`` (the target caps the turn); ``bust_value`` is
    what a bust is worth to the player (0 for a turn in a vacuum).
    """
    if not rules.finish is Finish.EXACT:
        score = 0
    return solve_turn(turn_model(rules), _objective(rules, score, on_board, bust_value))


def expected_turn_score(rules: Rules, *, score: int = 0, on_board: bool = True) -> float:
    """Expected points of a fresh turn under the play that maximises them.

    >>> from companion.rules import load_rules
    >>> round(expected_turn_score(load_rules("ten-thousand")), 1) > 0
    True
    """
    solution = solve(rules, score=score, on_board=on_board)
    return solution.roll_value(solution.model.start, 0)


@dataclass(frozen=True)
class LongRun:
    """The streak-aware policy under a strike penalty.

    ``average`` is the best long-run score per turn; ``bust_values[k]`` is what one more bust
    costs a player with ``k`` busts in a row, relative to banking nothing from a clean slate.
    """

    average: float
    bust_values: tuple[float, ...]


@functools.lru_cache(maxsize=32)
def long_run(rules: Rules) -> LongRun | None:
    """The policy maximising long-run points per turn when busts in a row cost a penalty.

    The strike penalty's "never below 0" floor is ignored: it only matters for a player at
    under 500 points and would make the whole banked score part of the state.
    """
    if not rules.strike_penalty:
        return None

    def fresh(bust_value: float) -> float:
        solution = solve(rules, bust_value=bust_value)
        return solution.roll_value(solution.model.start, 0)

    average, busts = solve_long_run(fresh, float(rules.strike_penalty), rules.strike_after)
    return LongRun(average, busts)


def bust_value(rules: Rules, busts_in_row: int = 0) -> float:
    """What a bust is worth to a player with ``busts_in_row``: 0 unless a strike penalty."""
    if busts_in_row < 0:
        raise ParseError(f"busts in a row must be 0 or more, not {busts_in_row}")
    run = long_run(rules)
    if run is None:
        return 0.0
    if busts_in_row >= rules.strike_after:
        raise ParseError(f"busts in a row must be below {rules.strike_after}, "
                         f"not {busts_in_row}")
    return run.bust_values[busts_in_row]


def bust_fraction(rules: Rules, dice: int) -> Fraction:
    """Exact chance that a roll of ``dice`` dice scores nothing, mid-turn with nothing held.

    >>> from companion.rules import load_rules
    >>> bust_fraction(load_rules("ten-thousand"), 6)
    Fraction(5, 162)
    """
    if not 1 <= dice <= rules.dice:
        raise ParseError(f"{rules.name} rolls 1 to {rules.dice} dice, not {dice}")
    classes = turn_model(rules).classes[(dice, _NOTHING_HELD)]
    scoring = sum(c.weight for c in classes if c.outcomes)
    return Fraction(6**dice - scoring, 6**dice)


# --- thresholds ------------------------------------------------------------------------

def _state(solution: TurnSolution, dice: int, total: int) -> StateKey:
    rules_dice = solution.model.dice
    if not 1 <= dice <= rules_dice:
        raise ParseError(f"dice in hand must be 1 to {rules_dice}, not {dice}")
    return (dice, _NOTHING_HELD)


def bank_thresholds(rules: Rules, *, busts_in_row: int = 0,
                    score: int = 0) -> dict[int, int | None]:
    """For each number of dice in hand, the smallest turn total from which banking is best.

    Banking must be best at that total and at every total above it up to the target (a
    turn total past the target is beyond what a table needs); None means roll at every
    total up to there.
    """
    solution = solve(rules, score=score, bust_value=bust_value(rules, busts_in_row))
    horizon = rules.target - score if rules.finish is Finish.EXACT else rules.target
    out: dict[int, int | None] = {}
    for dice in range(1, rules.dice + 1):
        key = _state(solution, dice, 0)
        threshold = None
        for total in range(horizon, 0, -UNIT):
            if not solution.can_bank(total) or solution.roll_value(key, total) > total:
                break
            threshold = total
        out[dice] = threshold
    return out


def takeover_thresholds(rules: Rules, *, score: int = 0) -> dict[int, int | None] | None:
    """For each number of dice handed over, the smallest turn total worth taking over.

    Taking over means rolling those dice from that total, against a fresh turn from zero;
    None when no total up to the target makes it worth it. None for rules without takeover.
    """
    if not rules.takeover:
        return None
    solution = solve(rules, score=score)
    fresh = solution.roll_value(solution.model.start, 0)
    horizon = rules.target - score if rules.finish is Finish.EXACT else rules.target
    out: dict[int, int | None] = {}
    for dice in range(1, rules.dice + 1):
        key = _state(solution, dice, 0)
        out[dice] = next((t for t in range(UNIT, horizon + 1, UNIT)
                          if solution.roll_value(key, t) >= fresh), None)
    return out


# --- reports ---------------------------------------------------------------------------

@dataclass(frozen=True)
class StrategySummary:
    """What ``hotdice strategy`` prints: the whole optimal policy of a rule set in brief."""

    rules: str
    dice: int
    expected_turn_score: float
    entry_turn_score: float | None
    bank_thresholds: dict[int, int | None]
    bust_probability: dict[int, Fraction]
    takeover_thresholds: dict[int, int | None] | None
    long_run_average: float | None
    streak_bank_thresholds: dict[int, dict[int, int | None]] | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules,
            "dice": self.dice,
            "expected_turn_score": round(self.expected_turn_score, 4),
            "bank_thresholds": {str(k): v for k, v in self.bank_thresholds.items()},
            "bust_probability": {str(k): float(v) for k, v in self.bust_probability.items()},
            "bust_odds": {str(k): f"{v.numerator * 6**k // v.denominator}/{6**k}"
                          for k, v in self.bust_probability.items()},
        }
        if self.entry_turn_score is not None:
            out["entry_turn_score"] = round(self.entry_turn_score, 4)
        if self.takeover_thresholds is not None:
            out["takeover_thresholds"] = {str(k): v for k, v in self.takeover_thresholds.items()}
        if self.long_run_average is not None:
            out["long_run_average"] = round(self.long_run_average, 4)
        if self.streak_bank_thresholds is not None:
            out["streak_bank_thresholds"] = {
                str(s): {str(k): v for k, v in t.items()}
                for s, t in self.streak_bank_thresholds.items()}
        return out


@functools.lru_cache(maxsize=32)
def strategy_summary(rules: Rules) -> StrategySummary:
    """The optimal policy of ``rules`` in brief, for a player on the board.

    >>> from companion.rules import load_rules
    >>> strategy_summary(load_rules("farkle")).bank_thresholds
    {1: 300, 2: 250, 3: 400, 4: 950, 5: 2800, 6: None}
    """
    run = long_run(rules)
    streaks = None
    if run is not None:
        streaks = {k: bank_thresholds(rules, busts_in_row=k) for k in range(rules.strike_after)}
    return StrategySummary(
        rules=rules.name,
        dice=rules.dice,
        expected_turn_score=expected_turn_score(rules),
        entry_turn_score=expected_turn_score(rules, on_board=False) if rules.entry else None,
        bank_thresholds=bank_thresholds(rules),
        bust_probability={n: bust_fraction(rules, n) for n in range(1, rules.dice + 1)},
        takeover_thresholds=takeover_thresholds(rules),
        long_run_average=run.average if run else None,
        streak_bank_thresholds=streaks,
    )


def _situation(rules: Rules, turn_total: int, score: int) -> None:
    if turn_total < 0 or turn_total % UNIT:
        raise ParseError(f"turn total must be a multiple of {UNIT} and at least 0, "
                         f"not {turn_total}")
    if score % UNIT and rules.finish is Finish.EXACT:
        raise ParseError(f"score must be a multiple of {UNIT}, not {score}")


def advise_state(rules: Rules, *, turn_total: int, dice: int, score: int = 0,
                 on_board: bool = True, busts_in_row: int = 0) -> dict[str, Any]:
    """Bank or roll with ``dice`` in hand at ``turn_total``, and the figures behind it.

    ``expected_if_roll`` is the expected final turn score of rolling on and playing
    optimally; under a strike penalty a bust counts as ``bust_value`` (its long-run cost).
    All dice in hand with a turn total means hot dice.

    >>> from companion.rules import load_rules
    >>> advice = advise_state(load_rules("farkle"), turn_total=1000, dice=2)
    >>> advice["advice"], round(advice["expected_if_roll"], 2)
    ('bank', 652.77)
    """
    _situation(rules, turn_total, score)
    bust = bust_value(rules, busts_in_row)
    solution = solve(rules, score=score, on_board=on_board, bust_value=bust)
    key = _state(solution, dice, turn_total)
    hot = dice == rules.dice and turn_total > 0
    fresh = turn_total == 0 and dice == rules.dice
    if fresh:
        key = solution.model.start
    if rules.finish is Finish.EXACT and turn_total > rules.target - score:
        raise ParseError(f"turn total {turn_total:,} would already pass {rules.target:,}")
    roll_value = solution.roll_value(key, turn_total)
    refusal = None
    if fresh:
        refusal = "roll and keep at least once before banking"
    elif hot and rules.hot_dice_must_roll:
        refusal = f"hot dice: all {rules.dice} dice must be rolled again before banking"
    elif not solution.can_bank(turn_total):
        need = solution.objective.bank_min
        refusal = (f"a bank needs at least {need:,}" if turn_total < need
                   else f"{score + turn_total:,} would pass {rules.target:,}")
    can_bank = refusal is None
    advice = "bank" if can_bank and turn_total >= roll_value else "roll"
    out: dict[str, Any] = {
        "rules": rules.name,
        "turn_total": turn_total,
        "dice": dice,
        "score": score,
        "on_board": on_board,
        "advice": advice,
        "can_bank": can_bank,
        "bust_probability": solution.bust_probability(key, turn_total),
        "expected_if_roll": roll_value,
        "expected_if_bank": float(turn_total) if can_bank else None,
        "gain_from_rolling": roll_value - turn_total,
    }
    if refusal:
        out["bank_refusal"] = refusal
    if busts_in_row or rules.strike_penalty:
        out["busts_in_row"] = busts_in_row
        out["bust_value"] = bust
    return out


def advise_roll(rules: Rules, dice: Sequence[int], *, turn_total: int = 0, score: int = 0,
                on_board: bool = True, busts_in_row: int = 0) -> dict[str, Any]:
    """Every legal keep of a roll ranked by expected final turn score under optimal play.

    The roll is taken mid-turn with nothing held (the first roll of the turn when all dice
    are rolled from zero). Each option says what to do next (``bank`` or ``roll``).

    >>> from companion.rules import load_rules
    >>> best = advise_roll(load_rules("farkle"), [1, 4, 2, 4, 4, 5])["options"][0]
    >>> best["keep"], best["then"]
    ([1], 'roll')
    """
    roll = parse_dice(dice, max_dice=rules.dice)
    _situation(rules, turn_total, score)
    bust = bust_value(rules, busts_in_row)
    solution = solve(rules, score=score, on_board=on_board, bust_value=bust)
    first = turn_total == 0 and len(roll) == rules.dice
    turn = Turn(rules, score=score, on_board=on_board, total=turn_total, dice_left=len(roll),
                rolled=not first, has_kept=not first)
    rolled = turn.roll(roll)
    out: dict[str, Any] = {
        "rules": rules.name, "roll": list(roll), "turn_total": turn_total, "score": score,
        "bust": rolled.phase is Phase.BUST, "options": [],
    }
    if rolled.phase is Phase.ROLL:
        out["reroll"] = True
        out["note"] = rolled.steps[-1].note
        out["expected_if_reroll"] = solution.roll_value((len(roll), _NOTHING_HELD), turn_total)
        return out
    if rolled.phase is Phase.BUST:
        out["bust_reason"] = rolled.bust_reason
        out["expected"] = bust
        return out
    options = []
    for keep in rolled.options():
        after = rolled.keep(keep.dice)
        left = 0 if after.hot_dice else after.dice_left
        key = (left, _held_key(rules, after.sets, after.kept, False))
        if after.phase is Phase.WON:
            value, then = float(after.total), "win"
        else:
            value = solution.arrive_value(key, after.total)
            then = "bank" if after.can_bank and after.total >= value else "roll"
            if rules.finish is Finish.EXACT and after.total > rules.target - score:
                then = "bust"
        options.append({
            "keep": list(keep.dice), "points": keep.points, "turn_total": after.total,
            "dice_left": after.dice_left, "hot_dice": after.hot_dice, "then": then,
            "expected": value,
        })
    options.sort(key=lambda o: (-o["expected"], len(o["keep"]), o["keep"]))
    out["options"] = options
    return out
