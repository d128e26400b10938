"""The JSON API under /api/: everything the pages do, for any client."""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge, ServiceUnavailable

from companion import rules as crules
from companion.coach import advise_game, nothing_to_decide

from . import coach, photos, store
from .cli import everywhere
from .errors import HOST_UNUSABLE, error_response
from .fastpoll import etag_for, versioned
from .ratelimit import a_new_game

bp = Blueprint("api", __name__, url_prefix="/api")


class Unreadable(ValueError):
    """A request the API cannot read (its body, a query argument, an upload): answered
    with 400 and the reason (named apart from werkzeug's ``BadRequest``, which the app's
    error handlers answer too)."""


@bp.errorhandler(Unreadable)
def unreadable(exc: Unreadable) -> Any:
    return error_response(400, str(exc))


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    """A JSON number as a float; 1e400 would be stored as Infinity, which is not JSON."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large")
    return value


# No request nests deeper than 3 (the roll for first's rounds); an event's extra keys (the
# time, who entered it) are kept in the log, so a cap keeps every stored game loadable
MAX_DEPTH = 8
MAX_EVENT_BYTES = 4096


def json_body() -> dict[str, Any]:
    """The request's JSON object, or Unreadable saying what is wrong with it."""
    if not request.is_json:
        raise Unreadable("expected a JSON body (Content-Type: application/json)")
    try:
        # strict JSON: NaN and Infinity would be stored and make the game's log unreadable
        body = json.loads(
            request.get_data(cache=True), parse_constant=_not_json, parse_float=_finite
        )
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise Unreadable("malformed JSON body") from None
    if not isinstance(body, dict):
        raise Unreadable("the JSON body must be an object")
    if _depth(body) > MAX_DEPTH:  # stored, it would not load again (RecursionError)
        raise Unreadable(f"the JSON body is nested over {MAX_DEPTH} deep")
    return body


def _depth(value: Any, level: int = 0) -> int:
    """How deep lists and objects nest in ``value`` (counting stops past MAX_DEPTH)."""
    if not isinstance(value, (dict, list)):
        return level
    if level >= MAX_DEPTH:
        return level + 1
    items = value.values() if isinstance(value, dict) else value
    return max((_depth(v, level + 1) for v in items), default=level + 1)


def whole_numbers(values: Iterable[Any]) -> bool:
    """JSON integers only: not true/false (Python's bools are ints), not 4.0 or "4"."""
    return all(type(v) is int for v in values)


