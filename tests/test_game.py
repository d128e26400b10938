"""Whole games: every finish mode, takeovers, strike-outs, house rules, and fold/undo."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalEvent, IllegalMove, ParseError
from companion.game import (
    GamePhase,
    GameState,
    apply,
    bonus_scores,
    check_named,
    new_log,
    replay,
    roll_off,
    roll_off_rounds,
    start,
    undo,
)
from companion.names import name_key
from companion.rules import Rules, load_rules
from companion.scoring import score_roll
from companion.table import clean_players
from tests.strategies import rule_sets


def quick(player: str, points: int) -> dict[str, Any]:
    return {"type": "score", "player": player, "points": points}


def roll(*dice: int) -> dict[str, Any]:
    return {"type": "roll", "dice": list(dice)}


def keep(*dice: int) -> dict[str, Any]:
    return {"type": "keep", "dice": list(dice)}


BANK = {"type": "bank"}


def play(
    rules: str, players: list[str], events: list[dict[str, Any]], target: int | None = None
) -> GameState:
    log = new_log(rules, players, target=target)
    log["events"] = events
    return replay(log)


def test_first_to_target_wins_at_once() -> None:
    state = play(
        "dice-10000",
        ["Ann", "Bob"],
        [quick("Ann", 600), quick("Bob", 950), quick("Ann", 400)],
        target=1000,
    )
    assert state.phase is GamePhase.OVER and state.winner_name == "Ann"
    assert state.to_json()["current_player"] is None
    with pytest.raises(IllegalEvent, match="game is over"):
        apply(state, quick("Bob", 100))


def test_final_round_gives_everyone_else_one_turn() -> None:
    state = play(
        "hot-dice",
        ["Ann", "Bob", "Cy"],
        [quick("Ann", 1000), quick("Bob", 1000), quick("Cy", 0), quick("Ann", 1000)],
        target=2000,
    )
    assert state.phase is GamePhase.FINAL_ROUND
    assert state.to_json()["final_round"] == {
        "triggered_by": "Ann",
        "to_play": ["Bob", "Cy"],
        "to_pass": {"Bob": 1050, "Cy": 2050},
        "mark": None,  # (no one in the final round has tied or taken the lead yet)
    }
    state = apply(state, quick("Bob", 1500))
    assert state.phase is GamePhase.FINAL_ROUND and state.current_player == "Cy"
    state = apply(state, quick("Cy", 0))
    assert state.phase is GamePhase.OVER and state.winner_name == "Bob"


def test_final_round_tie_goes_to_tie_break_turns() -> None:
    state = play(
        "ten-thousand", ["Ann", "Bob"], [quick("Ann", 2000), quick("Bob", 2000)], target=2000
    )
    assert state.phase is GamePhase.TIE_BREAK
    assert state.to_json()["tie_break"]["players"] == ["Ann", "Bob"]
    state = apply(apply(state, quick("Ann", 300)), quick("Bob", 300))
    assert state.phase is GamePhase.TIE_BREAK  # still tied
    state = apply(apply(state, quick("Ann", 0)), quick("Bob", 50))
    assert state.phase is GamePhase.OVER and state.winner_name == "Bob"


def test_tie_or_beat_gives_everyone_another_turn() -> None:
    state = play(
        "minnesota",
        ["Ann", "Bob", "Cy"],
        [quick("Ann", 1000), quick("Bob", 1000), quick("Cy", 1000), quick("Ann", 1000)],
        target=2000,
    )
    assert state.to_json()["final_round"]["to_play"] == ["Bob", "Cy"]
    state = apply(state, quick("Bob", 1000))  # ties 2000
    assert state.to_json()["final_round"]["to_play"] == ["Cy", "Ann"]
    state = apply(state, quick("Cy", 0))
    assert state.to_json()["final_round"]["to_play"] == ["Ann"]
    state = apply(state, quick("Ann", 50))  # beats
    assert state.to_json()["final_round"]["to_play"] == ["Bob", "Cy"]
    state = apply(apply(state, quick("Bob", 0)), quick("Cy", 0))
    assert state.phase is GamePhase.OVER and state.winner_name == "Ann"


def test_the_final_round_says_who_set_the_mark_and_what_each_needs() -> None:
    """minnesota: Bob ties Ann's 2,000, so he set the mark and Ann plays again; zilch: no
    one passes the lead with less than the 300 a bank takes there."""
    state = play(
        "minnesota",
        ["Ann", "Bob", "Cy"],
        [quick("Ann", 1000), quick("Bob", 1000), quick("Cy", 1000), quick("Ann", 1000)],
        target=2000,
    )
    state = apply(state, quick("Bob", 1000))
    final = state.to_json()["final_round"]
    assert final["mark"] == {"player": "Bob", "score": 2000, "tied": True}
    assert final["to_pass"] == {"Cy": 1050, "Ann": 50}
    state = apply(state, quick("Cy", 0))  # (a bust sets no mark)
    assert state.final_round_mark() == {"player": "Bob", "score": 2000, "tied": True}
    zilch = play("zilch", ["Ann", "Bob"], [quick("Ann", 300), quick("Bob", 1950)], target=2000)
    zilch = apply(zilch, quick("Ann", 1700))
    assert zilch.to_pass() == {"Bob": 300}
    assert play("zilch", ["Ann", "Bob"], []).to_pass() == {}  # (no final round)


def test_tie_break_turns_say_what_to_pass_once_a_mark_is_set() -> None:
    state = play(
        "ten-thousand", ["Ann", "Bob"], [quick("Ann", 2000), quick("Bob", 2000)], target=2000
    )
    assert state.to_json()["tie_break"]["to_pass"] == {}  # (level: nothing to pass yet)
    state = apply(state, quick("Ann", 300))
    assert state.to_json()["tie_break"]["to_pass"] == {"Bob": 350}


def test_a_tie_break_is_settled_among_every_player_under_a_strike_penalty() -> None:
    """A review: tied leaders striking out in tie-break turns (zilch: 500 off at the third
    bust in a row) fell below a third player, and the tie-break went on among them alone,
    A winning on 1,800 while C held 1,850."""
    start = [quick("A", 2000), quick("B", 2000), quick("C", 1850)]
    strikes = [quick("A", 0), quick("B", 0)] * 3  # (A and B at 1,500, C at 1,850)
    state = play("zilch", ["A", "B", "C"], start + strikes, target=2000)
    assert [p.score for p in state.players] == [1500, 1500, 1850]
    assert state.phase is GamePhase.OVER and state.winner_name == "C"
    # tied with C at 1,500 instead, all three play on, from the seat after B's
    start[2] = quick("C", 1500)
    state = play("zilch", ["A", "B", "C"], start + strikes, target=2000)
    assert state.phase is GamePhase.TIE_BREAK and state.to_json()["tie_break"]["players"] == [
        "C",
        "A",
        "B",
    ]
    state = apply(state, quick("C", 300))
    assert state.to_pass() == {"A": 350, "B": 350}


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(["hot-dice", "minnesota", "zilch", "ten-thousand", "farkle"]),
    scores=st.lists(st.sampled_from([0, 300, 500, 1000, 1500]), min_size=4, max_size=16),
)
def test_what_a_player_needs_to_pass_is_the_least_bank_that_leads(
    rules: str, scores: list[int]
) -> None:
    """Banked in a final round, a player's `to_pass` puts them ahead of everyone; 50 less
    does not, unless the rules' least bank is what they need."""
    state = play(rules, ["Ann", "Bob", "Cy"], [], target=3000)
    for points in scores:
        if state.phase is not GamePhase.PLAYING:
            break
        try:
            state = apply(state, quick(state.current_player or "", points))
        except IllegalEvent:
            state = apply(state, quick(state.current_player or "", 0))
    if state.phase is not GamePhase.FINAL_ROUND:
        return
    name = state.current_player
    assert name is not None
    me = state.players[state.index_of(name)]
    others = max(p.score for p in state.players if p.name != name)
    need = state.to_pass().get(name)
    if need is None:  # (the lone leader)
        assert me.score > others
        return
    assert me.score + need > others and need % 50 == 0
    least = state.rules.least_bank(on_board=me.on_board)
    assert need == least or me.score + need - 50 <= others


