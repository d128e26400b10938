"""Games and their event logs: version-checked writes, states rebuilt by folding the log.

The ``events`` table is the source of truth. Each row is one of:
``game`` (an event of the game log), ``undo`` (cancels the last row that still counts),
``join`` (a player added before the first turn), ``tie`` (a roll for first player that left
players tied: the rounds so far, so that every phone sees who rolls again), ``seat`` (the
seating order after the roll for first player) and ``rematch`` (a finished game's link to
the table's next game; no action, so no undo takes it back). The version of a game is the number of
rows, so it only grows and an ETag never comes back with other content. States are cached
per game, keyed by version, so that a poll does not refold the log.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Flask, current_app

from companion import game as cgame
from companion import rules as crules

from .db import game_version, get_db

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
ID_LEN = 6
TOKEN_LEN = 12
MAX_PLAYERS = cgame.MAX_PLAYERS
MAX_NAME = 20
"""The longest name the phone's sheet takes: a column of the 390-pixel table (the engine
and the command line take `companion.game.MAX_NAME`, 40)."""
MAX_ROLL_OFF_ROUNDS = 20
"""Rounds a roll for first player may go (twenty ties in a row is a table playing with the
sheet: each tie's row holds every round so far, so the cap keeps a game's rows small)."""
CACHE_SIZE = 2000
RENDERED_SIZE = 1000


class NotFound(LookupError):
    """No game with that id."""


class Conflict(Exception):
    """The write was made on an old version; carries the current snapshot."""

    def __init__(self, snapshot: Snapshot) -> None:
        super().__init__(f"the game has changed (now at version {snapshot.version}); reload")
        self.snapshot = snapshot


class Rejected(ValueError):
    """The action is not allowed now (the engine's reason or a setup rule)."""


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
    """A game at one version: the rows that still count and the state folded from them."""

    game: Game
    version: int
    stack: tuple[tuple[str, dict[str, Any]], ...]
    players: tuple[str, ...]
    events: tuple[dict[str, Any], ...]
    state: Any = None
    setup_error: str | None = None
    _json: dict[str, Any] | None = field(default=None, compare=False)
    rematch: str | None = None
    """The table's next game, set up from this one's winner screen (`record_rematch`)."""

    @property
    def state_json(self) -> dict[str, Any] | None:
        """``state.to_json()``, computed once per snapshot."""
        return self._json

    @property
    def started(self) -> bool:
        """True once the first event of the game log is recorded."""
        return bool(self.events)

    @property
    def tie_rounds(self) -> list[dict[str, int]]:
        """The rounds of a roll for first player that is still tied (a join or a seating
        ends it), else none."""
        rounds: list[dict[str, int]] = []
        for kind, payload in self.stack:
            if kind == "tie":
                rounds = payload["rolls"]
            elif kind in ("join", "seat"):
                rounds = []
        return rounds

    @property
    def tie_ended_by(self) -> str | None:
        """Who joined while the roll for first player was tied, ending the tie (everyone
        rolls again, the newcomer too): the sheet says so, or the tie would vanish unsaid."""
        first_join = len(self.stack)  # (of the joins that end the stack)
        while first_join and self.stack[first_join - 1][0] == "join":
            first_join -= 1
        if first_join in (0, len(self.stack)) or self.stack[first_join - 1][0] != "tie":
            return None
        return str(self.stack[first_join][1]["player"])

    @property
    def roll_off_round(self) -> str:
        """Which round of the roll for first player the phones pick dice for: the seatings
        recorded, the tied rounds still standing (a join or an undo ends a tie; the tie's
        words repeat from round to round) and the version the last tie or seating was
        recorded on (one taken back and recorded again is another round)."""
        seats = sum(kind == "seat" for kind, _ in self.stack)
        last: dict[str, Any] = next(
            (p for k, p in reversed(self.stack) if k in ("tie", "seat")), {}
        )
        return f"{seats}-{len(self.tie_rounds)}-{last.get('on', '')}"

    @property
    def over(self) -> bool:
        """The game has a winner (a rematch may follow it)."""
        return (self.state_json or {}).get("phase") == "over"

    @property
    def seated(self) -> list[str] | None:
        """The seating a roll for first player decided, while it stands (a join since asks
        for another roll: the newcomer rolls too)."""
        for kind, payload in reversed(self.stack):
            if kind in ("join", "tie"):
                return None
            if kind == "seat":
                return list(payload["players"])
        return None

    @property
    def roll_again(self) -> list[str]:
        """Who rolls again for first player (the players the recorded tie left level)."""
        rounds = self.tie_rounds
        return cgame.roll_off_rounds(self.players, rounds)[1] if rounds else []

    def undo_words(self) -> str | None:
        """What Undo would take back now, in the words it then says ("Ann's 500"), so that
        the button names it: a phone sees that the action is another phone's (None: none)."""
        if not self.stack:
            return None
        return undone_words(self, _make(self.game, self.version + 1, self.stack[:-1]))

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
            body["roll_again"] = self.roll_again
        if self.rematch:
            body["rematch"] = self.rematch
        return body


NO_PLAYERS = "no players yet: add one first"


def _make(
    game: Game,
    version: int,
    stack: tuple[tuple[str, dict[str, Any]], ...],
    state: Any = None,
    setup_error: str | None = None,
    players: tuple[str, ...] | None = None,
    events: tuple[dict[str, Any], ...] | None = None,
    rematch: str | None = None,
) -> Snapshot:
    if players is None or events is None:
        plist = list(game.players)
        evs: list[dict[str, Any]] = []
        for kind, payload in stack:
            if kind == "join":  # (folded again: rows stored before session 31 kept it as typed)
                plist.append(folded_name(payload["player"]))
            elif kind == "seat":
                plist = list(payload["players"])
            elif kind == "game":
                evs.append(payload)
        players, events = tuple(plist), tuple(evs)
    if state is None and setup_error is None and not players:
        setup_error = NO_PLAYERS
    if state is None and setup_error is None:
        try:
            state = cgame.replay(_log(game, players, events))
        except ValueError as exc:
            # A log the engine no longer accepts (kept, and shown, so that it can still be
            # exported or repaired by undo), or players it does not take.
            setup_error = f"this game's log does not replay: {exc}" if events else str(exc)
    js = state.to_json() if state is not None else None
    return Snapshot(game, version, stack, players, events, state, setup_error, js, rematch)


def _log(game: Game, players: tuple[str, ...], events: tuple[dict[str, Any], ...]) -> dict:
    log = cgame.new_log(game.rules, list(players), target=game.target, strict=False)
    log["events"] = list(events)
    return log


def fold(game: Game, rows: list[tuple[int, str, dict[str, Any]]]) -> Snapshot:
    """Fold all rows of a game (undo cancels the last row that still counts)."""
    stack: list[tuple[str, dict[str, Any]]] = []
    rematch = None
    for _seq, kind, payload in rows:
        if kind == "undo":
            if stack:
                stack.pop()
        elif kind == "rematch":  # (a link to the next game, not an action: no undo takes it)
            rematch = payload["game"]
        else:
            stack.append((kind, payload))
    version = rows[-1][0] if rows else 0
    return _make(game, version, tuple(stack), rematch=rematch)


class Cache:
    """Latest snapshot per game and the immutable game rows, shared by all threads."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.snapshots: OrderedDict[str, Snapshot] = OrderedDict()
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.rendered: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    def get(self, game_id: str) -> Snapshot | None:
        with self.lock:
            return self.snapshots.get(game_id)

    def put(self, snap: Snapshot) -> None:
        with self.lock:
            old = self.snapshots.get(snap.game.id)
            if old is None or old.version <= snap.version:
                self.snapshots[snap.game.id] = snap
                self.snapshots.move_to_end(snap.game.id)
                while len(self.snapshots) > self.size:
                    self.snapshots.popitem(last=False)

    def memo(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """A rendering of one snapshot (sheet HTML, JSON body), made once per key."""
        with self.lock:
            if key in self.rendered:
                self.rendered.move_to_end(key)
                return self.rendered[key]
        value = make()
        with self.lock:
            self.rendered[key] = value
            while len(self.rendered) > RENDERED_SIZE:
                self.rendered.popitem(last=False)
        return value

    def game(self, game_id: str) -> Game | None:
        with self.lock:
            return self.games.get(game_id)

    def forget(self, game_id: str) -> None:
        with self.lock:
            self.snapshots.pop(game_id, None)
            self.games.pop(game_id, None)

    def put_game(self, game: Game) -> None:
        with self.lock:
            self.games[game.id] = game
            while len(self.games) > self.size:
                self.games.popitem(last=False)


def init_app(app: Flask) -> None:
    """Give the app its own cache (tests build many apps)."""
    app.extensions["hotdice_cache"] = Cache()


def memo(key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """Render something derived from a snapshot once (keys include the game id and version)."""
    return _cache().memo(key, make)


def _cache() -> Cache:
    return current_app.extensions["hotdice_cache"]


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


def folded_name(name: str) -> str:
    """A name as the sheet shows it: white space folded, direction controls dropped."""
    return " ".join(name.translate(cgame.BIDI_CONTROLS).split())


def clean_players(players: Any, *, stored: Sequence[str] = ()) -> list[str]:
    """Player names: a list of distinct, non-empty, short strings (white space folded,
    direction controls dropped), after the names already `stored` (a join's), which are
    not checked again: a seating saved under older checks still takes a player."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise Rejected("players must be a list of names")
    names = [folded_name(p) for p in players]
    if any(not n for n in names):
        raise Rejected("a player name is empty")
    if not all(cgame.plain_text(n) and not cgame.looks_blank(n) for n in names):
        raise Rejected("a player name must be plain text to see, without control characters")
    long = [n for n in names if len(n) > MAX_NAME]
    if long:
        raise Rejected(f"a player name is longer than {MAX_NAME} characters: {long[0][:24]}…")
    seen: dict[str, str] = {cgame.name_key(name): name for name in stored}
    for name in names:
        key = cgame.name_key(name)
        twin = seen.get(key)
        if twin is not None:  # (the second of two: say which, as the phone shows it)
            looks = f"{name} is" if name == twin else f"{name} looks like {twin}, who is"
            raise Rejected(f"{looks} already a player: two players cannot have the same name")
        seen[key] = name
    if len(stored) + len(names) > MAX_PLAYERS:
        raise Rejected(f"at most {MAX_PLAYERS} players")
    return [*stored, *names]


def create_game(
    rules: str, target: int | None, players: list[str], follows: str | None = None
) -> tuple[Snapshot, str]:
    """Validate the rules with the engine, store a new game; return it and its join token
    (``follows``: the join token of the finished game this is a rematch of, from which its
    own is derived, `rematch_token`)."""
    names = clean_players(players)
    base, toggles = crules.split_spec(rules)
    rules = "+".join([base, *toggles])  # (as the engine reads it: not "farkle\n+greed")
    try:
        crules.check_winnable(crules.load_rules(rules, target=target))  # (names or not)
        if names:
            cgame.new_log(rules, names, target=target)
    except ValueError as exc:
        raise Rejected(str(exc)) from exc
    token = _code(TOKEN_LEN)
    conn = get_db()
    for _ in range(20):
        game_id = _code(ID_LEN)
        if follows:
            token = rematch_token(follows, game_id)
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


def get_game(game_id: str) -> Game:
    """The game row, from the cache when possible; NotFound if unknown."""
    game_id = normalise_code(game_id)
    game = _cache().game(game_id)
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
    _cache().put_game(game)
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
    return [(r[0], r[1], json.loads(r[2])) for r in cur]


def snapshot_at(game: Game, version: int) -> Snapshot:
    """The snapshot at ``version``: cached, advanced by applying new events, or refolded."""
    cached = _cache().get(game.id)
    if cached is not None and cached.version == version:
        return cached
    if cached is not None and cached.version < version and cached.state is not None:
        rows = _rows(game.id, cached.version, version)
        if rows and all(kind == "game" for _s, kind, _p in rows):
            state = cached.state
            for _seq, _kind, payload in rows:
                state = cgame.apply(state, payload)
            stack = cached.stack + tuple(("game", p) for _s, _k, p in rows)
            snap = _make(
                game,
                version,
                stack,
                state,
                None,
                cached.players,
                cached.events + tuple(p for _s, _k, p in rows),
                cached.rematch,
            )
            _cache().put(snap)
            return snap
    snap = fold(game, _rows(game.id, 0, version))
    _cache().put(snap)
    return snap


def load(game_id: str) -> Snapshot:
    """The current snapshot of a game."""
    game = get_game(game_id)
    return snapshot_at(game, current_version(game.id))


SEATING_FIXED = "players and seating are fixed once the first turn is recorded"


def _next(snap: Snapshot, kind: str, payload: dict[str, Any]) -> Snapshot:
    """The snapshot after one more row, or Rejected with the reason."""
    version = snap.version + 1
    if kind == "rematch":
        if not snap.over:
            raise Rejected("a rematch is set up from a finished game")
        if snap.rematch:
            raise Rejected(f"this game's rematch is already set up: game {snap.rematch}")
        return replace(snap, version=version, rematch=payload["game"])
    if kind == "game":
        if snap.state is None:
            raise Rejected(snap.setup_error or "the game has not started")
        if not snap.started and snap.roll_again:  # (the tie is on every phone: settle it)
            raise Rejected(
                f"the roll for first player is tied: {' and '.join(snap.roll_again)} roll "
                "again first (or Undo takes the tie back)"
            )
        try:
            state = cgame.apply(snap.state, payload)
        except ValueError as exc:
            raise Rejected(str(exc)) from exc
        return _make(
            snap.game,
            version,
            snap.stack + ((kind, payload),),
            state,
            None,
            snap.players,
            snap.events + (payload,),
            snap.rematch,
        )
    if kind == "undo":
        if not snap.stack:
            raise Rejected("nothing to undo")
        return _make(snap.game, version, snap.stack[:-1], rematch=snap.rematch)
    if snap.started:
        raise Rejected(SEATING_FIXED)
    if kind == "join":
        names = clean_players([payload["player"]], stored=snap.players)
        payload = {"player": names[-1]}
    elif kind == "seat":
        if sorted(payload["players"]) != sorted(snap.players):
            raise Rejected("the seating must list the same players")
    try:
        return _make(snap.game, version, snap.stack + ((kind, payload),), rematch=snap.rematch)
    except ValueError as exc:  # pragma: no cover - setup errors are kept, not raised
        raise Rejected(str(exc)) from exc


STALE_OK = frozenset({"join"})
"""Rows recorded on the current version even when sent on an older one, as long as every
row since was one of them too: a name added at the end of the seating means the same
whatever names were added since (a table joins at once). A tie or a seating since (a roll
for first player the phone has not seen), or an undo, still makes it stale."""


def append(game_id: str, version: int, kind: str, payload: dict[str, Any]) -> Snapshot:
    """Record one row if ``version`` is current (or only STALE_OK rows like it came since),
    in one IMMEDIATE transaction.

    The version check and the insert hold SQLite's write lock together, so of two racing
    writers on the same version exactly one succeeds and the other gets Conflict.
    """
    game = get_game(game_id)
    conn = get_db()
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = current_version(game.id)
        snap = snapshot_at(game, current)
        if current != version and not (
            kind in STALE_OK
            and 0 <= version < current
            and {k for _, k, _ in _rows(game.id, version, current)} <= STALE_OK
        ):
            raise Conflict(snap)
        new = _next(snap, kind, payload)
        if kind == "join":  # (the name as cleaned: a restart or another server folds the same)
            payload = new.stack[-1][1]
        conn.execute(
            "INSERT INTO events (game_id, seq, kind, event) VALUES (?,?,?,?)",
            (game.id, new.version, kind, json.dumps(payload)),
        )
        conn.execute("COMMIT")
    except BaseException:
        # (a COMMIT that failed, the disk full, was rolled back by SQLite itself: a ROLLBACK
        # then raised "no transaction is active" in place of "database or disk is full")
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    _cache().put(new)
    return new


def roll_off(
    snap: Snapshot, rounds: list[dict[str, int]], every_round: bool
) -> tuple[str | None, list[str], list[dict[str, int]]]:
    """Ask the engine who starts, and return (winner, who rolls again, every round).

    A single round sent continues a recorded tie; a list of rounds (``every_round``) is
    the whole roll from the first round, starting with the recorded ones. Only the players
    of this game may roll, every one of them in the first round, only the tied ones after.
    """
    if any(set(rolls) - set(snap.players) for rolls in rounds):
        raise Rejected("a roll names someone who is not in this game")
    recorded = snap.tie_rounds
    if not every_round:
        rounds = [*recorded, *rounds]
    elif rounds[: len(recorded)] != recorded or len(rounds) == len(recorded):
        raise Rejected(
            f"the roll for first player so far is recorded ({len(recorded)} round(s)): send "
            "the tied players' new round, or every round starting with the recorded ones"
        )
    if len(rounds) > MAX_ROLL_OFF_ROUNDS:
        raise Rejected(
            f"the roll for first player stops at {MAX_ROLL_OFF_ROUNDS} rounds: "
            "Undo takes the ties back"
        )
    try:
        winner, again = cgame.roll_off_rounds(snap.players, rounds)
    except ValueError as exc:
        raise Rejected(str(exc)) from exc
    return winner, again, rounds


def undone_words(before: Snapshot, after: Snapshot) -> str:
    """What an undo took back, for the phone that asked ("Ann's 500", "Bob joining"): the
    last row that counted in ``before``, the snapshot it was made on."""
    kind, payload = before.stack[-1]
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


def record_roll_off(
    game: Game, version: int, rounds: list[dict[str, int]], every_round: bool
) -> tuple[str | None, list[str], Snapshot]:
    """Record a roll for first player sent on ``version`` (`roll_off`): a tie, so that
    every phone sees who rolls again, or the seating from its winner. Returns (winner, who
    rolls again, the snapshot after it)."""
    snap = snapshot_at(game, current_version(game.id))
    if snap.version != version:  # a stale phone hears so first, tie or not (append checks too)
        raise Conflict(snap)
    if snap.started:  # a tie would otherwise be recorded for nothing
        raise Rejected(SEATING_FIXED)
    if snap.seated:  # (another roll would re-seat a table every phone saw settled)
        raise Rejected(
            f"{snap.seated[0]} already won the roll for first player (Undo takes it back)"
        )
    winner, again, rounds = roll_off(snap, rounds, every_round)
    # ("on": its version, so that a tie recorded again after an undo is another round)
    if winner is None:
        return None, again, append(game.id, version, "tie", {"rolls": rounds, "on": version})
    seating = {"players": seating_from(snap.players, winner), "rolls": rounds, "on": version}
    return winner, [], append(game.id, version, "seat", seating)


def rematch_token(token: str, game_id: str) -> str:
    """The join token of the rematch ``game_id`` of a game whose token is ``token``: derived
    one way, so that a browser that played the finished game plays its rematch (it can
    derive the code, `pages.session_token`), while a newcomer to the rematch, who holds only
    the rematch's code, cannot write the finished game."""
    seed = f"rematch:{_plain_token(token)}:{game_id}"
    n = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")
    letters = []
    for _ in range(TOKEN_LEN):
        n, i = divmod(n, len(ALPHABET))
        letters.append(ALPHABET[i])
    return "".join(letters)


def record_rematch(game: Game, rematch: str) -> str:
    """Link a finished game to the table's next one, so that every phone's winner screen
    opens it; returns the game linked (another phone's, if its rematch was linked first).
    Rejected when the game is no longer finished (taken back meanwhile)."""
    for _ in range(5):  # (a write on the old game meanwhile: another rematch, an undo)
        snap = load(game.id)
        if snap.rematch:
            return snap.rematch
        try:
            append(game.id, snap.version, "rematch", {"game": rematch})
        except Conflict:
            continue
        return rematch
    raise Rejected("the game kept changing meanwhile: no rematch was set up")


def drop_unplayed(game_id: str) -> None:
    """Remove a game made a moment ago that no phone has written to: a rematch that lost
    the race to another phone's, or whose game was taken back meanwhile."""
    get_db().execute(
        "DELETE FROM games WHERE id = ? AND NOT EXISTS (SELECT 1 FROM events WHERE game_id = ?)",
        (game_id, game_id),
    )
    _cache().forget(game_id)


def seating_from(players: tuple[str, ...], first: str) -> list[str]:
    """Keep the seating order around the table, starting with ``first``."""
    i = players.index(first)
    return list(players[i:] + players[:i])
