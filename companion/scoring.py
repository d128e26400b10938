"""What a roll scores: every legal keep with its best split into groups, and the best keep.

A keep is any non-empty sub-multiset of a roll in which every die scores. Its points are
the best split of the kept dice into groups (singles, n of a kind, straights, pairs...). Most
rule sets score a keep the same way whatever happened earlier in the turn, so those keeps are
scored once per rule set into a table; the two rule sets whose sets grow across rolls
(``double-turn`` and ``progressive``) score against a ``Held`` context instead.

>>> from companion.rules import load_rules
>>> score = score_roll(load_rules("hot-dice"), parse_dice("142445"))
>>> score.best.dice, score.best.points
((1, 4, 4, 4, 5), 550)
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from companion.errors import ParseError
from companion.rules import InstantWin, Multiples, Rules

Dice = tuple[int, ...]
Counts = tuple[int, int, int, int, int, int]

_COUNT_WORDS = {1: "single", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
NO_COUNTS: Counts = (0, 0, 0, 0, 0, 0)
_DASH_BETWEEN_DIGITS = re.compile(r"(?<=[0-9])-(?=[0-9])")


def parse_dice(text: str | Iterable[int | str], *, max_dice: int = 6) -> Dice:
    """Dice from ``"142445"``, ``"1 4 2 4 4 5"``, ``"1,4,2"``, ``"1-4-2"`` or a sequence of values.

    The roll keeps the order it was given in; ``format_dice`` prints it back. A dash
    between two digits parts dice, as a roll is said at the table ("1-4-4-4-4-5").

    >>> parse_dice("1 4 2"), format_dice(parse_dice("142"))
    ((1, 4, 2), '142')
    """
    split_word = ""  # (one word read a digit a die: "10" is the dice 1 and 0, said so)
    if isinstance(text, str):
        if "," in text and not all(part.strip() for part in text.split(",")):
            raise ParseError(f"a die is missing between commas in {text!r}")
        text = _DASH_BETWEEN_DIGITS.sub(" ", text)  # ("-1" stays refused, not read as 1)
        tokens: list[Any] = text.replace(",", " ").split()
        if len(tokens) == 1:
            if not tokens[0].isdigit():  # (not "-1" read as a die "-")
                raise ParseError(f"a die must be a number from 1 to 6, not {tokens[0]!r}")
            word = tokens[0]
            if len(word) == 2 or (len(word) > 1 and "0" in word):  # (a number: "10", "100")
                split_word = word
            tokens = list(word)
    else:
        try:
            tokens = list(text)
        except TypeError:  # (None, a number: said in one line, not a TypeError)
            raise ParseError(
                f"dice must be a list of faces or text such as '1 5', not {text!r}"
            ) from None
    values: list[int] = []
    for token in tokens:
        if isinstance(token, bool):
            raise ParseError(f"a die must be a number from 1 to 6, not {token!r}")
        try:
            value = int(token)
        except (TypeError, ValueError, OverflowError):
            raise ParseError(f"a die must be a number from 1 to 6, not {token!r}") from None
        if isinstance(token, float) and token != value:
            raise ParseError(f"a die must be a number from 1 to 6, not {token!r}")
        if not 1 <= value <= 6:  # (said as typed: "1_1" is no 11)
            shown = token.strip() if isinstance(token, str) else value
            hint = f" (in {split_word}: each digit is a die)" if split_word else ""
            together = "".join(map(str, tokens))  # (a roll split between words: "12 34")
            if (
                isinstance(text, str)
                and set(together) <= set("123456")
                and len(together) <= max_dice
            ):
                hint = f" (give the dice together, {together}, or each apart, {' '.join(together)})"
            raise ParseError(f"a die must be a number from 1 to 6, not {shown}{hint}")
        values.append(value)
    if not values:
        raise ParseError("no dice given")
    if len(values) > max_dice:
        raise ParseError(f"at most {max_dice} dice can be rolled at once, got {len(values)}")
    return tuple(values)


def format_dice(dice: Iterable[int]) -> str:
    """The compact form of a roll, ``"142445"``."""
    return "".join(str(d) for d in dice)


def dice_word(n: int) -> str:
    """``n`` dice in words ("1 die", "2 dice"), for every command's text."""
    return "1 die" if n == 1 else f"{n} dice"