def test_tie_or_beat_a_turn_short_of_the_lead_reopens_nothing() -> None:
    short = play(
        "minnesota",
        ["Ann", "Bob"],
        [quick("Ann", 1000), quick("Bob", 1000), quick("Ann", 1000)],
        target=2000,
    )
    short = apply(short, quick("Bob", 50))  # 1,050 < 2,000: scores, but neither ties nor beats
    assert short.phase is GamePhase.OVER and short.winner_name == "Ann"


def test_tie_or_beat_still_tied_after_a_full_pass_plays_tie_break() -> None:
    state = play(
        "minnesota",
        ["Ann", "Bob"],
        [
            quick("Ann", 1000),
            quick("Bob", 1000),
            quick("Ann", 1000),
            quick("Bob", 1000),
            quick("Ann", 0),
        ],
        target=2000,
    )
    assert state.phase is GamePhase.TIE_BREAK


def test_exact_finish() -> None:
    state = play(
        "exact-10000", ["Ann", "Bob"], [quick("Ann", 1000), quick("Bob", 1000)], target=2000
    )
    with pytest.raises(IllegalEvent, match="would pass 2,000: that turn is a bust \\(record 0"):
        apply(state, quick("Ann", 1500))
    state = apply(state, quick("Ann", 1000))
    assert state.phase is GamePhase.OVER and state.winner_name == "Ann"


