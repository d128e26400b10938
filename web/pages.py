"""The phone pages: home (create/join), the game's scoresheet, the rule check."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sqlite3
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response as WResponse

from companion import game as cgame
from companion import rules as crules
from companion.errors import brief

from . import chart, store
from .api import base_url, game_urls, preset_choices, toggle_choices
from .fastpoll import etag_for, versioned
from .ratelimit import a_new_game

bp = Blueprint("pages", __name__)


def csrf_token() -> str:
    """The session's CSRF token, carried by every HTML form."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


@bp.app_context_processor
def inject() -> dict[str, Any]:
    """Values every template needs."""
    return {
        "csrf_token": csrf_token,
        "poll_ms": current_app.config["POLL_MS"],
        "score_step": crules.SCORE_STEP,
        "max_points": crules.MAX_TARGET,  # (what a turn may score: the engine's cap)
        "file_epoch": store.epoch,  # (a sheet's: called only where one is drawn)
    }


SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


@bp.after_app_request
def security_headers(resp: Response) -> Response:
    """No framing (the action buttons cannot be clickjacked), scripts from this origin only."""
    for key, value in SECURITY_HEADERS.items():
        resp.headers.setdefault(key, value)
    return resp


def check_form() -> None:
    """Reject cross-site form posts: the CSRF token must match and the Origin be ours."""
    origin = request.headers.get("Origin")
    if origin and origin != "null" and _netloc(origin) != request.host:
        abort(403, "cross-site form post refused")
    sent = request.form.get("csrf_token", "").encode("utf-8", "surrogatepass")
    # (as bytes: compare_digest refuses text that is not ASCII, "é" was a 500)
    if not sent or not secrets.compare_digest(sent, str(session.get("csrf", "")).encode()):
        abort(403, "the form has expired; reload the page and try again")


def _netloc(url: str) -> str | None:
    """The host and port of a URL; None for one that does not parse ("http://[::1")."""
    try:
        return urlsplit(url).netloc
    except ValueError:
        return None


def session_token(game: store.Game) -> str | None:
    """The join token this browser holds for the game, if it is still valid. A rematch's
    is derived from its finished game's (`store.rematch_token`): a browser that played that
    one plays this one."""
    tokens = _held_tokens()
    token = tokens.get(game.id)
    if token and store.check_token(game, token):
        return token
    for held in reversed(tokens.values()):
        derived = store.rematch_token(held, game.id)
        if store.check_token(game, derived):
            remember_token(game.id, derived)
            return derived
    return None


def _held_tokens() -> dict[str, str]:
    """The join tokens in this browser's session, game id to token. The cookie is signed,
    so only a server with another layout (or its secret) writes anything else; whatever it
    is, a page answers as for a browser that holds none rather than with a 500."""
    tokens = session.get("tokens")
    if not isinstance(tokens, dict):
        return {}
    return {k: v for k, v in tokens.items() if isinstance(k, str) and isinstance(v, str)}


REMEMBERED_GAMES = 30
"""Join tokens a browser keeps, newest first: the session cookie must stay under the 4 KB
a browser keeps (it passed that at about 200 games, and a dropped cookie loses them all)."""


def remember_token(game_id: str, token: str) -> None:
    """Keep a game's join token in this browser's session, so its creator can play."""
    tokens = {k: v for k, v in _held_tokens().items() if k != game_id}
    tokens[game_id] = store.normalise_code(token)  # (as shown: "bckr-aggp" was garbled)
    session["tokens"] = dict(list(tokens.items())[-REMEMBERED_GAMES:])
    session.permanent = True


@bp.get("/")
def index() -> WResponse | str:
    """The home page: create a game, or join one by its code; ``?again=<game>`` (the winner
    screen's *Rematch*) fills the form with that game's rules, target and players, or opens
    the rematch another phone has already set up."""
    again = _load_or_none(request.args.get("again", ""))
    finished = _finished_here(again)
    if finished is not None and finished.rematch:
        return redirect(url_for("pages.game", game_id=finished.rematch, joined=1))
    if again is not None and not again.over and session_token(again.game):
        # (a Rematch tapped on a winner screen another phone's Undo had already taken back:
        # the form would look like the rematch and make a game no other phone is sent to)
        return _no_rematch(again.game.id)
    return render_template(
        "index.html",
        presets=preset_choices(),
        toggles=toggle_choices(),
        form=_rematch(again) if again else None,
        form_id=fresh_form_id(),
        again=finished.game.id if finished else None,
        mine=[] if again else my_games(),
    )


