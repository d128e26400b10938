"""One helper for JSON errors, and handlers that turn every failure into a one-line message."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from werkzeug.exceptions import BadHost, HTTPException

from companion.errors import brief

from . import store

HOST_UNUSABLE = "the request's Host header is not an address phones can open"


def error_response(status: int, message: str, **extra: Any) -> tuple[Response, int]:
    """``{"error": message, ...}`` with the status; the API's only error shape."""
    body = {"error": brief(message), **extra}
    return jsonify(body), status


def _wants_json() -> bool:
    api = request.path == "/api" or request.path.startswith("/api/")
    return api or not request.accept_mimetypes.accept_html


def _answer(status: int, message: str) -> Any:
    """The error as JSON for the API and scripts, as a short page for a browser."""
    if _wants_json():
        return error_response(status, message)
    if isinstance(request.routing_exception, BadHost):  # (no URL adapter: no link built)
        return render_template("error_bare.html", message=brief(message)), status
    return render_template("error.html", message=brief(message)), status


def _too_large(app: Flask) -> str:
    """Which limit a 413 is: the upload's size, or (a body under it) a form's own limits,
    a field held in memory or its count of parts."""
    json_limit = app.config.get("MAX_JSON_SIZE")
    if request.is_json and json_limit:
        return f"JSON body too large: at most {json_limit // 1024} KB"
    limit = app.config.get("MAX_CONTENT_LENGTH")
    length = request.content_length
    field, parts = app.config.get("MAX_FORM_MEMORY_SIZE"), app.config.get("MAX_FORM_PARTS")
    under_upload = length is not None and (limit is None or length <= limit)
    if (under_upload or request.mimetype == URL_ENCODED) and (field or parts):
        limits = [
            f"a field over {field // 1000:,} KB" if field else "",
            f"more than {parts:,} parts" if parts else "",
        ]
        words = "form too large: " + ", or ".join(x for x in limits if x)
        if request.mimetype == "multipart/form-data" and field:  # (a photo sent as a text
            # part, `curl -F 'photo=<roll.jpg'`, is such a field)
            words += "; a photo goes in a file part, with a filename"
        return words
    if limit is None:  # (a limit of some other layer: a proxy's, the server's)
        return "upload too large"
    return f"upload too large: at most {limit // (1024 * 1024)} MB"


URL_ENCODED = "application/x-www-form-urlencoded"


def limit_bodies_read_whole() -> None:
    """Bodies read whole into memory are held to small limits of their own. A plain
    (url-encoded) form, to the size of one form field: Werkzeug (from 3.1.9) no longer
    applies ``MAX_FORM_MEMORY_SIZE`` to it, and a 20 MB list of players would be parsed,
    then echoed back in the page. A JSON body, to ``MAX_JSON_SIZE``: no request needs more
    than a few KB, and an 18 MB one nested 7 deep took 13 s to parse and check, holding
    every game's polling with it."""
    if request.mimetype == URL_ENCODED:
        limit = current_app.config.get("MAX_FORM_MEMORY_SIZE")
    elif request.is_json:
        limit = current_app.config.get("MAX_JSON_SIZE")
    else:
        return
    if limit:
        request.max_content_length = min(limit, request.max_content_length or limit)


_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
_DAMAGED_SAID = ("database disk image is malformed", "file is not a database")


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite found its file damaged (by its error's name, or its words where an
    error came without one)."""
    return getattr(exc, "sqlite_errorname", None) in _DAMAGED or str(exc).startswith(_DAMAGED_SAID)


def init_app(app: Flask) -> None:
    """Map domain exceptions and HTTP errors to JSON (API) or a short HTML page."""
    app.before_request(limit_bodies_read_whole)

    @app.errorhandler(store.NotFound)
    def not_found(exc: store.NotFound) -> Any:
        return _answer(404, str(exc))

    @app.errorhandler(store.Conflict)
    def conflict(exc: store.Conflict) -> Any:
        return error_response(409, str(exc), **store.public(exc.snapshot))

    @app.errorhandler(store.Rejected)
    def rejected(exc: store.Rejected) -> Any:
        return error_response(422, str(exc))

    @app.errorhandler(sqlite3.OperationalError)
    def database_unavailable(exc: sqlite3.OperationalError) -> Any:
        # locked by another writer, read-only, disk full: nothing was written (the write's
        # transaction rolled back), so the phone may simply try again
        app.logger.warning("database error on %s: %s", request.path, exc)
        return _answer(503, f"the scoresheet's database cannot be used just now ({exc}); try again")

    @app.errorhandler(sqlite3.DatabaseError)
    def database_damaged(exc: sqlite3.DatabaseError) -> Any:
        # (a file damaged under the server, "database disk image is malformed": not the
        # request's fault, and no bare 500; the operator's log says so as an error. Any
        # other, an IntegrityError or a ProgrammingError, is a bug: Flask's 500, its
        # traceback in the log)
        if not _damaged(exc):
            raise exc
        app.logger.error("database error on %s: %s", request.path, exc)
        why = f"the scoresheet's database cannot be read ({exc}): tell whoever runs it"
        return _answer(503, why)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        status = exc.code or 500
        if status == 413:
            message = _too_large(app)
        elif isinstance(exc, BadHost):  # (a name Werkzeug cannot route: "a..b", 64 letters)
            message = HOST_UNUSABLE
        else:
            message = exc.description or exc.name
        resp = make_response(_answer(status, message))
        for name, value in exc.get_headers():  # (a 405's Allow, a 503's Retry-After)
            if name.lower() != "content-type":
                resp.headers[name] = value
        return resp