def test_exact_forced_keep_bust_by_dice() -> None:
    state = play(
        "exact-10000",
        ["Ann", "Bob"],
        [quick("Ann", 1000), quick("Bob", 1000), roll(1, 1, 1, 2, 3, 4)],
        target=1500,
    )
    assert state.current_player == "Bob" and state.history[-1].bust
    # the sheet can say why, the bust a table disputes
    reason = "keeping every scoring die (1 1 1) would pass 1,500"
    assert state.history[-1].to_json()["reason"] == reason
    state = apply(state, roll(2, 3, 4, 6, 6, 2))
    assert state.history[-1].to_json()["reason"] == "nothing to keep"
    state = apply(apply(state, quick("Ann", 0)), quick("Bob", 100))
    assert [h.to_json()["reason"] for h in state.history[-2:]] == ["", ""]


def test_roll_by_roll_turns_and_busts() -> None:
    state = play(
        "hot-dice",
        ["Ann", "Bob"],
        [
            roll(1, 4, 2, 4, 4, 5),
            keep(1, 4, 4, 4, 5),
            roll(4),
            keep(4),
            BANK,
            roll(2, 3, 4, 6, 6, 2),
        ],
    )
    ann, bob = state.players
    assert (ann.score, ann.on_board, bob.score, bob.busts_in_row) == (1100, True, 0, 1)
    assert state.current_player == "Ann" and state.turn is None
    assert [(r.player, r.points, r.bust) for r in state.history] == [
        ("Ann", 1100, False),
        ("Bob", 0, True),
    ]


def test_entry_threshold_blocks_a_small_bank() -> None:
    log = new_log("hot-dice", ["Ann", "Bob"])
    log["events"] = [roll(1, 4, 2, 4, 4, 5), keep(1, 4, 4, 4, 5), BANK]
    with pytest.raises(IllegalEvent, match=r"event 3: cannot bank: not on the board"):
        replay(log)
    with pytest.raises(
        IllegalEvent, match="Ann: not on the board yet: needs 1,000 in one turn, has 550"
    ):
        play("hot-dice", ["Ann"], [quick("Ann", 550)])


def test_exact_finish_only_at_the_target_itself() -> None:
    state = play(
        "exact-10000", ["Ann", "Bob"], [quick("Ann", 1000), quick("Bob", 1000)], target=2000
    )
    state = apply(state, quick("Ann", 950))  # 1,950: 50 short is not there
    assert state.phase is GamePhase.PLAYING and state.current_player == "Bob"


def test_first_to_target_presets_end_at_once() -> None:
    for name in ("farke", "dice-10000"):
        state = play(name, ["Ann", "Bob"], [quick("Ann", 1000)], target=1000)
        assert state.phase is GamePhase.OVER and state.winner_name == "Ann", name


def test_takeover_offer_accept_and_decline() -> None:
    base = [
        quick("Ann", 1000),
        quick("Bob", 1000),
        roll(1, 2, 3, 4, 6),
        keep(1),
        roll(5, 5, 2, 3),
        keep(5, 5),
        BANK,
    ]
    state = play("minnesota", ["Ann", "Bob"], base)
    assert state.to_json()["takeover"] == {
        "from": "Ann",
        "dice": 2,
        "total": 200,
        "past_target": False,
    }
    taken = apply(state, {"type": "takeover", "accept": True})
    assert taken.turn is not None and (taken.turn.total, taken.turn.dice_left) == (200, 2)
    taken = apply(apply(apply(taken, roll(1, 3)), keep(1)), roll(5))
    taken = apply(apply(taken, keep(5)), roll(1, 2, 3, 4, 4))  # hot dice must roll again
    taken = apply(apply(taken, keep(1)), BANK)
    assert taken.players[1].score == 1000 + 450 and taken.history[-1].takeover
    declined = apply(state, {"type": "takeover", "accept": False})
    assert declined.offer is None and declined.turn is None
    rolled = apply(state, roll(1, 2, 3, 4, 6))  # rolling all dice declines it too
    assert rolled.offer is None and rolled.turn is not None and rolled.turn.total == 0
    with pytest.raises(IllegalEvent, match=r"\(to roll the 2 dice left by Ann, accept"):
        apply(state, roll(1, 3))
    one = play("minnesota", ["Ann", "Bob"], [*base[:6], roll(5, 2), keep(5), BANK])
    with pytest.raises(IllegalEvent, match=r"\(to roll the 1 die left by Ann, accept"):
        apply(one, roll(1))