ALREADY_MADE = "This game was already created from that form: here it is (no second game)."


def fresh_form_id() -> str:
    """A create form's own id, new each time the form is shown (`form_key`)."""
    return secrets.token_urlsafe(9)


def form_key(form_id: str, *content: Any) -> str:
    """What makes a create form sent again the same form (`store.create_once`): this
    browser's session, the form's id (kept through Back by create.js) and what it holds.
    A form shown afresh has a new id, so a second game like the first is still made on
    purpose; a form edited after Back makes the game it now asks for."""
    seed = json.dumps([str(session.get("csrf", "")), form_id, *content])
    return hashlib.sha256(seed.encode()).hexdigest()


def _made_before(snap: store.Snapshot, token: str | None) -> WResponse:
    """To the game a create form made already, this browser a player of it, said so."""
    flash(ALREADY_MADE)
    if token and session_token(snap.game) is None:  # (its first answer lost on the way)
        remember_token(snap.game.id, token)
    return redirect(url_for("pages.game", game_id=snap.game.id))


GAMES_LISTED = 5
"""This phone's games the home page lists, newest first."""


def my_games() -> list[dict[str, str]]:
    """The games this browser plays in (holds a valid join code for), the last opened first,
    as the home page lists them: code, players and how the game stands. A player who closed the
    tab (or whose phone's home-screen icon opens the home page) gets back to the sheet."""
    out: list[dict[str, str]] = []
    tokens = _held_tokens()
    held = set(tokens)
    for game_id in reversed(tokens):
        snap = _load_or_none(game_id)
        if snap is None or session_token(snap.game) is None:
            continue
        href = url_for("pages.game", game_id=snap.game.id)
        state = snap.state_json
        if state is None:
            status = "setting up" + (f": {', '.join(snap.players)}" if snap.players else "")
        elif state["phase"] == "over":
            status = f"{state['winner']} won"
            # (the rematch another phone set up, which this phone plays with the same code:
            # opened from here, as from the winner screen, until this phone has opened it)
            if snap.rematch and snap.rematch not in held:
                status += f" · rematch {snap.rematch} set up"
                href = url_for("pages.game", game_id=snap.rematch, joined=1)
        else:
            status = f"{state['current_player']}'s turn"
        players = " · ".join(snap.players) if state is not None else ""
        out.append({"id": snap.game.id, "players": players, "status": status, "href": href})
        if len(out) == GAMES_LISTED:
            break
    return out


def _load_or_none(game_id: str) -> store.Snapshot | None:
    """The game an ``again`` link names, as it stands (None: no such game)."""
    try:
        return store.load(game_id) if game_id else None
    except store.NotFound:
        return None


def _finished_here(snap: store.Snapshot | None) -> store.Snapshot | None:
    """``snap`` if it is over and this browser plays in it (holds its join code): its
    rematch is played with the same code, and every phone's winner screen links to it."""
    return snap if snap is not None and snap.over and session_token(snap.game) else None


def _rematch(snap: store.Snapshot) -> MultiDict[str, str] | None:
    """The create form as a finished game was made (None for a game of rules given as a
    table, which the form's picker cannot show)."""
    spec = crules.preset_spec(snap.game.rules)
    if spec is None:
        return None
    return MultiDict(
        [
            ("preset", spec[0]),
            *(("toggle", t) for t in spec[1]),
            ("target", "" if snap.game.target is None else str(snap.game.target)),
            ("players", "".join(f"{name}\n" for name in snap.players)),  # (lines: a comma kept)
        ]
    )


REMATCH_TAKEN = "Another phone had set up the rematch first: this is it (yours was not made)."


