"""The hot path of live sync: an unchanged poll answered 304 before Flask is entered.

Every phone asks ``GET /api/games/<id>`` each second with ``If-None-Match``. When the
game's version (one indexed query) still matches the ETag, this WSGI middleware answers
``304 Not Modified`` itself; anything else goes to Flask, which serves the same ETags
(``etag_for``, below). It roughly halves the server's CPU per phone.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from flask import Response, request

from . import db, store

PATH = re.compile(r"/api/games/([A-Za-z0-9]{1,16})")
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def etag_for(game_id: str, version: int, epoch: str) -> str:
    """The ETag of a game at a version of the database file ``epoch`` (`db.file_epoch`;
    without quotes); shared with the Flask views."""
    return f"g{game_id}-{version}" + (f"-{epoch}" if epoch else "")


def versioned(
    tag: str,
    key: tuple[Any, ...],
    render: Callable[[], str],
    *,
    mimetype: str | None = None,
    cache_control: str = "no-cache",
) -> Response:
    """A poll's answer in Flask for one version of a game, `tag` its ETag: a 304 where the
    phone shows that version already, else the body `render` makes, once per `key` for
    every phone (`store.memo`); revalidated on every poll (`cache_control`)."""
    # (If-None-Match compares weakly, RFC 9110: a proxy that gzips makes the ETag weak,
    # W/"...", and `matches` takes it so; Werkzeug's `contains` compares strongly)
    if request.if_none_match.contains_weak(tag):
        resp = Response(status=304)
    else:
        resp = Response(store.memo(key, render), mimetype=mimetype)
    resp.set_etag(tag)
    resp.headers["Cache-Control"] = cache_control
    return resp


def matches(header: str, tag: str) -> bool:
    """Whether an If-None-Match header names ``tag`` (strong or weak) or is ``*``."""
    for part in header.split(","):
        part = part.strip()
        if part in ("*", f'"{tag}"', f'W/"{tag}"'):
            return True
    return False


class FastPoll:
    """Wrap ``app.wsgi_app``; answer matching conditional polls without building a request."""

    def __init__(self, wsgi_app: WSGIApp, config: dict[str, Any]) -> None:
        self.wsgi_app = wsgi_app
        self.config = config

    def version(self, game_id: str) -> tuple[int, str]:
        """The game's version, and the database file's epoch it counts in."""
        reuse = bool(self.config.get("DB_REUSE"))
        path = self.config["DATABASE"]
        epoch = db.file_epoch(path)  # (first, as `db.get_db` takes it)
        conn = db.connection(path, self.config["DB_SYNCHRONOUS"], reuse=reuse)
        try:
            return db.game_version(conn, game_id), epoch
        finally:
            if not reuse:
                conn.close()

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        header = environ.get("HTTP_IF_NONE_MATCH")
        if header and environ.get("REQUEST_METHOD") == "GET":
            match = PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match:
                game_id = match.group(1).upper()
                try:
                    version, epoch = self.version(game_id)
                except sqlite3.Error:  # (a damaged or locked file: Flask says so, a 503)
                    return self.wsgi_app(environ, start_response)
                tag = etag_for(game_id, version, epoch)
                if version and matches(header, tag):
                    start_response(
                        "304 Not Modified", [("ETag", f'"{tag}"'), ("Cache-Control", "no-cache")]
                    )
                    return []
        return self.wsgi_app(environ, start_response)