def test_no_takeover_offer_for_a_player_off_the_board() -> None:
    state = play(
        "minnesota",
        ["Ann", "Bob"],
        [quick("Ann", 1000), quick("Bob", 0), roll(1, 2, 3, 4, 6), keep(1), BANK],
    )
    assert state.offer is None
    with pytest.raises(IllegalEvent, match="no takeover offer"):
        apply(state, {"type": "takeover", "accept": True})


def test_strike_out_costs_500_never_below_zero() -> None:
    events = [quick("Ann", 700)] + [e for _ in range(3) for e in (quick("Bob", 0), quick("Ann", 0))]
    state = play("ten-thousand+strike-out", ["Ann", "Bob"], events[:-1])
    ann, bob = state.players
    assert (ann.score, ann.busts_in_row, bob.score, bob.busts_in_row) == (700, 2, 0, 0)
    state = apply(state, quick("Ann", 0))
    assert (state.players[0].score, state.players[0].busts_in_row) == (200, 0)
    assert state.history[-1].penalty == 500 and state.history[-3].penalty == 0
    # Bob's third bust struck too, from 0: nothing taken, but the run is marked as struck
    assert [(r.player, r.strike) for r in state.history if r.bust] == [
        ("Bob", False),
        ("Ann", False),
        ("Bob", False),
        ("Ann", False),
        ("Bob", True),
        ("Ann", True),
    ]


def test_a_scoring_turn_ends_a_run_of_busts() -> None:
    events = [quick("Ann", 0), quick("Bob", 0)] * 2 + [quick("Ann", 100), quick("Bob", 0)]
    events += [quick("Ann", 0), quick("Bob", 0), quick("Ann", 0)]
    ann, bob = play("ten-thousand+strike-out", ["Ann", "Bob"], events).players
    assert (ann.score, ann.busts_in_row) == (100, 2)  # two, then a score, then two
    assert (bob.score, bob.busts_in_row) == (0, 1)  # the third in a row struck, then one


def test_a_bonus_roll_that_scores_nothing_is_no_strike() -> None:
    """The 5150 bonus is a roll at the end, not a turn: it cannot strike out."""
    state = play(
        "ten-thousand+the-5150+strike-out",
        ["Ann", "Bob"],
        [quick("Ann", 5150), quick("Bob", 1000), quick("Ann", 0), quick("Bob", 5000)],
        target=6000,
    )
    state = apply(state, quick("Ann", 0))  # her second bust in a row, in the final round
    assert state.phase is GamePhase.BONUS and state.players[0].busts_in_row == 2
    state = apply(state, quick("Ann", 0))
    assert state.phase is GamePhase.OVER and state.players[0].score == 5150
    assert state.history[-1].penalty == 0
    # entered as its points, the bonus roll is recorded as one, as when rolled
    assert (state.history[-1].kind, state.history[-2].kind) == ("bonus", "quick")


def test_an_instant_win_ends_the_game_before_any_bonus_roll() -> None:
    state = play(
        "farke+the-5150",
        ["Ann", "Bob"],
        [quick("Ann", 5150), roll(1, 1, 1, 1, 1, 1), keep(1, 1, 1, 1, 1, 1)],
    )
    assert state.players[0].hit_5150
    assert state.phase is GamePhase.OVER and state.winner_name == "Bob"


def test_a_bonus_roll_that_wins_at_once_wins() -> None:
    """farke's six 1s "in one roll win the game at once" (RULES.md): the 5150's bonus roll
    is a roll, so they win there too, where its 8,000 had been added and Bob, ahead, won.
    Five 1s are points, and a bonus entered as its points is points."""
    events = [quick("Ann", 5150), quick("Bob", 14000)]  # (Bob passes the target: Ann's bonus)
    owed = play("farke+the-5150", ["Ann", "Bob"], events)
    assert owed.phase is GamePhase.BONUS and owed.current_player == "Ann"
    won = apply(owed, roll(1, 1, 1, 1, 1, 1))
    assert won.phase is GamePhase.OVER and won.winner_name == "Ann"
    assert won.history[-1].wins and won.history[-1].kind == "bonus"
    lost = apply(owed, roll(1, 1, 1, 1, 1, 5))
    assert lost.winner_name == "Bob" and lost.players[0].score == 5150 + 4050
    assert apply(owed, quick("Ann", 8000)).winner_name == "Bob"


def test_an_exact_finish_ends_the_game_before_any_bonus_roll() -> None:
    """ "Wins at once": a bonus roll after it could only pass the target (Ann's 4,000 made
    13,900) or tie it in a tie-break no turn could end."""
    state = play(
        "exact-10000+the-5150",
        ["Ann", "Bob"],
        [quick("Ann", 5150), quick("Bob", 5000), quick("Ann", 4750), quick("Bob", 5000)],
    )
    assert state.players[0].hit_5150
    assert state.phase is GamePhase.OVER and state.winner_name == "Bob"