def _no_rematch(game_id: str, *, not_a_player: bool = False) -> WResponse:
    """Back to a game that is no longer finished, or that this browser does not play in
    (a rematch is played with the finished game's join code), saying why no rematch was
    made."""
    if not_a_player:
        flash(f"This phone does not play in game {game_id}: no rematch was made.")
    else:
        flash(f"Game {game_id} is no longer finished (taken back?): no rematch was made.")
    return redirect(url_for("pages.game", game_id=game_id))


NOT_A_JOIN_CODE = "That join code is not valid: you are watching, not playing."
NOT_A_JOIN_CODE_HELD = "That join code is not valid: this phone plays with the one it already had."

WHOLE_NUMBER = re.compile(r"[+-]?\d+")
"""A target as typed (commas and spaces taken out): digits of any script, as a phone's
keyboard gives them and int() reads them; not int()'s "1_0000"."""

GROUPED = re.compile(r"[+-]?(\d+|\d{1,3}((,|\s+)\d{3})+)")
"""A target as typed with separators: a comma or spaces (a French keyboard's no-break
ones too) only between groups of three digits, as the quick entry takes points
("10,0000" had made a game to 100,000)."""


def _digits(text: str) -> str:
    """A number as typed with its separators (commas, spaces) taken out."""
    return "".join(text.replace(",", " ").split())


def _form_target(text: str) -> int | None:
    """The create form's target (None: the rule set's own); ValueError saying what is
    wrong with it, in the words the form shows."""
    if not text:
        return None
    if not GROUPED.fullmatch(text):
        raise ValueError("the target must be a whole number, such as 10000 or 10,000")
    text = _digits(text)
    if not WHOLE_NUMBER.fullmatch(text):
        raise ValueError("the target must be a whole number")
    try:
        return int(text)
    except ValueError:  # (digits past what int() reads)
        if text.startswith("-"):
            raise ValueError(
                f"the target must be a positive multiple of {crules.SCORE_STEP}"
            ) from None
        raise ValueError(f"the target is at most {crules.MAX_TARGET:,}") from None


@bp.get("/new")
def new_form() -> WResponse:
    """The create form's address opened as a page (Back to the answer to a form with a
    mistake, with scripts off: create.js gives that answer the home page's address): the
    form is on the home page."""
    return redirect(url_for("pages.index"))


@bp.post("/new")
def new() -> WResponse | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """The create form: preset, house rules, target, players in seating order."""
    check_form()
    base_url()  # (a Host header no phone can open is refused before a game is made)
    preset = request.form.get("preset", "")
    toggles = [t for t in request.form.getlist("toggle") if t]
    spec = "+".join([preset, *toggles])
    # one a line; on a single line, "Ann, Bob" too (but a list of lines keeps "Smith, Jr.")
    typed = request.form.get("players", "")
    players = [p for p in (typed if "\n" in typed else typed.replace(",", "\n")).splitlines()]
    players = [p for p in players if p.strip()]
    typed_target = request.form.get("target", "").strip()  # 10,000 as on paper
    target_text = _digits(typed_target)
    form_id = request.form.get("form_id", "")[:32]
    key = form_key(form_id, spec, target_text, players, request.form.get("again", ""))
    before = store.made_before(key) if form_id else None
    if before is not None:  # (a rematch's too, before it would be called another phone's)
        return _made_before(*before)
    again = _load_or_none(request.form.get("again", ""))
    finished = _finished_here(again)
    if finished is not None and finished.rematch:  # (another phone was first)
        flash(REMATCH_TAKEN)
        return redirect(url_for("pages.game", game_id=finished.rematch, joined=1))
    if again is not None and finished is None:  # (taken back since the form was opened,
        # or not this phone's game)
        return _no_rematch(again.game.id, not_a_player=again.over)
    held = session_token(finished.game) if finished else None
    if finished is not None and held is None:  # (as `_finished_here` found: never so)
        return _no_rematch(finished.game.id, not_a_player=True)
    rematch = (finished, held) if finished and held else None
    try:
        target = _form_target(typed_target)
        with a_new_game() as count:
            snap, token, how = _create(
                key if form_id else None, spec, target, players, rematch, count
            )
    except store.NotFinished as exc:  # (taken back meanwhile: its phones still play it)
        return _no_rematch(exc.game_id)
    except (ValueError, TooManyRequests) as exc:  # (store.Rejected is one: the engine's
        # reason; too many games made: the form kept, as typed, for a minute on)
        refused = exc if isinstance(exc, TooManyRequests) else None
        flash(brief(str(refused.description if refused else exc)))  # (in the session cookie)
        page = render_template(
            "index.html",
            presets=preset_choices(),
            toggles=toggle_choices(),
            form=request.form,
            form_id=form_id or fresh_form_id(),
            again=finished.game.id if finished else None,
            page=url_for("pages.index", again=finished.game.id if finished else None),
        )
        if refused is not None:
            return page, 429, {"Retry-After": str(refused.retry_after)}
        return page, 422
    if how == store.Made.BEFORE:  # (sent twice at once: the other send made it)
        return _made_before(snap, token)
    if how == store.Made.TAKEN:  # (another phone's rematch came first: one game)
        flash(REMATCH_TAKEN)
        return redirect(url_for("pages.game", game_id=snap.game.id, joined=1))
    if token:
        remember_token(snap.game.id, token)
    return redirect(url_for("pages.game", game_id=snap.game.id))