def counts_of(dice: Iterable[int]) -> Counts:
    """How many dice show each face, 1 to 6."""
    counts = [0, 0, 0, 0, 0, 0]
    for d in dice:
        counts[d - 1] += 1
    return tuple(counts)  # type: ignore[return-value]


def dice_of(counts: Sequence[int]) -> Dice:
    """The sorted dice of a count vector."""
    return tuple(v for v in range(1, 7) for _ in range(counts[v - 1]))


@dataclass(frozen=True)
class Group:
    """One scoring group of a keep, e.g. ``three 4s`` for 400."""

    name: str
    dice: Dice
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "dice": list(self.dice), "points": self.points}


@dataclass(frozen=True)
class Keep:
    """A legal keep: its sorted dice, the points it adds to the turn, and why."""

    dice: Dice
    points: int
    groups: tuple[Group, ...]
    wins: bool = False
    held_sets: frozenset[int] = field(default=frozenset(), compare=False)
    held_kept: Counts = field(default=NO_COUNTS, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "keep": list(self.dice),
            "points": self.points,
            "groups": [g.to_json() for g in self.groups],
        }
        if self.wins:
            out["wins_game"] = True
        return out


@dataclass(frozen=True)
class Held:
    """What a turn carries from earlier rolls into the scoring of the next one.

    Only ``double-turn`` (held triples double the turn total) and ``progressive`` (kept dice
    of a value grow one set) look at it; every other rule set scores each roll on its own.
    """

    turn_total: int = 0
    sets: frozenset[int] = frozenset()
    kept: Counts = NO_COUNTS
    first_roll: bool = True

    @property
    def fresh(self) -> bool:
        return self.turn_total == 0 and not self.sets and self.kept == NO_COUNTS


@dataclass(frozen=True)
class RollScore:
    """Every legal keep of one roll, best first; ``bust`` when there is none."""

    roll: Dice
    options: tuple[Keep, ...]

    @property
    def bust(self) -> bool:
        return not self.options

    @property
    def best(self) -> Keep | None:
        return self.options[0] if self.options else None


# --- groups of one value ------------------------------------------------------------


def _plural(value: int) -> str:
    return f"{value}s"


def _kind_points(rules: Rules, value: int, n: int) -> int | None:
    """Points of n of a kind from one roll under the rule set's multiples, None if not a group."""
    t = rules.triple(value)
    if n == 3:
        return t
    m = rules.multiples
    if m is Multiples.DOUBLE or m is Multiples.PROGRESSIVE:
        return t * 2 ** (n - 3)
    if m is Multiples.ADD:
        return t * (n - 2)
    if m is Multiples.FLAT:
        return {4: 1000, 5: 2000, 6: 3000}[n]
    return None


def _single_points(value: int) -> int:
    return {1: 100, 5: 50}.get(value, 0)


def _singles(value: int, n: int) -> list[Group]:
    return [Group(f"single {value}", (value,), _single_points(value)) for _ in range(n)]


@dataclass(frozen=True)
class _Part:
    """One way to score the dice of one value: added points, then doublings of the total."""

    added: int
    groups: tuple[Group, ...]
    doubling: Group | None = None
    new_set: bool = False

    @property
    def doublings(self) -> int:
        return len(self.doubling.dice) if self.doubling else 0


