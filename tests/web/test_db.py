"""The database file: a hotdice one opens (and reopens) as it is, another program's is refused
before anything is written to it."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest

from web import create_app


def _app(db: Path):
    return create_app({"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "test"})


def _tables(db: Path) -> dict[str, list[str]]:
    with sqlite3.connect(db) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: [r[1] for r in conn.execute(f"PRAGMA table_info({n})")] for n in names}


def test_a_new_file_gets_the_schema_and_reopens_with_its_games(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    client = _app(db).test_client()
    made = client.post("/api/games", json={"rules": "farkle", "players": ["Ann", "Bob"]})
    assert made.status_code == 201
    assert set(_tables(db)) == {"games", "events"}
    again = _app(db).test_client()  # a restart keeps every game
    assert again.get(f"/api/games/{made.get_json()['id']}").status_code == 200


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
    before = db.read_bytes()
    with pytest.raises(sqlite3.DatabaseError, match="not a hotdice database: its games table"):
        _app(db)
    assert db.read_bytes() == before  # no events table, nor WAL mode, in someone else's file
    assert not db.with_name("other.sqlite-wal").exists()


def test_serve_names_the_file_it_refuses(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from web.cli import main

    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE events (game_id TEXT, at TEXT)")
    with socket.socket() as probe:  # a free port: the address is checked first
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    assert main(["serve", "--host", "127.0.0.1", "--db", str(db), "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"cannot open the database {db}: not a hotdice database: its events table" in err