def _create(
    key: str | None,
    spec: str,
    target: int | None,
    players: list[str],
    rematch: tuple[store.Snapshot, str] | None,
    count: Callable[[], None],
) -> tuple[store.Snapshot, str | None, store.Made]:
    """The game a create form asks for, once per form (``key``; None: a form sent without
    its id), and a rematch of a finished game, with the join code this browser holds for
    it (``rematch``), linked from it in the same transaction (`store.create_rematch`);
    ``count`` is called just before a game is made (`ratelimit.a_new_game`).
    Returns the game, its join token and how it came."""
    if rematch is not None:
        finished, held = rematch
        return store.create_rematch(
            finished.game, held, key, spec, target, players, before_making=count
        )
    if key is None:
        count()
        return (*store.create_game(spec, target, players), store.Made.NOW)
    return store.create_once(key, spec, target, players, before_making=count)


@bp.post("/join")
def join() -> WResponse | tuple[str, int]:
    """Typed codes instead of the QR: game code, and the join code to play (not to watch)."""
    check_form()
    game_id = store.normalise_code(request.form.get("game", ""))
    code = store.normalise_code(request.form.get("code", ""))
    typed = {"game": request.form.get("game", ""), "code": request.form.get("code", "")}
    try:
        if not game_id:
            raise store.NotFound("type the game code")
        found = store.get_game(game_id)
    except store.NotFound as missing:  # (back to the form, what was typed kept: no dead end)
        if len(game_id) == store.TOKEN_LEN and not code:  # (the join code, in the wrong box)
            typed = {"game": "", "code": store.format_token(game_id)}
            message = f"That is the join code: type the {store.ID_LEN}-character game code too"
        else:
            message = (
                f"no game {game_id[:20]}: check the game code ({store.ID_LEN} characters)"
                if game_id
                else str(missing)
            )
        return _join_form(typed, message)
    if code and not store.check_token(found, code):
        # (back to the form too, both codes kept: it had opened the game to watch, a
        # player typing one letter wrong with no way to type it again)
        typed["code"] = typed["code"][:40]
        return _join_form(
            typed,
            f"That join code is not for game {found.id}: check it, or leave it empty to watch",
        )
    return redirect(url_for("pages.game", game_id=found.id, t=code or None))


def _join_form(typed: dict[str, str], message: str) -> tuple[str, int]:
    """The home page again, what was typed in the Join form kept and `message` by it."""
    return render_template(  # (the message by the Join form, not at the page's top)
        "index.html",
        presets=preset_choices(),
        toggles=toggle_choices(),
        form=None,
        form_id=fresh_form_id(),
        joining={**typed, "error": message},
        page=url_for("pages.index"),
    ), 422