def _value_parts(rules: Rules, value: int, n: int, held: Held) -> list[_Part]:
    """Every way n kept dice of one value can all score, given what the turn holds."""
    is_single = value in (1, 5)
    m = rules.multiples
    parts: list[_Part] = []
    if m is Multiples.PROGRESSIVE:
        before = held.kept[value - 1]
        total = before + n

        def set_points(c: int) -> int:
            if c >= 3:
                return rules.triple(value) * 2 ** (c - 3)
            return c * _single_points(value)

        if not is_single and total < 3:
            return []
        gained = set_points(total) - set_points(before)
        if before == 0:
            name = f"{_COUNT_WORDS[n]} {_plural(value) if n > 1 else value}"
        else:
            name = f"{n} more {_plural(value) if n > 1 else value} (set of {total})"
        if before == 0 and n < 3:
            return [_Part(gained, tuple(_singles(value, n)))]
        return [_Part(gained, (Group(name, (value,) * n, gained),))]
    if m is Multiples.DOUBLE_TURN:
        if value in held.sets:
            parts.append(_Part(0, (), _doubling(value, n)))
        if n >= 3:
            triple = Group(f"three {_plural(value)}", (value,) * 3, rules.triple(value))
            doubling = _doubling(value, n - 3) if n > 3 else None
            parts.append(_Part(triple.points, (triple,), doubling, new_set=True))
            if is_single and n > 3:
                parts.append(
                    _Part(
                        triple.points + (n - 3) * _single_points(value),
                        (triple, *_singles(value, n - 3)),
                        new_set=True,
                    )
                )
            if n == 6:
                parts.append(_Part(2 * triple.points, (triple, triple), new_set=True))
        if is_single:
            parts.append(_Part(n * _single_points(value), tuple(_singles(value, n))))
        return parts
    best: _Part | None = None
    candidates: list[_Part] = []
    if is_single:
        candidates.append(_Part(n * _single_points(value), tuple(_singles(value, n))))
    for size in range(3, n + 1):
        points = _kind_points(rules, value, size)
        if points is None or (not is_single and size != n):
            continue
        group = Group(f"{_COUNT_WORDS[size]} {_plural(value)}", (value,) * size, points)
        rest = tuple(_singles(value, n - size))
        candidates.append(_Part(points + sum(g.points for g in rest), (group, *rest)))
    if n == 6:
        triple = Group(f"three {_plural(value)}", (value,) * 3, rules.triple(value))
        candidates.append(_Part(2 * triple.points, (triple, triple)))
    for part in candidates:
        if best is None or (part.added, -len(part.groups)) > (best.added, -len(best.groups)):
            best = part
    return [best] if best else []


def _doubling(value: int, n: int) -> Group:
    """The dice of a held set that double the turn total; points are filled in by _combine."""
    if n == 1:
        return Group(f"one more {value} doubles the turn total", (value,), 0)
    return Group(f"{n} more {_plural(value)} double the turn total {n} times", (value,) * n, 0)


# --- groups of five or six dice -------------------------------------------------------


def _combos(rules: Rules, counts: Counts) -> Iterator[tuple[Group, Counts]]:
    """Whole-roll groups (straights, pairs, triplets, full house) found in a keep, with the rest."""
    size = sum(counts)
    if rules.straight and size == rules.dice:
        runs = [(1, 2, 3, 4, 5, 6)] if rules.dice == 6 else [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)]
        for run in runs:
            if counts == counts_of(run):
                name = "straight " + "-".join(map(str, run))
                yield Group(name, run, rules.straight), NO_COUNTS
    if size == 6:
        shape = sorted(c for c in counts if c)
        if rules.three_pairs and (
            shape == [2, 2, 2] or (shape == [2, 4] and rules.four_kind_pair_is_three_pairs)
        ):
            yield Group("three pairs", dice_of(counts), rules.three_pairs), NO_COUNTS
        if rules.four_kind_and_pair and shape == [2, 4]:
            yield (
                Group("four of a kind and a pair", dice_of(counts), rules.four_kind_and_pair),
                NO_COUNTS,
            )
        if rules.two_triplets and shape == [3, 3]:
            yield Group("two triplets", dice_of(counts), rules.two_triplets), NO_COUNTS
    if rules.full_house_bonus and size >= 5:
        for three, two in itertools.permutations(range(1, 7), 2):
            if counts[three - 1] >= 3 and counts[two - 1] >= 2:
                rest = list(counts)
                rest[three - 1] -= 3
                rest[two - 1] -= 2
                dice = (three,) * 3 + (two,) * 2
                points = rules.triple(three) + rules.full_house_bonus
                name = f"full house, three {_plural(three)} and two {_plural(two)}"
                yield Group(name, tuple(sorted(dice)), points), tuple(rest)  # type: ignore[misc]


# --- a keep ----------------------------------------------------------------------------


PartsOf = Callable[[int, int], list["_Part"]]


