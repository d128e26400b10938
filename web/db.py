"""SQLite access: one connection per request, WAL mode, the event log as the source of truth."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    rules TEXT NOT NULL,
    target INTEGER,
    players TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    event TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS forms (
    key TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE
) WITHOUT ROWID;
"""


BUSY_SECONDS = 5.0
"""How long a write waits for another's lock: another program's (a ``sqlite3`` shell left
in a transaction) held each write its server thread, so every table's sheet, for SQLite's
10 s; and under the phone's own wait (game.js ``WITHIN_MS``), so its 503 is shown."""


def connect(path: str, synchronous: str = "NORMAL") -> sqlite3.Connection:
    """Open a connection in autocommit mode so transactions are explicit (BEGIN IMMEDIATE)."""
    conn = sqlite3.connect(
        path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
    )
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


_local = threading.local()


GONE = (
    "the database file was moved or deleted while the server ran: put it back, or restart "
    "the server"
)


def _a_file(path: str) -> bool:
    """Whether ``path`` names a file on disk (not SQLite's ":memory:" or a "file:" URI)."""
    return bool(path) and path != ":memory:" and not path.startswith("file:")


def _file_at(path: str) -> tuple[int, int] | None:
    """Which file ``path`` names now (device, inode); None for one that is not a plain path.
    A file deleted under the server is an OperationalError (a 503, `errors`): a connection
    still open on it would take writes into a file no one will open again, and a new one
    would make an empty file in its place."""
    if not _a_file(path):
        return None
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise sqlite3.OperationalError(GONE) from None
    return found.st_dev, found.st_ino


def file_epoch(path: str) -> str:
    """Which file ``path`` names now, as a short tag ("" for no plain file). A game's
    version counts its rows in one file: a backup put back under the server counts them
    again from fewer, so the same version can be other rows. Caches (`store.Cache`), ETags
    and the phones' pages (`data-epoch`) go by the version and this tag together."""
    found = _file_at(path)
    if found is None:
        return ""
    # (the inode alone: a disk mounted again, a container restarted, may give the same
    # file another device number, and every phone would reload for nothing)
    return hashlib.blake2b(str(found[1]).encode(), digest_size=4).hexdigest()


def pooled(path: str, synchronous: str) -> sqlite3.Connection:
    """This thread's long-lived connection to ``path`` (server threads are reused), opened
    again when another file has taken the path's place (a backup put back)."""
    pool: dict[tuple[str, str], tuple[sqlite3.Connection, tuple[int, int] | None]]
    pool = getattr(_local, "pool", {})
    _local.pool = pool
    now = _file_at(path)
    held = pool.get((path, synchronous))
    if held is not None and held[1] != now:
        held[0].close()
        held = None
    if held is None:
        held = pool[(path, synchronous)] = (connect(path, synchronous), now)
    return held[0]


def connection(path: str, synchronous: str, *, reuse: bool) -> sqlite3.Connection:
    """A connection to the file at ``path`` now: this thread's own (`pooled`) with
    ``reuse``, else a new one, for the caller to close."""
    if reuse:
        return pooled(path, synchronous)
    _file_at(path)
    return connect(path, synchronous)


def fold_log_in(path: str) -> None:
    """Copy the write-ahead log into the database file and empty it, as a server stops.
    Its threads' connections (`pooled`) are never closed, so SQLite had left every game
    since the log's last checkpoint in ``-wal`` alone: a copy of the file was a backup
    without them, and a backup put back beside that log was mended with it, or damaged
    ("database disk image is malformed"). Best effort: a file gone or held by another
    program is left as it is (SQLite replays its log when it is next opened)."""
    if not _a_file(path) or not os.path.exists(path):
        return
    try:
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    except sqlite3.Error:
        pass


def game_version(conn: sqlite3.Connection, game_id: str) -> int:
    """A game's version: the number of rows in its log (one indexed query)."""
    row = conn.execute(
        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
    ).fetchone()
    return int(row[0])


def get_db() -> sqlite3.Connection:
    """The request's connection, opened on first use.

    With ``DB_REUSE`` (set by ``hotdice serve``) each server thread keeps its connection
    between requests, which saves opening the file on every poll.
    """
    if "db" not in g:
        path, sync = current_app.config["DATABASE"], current_app.config["DB_SYNCHRONOUS"]
        g.db_reused = bool(current_app.config.get("DB_REUSE"))
        # (the epoch first: a file put back between the two is then read under the
        # epoch before, which only makes the next request's answers new again; the other
        # way round, the old file's rows would be kept as the new one's)
        g.db_epoch = file_epoch(path)
        g.db = connection(path, sync, reuse=g.db_reused)
    return g.db


def db_epoch() -> str:
    """`file_epoch` of the file the request's connection is open on."""
    get_db()
    return str(g.db_epoch)


def close_db(_exc: BaseException | None = None) -> None:
    """Close the request's connection (or hand a reused one back, never mid-transaction)."""
    conn = g.pop("db", None)
    if conn is None:
        return
    if g.pop("db_reused", False):
        if conn.in_transaction:
            conn.rollback()
        return
    conn.close()


COLUMNS = {
    "games": {"id", "token_hash", "rules", "target", "players", "created"},
    "events": {"game_id", "seq", "kind", "event", "created"},
    "forms": {"key", "game_id"},
}
"""What the schema gives each table; another program's SQLite file may use the names."""


