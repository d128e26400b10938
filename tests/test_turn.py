"""The turn state machine: every rule that reaches across rolls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalMove, ParseError
from companion.rules import Rules, load_rules
from companion.turn import MAX_TURN_TOTAL, Phase, Turn, banked_score_problem
from tests.strategies import rule_sets


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


def test_doublings_stop_before_a_total_no_longer_prints() -> None:
    # six 1s again and again: each doubles the total and adds; left alone the number grows
    # past what Python prints (4,300 digits) and a recorded game could no longer be read
    turn = play("hot-dice")
    while turn.total <= MAX_TURN_TOTAL // 2:
        turn = turn.roll([1] * 6).keep([1] * 6)
    assert turn.total <= MAX_TURN_TOTAL  # (eightfold a roll: 13 rolls, 6.3e14)
    again = turn.roll([1] * 6)
    assert (1, 1, 1, 1, 1, 1) not in [k.dice for k in again.options()]  # (not offered)
    with pytest.raises(IllegalMove, match=r"is past 1,000,000,000,000,000.*check the dice"):
        again.keep([1] * 6)
    assert again.keep([1]).total == turn.total + 100  # (a single 1: under the cap)
    # where every keep would pass it, the roll itself is refused, and the turn can still
    # bank: a 2 rolled to a held set of 2s doubles the total
    held = turn.roll([2, 2, 2, 3, 4, 6]).keep([2, 2, 2])
    with pytest.raises(IllegalMove, match=r"is past 1,000,000,000,000,000.*check the dice"):
        held.roll([2, 3, 4])
    assert held.roll([5, 3, 4]).keep([5]).total == held.total + 50 and held.can_bank


def test_an_exact_finish_busts_a_roll_past_the_target_before_any_cap() -> None:
    # exact-10000's forced keep of every scoring die: a roll whose full keep would pass
    # the target busts, whatever else the turn's cap would say of it
    rules = {"base": "exact-10000", "multiples": "double-turn"}
    turn = Turn.start(load_rules(rules, target=1_000_000), score=0, on_board=True)
    for _ in range(3):
        turn = turn.roll([1, 1, 1, 1, 1, 1]).keep([1, 1, 1, 1, 1, 1])
    assert turn.total == 584_000
    busted = turn.roll([1, 1, 1, 1, 1, 1])
    assert busted.phase is Phase.BUST and "would pass 1,000,000" in busted.bust_reason


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
    # the die rolled again cannot be kept, and the refusal says why
    with pytest.raises(IllegalMove, match=r"the 2 scores nothing and is rolled again \(the 420"):
        turn.keep((2,))
    with pytest.raises(IllegalMove, match="the 6 scores nothing and is rolled again"):
        six.keep((6,))


def test_exact_forced_keep_busts_above_target() -> None:
    turn = play("exact-10000", "111234", score=9500)
    assert turn.phase is Phase.BUST and "would pass 10,000" in turn.bust_reason
    ok = play("exact-10000", "523466>5", score=9500)
    assert ok.total == 50 and ok.can_bank
    exact = play("exact-10000", "155234>155", score=9800)
    assert exact.total == 200 and exact.can_bank


def test_the_forced_keep_where_no_keep_holds_every_scoring_die() -> None:
    """README's decision: 2 2 6 6 6 6 under extra-combos has no keep of all six (four 6s
    1,200, or the full house 2 2 6 6 6 850): the forced keep is the one of most dice."""
    rules = "exact-10000+extra-combos"
    assert play(rules, "226666", score=9100).phase is Phase.KEEP  # (850 fits in 900)
    turn = play(rules, "226666", score=9200)  # (850 does not fit in 800: though 600 would)
    assert turn.phase is Phase.BUST and "(2 2 6 6 6) would pass 10,000" in turn.bust_reason


def test_a_bank_of_exactly_the_threshold_or_minimum_is_allowed() -> None:
    """ "Entry 1000 in one turn", "300 minimum": the figure itself is enough."""
    entry = play("hot-dice", "111234>111")
    assert entry.total == 1000 and entry.can_bank
    assert play("hot-dice", "115234>115").bank_refusal() == (
        "not on the board yet: needs 1,000 in one turn, has 250"
    )
    zilch = play("zilch", "155234>155", "123>1", score=3000)
    assert zilch.total == 300 and zilch.can_bank
    assert play("zilch", "155234>155", "523>5", score=3000).bank_refusal() == (
        "a bank needs at least 300, has 250"
    )


def test_progressive_sets_end_when_the_dice_are_all_picked_up() -> None:
    """After hot dice a kept 1 is a single again: the set of 1s was of the dice set down."""
    turn = play("ten-thousand+progressive", "111555>111555")
    assert (turn.total, turn.hot_dice) == (1500, True)
    assert turn.roll((1, 2, 3, 4, 6, 6)).keep((1,)).total == 1500 + 100
    going = play("ten-thousand+progressive", "111234>111", "113>1")
    assert going.total == 1000 + 1000  # (the set grows while the dice stay down)


def test_a_taker_rolls_before_banking_and_cannot_bank_past_an_exact_target() -> None:
    banked = play("minnesota", "11234>1", score=2000).bank()
    taker = banked.handed_to(score=3000, on_board=True)
    assert not taker.can_bank and "roll and keep at least once" in (taker.bank_refusal() or "")
    past = play("exact-10000", "112346>11", score=2000).bank().handed_to(score=9900, on_board=True)
    assert past.bank_refusal() == "10,100 would pass 10,000: this turn can only bust"
    level = play("exact-10000", "112346>11", score=2000).bank().handed_to(score=9800, on_board=True)
    assert level.bank_refusal() == (  # (not "roll and keep at least once": a review)
        "10,000 is the target, but a roll and keep must come first, and any keep passes it: "
        "this turn can only bust"
    )


def test_exact_finish_a_keep_of_every_scoring_die_just_past_busts() -> None:
    over = play("exact-10000", "123466", score=9950)  # (keeping the 1 makes 10,050)
    assert over.phase is Phase.BUST and "would pass 10,000" in over.bust_reason
    hit = play("exact-10000", "523466>5", score=9950)
    assert hit.total == 50 and hit.can_bank


def test_a_taker_starts_with_nothing_held() -> None:
    """The held sets and kept dice stay with the dice's first owner (README decisions)."""
    banked = play("exact-10000+progressive", "112346>11", score=2000).bank()
    assert banked.kept != (0,) * 6
    taker = banked.handed_to(score=3000, on_board=True)
    assert (taker.kept, taker.sets, taker.total, taker.dice_left) == ((0,) * 6, frozenset(), 200, 4)
    assert taker.roll((1, 2, 3, 4)).keep((1,)).total == 200 + 100  # a single, not three 1s
    hot = play("hot-dice", "444235>444", score=2000).bank()
    assert hot.sets == frozenset({4})
    assert hot.handed_to(score=3000, on_board=True).sets == frozenset()


