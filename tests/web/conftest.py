"""Fixtures for the web tests: a fresh app per test, a client, and helpers for games/servers."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.test import EnvironBuilder, run_wsgi_app

from web import create_app

ROOT = Path(__file__).resolve().parents[2]


HARD_PHOTO = ROOT / "sample_images" / "WIN_20221210_14_48_10.jpg"
"""A sample photo of two dice, sure of both as shot; `hard_photo` makes it hard."""


def hard_photo(kind: str) -> bytes:
    """`HARD_PHOTO` as PNG bytes, taken as the phone moved 15 px sideways (``"moved"``: its
    dice smeared) or from five times as far (``"far"``: its dice 12 px)."""
    import cv2
    import numpy as np

    image = cv2.imread(str(HARD_PHOTO))
    assert image is not None
    if kind == "moved":
        image = cv2.filter2D(image, -1, np.full((1, 15), 1 / 15, np.float32))
    elif kind == "far":
        image = cv2.resize(image, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA)
    else:
        raise ValueError(f"no hard photo {kind!r}")
    return bytes(cv2.imencode(".png", image)[1].tobytes())


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "test.sqlite"),
            "SECRET_KEY": "test",
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    # Like the server's pooled connections: one open connection keeps the WAL file alive,
    # so each request's close is not the last one (which would checkpoint every time).
    keeper = sqlite3.connect(app.config["DATABASE"])
    yield app
    keeper.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def past_the_client(app: Flask, path: str, **request: Any) -> tuple[int, str]:
    """(status, body) of one request made on the WSGI app directly, for a Host the test
    client cannot take: its cookie jar parses the request's address after the app has
    answered, and a port past 65535 ("x:99999999") raises there. ``request``: what
    `werkzeug.test.EnvironBuilder` takes (method, headers, json, data...)."""
    body, status, _headers = run_wsgi_app(app, EnvironBuilder(path, **request).get_environ())
    return int(status.split()[0]), b"".join(body).decode()


@contextmanager
def heavy_work_full(app: Flask, leave: int = 0) -> Iterator[int]:
    """Every slot of heavy work taken (but ``leave``), as if other phones were reading
    photos or solving rules (yields how many); given back afterwards."""
    heavy = app.extensions["hotdice_heavy"]
    taken = 0
    while heavy.acquire(blocking=False):
        taken += 1
    for _ in range(min(leave, taken)):  # (the ones left free, given back at once)
        heavy.release()
        taken -= 1
    try:
        yield taken
    finally:
        for _ in range(taken):
            heavy.release()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


class GameActions:
    """Repeated API actions on one game (like flaskr's AuthActions): create, act, read."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.id = ""
        self.token = ""
        self.version = 0
        self.state: Any = None

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def create(
        self,
        rules: str = "ten-thousand",
        players: list[str] | None = None,
        target: int | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"rules": rules, "players": players or ["Ann", "Bob"]}
        if target is not None:
            body["target"] = target
        resp = self.client.post("/api/games", json=body)
        assert resp.status_code == 201, resp.get_json()
        out = resp.get_json()
        self.id, self.token, self.version, self.state = (
            out["id"],
            out["token"],
            out["version"],
            out["state"],
        )
        return out

    def _update(self, resp: Any, expect: int) -> Any:
        assert resp.status_code == expect, (resp.status_code, resp.get_json())
        if resp.status_code == 200:
            body = resp.get_json()
            self.version, self.state = body["version"], body["state"]
        return resp

    def _write(self, path: str, body: dict[str, Any], version: int | None, expect: int) -> Any:
        """POST one write with the game's token, on its version unless ``version`` is given
        (a phone that has not seen the latest rows), and keep what a success answers."""
        body = {"version": self.version if version is None else version, **body}
        resp = self.client.post(f"/api/games/{self.id}/{path}", headers=self.auth, json=body)
        return self._update(resp, expect)

    def event(self, event: dict[str, Any], expect: int = 200) -> Any:
        return self._write("events", {"event": event}, None, expect)

    def score(self, player: str, points: int, expect: int = 200) -> Any:
        return self.event({"type": "score", "player": player, "points": points}, expect)

    def undo(self, expect: int = 200) -> Any:
        return self._write("undo", {}, None, expect)

    def join(self, name: str, *, version: int | None = None, expect: int = 200) -> Any:
        """A player joins from the game's phone; ``version`` sends it as a phone behind the
        game would (a join may be behind, unless a tie for first player came since)."""
        return self._write("players", {"name": name}, version, expect)

    def first(
        self,
        rolls: dict[str, int] | list[dict[str, int]],
        *,
        version: int | None = None,
        expect: int = 200,
    ) -> Any:
        """A roll for first player: one round's dice, or every round so far as a list
        (everyone's, then the tied players'); ``version`` as for `join`."""
        return self._write("first", {"rolls": rolls}, version, expect)

    def get(self) -> dict[str, Any]:
        resp = self.client.get(f"/api/games/{self.id}")
        assert resp.status_code == 200
        return resp.get_json()


@pytest.fixture
def game(client: FlaskClient) -> GameActions:
    return GameActions(client)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real ``hotdice serve`` process (waitress) on loopback, for browser and crash tests.

    It runs ``python -m companion.cli serve``, i.e. the ``hotdice`` command, so the
    entry-point plug-in path is what gets tested.
    """

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> Server:
        env = dict(
            os.environ, PYTHONPATH=str(ROOT), HOTDICE_INSTANCE=str(self.db.parent / "instance")
        )
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "companion.cli",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--db",
                    str(self.db),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/rules", timeout=1) as resp:
                    resp.read()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(self.log.read_text()) from None
                time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log.read_text())

    def kill(self) -> None:
        """SIGKILL: no chance to flush or clean up, as in a crash."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "server.sqlite").start()
    yield srv
    srv.stop()