def check_schema(path: str) -> None:
    """Refuse a file whose tables of our names are someone else's: it would start, then
    fail on every game; and one with tables of its own but not all of ours, or a
    ``user_version`` hotdice never set: another program's, whose file the start would
    change (our tables added, WAL mode, its ``user_version``, by which programs decide
    their own upgrades). Read on a plain connection, as ``connect`` would switch the file
    to WAL mode for good."""
    conn = sqlite3.connect(path)
    try:
        _check_tables_of_ours(conn)
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
            if not name.startswith("sqlite_")
        ]
        theirs = [name for name in tables if name not in COLUMNS]
        # (a hotdice file, with all our tables, may hold one of its owner's: a backup copy)
        if theirs and not set(COLUMNS) <= set(tables):
            more = f" and {len(theirs) - 3} more" if len(theirs) > 3 else ""
            raise sqlite3.DatabaseError(
                f"not a hotdice database: it has tables of its own ({', '.join(theirs[:3])}{more})"
            )
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, FORMS_DIGESTED):
            raise sqlite3.DatabaseError(
                f"not a database this hotdice writes: its user_version is {version} "
                f"(another program's, or a later hotdice's; this one's is {FORMS_DIGESTED})"
            )
    finally:
        conn.close()


def _check_tables_of_ours(conn: sqlite3.Connection) -> None:
    """Our tables' columns, where a table has one of our names."""
    for table, wanted in COLUMNS.items():
        columns = conn.execute(f"PRAGMA table_info({table})").fetchall()
        have = {row[1] for row in columns}
        if have and not wanted <= have:
            raise sqlite3.DatabaseError(
                f"not a hotdice database: its {table} table has no "
                + ", ".join(sorted(wanted - have))
            )
        # (a column of its own that a row must fill: every hotdice write would fail)
        must = [row[1] for row in columns if row[1] not in wanted and row[3] and row[4] is None]
        if must:
            raise sqlite3.DatabaseError(
                f"not a hotdice database: its {table} table must have {', '.join(must)}"
            )


def create_private(path: str) -> None:
    """Make a new database file readable by its owner only, as SQLite would make it
    readable by all: its rows beside the server's secret are the games' records. A file
    that exists keeps its mode; a path SQLite cannot open is left for it to say why."""
    if not _a_file(path):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:
        pass


def owner_only(path: str | os.PathLike[str], *, keep_group: bool = False) -> None:
    """A file an older hotdice made readable by every local user (umask 022) made its
    owner's only, or its owner's and group's (``keep_group``: a database set up for a
    group keeps that), where this server's user owns it (POSIX modes; elsewhere, or
    where there is no such file, nothing is done)."""
    if os.name != "posix":
        return
    shut = 0o007 if keep_group else 0o077
    try:
        found = os.stat(path)
        if found.st_mode & shut and found.st_uid == os.getuid():
            os.chmod(path, found.st_mode & 0o777 & ~shut)
    except OSError:  # (best effort: none there, or modes a FAT stick refuses to change)
        pass


FORMS_DIGESTED = 1
"""The file's ``user_version`` since the ``forms`` table holds digests of the forms
(`store._form_row`): its rows of before held the forms' own keys, from which, with the
server's secret, a game's join code was derived. They are dropped at the first start that
finds them (a form sent again across the upgrade makes a game of its own)."""


def init_db() -> None:
    """Create the tables if they are missing (idempotent, safe on every start), in a file
    that is hotdice's or new; and bring an older hotdice file's rows up to date."""
    create_private(current_app.config["DATABASE"])
    check_schema(current_app.config["DATABASE"])
    if _a_file(current_app.config["DATABASE"]):  # (hotdice's, or new: no one else's to read)
        # (SQLite keeps its log files beside the file a symlink leads to)
        real = os.path.realpath(current_app.config["DATABASE"])
        for part in ("", "-wal", "-shm"):
            owner_only(real + part, keep_group=True)
    conn = get_db()
    conn.executescript(SCHEMA)
    check_writable(conn)
    if conn.execute("PRAGMA user_version").fetchone()[0] == 0:
        conn.executescript(
            f"BEGIN IMMEDIATE; DELETE FROM forms; PRAGMA user_version = {FORMS_DIGESTED}; COMMIT;"
        )


READ_ONLY = (
    "the file cannot be written ({}): give the server's user write access to it and its folder"
)


def check_writable(conn: sqlite3.Connection) -> None:
    """Refuse a file SQLite opened read-only (its mode 0444, a read-only mount): the
    server started, then answered every write with a 503 "try again" for good. A write
    that changes nothing, rolled back; a lock another program holds is let be (it is
    released: a write then waits for it)."""
    try:
        conn.execute("BEGIN")
        conn.execute("DELETE FROM forms WHERE 0")  # (a statement that writes: refused)
    except sqlite3.OperationalError as exc:
        if str(getattr(exc, "sqlite_errorname", "")).startswith("SQLITE_READONLY"):
            raise sqlite3.OperationalError(READ_ONLY.format(exc)) from exc
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database tables."""
    init_db()
    click.echo("Initialized the database.")


def init_app(app: Flask) -> None:
    """Register teardown and CLI, and make sure the schema exists."""
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    with app.app_context():
        init_db()