def watching() -> bool:
    """``?watch=1``: the read-only sheet even for a browser that holds the join code (the
    host's own spectator link, a screen on the wall)."""
    return request.args.get("watch") == "1"


@bp.get("/g/<game_id>")
def game(game_id: str) -> WResponse | str:
    """The scoresheet; ``?t=<token>`` (the QR link) makes this browser a player."""
    snap = store.load(game_id)
    token = request.args.get("t")
    if token is not None:
        if not store.check_token(snap.game, token):
            # (a phone that plays already keeps playing: "you are watching" over its own
            # player's sheet contradicted it)
            flash(NOT_A_JOIN_CODE_HELD if session_token(snap.game) else NOT_A_JOIN_CODE)
            return redirect(url_for("pages.game", game_id=snap.game.id))
        # (a phone that came by the invite has been invited: the sheet first, not the QR;
        # one that came after the first turn is told why it cannot add a player, once; not
        # one that played already, its tab closed, nor one come to a game that is over)
        late = snap.started and not snap.over and session_token(snap.game) is None
        remember_token(snap.game.id, token)
        joined = "late" if late else 1
        return redirect(url_for("pages.game", game_id=snap.game.id, joined=joined))
    if game_id != snap.game.id:
        # (watch=1 as typed: True would be written "watch=True", which is no ?watch=1)
        return redirect(
            url_for("pages.game", game_id=snap.game.id, watch=1 if watching() else None)
        )
    held = session_token(snap.game)
    if held is not None and next(reversed(_held_tokens()), None) != snap.game.id:
        remember_token(snap.game.id, held)  # (opened: first on the home page's list)
    token = None if watching() else held
    view = view_model(snap, watching=token is None)
    return render_template(
        "game.html",
        target=view["target"],  # (the game's, or its rule set's own when left blank)
        check_url=check_link(snap.game.rules, snap.game.id),
        snap=snap,
        token=token,
        editor=token is not None,
        watch=watching(),
        joined=request.args.get("joined") in ("1", "late"),
        # (to a phone that plays only: a spectator sent a player's link is not told it can)
        late=request.args.get("joined") == "late" and snap.started and token is not None,
        can_play=held is not None and token is None,
        urls=game_urls(snap.game.id, token),
        view=view,
        code=store.format_token(token) if token else None,
    )


@bp.get("/g/<game_id>/sheet")
def sheet(game_id: str) -> Response:
    """The live part of the game page, polled by the page's script when the version moves."""
    game = store.get_game(game_id)
    version = store.current_version(game.id)
    editor = session_token(game) is not None and not watching()
    tag = etag_for(game.id, version, store.epoch()) + ("e" if editor else "v")

    def render() -> str:
        snap = store.snapshot_at(game, version)
        undone = store.undone_last(game, snap)
        return render_template(
            "_sheet.html",
            snap=snap,
            editor=editor,
            view=view_model(snap, watching=not editor),
            undone=undone,
        )

    resp = versioned(
        tag, ("sheet", game.id, version, editor), render, cache_control="no-cache, private"
    )
    resp.vary.add("Cookie")
    return resp


