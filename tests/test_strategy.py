"""The strategy advisor: published optimal-play numbers, the DP against the engine, the CLI."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli_strategy, strategy
from companion.advice import advise_roll, advise_state, advise_turn
from companion.errors import ParseError
from companion.rules import PRESETS, Finish, Multiples, Rules, load_rules
from companion.scoring import distinct_rolls, keep_options
from companion.strategy import (
    HeldKey,
    bank_thresholds,
    bust_fraction,
    expected_turn_score,
    long_run,
    solve,
    strategy_summary,
    takeover_thresholds,
    turn_at,
    turn_model,
)
from companion.strategy_dp import UNIT, TurnSolution, solve_turn
from companion.turn import Turn
from tests.cli_run import run
from tests.strategies import rule_sets

FARKLE = load_rules("farkle")
ZILCH = load_rules("zilch")

# --- published numbers ---------------------------------------------------------------------


def test_farkle_fresh_turn_is_worth_542_06() -> None:
    assert expected_turn_score(FARKLE) == pytest.approx(542.0632, abs=5e-5)


def test_farkle_rolling_two_dice_at_1000_is_worth_652_77() -> None:
    advice = advise_state(FARKLE, turn_total=1000, dice=2)
    assert advice["expected_if_roll"] == pytest.approx(652.77, abs=5e-3)
    assert advice["advice"] == "bank"
    assert advice["bust_probability"] == pytest.approx(16 / 36)


def test_farkle_bank_thresholds() -> None:
    assert bank_thresholds(FARKLE) == {1: 300, 2: 250, 3: 400, 4: 950, 5: 2800, 6: None}


def test_zilch_long_run_average_is_620_855() -> None:
    run = long_run(ZILCH)
    assert run is not None
    assert run.average == pytest.approx(620.855, abs=5e-4)


def test_zilch_plays_safer_after_busts_in_a_row() -> None:
    by_streak = [bank_thresholds(ZILCH, busts_in_row=k) for k in range(3)]
    for dice in range(1, 6):
        thresholds = [t[dice] for t in by_streak]
        known = [t for t in thresholds if t is not None]
        assert thresholds == known == sorted(known, reverse=True)
    assert by_streak[2] != by_streak[0]


@pytest.mark.parametrize(
    ("dice", "busts"), [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1440)]
)
def test_bust_odds_with_singles_and_triples(dice: int, busts: int) -> None:
    assert bust_fraction(load_rules("ten-thousand"), dice) == Fraction(busts, 6**dice)


def test_three_pairs_lower_the_six_dice_bust_odds() -> None:
    assert bust_fraction(FARKLE, 6) == Fraction(1080, 46656)
    assert bust_fraction(ZILCH, 6) == 0
    assert bust_fraction(load_rules("minnesota+hard-six"), 1) == Fraction(3, 5)


def test_strategy_json_has_the_documented_keys() -> None:
    data = strategy_summary(FARKLE).to_json()
    assert data["expected_turn_score"] == pytest.approx(542.0632, abs=1e-4)
    # (six dice bank past the target, as a final round's last turns may run: `summary_horizon`)
    assert data["bank_thresholds"] == {
        "1": 300,
        "2": 250,
        "3": 400,
        "4": 950,
        "5": 2800,
        "6": 16800,
    }
    assert data["bank_thresholds_up_to"] == 20_000
    assert data["bust_odds"]["6"] == "1080/46656"
    assert "takeover_thresholds" not in data and "long_run_average" not in data
    zilch = strategy_summary(ZILCH).to_json()
    assert zilch["long_run_average"] == pytest.approx(620.855, abs=5e-4)
    assert set(strategy_summary(load_rules("minnesota")).to_json()["takeover_thresholds"]) == {
        "1",
        "2",
        "3",
        "4",
    }


# --- the DP is exact ------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*sorted(PRESETS), "ten-thousand+progressive"])
def test_the_cap_does_not_change_the_answer(name: str) -> None:
    rules = load_rules(name)
    model = turn_model(rules)
    objective = strategy._objective(rules, 0, True, 0.0)
    near = solve_turn(model, objective)
    far = solve_turn(model, replace(objective, cap=2 * strategy.CAP))
    assert near.roll_value(model.start, 0) == pytest.approx(
        far.roll_value(model.start, 0), abs=1e-9
    )


def _direct_roll_value(rules: Rules, solution: TurnSolution, turn: Turn) -> float:
    """A state's value from the engine's own Turn, roll by roll, without the merged model:
    a free re-roll is rolled again, or banked where the engine lets the turn bank it."""
    acc = 0.0
    busted = rerolled = 0
    bank: float | None = None
    for roll, weight in distinct_rolls(turn.dice_left):
        after_roll = turn.roll(roll)
        if after_roll.phase.value == "bust":
            busted += weight
            continue
        if after_roll.phase.value == "roll":  # (the 420's or the hard six's free roll)
            rerolled += weight
            bank = solution.bank_value(after_roll.total) if after_roll.can_bank else None
            continue
        best = max(
            solution.arrive_value(
                (
                    0 if (t := after_roll.keep(k.dice)).hot_dice else t.dice_left,
                    strategy.held_key(rules, t.sets, t.kept, False),
                ),
                t.total,
            )
            for k in after_roll.options()
        )
        acc += weight * best
    n, lost = 6**turn.dice_left, busted * solution.objective.bust_value
    value = (acc + lost) / (n - rerolled)
    return (acc + lost + rerolled * bank) / n if bank is not None and bank > value else value


def test_a_forced_keep_that_doubles_busts_as_the_engine_busts_it() -> None:
    """A review: under an exact finish with held sets that double (a rule file: hot-dice,
    exact), the model took the forced keep's points at a total of 0; at 5,000 + 3,000 with
    4s held, a roll of 4 1 (kept whole: the 1, and the 4 doubling 3,100) busts."""
    rules = load_rules({"base": "hot-dice", "finish": "exact", "name": "exact doubling"})
    solution = solve(rules, score=5000)
    turn = strategy.turn_at(rules, total=3000, dice=2, score=5000, sets=[4])
    assert turn.roll((4, 1)).phase.value == "bust"
    for total, dice, sets in ((3000, 2, [4]), (1200, 2, [4]), (2400, 3, [2]), (600, 1, [1])):
        turn = strategy.turn_at(rules, total=total, dice=dice, score=5000, sets=sets)
        key = strategy.state_at(rules, dice, sets=sets)
        assert solution.roll_value(key, total) == pytest.approx(
            _direct_roll_value(rules, solution, turn), rel=1e-9
        ), (total, dice, sets)


@pytest.mark.parametrize("name", ["minnesota+hard-six", "minnesota+the-420+hard-six"])
def test_a_taker_rolls_a_free_reroll_again_and_never_banks_it(name: str) -> None:
    """A review: the advisor valued a taker's re-rolled 6 as "roll again or bank", where the
    engine banks only after a keep; taking over 1 die at 500 under hard-six was advised
    (356.85 against a fresh turn's 354.99), worth 328.22 played as the engine plays it."""
    rules = load_rules(name)
    solution = solve(rules, score=3000)
    fresh = solution.roll_value(solution.model.start, 0)
    worth = {}
    for dice in (1, 2):
        for total in range(50, 1550, 50):
            given = Turn.at(rules, total=total, dice=dice, score=2000).bank()
            taker = given.handed_to(score=3000, on_board=True)
            value = _direct_roll_value(rules, solution, taker)
            key = strategy.state_at(rules, dice)
            assert solution.taker_roll_value(key, total) == pytest.approx(value, rel=1e-9)
            advice = advise_turn(taker)
            assert advice["expected_if_roll"] == pytest.approx(value, rel=1e-9)
            assert advice["can_bank"] is False and advice["advice"] == "roll"
            worth[dice, total] = value >= fresh
    thresholds = takeover_thresholds(rules, score=3000)
    assert thresholds is not None
    for dice in (1, 2):
        first = min(
            t for t in range(50, 1550, 50) if all(worth[dice, u] for u in range(t, 1550, 50))
        )
        assert thresholds[dice] == first


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), data=st.data())
def test_bellman_equation_holds_against_the_engine(rules: Rules, data: st.DataObject) -> None:
    if rules.the_420 or rules.hard_six:
        rules = load_rules(rules.name.replace("+the-420", "").replace("+hard-six", ""))
    solution = solve(rules)
    model = solution.model
    key = data.draw(st.sampled_from(sorted(model.classes, key=repr)))
    dice, held = key
    sets, kept, first = cast(HeldKey, held)  # (the states strategy.py makes hold a HeldKey)
    if first:
        return
    floor = 1000 * len(sets) + 50 * sum(kept)
    total = data.draw(st.integers(floor // UNIT + 1, 120)) * UNIT
    if rules.finish.value == "exact" and total > rules.target:
        return
    turn = strategy.turn_at(
        rules,
        total=total,
        dice=dice,
        sets=sets,
        kept=[v for v in range(1, 7) for _ in range(kept[v - 1])],
    )
    assert solution.roll_value(key, total) == pytest.approx(
        _direct_roll_value(rules, solution, turn), rel=1e-9, abs=1e-9
    )


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_state_update_matches_turn_keep(rules: Rules, data: st.DataObject) -> None:
    """The model's keeps come from the state's context, as in ``turn_model``; the engine's
    ``Turn.keep`` must land where the model says (total, dice left, held sets and kept dice)."""
    dice = data.draw(st.integers(1, rules.dice))
    roll = tuple(data.draw(st.lists(st.integers(1, 6), min_size=dice, max_size=dice)))
    total = data.draw(st.integers(1, 60)) * UNIT
    sets = (
        frozenset(data.draw(st.sets(st.integers(1, 6), max_size=1)))
        if (rules.multiples is Multiples.DOUBLE_TURN)
        else frozenset()
    )
    kept: list[int] = []
    if rules.multiples is Multiples.PROGRESSIVE and dice < rules.dice:
        kept = data.draw(st.lists(st.sampled_from([1, 5]), max_size=rules.dice - dice))
    scoring_rules = replace(rules, finish=Finish.FINAL_ROUND)
    turn = strategy.turn_at(
        scoring_rules, total=total + 1000 * len(sets), dice=dice, sets=sets, kept=kept
    )
    rolled = turn.roll(roll)
    if rolled.phase.value != "keep":
        return
    key = (dice, strategy.held_key(rules, sets, turn.kept, False))
    probes = strategy._probes(rules, sets)
    contexts = [strategy._context(rules, key, t) for t in probes]
    scored = [keep_options(scoring_rules, roll, c) for c in contexts]
    assert {k.dice for k in scored[0]} == {k.dice for k in rolled.options()}
    for keep in scored[0]:
        after = rolled.keep(keep.dice)
        points = [next(k.points for k in options if k.dice == keep.dice) for options in scored]
        outcome = strategy._outcome(rules, dice, keep, probes, points)
        assert outcome.mul * turn.total + outcome.add == after.total
        assert outcome.dice == (0 if after.hot_dice else after.dice_left)
        if outcome.dice:
            assert outcome.held == strategy.held_key(rules, after.sets, after.kept, False)


def test_a_full_house_leaves_no_progressive_set_in_the_model() -> None:
    """Dice of a whole-roll combination join no set (README), so a pair of 2s kept in a
    full house is in no state of the model, as it is in no engine turn."""
    rules = load_rules("ten-thousand+progressive+extra-combos")
    kept_counts = {cast(HeldKey, held)[1] for _, held in turn_model(rules).classes}
    assert (3, 0, 0, 0, 0, 0) in kept_counts
    for counts in kept_counts:
        assert all(counts[face - 1] in (0, 3, 4, 5) for face in (2, 3, 4, 6)), counts
    turn = turn_at(rules, total=50, dice=6).roll([1, 1, 1, 1, 2, 2]).keep([1, 1, 1, 2, 2])
    assert turn.kept == (0,) * 6 and turn.roll([1]).keep([1]).total == 50 + 1250 + 100


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_solves_and_thresholds_are_consistent(name: str) -> None:
    rules = load_rules(name)
    summary = strategy_summary(rules)
    assert 0 < summary.expected_turn_score < 5000
    for dice, threshold in summary.bank_thresholds.items():
        if threshold is None or threshold <= rules.min_bank:
            continue
        below = advise_state(rules, turn_total=threshold - UNIT, dice=dice)
        at = advise_state(rules, turn_total=threshold, dice=dice)
        assert at["advice"] == "bank"
        assert below["advice"] == "roll" or not below["can_bank"]


def test_takeover_thresholds_are_where_taking_over_pays() -> None:
    rules = load_rules("dice-10000+amish")
    thresholds = takeover_thresholds(rules)
    assert thresholds is not None and takeover_thresholds(FARKLE) is None
    solution = solve(rules)
    fresh = solution.roll_value(solution.model.start, 0)
    for dice, total in thresholds.items():
        assert total is not None
        key = (dice, strategy._NOTHING_HELD)
        assert solution.roll_value(key, total) >= fresh
        if total > UNIT:
            assert solution.roll_value(key, total - UNIT) < fresh


def test_entry_threshold_makes_a_fresh_turn_worth_less() -> None:
    rules = load_rules("minnesota")
    assert expected_turn_score(rules, on_board=False) < expected_turn_score(rules)
    advice = advise_state(rules, turn_total=650, dice=4, on_board=False)
    assert advice["advice"] == "roll" and not advice["can_bank"]


def test_exact_target_caps_the_turn() -> None:
    rules = load_rules("exact-10000")
    advice = advise_state(rules, turn_total=9900, dice=6, score=0)
    assert advice["expected_if_roll"] < 9900
    out = advise_roll(rules, [1, 1, 1, 2, 3, 4], turn_total=500, score=9000)
    assert out["bust"] and "pass" in out["bust_reason"]
    # (a total already past the target: every roll busts, below)
    assert advise_state(rules, turn_total=600, dice=3, score=9500)["bust_probability"] == 1.0


# --- needs and free rerolls ----------------------------------------------------------------


def test_a_need_past_what_the_advisor_values_is_refused_at_once() -> None:
    """A typo's need (a quick score of 10**19 in the log) would have the tables fill all
    memory; the biggest need allowed is still valued."""
    for need in (strategy.MAX_NEED + 50, 10**20):
        with pytest.raises(ParseError, match="at most 100,000"):
            strategy.chance_to_make(FARKLE, need)
        with pytest.raises(ParseError, match="at most 100,000"):
            advise_state(FARKLE, turn_total=0, dice=6, need=need)
    assert 0.0 < strategy.chance_to_make(load_rules("hot-dice"), strategy.MAX_NEED) < 0.01


def test_a_need_of_the_wrong_type_is_one_clear_error() -> None:
    for need in (100.0, "100", True):
        with pytest.raises(ParseError) as refused:
            strategy.chance_to_make(FARKLE, need)  # type: ignore[arg-type]
        assert (
            str(refused.value) == f"points needed must be a positive multiple of 50, not {need!r}"
        )


def test_free_rerolls_may_be_taken_or_banked() -> None:
    rules = load_rules("minnesota+hard-six")
    solution = solve(rules)
    hot = ("hot",)
    after_hot = [solution.arrive_value((0, None), t) for t in (900, 850)]
    assert solution.after[hot][18] == after_hot[0]
    expected = (sum(after_hot) + 800) / 6  # a 6 is rolled again, or the 800 banked
    assert solution.roll_value((1, strategy._NOTHING_HELD), 800) == pytest.approx(expected)
    off_board = solve(load_rules("minnesota+the-420"), on_board=False)
    value = off_board.roll_value((1, strategy._NOTHING_HELD), 400)
    others = [off_board.arrive_value((0, None), t) for t in (500, 450)]
    assert value == pytest.approx(sum(others) / 5)  # below the entry: the 2 must be rolled


# --- the command line ----------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    parser = argparse.ArgumentParser(prog="hotdice")
    cli_strategy.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    assert args.handler(args) == 0
    return capsys.readouterr().out


def test_cli_strategy_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(capsys, "strategy", "--rules", "farkle", "--json"))
    assert data["bank_thresholds"]["5"] == 2800
    assert "6 dice in hand: 16,800" in _run(capsys, "strategy", "--rules", "farkle")


def test_a_summary_says_how_far_it_looked_and_agrees_with_the_advice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`strategy --rules farkle --target 1000` said "5 dice in hand: always roll" (`null`),
    looking no further than the target, while `advise` at 5,000 with five dice banks: a
    turn runs on past the target. The thresholds are looked for to 20,000 (the target if
    further), and where rolling is best all the way there the summary says so, not
    "always"; under an exact finish no further than the target, past which a total busts,
    and where the first to the target wins, short of it (a bank there wins the game)."""
    data = json.loads(_run(capsys, "strategy", "--rules", "farkle", "--target", "1000", "--json"))
    assert data["bank_thresholds"]["5"] == 2800 and data["bank_thresholds_up_to"] == 20_000
    for total, said in ((2800, "bank"), (2750, "roll"), (5000, "bank")):
        advice = advise_state(load_rules("farkle", target=1000), turn_total=total, dice=5)
        assert advice["advice"] == said, total
    text = _run(capsys, "strategy", "--rules", "zilch")
    assert "6 dice in hand: roll at every total to 20,000" in text
    assert "after 1 bust in a row: 1: 300," in text and "6: roll to 20,000" in text
    assert "always" not in text
    far = json.loads(_run(capsys, "strategy", "--rules", "farkle", "--target", "50000", "--json"))
    assert far["bank_thresholds_up_to"] == 50_000
    exact = json.loads(_run(capsys, "strategy", "--rules", "exact-10000", "--json"))
    assert exact["bank_thresholds_up_to"] == 10_000
    first = _run(capsys, "strategy", "--rules", "farke")  # (at 10,000 a bank wins the game)
    assert "6 dice in hand: roll at every total to 9,950" in first


def test_cli_strategy_under_an_exact_finish_says_the_score_it_plays_from(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Under exact-10000 the summary's thresholds hold at a banked score of 0 only: the
    summary says so, and nearer the target the six-dice threshold falls by as much."""
    exact = load_rules("exact-10000")
    data = json.loads(_run(capsys, "strategy", "--rules", "exact-10000", "--json"))
    assert data["exact_target"] == 10_000
    six = data["bank_thresholds"]["6"]
    assert bank_thresholds(exact, score=5000)[6] == six - 5000
    assert "for a banked score of 0" in _run(capsys, "strategy", "--rules", "exact-10000")
    assert "exact_target" not in json.loads(_run(capsys, "strategy", "--rules", "farkle", "--json"))
    assert "banked score" not in _run(capsys, "strategy", "--rules", "farkle")


def test_cli_advise(capsys: pytest.CaptureFixture[str]) -> None:
    assert "BANK" in _run(
        capsys, "advise", "--rules", "farkle", "--turn-total", "1000", "--dice", "2"
    )
    data = json.loads(
        _run(
            capsys, "advise", "--rules", "farkle", "--roll", "1", "4", "2", "4", "4", "5", "--json"
        )
    )
    assert data["options"][0]["points"] == 550
    text = _run(
        capsys,
        "advise",
        "--rules",
        "minnesota",
        "--turn-total",
        "650",
        "--dice",
        "4",
        "--score",
        "0",
    )
    assert "not allowed" in text


def test_hotdice_main_runs_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["strategy", "--rules", "zilch", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["long_run_average"] == pytest.approx(
        620.855, abs=5e-4
    )
    assert main(["advise", "--rules", "farkle", "--dice", "9"]) == 2
    assert "hotdice: error:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hot-dice", "--roll", "4", "--held-sets", "4", "--turn-total", "0"], "turn total of 0"),
        (["farkle", "--held-sets", "4", "--turn-total", "300", "--dice", "3"], "no held sets"),
        (["farkle", "--kept", "1", "--turn-total", "100", "--dice", "5"], "kept dice"),
    ],
)
def test_cli_refuses_held_dice_the_rules_or_total_cannot_have(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    from companion.cli import main

    assert main(["advise", "--rules", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hotdice: error:") and message in err


def test_cli_reads_rule_files_and_held_dice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = tmp_path / "our-table.toml"
    table.write_text('base = "farkle"\nmin_bank = 350\n', encoding="utf-8")
    data = json.loads(
        _run(
            capsys, "advise", "--rules", str(table), "--turn-total", "300", "--dice", "2", "--json"
        )
    )
    assert data["advice"] == "roll" and not data["can_bank"]
    data = json.loads(
        _run(
            capsys,
            "advise",
            "--rules",
            "ten-thousand+progressive",
            "--turn-total",
            "300",
            "--kept",
            "1",
            "1",
            "--roll",
            "1",
            "3",
            "4",
            "6",
            "--json",
        )
    )
    assert data["options"][0]["points"] == 800
    text = _run(
        capsys,
        "advise",
        "--rules",
        "hot-dice",
        "--turn-total",
        "550",
        "--held-sets",
        "4",
        "--roll",
        "4",
    )
    assert "1,100, hot dice" in text


def test_an_exact_target_far_off_is_solved_as_none_and_agrees() -> None:
    # a game to a million: at EXACT_FAR from the target the turn is solved over every total
    # up to it; a step further, as without a target; the values agree
    rules = load_rules("exact-10000", target=1_000_000)
    near = rules.target - strategy.EXACT_FAR
    exact = advise_state(rules, turn_total=1500, dice=2, score=near)
    far = advise_state(rules, turn_total=1500, dice=2, score=near - UNIT)
    assert solve(rules, score=near).objective.limit == strategy.EXACT_FAR
    assert solve(rules, score=near - UNIT).objective.limit is None
    assert exact["expected_if_roll"] == pytest.approx(far["expected_if_roll"], abs=1e-9)
    fresh = [advise_state(rules, turn_total=0, dice=6, score=s) for s in (near, near - UNIT)]
    assert fresh[0]["expected_if_roll"] == pytest.approx(fresh[1]["expected_if_roll"], abs=1e-9)


def test_a_turn_total_past_the_tables_is_solved_not_extrapolated() -> None:
    # farkle, two dice at 30,000 (hot-dice doublings reach such totals in play): any keep
    # is then banked, so rolling on is worth the 20 scoring rolls in 36 at 30,000 plus
    # their points (1800 / 36 on average), and 16 in 36 bust, as at any total
    rules = load_rules("farkle")
    far = advise_state(rules, turn_total=30_000, dice=2)
    assert far["expected_if_roll"] == pytest.approx(20 / 36 * 30_000 + 50, abs=1e-6)
    assert far["bust_probability"] == pytest.approx(16 / 36)
    assert advise_state(rules, turn_total=19_000, dice=2)["bust_probability"] == pytest.approx(
        16 / 36
    )
    # (the solution the web and the game coach keep is still the plain one below CAP)
    assert strategy.solve(rules).top * 50 == strategy.CAP
    # a roll's keeps at such a total are valued from solved tables too: keeping both (hot
    # dice) and banking 30,150 beats rolling six on (2.3% bust: 0.977 x 30,150 + ~400)
    ranked = advise_roll(rules, [1, 5], turn_total=30_000)["options"]
    assert (ranked[0]["keep"], ranked[0]["then"], ranked[0]["expected"]) == ([1, 5], "bank", 30_150)
    assert (ranked[1]["keep"], ranked[1]["then"], ranked[1]["expected"]) == ([1], "bank", 30_100)


@pytest.mark.parametrize("name", ["hot-dice", "farkle", "zilch", "farkle+progressive"])
def test_rolling_on_past_the_tables_is_what_tables_solved_that_far_say(name: str) -> None:
    """Past CAP one roll is looked ahead from where each keep leads (valued by the
    asymptotics); solved with a cap eight times as far, every state agrees."""
    from companion.strategy_dp import solve_turn

    near = strategy.solve(load_rules(name))
    far = solve_turn(near.model, replace(near.objective, cap=8 * strategy.CAP))
    for key in near.model.classes:
        for total in (30_000, 60_000, 100_000):
            assert near.roll_value(key, total) == pytest.approx(far.roll_value(key, total))
            assert near.bust_probability(key, total) == pytest.approx(
                far.bust_probability(key, total)
            )


@pytest.mark.parametrize("name", ["farkle", "hot-dice", "minnesota+the-420", "ten-thousand+amish"])
def test_thresholds_past_the_tables_are_what_every_total_asked_says(name: str) -> None:
    """Past CAP each total is a roll looked ahead, so the scans bisect the totals there
    (banking best on one run of them, a takeover worth it from one total on); a game to
    25,000 asked at every total gives the same thresholds and ranges."""
    rules = load_rules(name, target=25_000)
    solution = strategy.solve(rules)
    totals = range(50, rules.target + 1, 50)
    for dice, threshold in strategy.bank_thresholds(rules).items():
        key = strategy.state_at(rules, dice)
        banked = [t for t in totals if solution.can_bank(t) and solution.roll_value(key, t) <= t]
        run = [t for t in banked if set(range(t, rules.target + 1, 50)) <= set(banked)]
        expected = (
            None if dice == rules.dice and rules.hot_dice_must_roll else min(run, default=None)
        )
        assert threshold == expected, (dice, threshold, expected)
    ranges = strategy.takeover_ranges(rules)
    if ranges is not None:
        fresh = solution.roll_value(solution.model.start, 0)
        for dice, spans in ranges.items():
            key = strategy.state_at(rules, dice)
            worth = [t for t in totals if solution.taker_roll_value(key, t) >= fresh]
            assert [t for lo, hi in spans for t in range(lo, hi + 1, 50)] == worth


# --- from the session-30 mutation review: each fails on a plausible bug the others missed


def test_the_420_rerolls_a_2_only_at_exactly_400() -> None:
    rules = load_rules("minnesota+the-420")
    assert bust_fraction(rules, 1) == Fraction(4, 6)  # a 2 is a bust mid-turn ...
    assert advise_state(rules, turn_total=450, dice=1)["bust_probability"] == pytest.approx(4 / 6)
    # ... but at exactly 400 it is rolled again: 3 busting faces of 5
    assert advise_state(rules, turn_total=400, dice=1)["bust_probability"] == pytest.approx(3 / 5)


def test_a_need_must_be_a_positive_multiple_of_50() -> None:
    for need in (0, -50, 75):
        with pytest.raises(ParseError, match="positive multiple of 50"):
            strategy.chance_to_make(FARKLE, need)
        with pytest.raises(ParseError, match="positive multiple of 50"):
            advise_state(FARKLE, turn_total=0, dice=6, need=need)


@pytest.mark.parametrize(
    ("spec", "score", "total", "dice"),
    [
        ("exact-10000", 8000, 950, 6),  # (a 5 kept for 1,000 beats a 1 for 1,050 here)
        ("exact-10000", 9000, 300, 4),
        ("farkle", 0, 350, 6),
        ("ten-thousand", 0, 600, 3),
    ],
)
def test_rolling_is_worth_the_mean_of_each_rolls_best_keep(
    spec: str, score: int, total: int, dice: int
) -> None:
    """The turn model (`advise_state`) and the keeps of each roll (`advise_roll`, from the
    engine's full list of keeps) agree: under an exact finish fewer points can be worth
    more, and the model pruned such keeps away (found by a review: 1,147.84 for 1,148.10)."""
    rules = load_rules(spec)
    rolled = advise_state(rules, turn_total=total, dice=dice, score=score)["expected_if_roll"]
    best = 0.0
    for roll, weight in distinct_rolls(dice):
        options = advise_roll(rules, roll, turn_total=total, score=score)["options"]
        best += weight * (options[0]["expected"] if options else 0.0)
    assert rolled == pytest.approx(best / 6**dice, abs=1e-9)


def test_the_bust_chance_of_a_state_counts_free_rerolls_as_rolled_again() -> None:
    rules = load_rules("minnesota+hard-six")
    advice = advise_state(rules, turn_total=300, dice=1)
    assert advice["bust_probability"] == pytest.approx(float(bust_fraction(rules, 1)))
    assert advice["bust_probability"] == pytest.approx(3 / 5)


def test_a_forced_keep_that_hits_the_exact_target_is_no_bust() -> None:
    # 9,000 banked, 950 in the turn, one die: a 5 makes 10,000 exactly, a 1 passes it
    advice = advise_state(load_rules("exact-10000"), turn_total=950, dice=1, score=9000)
    assert advice["bust_probability"] == pytest.approx(5 / 6)
    assert advice["expected_if_roll"] == pytest.approx(1000 / 6)


def test_cli_strategy_text_gives_entry_streaks_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The summary's words: the turn value before the entry threshold, and a row per bust
    streak (not the 0-bust row again, "1 bust" singular)."""
    code, out, _ = run(capsys, "strategy", "--rules", "minnesota")
    assert code == 0 and "\n    (not yet on the board: 232.83)\n" in out
    code, out, _ = run(capsys, "strategy", "--rules", "zilch")
    streaks = [line for line in out.splitlines() if line.startswith("    after ")]
    assert code == 0 and [s.split(":")[0] for s in streaks] == [
        "    after 1 bust in a row",
        "    after 2 busts in a row",
    ]


def test_cli_advise_honours_need_off_board_and_held_kept_dice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--need, --off-board and --kept each change the advice; kept dice at a turn total of
    0 are refused like held sets."""
    code, out, _ = run(
        capsys, *"advise --rules farkle --turn-total 300 --dice 2 --need 1000".split()
    )
    assert code == 0 and out.startswith(
        "farkle: turn total 300 with 2 dice in hand (playing to make 1,000 this turn): ROLL\n"
    )
    assert "  bank now: 300, 0.00% chance\n" in out
    argv = "advise --rules farkle --turn-total 300 --roll 1 3 --need 1000"
    code, out, _ = run(capsys, *argv.split())
    assert "keeps ranked by chance to make 1,000 this turn" in out and out.endswith("%\n")
    argv = "advise --rules minnesota --turn-total 650 --dice 4 --off-board"
    code, out, _ = run(capsys, *argv.split())
    assert code == 0 and "bank now: not allowed (not on the board yet" in out
    code, _, err = run(
        capsys, "advise", "--rules", "ten-thousand+progressive", "--kept", "1", "--dice", "5"
    )
    assert code == 2 and "not with a turn total of 0" in err


def test_fewer_dice_than_the_rules_roll_at_a_turn_total_of_0_is_warned_of(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Dice in hand short of a full roll were kept for points, so a turn total of 0 is
    a forgotten `--turn-total`: `advise --dice 2` had said ROLL (nothing to bank) without
    a word (a review). A full roll at 0 is the turn's start, and is not warned of."""
    warning = "which 2 dice in hand cannot have (the dice kept this turn scored: give --turn-total)"
    for what in (["--dice", "2"], ["--roll", "1", "5"]):
        code, out, err = run(capsys, "advise", "--rules", "farkle", *what)
        assert (
            code == 0
            and out
            and err == f"hotdice: warning: advised at a turn total of 0, {warning}\n"
        )
    for argv in ("--dice 6", "--roll 1 5 --turn-total 300", "--dice 2 --turn-total 250"):
        code, _, err = run(capsys, "advise", "--rules", "farkle", *argv.split())
        assert code == 0 and err == ""


def test_progressive_thresholds_with_nothing_kept_are_said_to_be_a_takers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Under progressive, every player with fewer dice than the rules roll has kept some
    since the pick-up, but a taker: the summary's thresholds (nothing kept) said so not,
    and `advise --dice 5 --turn-total 3500` banked where a kept 5 rolls on (a review)."""
    text = _run(capsys, "strategy", "--rules", "ten-thousand+progressive")
    assert "for dice with nothing kept since they were\n   picked up, a taker's" in text
    assert "a taker's" not in _run(capsys, "strategy", "--rules", "ten-thousand")
    argv = "advise --rules ten-thousand+progressive --turn-total 3500 --dice 5"
    code, out, err = run(capsys, *argv.split())
    assert code == 0 and ": BANK" in out.splitlines()[0]
    assert err == (
        "hotdice: warning: no --kept: advised as a taker's 5 dice, with nothing kept since "
        "they were picked up (give the dice kept this turn)\n"
    )
    code, out, err = run(capsys, *argv.split(), "--kept", "5")
    assert code == 0 and ": ROLL" in out.splitlines()[0] and err == ""
    for fresh in ("--dice 6", "--roll 1 2 3 4 6 6"):  # (six dice: nothing kept is no taker's)
        code, _, err = run(
            capsys,
            *"advise --rules ten-thousand+progressive --turn-total 300".split(),
            *fresh.split(),
        )
        assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("held", "error"),
    [
        ("4 4 --turn-total 800", "held set 4 named twice: a face is held once"),
        ("4 --turn-total 350", "a turn total of 350 is less than the 400 its held sets'"),
        ("1 --turn-total 950", "a turn total of 950 is less than the 1,000 its held sets'"),
        ("7 7 --turn-total 800", "a held set is a face from 1 to 6, not [7]"),
    ],
)
def test_cli_advise_refuses_held_sets_no_turn_can_have(
    capsys: pytest.CaptureFixture[str], held: str, error: str
) -> None:
    """A face held twice was merged into one without a word, and a turn total under the
    held triples' own points was advised on (found by a review)."""
    code, out, err = run(capsys, *f"advise --rules hot-dice --dice 3 --held-sets {held}".split())
    assert (code, out) == (2, "") and err.startswith(f"hotdice: error: {error}")
    fine = "advise --rules hot-dice --dice 3 --held-sets 4 --turn-total 400".split()
    assert run(capsys, *fine)[0] == 0


@pytest.mark.parametrize("what", ["--roll 2", "--dice 1", "--roll 2 2", "--dice 2"])
def test_cli_advise_refuses_held_sets_without_points_for_the_dice_kept_beside_them(
    capsys: pytest.CaptureFixture[str], what: str
) -> None:
    """`--roll 2 --turn-total 200 --held-sets 2` under hot-dice was advised on (a review),
    and so was `--dice 1`: with one die left the triple's three dice had two more kept
    beside them since the pick-up, each worth 50 at least, so 200 is no such turn's total.
    The roll's and the dice's ways are checked alike."""
    in_hand = len(what.split()) - 1 if what.startswith("--roll") else int(what.split()[1])
    others = 6 - in_hand - 3
    least = 200 + 50 * others
    argv = f"advise --rules hot-dice --held-sets 2 {what}".split()
    code, out, err = run(capsys, *argv, "--turn-total", "200")
    assert (code, out) == (2, "") and err.startswith(
        f"hotdice: error: a turn total of 200 is less than the {least} scored at least by its "
        f"held sets' triples and the {others} other di"
    )
    code, _, err = run(capsys, *argv, "--turn-total", str(least))
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("kept", "points"), [("2 2 2", 200), ("1 1", 200), ("1 1 1 1", 2000), ("1 5 5 5", 600)]
)
def test_cli_advise_refuses_kept_dice_no_turn_can_have(
    capsys: pytest.CaptureFixture[str], kept: str, points: int
) -> None:
    """Under `progressive`, kept dice worth more than the turn total were advised on, as
    held sets were (found by a review): three kept 2s are 200 points however gathered."""
    argv = f"advise --rules ten-thousand+progressive --dice 2 --kept {kept} --turn-total"
    code, out, err = run(capsys, *argv.split(), str(points - 50))
    error = f"a turn total of {points - 50:,} is less than the {points:,} its kept dice scored"
    assert (code, out, err) == (2, "", f"hotdice: error: {error}\n")
    assert run(capsys, *argv.split(), str(points))[0] == 0


def test_cli_advise_negative_turn_total_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """A negative turn total was refused as "less than the 0 its held sets' triples
    scored"; it is refused for what it is."""
    code, _, err = run(capsys, *"advise --rules farkle --dice 3 --turn-total -50".split())
    assert code == 2
    assert err == "hotdice: error: turn total must be a multiple of 50 and at least 0, not -50\n"


def test_cli_advise_roll_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Keeps are numbered from 1, hot dice say so, a bust says what it lost only when it
    lost something, and a free reroll says why before the advice."""
    code, out, _ = run(
        capsys, "advise", "--rules", "farkle", "--roll", "1", "1", "1", "5", "5", "5"
    )
    lines = out.splitlines()
    assert code == 0 and lines[1].startswith("   1. keep 1 1 1 5 5 5 +2,500 -> 2,500, hot dice, ")
    code, out, _ = run(
        capsys, "advise", "--rules", "farkle", "--roll", "1", "4", "4", "4", "4", "5"
    )
    ranked = out.splitlines()[1:]  # (eleven keeps: the ranks padded, the keeps in one column)
    assert len(ranked) == 11 and ranked[0].startswith("   1. keep ")
    assert ranked[-1].startswith("  11. keep ") and {line.index("keep") for line in ranked} == {6}
    code, out, _ = run(capsys, "advise", "--rules", "farkle", "--roll", "2", "3")
    assert out == "farkle: roll 2 3 at turn total 0: bust (nothing to keep)\n"
    argv = "advise --rules minnesota+the-420 --turn-total 400 --roll 2 --score 2000"
    code, out, _ = run(capsys, *argv.split())
    assert code == 0 and out.startswith(
        "minnesota+the-420: roll 2 at turn total 400: the 420: roll the 2 again\n"
        "minnesota+the-420: turn total 400 with 1 die in hand: BANK\n"
    )


def test_strategy_and_advice_for_an_unwinnable_game_warn_of_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An exact target under the least first bank (`exact-10000 --target 500`, or a rule
    file saying so) was solved and advised on without a word: a warning on stderr says no
    one could win, and the answer still comes (a recorded game must still replay)."""
    table = tmp_path / "short.toml"
    table.write_text('base = "exact-10000"\ntarget = 500\n')
    warning = (
        "hotdice: warning: no one could win: the target 500 must be hit exactly, but a "
        "first bank needs at least 1,000 (the entry threshold); raise the target or lower "
        "the entry threshold\n"
    )
    for rules in (["--rules", "exact-10000", "--target", "500"], ["--rules", str(table)]):
        code, out, err = run(capsys, "strategy", *rules)
        assert code == 0 and "optimal play of a turn" in out and err == warning
        code, out, err = run(capsys, "advise", *rules, "--dice", "6")
        assert code == 0 and ": ROLL" in out and err == warning
    code, _, err = run(capsys, "advise", "--rules", "exact-10000", "--dice", "6")
    assert code == 0 and err == ""


def test_advice_and_strategy_json_is_one_line_and_says_whether_on_the_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`advise --json` (and `strategy --json`) were printed over many lines, where every
    other --json is one; and `advise --roll --json` had no `on_board`, so `--score 0` (off
    the board) and no `--score` could not be told apart, as `--dice` lets them be."""
    for argv, board in (([], True), (["--score", "0"], False), (["--score", "500"], True)):
        for what in (["--roll", "1", "5"], ["--dice", "2", "--turn-total", "150"]):
            code, out, _ = run(capsys, "advise", "--rules", "farkle", "--json", *what, *argv)
            assert code == 0 and out.count("\n") == 1 and json.loads(out)["on_board"] is board
    code, out, _ = run(capsys, "strategy", "--rules", "farkle", "--json")
    assert code == 0 and out.count("\n") == 1 and json.loads(out)["rules"] == "farkle"
