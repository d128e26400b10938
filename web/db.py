"""SQLite access: one connection per request, WAL mode, the event log as the source of truth."""

from __future__ import annotations

import sqlite3
from typing import Any

import click
from flask import Flask, current_app, g

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
"""


def connect(path: str, synchronous: str = "NORMAL") -> sqlite3.Connection:
    """Open a connection in autocommit mode so transactions are explicit (BEGIN IMMEDIATE)."""
    conn = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def get_db() -> sqlite3.Connection:
    """The request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"], current_app.config["DB_SYNCHRONOUS"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    """Close the request's connection, if any."""
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def init_db() -> None:
    """Create the tables if they are missing (idempotent, safe on every start)."""
    get_db().executescript(SCHEMA)


@click.command("init-db")
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


def query_one(sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
    """Run a read query and return its first row."""
    return get_db().execute(sql, params).fetchone()
