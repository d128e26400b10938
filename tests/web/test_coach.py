"""The coach: the strategy advisor's advice through the API (figures from companion.advice)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import pytest
from flask.testing import FlaskClient

from companion import tie_break
from companion.advice import advise_roll, advise_state
from companion.rules import Rules, load_rules
from companion.strategy import turn_rules
from companion.tie_break import tie_break_chance, tie_break_race
from companion.winprob_turn import TurnValues
from tests.web.conftest import heavy_work_full
from web import coach, photos

if TYPE_CHECKING:
    from tests.web.conftest import GameActions


def advice(game: GameActions, wait: float = 60.0) -> dict[str, Any]:
    """The game's advice, asked again while it is pending (as the phone does)."""
    deadline = time.monotonic() + wait
    while True:
        resp = game.client.get(f"/api/games/{game.id}/advice")
        assert resp.status_code == 200, resp.get_json()
        body = resp.get_json()
        assert body["version"] == game.version
        pending = body["advice"] is not None and body["advice"]["situation"] == "pending"
        if not pending or time.monotonic() > deadline:
            return body["advice"]
        assert resp.headers["Cache-Control"] == "no-store" and "ETag" not in resp.headers
        time.sleep(0.05)


def test_fresh_turn_roll_keep_and_bank(game: GameActions) -> None:
    game.create("farkle", ["Ann", "Bob"])
    a = advice(game)
    assert (a["situation"], a["player"], a["advice"], a["can_bank"]) == (
        "fresh",
        "Ann",
        "roll",
        False,
    )
    assert round(a["expected_if_roll"], 2) == 542.06
    assert abs(a["bust_probability"] - 1080 / 46656) < 1e-12

    game.event({"type": "roll", "dice": [4, 4, 4, 4, 2, 3]})
    a = advice(game)
    assert a["situation"] == "keep" and a["roll"] == [4, 4, 4, 4, 2, 3]
    ranked = advise_roll(load_rules("farkle"), [4, 4, 4, 4, 2, 3], on_board=False)["options"]
    assert a["options"] == ranked
    assert a["options"][0]["keep"] == [4, 4, 4, 4]
    values = [o["expected"] for o in a["options"]]
    assert values == sorted(values, reverse=True)

    game.event({"type": "keep", "dice": [4, 4, 4, 4]})  # 1,000 with 2 dice in hand
    a = advice(game)
    assert (a["situation"], a["advice"], a["turn_total"], a["dice"]) == (
        "bank_or_roll",
        "bank",
        1000,
        2,
    )
    assert a["expected_if_bank"] == 1000.0 and round(a["expected_if_roll"], 2) == 652.77
    assert abs(a["bust_probability"] - 16 / 36) < 1e-12

    game.event({"type": "bank"})
    a = advice(game)
    assert (a["situation"], a["player"]) == ("fresh", "Bob")


