"""The advice for a situation: bank or roll, keeps ranked, engine turns, refusals."""

from __future__ import annotations

import json
from math import nan
from typing import Any

import pytest

from companion.advice import advise_roll, advise_state, advise_turn, state_key
from companion.errors import ParseError
from companion.rules import load_rules
from companion.scoring import distinct_rolls
from companion.strategy import chance_to_make, state_at, turn_at
from companion.turn import Turn

FARKLE = load_rules("farkle")
ZILCH = load_rules("zilch")
PROGRESSIVE = load_rules("ten-thousand+progressive")


def test_need_plays_for_the_chance_to_make_a_total() -> None:
    out = advise_roll(FARKLE, [1, 4, 2, 4, 4, 5], need=600)
    best = out["options"][0]
    # two dice at 500 need +100: a 1 (11/36), 5-5 (1/36), or one 5 then a 1 or 5 (8/36 x 1/3)
    assert best["keep"] == [1, 4, 4, 4] and best["chance"] == pytest.approx(11 / 27)
    advice = advise_state(FARKLE, turn_total=600, dice=2, need=600)
    assert advice["advice"] == "bank" and advice["chance_if_bank"] == 1.0
    assert advise_state(FARKLE, turn_total=550, dice=2, need=600)["advice"] == "roll"
    assert chance_to_make(FARKLE, 50) == pytest.approx(1 - 1080 / 46656)
    assert chance_to_make(FARKLE, 1000) > chance_to_make(FARKLE, 1500)


def test_a_turn_total_or_score_past_any_game_is_refused() -> None:
    """10**29 was advised, with a float's wrong digits printed."""
    for turn_total, score in ((10**29, 0), (0, 10**29)):
        with pytest.raises(ParseError, match="at most 1,000,000"):
            advise_state(FARKLE, dice=2, turn_total=turn_total, score=score)


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ({"turn_total": "5"}, "turn total must be a whole number, not '5'"),
        ({"turn_total": 50.0}, "turn total must be a whole number, not 50.0"),
        ({"turn_total": True}, "turn total must be a whole number, not True"),
        ({"dice": True}, "dice in hand must be 1 to 6, not True"),  # (had been 1 die)
        ({"turn_total": 0, "dice": 6.0}, "dice in hand must be 1 to 6, not 6.0"),
        ({"dice": "2"}, "dice in hand must be 1 to 6, not '2'"),
        ({"dice": 7}, "dice in hand must be 1 to 6, not 7"),
        ({"score": "abc"}, "score must be a whole number, not 'abc'"),
        ({"score": 33}, "score must be a multiple of 50 and at least 0, not 33"),
        ({"need": 100.0}, "points needed must be a positive multiple of 50, not 100.0"),
    ],
)
def test_a_situation_of_the_wrong_type_is_one_clear_error(
    situation: dict[str, object], message: str
) -> None:
    """Not a TypeError from deep in the solver, nor True taken as 1 die."""
    with pytest.raises(ParseError) as refused:
        advise_state(FARKLE, **{"turn_total": 50, "dice": 2, **situation})  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_advise_roll_ranks_every_keep() -> None:
    out = advise_roll(FARKLE, [1, 4, 2, 4, 4, 5])
    values = [o["expected"] for o in out["options"]]
    assert values == sorted(values, reverse=True)
    assert len(out["options"]) == 7
    assert out["options"][0]["keep"] == [1, 4, 4, 4, 5] and out["options"][0]["then"] == "bank"
    json.dumps(out)


def test_advise_roll_follows_the_held_set() -> None:
    out = advise_roll(load_rules("hot-dice"), [4], turn_total=550, sets=[4])
    assert out["options"][0]["turn_total"] == 1100 and out["options"][0]["hot_dice"]
    assert advise_roll(load_rules("hot-dice"), [4], turn_total=550)["bust"]


def test_advise_roll_free_reroll_and_bust() -> None:
    rules = load_rules("minnesota+the-420")
    assert advise_roll(rules, [2], turn_total=400)["reroll"]
    assert advise_roll(rules, [2], turn_total=450)["bust"]