@bp.get("/g/<game_id>/qr.svg")
def qr(game_id: str) -> Response:
    """The game's QR code: the join link for players, the read-only link for spectators."""
    game = store.get_game(game_id)
    token = session_token(game)
    which = request.args.get("link", "join")
    urls = game_urls(game.id, token)
    url = urls["join_url"] if which == "join" and "join_url" in urls else urls["view_url"]
    try:
        svg = chart.qr_svg(url)
    except ValueError:  # (a Host header of thousands of characters)
        abort(400, description="the game's address is too long for a QR code")
    resp = Response(svg, mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "private, no-store"
    return resp


@bp.get("/g/<game_id>/chart.svg")
def score_chart(game_id: str) -> Response:
    """Each player's score over their turns, drawn on the server."""
    snap = store.load(game_id)
    resp = Response(
        chart.score_chart(snap.state_json, list(snap.players)), mimetype="image/svg+xml"
    )
    resp.set_etag(etag_for(snap.game.id, snap.version, store.epoch()))
    resp.headers["Cache-Control"] = "no-cache"
    resp.make_conditional(request)
    return resp


@bp.get("/check")
def check() -> str:
    """Rule check without a game: pick rules, enter or photograph a roll."""
    # (a game's "Rule check" link names its preset and house rules: the picker starts there)
    return render_template(
        "check.html",
        presets=preset_choices(),
        toggles=toggle_choices(),
        form=request.args,
        back=game_back_link(request.args.get("game", "")),
    )


def game_back_link(game_id: str) -> str | None:
    """The game a "Rule check" link came from, to go back to: a phone playing from the home
    screen (standalone, no Back button) had only the home page's list of games. None for a
    game that does not exist (the link is only followed, never trusted)."""
    if not game_id:
        return None
    try:
        game = store.get_game(game_id)
    except (store.NotFound, sqlite3.Error):  # (the rule check needs no database: it works)
        return None
    return url_for("pages.game", game_id=game.id, watch=1 if watching() else None)


def check_link(rules: str, game_id: str | None = None) -> str:
    """The rule check with a game's preset and house rules chosen (`preset+toggle+...`);
    for rules given as an object, the plain rule check. With ``game_id`` (and ``?watch=1``
    as the sheet was opened), it links back to that game."""
    query: dict[str, Any] = {"game": game_id, "watch": 1 if game_id and watching() else None}
    spec = crules.preset_spec(rules)
    if spec is not None:
        query = {"preset": spec[0], "toggle": spec[1], **query}
    return url_for("pages.check", **query)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Web app manifest so the scoresheet installs to the home screen."""
    body = {
        "name": "hotdice scoresheet",
        "short_name": "hotdice",
        "start_url": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#b3261e",
        "icons": [
            {
                "src": url_for("static", filename="icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
            },
            {
                "src": url_for("static", filename="icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
            },
            {
                "src": url_for("static", filename="icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
            },
        ],
    }
    resp = current_app.response_class(
        current_app.json.dumps(body), mimetype="application/manifest+json"
    )
    return resp


INSTANT_WIN_WORDS = {
    crules.InstantWin.SIX_ONES: "six 1s in one roll",
    crules.InstantWin.SIX_OF_A_KIND_FIRST_ROLL: "six of a kind on a turn's first roll",
}
"""What wins the game at once under a rule set, for the winner screen that says so."""


def _bank_wins(snap: store.Snapshot, rules: crules.Rules) -> str:
    """What banking now does where it wins the game at once, in the engine's words; said,
    and Bank made the main button, where rolling on out of habit could only bust or risk
    it. Found by banking on a copy of the state: not a tie-break's bank that leaves another
    to play, nor one while another player's 5150 bonus roll could still pass it."""
    state = snap.state_json or {}
    turn, current = state.get("turn"), state.get("current_player")
    if not turn or not turn["can_bank"] or current is None:
        return ""
    try:
        after = cgame.apply(snap.state, {"type": "bank"})
    except ValueError:
        return ""
    if after.winner_name != current:
        return ""
    # (the rules' own words where reaching the target ends the game; a final round's or a
    # tie-break's last bank wins by passing the lead, whatever the target)
    banked = snap.state.players[snap.state.current].score + turn["total"]
    said = rules.bank_ends_game(banked, bonus_owed=False) if state["phase"] == "playing" else ""
    return said or "banking now wins the game"


def _taken_over(
    turn: dict[str, Any] | None, history: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """Where a takeover turn started: whose banked turn, its total and dice. A watching
    screen lists the turn's rolls, which without it added up to less than its total."""
    if not turn or not turn["takeover"] or not history:
        return None
    steps = turn["steps"]
    first = steps[0]["roll"] if steps else turn["roll"] if turn["awaiting"] == "keep" else None
    start = steps[0]["turn_total"] - steps[0]["points"] if steps else turn["total"]
    dice = len(first) if first else turn["dice_left"]
    return {"from": history[-1]["player"], "total": start, "dice": dice}


def _last_turn(snap: store.Snapshot) -> dict[str, Any] | None:
    """The rolled turn the game's last action ended (a bank, or a roll that busted, the
    first too), or the one before a takeover offer's answer: its rolls and keeps, and how
    it ended, for a watching screen until the next turn's first roll. The wall had shown
    the busting roll nowhere, only "bust" on the sheet."""
    ending = snap
    while ending.events and ending.events[-1].get("type") == "takeover":
        if ending.before_last is None:
            return None
        ending = ending.before_last
    before = ending.before_last
    state, earlier = ending.state_json, before.state_json if before else None
    if state is None or earlier is None or not ending.events:
        return None
    turn, last = earlier.get("turn"), ending.events[-1]  # (no turn: busted on its first roll)
    ended = len(state["history"]) == len(earlier["history"]) + 1
    if not ended or state["history"][-1]["kind"] != "dice":
        return None
    if last.get("type") not in ("roll", "bank") or (turn is None and last["type"] == "bank"):
        return None
    record = state["history"][-1]
    return {
        "player": record["player"],
        "steps": turn["steps"] if turn else [],
        "taken_over": _taken_over(turn, earlier["history"]),
        "bust": record["bust"],
        "roll": list(last.get("dice") or []),
        "lost": turn["total"] if turn else 0,
        "reason": record["reason"],
        "points": record["points"],
    }


def view_model(snap: store.Snapshot, *, watching: bool = False) -> dict[str, Any]:
    """Arrange the engine's state for the paper-like sheet: columns, rows, banners.

    Only presentation happens here (grouping history rows per player); every number comes
    from the engine's state JSON. The last turn's card is a watching screen's alone, so
    only its sheet folds the states before the last action for it.
    """
    state = snap.state_json
    players = list(snap.players)
    try:
        rules: crules.Rules | None = crules.load_rules(
            snap.game.rules, target=snap.game.target, strict=False
        )
    except ValueError:  # (rules this engine no longer reads: no state, and the sheet says why)
        rules = None
    target = rules.target if rules else snap.game.target  # (blank: the rule set's own)
    if state is None or rules is None:
        return {"players": players, "columns": [], "rows": [], "phase": "setup", "target": target}
    columns = {p["name"]: {**p, "turns": []} for p in state["players"]}
    for entry in state.get("history", []):
        col = columns.get(entry["player"])
        if col is not None:
            col["turns"].append(entry)
    ordered = [columns[p["name"]] for p in state["players"]]
    depth = max((len(c["turns"]) for c in ordered), default=0)
    rows = [[c["turns"][i] if i < len(c["turns"]) else None for c in ordered] for i in range(depth)]
    turn = state.get("turn")
    takeover = state.get("takeover")
    return {
        "bank_wins": _bank_wins(snap, rules),
        # (the least the player to act may bank: the quick entry asks nothing of less,
        # which the engine refuses with its reason)
        "least_bank": rules.least_bank(
            on_board=next(
                (
                    p["on_board"]
                    for p in state["players"]
                    if p["name"] == state.get("current_player")
                ),
                True,
            )
        ),
        "mark": (state.get("final_round") or {}).get("mark"),
        "to_pass": (state.get("final_round") or state.get("tie_break") or {}).get("to_pass", {}),
        "players": players,
        "columns": ordered,
        "rows": rows,
        "phase": state["phase"],
        "turn": turn,
        "taken_over": _taken_over(turn, state.get("history", [])),
        "last_turn": _last_turn(snap) if watching else None,
        "takeover": takeover,
        "current": state.get("current_player"),
        "final_round": state.get("final_round"),
        "tie_break": state.get("tie_break"),
        "bonus": state.get("bonus"),
        "winner": state.get("winner"),
        "history": state.get("history", []),
        "dice": rules.dice,
        "target": target,
        "strikes": rules.strike_penalty > 0,  # (busts in a row count only under a penalty)
        "exact": rules.finish is crules.Finish.EXACT,
        "instant_win": INSTANT_WIN_WORDS.get(rules.instant_win),
    }
