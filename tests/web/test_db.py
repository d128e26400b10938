"""The database file: a hotdice one opens (and reopens) as it is, another program's is refused
before anything is written to it."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask

from tests.web.conftest import free_port
from web import create_app, store
from web import db as web_db

if TYPE_CHECKING:
    from flask.testing import FlaskClient

    from tests.web.conftest import GameActions


def _app(db: Path) -> Flask:
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
    assert set(_tables(db)) == {"games", "events", "forms"}
    again = _app(db).test_client()  # a restart keeps every game
    assert again.get(f"/api/games/{made.get_json()['id']}").status_code == 200


def test_a_new_file_and_the_secret_key_are_private_an_old_file_is_no_one_elses(
    tmp_path: Path,
) -> None:
    """A security review: both were made readable by every local user (umask 022), and a
    form's link in the file with the secret beside it gave its game's join code."""
    db = tmp_path / "games.sqlite"
    instance = tmp_path / "instance"
    client = create_app({"TESTING": True, "DATABASE": str(db), "INSTANCE_PATH": str(instance)})
    assert client.test_client().post("/api/games", json={"rules": "farkle"}).status_code == 201
    for path in (db, instance / "secret_key"):
        assert path.stat().st_mode & 0o777 == 0o600, path
    conn = sqlite3.connect(db)  # (SQLite gives the log files beside it the file's mode)
    try:
        conn.execute("DELETE FROM forms")
        assert Path(f"{db}-wal").stat().st_mode & 0o777 == 0o600
    finally:
        conn.close()
    key = (instance / "secret_key").read_text()
    (instance / "secret_key").chmod(0o644)  # (as an older hotdice made it: made private)
    create_app({"TESTING": True, "DATABASE": str(db), "INSTANCE_PATH": str(instance)})
    assert (instance / "secret_key").stat().st_mode & 0o777 == 0o600
    shared = tmp_path / "shared.sqlite"
    shared.touch(mode=0o640)
    shared.chmod(0o640)  # (a file set up for a group keeps its mode)
    _app(shared)
    assert shared.stat().st_mode & 0o777 == 0o640
    # (an upgrade review: a file an older hotdice made, readable by every local user, its
    # log files too, is no longer, its group's reading kept)
    keeper = sqlite3.connect(db)  # (its log files kept while it is open)
    try:
        keeper.execute("SELECT COUNT(*) FROM games").fetchone()
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            path.chmod(0o644)
        create_app({"TESTING": True, "DATABASE": str(db), "INSTANCE_PATH": str(instance)})
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            assert path.stat().st_mode & 0o777 == 0o640, path
    finally:
        keeper.close()
    again = create_app({"TESTING": True, "DATABASE": str(db), "INSTANCE_PATH": str(instance)})
    assert again.secret_key == key  # (read back, not made anew)


def test_owner_only_shuts_out_others_only_where_it_can(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What others may do goes, the owner's and (``keep_group``) the group's stay; another
    user's file, and one whose mode cannot change (a FAT stick), are left as they are;
    a database reached by a symlink has the log files beside its real file shut too."""
    import os

    from web.db import owner_only

    file = tmp_path / "f"
    for before, kept, grouped in (
        (0o644, 0o600, 0o640),
        (0o664, 0o600, 0o660),
        (0o606, 0o600, 0o600),
    ):
        for keep_group, after in ((False, kept), (True, grouped)):
            file.touch()
            file.chmod(before)
            owner_only(file, keep_group=keep_group)
            assert file.stat().st_mode & 0o777 == after, (oct(before), keep_group)
    file.chmod(0o644)
    with monkeypatch.context() as m:
        m.setattr(os, "getuid", lambda: os.stat(file).st_uid + 1)  # (another user's)
        owner_only(file)
        assert file.stat().st_mode & 0o777 == 0o644

        def refused(path: object, mode: int) -> None:
            raise PermissionError(1, "Operation not permitted")

        m.setattr(os, "getuid", lambda: os.stat(file).st_uid)
        m.setattr(os, "chmod", refused)
        owner_only(file)  # (no error: the server still starts)
    real = tmp_path / "real"
    real.mkdir()
    db = real / "games.sqlite"
    _app(db)
    link = tmp_path / "games-link.sqlite"
    link.symlink_to(db)
    keeper = sqlite3.connect(link)
    try:
        keeper.execute("SELECT COUNT(*) FROM games").fetchone()
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            path.chmod(0o644)
        _app(link)
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            assert path.stat().st_mode & 0o777 == 0o640, path
    finally:
        keeper.close()