def _tied_with_a_bonus_owed() -> Any:
    """A minnesota+the-5150 final round that ends with Ann and Bob tied at 10,000, Bob
    having once stood at 5150."""
    events = [quick("Ann", 5000), quick("Bob", 5150), quick("Ann", 5000), quick("Bob", 4850)]
    return play("minnesota+the-5150", ["Ann", "Bob"], [*events, quick("Ann", 0)])


def test_the_5150_bonus_comes_before_a_tie_break() -> None:
    """After the bonus rolls the highest score wins, tied leaders play tie-break turns: a
    tie-break played first would be undone by the bonus."""
    state = _tied_with_a_bonus_owed()
    assert state.phase is GamePhase.BONUS and state.current_player == "Bob"
    won = apply(state, quick("Bob", 50))
    assert won.phase is GamePhase.OVER and won.winner_name == "Bob"
    tied = apply(state, quick("Bob", 0))
    assert tied.phase is GamePhase.TIE_BREAK and [p.score for p in tied.players] == [10000] * 2
    assert apply(apply(tied, quick("Ann", 100)), quick("Bob", 0)).winner_name == "Ann"


def test_zilch_bank_minimum_every_turn() -> None:
    with pytest.raises(IllegalEvent, match="Ann: a bank needs at least 300, has 250"):
        play("zilch", ["Ann"], [quick("Ann", 300), quick("Ann", 250)])


def _ann_once_at_5150() -> Any:
    """A minnesota+the-5150 game to 6,000 in its final round, Ann having stood at 5150."""
    return play(
        "minnesota+the-5150",
        ["Ann", "Bob"],
        [quick("Ann", 1000), quick("Bob", 1000), quick("Ann", 4150), quick("Bob", 5000)],
        target=6000,
    )


def test_the_5150_bonus_roll_comes_before_the_end() -> None:
    state = _ann_once_at_5150()
    assert state.players[0].hit_5150 and state.phase is GamePhase.FINAL_ROUND
    state = apply(state, quick("Ann", 0))
    assert state.phase is GamePhase.BONUS and state.current_player == "Ann"
    with pytest.raises(IllegalEvent, match="all 5 dice"):
        apply(state, roll(1, 1))
    state = apply(state, roll(1, 1, 1, 1, 1))
    assert state.players[0].score == 9150 and state.winner_name == "Ann"


def test_a_quick_5150_bonus_is_what_one_roll_can_score() -> None:
    state = apply(_ann_once_at_5150(), quick("Ann", 0))
    assert state.phase is GamePhase.BONUS
    for points in (999_950, 4050, 5250):
        with pytest.raises(IllegalEvent, match="not what one roll can score"):
            apply(state, quick("Ann", points))
    assert max(bonus_scores(state.rules)) == 4000  # five 1s, doubled from four
    assert apply(state, quick("Ann", 600)).players[0].score == 5750
    assert apply(state, quick("Ann", 0)).players[0].score == 5150


def test_six_ones_win_farke_at_once() -> None:
    state = play("farke", ["Ann", "Bob"], [roll(1, 1, 1, 1, 1, 1), keep(1, 1, 1, 1, 1, 1)])
    assert state.phase is GamePhase.OVER and state.winner_name == "Ann"
    assert state.history[-1].wins


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (quick("Ann", 125), "multiple of 50"),
        (quick("Ann", -50), "multiple of 50"),
        (quick("Ann", 1_000_050), "at most 1,000,000"),  # (a typo, not a turn)
        (quick("Ann", 10**19), "at most 1,000,000"),
        (quick("Bob", 100), "it is Ann's turn"),
        (quick("Zed", 100), "no player named 'Zed'"),
        ({"type": "score", "player": "Ann", "points": True}, "whole number"),
        ({"type": "fly"}, "unknown event type"),
        ("roll", "must be an object"),
        (keep(1), "has not rolled"),
        (BANK, "has not rolled"),
        (roll(1, 2, 3), "rolling all 6 dice"),
        ({"type": "roll", "dice": "123456"}, "list of values"),
        ({"type": "roll", "dice": [1, 2, 3, 4, 5, 9]}, "1 to 6"),
        ({"type": "takeover"}, "true or false"),
    ],
)
def test_illegal_events_are_rejected_with_a_reason(event: Any, message: str) -> None:
    state = start(new_log("farkle", ["Ann", "Bob"]))
    with pytest.raises(IllegalEvent, match=message):
        apply(state, event)


