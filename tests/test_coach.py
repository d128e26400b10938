"""The coach: which question the advisor is asked for the player to act in a game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion import strategy
from companion.advice import advise_state
from companion.coach import advise_game
from companion.game import GameState, apply, new_log, replay
from companion.rules import load_rules
from companion.tie_break import tie_break_chance


def test_advise_game_picks_the_question_for_the_state() -> None:
    log = new_log("farkle", ["Ann", "Bob"])
    state = replay(log)
    fresh = advise_game(state)
    assert fresh is not None and fresh["situation"] == "fresh" and fresh["player"] == "Ann"
    assert round(fresh["expected_if_roll"], 2) == 542.06
    rolled = apply(state, {"type": "roll", "dice": [1, 2, 3, 4, 6, 6]})
    keep = advise_game(rolled)
    assert keep is not None and keep["situation"] == "keep"
    kept = apply(rolled, {"type": "keep", "dice": [1]})
    bank_or_roll = advise_game(kept)
    assert bank_or_roll is not None and bank_or_roll["situation"] == "bank_or_roll"
    minnesota = replay(
        {
            **new_log("minnesota", ["Ann", "Bob"]),
            "events": [
                {"type": "score", "player": "Ann", "points": 1000},
                {"type": "score", "player": "Bob", "points": 1000},
                {"type": "roll", "dice": [1, 2, 3, 4, 6]},
                {"type": "keep", "dice": [1]},
                {"type": "bank"},
            ],
        }
    )
    offer = advise_game(minnesota)
    assert offer is not None and offer["situation"] == "takeover"
    assert offer["advice"] == "fresh"  # 4 dice and only 100 are worth less than a fresh turn


def test_in_a_final_round_only_the_last_to_play_plays_for_the_chance_to_pass() -> None:
    def state(players: list[str], scores: list[int], rules: str = "hot-dice") -> GameState:
        log = new_log(rules, players, target=1000)
        scored = zip(players[: len(scores)], scores, strict=True)
        events = [{"type": "score", "player": p, "points": s} for p, s in scored]
        return replay({**log, "events": events})

    # Ann and Bob tie on 1,000: Ann plays her tie-break turn first, and a bank of 50 would
    # lead but Bob then needs only 100. She is told Bob still plays and advised for points.
    tied = state(["Ann", "Bob"], [1000, 1000], "ten-thousand")
    kept = apply(
        apply(tied, {"type": "roll", "dice": [1, 2, 3, 4, 6, 6]}), {"type": "keep", "dice": [1]}
    )
    first = advise_game(kept)
    assert first is not None and first["still_to_play"] == ["Bob"]
    # the race of two is solved: her figures are her chances to win the tie-break
    assert first["playing_to_win"] and "need" not in first and "expected_if_bank" not in first
    w = tie_break_chance(kept.rules)
    # a bank of 100 leaves Bob one turn to pass 100 (150 wins, 100 ties: worth w to him)
    bob = advise_state(kept.rules, turn_total=0, dice=6, need=150, tie=w)
    assert first["chance_if_bank"] == pytest.approx(1 - bob["chance_if_roll"], abs=1e-12)
    assert first["advice"] == "roll" and first["chance_if_roll"] > first["chance_if_bank"]
    fresh = advise_game(tied)
    assert fresh is not None and fresh["chance_if_roll"] == pytest.approx(1 - w, abs=1e-12)
    # Ann banks 100: Bob, last to play, plays for the chance to make 150
    banked = apply(kept, {"type": "bank"})
    last = advise_game(banked)
    assert last is not None and last["need"] == 150 and "still_to_play" not in last
    assert last["chance_if_roll"] == strategy.chance_to_make(banked.rules, 150)
    # three players: Ann reaches 1,000; Bob must at least reach her (a tie stays in the
    # game), and Cid plays after him, so he plays for points; not on the board, he may
    # bank only from 1,000 anyway, and the rules' own refusal is what he is told
    final = state(["Ann", "Bob", "Cid"], [1000])
    middle = advise_game(final)
    assert middle is not None and middle["still_to_play"] == ["Cid"]
    assert middle["bank_from"] == 1000 and "expected_if_roll" in middle
    rolled = apply(final, {"type": "roll", "dice": [1, 2, 3, 4, 6, 6]})
    advice = advise_game(apply(rolled, {"type": "keep", "dice": [1]}))
    assert advice is not None and advice["can_bank"] is False
    assert advice["bank_refusal"].startswith("not on the board yet")
    # on the board, a bank the rules allow but that leaves him behind is not valued
    log = new_log("ten-thousand", ["Ann", "Bob", "Cid"], target=1000)
    scores = [("Ann", 500), ("Bob", 300), ("Cid", 0), ("Ann", 500)]
    events = [{"type": "score", "player": p, "points": s} for p, s in scores]
    final = replay({**log, "events": events})
    rolled = apply(final, {"type": "roll", "dice": [1, 2, 3, 4, 6, 6]})
    advice = advise_game(apply(rolled, {"type": "keep", "dice": [1]}))
    assert advice is not None and advice["bank_from"] == 700
    assert advice["bank_from_why"] == "level with the leader"
    assert advice["can_bank"] is True and "bank_refusal" not in advice
    assert advice["bank_short"] == "a bank of 100 leaves you behind the leader"
    assert advice["advice"] == "roll" and advice["expected_if_bank"] is None


def test_the_least_bank_worth_making_says_why_it_is_that() -> None:
    # zilch: Bob is 200 behind Ann with Cid to play, but every bank needs 300
    log = new_log("zilch", ["Ann", "Bob", "Cid"])
    scores = [("Ann", 9000), ("Bob", 9800), ("Cid", 0), ("Ann", 1000)]
    events = [{"type": "score", "player": p, "points": s} for p, s in scores]
    advice = advise_game(replay({**log, "events": events}))
    assert advice is not None and advice["still_to_play"] == ["Cid"]
    assert (advice["bank_from"], advice["bank_from_why"]) == (300, "the rules' least bank")


def test_under_tie_or_beat_every_other_player_still_plays() -> None:
    # minnesota: a tie or a pass of Ann's 2,000 gives Ann another turn, so no bank of
    # Bob's wins at once: he plays for points, banking from a tie
    log = new_log("minnesota", ["Ann", "Bob"], target=2000)
    final = replay({**log, "events": [{"type": "score", "player": "Ann", "points": 2000}]})
    advice = advise_game(final)
    assert advice is not None and advice["still_to_play"] == ["Ann"]
    assert advice["bank_from"] == 2000 and "need" not in advice
    assert advice["if_you_tie_or_beat"] == ["Ann"]  # (she is owed no turn unless he does)
    # Cid ties Ann's 2,000: Ann and Bob are owed a turn again; on Bob's, Cid plays again
    # only if Bob ties or beats it
    log = new_log("minnesota", ["Ann", "Bob", "Cid"], target=2000)
    scores = [("Ann", 2000), ("Bob", 0), ("Cid", 2000)]
    events = [{"type": "score", "player": p, "points": s} for p, s in scores]
    state = replay({**log, "events": events})
    assert state.to_json()["final_round"]["to_play"] == ["Ann", "Bob"]
    advice = advise_game(state)  # Ann's turn: Bob is owed one, Cid plays only if she marks
    assert advice is not None and (advice["still_to_play"], advice["if_you_tie_or_beat"]) == (
        ["Bob", "Cid"],
        ["Cid"],
    )
    state = replay({**log, "events": [*events, {"type": "score", "player": "Ann", "points": 0}]})
    advice = advise_game(state)
    assert advice is not None and advice["player"] == "Bob"
    assert advice["still_to_play"] == ["Ann", "Cid"] and advice["if_you_tie_or_beat"] == [
        "Ann",
        "Cid",
    ]


def test_a_lead_past_what_the_coach_can_value_is_unavailable_not_an_error() -> None:
    # Ann at 1,999,950 in a game to a million: Bob, with Cid after him, would bank from a
    # tie, past the largest bank minimum a rule set may have (it raised out of the coach)
    log = new_log("ten-thousand", ["Ann", "Bob", "Cid"], target=1_000_000)
    scores = [("Ann", 999_950), ("Bob", 0), ("Cid", 0), ("Ann", 1_000_000)]
    events = [{"type": "score", "player": p, "points": s} for p, s in scores]
    advice = advise_game(replay({**log, "events": events}))
    assert advice is not None and advice["situation"] == "unavailable"
    assert "1,999,950" in advice["error"]


def _final_round(rules: str, scores: list[tuple[str, int]], target: int = 1000) -> GameState:
    players = list(dict.fromkeys(p for p, _ in scores))
    log = new_log(rules, players, target=target)
    events = [{"type": "score", "player": p, "points": s} for p, s in scores]
    return replay({**log, "events": events})


def _rolled(state: GameState, *rolls: tuple[list[int], list[int]]) -> GameState:
    for dice, keep in rolls:
        state = apply(apply(state, {"type": "roll", "dice": dice}), {"type": "keep", "dice": keep})
    return state


def test_the_last_player_values_a_tie_at_their_chance_in_the_tie_break() -> None:
    # ten-thousand to 1,000: Ann reaches it, Bob (600) plays last and needs 450 to pass.
    # A tie sends both to tie-break turns with Bob second, knowing Ann's mark: about 61%.
    state = _final_round("ten-thousand", [("Ann", 500), ("Bob", 600), ("Ann", 500)])
    w = tie_break_chance(state.rules)
    # at 400 with one die, banking the tie beats rolling one die (a third) by far
    one = advise_game(
        _rolled(state, ([1, 5, 2, 3, 4, 6], [1, 5]), ([1, 5, 2, 3], [1, 5]), ([1, 2], [1]))
    )
    assert one is not None and one["need"] == 450 and one["tie_value"] == w
    assert one["tie_value_why"] == "you would play second in the tie-break"
    assert one["turn_total"] == 400 and one["dice"] == 1
    assert one["chance_if_bank"] == w and one["advice"] == "bank"
    assert one["chance_if_roll"] == pytest.approx(1 / 3)
    # at 400 with two dice, rolling passes 5 times in 9: more than an even chance, less
    # than Bob's in the tie-break, so he banks the tie (at an even chance he would roll)
    two = advise_game(_rolled(state, ([3, 3, 3, 1, 4, 6], [3, 3, 3, 1])))
    assert two is not None and two["turn_total"] == 400 and two["dice"] == 2
    assert two["chance_if_roll"] == pytest.approx(5 / 9)
    assert 0.5 < 5 / 9 < w and two["advice"] == "bank"
    even = advise_state(state.rules, turn_total=400, dice=2, need=450, tie=0.5)
    assert even["advice"] == "roll"
    plain = advise_state(state.rules, turn_total=400, dice=1, need=450)
    assert plain["chance_if_bank"] == 0.0 and plain["advice"] == "roll"  # `advise --need`


def test_a_tie_among_three_is_an_even_share() -> None:
    # Ann and Bob on 1,000; Cid, last to play, would make it a tie-break among three
    state = _final_round(
        "ten-thousand", [("Ann", 500), ("Bob", 500), ("Cid", 600), ("Ann", 500), ("Bob", 500)]
    )
    advice = advise_game(state)
    assert advice is not None and advice["player"] == "Cid" and advice["need"] == 450
    assert advice["tie_value"] == pytest.approx(1 / 3)
    assert advice["tie_value_why"] == "an even share of a tie-break among 3"


def test_a_takeover_past_the_exact_target_is_declined_not_unavailable() -> None:
    # exact-10000: Bob at 9,500 is offered Ann's 1,000, which would carry him past
    # 10,000: no bank is ever allowed and every roll busts, so he starts fresh
    log = new_log("exact-10000", ["Ann", "Bob"])
    events = [
        {"type": "score", "player": "Ann", "points": 1000},
        {"type": "score", "player": "Bob", "points": 9500},
        {"type": "roll", "dice": [1, 1, 1, 2, 3, 4]},
        {"type": "keep", "dice": [1, 1, 1]},
        {"type": "bank"},
    ]
    offered = replay({**log, "events": events})
    advice = advise_game(offered)
    assert advice is not None and advice["situation"] == "takeover"
    assert advice["advice"] == "fresh" and advice["expected_if_takeover"] == 0.0
    assert advice["expected_if_fresh"] > 0
    # taken anyway: the only move is to roll, and it busts
    taken = advise_game(apply(offered, {"type": "takeover", "accept": True}))
    assert taken is not None and taken["situation"] == "bank_or_roll"
    assert (taken["advice"], taken["bust_probability"], taken["can_bank"]) == ("roll", 1.0, False)
    assert taken["bank_refusal"] == "10,500 would pass 10,000: this turn can only bust"


def test_the_first_of_a_tie_break_ranks_keeps_by_the_chance_to_win_it() -> None:
    log = new_log("ten-thousand", ["Ann", "Bob"], target=1000)
    scores = [{"type": "score", "player": p, "points": 1000} for p in ("Ann", "Bob")]
    tied = replay({**log, "events": scores})
    rolled = apply(tied, {"type": "roll", "dice": [1, 1, 5, 2, 3, 4]})
    keeps = advise_game(rolled)
    assert keeps is not None and keeps["situation"] == "keep" and keeps["playing_to_win"]
    chances = [o["chance"] for o in keeps["options"]]
    assert chances == sorted(chances, reverse=True) and "expected" not in keeps["options"][0]
    # each keep is worth what the turn is then worth: the better of banking and rolling on
    for option in keeps["options"]:
        then = advise_game(apply(rolled, {"type": "keep", "dice": option["keep"]}))
        assert then is not None
        best = max(then["chance_if_roll"], then["chance_if_bank"] or 0.0)
        assert option["chance"] == pytest.approx(best, abs=1e-12)
        assert option["then"] == ("bank" if then["advice"] == "bank" else "roll")
    # three tied: that race is not solved, so the first plays for points
    log = new_log("ten-thousand", ["Ann", "Bob", "Cid"], target=1000)
    scores = [{"type": "score", "player": p, "points": 1000} for p in ("Ann", "Bob", "Cid")]
    three = advise_game(replay({**log, "events": scores}))
    assert three is not None and "playing_to_win" not in three and "expected_if_roll" in three


def test_the_first_of_a_tie_break_is_advised_past_the_totals_solved() -> None:
    # a farkle tie-break: Ann, first, runs her turn to 6,400 through two hot dice, past
    # the totals the race is solved for; banking is best there, and worth one minus
    # Bob's chance to pass her mark (a tie counted at his chance in the next round)
    log = new_log("farkle", ["Ann", "Bob"], target=1000)
    tied = replay(
        {**log, "events": [{"type": "score", "player": p, "points": 1000} for p in ("Ann", "Bob")]}
    )
    far = _rolled(tied, ([1] * 6, [1] * 6), ([1] * 6, [1] * 6))
    rolled = apply(far, {"type": "roll", "dice": [1, 1, 1, 5, 5, 2]})
    w = tie_break_chance(tied.rules)

    def bank_at(total: int) -> float:  # Bob's fresh turn to pass it, solved by strategy
        bob = advise_state(tied.rules, turn_total=0, dice=6, need=total + 50, tie=w)
        return 1 - bob["chance_if_roll"]

    keeps = advise_game(rolled)
    assert keeps is not None and keeps["situation"] == "keep"
    best = keeps["options"][0]
    assert best["keep"] == [1, 1, 1, 5, 5] and best["then"] == "bank"
    assert best["chance"] == pytest.approx(bank_at(6400), abs=1e-12)
    advice = advise_game(apply(rolled, {"type": "keep", "dice": [1, 1, 1, 5, 5]}))
    assert advice is not None and (advice["turn_total"], advice["advice"]) == (6400, "bank")
    assert advice["chance_if_bank"] == pytest.approx(bank_at(6400), abs=1e-12)


def test_level_with_the_leader_a_bust_ties_again() -> None:
    # a farkle tie-break: Bob, first, busts; Ann, level with him, needs any bank, and her
    # own bust would tie again (worth her tie-break chance), not lose
    log = new_log("farkle", ["Ann", "Bob"], target=1000)
    events = [
        {"type": "score", "player": "Ann", "points": 1000},
        {"type": "score", "player": "Bob", "points": 1000},
    ]
    tied = replay({**log, "events": events})
    first = tied.players[tied.current].name
    level = apply(tied, {"type": "score", "player": first, "points": 0})
    advice = advise_game(level)
    assert advice is not None and advice["need"] == 50
    w = tie_break_chance(level.rules)
    bust = float(strategy.bust_fraction(level.rules, 6))
    assert advice["chance_if_roll"] == pytest.approx((1 - bust) + bust * w, abs=1e-12)
    assert advice["tie_value_why"] == "you would play second in the tie-break"


def test_a_5150_bonus_still_to_come_is_named_as_not_counted() -> None:
    # Ann stood at exactly 5150 and will roll once more before the end; Bob's chance of
    # passing her counts this turn only, and the advice says what it leaves out
    log = new_log("farkle+the-5150", ["Ann", "Bob"], target=6000)
    scores = [("Ann", 5150), ("Bob", 1000), ("Ann", 1000)]
    events = [{"type": "score", "player": p, "points": s} for p, s in scores]
    advice = advise_game(replay({**log, "events": events}))
    assert advice is not None and advice["need"] == 5200
    assert advice["not_counted"] == "the 5150 bonus roll still to come (Ann)"
    plain = new_log("farkle", ["Ann", "Bob"], target=6000)
    advice = advise_game(replay({**plain, "events": events}))
    assert advice is not None and "not_counted" not in advice


# --- from the session-30 mutation review: each fails on a plausible bug the others missed


def test_the_last_of_a_tie_break_under_tie_or_beat_plays_to_pass() -> None:
    # minnesota: Bob ties Ann's 2,000 and Ann busts the turn she is owed: a tie-break, Bob
    # first; he busts too, and Ann, last to play, plays for the chance to pass him
    state = _final_round("minnesota", [("Ann", 2000), ("Bob", 2000), ("Ann", 0), ("Bob", 0)], 2000)
    advice = advise_game(state)
    assert advice is not None and advice["player"] == "Ann"
    assert "still_to_play" not in advice and advice["need"] == 50
    assert "chance_if_roll" in advice


def test_a_least_bank_equal_to_a_tie_is_called_a_tie() -> None:
    # zilch: Bob is exactly 300 behind Ann with Cid to play; a tie is the least bank too
    state = _final_round("zilch", [("Ann", 9000), ("Bob", 9700), ("Cid", 0), ("Ann", 1000)], 10000)
    advice = advise_game(state)
    assert advice is not None and advice["player"] == "Bob"
    assert (advice["bank_from"], advice["bank_from_why"]) == (300, "level with the leader")


def test_in_a_tie_break_a_hot_dice_keep_that_must_be_rolled_is_valued_rolled() -> None:
    # minnesota (hot dice must be rolled): Bob plays first in a tie-break with Ann
    state = _final_round("minnesota", [("Ann", 2000), ("Bob", 2000), ("Ann", 0)], 2000)
    rolled = apply(state, {"type": "roll", "dice": [1, 1, 1, 5, 5]})
    keeps = advise_game(rolled)
    assert keeps is not None and keeps["player"] == "Bob" and keeps["playing_to_win"]
    hot = next(o for o in keeps["options"] if o["hot_dice"])
    then = advise_game(apply(rolled, {"type": "keep", "dice": hot["keep"]}))
    assert then is not None and not then["can_bank"]
    assert hot["chance"] == pytest.approx(then["chance_if_roll"], abs=1e-12)
    assert keeps["options"][0]["keep"] == [1, 1, 1, 5]


def test_a_player_others_still_follow_weighs_no_strike_penalty() -> None:
    state = _final_round("zilch", [("Ann", 9000), ("Bob", 9800), ("Cid", 0), ("Ann", 1000)], 10000)
    advice = advise_game(state)
    assert advice is not None and advice["still_to_play"] == ["Cid"]
    assert "bust_value" not in advice and "busts_in_row" not in advice
    plain = replace(load_rules("zilch"), strike_penalty=0)  # (min bank 300 as bank_from)
    assert advice["expected_if_roll"] == pytest.approx(strategy.expected_turn_score(plain))


def test_a_least_bank_over_the_need_is_named() -> None:
    # zilch: Bob, at 9,900 against 10,000, needs 150, but a bank needs 300: named
    state = _final_round("zilch", [("Ann", 5000), ("Bob", 9900), ("Ann", 5000)], 10000)
    advice = advise_game(state)
    assert advice is not None and (advice["need"], advice["least_bank"]) == (150, 300)


def test_the_least_bank_is_named_only_when_a_tie_by_a_bank_is_under_it() -> None:
    # zilch, two players: Bob, last, needs exactly 300, the least bank: named, as a bank
    # of 250 would tie but cannot be made (the solve counts no such tie either)
    state = _final_round("zilch", [("Ann", 9000), ("Bob", 9750), ("Ann", 1000)], 10000)
    advice = advise_game(state)
    assert advice is not None and (advice["need"], advice["least_bank"]) == (300, 300)
    # ten-thousand: Bob needs 450; a bank of 400 ties, and any bank may be made
    state = _final_round("ten-thousand", [("Ann", 0), ("Bob", 600), ("Ann", 1000)], 1000)
    advice = advise_game(state)
    assert advice is not None and advice["need"] == 450 and "least_bank" not in advice


def test_the_coach_banks_a_first_to_target_win() -> None:
    """The sheet said "Bank 150 · wins" while the coach beside it said to roll (a review)."""
    log = new_log("dice-10000", ["Ann", "Bob"])
    log["events"] = [
        {"type": "score", "player": "Ann", "points": 9900},
        {"type": "score", "player": "Bob", "points": 0},
        {"type": "roll", "dice": [1, 5, 2, 3, 4]},
    ]
    keeps = advise_game(replay(log))
    assert keeps is not None and keeps["options"][0]["then"] == "bank"
    assert "wins the game" in keeps["options"][0]["bank_wins"]
    log["events"].append({"type": "keep", "dice": [1, 5]})
    advice = advise_game(replay(log))
    assert advice is not None and advice["advice"] == "bank" and "bank_wins" in advice