def test_an_older_files_form_links_go_at_its_first_start_and_later_ones_stay(
    tmp_path: Path,
) -> None:
    """A review: a file from before the forms table held digests kept each form's own key,
    from which, with the server's secret, its game's join code was derived."""
    db = tmp_path / "games.sqlite"
    client = _app(db).test_client()
    made = client.post(
        "/api/games", json={"rules": "farkle"}, headers={"Idempotency-Key": "k" * 24}
    )
    assert made.status_code == 201
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == web_db.FORMS_DIGESTED
        assert conn.execute("SELECT count(*) FROM forms").fetchone()[0] == 1
        conn.execute("PRAGMA user_version = 0")  # (the file as an older hotdice left it)
        conn.execute("INSERT INTO forms VALUES (?, ?)", ("f" * 64, made.get_json()["id"]))
    _app(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM forms").fetchone()[0] == 0
        assert conn.execute("PRAGMA user_version").fetchone()[0] == web_db.FORMS_DIGESTED
    again = _app(db).test_client()
    assert again.post("/api/games", json={"rules": "farkle"}).status_code == 201
    keyed = again.post("/api/games", json={"rules": "zilch"}, headers={"Idempotency-Key": "m" * 24})
    _app(db)  # (a later start keeps the links made since)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT game_id FROM forms").fetchall() == [(keyed.get_json()["id"],)]


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
    before = db.read_bytes()
    with pytest.raises(sqlite3.DatabaseError, match="not a hotdice database: its games table"):
        _app(db)
    assert db.read_bytes() == before  # no events table, nor WAL mode, in someone else's file
    assert not db.with_name("other.sqlite-wal").exists()


def test_a_file_with_tables_of_its_own_or_a_version_not_ours_is_refused_untouched(
    tmp_path: Path,
) -> None:
    """A review of the command line: another program's file with no table of our names was
    taken, and changed for good (our tables, WAL mode, and its user_version, by which that
    program decides its own upgrades)."""
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE users (id INTEGER)")
    before = db.read_bytes()
    with pytest.raises(sqlite3.DatabaseError, match=r"it has tables of its own \(users\)"):
        _app(db)
    assert db.read_bytes() == before
    versioned = tmp_path / "versioned.sqlite"
    with sqlite3.connect(versioned) as conn:
        conn.execute("PRAGMA user_version = 7")
    with pytest.raises(sqlite3.DatabaseError, match="its user_version is 7"):
        _app(versioned)
    with sqlite3.connect(versioned) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (7,)
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []
    # a hotdice file with a table of its owner's beside ours (a backup copy) is still ours
    ours = tmp_path / "ours.sqlite"
    _app(ours)
    with sqlite3.connect(ours) as conn:
        conn.execute("CREATE TABLE games_backup AS SELECT * FROM games")
    assert _app(ours).test_client().post("/api/games", json={"rules": "farkle"}).status_code == 201


def test_a_table_of_our_name_with_a_column_a_row_must_fill_is_refused(tmp_path: Path) -> None:
    """Every column of ours and one more that no hotdice write fills: every create would
    fail, so the file is refused at start-up (a column with a default, or that may be
    empty, is fine)."""
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE forms (key TEXT PRIMARY KEY, game_id TEXT, title TEXT NOT NULL)")
    with pytest.raises(sqlite3.DatabaseError, match="its forms table must have title"):
        _app(db)
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE forms ADD COLUMN note TEXT NOT NULL DEFAULT ''")
        conn.execute("ALTER TABLE forms DROP COLUMN title")
    _app(db)  # (a default fills it)


def test_a_table_of_our_name_with_only_some_of_our_columns_is_refused(tmp_path: Path) -> None:
    """Another program's table may share some column names: every one of ours must be there
    (more are fine, as in a file a later version of hotdice has written to)."""
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE events (game_id TEXT, seq INTEGER)")
    with pytest.raises(sqlite3.DatabaseError, match="its events table has no created, event, kind"):
        _app(db)
    ours = tmp_path / "later.sqlite"
    with sqlite3.connect(ours) as conn:
        conn.execute(
            "CREATE TABLE games (id TEXT PRIMARY KEY, token_hash TEXT, rules TEXT, "
            "target INTEGER, players TEXT, created TEXT, note TEXT)"
        )
    client = _app(ours).test_client()
    assert client.post("/api/games", json={"rules": "farkle"}).status_code == 201


def test_serve_names_the_file_it_refuses(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from web.cli import main

    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE events (game_id TEXT, at TEXT)")
    with socket.socket() as probe:  # a free port: the address is checked first
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    instance = tmp_path / "instance"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HOTDICE_INSTANCE", str(instance))
        assert main(["serve", "--host", "127.0.0.1", "--db", str(db), "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"cannot open the database {db}: not a hotdice database: its events table" in err
    assert not (instance / "secret_key").exists()  # (a refused start writes no key)


def test_a_secret_key_left_empty_is_made_again_and_one_not_written_is_said_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A review of the store: a first start on a full disk left an empty secret_key, and
    every later start served its pages as 500s ("no secret key was set"), while the start
    that failed had blamed the database, on another disk."""
    from web.cli import main

    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "secret_key").write_text("\n")  # (a kill between truncating and writing)
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "g.sqlite"), "INSTANCE_PATH": str(instance)}
    )
    key = (instance / "secret_key").read_text()
    assert len(key) == 64 and app.secret_key == key
    assert app.test_client().get("/").status_code == 200  # (was a 500: no secret key)
    (instance / "secret_key").unlink()

    def full(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    def served(*_a: object, **_k: object) -> None:
        raise AssertionError("the server started")  # (rather than serve on for ever)

    monkeypatch.setattr("os.fsync", full)
    monkeypatch.setattr("waitress.create_server", served)
    monkeypatch.setenv("HOTDICE_INSTANCE", str(instance))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    db = tmp_path / "g.sqlite"
    assert main(["serve", "--host", "127.0.0.1", "--db", str(db), "--port", port]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"hotdice: error: cannot make the secret key {instance / 'secret_key'}: "
        "No space left on device\n"
    )
    assert sorted(p.name for p in instance.iterdir()) == []  # (nothing half made)


def test_a_restart_rebuilds_games_with_undos_exactly(app: Flask, game: GameActions) -> None:
    """A restarted server folds each game from its stored rows, undos included: the same
    players, scores, turn and version as before, and the next write goes on from there."""
    game.create("farkle", ["Ann", "Bob", "Cy"])
    for player, points in (("Ann", 500), ("Bob", 300), ("Cy", 0), ("Ann", 650)):
        game.score(player, points)
    game.undo()  # Ann's 650
    game.score("Ann", 700)
    game.score("Bob", 450)
    game.undo()  # Bob's 450
    game.undo()  # Ann's 700
    before = game.get()
    assert [p["score"] for p in before["state"]["players"]] == [500, 300, 0]
    assert before["state"]["current_player"] == "Ann"
    game.client = _app(Path(app.config["DATABASE"])).test_client()  # a restart: no cache
    after = game.get()
    assert (after["version"], after["state"]) == (before["version"], before["state"])
    game.score("Ann", 800)  # at the version the restarted server gives
    assert [p["score"] for p in game.get()["state"]["players"]] == [1300, 300, 0]


def test_an_older_version_asked_late_is_folded_and_never_replaces_the_newest(
    app: Flask, game: GameActions
) -> None:
    """Requests race: one that read the version before a write may ask for the snapshot
    after a newer one is cached. It gets its own version, and the cache keeps the newest
    (else the next poll's ETag and sheet would step back a beat)."""
    from web import store

    game.create("farkle", ["Ann", "Bob"])
    first = game.version
    game.score("Ann", 500)
    game.score("Bob", 300)
    with app.app_context():
        row = store.get_game(game.id)
        newest = store.snapshot_at(row, game.version)
        old = store.snapshot_at(row, first)
        assert old.version == first and old.state_json is not None
        assert [p["score"] for p in old.state_json["players"]] == [0, 0]
        assert (
            store._cache().get(store.epoch(), game.id) is newest and newest.state_json is not None
        )
        assert [p["score"] for p in newest.state_json["players"]] == [500, 300]


class _FullDisk:
    """A connection whose COMMIT fails on a full disk as SQLite's does: the transaction is
    rolled back by SQLite itself before the error is raised."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __getattr__(self, name: str) -> object:
        return getattr(self.conn, name)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            self.conn.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, *args)


def test_a_write_on_a_full_disk_names_it_and_records_nothing(
    client: FlaskClient, game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write's own ROLLBACK, after SQLite had rolled the failed COMMIT back, raised "no
    transaction is active" in place of the full disk, in the 503 and in the log (a review)."""
    game.create()
    real = store.get_db
    monkeypatch.setattr(store, "get_db", lambda: _FullDisk(real()))
    resp = game.score("Ann", 300, expect=503)
    assert "(database or disk is full)" in resp.get_json()["error"]
    monkeypatch.setattr(store, "get_db", real)
    assert game.get()["version"] == 0
    game.score("Ann", 300)  # (space again: the write goes in)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (sqlite3.DatabaseError("database disk image is malformed"), 503),
        (sqlite3.ProgrammingError("Incorrect number of bindings supplied"), 500),
        (sqlite3.IntegrityError("UNIQUE constraint failed: events.game_id, events.seq"), 500),
    ],
)
def test_a_damaged_database_file_is_a_503_naming_it_and_a_bug_is_no_such_file(
    client: FlaskClient,
    game: GameActions,
    monkeypatch: pytest.MonkeyPatch,
    error: sqlite3.DatabaseError,
    status: int,
) -> None:
    """SQLite's "database disk image is malformed" is a DatabaseError, not an
    OperationalError: it had been a bare 500. An IntegrityError or a ProgrammingError is a
    DatabaseError too, but a bug: Flask's 500 with its traceback logged, not the 503 of a
    damaged file (a review)."""
    game.create()

    def failing(*_a: object) -> None:
        raise error

    monkeypatch.setattr(store, "current_version", failing)
    client.application.config["PROPAGATE_EXCEPTIONS"] = False
    resp = client.get(f"/api/games/{game.id}")
    said = resp.get_json()["error"]
    assert resp.status_code == status
    assert ("(database disk image is malformed)" in said) == (status == 503)


def test_a_file_deleted_under_the_server_takes_no_write_and_one_put_back_is_served(
    tmp_path: Path,
) -> None:
    """A review of the store: a thread's long-lived connection wrote on into a file deleted
    under the server, each write acknowledged and all lost at the restart, while a new
    connection made an empty file in its place. Now every request says the file is gone,
    and a file put back at the path (a backup) is the one served."""
    db = tmp_path / "games.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "t", "DB_REUSE": True})
    client = app.test_client()
    made = client.post("/api/games", json={"rules": "farkle", "players": ["Ann", "Bob"]})
    game_id, token = made.get_json()["id"], made.get_json()["token"]
    write = {"version": 0, "event": {"type": "score", "player": "Ann", "points": 500}}
    auth = {"Authorization": f"Bearer {token}"}
    backup = tmp_path / "backup.sqlite"
    with sqlite3.connect(db) as conn, sqlite3.connect(backup) as copy:
        conn.backup(copy)
    for path in tmp_path.glob("games.sqlite*"):
        path.unlink()
    for answer in (
        client.post(f"/api/games/{game_id}/events", json=write, headers=auth),
        client.get(f"/api/games/{game_id}", headers={"If-None-Match": f'"g{game_id}-0"'}),
        client.get(f"/g/{game_id}"),
    ):
        assert answer.status_code == 503
        assert "database file was moved or deleted while the server ran" in answer.get_data(
            as_text=True
        )
    assert not db.exists()  # (no empty file made in its place)
    # the rule check needs no database: from a game's link too, only no way back is shown
    check = client.get(f"/check?preset=farkle&game={game_id}")
    assert check.status_code == 200 and b"back-to-game" not in check.data
    backup.rename(db)
    assert client.post(f"/api/games/{game_id}/events", json=write, headers=auth).status_code == 200
    assert _app(db).test_client().get(f"/api/games/{game_id}").get_json()["version"] == 1


def test_a_backup_put_back_under_the_server_is_served_as_it_is(tmp_path: Path) -> None:
    """A review of history: a backup put back while the server ran was served from the
    server's caches, by version: Bob's 300, recorded on it at version 2, was shown as the
    2,000 of the file before, and a game made after the backup took a write as a 500
    (FOREIGN KEY). Now another file at the path is another epoch: nothing is taken from
    before it, its ETags differ, and a page of the file before is refused a write (409)."""
    db = tmp_path / "games.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "t", "DB_REUSE": True})
    client = app.test_client()

    def made() -> tuple[str, dict[str, str]]:
        body = client.post("/api/games", json={"rules": "ten-thousand", "players": ["Ann", "Bob"]})
        return body.get_json()["id"], {"Authorization": f"Bearer {body.get_json()['token']}"}

    def score(player: str, points: int, version: int, **more: str) -> Any:
        event = {"type": "score", "player": player, "points": points}
        return client.post(
            f"/api/games/{game_id}/events",
            json={"version": version, "event": event, **more},
            headers=auth,
        )

    game_id, auth = made()
    assert score("Ann", 500, 0).status_code == 200
    backup = tmp_path / "backup.sqlite"
    with sqlite3.connect(db) as conn, sqlite3.connect(backup) as copy:
        conn.backup(copy)
    assert score("Bob", 2000, 1).status_code == 200
    before = client.get(f"/api/games/{game_id}")
    epoch = before.get_json()["epoch"]
    assert f'data-epoch="{epoch}"' in client.get(f"/g/{game_id}/sheet").get_data(as_text=True)
    later, later_auth = made()  # (not in the backup)
    for path in tmp_path.glob("games.sqlite*"):
        path.unlink()
    backup.rename(db)
    now = client.get(f"/api/games/{game_id}", headers={"If-None-Match": before.headers["ETag"]})
    assert now.status_code == 200 and now.get_json()["version"] == 1
    assert now.get_json()["epoch"] != epoch
    # a page of the file before, at a version the backup has too, is stale all the same
    stale = score("Bob", 300, 1, epoch=epoch)
    assert stale.status_code == 409 and stale.get_json()["version"] == 1
    assert "put back from a backup" in stale.get_json()["error"]
    assert stale.get_json()["epoch"] == now.get_json()["epoch"]  # (what to send it on)
    made_now = score("Bob", 300, 1, epoch=now.get_json()["epoch"])
    assert made_now.status_code == 200 and made_now.get_json()["epoch"] == now.get_json()["epoch"]
    answer = client.get(f"/api/games/{game_id}")
    totals = {p["name"]: p["score"] for p in answer.get_json()["state"]["players"]}
    assert totals == {"Ann": 500, "Bob": 300}
    assert answer.headers["ETag"] != before.headers["ETag"]  # (both at version 2)
    assert "2,000" not in client.get(f"/g/{game_id}/sheet").get_data(as_text=True)
    lost = client.post(
        f"/api/games/{later}/events",
        json={"version": 0, "event": {"type": "score", "player": "Ann", "points": 500}},
        headers=later_auth,
    )
    assert lost.status_code == 404 and "no game" in lost.get_json()["error"]


def test_a_write_held_by_another_program_s_lock_is_a_503_the_phone_waits_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review of the store: a write waited SQLite's 10 s on a lock another program held,
    as long as the phone waits (game.js), which then blamed the network, not the 503."""
    script = (Path(web_db.__file__).parent / "static" / "game.js").read_text()
    within = re.search(r"const WITHIN_MS = (\d+);", script)
    assert within and web_db.BUSY_SECONDS * 1000 <= int(within[1]) / 2
    monkeypatch.setattr(web_db, "BUSY_SECONDS", 0.2)
    path = tmp_path / "games.sqlite"
    client = _app(path).test_client()
    made = client.post("/api/games", json={"rules": "farkle", "players": ["Ann", "Bob"]})
    game_id, token = made.get_json()["id"], made.get_json()["token"]
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # (a sqlite3 shell left in a transaction)
    try:
        resp = client.post(
            f"/api/games/{game_id}/events",
            json={"version": 0, "event": {"type": "score", "player": "Ann", "points": 500}},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert resp.status_code == 503 and "(database is locked)" in resp.get_json()["error"]
        assert client.get(f"/api/games/{game_id}").status_code == 200  # (reads go on)
    finally:
        other.execute("ROLLBACK")
        other.close()


def _read_only(path: str, synchronous: str = "NORMAL") -> sqlite3.Connection:
    """`db.connect` as SQLite opens a file it may not write (mode 0444 to a user who is not
    root, a read-only mount): read-only, without a word. Root writes any file whatever
    its mode, so the tests open it so themselves."""
    conn = sqlite3.connect(
        f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
    )
    conn.row_factory = sqlite3.Row
    return conn


def test_a_database_file_that_cannot_be_written_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only file (chmod 444, in a folder the server may write) started, then every
    write was a 503 "attempt to write a readonly database; try again", for good."""
    from web.cli import main

    path = tmp_path / "games.sqlite"
    _app(path).test_client().post("/api/games", json={"rules": "farkle", "players": ["Ann"]})
    monkeypatch.setattr(web_db, "connect", _read_only)
    with pytest.raises(sqlite3.OperationalError, match="the file cannot be written"):
        _app(path)
    monkeypatch.setenv("HOTDICE_INSTANCE", str(tmp_path / "instance"))
    port = str(free_port())
    assert main(["serve", "--host", "127.0.0.1", "--db", str(path), "--port", port]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"hotdice: error: cannot open the database {path}: the file cannot be written "
        "(attempt to write a readonly database): give the server's user write access to "
        "it and its folder\n"
    )


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="root writes a file whatever its mode (the test above opens it read-only)",
)
def test_a_database_file_of_mode_0444_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    _app(path)
    path.chmod(0o444)
    with pytest.raises(sqlite3.OperationalError, match="the file cannot be written"):
        _app(path)


def test_a_database_another_program_holds_locked_still_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start's check that the file can be written does not refuse a file another
    program has locked for a moment (its write waits for the lock, as any write does)."""
    monkeypatch.setattr(web_db, "BUSY_SECONDS", 0.2)
    path = tmp_path / "games.sqlite"
    _app(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert _app(path).test_client().get("/api/rules").status_code == 200
    finally:
        other.execute("ROLLBACK")
        other.close()