def test_only_a_turns_first_roll_is_its_first() -> None:
    """extra-combos: a scoreless first roll of six dice is 500 and hot dice; the same roll
    after hot dice busts. Six of a kind wins only on the first roll."""
    rules = "ten-thousand+extra-combos"
    first = play(rules, "223466>223466")
    assert (first.total, first.hot_dice) == (500, True)
    assert first.roll((2, 2, 3, 4, 6, 6)).phase is Phase.BUST
    assert play(rules, "222222>222222").phase is Phase.WON
    later = play(rules, "111555>111555", "222222>222222")
    assert later.phase is Phase.ROLL and later.total == 1500 + 400  # (two triples)


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


@pytest.mark.parametrize(
    ("score", "message"),
    [
        (-50, "must be a multiple of 50 and at least 0, not -50"),
        (33, "must be a multiple of 50 and at least 0, not 33"),
        ("abc", "must be a whole number, not 'abc'"),
        (1000.0, "must be a whole number, not 1000.0"),
        (True, "must be a whole number, not True"),
    ],
)
def test_a_turn_starts_only_from_a_banked_score(score: object, message: str) -> None:
    """A banked score is whole turns of 50s, as `hotdice turn --score` and the advisor say
    (-50 and 33 had been taken, "abc" failed later with a TypeError)."""
    with pytest.raises(ParseError) as refused:
        Turn.start(load_rules("exact-10000"), score=score)  # type: ignore[arg-type]
    assert str(refused.value) == f"score {message}"


def test_a_turn_starts_from_a_score_the_game_ran_past_the_target() -> None:
    """Only that: a tie-break is played from scores past the target, even past the 1,000,000
    `hotdice turn --score` takes, so `Turn.start` leaves those bounds to its callers."""
    turn = Turn.start(load_rules("farkle", target=1_000_000), score=1_050_000)
    assert turn.on_board and turn.roll((1, 2, 3, 4, 6, 6)).keep((1,)).total == 100


@pytest.mark.parametrize(
    ("rules", "score", "refused"),
    [
        ("dice-10000", 10_000, True),  # (first to the target: that bank won the game)
        ("farke", 10_500, True),
        ("dice-10000", 9_950, False),
        ("dice-10000+the-5150", 10_000, False),  # (the bonus rolls come after)
        ("farkle", 10_000, False),  # (a final round's tie-break is played from past it)
        ("minnesota", 12_000, False),  # (a tie or beat gives the leader another turn)
    ],
)
def test_a_score_that_reached_a_first_to_target_goal_is_no_score_to_play_from(
    rules: str, score: int, refused: bool
) -> None:
    """`hotdice turn --rules dice-10000 --score 10000` played on, "banking reaches 10,000
    and wins the game", and `advise` advised; under RULES.md that player already won, as
    at an exact target. Where the target starts a final round instead, players at or past
    it still roll (tie-break turns, minnesota's turn after a tie or beat, a 5150's bonus)."""
    problem = banked_score_problem(load_rules(rules), score)
    assert (problem is not None) == refused
    if refused:
        assert problem == (
            f"{score:,} has already reached the target 10,000, and the first to reach it "
            "wins at once: the game is won"
        )


def test_keep_without_roll_and_bank_before_roll() -> None:
    turn = Turn.start(load_rules("farkle"))
    with pytest.raises(IllegalMove, match="no roll"):
        turn.keep((1,))
    with pytest.raises(IllegalMove, match="roll and keep"):
        turn.bank()


@settings(max_examples=150, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_random_turns_keep_their_invariants(rules: Rules, data: st.DataObject) -> None:
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
            assert not turn.first_roll  # (only a turn's first roll is its first)
            if turn.hot_dice:  # every die picked up: nothing held carries over
                assert turn.dice_left == rules.dice
                assert (turn.sets, turn.kept) == (frozenset(), (0,) * 6)
            else:
                assert turn.dice_left == before.dice_left - len(keep.dice)
        elif turn.phase is Phase.BUST:
            assert turn.total == 0 and not turn.can_bank and turn.dice_left == 0
        assert (before.phase, before.total, before.dice_left, len(before.steps)) == snapshot


def test_progressive_combination_dice_do_not_join_a_set() -> None:
    rules = "ten-thousand+progressive+extra-combos"
    assert play(rules, "222113>22211", "1>1").total == 450 + 100
    assert play(rules, "222334>22233", "3").phase is Phase.BUST