def _score_counts(
    rules: Rules, counts: Counts, held: Held, parts_of: PartsOf | None = None
) -> Keep | None:
    if not any(counts):
        return None
    if parts_of is None:

        def parts_of(value: int, n: int) -> list[_Part]:
            return _value_parts(rules, value, n, held)

    splits: list[tuple[tuple[Group, ...], Counts]] = [((), counts)]
    splits.extend(((group,), rest) for group, rest in _combos(rules, counts))
    best: tuple[int, int, tuple[Group, ...], frozenset[int], Counts] | None = None
    for combo_groups, rest in splits:
        choices: list[list[_Part]] = []
        for value in range(1, 7):
            n = rest[value - 1]
            if n:
                parts = parts_of(value, n)
                if not parts:
                    break
                choices.append(parts)
        else:
            for pick in itertools.product(*choices):
                points, groups, new_sets = _combine(held, combo_groups, pick)
                scored = (points, -len(groups), groups, new_sets, rest)
                if best is None or scored[:2] > best[:2]:
                    best = scored
    if best is None:
        return None
    points, _, groups, new_sets, rest = best
    # Only dice outside whole-roll combinations join a value's progressive set.
    kept = cast(Counts, tuple(a + b for a, b in zip(held.kept, rest, strict=True)))
    return Keep(
        dice_of(counts), points, groups, _wins(rules, counts, held), held.sets | new_sets, kept
    )


def _combine(
    held: Held, combo_groups: tuple[Group, ...], parts: Sequence[_Part]
) -> tuple[int, tuple[Group, ...], frozenset[int]]:
    """Add the roll's groups first, then apply each doubling, as the hot-dice seed says."""
    total = held.turn_total + sum(g.points for g in combo_groups) + sum(p.added for p in parts)
    groups = sorted(
        [*combo_groups, *(g for p in parts for g in p.groups)], key=lambda g: (-g.points, g.dice)
    )
    new_sets = frozenset(p.groups[0].dice[0] for p in parts if p.new_set)
    for part in parts:
        if part.doubling:
            gained = total * (2**part.doublings - 1)
            total += gained
            groups.append(Group(part.doubling.name, part.doubling.dice, gained))
    return total - held.turn_total, tuple(groups), new_sets


def _wins(rules: Rules, counts: Counts, held: Held) -> bool:
    if rules.instant_win is InstantWin.SIX_ONES:
        return counts[0] == 6
    if rules.instant_win is InstantWin.SIX_OF_A_KIND_FIRST_ROLL:
        return held.first_roll and 6 in counts
    return False


# --- a roll ----------------------------------------------------------------------------


@functools.cache
def _sub_counts(counts: Counts) -> tuple[Counts, ...]:
    """Every non-empty sub-multiset of a roll: the candidate keeps."""
    return tuple(pick for pick in itertools.product(*(range(c + 1) for c in counts)) if any(pick))  # type: ignore[misc]


def _sort_key(keep: Keep) -> tuple[int, int, Dice]:
    return (-keep.points, len(keep.dice), keep.dice)


def keep_options(rules: Rules, roll: Sequence[int], held: Held = Held()) -> tuple[Keep, ...]:
    """Every distinct legal keep of a roll in a turn context, best first (fewest dice on a tie).

    The roll is checked as ``parse_dice`` checks one (a 0 had scored as a 6).
    """
    return options_of_counts(rules, counts_of(parse_dice(roll, max_dice=rules.dice)), held)


def options_of_counts(rules: Rules, counts: Counts, held: Held = Held()) -> tuple[Keep, ...]:
    """``keep_options`` of a roll given as face counts, unchecked: for the advisor's model,
    which scores every distinct roll of every state it reaches, all already valid."""
    if held.fresh or rules.multiples not in (Multiples.DOUBLE_TURN, Multiples.PROGRESSIVE):
        return _tables(rules, held.first_roll and _first_roll_matters(rules))[1][counts]
    return _context_options(rules, counts, held)


def _first_roll_matters(rules: Rules) -> bool:
    """Whether a turn's first roll scores apart from its others: a win or a scoreless
    roll's points that only the first roll has."""
    return rules.instant_win is InstantWin.SIX_OF_A_KIND_FIRST_ROLL or (
        rules.nothing_scores_first_roll_only
    )


