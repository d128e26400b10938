"""Scoring a roll: the RULES.md and seed examples, known answers, and invariants."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ParseError
from companion.rules import Rules, load_rules
from companion.scoring import (
    Held,
    counts_of,
    distinct_rolls,
    format_dice,
    keep_options,
    options_of_counts,
    parse_dice,
    roll_report,
    score_roll,
)
from tests.strategies import rolls, rule_sets

KNOWN = Path(__file__).parent / "data" / "known_scores.txt"


def _known_rows() -> list[tuple[str, str, int, str]]:
    rows = []
    for line in KNOWN.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rules, roll, points, keep = line.split()
            rows.append((rules, roll, int(points), keep))
    return rows


@pytest.mark.parametrize(("rules", "roll", "points", "keep"), _known_rows())
def test_known_best_keep(rules: str, roll: str, points: int, keep: str) -> None:
    score = score_roll(load_rules(rules), parse_dice(roll))
    if keep == "-":
        assert score.bust and score.best is None
    else:
        assert score.best is not None
        assert (score.best.points, format_dice(score.best.dice)) == (points, keep)


def test_hot_dice_seed_example_groups() -> None:
    best = score_roll(load_rules("hot-dice"), parse_dice("142445")).best
    assert best is not None
    assert [(g.name, g.points) for g in best.groups] == [
        ("three 4s", 400),
        ("single 1", 100),
        ("single 5", 50),
    ]


def test_minnesota_takes_up_to_the_full_amount() -> None:
    """Seed 002: 1-1-5-6 'can take up to the full 250', and any scoring subset."""
    options = {
        format_dice(k.dice): k.points
        for k in score_roll(load_rules("minnesota"), parse_dice("1156")).options
    }
    assert options == {"115": 250, "11": 200, "15": 150, "1": 100, "5": 50}


def test_three_ones_gathered_over_rolls_are_singles() -> None:
    """Hot-dice: three 1s are 1000 only when rolled at once."""
    rules = load_rules("hot-dice")
    best = score_roll(rules, (1, 2, 3, 4, 6, 6)).best
    assert best is not None and best.points == 100
    held = Held(turn_total=200, first_roll=False)
    assert keep_options(rules, (1, 2, 3, 4), held)[0].points == 100


def test_zilch_nothing_scores_only_with_all_six_dice() -> None:
    rules = load_rules("zilch")
    assert score_roll(rules, parse_dice("22346")).bust
    later = keep_options(rules, parse_dice("223466"), Held(turn_total=300, first_roll=False))
    assert [k.points for k in later] == [500]


def test_extra_combos_scoreless_roll_counts_only_first() -> None:
    rules = load_rules("ten-thousand+extra-combos")
    best = score_roll(rules, parse_dice("223346")).best
    assert best is not None and best.points == 500
    assert keep_options(rules, parse_dice("223346"), Held(first_roll=False)) == ()


def test_extra_combos_with_five_dice_pays_a_scoreless_roll_of_all_five() -> None:
    """The 500 is for a roll of every die in play (README decisions); the instant win is
    six of a kind, which five dice cannot show, so five of a kind only scores."""
    rules = load_rules("minnesota+extra-combos")
    best = score_roll(rules, parse_dice("22346")).best
    assert best is not None and (best.points, len(best.dice)) == (500, 5)
    assert keep_options(rules, parse_dice("22346"), Held(first_roll=False)) == ()
    five = score_roll(rules, parse_dice("44444")).best
    assert five is not None and not five.wins


def test_instant_wins_are_flagged() -> None:
    best = score_roll(load_rules("farke"), parse_dice("111111")).best
    assert best is not None and best.wins
    best = score_roll(load_rules("farke"), parse_dice("222222")).best
    assert best is not None and not best.wins
    rules = load_rules("ten-thousand+extra-combos")
    best = score_roll(rules, parse_dice("444444")).best
    assert best is not None and best.wins
    assert not keep_options(rules, parse_dice("444444"), Held(first_roll=False))[0].wins


@pytest.mark.parametrize(("n", "busts"), [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1440)])
def test_bust_counts_with_singles_and_triples(n: int, busts: int) -> None:
    """Published bust probabilities: 4/6, 16/36, 60/216, 204/1296, 600/7776, 1440/46656."""
    rules = load_rules("ten-thousand")
    count = sum(ways for dice, ways in distinct_rolls(n) if score_roll(rules, dice).bust)
    assert Fraction(count, 6**n) == Fraction(busts, 6**n)
    assert count == busts


def test_three_pairs_lower_six_dice_busts_to_1080() -> None:
    rules = load_rules("exact-10000")
    assert sum(w for d, w in distinct_rolls(6) if score_roll(rules, d).bust) == 1080


def test_distinct_rolls_cover_every_ordered_roll() -> None:
    for n in range(1, 7):
        assert sum(w for _, w in distinct_rolls(n)) == 6**n
        assert len(list(distinct_rolls(n))) == len(
            set(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=n))
        )


def test_roll_report_shape() -> None:
    report = roll_report(load_rules("hot-dice"), parse_dice("142445"))
    assert report["rules"] == "hot-dice" and report["roll"] == [1, 4, 2, 4, 4, 5]
    assert report["bust"] is False
    assert report["best"] == report["options"][0]
    assert report["best"]["keep"] == [1, 4, 4, 4, 5] and report["best"]["points"] == 550
    assert report["best"]["groups"][0] == {"name": "three 4s", "dice": [4, 4, 4], "points": 400}
    bust = roll_report(load_rules("hot-dice"), parse_dice("2346"))
    assert bust["bust"] is True and bust["best"] is None and bust["options"] == []


@pytest.mark.parametrize(
    "text", ["1 4 7", "0", "", "abc", "1234567", "1.5", "-1", "1--4", "1-", "-1-4", "1-4-7"]
)
def test_parse_dice_rejects_bad_input(text: str) -> None:
    with pytest.raises(ParseError):
        parse_dice(text)


def test_a_die_out_of_range_is_said_as_typed() -> None:
    # ("1_1", which int() reads as 11, was said to be "not 11")
    with pytest.raises(ParseError, match="not 1_1$"):
        parse_dice("1 1_1")
    with pytest.raises(ParseError, match="not 7$"):
        parse_dice([1, 7])


def test_a_roll_split_between_words_is_told_how_to_give_it() -> None:
    # (a review: "12 34" was only "not 12", where "1234" and "1 2 3 4" both read)
    hint = "(give the dice together, 1234, or each apart, 1 2 3 4)"
    for text in ("12 34", "1 2 34", "1,2,34"):
        assert _refusal(functools.partial(parse_dice, text)).endswith(hint)
    for text, said in (("12 34 56 11", "not 12"), ("12 a", "not 12"), ("1 2 77", "not 77")):
        assert (
            _refusal(functools.partial(parse_dice, text))
            == f"a die must be a number from 1 to 6, {said}"
        )
    assert _refusal(lambda: parse_dice("12 34", max_dice=3)).endswith("not 12")  # (4 dice)


def test_parse_dice_forms_round_trip() -> None:
    for text in ("142445", "1 4 2 4 4 5", "1,4,2,4,4,5", "1-4-2-4-4-5"):
        assert format_dice(parse_dice(text)) == "142445"  # (a dash, as a roll is said)
    assert parse_dice([6, 1]) == (6, 1)


def test_roll_too_big_for_the_rule_set() -> None:
    with pytest.raises(ParseError, match="^at most 5 dice can be rolled at once, got 6$"):
        score_roll(load_rules("minnesota"), parse_dice("111111"))


def _refusal(call: Callable[[], object]) -> str:
    with pytest.raises(ParseError) as refused:
        call()
    return str(refused.value)


@settings(max_examples=200, deadline=None)
@given(
    rules=rule_sets(),
    data=st.data(),
    bad=st.integers().filter(lambda d: not 1 <= d <= 6),
)
def test_a_die_outside_1_to_6_is_refused_as_parse_dice_refuses_it(
    rules: Rules, data: st.DataObject, bad: int
) -> None:
    """A 0 had scored as a 6 and a -1 as a 5 (the counts were indexed by the die), a 7
    failed with an IndexError: the scorer checks a roll as `parse_dice` does, same words."""
    roll = list(data.draw(rolls(rules.dice - 1)))
    roll.insert(data.draw(st.integers(0, len(roll))), bad)
    said = _refusal(lambda: parse_dice(roll, max_dice=rules.dice))
    assert said == f"a die must be a number from 1 to 6, not {bad}"
    assert _refusal(lambda: score_roll(rules, roll)) == said
    assert _refusal(lambda: score_roll(rules, roll, Held(first_roll=False))) == said
    assert _refusal(lambda: keep_options(rules, roll)) == said


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("10", "not 0 (in 10: each digit is a die)"),
        ("100", "not 0 (in 100: each digit is a die)"),
        ("17", "not 7 (in 17: each digit is a die)"),
        ("1429", "not 9"),  # (a roll typed together, one digit wrong: no number meant)
        ("7", "not 7"),
    ],
)
def test_a_number_read_as_its_digits_is_said_to_be(typed: str, said: str) -> None:
    """`score 10` was refused as "not 0", a die the player never typed (a review)."""
    assert _refusal(lambda: parse_dice(typed)) == f"a die must be a number from 1 to 6, {said}"


@pytest.mark.parametrize("name", ["farkle", "minnesota"])
@pytest.mark.parametrize("score", [score_roll, keep_options])
def test_no_dice_or_more_than_the_rule_set_rolls_is_refused(
    name: str, score: Callable[[Rules, Any], object]
) -> None:
    """As `roll_report` and `hotdice score` refuse them (a KeyError had escaped both)."""
    rules = load_rules(name)
    assert _refusal(lambda: score(rules, [])) == "no dice given"
    too_many = [1] * (rules.dice + 1)
    assert _refusal(lambda: score(rules, too_many)) == (
        f"at most {rules.dice} dice can be rolled at once, got {rules.dice + 1}"
    )


@pytest.mark.parametrize("score", [score_roll, keep_options])
def test_dice_of_another_type_are_read_as_parse_dice_reads_them(
    score: Callable[[Rules, Any], object],
) -> None:
    """A whole float is its die, as `parse_dice` reads it (a TypeError had escaped); half a
    die, a bool or None is refused in `parse_dice`'s words."""
    rules = load_rules("farkle")
    assert score(rules, [1.0, 1, 1]) == score(rules, [1, 1, 1])
    assert score_roll(rules, [1.0, 1, 1]).roll == (1, 1, 1)  # type: ignore[list-item]
    for bad in (1.5, True, None):
        said = _refusal(functools.partial(score, rules, [1, bad]))
        assert said == f"a die must be a number from 1 to 6, not {bad}"