def _int(body: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    value = body.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unreadable(f"{key!r} must be a whole number")
    return value


def bearer_token() -> str | None:
    """The token of ``Authorization: Bearer <token>`` (a header, so forms cannot forge it)."""
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class NotAuthorised(Exception):
    """A write without the game's join token: answered with 403. (Python's own
    PermissionError had stood for it, so that a file the server may not open, met while
    answering, would have been put to the player as a missing token.)"""


def authorised(game_id: str) -> store.Game:
    """The game, if the request carries its join token; 403 otherwise."""
    game = store.get_game(game_id)
    if not store.check_token(game, bearer_token()):
        raise NotAuthorised
    return game


@bp.errorhandler(photos.PhotoError)
def photo_error(exc: photos.PhotoError) -> Any:
    return error_response(exc.status, str(exc))


@bp.errorhandler(NotAuthorised)
def forbidden(_exc: NotAuthorised) -> Any:
    return error_response(
        403, "this action needs the game's join token (Authorization: Bearer <token>)"
    )


LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")
"""Hosts that name the server itself, not where phones reach it: a page opened on it
(localhost); and so does the address it listens on everywhere (``hotdice serve``'s
default 0.0.0.0, or 0, [::]: `cli.everywhere`), whose link no phone can open either."""


def base_url() -> str:
    """Where other phones reach this server: the request's host, except that a page opened
    on the server itself (`LOOPBACK`) links to the LAN address ``hotdice serve`` printed."""
    if not request.host or request.host.split(":")[0].lower().rstrip(".").endswith(".invalid"):
        # (Werkzeug empties a Host header that is no address, "a b"; waitress names a
        # request without one, HTTP/1.0's, "waitress.invalid")
        abort(400, description=HOST_UNUSABLE)
    public = current_app.config.get("PUBLIC_URL")
    host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    if public and (host in LOOPBACK or host.startswith("127.") or everywhere(host)):
        return str(public).rstrip("/")
    try:
        port = urlsplit(f"//{request.host}").port
    except ValueError:  # (a port past 65535: "x:99999999")
        port = 0
    if port == 0:  # (no phone opens port 0 either)
        abort(400, description=HOST_UNUSABLE)
    try:
        return request.host_url.rstrip("/")
    except (ValueError, IndexError):  # (a name Werkzeug cannot decode from IDNA: "xn--a")
        abort(400, description=HOST_UNUSABLE)


def game_urls(game_id: str, token: str | None) -> dict[str, str]:
    """The join link (with its token, for the QR code) and the read-only link."""
    base = base_url()
    urls = {"view_url": base + url_for("pages.game", game_id=game_id)}
    if token:
        urls["join_url"] = base + url_for("pages.game", game_id=game_id, t=token)
    return urls


@bp.get("/openapi.yaml")
def openapi() -> Response:
    """The API description (OpenAPI 3.1) that this server implements."""
    text = (Path(__file__).parent / "openapi.yaml").read_text(encoding="utf-8")
    return Response(text, mimetype="application/yaml")


_SEED = re.compile(r"\s*\(seed \d+\)|, the six-dice version of seed \d+")
"""Where a preset's rules came from (RULES.md's seed files): not for a player's picker."""


def preset_choices() -> list[dict[str, Any]]:
    """The engine's presets, described by the engine, for rule pickers."""
    return [
        {
            "name": n,
            "title": _SEED.sub("", crules.PRESET_SOURCES.get(n, n)),
            "dice": r.dice,
            "target": r.target,
            "description": crules.describe(r),
        }
        for n, r in crules.PRESETS.items()
    ]


def toggle_choices() -> list[dict[str, str]]:
    """The engine's house-rule toggles with their one-line descriptions."""
    return [{"name": n, "description": d} for n, (d, _o) in crules.TOGGLES.items()]


@bp.get("/rules")
def rules_list() -> Response:
    """The presets and house rules, for a client building a rule picker."""
    return jsonify({"presets": preset_choices(), "toggles": toggle_choices()})


def rules_arg() -> str | None:
    """``?rules=``: a spec typed into a URL as ``farkle+greed`` arrives as "farkle greed" (a
    query's "+" is a space); no preset or house rule has a space in its name, so in a spec
    without a "+" (sent as %2B) each space is read as the "+" it was."""
    given = request.args.getlist("rules")
    if len(given) > 1:  # (as a flag's: the first of two had been taken without a word)
        raise Unreadable(f"?rules= is given {len(given)} times: give it once")
    raw = given[0] if given else ""
    if not raw.strip():
        return None
    return raw if "+" in raw else "+".join(raw.split())


@bp.get("/rules/describe")
def rules_described() -> Response:
    """One rule set in the engine's words (``?rules=farkle+extra-combos``): what a table's
    choice of house rules makes of its preset, shown before the game is made."""
    spec = rules_arg() or ""
    if not spec:
        raise Unreadable("name the rules: ?rules=preset+house-rule+...")
    try:
        rules = crules.load_rules(spec)
    except ValueError as exc:
        raise store.Rejected(str(exc)) from exc
    return jsonify({"rules": rules.name, "description": crules.describe(rules)})


IDEMPOTENCY_KEY = re.compile(r"[\x20-\x7e]{22,200}")
"""An ``Idempotency-Key`` header's value: printable ASCII, 22-200 characters. A key sent
again gets its game's join token back (`store.create_keyed`), so it must be as hard to
guess: 22 characters hold a UUID's 128 bits in base 64; a UUID's text is 36."""


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` (None: no such header), or Unreadable."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
        raise Unreadable(
            "the Idempotency-Key header must be 22-200 printable ASCII characters "
            "(a new UUID for each game)"
        )
    return key


@bp.post("/games")
def create() -> tuple[Response, int]:
    """Create a game; the answer carries the join token, shown only here. With an
    ``Idempotency-Key`` header the same request sent again (its answer lost on the way)
    gets the same answer for the game it made, token and all (`store.create_keyed`)."""
    key = idempotency_key()
    body = json_body()
    rules = body.get("rules")
    if not isinstance(rules, str) or not rules.strip():
        raise Unreadable("'rules' must be a rule set name such as \"ten-thousand+strike-out\"")
    target = _int(body, "target", required=False)
    players = body.get("players", [])
    base_url()  # (a Host header no phone can open is refused before a game is made)
    how = store.Made.NOW
    with a_new_game() as count:
        if key is None:
            count()
            snap, token = store.create_game(rules.strip(), target, players)
        else:  # (a retry of a game made is answered, however many this address made since)
            snap, token, how = store.create_keyed(
                key, rules.strip(), target, players, before_making=count
            )
    out = {
        "id": snap.game.id,
        "token": token,
        **store.public(snap),
        **game_urls(snap.game.id, token),
    }
    resp = jsonify(out)
    if how == store.Made.BEFORE:  # (as other APIs say a replayed answer)
        resp.headers["Idempotent-Replayed"] = "true"
    return resp, 201


@bp.get("/games/<game_id>")
def get(game_id: str) -> Response:
    """Anyone with the id may read; ``If-None-Match`` makes an unchanged poll a cheap 304."""
    game = store.get_game(game_id)
    version = store.current_version(game.id)
    return versioned(
        etag_for(game.id, version, store.epoch()),
        ("json", game.id, version),
        # (the file's epoch: a page loaded from another file, the one before a backup was
        # put back, reloads, whatever the version)
        lambda: current_app.json.dumps(store.public(store.snapshot_at(game, version))),
        mimetype="application/json",
    )


def same_file(game_id: str, body: dict[str, Any]) -> None:
    """A write's ``epoch`` (the page's, optional) is the database file's: one sent from a
    page of the file before a backup was put back is stale, as at another version, even
    where the version numbers agree (409)."""
    sent = body.get("epoch")
    if sent is not None and not isinstance(sent, str):  # (not another file's: malformed)
        raise Unreadable("'epoch' must be the text the game's GET gave, such as \"1a2b3c4d\"")
    if sent is not None and sent != store.epoch():
        raise store.Conflict(
            store.load(game_id),
            "the scoresheet's database was put back from a backup since this page loaded: "
            "reload it",
        )


def _write(game_id: str, kind: str, payload_key: str | None) -> store.Snapshot:
    """Record one version-checked row of ``kind`` from the request's body."""
    game = authorised(game_id)
    body = json_body()
    version = _int(body, "version")
    assert version is not None
    same_file(game.id, body)
    payload: dict[str, Any] = {}
    if payload_key == "event":
        payload = body.get("event")  # type: ignore[assignment]
        if not isinstance(payload, dict):
            raise Unreadable('\'event\' must be an object such as {"type": "bank"}')
        if len(json.dumps(payload)) > MAX_EVENT_BYTES:
            raise Unreadable(f"an event is at most {MAX_EVENT_BYTES:,} bytes of JSON")
        dice = payload.get("dice")
        if dice is not None and not (isinstance(dice, list) and whole_numbers(dice)):
            # the log keeps events as sent: ["1", 4.0] would replay, but not read as dice
            raise Unreadable("'dice' must be a list of die faces such as [1, 5, 3]")
    elif payload_key == "name":
        name = body.get("name")
        if not isinstance(name, str):
            raise Unreadable("'name' must be the new player's name")
        payload = {"player": name}
    return store.append(game.id, version, kind, payload)


def _state(snap: store.Snapshot, **extra: Any) -> Response:
    """The answer to a write: the game's version and state, with its ETag."""
    resp = jsonify({**store.public(snap), **extra})
    resp.set_etag(etag_for(snap.game.id, snap.version, store.epoch()))
    return resp


@bp.post("/games/<game_id>/events")
def post_event(game_id: str) -> Response:
    """Record one event of the game log, if it is legal and made on the current version."""
    return _state(_write(game_id, "game", "event"))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Cancel the last action; itself version-checked, and recorded (nothing is deleted).
    The answer's ``undone`` says what was taken back, for the phone to say."""
    before = store.load(game_id)  # (the undo is made on it, or is refused as stale)
    snap = _write(game_id, "undo", None)
    if snap.version != before.version + 1:  # (another row came between: no words to guess)
        return _state(snap)
    return _state(snap, undone=store.undone_words(before, snap))


@bp.post("/games/<game_id>/players")
def add_player(game_id: str) -> Response:
    """Add a player at the end of the seating, before the first turn."""
    return _state(_write(game_id, "join", "name"))


@bp.post("/games/<game_id>/first")
def first_player(game_id: str) -> Response:
    """Roll for first player: the engine picks the highest; ties must roll again."""
    game = authorised(game_id)
    body = json_body()
    version = _int(body, "version")
    assert version is not None
    same_file(game.id, body)
    rolls = body.get("rolls")
    rounds = rolls if isinstance(rolls, list) else [rolls]
    if not rounds or not all(
        isinstance(r, dict) and r and whole_numbers(r.values()) for r in rounds
    ):
        raise Unreadable(
            "'rolls' must map player names to the die each rolled (or be a list of such "
            "rounds: everyone's first, then the tied players')"
        )
    rounds_checked = cast(list[dict[str, int]], rounds)  # (each a map of whole numbers, above)
    winner, again, snap = store.record_roll_off(
        game, version, rounds_checked, isinstance(rolls, list)
    )
    return jsonify({"winner": winner, "roll_again": again, **store.public(snap)})


@bp.get("/games/<game_id>/advice")
def advice(game_id: str) -> Response:
    """The coach: the strategy advisor's advice for the game as it stands (null when over)."""
    game = store.get_game(game_id)
    version = store.current_version(game.id)
    tag = etag_for(game.id, version, store.epoch()) + "-advice"
    if request.if_none_match.contains_weak(tag):  # (weak, as RFC 9110 has it: `versioned`)
        resp = Response(status=304)
    else:
        try:
            body = store.memo(("advice", game.id, version), lambda: _advice_json(game, version))
        except coach.Pending as wait:  # (not cached: asked again, it will be ready)
            resp = jsonify({"version": version, "advice": wait.advice})
            resp.headers["Cache-Control"] = "no-store"
            return resp
        resp = current_app.response_class(body, mimetype="application/json")
    resp.set_etag(tag)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def _advice_json(game: store.Game, version: int) -> str:
    """The coach's advice at ``version`` as a JSON body: pending while the rules' turn or
    race is solved in the background (`coach.ready`, with no slot held); then working it
    out shares the cap on heavy work, past which the phone is told the coach is busy and
    asks again (eight phones asking at once had held every other game's polling for 8 s)."""
    snap = store.snapshot_at(game, version)
    state = snap.state
    # (no game yet, or over, or a bonus roll: nothing to work out; nor while the roll for
    # first player is tied: the seating is still to come)
    advice = None
    if state is not None and not nothing_to_decide(state) and not snap.tied_for_first:
        coach.ready(state)  # (pending while its solves are under way: no slot held)
        try:
            with heavy_work("working out advice"):
                advice = advise_game(state)
        except ServiceUnavailable:
            raise coach.pending(
                state, "The server is busy just now; asking the coach again…"
            ) from None
    return str(current_app.json.dumps({"version": version, "advice": advice}))


def coach_on(body: dict[str, Any] | None = None) -> bool:
    """``?coach=1`` (or ``"coach": true`` in a JSON body, which wins) asks for the ranked
    keeps. The query's flag is checked either way: a bad one is refused, not ignored."""
    asked = query_flag("coach")
    if body is not None and "coach" in body:
        if not isinstance(body["coach"], bool):
            raise Unreadable(f"coach must be true or false, not {body['coach']!r}")
        return body["coach"]
    return asked


_YES = ("1", "true", "yes", "on")
_NO = ("", "0", "false", "no", "off")


def query_flag(name: str) -> bool:
    """A yes-or-no query parameter (absent is no). Anything else is refused rather than
    taken as no, so a typo such as ``?coach=ture`` is not silently ignored."""
    given = request.args.getlist(name)
    if len(given) > 1:
        raise Unreadable(f"?{name}= is given {len(given)} times: give it once")
    raw = given[0].strip().lower() if given else ""
    if raw in _YES or raw in _NO:
        return raw in _YES
    raise Unreadable(f"?{name}= takes 1 or 0 (or true/false, yes/no, on/off), not {given[0]!r}")


def with_advice(
    out: dict[str, Any], rules: str, dice: list[int], target: int | None = None
) -> dict[str, Any]:
    """Add the coach's ranked keeps of the roll (``advice``; null without dice)."""
    try:
        out["advice"] = coach.advice_for_roll(rules, dice, target)
    except ValueError as exc:
        out["advice"] = None
        out["advice_error"] = str(exc)
    return out


@bp.get("/games/<game_id>/log")
def log(game_id: str) -> Response:
    """The game log in the ``hotdice replay`` format (``?download=1`` for a file)."""
    snap = store.load(game_id)
    log = snap.log()
    if not log["players"]:  # (`hotdice replay` reads no game without players)
        raise store.Rejected("the game has no players yet: its log starts when one joins")
    resp = jsonify(log)
    if query_flag("download"):
        resp.headers["Content-Disposition"] = f'attachment; filename="hotdice-{snap.game.id}.json"'
    return resp


def init_app(app: Any) -> None:
    """The app's cap on heavy requests (`heavy_work`), from ``HEAVY_AT_ONCE``."""
    app.extensions["hotdice_heavy"] = threading.BoundedSemaphore(app.config["HEAVY_AT_ONCE"])


@contextmanager
def heavy_work(what: str) -> Iterator[None]:
    """A photo read or a coach's solve, at most ``HEAVY_AT_ONCE`` at a time; past that the
    request is told at once to try again (503) instead of waiting on a server thread: eight
    49-MP photos at once held every thread for 10 s, and every game's polling with them."""
    heavy = current_app.extensions["hotdice_heavy"]
    if not heavy.acquire(blocking=False):
        busy = ServiceUnavailable(f"the server is busy {what} for others; try again in a moment")
        busy.retry_after = 2  # (the standard signal beside the words; a phone asks again)
        raise busy
    try:
        yield
    finally:
        heavy.release()


@bp.post("/score")
def score() -> Response:
    """What a roll scores under some rules, and why (the engine's ``roll_report``)."""
    body = json_body()
    rules = body.get("rules")
    dice = body.get("dice")
    if not isinstance(rules, str) or not rules.strip():
        raise Unreadable("'rules' must be a rule set name")
    if not isinstance(dice, list) or not whole_numbers(dice):
        raise Unreadable("'dice' must be a list of die faces such as [1, 5, 3]")
    target = _int(body, "target", required=False)
    out = photos.score_report(rules.strip(), dice, target)
    if coach_on(body):
        out["advice"] = coach_pending(rules.strip(), target)
        if out["advice"] is None:
            with heavy_work("ranking keeps"):
                with_advice(out, rules.strip(), dice, target)
    return jsonify(out)


def coach_pending(rules: str, target: int | None = None) -> dict[str, Any] | None:
    """`coach.roll_pending`, taken before a slot of heavy work; rules it cannot load are
    left to `with_advice`, which says why."""
    try:
        return coach.roll_pending(rules, target)
    except ValueError:
        return None


def _multipart_problem() -> str:
    """Why a multipart upload holds no 'photo': a body the parser found nothing in (cut off,
    its boundary not the one its Content-Type names, or a header Werkzeug cannot decode as
    UTF-8, as curl sends a Latin-1 file name) is said as such, not as a field the client
    did send."""
    if "boundary" not in request.mimetype_params:
        return "the multipart upload has no boundary in its Content-Type: send the photo again"
    names = sorted({*request.files, *request.form})
    if not names:
        return (
            "the multipart upload could not be read (cut off, its boundary wrong, or a "
            "part's header not UTF-8, as a file name in another encoding): send the photo again"
        )
    shown = ", ".join(repr(name[:40]) for name in names[:5])
    return f"no multipart field 'photo' (the upload has {shown}): send the photo as 'photo'"


@bp.post("/read")
def read() -> Response:
    """Read the dice of a photo (multipart ``photo`` or a raw image body); score with ?rules."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is not None and limit and request.content_length > limit:
        raise RequestEntityTooLarge()  # before the multipart parser spools it to disk
    # (the body's type first: a photo sent as a form of another kind, curl's --data-binary,
    # is not parsed as a form, which would call it "form too large")
    if request.mimetype.startswith("image/") or request.mimetype == "application/octet-stream":
        data = request.get_data(cache=False)
    elif request.mimetype == "multipart/form-data" and "photo" in request.files:
        sent = request.files.getlist("photo")
        if len(sent) > 1:  # (as ?rules= twice: the first had been read without a word)
            raise Unreadable(f"the multipart field 'photo' is sent {len(sent)} times: send one")
        data = sent[0].read()
    elif request.mimetype == "multipart/form-data" and "photo" in request.form:
        raise Unreadable(  # (a part with no filename is a text field to Werkzeug)
            "the multipart field 'photo' came as text, with no filename: send it as a file "
            "(curl -F 'photo=@roll.jpg')"
        )
    elif request.mimetype == "multipart/form-data":
        raise Unreadable(_multipart_problem())
    else:
        raise Unreadable(
            "send the photo as multipart field 'photo' or as an image body "
            "(Content-Type: image/jpeg)"
        )
    if not data:
        raise Unreadable("the photo is empty")
    rules = rules_arg()
    photos.check_rules(rules)
    ranked = coach_on()  # (a bad flag refused before the photo is read)
    if ranked and not rules:  # (as `hotdice read --coach` without --rules is refused)
        raise Unreadable("coach=1 needs rules=NAME: the keeps are ranked under a table's rules")
    waiting = coach_pending(rules) if rules and ranked else None
    with heavy_work("reading photos"):
        out = photos.read_photo(data, rules, max_pixels=current_app.config["MAX_PIXELS"])
        if rules and ranked and waiting:
            out["advice"] = waiting
        elif rules and ranked:
            with_advice(out, rules, out["dice"])
    return jsonify(out)