@functools.lru_cache(maxsize=64)
def _tables(
    rules: Rules, first_roll: bool
) -> tuple[dict[Counts, Keep | None], dict[Counts, tuple[Keep, ...]]]:
    """Every keep and every roll of 1..N dice scored once: the look-up tables of a rule set.

    Outside double-turn and progressive a keep's score never depends on earlier rolls, and
    there are only 923 distinct multisets of one to six dice, so the whole table is cheap.
    """
    held = Held(first_roll=first_roll)
    all_counts = _multisets(rules.dice)
    parts = {
        (v, n): _value_parts(rules, v, n, held)
        for v in range(1, 7)
        for n in range(1, rules.dice + 1)
    }
    keeps = {
        counts: None
        if _surely_unscoring(counts)
        else _score_counts(rules, counts, held, lambda v, n: parts[v, n])
        for counts in all_counts
    }
    scored = {counts: keep for counts, keep in keeps.items() if keep is not None}
    order = {counts: _sort_key(keep) for counts, keep in scored.items()}
    rolls = {}
    for counts in all_counts:
        legal = sorted((sub for sub in _sub_counts(counts) if sub in order), key=order.__getitem__)
        rolls[counts] = _collect(rules, counts, held, [scored[sub] for sub in legal])
    return keeps, rolls


@functools.cache
def _multisets(max_dice: int) -> tuple[Counts, ...]:
    """Every distinct roll of 1..max_dice dice, as face counts."""
    return tuple(
        counts_of(dice)
        for n in range(1, max_dice + 1)
        for dice in itertools.combinations_with_replacement(range(1, 7), n)
    )


def _surely_unscoring(counts: Counts) -> bool:
    """A lone or paired 2, 3, 4 or 6 scores only inside a five- or six-dice combination."""
    return sum(counts) < 5 and any(counts[i] in (1, 2) for i in (1, 2, 3, 5))


@functools.lru_cache(maxsize=32768)
def _context_options(rules: Rules, counts: Counts, held: Held) -> tuple[Keep, ...]:
    options = [k for sub in _sub_counts(counts) if (k := _score_counts(rules, sub, held))]
    return _collect(rules, counts, held, sorted(options, key=_sort_key))


def _collect(rules: Rules, counts: Counts, held: Held, options: list[Keep]) -> tuple[Keep, ...]:
    """The roll's options (already best first), or the scoreless-roll bonus if it has one."""
    if (
        not options
        and rules.nothing_scores
        and sum(counts) == rules.dice
        and (held.first_roll or not rules.nothing_scores_first_roll_only)
    ):
        dice = dice_of(counts)
        group = Group(f"nothing scores with all {rules.dice} dice", dice, rules.nothing_scores)
        return (Keep(dice, rules.nothing_scores, (group,), False, held.sets),)
    return tuple(options)


def score_roll(rules: Rules, roll: Sequence[int], held: Held | None = None) -> RollScore:
    """Score a roll; by default as the first roll of a fresh turn when all dice are rolled.

    The roll is checked as ``parse_dice`` checks one: 1 to ``rules.dice`` dice of 1 to 6.
    """
    dice = parse_dice(roll, max_dice=rules.dice)
    counts = counts_of(dice)
    if held is None:
        first = len(dice) == rules.dice and _first_roll_matters(rules)
        return RollScore(dice, _tables(rules, first)[1][counts])
    return RollScore(dice, options_of_counts(rules, counts, held))


def roll_report(rules: Rules, roll: Sequence[int]) -> dict[str, Any]:
    """The ``hotdice score --json`` object for one roll of a fresh turn."""
    score = score_roll(rules, roll)
    return {
        "rules": rules.name,
        "roll": list(score.roll),
        "bust": score.bust,
        "best": score.best.to_json() if score.best else None,
        "options": [k.to_json() for k in score.options],
    }


def distinct_rolls(n: int) -> Iterator[tuple[Dice, int]]:
    """Every distinct roll of n dice (sorted) with the number of ordered rolls that give it."""
    for dice in itertools.combinations_with_replacement(range(1, 7), n):
        ways = 1
        remaining = n
        for c in counts_of(dice):
            ways *= math.comb(remaining, c)
            remaining -= c
        yield dice, ways


def build_tables(rules: Rules) -> int:
    """Score every distinct roll of 1..N dice once, so later look-ups are dictionary hits."""
    built = len(_tables(rules, False)[1])
    if _first_roll_matters(rules):
        built += len(_tables(rules, True)[1])
    return built