def test_advice_is_cached_per_version_with_an_etag(game: GameActions) -> None:
    game.create("farkle", ["Ann", "Bob"])
    url = f"/api/games/{game.id}/advice"
    first = game.client.get(url)
    tag = first.headers["ETag"]
    again = game.client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304
    game.score("Ann", 500)
    fresh = game.client.get(url, headers={"If-None-Match": tag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != tag
    assert fresh.get_json()["advice"]["player"] == "Bob"


def test_advice_past_the_cap_on_heavy_work_is_pending(game: GameActions) -> None:
    # (working advice out takes a slot of heavy work, once the rules' turn is solved in the
    # background: while every slot is busy the phone is told so, and nothing is cached, so
    # the next ask answers)
    game.create("zilch", ["Ann", "Bob"])
    assert advice(game)["situation"] == "fresh"  # (the turn solved)
    game.score("Ann", 300)
    with heavy_work_full(game.client.application):
        resp = game.client.get(f"/api/games/{game.id}/advice")
    busy = resp.get_json()["advice"]
    assert resp.status_code == 200 and resp.headers["Cache-Control"] == "no-store"
    assert (busy["situation"], busy["player"], busy["retry_ms"]) == (
        "pending",
        "Bob",
        coach.RETRY_MS,
    )
    assert "busy" in busy["reason"]
    assert advice(game, wait=0)["situation"] == "fresh"


def test_a_turn_slow_to_solve_is_solved_in_the_background_and_said_pending(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review of the API: a strike penalty's first advice solved its long run inside the
    request (8-12 s), holding a server thread and a slot of heavy work, so every other
    game's photos and keeps were "busy". Past `TURN_WAIT_S` the advice is pending; the
    rules' turn is solved once, in the background, and the advice comes when it is."""
    release = threading.Event()
    real = coach._solve_turn
    solves: list[Rules] = []

    def slow(rules: Rules) -> None:
        solves.append(rules)
        release.wait(30)
        real(rules)

    monkeypatch.setattr(coach, "_solve_turn", slow)
    monkeypatch.setattr(coach.TURNS, "done", {})
    monkeypatch.setattr(coach, "TURN_WAIT_S", 0.05)
    game.create("zilch", ["Ann", "Bob"], target=5000)
    try:
        for _ in range(2):  # (asked again: queued once)
            a = advice(game, wait=0)
            assert a["situation"] == "pending" and a["player"] == "Ann"
            assert a["reason"] == "Working out the odds of a turn under these rules…"
        assert solves == [turn_rules(load_rules("zilch", target=5000))]
        # a request waiting on it holds no slot of heavy work: the rule check's ranked
        # keeps are answered meanwhile (two such waits had made them "busy")
        score = {"rules": "farkle", "dice": [1, 5, 2, 3, 4, 6], "coach": True}
        monkeypatch.setattr(coach, "TURN_WAIT_S", 2.0)
        asked: list[dict[str, Any]] = []
        with heavy_work_full(game.client.application, leave=1):
            waiting = threading.Thread(target=lambda: asked.append(advice(game, wait=0)))
            waiting.start()
            time.sleep(0.5)  # (the ask is waiting on the solve)
            assert waiting.is_alive()
            assert game.client.post("/api/score", json=score).status_code == 200
            waiting.join()
        assert asked[0]["situation"] == "pending"
        monkeypatch.setattr(coach, "TURN_WAIT_S", 0.05)
        # another game to another target rests on the same solve
        game.create("zilch", ["Cid", "Dee"], target=8000)
        assert advice(game, wait=0)["situation"] == "pending"
        zilch = turn_rules(load_rules("zilch", target=5000))
        assert solves.count(zilch) == 1  # (and farkle's, for the rule check's ranking)
    finally:
        release.set()
    assert advice(game)["situation"] == "fresh"
    assert solves.count(zilch) == 1


def test_advice_with_nothing_to_decide_takes_no_slot_of_heavy_work(game: GameActions) -> None:
    # (a finished game's advice is null at once: it is not told "busy" while photos are read)
    game.create("farkle", ["Ann", "Bob"], target=1000)
    game.score("Ann", 1000)
    game.score("Bob", 0)
    with heavy_work_full(game.client.application) as taken:
        resp = game.client.get(f"/api/games/{game.id}/advice")
    assert taken and resp.status_code == 200 and resp.get_json()["advice"] is None
    # ...nor is a 5150 bonus roll's (one roll of all the dice: nothing to choose)
    game.create("dice-10000+the-5150", ["Ann", "Bob"])
    for player, points in (("Ann", 5150), ("Bob", 9000), ("Ann", 4650), ("Bob", 1000)):
        game.score(player, points)
    assert game.state["phase"] == "bonus"
    with heavy_work_full(game.client.application):
        resp = game.client.get(f"/api/games/{game.id}/advice")
    assert resp.status_code == 200 and resp.get_json()["advice"] is None


def test_unknown_game_is_404(client: FlaskClient) -> None:
    resp = client.get("/api/games/ZZZZZZ/advice")
    assert resp.status_code == 404 and "error" in resp.get_json()


def test_final_round_plays_for_the_lead_and_over_is_null(game: GameActions) -> None:
    game.create("ten-thousand", ["Ann", "Bob"], target=1000)
    game.score("Ann", 1000)
    a = advice(game)
    rules = load_rules("ten-thousand", target=1000)
    w = tie_break_chance(rules)  # Bob would play second in the tie-break
    assert a["player"] == "Bob" and a["need"] == 1050 and a["tie_value"] == w
    fresh = advise_state(rules, turn_total=0, dice=6, on_board=False, need=1050, tie=w)
    assert a["chance_if_roll"] == pytest.approx(fresh["chance_if_roll"])
    # (a tie, banking 1,000, is worth the tie-break: a little more than passing alone)
    only_passing = advise_state(rules, turn_total=0, dice=6, on_board=False, need=1050)
    assert a["chance_if_roll"] > only_passing["chance_if_roll"]
    game.score("Bob", 0)
    assert game.state["phase"] == "over"
    assert advice(game) is None


def test_a_games_first_advice_starts_solving_its_tie_break(game: GameActions) -> None:
    """The last player's tie needs the rules' tie-break race (40 s under hot-dice's
    doublings): the first advice of a game that may end in one queues it for the one
    background solver; a game that ends at the target queues nothing."""
    game.create("dice-10000", ["Ann", "Bob"])
    advice(game)
    assert tie_break_race(load_rules("dice-10000")) not in coach.RACES.done
    game.create("ten-thousand+threshold", ["Ann", "Bob"], target=3000)
    assert advice(game)["situation"] == "fresh"
    race = tie_break_race(load_rules("ten-thousand+threshold"))
    solved = coach.RACES.done[race]
    assert solved.wait(60)
    assert coach.RACES.thread is not None and coach.RACES.thread.daemon
    # the same turns under another target, entry threshold and strike penalty: the same race
    game.create("ten-thousand+greed+strike-out", ["Cid", "Dee"], target=5000)
    advice(game)
    assert coach.RACES.done[race] is solved


def test_while_the_race_is_solved_the_advice_says_so_and_is_not_cached(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No request waits on the solver (a table of phones asking at every change held every
    server thread): the advice is pending, not cached, until the race is solved."""
    monkeypatch.setattr(coach.RACES, "queued", 0)  # (the solver's queue full: none queued)
    monkeypatch.setattr(coach.RACES, "done", {})
    game.create("farkle", ["Ann", "Bob"], target=1000)
    game.score("Ann", 1000)
    a = advice(game, wait=0)
    assert a == {
        "player": "Bob",
        "situation": "pending",
        "reason": coach.RACE_PENDING,
        "retry_ms": coach.RETRY_MS,
    }
    assert coach.RACES.done == {}
    monkeypatch.setattr(coach.RACES, "queued", 8)  # (room again: asked again, it is queued)
    a = advice(game)
    assert a["situation"] == "fresh" and a["tie_value"] == tie_break_chance(load_rules("farkle"))


def test_the_solver_outlives_a_race_that_fails(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race that raises is left to the request that needs it; the solver goes on to the
    next race, and a dead solver is started again."""
    real = coach.tie_break_first_turn

    def failing(rules: Rules) -> TurnValues:
        if rules.dice == 5:
            raise ArithmeticError("the tie-break chance did not converge")
        return real(rules)

    monkeypatch.setattr(coach, "tie_break_first_turn", failing)
    monkeypatch.setattr(coach.RACES, "done", {})
    game.create("minnesota", ["Ann", "Bob"])
    advice(game)
    game.create("ten-thousand", ["Cid", "Dee"])
    advice(game)
    for race in coach.RACES.done.values():
        assert race.wait(60)
    assert coach.RACES.thread is not None and coach.RACES.thread.is_alive()


def test_a_need_past_what_the_coach_values_is_advice_unavailable(game: GameActions) -> None:
    """A game to a million: Bob's last turn needs 1,000,050, past `strategy.MAX_NEED`; the
    coach says so at once instead of filling tables of that size."""
    game.create("farkle", ["Ann", "Bob"], target=1_000_000)
    game.score("Ann", 1_000_000)
    a = advice(game)
    assert a["situation"] == "unavailable" and a["player"] == "Bob"
    assert a["error"] == (
        "points needed in one turn: the advisor values at most 100,000, not 1,000,050"
    )


def test_takeover_offer_compares_with_a_fresh_turn(game: GameActions) -> None:
    game.create("minnesota", ["Ann", "Bob"])
    game.score("Ann", 1000)
    game.score("Bob", 1000)
    game.event({"type": "roll", "dice": [1, 1, 1, 2, 3]})
    game.event({"type": "keep", "dice": [1, 1, 1]})
    game.event({"type": "bank"})
    assert game.state["takeover"]
    a = advice(game)
    assert (a["situation"], a["player"], a["advice"]) == ("takeover", "Bob", "takeover")
    assert a["expected_if_takeover"] == a["takeover"]["expected_if_roll"]
    assert a["expected_if_fresh"] == a["fresh"]["expected_if_roll"]
    assert a["expected_if_takeover"] > a["expected_if_fresh"]
    assert a["takeover"]["can_bank"] is False


def test_setup_without_players_has_no_advice(game: GameActions) -> None:
    resp = game.client.post("/api/games", json={"rules": "farkle", "players": []})
    game_id = resp.get_json()["id"]
    body = game.client.get(f"/api/games/{game_id}/advice").get_json()
    assert body == {"version": 0, "advice": None}


def test_score_api_adds_ranked_keeps_with_coach(client: FlaskClient) -> None:
    roll = [1, 1, 2, 3, 4, 6]
    plain = client.post("/api/score", json={"rules": "farkle", "dice": roll}).get_json()
    assert "advice" not in plain
    for resp in (
        client.post("/api/score", json={"rules": "farkle", "dice": roll, "coach": True}),
        client.post("/api/score?coach=1", json={"rules": "farkle", "dice": roll}),
    ):
        body = resp.get_json()
        assert resp.status_code == 200 and body["best"] == plain["best"]
        best = body["advice"]["options"][0]
        assert (best["keep"], best["then"], round(best["expected"], 1)) == ([1], "roll", 370.1)
    # the switch is true or false: a "yes" is not silently a no
    odd = client.post("/api/score", json={"rules": "farkle", "dice": roll, "coach": "yes"})
    assert odd.status_code == 400
    assert odd.get_json()["error"] == "coach must be true or false, not 'yes'"


def test_read_api_adds_ranked_keeps_with_coach(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fake_read(data: bytes, rules: str | None, *, max_pixels: int) -> dict[str, Any]:
        return {"dice": [5, 5, 5, 2, 3, 4], "detections": [], "rules": rules}

    monkeypatch.setattr(photos, "read_photo", fake_read)
    resp = client.post("/api/read?rules=farkle&coach=1", data=b"img", content_type="image/png")
    body = resp.get_json()
    assert resp.status_code == 200
    assert body["advice"] == advise_roll(load_rules("farkle"), [5, 5, 5, 2, 3, 4])
    assert body["advice"]["options"][0]["keep"] == [5, 5, 5]
    plain = client.post("/api/read?rules=farkle", data=b"img", content_type="image/png")
    assert "advice" not in plain.get_json()
    too_many = client.post(
        "/api/read?rules=minnesota&coach=1", data=b"img", content_type="image/png"
    ).get_json()
    assert too_many["advice"] is None and "advice_error" in too_many


def test_the_coach_switched_off_adds_no_advice(client: FlaskClient) -> None:
    """``"coach": false`` (and ``?coach=0``) is a no: the plain report, no ranking asked."""
    roll = {"rules": "farkle", "dice": [1, 1, 2, 3, 4, 6]}
    for resp in (
        client.post("/api/score", json={**roll, "coach": False}),
        client.post("/api/score?coach=0", json=roll),
    ):
        assert resp.status_code == 200 and "advice" not in resp.get_json()


def test_a_coach_flag_that_is_neither_yes_nor_no_is_refused(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``?coach=maybe`` is a 400 naming the flag, not a silent no; a photo is not read for
    a request that will be refused."""
    reads: list[bytes] = []
    monkeypatch.setattr(photos, "read_photo", lambda data, *a, **k: reads.append(data))
    roll = {"rules": "farkle", "dice": [1, 1, 2, 3, 4, 6]}
    for resp in (
        client.post("/api/score?coach=maybe", json=roll),
        client.post("/api/read?rules=farkle&coach=maybe", data=b"img", content_type="image/png"),
    ):
        assert resp.status_code == 400
        assert resp.get_json()["error"] == (
            "?coach= takes 1 or 0 (or true/false, yes/no, on/off), not 'maybe'"
        )
    assert reads == []
    with_body = client.post("/api/score?coach=maybe", json={**roll, "coach": False})
    assert with_body.status_code == 400  # (the body's flag wins, but a bad query is no flag)
    assert client.post("/api/score?coach=OFF", json=roll).status_code == 200


def test_a_photo_read_without_rules_or_dice_gets_no_ranking(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coach ranks keeps under the rules asked for: asked without ``rules`` there is
    none to rank under, a 400 before the photo is read (as ``hotdice read --coach``
    without ``--rules`` is refused; it was a 200 that left the coach out unsaid); a photo
    without dice has no keep to rank (``advice`` null, and no error: nothing went wrong)."""
    read: list[int] = [5, 5, 5, 2, 3, 4]
    reads: list[bytes] = []

    def fake_read(data: bytes, rules: str | None, *, max_pixels: int) -> dict[str, Any]:
        reads.append(data)
        return {"dice": read, "detections": [], "rules": rules}

    monkeypatch.setattr(photos, "read_photo", fake_read)
    resp = client.post("/api/read?coach=1", data=b"img", content_type="image/png")
    assert resp.status_code == 400 and reads == []
    assert resp.get_json()["error"].startswith("coach=1 needs rules=NAME")
    resp = client.post("/api/read?coach=0", data=b"img", content_type="image/png")
    assert resp.status_code == 200 and "advice" not in resp.get_json()
    read = []
    resp = client.post("/api/read?rules=farkle&coach=1", data=b"img", content_type="image/png")
    body = resp.get_json()
    assert resp.status_code == 200 and body["advice"] is None and "advice_error" not in body


def test_a_tie_or_beat_games_first_advice_starts_solving_its_tie_break(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """minnesota ends in a tie-or-beat final round, which may end in a tie-break too."""
    monkeypatch.setattr(coach.RACES, "done", {})
    game.create("minnesota", ["Ann", "Bob"])
    advice(game)
    assert tie_break_race(load_rules("minnesota")) in coach.RACES.done


def test_the_rule_checks_ranking_under_rules_not_yet_solved_is_pending(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule check's coach solved new rules' turn inside the request, holding a slot of
    heavy work: a review's two such requests held both for 7-8 s, every table's advice and
    photos "busy". The turn is solved in the background, the ranking pending meanwhile,
    with no slot taken; asked again once it is solved, the keeps are ranked."""
    release = threading.Event()
    real = coach._solve_turn

    def slow(rules: Rules) -> None:
        release.wait(30)
        real(rules)

    monkeypatch.setattr(coach, "_solve_turn", slow)
    monkeypatch.setattr(coach.TURNS, "done", {})
    monkeypatch.setattr(coach, "TURN_WAIT_S", 0.05)
    score = {"rules": "zilch+progressive", "dice": [1, 5, 2, 3, 3, 4], "coach": True}
    try:
        with heavy_work_full(game.client.application):  # (none free: not needed)
            resp = game.client.post("/api/score", json=score)
        assert resp.status_code == 200
        body = resp.get_json()
        assert body["advice"] == {
            "situation": "pending",
            "reason": coach.TURN_PENDING,
            "retry_ms": coach.RETRY_MS,
        }
        assert body["best"]["points"] == 150  # (the score itself is answered)
    finally:
        release.set()
    deadline = time.monotonic() + 60
    while "options" not in (game.client.post("/api/score", json=score).get_json()["advice"]):
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_race_forgotten_by_tie_break_is_solved_again_in_the_background(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race remembered as solved that `tie_break` has since forgotten (its reads reorder
    what it keeps, the coach's list did not: a review) is queued again, the advice pending,
    where the request had solved it itself, holding a slot of heavy work for 30-85 s."""
    release = threading.Event()

    def slow(rules: Any) -> None:
        release.wait(30)

    game.create("farkle", ["Ann", "Bob"], target=1000)
    game.score("Ann", 1000)
    the_race = tie_break_race(load_rules("farkle", target=1000))
    solved = threading.Event()
    solved.set()
    monkeypatch.setattr(coach.RACES, "done", {the_race: solved})  # (remembered as solved)
    monkeypatch.setattr(tie_break, "_first_turns", OrderedDict())  # (and forgotten there)
    monkeypatch.setattr(coach, "tie_break_first_turn", slow)
    try:
        a = advice(game, wait=0)
        assert (a["situation"], a["player"]) == ("pending", "Bob")
        assert coach.RACES.done[the_race] is not solved  # (queued again)
    finally:
        release.set()


def test_advice_waits_for_no_race_still_being_solved(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race queued but not yet solved is not solved inside the request: the advice that
    rests on it is pending until the background solver is done."""
    release = threading.Event()

    def slow(rules: Any) -> None:
        release.wait(30)

    monkeypatch.setattr(coach, "tie_break_first_turn", slow)
    monkeypatch.setattr(coach.RACES, "done", {})
    try:
        game.create("farkle", ["Ann", "Bob"], target=1000)
        game.score("Ann", 1000)
        a = advice(game, wait=0)
        assert (a["situation"], a["player"]) == ("pending", "Bob")
        assert list(coach.RACES.done.values())[0].is_set() is False
    finally:
        release.set()
