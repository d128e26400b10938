"""The store's own promises, below the routes: the snapshot cache, which writes may come late,
join codes as typed, the rematch and its link, made together."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask

from companion import table as ctable
from web import create_app, store
from web.db import get_db

if TYPE_CHECKING:
    from tests.web.conftest import GameActions


def _scores(body: dict[str, Any]) -> list[int]:
    return [p["score"] for p in body["state"]["players"]]


def test_another_servers_rows_are_applied_on_top_of_the_cached_snapshot(
    app: Flask, game: GameActions
) -> None:
    """A server whose cached snapshot is behind (another server wrote) advances it by the
    new rows only: each applied once, and an undo among them is folded, not applied."""
    other = create_app(
        {
            "TESTING": True,
            "DATABASE": app.config["DATABASE"],
            "SECRET_KEY": "test",
            "INSTANCE_PATH": app.instance_path,
        }
    ).test_client()
    game.create("farkle", ["Ann", "Bob"])
    game.score("Ann", 500)
    assert _scores(other.get(f"/api/games/{game.id}").get_json()) == [500, 0]  # (cached at 1)
    game.score("Bob", 300)
    game.score("Ann", 200)
    seen = other.get(f"/api/games/{game.id}").get_json()
    assert (seen["version"], _scores(seen)) == (3, [700, 300])
    game.undo()  # Ann's 200
    game.score("Ann", 50)
    seen = other.get(f"/api/games/{game.id}").get_json()
    assert (seen["version"], _scores(seen)) == (5, [550, 300])
    assert seen["state"]["current_player"] == "Bob"


def _snapshot(game_id: str, version: int) -> store.Snapshot:
    game = store.Game(game_id, "", "farkle", None, ("Ann",), "")
    return store.Snapshot(game, version, ctable.Table(("Ann",)))


def test_the_cache_drops_the_game_put_least_recently() -> None:
    """A full cache makes room by dropping the game longest without a write, never the one
    just put (which every phone of that table is about to poll)."""
    cache = store.Cache(size=2)
    for game_id, version in (("AAAAAA", 1), ("BBBBBB", 1), ("AAAAAA", 2), ("CCCCCC", 1)):
        cache.put("f1", _snapshot(game_id, version))
    assert cache.get("f1", "BBBBBB") is None
    newest = cache.get("f1", "AAAAAA")
    assert newest is not None and newest.version == 2
    assert cache.get("f1", "CCCCCC") is not None


def test_the_cache_keeps_nothing_of_a_database_file_replaced_meanwhile() -> None:
    """A request still on the file before a backup was put back, finishing late (a sheet
    rendered slowly, the coach's advice), had stored the old file's rendering where the
    requests on the new file then read it (a review: "2,000" served at version 2 where
    the file holds 300)."""
    cache = store.Cache()
    cache.put("old", _snapshot("AAAAAA", 2))
    made = cache.memo("old", ("sheet", "AAAAAA", 2), lambda: cache.get("new", "AAAAAA"))
    assert made is None  # (the new file's request, meanwhile, found nothing of the old)
    assert cache.memo("new", ("sheet", "AAAAAA", 2), lambda: "the new file's") == ("the new file's")
    cache.put("old", _snapshot("AAAAAA", 3))  # (late, and forgets the new file's renderings)
    assert cache.get("new", "AAAAAA") is None
    assert cache.memo("new", ("sheet", "AAAAAA", 2), lambda: "made again") == "made again"


def test_only_joins_may_be_sent_on_an_older_version(game: GameActions) -> None:
    """A join since is no reason to refuse another join, but a turn or an undo sent by a
    phone that has not seen it is stale (409)."""
    game.create("farkle", ["Ann", "Bob"])
    joined = game.join("Cid")
    assert joined.get_json()["version"] == 1
    game.version = 0  # (a phone that has not seen the join)
    game.score("Ann", 500, expect=409)
    game.undo(expect=409)
    game.version = 1
    game.score("Ann", 500)
    assert _scores(game.get()) == [500, 0, 0]


def test_a_late_name_is_stored_as_the_sheet_shows_it(app: Flask, game: GameActions) -> None:
    """A joining name is cleaned like a name given at creation (white space folded), and
    stored so: a restart folds the same name."""
    game.create("farkle", ["Ann", "Bob"])
    joined = game.join("  Cid \t van  Dam ")
    names = ["Ann", "Bob", "Cid van Dam"]
    assert [p["name"] for p in joined.get_json()["state"]["players"]] == names
    restarted = {"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test"}
    with create_app(restarted).app_context():
        assert list(store.load(game.id).players) == names  # (no cache: the stored rows)
        (row,) = get_db().execute("SELECT event FROM events WHERE kind = 'join'").fetchall()
        assert json.loads(row[0]) == {"player": "Cid van Dam"}


def test_a_name_stored_as_typed_folds_as_the_sheet_showed_it(app: Flask, game: GameActions) -> None:
    """Joins recorded before names were stored cleaned hold the name as typed: the fold
    cleans it again, so an old game shows (and replays with) the name its sheet showed."""
    game.create("farkle", ["Ann"])
    typed = json.dumps({"player": "  Cid \u202e van  Dam "})
    restarted = {"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test"}
    with create_app(restarted).app_context():
        db = get_db()
        with db:
            db.execute(
                "INSERT INTO events (game_id, seq, kind, event) VALUES (?, 1, 'join', ?)",
                (game.id, typed),
            )
        assert list(store.load(game.id).players) == ["Ann", "Cid van Dam"]


@pytest.mark.parametrize("old", ["Ann\ufe0f", "\u3164"])
def test_a_seating_saved_under_older_name_checks_still_takes_a_player(
    app: Flask, game: GameActions, old: str
) -> None:
    """A join checked the names already seated again: a lobby saved before "Ann" with a
    variation selector became "Ann" (or a Hangul filler a blank) took no more players,
    the error blaming a name nobody had just typed (a review). A new name is still held
    to every one seated."""
    game.create("farkle", ["Ann"])
    restarted = {"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test"}
    with create_app(restarted).test_client() as client:
        with client.application.app_context():
            db = get_db()
            with db:
                db.execute(
                    "INSERT INTO events (game_id, seq, kind, event) VALUES (?, 1, 'join', ?)",
                    (game.id, json.dumps({"player": old})),
                )
        url, auth = f"/api/games/{game.id}/players", game.auth
        bob = client.post(url, headers=auth, json={"version": 1, "name": "Bob"})
        assert bob.status_code == 200, bob.get_json()
        names = [p["name"] for p in bob.get_json()["state"]["players"]]
        assert names == ["Ann", old, "Bob"]
        twin = client.post(url, headers=auth, json={"version": 2, "name": "ANN"})
        assert twin.status_code == 422 and "looks like Ann" in twin.get_json()["error"]


def test_the_limits_on_players_and_names_are_inclusive() -> None:
    """Twelve players and names of twenty characters are allowed; one more is not."""
    twelve = [f"P{i}" for i in range(store.MAX_PLAYERS)]
    assert store.clean_players(twelve) == twelve
    with pytest.raises(store.Rejected, match="at most 12 players"):
        store.clean_players([*twelve, "One more"])
    assert store.clean_players(["A" * store.MAX_NAME]) == ["A" * store.MAX_NAME]
    with pytest.raises(store.Rejected, match="longer than 20 characters"):
        store.clean_players(["A" * (store.MAX_NAME + 1)])


def test_a_join_code_is_read_in_any_case_and_grouping(app: Flask, game: GameActions) -> None:
    """The code is read out in groups of four and typed in any case: it opens the game as
    the plain code does, and derives the same rematch code."""
    game.create()
    typed = store.format_token(game.token).lower()
    assert typed != game.token and "-" in typed
    with app.app_context():
        row = store.get_game(game.id)
        assert store.check_token(row, game.token) and store.check_token(row, typed)
        assert not store.check_token(row, game.token[:-1])
        assert store.rematch_token(typed, "ABCDEF") == store.rematch_token(game.token, "ABCDEF")


def test_a_rematch_code_is_its_own() -> None:
    """A rematch's code depends on its game too (the code of one game opens no other), and
    is not the finished game's code (a newcomer to the rematch cannot write that one)."""
    token = "ABCDEFGHJKMN"
    first, second = store.rematch_token(token, "AAAAAA"), store.rematch_token(token, "BBBBBB")
    assert first != second and token not in (first, second)
    assert len(first) == store.TOKEN_LEN and set(first) <= set(store.ALPHABET)


def _count(table: str) -> int:
    return int(get_db().execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def test_a_rematch_links_a_finished_game_once(app: Flask, game: GameActions) -> None:
    """A rematch is made from a finished game only, and once: another phone's, sent after
    the first was linked, opens the first and makes none; the same form sent again opens
    the game it made; a direct second link is refused."""
    game.create("dice-10000", ["Ann", "Bob"], target=1000)
    ask = ("dice-10000", 1000, ["Ann", "Bob"])
    with app.app_context():
        row = store.get_game(game.id)
        with pytest.raises(store.NotFinished, match="no longer finished: no rematch"):
            store.create_rematch(row, game.token, "form-a", *ask)
        assert store.load(game.id).rematch is None and _count("games") == 1
    game.score("Ann", 600)
    game.score("Bob", 950)
    game.score("Ann", 400)
    with app.app_context():
        made, token, how = store.create_rematch(row, game.token, "form-a", *ask)
        assert how == store.Made.NOW and store.check_token(made.game, token or "")
        assert token == store.rematch_token(game.token, made.game.id)
        taken, _token, how = store.create_rematch(row, game.token, "form-b", "farkle", None, [])
        assert how == store.Made.TAKEN and taken.game.id == made.game.id
        again, _token, how = store.create_rematch(row, game.token, "form-a", *ask)
        assert how == store.Made.BEFORE and again.game.id == made.game.id
        assert _count("games") == 2 and _count("forms") == 1
        snap = store.load(game.id)
        with pytest.raises(store.Rejected, match=f"already set up: game {made.game.id}"):
            store.append(game.id, snap.version, "rematch", {"game": "CCCCCC"})
        assert store.load(game.id).rematch == made.game.id
    assert game.get()["rematch"] == made.game.id


def test_a_rematch_and_its_link_are_written_together(app: Flask, game: GameActions) -> None:
    """The link refused by the file (a server stopped between the two writes, as it were)
    leaves no rematch behind, in the file or the cache, and no open transaction; asked
    again, it is made and linked."""
    game.create("farkle", ["Ann", "Bob"], target=500)
    game.score("Ann", 500)
    game.score("Bob", 0)
    with app.app_context():
        get_db().execute(
            "CREATE TRIGGER stop BEFORE INSERT ON events WHEN NEW.kind = 'rematch' "
            "BEGIN SELECT RAISE(ABORT, 'the server stopped'); END"
        )
        row = store.get_game(game.id)
        cached = dict(app.extensions["hotdice_cache"].games)
        with pytest.raises(Exception, match="the server stopped"):
            store.create_rematch(row, game.token, "form", "farkle", 500, ["Ann", "Bob"])
        assert _count("games") == 1 and _count("forms") == 0 and not get_db().in_transaction
        assert app.extensions["hotdice_cache"].games.keys() == cached.keys()
        get_db().execute("DROP TRIGGER stop")
        made, _token, how = store.create_rematch(row, game.token, "form", "farkle", 500, ["Ann"])
        assert how == store.Made.NOW and store.load(game.id).rematch == made.game.id
    assert game.get()["rematch"] == made.game.id


def test_a_refused_write_leaves_no_transaction_open(app: Flask, game: GameActions) -> None:
    """A stale or refused write rolls its transaction back, so the same connection writes
    again at once and holds no write lock."""
    game.create("farkle", ["Ann", "Bob"])
    score = {"type": "score", "player": "Ann", "points": 500}
    with app.app_context():
        with pytest.raises(store.Conflict):
            store.append(game.id, 3, "game", score)
        with pytest.raises(store.Rejected, match="nothing to undo"):
            store.append(game.id, 0, "undo", {})
        assert not get_db().in_transaction
        assert store.append(game.id, 0, "game", score).version == 1


def test_a_won_roll_for_first_player_stands_until_undone(app: Flask, game: GameActions) -> None:
    """Once a roll for first player is won, another is refused (it would re-seat a table
    every phone saw settled, with no one asked); Undo takes the seating back, and the
    table rolls again from the first round."""
    game.create("farkle", ["Ann", "Bob", "Cid"])
    seated = game.first({"Ann": 2, "Bob": 6, "Cid": 4})
    assert seated.get_json()["winner"] == "Bob"
    again = game.first({"Ann": 5, "Bob": 5, "Cid": 1}, expect=422)
    assert "Bob already won" in again.get_json()["error"]
    with app.app_context():
        assert store.load(game.id).table.seated == ["Bob", "Cid", "Ann"]
    game.undo()
    tie = game.first({"Ann": 5, "Bob": 5, "Cid": 1})
    assert sorted(tie.get_json()["roll_again"]) == ["Ann", "Bob"]
    with app.app_context():
        assert store.load(game.id).table.seated is None


def test_a_roll_for_first_player_is_refused_in_its_own_words(game: GameActions) -> None:
    """A roll naming someone who is not in the game says so; once the first turn is
    recorded any roll for first player is refused because the seating is fixed."""
    game.create("farkle", ["Ann", "Bob"])
    stranger = game.first({"Ann": 3, "Bob": 2, "Zed": 6}, expect=422)
    assert "someone who is not in this game" in stranger.get_json()["error"]
    game.score("Ann", 500)
    for rolls in ({"Ann": 3, "Bob": 3}, {"Ann": 3, "Zed": 2}):
        late = game.first(rolls, expect=422)
        assert late.get_json()["error"] == ctable.SEATING_FIXED