def test_an_event_may_name_only_the_player_whose_turn_it_is() -> None:
    state = play("farkle", ["Ann", "Bob"], [quick("Ann", 500)])
    check_named(state, roll(1, 2, 3, 4, 6, 6))  # (naming no one is fine)
    check_named(state, {**roll(1, 2, 3, 4, 6, 6), "player": "Bob"})
    for who, message in (("Ann", "Bob's turn, not Ann's"), ("Cy", "no player named 'Cy'")):
        with pytest.raises(IllegalMove, match=message):
            check_named(state, {**BANK, "player": who})
    with pytest.raises(ParseError, match="'player' must be the name"):
        check_named(state, {**BANK, "player": ["Bob"]})
    # apply checks a quick score's name, and leaves a roll's to the web (a stored log replays)
    with pytest.raises(IllegalEvent, match="Bob's turn, not Ann's"):
        apply(state, quick("Ann", 100))
    assert apply(state, {**roll(5, 2, 3, 4, 6, 6), "player": "Ann"}).turn is not None


def test_quick_score_during_a_dice_turn_is_refused() -> None:
    state = play("farkle", ["Ann", "Bob"], [roll(1, 2, 3, 4, 6, 6)])
    with pytest.raises(IllegalEvent, match="roll by roll"):
        apply(state, quick("Ann", 100))


