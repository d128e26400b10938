"""Games and their event logs: version-checked writes, states rebuilt by folding the log.

The ``events`` table is the source of truth. Each row is one of:
``game`` (an event of the game log), ``undo`` (cancels the last row that still counts),
``join`` (a player added before the first turn), ``tie`` (a roll for first player that left
players tied: the rounds so far, so that every phone sees who rolls again), ``seat`` (the
seating order after the roll for first player) and ``rematch`` (a finished game's link to
the table's next game; no action, so no undo takes it back). The version of a game is the number of
rows, so it only grows and an ETag never comes back with other content. States are cached
per game, keyed by version, so that a poll does not refold the log.

What each row may be, and what the rows that still count add up to (the seating, a tie
standing, the game's events), is `companion.table`'s; this module stores and folds them.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Flask, current_app

from companion import game as cgame
from companion import rules as crules
from companion import table as ctable
from companion.errors import brief

from .db import db_epoch as epoch
from .db import game_version, get_db

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
ID_LEN = 6
TOKEN_LEN = 12
MAX_PLAYERS = cgame.MAX_PLAYERS
MAX_NAME = 20
"""The longest name the phone's sheet takes: a column of the 390-pixel table (the engine
and the command line take `companion.game.MAX_NAME`, 40)."""
CACHE_SIZE = 2000
RENDERED_SIZE = 1000


class NotFound(LookupError):
    """No game with that id."""


class Conflict(Exception):
    """The write was made on an old version (or another database file's: `why`); carries
    the current snapshot."""

    def __init__(self, snapshot: Snapshot, why: str | None = None) -> None:
        super().__init__(why or f"the game has changed (now at version {snapshot.version}); reload")
        self.snapshot = snapshot


class Rejected(ValueError):
    """The action is not allowed now (the engine's reason or a setup rule)."""


class NotFinished(Rejected):
    """A rematch asked of a game that is no longer finished (taken back meanwhile)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} is no longer finished: no rematch was made")
        self.game_id = game_id


@dataclass(frozen=True)
class Game:
    """The immutable row of a game."""

    id: str
    token_hash: str
    rules: str
    target: int | None
    players: tuple[str, ...]
    created: str


@dataclass(frozen=True)
class Snapshot:
    """A game at one version: its table (the rows that still count) and the state folded
    from them."""

    game: Game
    version: int
    table: ctable.Table
    state: Any = None
    setup_error: str | None = None
    _json: dict[str, Any] | None = field(default=None, compare=False)
    rematch: str | None = None
    """The table's next game, set up from this one's winner screen (`create_rematch`)."""

    @property
    def state_json(self) -> dict[str, Any] | None:
        """``state.to_json()``, computed once per snapshot."""
        return self._json

    @property
    def players(self) -> tuple[str, ...]:
        """The seating now (`companion.table.Table.players`)."""
        return self.table.players

    @property
    def events(self) -> tuple[Mapping[str, Any], ...]:
        """The game log's events."""
        return self.table.events

    @property
    def started(self) -> bool:
        """True once the first event of the game log is recorded."""
        return self.table.started

    @property
    def tied_for_first(self) -> bool:
        """The roll for first player is tied, before the first turn: no turn can be entered
        until the tied players roll again (or Undo takes the tie back)."""
        return bool(self.table.roll_again) and not self.started

    @property
    def over(self) -> bool:
        """The game has a winner (a rematch may follow it)."""
        return (self.state_json or {}).get("phase") == "over"

    @functools.cached_property
    def before_last(self) -> Snapshot | None:
        """The game as Undo would leave it now: without its last row that counts (None
        where there is none). Folded once per snapshot (a frozen dataclass without slots
        keeps a cached property in its own dict), for Undo's words and the wall's last turn."""
        if not self.table.rows:
            return None
        return _make(self.game, self.version + 1, self.table.undone())

    def undo_words(self) -> str | None:
        """What Undo would take back now, in the words it then says ("Ann's 500"), so that
        the button names it: a phone sees that the action is another phone's (None: none)."""
        before = self.before_last
        return None if before is None else undone_words(self, before)

    def log(self) -> dict[str, Any]:
        """The game log in the format ``hotdice replay`` reads."""
        log: dict[str, Any] = {
            "rules": self.game.rules,
            "target": self.game.target,
            "players": list(self.players),
            "events": list(self.events),
        }
        if log["target"] is None:
            del log["target"]
        return log

    def public(self) -> dict[str, Any]:
        """What the API returns for a game: its version and state (plus the setup status)."""
        body: dict[str, Any] = {"version": self.version, "state": self.state_json}
        if self.state is None:
            body["setup"] = {"players": list(self.players), "error": self.setup_error}
        if not self.started:  # (a recorded tie for first player, on every phone)
            body["roll_again"] = self.table.roll_again
        if self.rematch:
            body["rematch"] = self.rematch
        return body


NO_PLAYERS = "no players yet: add one first"


def _make(
    game: Game,
    version: int,
    table: ctable.Table,
    state: Any = None,
    rematch: str | None = None,
) -> Snapshot:
    """The snapshot of ``table``: its game's state (``state``, when the caller has it
    already), or why there is none yet."""
    setup_error = None
    if state is None and not table.players:
        setup_error = NO_PLAYERS
    elif state is None:
        try:
            state = cgame.replay(_log(game, table))
        except ValueError as exc:
            # A log the engine no longer accepts (kept, and shown, so that it can still be
            # exported or repaired by undo), or players it does not take.
            said = str(exc)
            for n, event in enumerate(table.events, 1):  # (the engine's "unknown event type")
                if isinstance(event, UnreadableRow) and said.startswith(f"event {n}:"):
                    said = f"event {n}: {event['error']}"
            setup_error = f"this game's log does not replay: {said}" if table.events else said
    js = state.to_json() if state is not None else None
    return Snapshot(game, version, table, state, setup_error, js, rematch)


def _log(game: Game, table: ctable.Table) -> dict:
    log = cgame.new_log(game.rules, list(table.players), target=game.target, strict=False)
    log["events"] = list(table.events)
    return log


def fold(game: Game, rows: list[tuple[int, str, dict[str, Any]]]) -> Snapshot:
    """Fold all rows of a game (undo cancels the last row that still counts)."""
    stack: list[tuple[int, str, dict[str, Any]]] = []
    rematch = None
    for seq, kind, payload in rows:
        if kind == "undo":
            if stack:
                stack.pop()
        elif kind == "rematch":  # (a link to the next game, not an action: no undo takes it)
            rematch = payload["game"]
        else:
            stack.append((seq, kind, payload))
    version = rows[-1][0] if rows else 0
    return _make(game, version, _readable_table(game, stack), rematch=rematch)


TABLE_FAULTS = (ValueError, TypeError, KeyError, IndexError)


def _probe(table: ctable.Table) -> None:
    """Work out every view of ``table`` that a page or the API shows: one of them raises
    on a row that has its kind's shape but not the table's sense."""
    for view in ("players", "roll_again", "first_rolls", "seated", "tie_ended_by"):
        getattr(table, view)
    table.roll_off_round  # noqa: B018 (worked out for what it raises)


def _readable_table(game: Game, stack: list[tuple[int, str, dict[str, Any]]]) -> ctable.Table:
    """The table of these rows that still count, each row the table cannot take (a tie of
    players not seated, a die of 9: the file edited by hand, past `ROW_SHAPES`) kept as
    an `UnreadableRow`, as one that is no JSON is. Such rows had been a 500 on every page
    of their game (a review). Each table row is checked with the rows before it, so that
    every table Undo can leave is one the views take: a bad tie hidden by a join after it
    had come back with an Undo (a review of the first version, which checked the whole)."""
    rows = [(kind, payload) for _seq, kind, payload in stack]
    for n, (seq, kind, _payload) in enumerate(stack):  # (a game event changes no view of
        # the table; its own rows come before play, so they are few)
        if kind == "game":
            continue
        try:
            _probe(ctable.Table(game.players, tuple(rows[: n + 1])))
        except TABLE_FAULTS as exc:
            why = f"its {kind} row does not fit the table ({brief(str(exc))})"
            rows[n] = ("game", UnreadableRow(type="unreadable", row=seq, error=why))
    return ctable.Table(game.players, tuple(rows))


class Cache:
    """Latest snapshot per game and the immutable game rows, shared by all threads, for one
    database file at a time: each call names the request's `epoch` (`db.file_epoch`), and
    one naming another file than the last forgets everything first (a backup put back
    while the server runs: its versions count other rows, and a game made since is not in
    it; the old snapshots had been served at the same versions). Checked under the lock
    with what the call reads or stores, so a request still on the file before, finishing
    late, stores nothing a request on the new one then reads."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.snapshots: OrderedDict[str, Snapshot] = OrderedDict()
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.rendered: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self.epoch: str | None = None

    def _at(self, epoch: str) -> None:
        """(With the lock held.) Everything of another file forgotten."""
        if epoch != self.epoch:
            self.snapshots.clear()
            self.games.clear()
            self.rendered.clear()
            self.epoch = epoch

    def get(self, epoch: str, game_id: str) -> Snapshot | None:
        with self.lock:
            self._at(epoch)
            return self.snapshots.get(game_id)

    def put(self, epoch: str, snap: Snapshot) -> None:
        with self.lock:
            self._at(epoch)
            old = self.snapshots.get(snap.game.id)
            if old is None or old.version <= snap.version:
                self.snapshots[snap.game.id] = snap
                self.snapshots.move_to_end(snap.game.id)
                while len(self.snapshots) > self.size:
                    self.snapshots.popitem(last=False)

    def memo(self, epoch: str, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """A rendering of one snapshot (sheet HTML, JSON body), made once per key."""
        with self.lock:
            self._at(epoch)
            if key in self.rendered:
                self.rendered.move_to_end(key)
                return self.rendered[key]
        value = make()
        with self.lock:
            if epoch == self.epoch:  # (made of a file since replaced: not kept)
                self.rendered[key] = value
                while len(self.rendered) > RENDERED_SIZE:
                    self.rendered.popitem(last=False)
        return value

    def game(self, epoch: str, game_id: str) -> Game | None:
        with self.lock:
            self._at(epoch)
            return self.games.get(game_id)

    def forget(self, game_id: str) -> None:
        with self.lock:
            self.snapshots.pop(game_id, None)
            self.games.pop(game_id, None)

    def put_game(self, epoch: str, game: Game) -> None:
        with self.lock:
            self._at(epoch)
            self.games[game.id] = game
            while len(self.games) > self.size:
                self.games.popitem(last=False)


def init_app(app: Flask) -> None:
    """Give the app its own cache (tests build many apps)."""
    app.extensions["hotdice_cache"] = Cache()


def memo(key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """Render something derived from a snapshot once (keys include the game id and version)."""
    return _cache().memo(epoch(), key, make)


def _cache() -> Cache:
    cache: Cache = current_app.extensions["hotdice_cache"]
    return cache


def public(snap: Snapshot) -> dict[str, Any]:
    """What the API answers for a game (`Snapshot.public`), with the database file's
    `epoch`, which the version counts in."""
    return {**snap.public(), "epoch": epoch()}


def _code(n: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(n))


def hash_token(token: str) -> str:
    """Tokens are stored hashed; a leaked database does not give write access."""
    return hashlib.sha256(_plain_token(token).encode()).hexdigest()


def _plain_token(token: str) -> str:
    """A join token as stored and derived from: read out in groups, typed in any case."""
    return token.upper().replace("-", "")


def normalise_code(typed: str) -> str:
    """Game and join codes are typed on phones: case, spaces and dashes are ignored."""
    return "".join(typed.split()).replace("-", "").upper()


def format_token(token: str) -> str:
    """Group the join code in fours so it can be read out and typed."""
    return "-".join(token[i : i + 4] for i in range(0, len(token), 4))


def clean_players(players: Any, *, stored: Sequence[str] = ()) -> list[str]:
    """`companion.table.clean_players` with the sheet's shorter names (`MAX_NAME`)."""
    try:
        return ctable.clean_players(players, stored=stored, max_name=MAX_NAME)
    except ValueError as exc:
        raise Rejected(str(exc)) from exc


def create_game(
    rules: str,
    target: int | None,
    players: list[str],
    token_of: Callable[[str], str] | None = None,
) -> tuple[Snapshot, str]:
    """Validate the rules with the engine, store a new game; return it and its join token
    (``token_of``: the token derived from the new game's id, so that no two games share
    one, `rematch_token` and `form_token`; else a random one)."""
    rules, names = checked(rules, target, players)
    token = _code(TOKEN_LEN)
    conn = get_db()
    for _ in range(20):
        game_id = _code(ID_LEN)
        if token_of is not None:
            token = token_of(game_id)
        try:
            conn.execute(
                "INSERT INTO games (id, token_hash, rules, target, players) VALUES (?,?,?,?,?)",
                (game_id, hash_token(token), rules, target, json.dumps(names)),
            )
            break
        except sqlite3.IntegrityError:
            continue
    else:  # pragma: no cover - 31**6 ids
        raise RuntimeError("could not allocate a game id")
    snap = load(game_id)
    return snap, token


def checked(rules: str, target: int | None, players: Any) -> tuple[str, tuple[str, ...]]:
    """A new game's rules as stored and its players' names as cleaned, or Rejected with the
    engine's reason: what `create_game` would make, known before anything is written."""
    names = clean_players(players)
    rules = _spec(rules)
    try:
        crules.check_winnable(crules.load_rules(rules, target=target))  # (names or not)
        if names:
            cgame.new_log(rules, names, target=target)
    except ValueError as exc:
        raise Rejected(str(exc)) from exc
    return rules, tuple(names)


def _spec(rules: str) -> str:
    """A rule set's spec as the engine reads it and a game stores it: not "farkle\n+greed"."""
    base, toggles = crules.split_spec(rules)
    return "+".join([base, *toggles])


def form_token(form_key: str, game_id: str) -> str:
    """The join token of the game ``game_id`` made from the create form ``form_key``
    (`create_once`): derived under the server's secret, so that the form sent again, its
    first answer lost on the way, makes this browser a player of the game it made. The
    game's id is in it: the same form sent after its game's play started makes another
    game, whose code must not also open the first."""
    secret = str(current_app.secret_key).encode()
    seed = f"form:{form_key}:{game_id}".encode()
    return _letters(hmac.new(secret, seed, "sha256").digest())


def _form_row(form_key: str) -> str:
    """The ``forms`` row's key for the form ``form_key``: a digest, so that the file (with
    the server's secret beside it) does not give what `form_token` derives a join code from."""
    return hashlib.sha256(f"row:{form_key}".encode()).hexdigest()


def made_from(form_key: str) -> Game | None:
    """The game the create form ``form_key`` made, if it still stands."""
    key = _form_row(form_key)
    row = get_db().execute("SELECT game_id FROM forms WHERE key = ?", (key,)).fetchone()
    try:
        return None if row is None else get_game(row[0])
    except NotFound:  # (a file whose foreign keys were off when its game went)
        return None


@contextmanager
def _immediate() -> Iterator[sqlite3.Connection]:
    """One IMMEDIATE transaction: its reads and writes hold SQLite's write lock together, so
    two racing writers go one after the other; rolled back on any error."""
    conn = get_db()
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        # (a COMMIT that failed, the disk full, was rolled back by SQLite itself: a ROLLBACK
        # then raised "no transaction is active" in place of "database or disk is full")
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


BeforeMaking = Callable[[], None] | None


class Made(enum.Enum):
    """How `create_once`, `create_keyed` or `create_rematch` came by the game it opens."""

    NOW = "made now"
    BEFORE = "made before by the same form or key, sent again"
    TAKEN = "a rematch another phone made first"


class _Creating:
    """The games one IMMEDIATE transaction makes (`_creating`), each linked to the form or
    key that asked for it (a ``forms`` row, `made_from`). ``before_making`` is called just
    before a game is made, and may refuse it by raising (`ratelimit.a_new_game`: a
    form or key sent again, which makes nothing, is never refused)."""

    def __init__(self, conn: sqlite3.Connection, before_making: BeforeMaking) -> None:
        self.conn = conn
        self.before_making = before_making
        self.made: list[str] = []

    def game(
        self,
        form_key: str | None,
        rules: str,
        target: int | None,
        players: Any,
        *,
        follows: str | None = None,
    ) -> tuple[Snapshot, str]:
        """`create_game`, and the form's link to the game (REPLACE: a row whose game is
        gone or under way). Its join token is derived from its id and ``follows`` (a
        rematch's, `rematch_token`) or else ``form_key`` (`form_token`)."""
        if follows:
            token_of: Callable[[str], str] | None = functools.partial(rematch_token, follows)
        elif form_key:
            token_of = functools.partial(form_token, form_key)
        else:
            token_of = None
        if self.before_making is not None:
            self.before_making()
        snap, token = create_game(rules, target, players, token_of=token_of)
        self.made.append(snap.game.id)
        if form_key:
            self.conn.execute(
                "INSERT OR REPLACE INTO forms (key, game_id) VALUES (?, ?)",
                (_form_row(form_key), snap.game.id),
            )
        return snap, token


@contextmanager
def _creating(before_making: BeforeMaking = None) -> Iterator[_Creating]:
    """One IMMEDIATE transaction that makes games: the check that the form or key made none
    yet and the game it makes go together, so two sends at once make one game. If it
    fails, the games it made are forgotten too: `create_game` caches a game it loads, which
    the rollback has taken out of the file."""
    creating: _Creating | None = None
    try:
        with _immediate() as conn:
            creating = _Creating(conn, before_making)
            yield creating
    except BaseException:
        for game_id in creating.made if creating else ():
            _cache().forget(game_id)
        raise


def create_once(
    form_key: str,
    rules: str,
    target: int | None,
    players: list[str],
    before_making: BeforeMaking = None,
) -> tuple[Snapshot, str | None, Made]:
    """`create_game` for the create form ``form_key``, once: the form sent again (a double
    tap, Back to the filled form, a retry after an answer lost on the way) gets the game it
    made. Returns the game, its join token (`made_before`) and how it came by it."""
    with _creating(before_making) as creating:
        before = made_before(form_key)
        if before is not None:
            return (*before, Made.BEFORE)
        snap, token = creating.game(form_key, rules, target, players)
    return snap, token, Made.NOW


class KeyReused(Rejected):
    """An API create's ``Idempotency-Key`` sent again asking for another game."""


def api_form_key(key: str) -> str:
    """The form an API create sent with ``Idempotency-Key: key`` stands for (`create_keyed`):
    the key under the server's secret, as `form_token` derives a join token, so that the
    file holds no client's key and a create form (`pages.form_key`) is never one."""
    secret = str(current_app.secret_key).encode()
    return hmac.new(secret, f"api:{key}".encode(), "sha256").hexdigest()


def create_keyed(
    key: str, rules: str, target: int | None, players: Any, before_making: BeforeMaking = None
) -> tuple[Snapshot, str, Made]:
    """`create_game` for an API client's ``Idempotency-Key``, once: the request sent again
    (its answer lost on the way) gets the game it made, and its join token again, while
    that game stands and play has not started (a retry comes before any turn). The body
    is checked first (its own error, whatever the key); the key sent asking for another
    game (other rules, target or players), or for a game under way, is KeyReused: its
    token is no longer handed to whoever sends the key."""
    spec, names = checked(rules, target, players)
    form_key = api_form_key(key)
    with _creating(before_making) as creating:
        game = made_from(form_key)
        token = "" if game is None else form_token(form_key, game.id)
        if game is not None and check_token(game, token):
            asked = (spec, target_as_read(spec, target), names)
            if asked != (game.rules, target_as_read(game.rules, game.target), game.players):
                raise KeyReused(
                    "this Idempotency-Key was used for another game (other rules, target "
                    "or players): send a new key for a new game"
                )
            snap = load(game.id)
            if snap.started:
                raise KeyReused(
                    "this Idempotency-Key made a game now under way: send a new key for a new game"
                )
            return snap, token, Made.BEFORE
        snap, token = creating.game(form_key, rules, target, players)
    return snap, token, Made.NOW


def target_as_read(rules: str, target: int | None) -> int | None:
    """A game's target as the engine reads it: the rules' own where none was given, so a
    retry that writes out the default asks for the same game (as docs/web.md says)."""
    try:
        return crules.load_rules(rules, target=target).target
    except ValueError:  # (rules stored before, now refused: the target as stored)
        return target


def made_before(form_key: str) -> tuple[Snapshot, str | None] | None:
    """The game the create form ``form_key`` made, while it stands and play has not started
    (Back to the form of a game played since asks for a new one), and its join token (None
    for a rematch: the browser derives that one, `pages.session_token`)."""
    game = made_from(form_key)
    if game is None:
        return None
    snap = load(game.id)
    if snap.started:
        return None
    token = form_token(form_key, game.id)
    return snap, token if check_token(game, token) else None


def get_game(game_id: str) -> Game:
    """The game row, from the cache when possible; NotFound if unknown."""
    game_id = normalise_code(game_id)
    game = _cache().game(epoch(), game_id)
    if game is not None:
        return game
    row = get_db().execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound(f"no game {game_id!r}")
    game = Game(
        row["id"],
        row["token_hash"],
        row["rules"],
        row["target"],
        tuple(json.loads(row["players"])),
        row["created"],
    )
    _cache().put_game(epoch(), game)
    return game


def check_token(game: Game, token: str | None) -> bool:
    """Constant-time check of a join token."""
    return bool(token) and hmac.compare_digest(game.token_hash, hash_token(token or ""))


def current_version(game_id: str) -> int:
    """Number of rows of the game's log (one indexed query)."""
    return game_version(get_db(), game_id)


def _rows(game_id: str, after: int, upto: int) -> list[tuple[int, str, dict[str, Any]]]:
    cur = get_db().execute(
        "SELECT seq, kind, event FROM events WHERE game_id = ? AND seq > ? AND seq <= ? "
        "ORDER BY seq",
        (game_id, after, upto),
    )
    return [_row(r[0], r[1], r[2]) for r in cur]


class UnreadableRow(dict[str, Any]):
    """A row of the ``events`` table that is no JSON object (the file edited by hand),
    kept as a game event the engine refuses: the game's log then does not replay, shown
    and mended by undo as a row the engine no longer accepts is, where it was a 500 with
    a traceback on every route of the game. No request stores one: it is a class of its
    own, not a payload a client could send."""


_ABSENT = object()
"""A key a row does not hold (`ROW_SHAPES`: an optional one may be absent, not null)."""


def _is_names(value: Any) -> bool:
    return bool(value) and isinstance(value, list) and all(isinstance(n, str) for n in value)


def _is_rounds(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(r, dict) and all(isinstance(d, int) for d in r.values()) for r in value
    )


ROW_SHAPES: dict[str, tuple[tuple[str, Any], ...]] = {
    "game": (),  # (the engine judges a game event)
    "join": (("player", lambda v: isinstance(v, str)),),
    "tie": (("rolls", _is_rounds),),
    "seat": (("players", _is_names), ("rolls", lambda v: v is _ABSENT or _is_rounds(v))),
    "rematch": (("game", lambda v: isinstance(v, str)),),
}
"""What each kind of row the server writes holds, checked as a row is read: a row edited
by hand into another shape (a join with no ``player``) had been a 500 on its game."""


def _row(seq: int, kind: str, text: str) -> tuple[int, str, dict[str, Any]]:
    """One stored row: its number, kind and payload (an `UnreadableRow` for one that is
    no JSON object, or not of its kind's shape; an undo's payload is never read)."""
    if kind == "undo":
        return seq, kind, {}
    try:
        payload = json.loads(text)
        why = "is not a JSON object"
    except (ValueError, RecursionError) as exc:
        payload, why = None, f"is not JSON ({exc})"
    if kind not in ROW_SHAPES:
        why = "is of no kind the server records"
    elif isinstance(payload, dict):
        wrong = [key for key, fits in ROW_SHAPES[kind] if not fits(payload.get(key, _ABSENT))]
        if not wrong:
            return seq, kind, payload
        why = f"has no proper {wrong[0]!r}"
    return seq, "game", UnreadableRow(type="unreadable", row=seq, error=f"its {kind} row {why}")


def snapshot_at(game: Game, version: int) -> Snapshot:
    """The snapshot at ``version``: cached, advanced by applying new events, or refolded."""
    cached = _cache().get(epoch(), game.id)
    if cached is not None and cached.version == version:
        return cached
    if cached is not None and cached.version < version and cached.state is not None:
        rows = _rows(game.id, cached.version, version)
        if rows and all(kind == "game" for _s, kind, _p in rows):
            state = cached.state
            try:
                for _seq, _kind, payload in rows:
                    state = cgame.apply(state, payload)
            except ValueError:  # (a row the engine refuses: folded below, and said so)
                state = None
            if state is not None:
                rows_now = cached.table.rows + tuple(("game", p) for _s, _k, p in rows)
                table = ctable.Table(game.players, rows_now)
                snap = _make(game, version, table, state, cached.rematch)
                _cache().put(epoch(), snap)
                return snap
    snap = fold(game, _rows(game.id, 0, version))
    _cache().put(epoch(), snap)
    return snap


def load(game_id: str) -> Snapshot:
    """The current snapshot of a game."""
    game = get_game(game_id)
    return snapshot_at(game, current_version(game.id))


def _next(snap: Snapshot, kind: str, payload: dict[str, Any]) -> Snapshot:
    """The snapshot after one more row, or Rejected with the reason."""
    version = snap.version + 1
    if kind == "rematch":
        if not snap.over:
            raise Rejected("a rematch is set up from a finished game")
        if snap.rematch:
            raise Rejected(f"this game's rematch is already set up: game {snap.rematch}")
        return replace(snap, version=version, rematch=payload["game"])
    if kind == "game" and snap.state is None:
        raise Rejected(snap.setup_error or "the game has not started")
    try:
        table = (
            snap.table.undone()
            if kind == "undo"
            else snap.table.add(kind, payload, max_name=MAX_NAME)
        )
        state = cgame.apply(snap.state, payload) if kind == "game" else None
        if kind == "game":  # (after apply, so a finished game says so first)
            cgame.check_named(snap.state, payload)
    except ValueError as exc:
        raise Rejected(str(exc)) from exc
    return _make(snap.game, version, table, state, snap.rematch)


STALE_OK = frozenset({"join"})
"""Rows recorded on the current version even when sent on an older one, as long as every
row since was one of them too: a name added at the end of the seating means the same
whatever names were added since (a table joins at once). A tie or a seating since (a roll
for first player the phone has not seen), or an undo, still makes it stale."""


MAX_ROWS = 5000
"""The most rows a game's log holds but for undos (which stay fewer): a real game, roll
by roll, six players to a high target, takes a few hundred to a thousand or two. Without a
cap a client could grow one game for good (a security review: 10,000 busts made a 1.9 MB
state, a 2.7 s sheet, and every other table's sync stalled while its page was asked for)."""


def append(game_id: str, version: int, kind: str, payload: dict[str, Any]) -> Snapshot:
    """Record one row if ``version`` is current (or only STALE_OK rows like it came since),
    in one IMMEDIATE transaction.

    The version check and the insert hold SQLite's write lock together, so of two racing
    writers on the same version exactly one succeeds and the other gets Conflict.
    """
    game = get_game(game_id)
    with _immediate() as conn:
        current = current_version(game.id)
        snap = snapshot_at(game, current)
        if current != version and not (
            kind in STALE_OK
            and 0 <= version < current
            and {k for _, k, _ in _rows(game.id, version, current)} <= STALE_OK
        ):
            raise Conflict(snap)
        if current >= MAX_ROWS and kind != "undo":  # (the slip that filled it can still be
            # taken back: an undo needs a row that counts, so they stay fewer than MAX_ROWS)
            raise Rejected(
                f"this game has recorded {MAX_ROWS:,} actions, the most a game holds: "
                "start a new game (its scores are kept here; Undo still takes one back)"
            )
        new = _next(snap, kind, payload)
        if kind == "join":  # (the name as cleaned: a restart or another server folds the same)
            payload = dict(new.table.rows[-1][1])
        _insert(conn, new, kind, payload)
    _cache().put(epoch(), new)
    return new


def _insert(conn: sqlite3.Connection, new: Snapshot, kind: str, payload: dict[str, Any]) -> None:
    """Store the row that makes ``new`` (a transaction's: `append`, `create_rematch`)."""
    conn.execute(
        "INSERT INTO events (game_id, seq, kind, event) VALUES (?,?,?,?)",
        (new.game.id, new.version, kind, json.dumps(payload)),
    )


def undone_words(before: Snapshot, after: Snapshot) -> str:
    """What an undo took back, for the phone that asked ("Ann's 500", "Bob joining"): the
    last row that counted in ``before``, the snapshot it was made on."""
    kind, payload = before.table.rows[-1]
    if kind == "join":
        return f"{payload['player']} joining"
    if kind == "tie":
        return "the tie in the roll for first player"
    if kind == "seat":
        return f"the roll for first player ({payload['players'][0]} started)"
    history = (before.state_json or {}).get("history", [])
    if len(history) > len((after.state_json or {}).get("history", [])):  # (a turn it ended)
        turn = history[-1]
        if turn.get("kind") == "bonus":
            return f"{turn['player']}'s 5150 bonus roll"
        return f"{turn['player']}'s {'bust' if turn['bust'] else format(turn['points'], ',')}"
    who = (after.state_json or {}).get("current_player") or "the player"
    if payload.get("type") in ("roll", "keep"):
        dice = " ".join(map(str, payload.get("dice") or []))
        return f"{who}'s {payload['type']} of {dice}"
    if payload.get("type") == "takeover":
        return f"{who}'s {'takeover' if payload.get('accept') else 'fresh start'}"
    return f"{who}'s last action"


def undone_last(game: Game, snap: Snapshot) -> str | None:
    """What ``snap``'s latest row took back, where it is an Undo, in `undone_words`' words:
    so that every phone says another phone's Undo, not only the one that pressed it (a
    roll had vanished from the keeps being chosen with no word of why)."""
    rows = _rows(game.id, snap.version - 1, snap.version)
    if not rows or rows[0][1] != "undo":
        return None
    before = snapshot_at(game, snap.version - 1)
    return undone_words(before, snap) if before.table.rows else None


def record_roll_off(
    game: Game, version: int, rounds: list[dict[str, int]], every_round: bool
) -> tuple[str | None, list[str], Snapshot]:
    """Record a roll for first player sent on ``version`` (`companion.table.Table.roll_off`):
    a tie, so that every phone sees who rolls again, or the seating from its winner.
    Returns (winner, who rolls again, the snapshot after it)."""
    snap = snapshot_at(game, current_version(game.id))
    if snap.version != version:  # a stale phone hears so first, tie or not (append checks too)
        raise Conflict(snap)
    try:
        winner, again, rounds = snap.table.roll_off(rounds, every_round=every_round)
    except ValueError as exc:
        raise Rejected(str(exc)) from exc
    # ("on": its version, so that a tie recorded again after an undo is another round)
    if winner is None:
        return None, again, append(game.id, version, "tie", {"rolls": rounds, "on": version})
    seating = {"players": ctable.seating_from(snap.players, winner), "rolls": rounds, "on": version}
    return winner, [], append(game.id, version, "seat", seating)


def rematch_token(token: str, game_id: str) -> str:
    """The join token of the rematch ``game_id`` of a game whose token is ``token``: derived
    one way, so that a browser that played the finished game plays its rematch (it can
    derive the code, `pages.session_token`), while a newcomer to the rematch, who holds only
    the rematch's code, cannot write the finished game."""
    seed = f"rematch:{_plain_token(token)}:{game_id}"
    return _letters(hashlib.sha256(seed.encode()).digest())


def _letters(digest: bytes) -> str:
    """A join token made of a digest's bits (`rematch_token`, `form_token`)."""
    n = int.from_bytes(digest, "big")
    letters = []
    for _ in range(TOKEN_LEN):
        n, i = divmod(n, len(ALPHABET))
        letters.append(ALPHABET[i])
    return "".join(letters)


def create_rematch(
    finished: Game,
    held: str,
    form_key: str | None,
    rules: str,
    target: int | None,
    players: list[str],
    before_making: BeforeMaking = None,
) -> tuple[Snapshot, str | None, Made]:
    """The table's next game after ``finished`` (`create_game`, its join token derived from
    ``held``, the finished game's) and the finished game's link to it, in one IMMEDIATE
    transaction: made in two, a server stopped between them left a rematch no winner
    screen linked to, which another phone's *Rematch* doubled. Returns the game to open,
    its join token (None: the browser derives it, `pages.session_token`) and how it came:
    `Made.NOW`; `Made.BEFORE` (by the form ``form_key``, sent again); `Made.TAKEN` (another
    phone's, linked first: nothing is made). NotFinished when the game is no longer finished (taken
    back meanwhile: nothing is made)."""
    with _creating(before_making) as creating:
        before = made_before(form_key) if form_key else None
        if before is not None:  # (a rematch's too, before it would be called another phone's)
            return (*before, Made.BEFORE)
        now = load(finished.id)
        if now.rematch:
            return load(now.rematch), None, Made.TAKEN
        if not now.over:
            raise NotFinished(finished.id)
        snap, token = creating.game(form_key, rules, target, players, follows=held)
        linked = _next(now, "rematch", {"game": snap.game.id})
        _insert(creating.conn, linked, "rematch", {"game": snap.game.id})
    _cache().put(epoch(), linked)
    return snap, token, Made.NOW
