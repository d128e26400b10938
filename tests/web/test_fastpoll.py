"""The poll answered before Flask: a phone whose sheet is current gets 304 without a
request context, and anything else goes on to the app."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from flask import Flask

from web import db, fastpoll

if TYPE_CHECKING:
    from tests.web.conftest import GameActions


def test_an_if_none_match_header_names_the_tag_strong_weak_in_a_list_or_any() -> None:
    """Browsers send the tag quoted, proxies may weaken it, and a list may carry several."""
    tag = fastpoll.etag_for("ABCDEF", 3, "")
    for header in (f'"{tag}"', f'W/"{tag}"', f'"gABCDEF-2", "{tag}"', f'"x",W/"{tag}"', "*"):
        assert fastpoll.matches(header, tag), header
    for header in (f'"{tag}0"', '"gABCDEF-2"', tag, f'"{tag}-advice"', ""):
        assert not fastpoll.matches(header, tag), header


def test_an_unchanged_poll_is_answered_before_flask(app: Flask, game: GameActions) -> None:
    """Only a GET of the game itself whose tag names its current version is answered 304
    by the middleware; anything else (another route, another method, an older version, a
    game with no rows or none at all) goes on to Flask."""
    game.create()
    game.score("Ann", 500)
    reached: list[str] = []

    def flask_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        reached.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        start_response("200 OK", [])
        return [b"{}"]

    poll = fastpoll.FastPoll(flask_app, app.config)

    def status(method: str, path: str, header: str) -> str:
        said: list[str] = []
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "HTTP_IF_NONE_MATCH": header}
        poll(environ, lambda line, _headers: said.append(line))
        return said[0]

    epoch = db.file_epoch(app.config["DATABASE"])
    now, before = (f'"{fastpoll.etag_for(game.id, v, epoch)}"' for v in (1, 0))
    assert status("GET", f"/api/games/{game.id}", now) == "304 Not Modified"
    assert status("GET", f"/api/games/{game.id}", f"W/{now}") == "304 Not Modified"
    assert status("GET", f"/api/games/{game.id.lower()}", now) == "304 Not Modified"
    assert reached == []
    empty = game.client.post("/api/games", json={"rules": "farkle"}).get_json()["id"]
    for method, path, header in (
        ("GET", f"/api/games/{game.id}", before),
        ("GET", f"/api/games/{game.id}/log", now),
        ("POST", f"/api/games/{game.id}", now),
        ("GET", "/api/games/ZZZZZZ", '"gZZZZZZ-0"'),
        ("GET", f"/api/games/{empty}", f'"g{empty}-0"'),
    ):
        assert status(method, path, header) == "200 OK"
        assert reached[-1] == f"{method} {path}"


def test_a_poll_of_a_damaged_file_is_flask_s_503_not_a_bare_500(
    app: Flask, game: GameActions
) -> None:
    """A review of the store: the middleware's version read raised past Flask, so every
    phone's once-a-second poll got the server's plain 500 (and a traceback in its log),
    where every other route said the file is damaged in a JSON 503."""
    game.create()
    game.score("Ann", 500)
    path = app.config["DATABASE"]
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(path, "r+b") as file:  # (the events table's first page overwritten)
        file.seek((root[0] - 1) * size)
        file.write(b"\xff" * 64)
    resp = game.client.get(f"/api/games/{game.id}", headers={"If-None-Match": f'"g{game.id}-1"'})
    assert resp.status_code == 503
    assert "(database disk image is malformed)" in resp.get_json()["error"]
