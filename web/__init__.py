"""hotdice web: the shared phone scoresheet (Flask application factory)."""

from __future__ import annotations

import os
import secrets
import tempfile
import traceback
from pathlib import Path
from typing import IO, Any

from flask import Config, Flask, Request

from .db import owner_only

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 50_000_000
"""`vision.MAX_PIXELS`, written out: imported from there, every app made loaded OpenCV,
which an app that reads no photo never needs (a test checks the two agree)."""


class UploadsClosingRequest(Request):
    """A request that closes every file its multipart parser spooled when it closes itself:
    Werkzeug's parser drops the file it was writing when an upload's body is cut off, and
    leaves it open (a ResourceWarning, and a temporary file held until collected)."""

    def _get_file_stream(
        self,
        total_content_length: int | None,
        content_type: str | None,
        filename: str | None = None,
        content_length: int | None = None,
    ) -> IO[bytes]:
        stream = super()._get_file_stream(
            total_content_length, content_type, filename, content_length
        )
        self.__dict__.setdefault("_spooled", []).append(stream)
        return stream

    def close(self) -> None:
        super().close()
        for stream in self.__dict__.pop("_spooled", []):
            stream.close()


class SecretKeyError(OSError):
    """The instance folder's secret key cannot be read or made (said so, not as the
    database's fault, by ``hotdice serve``)."""


class ConfigError(ValueError):
    """A mistake in the instance folder's ``config.py``, which the README has its users
    edit: one line naming the file, the setting and what is wrong (``hotdice serve``:
    exit 2), where a traceback had been, or a setting taken that did nothing."""


SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
"""SQLite's ``synchronous`` levels (it ignores any other word, and stays at NORMAL)."""

WHOLE_NUMBERS = {
    "HEAVY_AT_ONCE": "such as 2",
    "GAMES_PER_MINUTE": "such as 30, or None for no limit",
    "POLL_MS": "of milliseconds, such as 1000",
    "MAX_PIXELS": "such as 50_000_000",
    "MAX_CONTENT_LENGTH": "of bytes, such as 20 * 1024 * 1024, or None for no limit",
    "MAX_JSON_SIZE": "of bytes, such as 64 * 1024, or None for no limit",
    "MAX_FORM_MEMORY_SIZE": "of bytes, such as 500_000, or None for no limit",
    "MAX_FORM_PARTS": "such as 1000, or None for no limit",
}
"""Settings that are a whole number of 1 or more (or None, where it says so), and an
example of each for the error (the app's default)."""


def _config_file(path: str) -> dict[str, Any]:
    """The settings of ``config.py`` at ``path`` (none where there is no such file),
    checked: a mistake is a ConfigError saying where and what."""
    loaded = Config(os.path.dirname(path))
    try:
        loaded.from_pyfile(path, silent=True)
    except SyntaxError as exc:
        raise ConfigError(f"{path} line {exc.lineno}: {exc.msg}") from None
    except Exception as exc:  # (its code ran: a NameError, a file it opened)
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        where = f"{path} line {lines[-1]}" if lines else path
        said = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"{where}: {type(exc).__name__}: {said}") from None
    settings = dict(loaded)
    for key, value in settings.items():
        problem = _wrong_setting(key, value)
        if problem:
            raise ConfigError(f"{path}: {key} = {value!r}: {problem}")
    if "DB_SYNCHRONOUS" in settings:
        settings["DB_SYNCHRONOUS"] = settings["DB_SYNCHRONOUS"].upper()
    return settings


def _wrong_setting(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for the setting ``key`` (None: nothing, or a setting
    this app does not read)."""
    if key == "DB_SYNCHRONOUS":
        if not isinstance(value, str) or value.upper() not in SYNCHRONOUS:
            return "must be one of " + ", ".join(f'"{x}"' for x in SYNCHRONOUS)
    elif key in WHOLE_NUMBERS:
        if value is None and "None" in WHOLE_NUMBERS[key]:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"must be a whole number {WHOLE_NUMBERS[key]}"
    elif key == "DATABASE":
        if not isinstance(value, str) or not value.strip():
            return "must be the SQLite file's path, as text"
    elif key == "SECRET_KEY":
        if value is not None and not isinstance(value, (str, bytes)):
            return "must be text (or left out: the instance folder's secret_key is made)"
    return None


def _secret_key(instance: Path) -> str:
    """Keep one random key per instance folder so sessions survive a restart. It signs the
    sessions, which hold join codes, so only its owner may read it. It is written whole
    or not at all: an empty one (a full disk, a kill while writing) left every page a 500
    at the next start, so it is made again; two servers starting at once keep one."""
    path = instance / "secret_key"
    try:
        key = path.read_text(encoding="utf-8").strip()
        if key:
            owner_only(path)
            return key
        path.unlink()  # (an empty one)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise SecretKeyError(f"cannot read the secret key {path}: {exc.strerror or exc}") from exc
    try:
        fd, made = tempfile.mkstemp(prefix=".secret_key.", dir=instance)  # (mode 0600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(secrets.token_hex(32))
                file.flush()
                os.fsync(file.fileno())
            _put_in_place(made, path)
        finally:
            Path(made).unlink(missing_ok=True)
        return path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise SecretKeyError(f"cannot make the secret key {path}: {exc.strerror or exc}") from exc


def _put_in_place(made: str, path: Path) -> None:
    """``made``, written whole, at ``path``, but never over another server's file made
    there first."""
    try:
        os.link(made, path)
    except FileExistsError:
        pass
    except OSError:  # (a file system without links)
        os.replace(made, path)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides the defaults (e.g. ``DATABASE``): the tests' and
    ``hotdice serve``'s own."""
    instance = (config or {}).get("INSTANCE_PATH") or os.environ.get("HOTDICE_INSTANCE")
    # (a relative folder is the working directory's, as --db's is; an empty one is unset)
    instance = os.path.abspath(instance) if instance else None
    app = Flask(__name__, instance_relative_config=True, instance_path=instance)
    app.request_class = UploadsClosingRequest
    # (a doubled slash, `/api//score`, is a 404 like any unknown path: merged, Werkzeug
    # answered it with an HTML 308 that no error handler sees, and that a POST's body
    # would have to follow)
    app.url_map.merge_slashes = False
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "hotdice.sqlite"),
        DB_SYNCHRONOUS="NORMAL",
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        MAX_JSON_SIZE=64 * 1024,  # a JSON request's body (`errors.limit_bodies_read_whole`)
        MAX_PIXELS=MAX_PIXELS,  # (vision's own limit, lowered here where a server needs)
        DB_REUSE=False,
        POLL_MS=1000,
        HEAVY_AT_ONCE=2,  # photo reads and coach solves at once (`api.heavy_work`)
        GAMES_PER_MINUTE=30,  # games one address may create a minute (`ratelimit`)
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
    )
    app.config.from_mapping(_config_file(os.path.join(app.instance_path, "config.py")))
    if config is not None:
        app.config.from_mapping(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]

    from . import api, db, errors, pages, ratelimit, store
    from .fastpoll import FastPoll

    db.init_app(app)
    # (after the database: a start refused for its file writes no key either)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    store.init_app(app)
    errors.init_app(app)
    api.init_app(app)
    ratelimit.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.wsgi_app = FastPoll(app.wsgi_app, app.config)  # type: ignore[method-assign]
    return app