def test_advise_turn_takes_engine_turns() -> None:
    turn = Turn.start(FARKLE, score=500).roll((1, 4, 2, 4, 4, 5))
    assert advise_turn(turn)["options"][0]["keep"] == [1, 4, 4, 4, 5]
    assert advise_turn(turn.keep((1,)))["advice"] == "roll"
    handed = turn.keep((1, 4, 4, 4, 5)).bank()
    rules = load_rules("dice-10000+amish")
    taken = (
        Turn.start(rules, score=500)
        .roll((1, 1, 5, 2, 3))
        .keep((1, 1))
        .bank()
        .handed_to(score=300, on_board=True)
    )
    advice = advise_turn(taken)
    assert (advice["advice"], advice["can_bank"], advice["expected_if_bank"]) == (
        "roll",
        False,
        None,
    )
    assert "roll and keep at least once" in advice["bank_refusal"]  # (a taker rolls first)
    same = advise_state(rules, turn_total=200, dice=3, score=300)  # the dice in hand alike
    assert advice["expected_if_roll"] == same["expected_if_roll"] and same["can_bank"]
    with pytest.raises(ParseError, match="the turn is over"):
        advise_turn(handed)


def test_hot_dice_must_be_rolled_in_minnesota() -> None:
    advice = advise_state(load_rules("minnesota"), turn_total=1500, dice=5)
    assert advice["advice"] == "roll" and not advice["can_bank"]


def test_bad_input_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        advise_state(FARKLE, turn_total=75, dice=2)
    with pytest.raises(ValueError):
        advise_state(FARKLE, turn_total=100, dice=7)
    with pytest.raises(ValueError):
        advise_state(ZILCH, turn_total=300, dice=2, busts_in_row=3)
    with pytest.raises(ValueError):
        advise_roll(FARKLE, [1, 7])


def test_past_the_exact_target_every_roll_busts_and_at_it_the_game_is_won() -> None:
    exact = load_rules("exact-10000")
    doomed = advise_state(exact, turn_total=1000, dice=3, score=9500)
    assert doomed["advice"] == "roll" and doomed["bust_probability"] == 1.0
    assert doomed["expected_if_roll"] == 0.0 and doomed["expected_if_bank"] is None
    assert doomed["bank_refusal"] == "10,500 would pass 10,000: this turn can only bust"
    # the engine agrees: any roll of those 3 dice busts
    turn = turn_at(exact, total=1000, dice=3, score=9500)
    assert all(turn.roll(r).phase.value == "bust" for r, _ in distinct_rolls(3))
    with pytest.raises(ParseError, match="already hit the exact target 10,000"):
        advise_state(exact, turn_total=0, dice=6, score=10_000)


def test_a_bust_roll_keeps_the_turn_total_it_lost() -> None:
    out = advise_roll(load_rules("farkle"), [2, 3], turn_total=300)
    assert out["bust"] and out["turn_total"] == 300


# --- from the session-30 mutation review: each fails on a plausible bug the others missed


def test_a_sure_thing_either_way_is_banked() -> None:
    # zilch's six dice cannot bust: with the need made, rolling on is as sure as banking
    advice = advise_state(ZILCH, turn_total=600, dice=6, need=600)
    assert (advice["chance_if_bank"], advice["chance_if_roll"]) == (1.0, 1.0)
    assert advice["advice"] == "bank"


def test_a_hot_dice_keep_that_must_be_rolled_is_valued_as_rolled_on() -> None:
    rules = load_rules("minnesota")
    best = advise_roll(rules, [1, 1, 5, 5, 5], turn_total=3000)["options"][0]
    assert best["keep"] == [1, 1, 5, 5, 5] and best["hot_dice"] and best["then"] == "roll"
    rolled_on = advise_state(rules, turn_total=3700, dice=5)
    assert not rolled_on["can_bank"]
    assert best["expected"] == pytest.approx(rolled_on["expected_if_roll"])
    assert best["expected"] < 3700


def test_a_taken_over_turn_builds_on_what_the_taker_kept() -> None:
    rules = load_rules("ten-thousand+amish+progressive")
    taken = (
        Turn.start(rules, score=500)
        .roll((1, 1, 2, 3, 4, 6))
        .keep((1, 1))
        .bank()
        .handed_to(score=300, on_board=True)
    )
    turn = taken.roll((5, 5, 5, 2)).keep((5, 5, 5))  # 700, a set of 5s, one die in hand
    assert state_key(turn) == state_at(rules, 1, kept=[5, 5, 5])
    same = advise_state(rules, turn_total=700, dice=1, score=300, kept=[5, 5, 5])
    assert advise_turn(turn)["expected_if_roll"] == pytest.approx(same["expected_if_roll"])


def test_a_turn_total_that_hits_the_exact_target_may_be_banked() -> None:
    advice = advise_state(load_rules("exact-10000"), turn_total=1000, dice=3, score=9000)
    assert advice["can_bank"] and advice["expected_if_bank"] == 1000.0
    assert advice["advice"] == "bank" and "bank_refusal" not in advice


