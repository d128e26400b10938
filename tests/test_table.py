"""The table before and around its game (`companion.table`): joins, the roll for first
player, seating, and the rows that fix it once play starts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import IllegalMove, ParseError
from companion.game import MAX_NAME, MAX_PLAYERS
from companion.names import folded_name
from companion.table import (
    MAX_ROLL_OFF_ROUNDS,
    SEATING_FIXED,
    Table,
    clean_players,
    seating_from,
)

ROLL = {"type": "roll", "dice": [1, 2, 3, 4, 6, 6]}


def _tied(table: Table, rounds: list[dict[str, int]]) -> Table:
    winner, again, every = table.roll_off(rounds, every_round=True)
    assert winner is None and again
    return table.add("tie", {"rolls": every, "on": len(table.rows)})


def test_joins_follow_the_names_the_game_was_made_with() -> None:
    table = Table(("Ann",)).add("join", {"player": "  Bob\u202e  Ross "})
    assert table.players == ("Ann", "Bob Ross")
    assert table.rows[-1] == ("join", {"player": "Bob Ross"})  # (kept as cleaned)
    assert not table.started and table.events == ()


def test_a_join_is_checked_against_the_table() -> None:
    table = Table(("Ann",))
    with pytest.raises(IllegalMove, match="ANN looks like Ann"):
        table.add("join", {"player": "ANN"})
    with pytest.raises(ParseError, match="longer than 20"):
        table.add("join", {"player": "B" * 21}, max_name=20)
    assert table.add("join", {"player": "B" * 21}).players[-1] == "B" * 21  # (engine's 40)
    with pytest.raises(ParseError, match="plain text"):
        table.add("join", {"player": "Bob\x07"})
    full = Table(tuple(f"P{i}" for i in range(MAX_PLAYERS)))
    with pytest.raises(IllegalMove, match=f"at most {MAX_PLAYERS}"):
        full.add("join", {"player": "One more"})


def test_clean_players_keeps_stored_names_unchecked() -> None:
    """A seating saved under older checks still takes a player."""
    assert clean_players(["Cid"], stored=["a" * (MAX_NAME + 5)]) == ["a" * (MAX_NAME + 5), "Cid"]
    with pytest.raises(ParseError, match="a list of names"):
        clean_players("Ann")
    with pytest.raises(ParseError, match="empty"):
        clean_players(["Ann", " \u2066 "])
    assert folded_name("\u202bAnn \t Lee\u202c") == "Ann Lee"


def test_a_tie_asks_the_tied_players_to_roll_again() -> None:
    table = _tied(Table(("Ann", "Bob", "Cid")), [{"Ann": 5, "Bob": 5, "Cid": 2}])
    assert table.roll_again == ["Ann", "Bob"] and table.seated is None
    winner, again, rounds = table.roll_off([{"Ann": 1, "Bob": 4}], every_round=False)
    assert (winner, again) == ("Bob", [])
    assert rounds == [{"Ann": 5, "Bob": 5, "Cid": 2}, {"Ann": 1, "Bob": 4}]
    seated = table.add("seat", {"players": seating_from(table.players, "Bob"), "rolls": rounds})
    assert seated.seated == ["Bob", "Cid", "Ann"] == list(seated.players)
    assert seated.roll_again == [] and seated.tie_rounds == []


def test_a_roll_for_first_player_is_refused_when_it_cannot_count() -> None:
    table = _tied(Table(("Ann", "Bob")), [{"Ann": 3, "Bob": 3}])
    with pytest.raises(IllegalMove, match="not in this game"):
        table.roll_off([{"Ann": 1, "Zed": 4}], every_round=False)
    with pytest.raises(IllegalMove, match="recorded \\(1 round"):
        table.roll_off([{"Ann": 1, "Bob": 4}], every_round=True)  # (not from the first round)
    with pytest.raises(ParseError, match="round 2"):
        table.roll_off([{"Ann": 1}], every_round=False)
    seated = table.add("seat", {"players": ["Bob", "Ann"]})
    with pytest.raises(IllegalMove, match="Bob already won"):
        seated.roll_off([{"Ann": 1, "Bob": 4}], every_round=True)
    started = seated.add("game", ROLL)
    with pytest.raises(IllegalMove, match=SEATING_FIXED):
        started.roll_off([{"Ann": 1, "Bob": 4}], every_round=True)


def test_a_roll_for_first_player_stops_at_its_cap_of_ties_but_takes_the_deciding_round() -> None:
    """Past the cap no tie is recorded, and no list of rounds past it adds more than the
    one round after the recorded ties that decides it, which is taken (an upgrade review:
    a table left tied at the cap, or past it by a hotdice of before the cap, had to undo
    rounds)."""
    tie, decides = {"Ann": 2, "Bob": 2}, {"Ann": 2, "Bob": 5}
    ties = [tie] * MAX_ROLL_OFF_ROUNDS
    winner, again, rounds = Table(("Ann", "Bob")).roll_off(ties, every_round=True)
    assert (winner, again, len(rounds)) == (None, ["Ann", "Bob"], MAX_ROLL_OFF_ROUNDS)
    with pytest.raises(IllegalMove, match=f"stops at {MAX_ROLL_OFF_ROUNDS} tied rounds"):
        Table(("Ann", "Bob")).roll_off([*ties, decides], every_round=True)
    at_cap = _tied(Table(("Ann", "Bob")), ties)
    with pytest.raises(IllegalMove, match="roll again until one player is highest"):
        at_cap.roll_off([tie], every_round=False)
    assert at_cap.roll_off([decides], every_round=False)[0] == "Bob"
    assert at_cap.roll_off([*ties, decides], every_round=True)[0] == "Bob"
    past_cap = Table(("Ann", "Bob")).add("tie", {"rolls": [tie] * 23, "on": 0})
    assert past_cap.roll_again == ["Ann", "Bob"]
    winner, _, rounds = past_cap.roll_off([decides], every_round=False)
    assert winner == "Bob" and len(rounds) == 24


def test_a_join_ends_a_tie_and_says_who_ended_it() -> None:
    tied = _tied(Table(("Ann", "Bob")), [{"Ann": 4, "Bob": 4}])
    assert tied.tie_ended_by is None
    joined = tied.add("join", {"player": "Cid"}).add("join", {"player": "Dee"})
    assert joined.tie_ended_by == "Cid" and joined.roll_again == [] and joined.tie_rounds == []
    assert joined.undone().undone().tie_ended_by is None  # (the tie stands again)
    assert joined.undone().undone().roll_again == ["Ann", "Bob"]


def test_the_round_phones_pick_dice_for_moves_with_each_tie_and_seating() -> None:
    table = Table(("Ann", "Bob"))
    first = table.roll_off_round
    tied = table.add("tie", {"rolls": [{"Ann": 4, "Bob": 4}], "on": 0})
    again = tied.undone().add("tie", {"rolls": [{"Ann": 4, "Bob": 4}], "on": 2})
    seated = tied.add("seat", {"players": ["Bob", "Ann"], "on": 1})
    assert len({first, tied.roll_off_round, again.roll_off_round, seated.roll_off_round}) == 4


def test_play_fixes_the_seating_and_a_standing_tie_stops_play() -> None:
    tied = _tied(Table(("Ann", "Bob")), [{"Ann": 6, "Bob": 6}])
    with pytest.raises(IllegalMove, match="Ann and Bob roll again first"):
        tied.add("game", ROLL)
    started = Table(("Ann", "Bob")).add("game", ROLL)
    assert started.started and started.events == (ROLL,)
    for kind, payload in (
        ("join", {"player": "Cid"}),
        ("tie", {"rolls": []}),
        ("seat", {"players": ["Bob", "Ann"]}),
    ):
        with pytest.raises(IllegalMove, match=SEATING_FIXED):
            started.add(kind, payload)
    with pytest.raises(IllegalMove, match="the same players: Ann, Bob"):
        Table(("Ann", "Bob")).add("seat", {"players": ["Ann", "Cid"]})
    with pytest.raises(ParseError, match="one of join, tie, seat, game"):
        Table(("Ann",)).add("undo", {})
    with pytest.raises(IllegalMove, match="nothing to undo"):
        Table(("Ann",)).undone()


ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.sampled_from(["Bob", "Cid", "bob", "Dee ", "Eve"])),
        st.tuples(st.just("seat"), st.integers(0, MAX_PLAYERS)),
        st.tuples(st.just("tie"), st.integers(1, 6)),
        st.tuples(st.just("game"), st.just(0)),
        st.tuples(st.just("undo"), st.just(0)),
    ),
    max_size=12,
)


@given(ACTIONS)
def test_undo_takes_back_exactly_the_last_row(actions: list[tuple[str, Any]]) -> None:
    """Whatever the table did, each row taken back leaves the table it was added to; a
    refused row leaves it as it was."""
    history = [Table(("Ann",))]
    for kind, arg in actions:
        table = history[-1]
        payload: dict[str, Any]
        if kind == "undo":
            if table.rows:
                assert table.undone() == history[-2]
                history.pop()
            continue
        if kind == "join":
            payload = {"player": arg}
        elif kind == "seat":
            payload = {
                "players": seating_from(table.players, table.players[arg % len(table.players)])
            }
        elif kind == "tie":
            payload = {"rolls": [dict.fromkeys(table.players, arg)], "on": len(table.rows)}
        else:
            payload = ROLL
        try:
            after = table.add(kind, payload)
        except ValueError:
            assert history[-1] is table
            continue
        assert after.rows[:-1] == table.rows and after.undone() == table
        assert sorted(after.players) == sorted(table.players) or kind == "join"
        assert not table.started or kind == "game"
        history.append(after)


@given(st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=8, unique=True), st.data())
def test_seating_from_turns_the_table_without_reordering_it(
    players: list[str], data: st.DataObject
) -> None:
    first = data.draw(st.sampled_from(players))
    seating = seating_from(players, first)
    assert seating[0] == first and sorted(seating) == sorted(players)
    after = {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}
    assert all(after[p] == seating[(i + 1) % len(seating)] for i, p in enumerate(seating))
