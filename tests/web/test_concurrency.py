"""Racing writers and crashes: one winner per version, and no acknowledged action lost."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any

from flask import Flask

if TYPE_CHECKING:
    from tests.web.conftest import GameActions, Server

THREADS = 12
ROUNDS = 8


def race(
    app: Flask,
    game_id: str,
    token: str,
    version: int,
    bodies: list[dict[str, Any]],
    path: str = "events",
) -> list[int]:
    """Every thread posts at the same instant on the same version; returns the statuses."""
    barrier = threading.Barrier(len(bodies))
    statuses: list[int] = [0] * len(bodies)

    def post(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        resp = client.post(
            f"/api/games/{game_id}/{path}",
            json={"version": version, **bodies[i]},
            headers={"Authorization": f"Bearer {token}"},
        )
        statuses[i] = resp.status_code
        resp.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_exactly_one_writer_wins_each_version(app: Flask, game: GameActions) -> None:
    game.create("ten-thousand", ["Ann", "Bob"], target=100_000)
    for rnd in range(ROUNDS):
        player = ["Ann", "Bob"][rnd % 2]
        bodies = [
            {"event": {"type": "score", "player": player, "points": 50 * (i + 1)}}
            for i in range(THREADS)
        ]
        statuses = race(app, game.id, game.token, rnd, bodies)
        assert sorted(statuses) == [200] + [409] * (THREADS - 1), statuses
    body = game.get()
    assert body["version"] == ROUNDS and len(body["state"]["history"]) == ROUNDS
    log = game.client.get(f"/api/games/{game.id}/log").get_json()
    assert len(log["events"]) == ROUNDS


def test_racing_creates_with_one_idempotency_key_make_one_game(app: Flask) -> None:
    """A client's create sent again while the first is still on its way, the same
    ``Idempotency-Key`` on both: one game, every answer its id and token."""
    barrier = threading.Barrier(THREADS)
    answers: list[Any] = [None] * THREADS

    def post(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        resp = client.post(
            "/api/games",
            json={"rules": "farkle", "players": ["Ann", "Bob"]},
            headers={"Idempotency-Key": "one race, 0123456789abcdef"},
        )
        answers[i] = (resp.status_code, resp.get_json()["id"], resp.get_json()["token"])
        resp.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(answers)) == 1 and answers[0][0] == 201, answers


def test_racing_undos_remove_one_action_only(app: Flask, game: GameActions) -> None:
    game.create()
    game.score("Ann", 500)
    game.score("Bob", 300)
    statuses = race(app, game.id, game.token, 2, [{}] * THREADS, path="undo")
    assert sorted(statuses) == [200] + [409] * (THREADS - 1)
    state = game.get()
    assert state["version"] == 3 and len(state["state"]["history"]) == 1


def _post(url: str, body: dict[str, Any], token: str) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        with err:
            return err.code, json.load(err)


def _create(server: Server, target: int = 1_000_000) -> dict[str, Any]:
    req = urllib.request.Request(
        server.url + "/api/games",
        method="POST",
        data=json.dumps(
            {"rules": "ten-thousand", "target": target, "players": ["Ann", "Bob"]}
        ).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.load(resp)


def test_race_through_the_real_server(server: Server) -> None:
    game = _create(server)
    url = f"{server.url}/api/games/{game['id']}/events"

    def go(
        i: int, version: int, player: str, barrier: threading.Barrier, results: list[int]
    ) -> None:
        barrier.wait()
        status, _ = _post(
            url,
            {
                "version": version,
                "event": {"type": "score", "player": player, "points": 50 * (i + 1)},
            },
            game["token"],
        )
        results.append(status)

    for version in range(4):
        player = ["Ann", "Bob"][version % 2]
        barrier = threading.Barrier(THREADS)
        results: list[int] = []
        threads = [
            threading.Thread(target=go, args=(i, version, player, barrier, results))
            for i in range(THREADS)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [200] + [409] * (THREADS - 1)
    assert _get(f"{server.url}/api/games/{game['id']}")["version"] == 4


def test_kill_and_restart_loses_no_acknowledged_action(server: Server) -> None:
    game = _create(server)
    url = f"{server.url}/api/games/{game['id']}/events"
    acked: list[dict[str, Any]] = []
    stop = threading.Event()

    def writer() -> None:
        version = 0
        while not stop.is_set():
            player = ["Ann", "Bob"][version % 2]
            event = {"type": "score", "player": player, "points": 50 * (version % 7 + 1)}
            try:
                status, body = _post(url, {"version": version, "event": event}, game["token"])
            except (OSError, http.client.HTTPException):  # killed mid-answer: IncompleteRead
                return
            if status != 200:
                return
            version = body["version"]
            acked.append(event)

    thread = threading.Thread(target=writer)
    thread.start()
    while len(acked) < 25 and thread.is_alive():
        time.sleep(0.002)
    server.kill()
    stop.set()
    thread.join()
    server.start()
    log = _get(f"{server.url}/api/games/{game['id']}/log")
    assert log["events"][: len(acked)] == acked
    assert len(log["events"]) in (len(acked), len(acked) + 1)
    state = _get(f"{server.url}/api/games/{game['id']}")
    assert state["version"] == len(log["events"])
    status, body = _post(
        url,
        {
            "version": state["version"],
            "event": {"type": "score", "player": state["state"]["current_player"], "points": 100},
        },
        game["token"],
    )
    assert status == 200 and body["version"] == state["version"] + 1
