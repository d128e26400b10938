"""The strategy advisor's solve: exact optimal play of a turn for any rule set, in brief.

A turn is solved exactly by dynamic programming over the distinct rolls (Busche and Neller,
"Optimal Play of the Farkle Dice Game", 2017): the engine (``scoring``, ``turn``) says what
every keep of every roll is worth and where it leads, ``strategy_dp`` does the backward
induction. Under a strike penalty (``zilch``, ``strike-out``) the busts in a row carry from
turn to turn, so the advisor maximises the long-run average score per turn instead. The
bank and takeover thresholds and ``hotdice strategy``'s summary are read off the solution;
the advice for one situation is ``companion.advice``'s.

>>> from companion.rules import load_rules
>>> farkle = load_rules("farkle")
>>> round(expected_turn_score(farkle), 2)
542.06
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, cast

from companion.errors import ParseError
from companion.rules import Finish, Multiples, Rules
from companion.scoring import (
    NO_COUNTS,
    Counts,
    Held,
    Keep,
    counts_of,
    dice_word,
    distinct_rolls,
    options_of_counts,
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

CAP = 20_000
"""Turn totals are solved exactly up to here; past it a state is valued by its asymptotics.

Every bank threshold of every preset is below it (the highest, six dice in ``farkle``, is
about 16,800). Past it a state is worth ``growth * total + offset``
(``strategy_dp.asymptotic_growth``: banking, or rolling on where doublings or a roll that
cannot bust make that pay at any total), and reaching it from a fresh turn is so unlikely
that doubling the cap changes no preset's fresh-turn value by 1e-9 points (a test checks).
"""


def _probes(rules: Rules, sets: frozenset[int]) -> tuple[int, ...]:
    """Turn totals at which to score keeps to learn how the new total follows from the old.

    Only ``double-turn`` makes it depend on the old total, and then as an affine map
    ``mul * total + add`` (doublings), which two probes recover exactly; the engine's cheap
    fresh-turn tables serve the probe at 0 when no set is held.
    """
    if rules.multiples is not Multiples.DOUBLE_TURN:
        return (0,)
    return (0, 1000) if not sets else (1000, 2000)


# --- the turn model from the engine ---------------------------------------------------

HeldKey = tuple[frozenset[int], Counts, bool]
"""(held sets of ``double-turn``, kept counts of ``progressive``, first roll of the turn)."""

_NOTHING_HELD: HeldKey = (frozenset(), NO_COUNTS, False)


def _first_roll_pays_more(rules: Rules) -> bool:
    """Whether the DP must tell a turn's first roll from the others: only for a scoreless
    roll paid on the first roll alone. (The scorer's `_first_roll_matters` also counts an
    instant win on the first roll, which the advisor counts as its points, as any roll's.)"""
    return bool(rules.nothing_scores and rules.nothing_scores_first_roll_only)


def holds_sets(rules: Rules) -> bool:
    """Whether a triple kept becomes a held set whose later dice double the turn."""
    return rules.multiples is Multiples.DOUBLE_TURN


def counts_kept_dice(rules: Rules) -> bool:
    """Whether the dice kept since the last pick-up change what later dice score."""
    return rules.multiples is Multiples.PROGRESSIVE


def held_key(rules: Rules, sets: frozenset[int], kept: Counts, first: bool) -> HeldKey:
    """Keep only what changes future scoring, so equal futures share one DP state."""
    if not holds_sets(rules):
        sets = frozenset()
    if not counts_kept_dice(rules):
        kept = NO_COUNTS
    return (sets, kept, first and _first_roll_pays_more(rules))


def _context(rules: Rules, key: StateKey, total: int) -> Held:
    sets, kept, first = cast(HeldKey, key[1])
    return Held(turn_total=total, sets=sets, kept=kept, first_roll=first)


def _outcome(
    rules: Rules, n: int, keep: Keep, probes: Sequence[int], points: Sequence[int]
) -> Outcome:
    """Where a keep leads; the state update is ``Turn.keep``'s (checked against it in tests)."""
    left = n - len(keep.dice)
    mul, add = 1, points[0]
    if len(probes) == 2:
        mul = 1 + (points[1] - points[0]) // (probes[1] - probes[0])
        add = points[0] - (mul - 1) * probes[0]
    if left == 0:
        return Outcome(add, 0, None, mul)
    # The engine's own count: dice in a whole-roll combination join no progressive set.
    return Outcome(add, left, held_key(rules, keep.held_sets, keep.held_kept, False), mul)


def turn_at(
    rules: Rules,
    *,
    total: int,
    dice: int,
    score: int = 0,
    on_board: bool = True,
    sets: Iterable[int] = (),
    kept: Iterable[int] = (),
    first_roll: bool = False,
) -> Turn:
    """An engine ``Turn`` waiting to roll ``dice`` dice: mid-turn, or a turn's first roll."""
    if first_roll:
        return replace(
            Turn.start(rules, score=score, on_board=on_board), total=total, dice_left=dice
        )
    return Turn.at(
        rules,
        total=total,
        dice=dice,
        score=score,
        on_board=on_board,
        sets=frozenset(sets),
        kept=counts_of(tuple(kept)),
    )


def _free_reroll_totals(rules: Rules, roll: tuple[int, ...]) -> frozenset[int] | None:
    """Turn totals at which a scoreless one-die roll is rolled again (None: at any total)."""
    if len(roll) != 1 or not (rules.the_420 or rules.hard_six):
        return frozenset()
    rerolled = []
    for total in (400, 1000):
        turn = turn_at(rules, total=total, dice=1)
        rerolled.append(turn.roll(roll).phase is Phase.ROLL)
    if all(rerolled):
        return None
    return frozenset({400}) if rerolled[0] else frozenset()


SOLVED_NAME = "turn"
SOLVED_TARGET = 10_000


@functools.lru_cache(maxsize=256)
def turn_rules(rules: Rules) -> Rules:
    """``rules`` as a turn's solve sees them, the key of every memoised solve: a rule set's
    name plays no part in a turn, nor (but under an exact finish) its target, so tables of
    other names or targets share one solve. A game to a new target had solved its turn
    afresh, a strike penalty's long run in seconds, and evicted another's."""
    if rules.finish is Finish.EXACT:
        return replace(rules, name=SOLVED_NAME)
    return replace(rules, name=SOLVED_NAME, target=SOLVED_TARGET)


def turn_model(rules: Rules) -> TurnModel:
    """Every reachable (dice, held) state with its merged roll classes, from the engine.
    Keyed by the rules as a roll scores under them: what may be banked and what a bust
    costs are the solve's (the coach's "bank from" variants had each built a model)."""
    return _turn_model(_model_rules(rules))


@functools.lru_cache(maxsize=256)
def _model_rules(rules: Rules) -> Rules:
    return replace(turn_rules(rules), target=SOLVED_TARGET, entry=0, min_bank=0, strike_penalty=0)


@functools.lru_cache(maxsize=32)
def _turn_model(rules: Rules) -> TurnModel:
    scoring_rules = replace(rules, finish=Finish.FINAL_ROUND)
    hot: StateKey = (rules.dice, _NOTHING_HELD)
    start: StateKey = (rules.dice, held_key(rules, frozenset(), NO_COUNTS, True))
    classes: dict[StateKey, tuple[RollClass, ...]] = {}
    todo = [start, hot] + [(n, _NOTHING_HELD) for n in range(1, rules.dice)]
    while todo:
        key = todo.pop()
        if key in classes:
            continue
        n, held = key
        probes = _probes(rules, cast(HeldKey, held)[0])
        contexts = [_context(rules, key, total) for total in probes]
        rolls = []
        for roll, weight in distinct_rolls(n):
            counts = counts_of(roll)  # (every distinct roll: valid, so scored unchecked)
            scored = [options_of_counts(scoring_rules, counts, c) for c in contexts]
            low = scored[0]
            if not low:
                rolls.append((weight, RollClass(0, (), _free_reroll_totals(rules, roll))))
                continue
            others = [{k.dice: k.points for k in options} for options in scored[1:]]
            outcomes = prune(
                (
                    _outcome(rules, n, k, probes, [k.points, *(o[k.dice] for o in others)])
                    for k in low
                ),
                more_is_better=rules.finish is not Finish.EXACT,
            )
            forced, forced_mul = 0, 1
            if rules.finish is Finish.EXACT:  # (its points at each probe: doublings grow)
                most = max(low, key=lambda k: (len(k.dice), k.points))
                whole = [most.points, *(o[most.dice] for o in others)]
                forced_keep = _outcome(rules, n, most, probes, whole)
                forced, forced_mul = forced_keep.add, forced_keep.mul
            rolls.append((weight, RollClass(0, outcomes, frozenset(), forced, forced_mul)))
            todo.extend((o.dice, o.held) for o in outcomes if o.dice)
        classes[key] = tuple(c for c in merge(rolls) if c.outcomes or c.reroll_at != frozenset())
    return TurnModel(rules.dice, classes, start, hot)


# --- solutions -------------------------------------------------------------------------


EXACT_FAR = 2 * CAP
"""An exact target further off than this caps no turn: the turn is solved as without one
(to ``CAP``, as every turn is), not over every total up to the target (a game to a million
took 1.5 s a score; a test checks the values agree)."""


def _objective(rules: Rules, score: int, on_board: bool, bust_value: float) -> Objective:
    bank_min = max(rules.least_bank(on_board=on_board), UNIT)
    limit = rules.target - score if rules.finish is Finish.EXACT else None
    if limit is not None and limit > EXACT_FAR:
        limit = None
    if limit is not None and limit < 0:
        raise ParseError(f"score {score:,} is already past the exact target {rules.target:,}")
    return Objective(
        bank_min=bank_min,
        limit=limit,
        hot_must_roll=rules.hot_dice_must_roll,
        bust_value=bust_value,
        cap=CAP,
    )


# The most points needed in one turn that the advisor values (a final round's lead plus 50).
# Its tables grow with the need: 100,000 takes up to 0.8 s (`hot-dice`, whose multiples
# double the turn, still makes it 0.12% of the time; `farkle` 3e-49), a typo's 10**20 would
# take all the memory there is. A state needing more is refused with a one-line error
# (the web coach shows it as advice unavailable).
MAX_NEED = 100_000


def solve(
    rules: Rules,
    *,
    score: int = 0,
    on_board: bool = True,
    bust_value: float = 0.0,
    need: int | None = None,
    tie: float = 0.0,
) -> TurnSolution:
    """The optimal values of every state of a turn (memoised per rule set and situation).

    ``score`` matters only for ``exact-10000`` (the target caps the turn); ``bust_value`` is
    what a bust is worth to the player (0 for a turn in a vacuum). With ``need`` the values
    are instead the chance of ending the turn with at least ``need`` points (a final round),
    a bank of ``need - 50`` (a tie on top) counting as ``tie`` of a win, as does a bust when
    ``need`` is 50 (the player is level with the leader: a bust leaves the tie).
    """
    if rules.finish is not Finish.EXACT or rules.target - score > EXACT_FAR:
        score = 0  # (the exact target, that far off, plays no part: see _objective)
    if need is not None:
        if isinstance(need, bool) or not isinstance(need, int) or need <= 0 or need % UNIT:
            raise ParseError(f"points needed must be a positive multiple of {UNIT}, not {need!r}")
        if need > MAX_NEED:
            raise ParseError(
                f"points needed in one turn: the advisor values at most {MAX_NEED:,}, not {need:,}"
            )
        # level with the leader (needing 50), a bust leaves the player tied on top: a tie
        bust_value = tie if need == UNIT else 0.0
    return _solve(
        turn_rules(rules), score, on_board, float(bust_value), need, float(tie) if need else 0.0
    )


@functools.lru_cache(maxsize=64)
def _solve(
    rules: Rules,
    score: int,
    on_board: bool,
    bust_value: float,
    need: int | None = None,
    tie: float = 0.0,
) -> TurnSolution:
    objective = replace(_objective(rules, score, on_board, bust_value), goal=need, tie=tie)
    return solve_turn(turn_model(rules), objective)


def chance_to_make(rules: Rules, need: int, *, on_board: bool = True) -> float:
    """The best chance that a fresh turn ends banked with at least ``need`` points.

    What the last player of a final round plays for: ``need`` is the lead plus 50.

    >>> from companion.rules import load_rules
    >>> round(chance_to_make(load_rules("farkle"), 1000), 4)
    0.2771
    """
    solution = solve(rules, on_board=on_board, need=need)
    return solution.roll_value(solution.model.start, 0)


def expected_turn_score(rules: Rules, *, score: int = 0, on_board: bool = True) -> float:
    """Expected points of a fresh turn under the play that maximises them.

    >>> from companion.rules import load_rules
    >>> round(expected_turn_score(load_rules("ten-thousand")), 2)
    446.57
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


def long_run(rules: Rules) -> LongRun | None:
    """The policy maximising long-run points per turn when busts in a row cost a penalty.

    The strike penalty's "never below 0" floor is ignored: it only matters for a player at
    under 500 points and would make the whole banked score part of the state.
    """
    if not rules.strike_penalty:  # (not cached: None would take a strike rule's place)
        return None
    return _long_run(turn_rules(rules))


@functools.lru_cache(maxsize=32)
def _long_run(rules: Rules) -> LongRun:
    def fresh(bust_value: float) -> float:
        solution = solve(rules, bust_value=bust_value)
        return solution.roll_value(solution.model.start, 0)

    average, busts = solve_long_run(fresh, float(rules.strike_penalty), rules.strike_after)
    return LongRun(average, busts)


def bust_value(rules: Rules, busts_in_row: int = 0) -> float:
    """What a bust is worth to a player with ``busts_in_row``: 0 unless a strike penalty."""
    if isinstance(busts_in_row, bool) or not isinstance(busts_in_row, int):
        raise ParseError(f"busts in a row must be a whole number, not {busts_in_row!r}")
    if busts_in_row < 0:
        raise ParseError(f"busts in a row must be 0 or more, not {busts_in_row}")
    run = long_run(rules)
    if run is None:
        return 0.0
    if busts_in_row >= rules.strike_after:
        raise ParseError(f"busts in a row must be below {rules.strike_after}, not {busts_in_row}")
    return run.bust_values[busts_in_row]


def bust_fraction(rules: Rules, dice: int) -> Fraction:
    """Exact chance that a roll of ``dice`` dice busts, mid-turn with nothing held.

    A free re-roll at any total (``hard-six``) counts as rolling again, not as a bust.

    >>> from companion.rules import load_rules
    >>> bust_fraction(load_rules("ten-thousand"), 6)
    Fraction(5, 162)
    """
    if not 1 <= dice <= rules.dice:
        raise ParseError(f"{rules.name} rolls 1 to {rules.dice} dice, not {dice}")
    classes = turn_model(rules).classes[(dice, _NOTHING_HELD)]
    scoring = sum(c.weight for c in classes if c.outcomes)
    rerolled = sum(c.weight for c in classes if not c.outcomes and c.reroll_at is None)
    return Fraction(6**dice - scoring - rerolled, 6**dice - rerolled)


def _odds(dice: int, p: Fraction) -> str:
    """``16/36`` style, over all orderings of the dice when that is exact."""
    whole = 6**dice
    if (p * whole).denominator == 1:
        return f"{p.numerator * whole // p.denominator}/{whole}"
    return f"{p.numerator}/{p.denominator}"


# --- thresholds ------------------------------------------------------------------------


def state_at(
    rules: Rules, dice: int, sets: Iterable[int] = (), kept: Iterable[int] = ()
) -> StateKey:
    """The DP state of ``dice`` in hand with these held sets / kept dice, checked."""
    check_dice(rules, dice)
    kept = tuple(kept)
    sets = frozenset(sets)
    if not sets <= set(range(1, 7)):
        raise ParseError(f"a held set is a face from 1 to 6, not {sorted(sets - set(range(1, 7)))}")
    key = (dice, held_key(rules, sets, counts_of(kept), False))
    if key not in turn_model(rules).classes:
        raise ParseError(
            f"{rules.name}: {dice_word(dice)} in hand cannot go with held sets "
            f"{sorted(set(sets))} and kept dice {sorted(kept)}"
        )
    return key


def check_dice(rules: Rules, dice: int) -> None:
    """Dice in hand are a whole number in the rule set's range (``True`` is no 1 die)."""
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= rules.dice:
        raise ParseError(f"dice in hand must be 1 to {rules.dice}, not {dice!r}")


def _horizon(rules: Rules, score: int) -> int:
    return rules.target - score if rules.finish is Finish.EXACT else rules.target


def summary_horizon(rules: Rules) -> int:
    """How far `strategy_summary` looks for bank thresholds: past an exact target a total
    busts, but elsewhere a turn runs on past the target (a final round's last turns), and
    `hotdice strategy --target 1000` said "always roll" with five dice where `advise` banks
    at 2,800: to the target or the end of the tables (``CAP``), the further. Where the
    first to the target wins, short of it: a bank there wins, whatever rolling is worth."""
    if rules.finish is Finish.EXACT:
        return _horizon(rules, 0)
    if rules.bank_wins_at_once(rules.target):
        return max(rules.target - UNIT, UNIT)
    return max(rules.target, CAP)


def _from_which_on(
    totals: range, good: Callable[[int], bool], past: int | None = None
) -> int | None:
    """The smallest total from which ``good`` holds at every total up to the last one.

    Past ``past`` (the end of the tables) ``good`` must hold on one run of totals: there it
    is bisected, since each total is a roll looked ahead (a game to a million would ask
    20,000 of them a dice count).
    """
    found = None
    if past is not None and totals and totals[-1] > past:
        split = max(0, (past - totals.start) // totals.step + 1)
        found = _first_of_the_run(totals[split:], good)
        if found is None or split == 0 or found != totals[split]:
            return found
        totals = totals[:split]
    for total in reversed(totals):
        if not good(total):
            break
        found = total
    return found


def _first_of_the_run(totals: range, good: Callable[[int], bool]) -> int | None:
    """The first of ``totals`` from which ``good`` holds to the last one, by bisection, for
    a ``good`` false then true along them (None where it does not hold at the last)."""
    if not totals or not good(totals[-1]):
        return None
    low, high = 0, len(totals) - 1
    while low < high:
        middle = (low + high) // 2
        if good(totals[middle]):
            high = middle
        else:
            low = middle + 1
    return totals[low]


def bank_thresholds(
    rules: Rules,
    *,
    busts_in_row: int = 0,
    score: int = 0,
    on_board: bool = True,
    up_to: int | None = None,
) -> dict[int, int | None]:
    """For each number of dice in hand, the smallest turn total from which banking is best.

    Banking must be at least as good as rolling at that total and at every total above it
    up to ``up_to``: by default the target, which the win chances read them to
    (``farkle``'s six dice only bank from 16,800; `summary_horizon` looks that far). None
    means roll at every total up to there (always, for hot dice that must be rolled).

    >>> from companion.rules import load_rules
    >>> bank_thresholds(load_rules("farkle"))
    {1: 300, 2: 250, 3: 400, 4: 950, 5: 2800, 6: None}
    """
    solution = solve(
        rules, score=score, on_board=on_board, bust_value=bust_value(rules, busts_in_row)
    )
    totals = range(UNIT, (_horizon(rules, score) if up_to is None else up_to) + 1, UNIT)
    out: dict[int, int | None] = {}
    for dice in range(1, rules.dice + 1):
        key = state_at(rules, dice)
        hot_must_roll = dice == rules.dice and rules.hot_dice_must_roll

        def banks(t: int, key: StateKey = key) -> bool:
            return solution.can_bank(t) and solution.roll_value(key, t) <= t

        # (past the tables rolling on is convex in the total, banking is the total: banking
        # is best on one run of totals there)
        out[dice] = (
            None if hot_must_roll else _from_which_on(totals, banks, past=solution.top * UNIT)
        )
    return out


def takeover_ranges(rules: Rules, *, score: int = 0) -> dict[int, list[tuple[int, int]]] | None:
    """For each number of dice handed over, the turn totals (up to the target) worth taking.

    Taking over means rolling those dice on from that total instead of a fresh turn from
    zero; it pays where the first is worth at least the second. Usually one range up to the
    target, but not always: ``the-420`` makes exactly 400 with one die a bargain, and under
    ``exact-10000`` a total close to the target is too risky. None for rules without
    takeover. All dice can be handed over only after hot dice, so that row is left out where
    hot dice must be rolled.
    """
    if not rules.takeover:
        return None
    solution = solve(rules, score=score)
    fresh = solution.roll_value(solution.model.start, 0)
    top = rules.dice - 1 if rules.hot_dice_must_roll else rules.dice
    out: dict[int, list[tuple[int, int]]] = {}
    for dice in range(1, top + 1):
        key = state_at(rules, dice)
        ranges: list[tuple[int, int]] = []
        horizon = _horizon(rules, score)
        for total in range(UNIT, min(horizon, solution.top * UNIT) + 1, UNIT):
            if solution.taker_roll_value(key, total) >= fresh:
                if ranges and ranges[-1][1] == total - UNIT:
                    ranges[-1] = (ranges[-1][0], total)
                else:
                    ranges.append((total, total))
        # past the tables rolling on only grows with the total: worth it from the first
        # total where it is, found by bisection, up to the target
        beyond = range(solution.top * UNIT + UNIT, horizon + 1, UNIT)

        def pays(t: int, key: StateKey = key) -> bool:
            return solution.taker_roll_value(key, t) >= fresh

        first = _first_of_the_run(beyond, pays)
        if first is not None:
            if ranges and ranges[-1][1] == first - UNIT:
                ranges[-1] = (ranges[-1][0], horizon)
            else:
                ranges.append((first, horizon))
        out[dice] = ranges
    return out


def takeover_thresholds(rules: Rules, *, score: int = 0) -> dict[int, int | None] | None:
    """For each number of dice handed over, the smallest turn total worth taking over.

    That is the start of the range that runs up to the target (``takeover_ranges``), or of
    the widest range where none does (``exact-10000``); None where taking over never pays.

    >>> from companion.rules import load_rules
    >>> takeover_thresholds(load_rules("minnesota"))
    {1: 800, 2: 550, 3: 400, 4: 250}
    """
    ranges = takeover_ranges(rules, score=score)
    if ranges is None:
        return None
    horizon = _horizon(rules, score)
    out: dict[int, int | None] = {}
    for dice, spans in ranges.items():
        reaching = [lo for lo, hi in spans if hi == horizon]
        widest = max(spans, key=lambda span: span[1] - span[0], default=None)
        out[dice] = reaching[0] if reaching else (widest[0] if widest else None)
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
    bust_odds: dict[int, str]
    takeover_thresholds: dict[int, int | None] | None
    takeover_ranges: dict[int, list[tuple[int, int]]] | None
    long_run_average: float | None
    streak_bank_thresholds: dict[int, dict[int, int | None]] | None
    thresholds_up_to: int = CAP
    """The turn total up to which the bank thresholds were looked for (`summary_horizon`):
    None in them means roll at every total up to it."""
    exact_target: int | None = None
    """Under an exact finish every figure is for a banked score of 0: a total past the
    target busts, so nearer it each threshold falls (``advise --score`` plays from one)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules,
            "dice": self.dice,
            "expected_turn_score": round(self.expected_turn_score, 4),
            "bank_thresholds": {str(k): v for k, v in self.bank_thresholds.items()},
            "bank_thresholds_up_to": self.thresholds_up_to,
            "bust_probability": {str(k): float(v) for k, v in self.bust_probability.items()},
            "bust_odds": {str(k): v for k, v in self.bust_odds.items()},
        }
        if self.entry_turn_score is not None:
            out["entry_turn_score"] = round(self.entry_turn_score, 4)
        if self.exact_target is not None:
            out["exact_target"] = self.exact_target
        if self.takeover_thresholds is not None:
            out["takeover_thresholds"] = {str(k): v for k, v in self.takeover_thresholds.items()}
            out["takeover_ranges"] = {
                str(k): [list(span) for span in v] for k, v in (self.takeover_ranges or {}).items()
            }
        if self.long_run_average is not None:
            out["long_run_average"] = round(self.long_run_average, 4)
        if self.streak_bank_thresholds is not None:
            out["streak_bank_thresholds"] = {
                str(s): {str(k): v for k, v in t.items()}
                for s, t in self.streak_bank_thresholds.items()
            }
        return out


@functools.lru_cache(maxsize=32)
def strategy_summary(rules: Rules) -> StrategySummary:
    """The optimal policy of ``rules`` in brief, for a player on the board.

    >>> from companion.rules import load_rules
    >>> summary = strategy_summary(load_rules("zilch"))
    >>> round(summary.long_run_average, 3), summary.bust_odds[6]
    (620.855, '0/46656')
    """
    run = long_run(rules)
    up_to = summary_horizon(rules)
    streaks = None
    if run is not None:
        streaks = {
            k: bank_thresholds(rules, busts_in_row=k, up_to=up_to)
            for k in range(rules.strike_after)
        }
    bust = {n: bust_fraction(rules, n) for n in range(1, rules.dice + 1)}
    return StrategySummary(
        rules=rules.name,
        dice=rules.dice,
        expected_turn_score=expected_turn_score(rules),
        entry_turn_score=expected_turn_score(rules, on_board=False) if rules.entry else None,
        bank_thresholds=bank_thresholds(rules, up_to=up_to),
        thresholds_up_to=up_to,
        bust_probability=bust,
        bust_odds={n: _odds(n, p) for n, p in bust.items()},
        takeover_thresholds=takeover_thresholds(rules),
        takeover_ranges=takeover_ranges(rules),
        long_run_average=run.average if run else None,
        streak_bank_thresholds=streaks,
        exact_target=rules.target if rules.finish is Finish.EXACT else None,
    )