@pytest.mark.parametrize(
    ("log", "message"),
    [
        ({"rules": "farkle"}, "needs 'players'"),
        ({"rules": "farkle", "players": []}, "non-empty list"),
        ({"rules": "farkle", "players": ["Ann", "ann"]}, "two players"),
        ({"rules": "farkle", "players": [f"P{i}" for i in range(100_000)]}, "at most 12"),
        ({"rules": "farkle", "players": ["Ann"], "events": {}}, "must be a list"),
        ({"rules": "farkle", "players": ["Ann"], "target": "lots"}, "whole number"),
        ([], "JSON object"),
    ],
)
def test_malformed_logs(log: Any, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        replay(log)


def test_extra_keys_are_kept_in_the_log_and_ignored_by_the_fold() -> None:
    log = new_log({"base": "farkle", "entry": 500}, ["Ann"])
    log["events"] = [{**quick("Ann", 500), "by": "phone 2", "at": "20:15"}]
    assert replay(log).players[0].score == 500 and replay(log).rules.entry == 500


def test_a_new_game_must_be_winnable_and_a_recorded_one_still_replays() -> None:
    """An exact target under the first bank's least (exact-10000's entry 1,000 against a
    target of 500) could never be hit."""
    with pytest.raises(ParseError, match="no one could win.*entry threshold"):
        new_log("exact-10000", ["Ann", "Bob"], target=500)
    with pytest.raises(ParseError, match="no one could win.*minimum bank"):
        new_log({"base": "exact-10000", "entry": 0, "min_bank": 600}, ["Ann"], target=500)
    assert new_log("exact-10000", ["Ann"], target=1000)["target"] == 1000
    assert new_log("hot-dice", ["Ann"], target=500)["target"] == 500  # (the first bank wins)
    recorded = {"rules": "exact-10000", "target": 500, "players": ["Ann"], "events": []}
    assert replay(recorded).rules.target == 500
    best = score_roll(load_rules("exact-10000", target=500), [1, 1, 1]).best
    assert best is not None and best.points == 1000


def test_roll_off() -> None:
    assert roll_off({"Ann": 3, "Bob": 5, "Cy": 2}) == ("Bob", [])
    assert roll_off({"Ann": 6, "Bob": 6, "Cy": 2}) == (None, ["Ann", "Bob"])
    with pytest.raises(ParseError):
        roll_off({"Ann": 7})


@pytest.mark.parametrize(("rolls", "kind"), [([1, 2], "list"), ((6,), "tuple"), ("Ann", "str")])
def test_a_roll_off_says_whose_each_die_is(rolls: object, kind: str) -> None:
    """Dice alone name no starter (a list had failed with an AttributeError)."""
    with pytest.raises(ParseError) as refused:
        roll_off(rolls)  # type: ignore[arg-type]
    assert str(refused.value) == f"rolls must map each player to one die, not a {kind}"


def test_player_names_must_be_plain_text() -> None:
    for broken in ("B\x00b", "Ann\u2028Bob", "Ann\u2029Bob"):  # (a line break by any name)
        with pytest.raises(ParseError, match="plain text"):
            start({"rules": "farkle", "players": ["Cid", broken]})
    with pytest.raises(ParseError, match="plain text"):
        new_log("farkle", ["Cid", "B\x00b"])
    # a new game folds a line break, as white space, into one space (as the web does)
    assert new_log("farkle", ["Ann\u2028Bob"])["players"] == clean_players(["Ann\u2028Bob"])
    # zero-width joiners and non-joiners belong to real names
    names = ["\U0001f469\u200d\U0001f680 Ann", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"]
    assert [p.name for p in replay(new_log("farkle", names)).players] == names
    # but a name of only invisible characters (a byte-order mark, a direction mark, a lone
    # accent) shows as a blank on every phone
    for blank in ("\ufeff", "\u202e", "\u0301", "\u200d\u200c"):
        with pytest.raises(ParseError, match="plain text"):
            new_log("farkle", ["Ann", blank])
    # nor a character no XML may hold: the chart's SVG would not draw
    for bad in ("Bob\ufffe", "\uffffBob", "Bob\U0001ffff"):
        with pytest.raises(ParseError, match="plain text"):
            new_log("farkle", ["Ann", bad])


def test_names_that_look_alike_are_one_name_in_a_new_game_only() -> None:
    """A new game tells names apart as they look (`name_key`: one Unicode form, case, no
    invisible characters), the web's own rule; a recorded game, made when only case was
    compared, still replays."""
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    for twin in (decomposed, "\uff2a\uff2f\uff33\u00c9", "Jos\u200b\u00e9", "JOS\u00c9"):
        with pytest.raises(ParseError, match="two players are named"):
            new_log("farkle", [composed, twin])
        assert name_key(twin) == name_key(composed)
    recorded = {"rules": "farkle", "players": [composed, decomposed], "events": []}
    assert [p.name for p in replay(recorded).players] == [composed, decomposed]
    with pytest.raises(ParseError, match="two players are named"):
        replay({**recorded, "players": ["Ann", "ANN"]})  # (case was always compared)


def test_a_new_game_folds_names_as_the_web_does_and_a_recorded_one_keeps_them() -> None:
    """A direction override would turn the rest of every sheet's line backwards: a new game
    drops it and folds white space, as a phone's join does (`table.clean_players`), so the
    command line and the web make one name of one input; a recorded game replays as made."""
    typed = ["Bo\u202eb", " Ann \t  Lee "]
    assert new_log("farkle", typed)["players"] == ["Bob", "Ann Lee"]
    assert new_log("farkle", typed)["players"] == clean_players(typed)
    recorded = {"rules": "farkle", "players": ["Bo\u202eb"], "events": []}
    assert replay(recorded).players[0].name == "Bo\u202eb"
    with pytest.raises(ParseError, match="plain text"):
        new_log("farkle", ["\u202e\u202c"])


@pytest.mark.parametrize(
    "twin", ["Ann\ufe0f", "A\u034fnn", "Ann\U000e0100", "Ann\u180b", "Ann\u17b4", "Ann\u115f"]
)
def test_a_name_with_marks_drawn_as_nothing_is_the_same_name(twin: str) -> None:
    """Variation selectors, the grapheme joiner and fillers are drawn as nothing but are no
    format characters: "Ann" and "Ann" with one were two players (found by a review)."""
    with pytest.raises(ParseError, match="two players are named"):
        new_log("farkle", ["Ann", twin])
    assert name_key(twin) == "ann"


def test_a_blank_cell_is_a_space_and_a_spacing_accent_a_name() -> None:
    """The blank Braille cell draws a letter wide: "Ann⠀Lee" is "Ann Lee", not "AnnLee";
    a spacing accent alone shows (NFKC makes it a space and a mark: it was refused as
    blank, found by a review)."""
    with pytest.raises(ParseError, match="two players are named"):
        new_log("farkle", ["Ann Lee", "Ann\u2800Lee"])
    assert [p.name for p in replay(new_log("farkle", ["AnnLee", "Ann\u2800Lee"])).players] == [
        "AnnLee",
        "Ann\u2800Lee",
    ]
    for accent in ("\u00b4", "\u00a8", "\u00af\u00af"):
        assert [p.name for p in replay(new_log("farkle", ["Ann", accent])).players][1] == accent


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\uffa0", "\u115f\ufe0f"])
def test_a_name_that_looks_blank_is_refused_in_a_new_game_only(blank: str) -> None:
    """A Hangul filler or the blank Braille cell is a letter or a symbol to Unicode, and
    showed as a blank column; a recorded game that has such a name still replays."""
    with pytest.raises(ParseError, match="must show something"):
        new_log("farkle", ["Ann", blank])
    recorded = {"rules": "farkle", "players": ["Ann", blank], "events": []}
    assert [p.name for p in replay(recorded).players] == ["Ann", blank]


def test_roll_off_rounds_settle_a_tie_among_the_tied() -> None:
    players = ["Ann", "Bob", "Cy"]
    first = {"Ann": 6, "Bob": 6, "Cy": 2}
    assert roll_off_rounds(players, [first]) == (None, ["Ann", "Bob"])
    # Cy's 2 stays out of the second round, so a 1 and a 2 still settle it
    assert roll_off_rounds(players, [first, {"Ann": 1, "Bob": 2}]) == ("Bob", [])
    for rounds, message in (
        ([{"Ann": 3, "Bob": 5}], r"^round 1: Cy must roll too$"),
        ([{"Ann": 3, "Bob": 5, "Dee": 1}], "every player: Ann, Bob, Cy"),
        ([first, {"Bob": 2}], r"^round 2: Ann must roll too$"),
        ([first, {"Ann": 1, "Bob": 2, "Cy": 6}], "the tied players"),
        ([{"Ann": 3, "Bob": 5, "Cy": 1}, {"Bob": 2}], "already starts"),
        ([], "nobody rolled"),
    ):
        with pytest.raises(ParseError, match=message):
            roll_off_rounds(players, rounds)


def _random_event(state: Any, data: st.DataObject) -> dict[str, Any]:
    """Mostly legal moves for the current state, sometimes anything at all."""
    if data.draw(st.integers(0, 9)) == 0:
        return data.draw(
            st.sampled_from(
                [BANK, keep(2), roll(1), quick("Ann", 75), {"type": "takeover", "accept": True}]
            )
        )
    name = state.current_player
    turn = state.turn
    if state.offer is not None and data.draw(st.booleans()):
        return {"type": "takeover", "accept": data.draw(st.booleans())}
    if turn is None and data.draw(st.booleans()):
        return quick(name, data.draw(st.sampled_from([0, 300, 500, 1000, 2000])))
    if turn is not None and turn.phase.value == "keep":
        return keep(*data.draw(st.sampled_from(turn.options())).dice)
    if turn is not None and turn.can_bank and data.draw(st.booleans()):
        return BANK
    n = turn.dice_left if turn is not None else state.rules.dice
    return roll(*data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n)))


