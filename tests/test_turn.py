"""The turn state machine: every rule that reaches across rolls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalMove, ParseError
from companion.rules import load_rules
from companion.turn import Phase, Turn
from strategies import rule_sets


def play(rules: str, *steps: str, score: int = 0) -> Turn:
    turn = Turn.start(load_rules(rules), score=score)
    for step in steps:
        roll, _, keep = step.partition(">")
        turn = turn.roll(tuple(int(c) for c in roll))
        if keep:
            turn = turn.keep(tuple(int(c) for c in keep))
    return turn


def test_hot_dice_seed_turn_doubles_the_total() -> None:
    turn = play("hot-dice", "142445>14445", "4>4")
    assert (turn.total, turn.hot_dice, turn.dice_left) == (1100, True, 6)
    assert [s.points for s in turn.steps] == [550, 550]


def test_hot_dice_seed_other_endings() -> None:
    assert play("hot-dice", "142445>14445", "1>1").total == 650
    assert play("hot-dice", "142445>14445", "5>5").total == 600
    assert play("hot-dice", "142445>14445", "3").phase is Phase.BUST


def test_double_turn_set_is_gone_after_hot_dice() -> None:
    turn = play("hot-dice", "444115>444115")
    assert (turn.total, turn.hot_dice, turn.sets) == (650, True, frozenset())
    turn = turn.roll((4, 1, 6, 6, 2, 3))
    with pytest.raises(IllegalMove, match="does not score"):
        turn.keep((1, 4))
    assert turn.keep((1,)).total == 750


def test_double_turn_set_doubles_within_the_next_roll_after_other_groups() -> None:
    turn = play("hot-dice", "444236>444", "412>41")
    assert turn.total == (400 + 100) * 2


def test_dice_10000_seed_turns() -> None:
    turn = play("dice-10000", "15526>155", "14>1")
    assert turn.total == 300 and turn.can_bank
    bust = play("dice-10000", "22223>2222", "2")
    assert bust.phase is Phase.BUST and bust.total == 0
    # nothing is left to roll, in the turn's JSON as in its last step
    listing = play("farkle", "123456>1", "23446").to_json()
    assert listing["bust"] and listing["dice_left"] == listing["steps"][-1]["dice_left"] == 0
    exact = play("exact-10000", "111234", score=9500).to_json()
    assert exact["dice_left"] == exact["steps"][-1]["dice_left"] == 0


def test_minnesota_seed_turn_must_roll_after_hot_dice() -> None:
    turn = play("minnesota", "11234>1", "2456>5", "444>444", score=2000)
    assert turn.total == 550 and turn.hot_dice and turn.must_roll
    assert not turn.can_bank and "must be rolled again" in (turn.bank_refusal() or "")
    turn = turn.roll((1, 3, 4, 4, 6)).keep((1,))
    assert turn.total == 650 and turn.can_bank and turn.dice_left == 4


def test_entry_threshold_and_min_bank() -> None:
    turn = play("hot-dice", "142445>14445")
    assert not turn.can_bank and "needs 1,000" in (turn.bank_refusal() or "")
    assert play("hot-dice", "142445>14445", score=500).can_bank
    zilch = play("zilch", "123466>1", score=3000)
    assert "at least 300" in (zilch.bank_refusal() or "")
    with pytest.raises(IllegalMove, match="cannot bank"):
        zilch.bank()


def test_the_420_and_hard_six_free_rerolls() -> None:
    turn = play("minnesota+the-420", "33316>3331", "2", score=2000)
    assert (turn.phase, turn.total, turn.dice_left) == (Phase.ROLL, 400, 1)
    assert turn.steps[-1].note.startswith("the 420")
    assert turn.roll((5,)).keep((5,)).total == 450
    assert play("minnesota", "33316>3331", "2").phase is Phase.BUST
    assert play("minnesota+the-420", "44416>4441", "2").phase is Phase.BUST  # 500, not 400
    assert play("minnesota+the-420", "33326>333", "22").phase is Phase.BUST  # two dice
    six = play("minnesota+hard-six", "11116>1111", "6", score=2000)
    assert six.phase is Phase.ROLL and six.steps[-1].note.startswith("the hard six")
    assert play("minnesota+hard-six", "11116>1111", "6", "5>5").total == 2050
    assert play("minnesota", "11116>1111", "6").phase is Phase.BUST


def test_exact_forced_keep_busts_above_target() -> None:
    turn = play("exact-10000", "111234", score=9500)
    assert turn.phase is Phase.BUST and "would pass 10,000" in turn.bust_reason
    ok = play("exact-10000", "523466>5", score=9500)
    assert ok.total == 50 and ok.can_bank
    exact = play("exact-10000", "155234>155", score=9800)
    assert exact.total == 200 and exact.can_bank


def test_progressive_sets_grow_across_rolls() -> None:
    turn = play("ten-thousand+progressive", "112346>11", "1234", score=0)
    assert turn.phase is Phase.KEEP
    turn = turn.keep((1,))
    assert turn.total == 1000  # two kept 1s plus a third make three of a kind
    turn = play("ten-thousand+progressive", "111234>111", "113>11")
    assert turn.total == 4000
    assert play("ten-thousand", "111234>111", "113>11").total == 1200


def test_zilch_scoreless_six_dice_is_500_and_hot_dice() -> None:
    turn = play("zilch", "223466>223466")
    assert turn.total == 500 and turn.hot_dice and turn.dice_left == 6


def test_instant_win_roll() -> None:
    turn = play("farke", "111111>111111")
    assert turn.phase is Phase.WON


@pytest.mark.parametrize(
    ("steps", "error", "message"),
    [
        (["1424456"], ParseError, "at most 6"),
        (["142447"], ParseError, "1 to 6"),
        (["142445>7"], ParseError, "1 to 6"),
        (["14244"], IllegalMove, "holds 6 dice"),
        (["142445>12"], IllegalMove, "does not score"),
        (["142445>66"], IllegalMove, "not in the roll"),
        (["142445", "142445"], IllegalMove, "keep some dice"),
        (["234466", "23"], IllegalMove, "turn is over"),
    ],
)
def test_illegal_actions(steps: list[str], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        play("hot-dice", *steps)


def test_keep_without_roll_and_bank_before_roll() -> None:
    turn = Turn.start(load_rules("farkle"))
    with pytest.raises(IllegalMove, match="no roll"):
        turn.keep((1,))
    with pytest.raises(IllegalMove, match="roll and keep"):
        turn.bank()


@settings(max_examples=150, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_random_turns_keep_their_invariants(rules, data) -> None:  # type: ignore[no-untyped-def]
    turn = Turn.start(rules, score=data.draw(st.sampled_from([0, 1000, 5000])))
    for _ in range(8):
        if turn.over:
            break
        before = turn
        snapshot = (before.phase, before.total, before.dice_left, len(before.steps))
        roll = tuple(
            data.draw(st.lists(st.integers(1, 6), min_size=turn.dice_left, max_size=turn.dice_left))
        )
        turn = turn.roll(roll)
        if turn.phase is Phase.KEEP:
            options = turn.options()
            assert options, "a roll that is not a bust has a keep"
            keep = data.draw(st.sampled_from(options))
            turn = turn.keep(keep.dice)
            assert turn.total == before.total + keep.points
            assert turn.total > before.total
            assert 1 <= turn.dice_left <= rules.dice
        elif turn.phase is Phase.BUST:
            assert turn.total == 0 and not turn.can_bank
        assert (before.phase, before.total, before.dice_left, len(before.steps)) == snapshot


def test_progressive_combination_dice_do_not_join_a_set() -> None:
    rules = "ten-thousand+progressive+extra-combos"
    assert play(rules, "222113>22211", "1>1").total == 450 + 100
    assert play(rules, "222334>22233", "3").phase is Phase.BUST