def test_points_banked_off_the_board_are_refused() -> None:
    """Only a bank scores, and the first bank puts a player on the board: a review found
    `advise --score 1000 --off-board` answered as if 1,000 banked still needed the entry."""
    farke = load_rules("farke")
    for advise in (
        lambda: advise_state(farke, turn_total=100, dice=2, score=1000, on_board=False),
        lambda: advise_roll(farke, [1, 5, 2], turn_total=100, score=1000, on_board=False),
    ):
        with pytest.raises(ParseError, match="^a player with 1,000 banked is on the board"):
            advise()
    off = advise_state(farke, turn_total=100, dice=2, on_board=False)  # (a score of 0)
    assert off["can_bank"] is False and "not on the board" in off["bank_refusal"]
    # (on the board with 0: a strike penalty can take a player there)
    assert advise_state(farke, turn_total=100, dice=2, on_board=True)["can_bank"] is True


@pytest.mark.parametrize("preset", ["dice-10000", "farke"])
def test_a_bank_that_wins_a_first_to_target_game_is_advised(preset: str) -> None:
    """Played for points, the advice had said to roll on at 9,900 with 150 in hand, into a
    bust one time in four, where banking wins the game at once (a review)."""
    rules = load_rules(preset)
    state = advise_state(rules, turn_total=150, dice=3, score=9900)
    assert state["advice"] == "bank" and state["expected_if_roll"] > 150
    assert state["bank_wins"] == "banking reaches 10,000 and wins the game"
    short = advise_state(rules, turn_total=50, dice=3, score=9900)  # (9,950: not yet)
    assert short["advice"] == "roll" and "bank_wins" not in short
    roll = advise_roll(rules, [1, 5, 2, 3, 4, 6][: rules.dice], score=9900)["options"]
    winning = [o for o in roll if "bank_wins" in o]
    assert winning and roll[: len(winning)] == winning  # (ranked first, each then banked)
    assert all(o["then"] == "bank" and o["turn_total"] >= 100 for o in winning)
    assert all(o["turn_total"] + 9900 < 10_000 for o in roll[len(winning) :])
    # with 5150 bonus rolls still to come, points past the target may yet count
    bonus = advise_state(load_rules(f"{preset}+the-5150"), turn_total=150, dice=3, score=9900)
    assert "bank_wins" not in bonus


def test_a_bank_hitting_an_exact_target_is_said_to_win() -> None:
    """Under an exact finish, a keep to exactly 10,000 read "then bank: expect 300" and the
    call to bank no word that it wins, where first-to-target games say so (a review)."""
    rules = load_rules("exact-10000")
    state = advise_state(rules, turn_total=300, dice=2, score=9700)
    assert state["advice"] == "bank"
    assert state["bank_wins"] == (
        "banking hits exactly 10,000 and wins the game, and a roll can only bust"
    )
    assert "bank_wins" not in advise_state(rules, turn_total=250, dice=2, score=9700)
    options = advise_roll(rules, [1, 2, 3], turn_total=200, score=9700)["options"]
    assert [o["keep"] for o in options if "bank_wins" in o] == [[1]]


ODD: Any = 1.5  # (typed as anything: bad input on purpose)
NONE: Any = None


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: advise_state(ZILCH, turn_total=300, dice=2, busts_in_row=ODD), "whole number"),
        (lambda: advise_state(FARKLE, turn_total=300, dice=2, sets=NONE), "lists of faces"),
        (lambda: advise_state(FARKLE, turn_total=300, dice=2, sets=[ODD]), "a held set is a"),
        (lambda: advise_state(PROGRESSIVE, turn_total=300, dice=2, kept=[ODD]), "not 1.5"),
        (lambda: advise_roll(FARKLE, NONE), "not None"),
        (lambda: advise_state(FARKLE, turn_total=450, dice=2, need=500, tie=2.0), "0 to 1"),
        (lambda: advise_state(FARKLE, turn_total=450, dice=2, need=500, tie=nan), "0 to 1"),
    ],
)
def test_bad_input_from_python_is_a_one_line_value_error(call: Any, said: str) -> None:
    """As docs/strategy.md promises: these had been TypeErrors, or (a tie's chance of 2)
    advice given on them (a review)."""
    with pytest.raises(ValueError, match=said):
        call()


def test_a_roll_advised_says_whether_the_player_is_on_the_board() -> None:
    """As `advise_state` says it: a roll's advice had no `on_board`, so a player off the
    board (whose keeps are valued under the entry threshold) could not be told apart."""
    rules = load_rules("hot-dice")
    assert advise_roll(rules, [1, 5], turn_total=500, on_board=False)["on_board"] is False
    assert advise_roll(rules, [2, 3], turn_total=500)["on_board"] is True  # (a bust too)