@settings(max_examples=80, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_state_is_the_fold_of_its_events_and_undo_is_exact(
    rules: Rules, data: st.DataObject
) -> None:
    log = new_log(rules.name, ["Ann", "Bob", "Cy"], target=3000)
    state = replay(log)
    states = [state]
    for _ in range(60):
        if state.phase is GamePhase.OVER:
            break
        event = _random_event(state, data)
        try:
            after = apply(state, event)
        except IllegalEvent:
            assert replay(log) == state  # a rejected event changes nothing
            continue
        assert after.events == state.events + 1
        log["events"].append(event)
        states.append(after)
        state = after
        assert all(p.score >= 0 for p in state.players)
    assert replay(log) == state
    assert replay(log).to_json() == state.to_json()
    if log["events"]:
        assert replay(undo(log)) == states[-2]


@pytest.mark.parametrize("players", ["AB", "Ann", 5, None])
def test_players_must_be_a_list(players: Any) -> None:
    with pytest.raises(ParseError, match="list of names"):
        replay({"rules": "zilch", "players": players})


def test_absurd_dice_values_are_rejected_not_crashing() -> None:
    with pytest.raises(IllegalEvent, match="1 to 6"):
        bad = roll(float("inf"), 1, 1, 1, 1, 1)  # type: ignore[arg-type]  # a float: refused
        play("zilch", ["A"], [bad])


def test_dice_written_as_text_in_a_log_are_refused_as_the_api_refuses_them() -> None:
    log = new_log("farkle", ["A", "B"])
    log["events"] = [{"type": "roll", "dice": ["1", 5, 2, 3, 4, 6]}]
    with pytest.raises(IllegalEvent, match="not '1'"):
        replay(log)


def test_tie_break_starts_after_the_last_player_and_has_no_takeovers() -> None:
    state = play(
        "minnesota",
        ["A", "B", "C", "D"],
        [
            quick("A", 1000),
            quick("B", 1000),
            quick("C", 1000),
            quick("D", 1000),
            quick("A", 1000),
            quick("B", 0),
            quick("C", 1000),
            quick("D", 0),
            quick("A", 0),
            quick("B", 0),
        ],
        target=2000,
    )
    assert state.phase is GamePhase.TIE_BREAK
    assert state.to_json()["tie_break"] == {
        "players": ["C", "A"],
        "to_play": ["C", "A"],
        "to_pass": {},
    }
    state = apply(apply(apply(state, roll(1, 2, 3, 4, 6)), keep(1)), BANK)
    assert state.current_player == "A" and state.offer is None
    state = apply(state, quick("A", 0))
    assert state.phase is GamePhase.OVER and state.winner_name == "C"


def test_a_log_recorded_with_rules_now_refused_still_replays() -> None:
    from companion.game import new_log, replay

    log = {"rules": "ten-thousand+threshold+greed", "players": ["Ann", "Bob"], "events": []}
    assert replay(log).rules.entry == 1000  # (as it was recorded: the later house rule)
    with pytest.raises(ParseError, match="tick one of them"):
        new_log("ten-thousand+threshold+greed", ["Ann", "Bob"])