@settings(max_examples=100, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_unchecked_counts_score_as_the_checked_roll(rules: Rules, data: st.DataObject) -> None:
    """The advisor's unchecked path (`options_of_counts`) is `keep_options` without the check."""
    roll = data.draw(rolls(rules.dice))
    held = Held(
        turn_total=data.draw(st.sampled_from([0, 300])), first_roll=data.draw(st.booleans())
    )
    assert options_of_counts(rules, counts_of(roll), held) == keep_options(rules, roll, held)


@settings(max_examples=300, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_every_option_is_a_legal_keep_of_the_roll(rules: Rules, data: st.DataObject) -> None:
    roll = data.draw(rolls(rules.dice))
    score = score_roll(rules, roll)
    have = Counter(roll)
    seen = set()
    for keep in score.options:
        assert not Counter(keep.dice) - have, "kept dice must come from the roll"
        assert keep.dice == tuple(sorted(keep.dice)) and keep.dice not in seen
        seen.add(keep.dice)
        assert keep.points > 0 and keep.points % 50 == 0
        assert sum(g.points for g in keep.groups) == keep.points
        assert sorted(d for g in keep.groups for d in g.dice) == list(keep.dice)
    points = [k.points for k in score.options]
    assert points == sorted(points, reverse=True)
    assert score.bust == (not score.options)
    if score.best:
        assert score.best.points == max(points)
        assert len(score.best.dice) == min(
            len(k.dice) for k in score.options if k.points == score.best.points
        )


@settings(max_examples=200, deadline=None)
@given(roll=rolls(6))
def test_singles_and_triples_bust_oracle(roll: tuple[int, ...]) -> None:
    """Under singles and triples only, a roll busts exactly when it has no 1, 5 or triple."""
    counts = counts_of(roll)
    expected = counts[0] == 0 and counts[4] == 0 and max(counts) < 3
    assert score_roll(load_rules("ten-thousand"), roll).bust == expected


@settings(max_examples=200, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_adding_a_scoring_die_never_lowers_the_best(rules: Rules, data: st.DataObject) -> None:
    """A bigger roll offers every keep of the smaller one (outside whole-roll bonuses), at
    the same points, so its best is never lower."""
    roll = data.draw(rolls(rules.dice - 1))
    extra = data.draw(st.integers(1, 6))
    small, big = score_roll(rules, roll), score_roll(rules, (*roll, extra))
    small_keeps = {
        k.dice: k.points for k in small.options if not k.groups[0].name.startswith("nothing")
    }
    big_keeps = {k.dice: k.points for k in big.options}
    assert all(big_keeps.get(dice) == points for dice, points in small_keeps.items())
    if small_keeps:
        assert big.best is not None and big.best.points >= max(small_keeps.values())
