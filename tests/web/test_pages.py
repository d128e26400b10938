"""The HTML pages: create and join forms, CSRF, player vs spectator, the live sheet."""

from __future__ import annotations

import html
import re
import sqlite3
import subprocess
import sys
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from companion import rules as crules
from tests.web.conftest import past_the_client
from tests.web.test_chart import legend
from web import chart, create_app, store
from web.db import get_db

if TYPE_CHECKING:
    from tests.web.conftest import GameActions


def csrf(client: FlaskClient, path: str = "/") -> str:
    html = client.get(path).get_data(as_text=True)
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match
    return match.group(1)


def test_home_lists_presets_and_house_rules(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    for name in [
        "hot-dice",
        "dice-10000",
        "minnesota",
        "exact-10000",
        "zilch",
        "the-420",
        "strike-out",
    ]:
        assert name in html
    assert 'rel="manifest"' in html and 'name="viewport"' in html


def test_create_game_by_form_makes_this_browser_a_player(client: FlaskClient) -> None:
    token = csrf(client)
    resp = client.post(
        "/new",
        data={
            "csrf_token": token,
            "preset": "minnesota",
            "toggle": ["the-420", "hard-six"],
            "target": " 5,000",  # (as written on paper: the comma is read past)
            "players": "Ann\nBob\n\n",
        },
    )
    assert resp.status_code == 302
    game_url = resp.location
    html = client.get(game_url).get_data(as_text=True)
    line = re.search(r'class="rules-line">(.*?)</p>', html, re.S)
    assert line and re.sub(r"<[^>]+>", "", line[1]) == "minnesota+the-420+hard-six · to 5,000"
    assert 'id="quick"' in html and "Join code" in html and "watching" not in html
    assert '<details class="card share" open>' in html  # (the phone that made it invites)
    game_id = game_url.rsplit("/", 1)[-1]
    assert client.get(f"/api/games/{game_id}").get_json()["state"]["target"] == 5000


def form_id(client: FlaskClient, path: str = "/") -> str:
    """The id the create form is shown with (new each time it is shown)."""
    match = re.search(r'name="form_id" value="([^"]+)"', client.get(path).get_data(as_text=True))
    assert match
    return match[1]


def test_many_house_rules_fold_under_a_one_line_summary(
    client: FlaskClient, game: GameActions
) -> None:
    """Seven house rules took 8 lines, a third of a 320-px phone's first screen, on
    every game page (a review at 390 and 320 px); two still show in full."""
    game.create("hot-dice+amish+the-420+hard-six+the-5150+progressive+extra-combos")
    html = client.get(f"/g/{game.id}").get_data(as_text=True)
    fold = re.search(r'<details class="rules-fold"><summary>(.*?)</summary>(.*?)</details>', html)
    assert fold and fold[1] == "hot-dice + 6 house rules · to 10,000"
    assert "+extra-combos" in re.sub(r"<[^>]+>", "", fold[2])
    game.create("minnesota+the-420+hard-six")
    html = client.get(f"/g/{game.id}").get_data(as_text=True)
    assert "rules-fold" not in html and "+hard-six" in re.sub(r"<[^>]+>", "", html)


def test_a_create_form_sent_again_opens_the_game_it_made(client: FlaskClient, app: Flask) -> None:
    """The same form sent again (Back to it, its id kept by create.js; a double tap): one
    game, said so. Edited after Back, or shown afresh with the same names, or its game
    gone: a game of its own."""
    data = {"csrf_token": csrf(client), "preset": "farkle", "target": "", "players": "Ann\nBob"}
    first = form_id(client)
    made = client.post("/new", data={**data, "form_id": first}).location
    again = client.post("/new", data={**data, "form_id": first})
    assert again.status_code == 302 and again.location == made
    assert "already created from that form" in client.get(made).get_data(as_text=True)
    edited = client.post("/new", data={**data, "form_id": first, "players": "Ann\nBen"})
    assert edited.location != made  # (Back, a typo mended: the game it now asks for)
    second = form_id(client)
    assert second != first
    other = client.post("/new", data={**data, "form_id": second}).location
    assert other not in (made, edited.location)
    with app.app_context():  # (its game gone: deleted by hand)
        get_db().execute("DELETE FROM games WHERE id = ?", (made.rsplit("/", 1)[-1],))
        store._cache().forget(made.rsplit("/", 1)[-1])
    assert client.post("/new", data={**data, "form_id": first}).location not in (made, other)
    with app.app_context():
        assert get_db().execute("SELECT count(*) FROM forms").fetchone()[0] == 3  # (4 made, 1 gone)


def test_a_create_form_of_a_game_since_played_makes_a_new_one(
    client: FlaskClient, app: Flask
) -> None:
    """Back to the form of a game played since (its answer in the history, its winner
    screen long seen) and *Create game*: a new game, not the old one reopened. A form whose
    row outlived its game (deleted with foreign keys off) makes one too."""
    data = {"csrf_token": csrf(client), "preset": "farkle", "players": "Ann\nBob"}
    data["form_id"] = form_id(client)
    made = client.post("/new", data=data).location
    token = re.search(r'data-token="([^"]+)"', client.get(made).get_data(as_text=True))
    assert token
    played = client.post(
        f"/api/games/{made.rsplit('/', 1)[-1]}/events",
        headers={"Authorization": f"Bearer {token[1]}"},
        json={"version": 0, "event": {"type": "score", "player": "Ann", "points": 0}},
    )
    assert played.status_code == 200
    again = client.post("/new", data=data).location
    assert again != made
    assert client.post("/new", data=data).location == again  # (this one unplayed yet)
    # (a security review: the new game had the first one's join code, so a newcomer who
    # scanned only the new game's QR could write the one played)
    new_token = re.search(r'data-token="([^"]+)"', client.get(again).get_data(as_text=True))
    assert new_token and new_token[1] != token[1]
    refused = client.post(
        f"/api/games/{made.rsplit('/', 1)[-1]}/undo",
        headers={"Authorization": f"Bearer {new_token[1]}"},
        json={"version": 1},
    )
    assert refused.status_code == 403
    with sqlite3.connect(app.config["DATABASE"]) as conn:  # (foreign keys off by default)
        conn.execute("DELETE FROM games WHERE id = ?", (again.rsplit("/", 1)[-1],))
    with app.app_context():
        store._cache().forget(again.rsplit("/", 1)[-1])
    third = client.post("/new", data=data)
    assert third.status_code == 302 and third.location not in (made, again)


def test_the_file_with_the_secret_gives_no_form_made_game_its_join_code(
    client: FlaskClient, app: Flask
) -> None:
    """A security review: the ``forms`` row held the form's key, from which, under the
    secret beside the file, its game's join code was derived."""
    data = {"csrf_token": csrf(client), "preset": "farkle", "players": "Ann\nBob"}
    made = client.post("/new", data={**data, "form_id": form_id(client)}).location
    game_id = made.rsplit("/", 1)[-1]
    token = re.search(r'data-token="([^"]+)"', client.get(made).get_data(as_text=True))
    with app.app_context():
        rows = get_db().execute("SELECT key, game_id FROM forms").fetchall()
        assert [tuple(row) for row in rows] == [(rows[0][0], game_id)]
        game = store.get_game(game_id)
        assert token and store.check_token(game, token[1])
        assert not store.check_token(game, store.form_token(rows[0][0], game_id))


def test_a_create_form_whose_answer_was_lost_makes_one_game_and_a_player(
    client: FlaskClient,
) -> None:
    """A form sent again with the cookie from before its first answer (lost on the way: the
    browser's own retry, or a double tap with scripts off): the game the first send made,
    and this browser a player of it (its join code derived again)."""
    data = {"csrf_token": csrf(client), "preset": "farkle", "players": "Ann\nBob"}
    data["form_id"] = form_id(client)
    cookie = client.get_cookie("session")
    assert cookie is not None
    made = client.post("/new", data=data).location
    client.set_cookie("session", cookie.value)  # (the answer and its cookie never came)
    assert 'data-token=""' in client.get(made).get_data(as_text=True)  # (watching: no code)
    again = client.post("/new", data=data)
    assert again.location == made
    html = client.get(made).get_data(as_text=True)
    assert 'id="quick"' in html and 'data-token=""' not in html  # (a player, not watching)


def test_the_create_forms_address_opened_as_a_page_is_the_home_page(client: FlaskClient) -> None:
    """Back to the answer to a form with a mistake loads ``/new`` again as a page (with
    scripts off: see the next test)."""
    resp = client.get("/new")
    assert resp.status_code == 302 and resp.location == "/"


def test_a_form_answered_with_its_mistake_names_the_forms_own_page(
    app: Flask, client: FlaskClient
) -> None:
    """The answer to a form with a mistake names the page the form is on, which create.js
    makes its history entry's address: Back loads that again with the entry's form id, and
    the form mended and sent again opens the game it made (``/new``, the address it was
    sent to, went home: a new id, a second game)."""
    data = {"csrf_token": csrf(client), "preset": "farkle", "players": "Ann\nann"}
    wrong = client.post("/new", data=data).get_data(as_text=True)
    assert 'id="new-game" data-page="/"' in wrong
    joining = client.post("/join", data={"csrf_token": data["csrf_token"], "game": "ZZZZZZ"})
    assert joining.status_code == 422
    assert 'id="new-game" data-page="/"' in joining.get_data(as_text=True)
    assert "data-page" not in client.get("/").get_data(as_text=True)  # (its own address)


def test_a_rematch_form_answered_with_its_mistake_names_the_rematch_page(
    app: Flask, game: GameActions
) -> None:
    """As above, the form it was: the rematch of that game (Back: the same rematch form)."""
    (host,) = _won_with_rematch_form(app, game, phones=1)
    wrong = _send_rematch(host, game.id, players="Ann\nann")
    assert wrong.status_code == 422
    assert f'id="new-game" data-page="/?again={game.id}"' in wrong.get_data(as_text=True)


def test_a_target_is_typed_as_on_paper(client: FlaskClient) -> None:
    """Thousands apart by a comma or spaces (a French keyboard's no-break ones), spaces
    around, as the create form's field lets them through."""
    token = csrf(client)
    for typed in ("10000", "10,000 ", " 10 000", "10\u00a0000", "10\u202f000", "+10000"):
        data = {"csrf_token": token, "preset": "farkle", "target": typed, "players": "Ann"}
        resp = client.post("/new", data=data)
        assert resp.status_code == 302, typed
        game_id = resp.location.rsplit("/", 1)[-1]
        assert client.get(f"/api/games/{game_id}").get_json()["state"]["target"] == 10_000


def test_form_errors_are_shown_and_nothing_is_created(client: FlaskClient, app: Flask) -> None:
    token = csrf(client)
    resp = client.post(
        "/new", data={"csrf_token": token, "preset": "minnesota", "target": "12x", "players": "Ann"}
    )
    assert resp.status_code == 422 and b"whole number" in resp.data
    for target, said in (
        ("1_0000", b"whole number"),  # (int() reads it as 10,000)
        ("9" * 5000, b"the target is at most 1,000,000"),  # (past what int() reads)
        ("-" + "9" * 5000, b"the target must be a positive multiple of 50"),
        ("--5", b"whole number"),
        ("10,0000", b"such as 10000 or 10,000"),  # (a slip: had made a game to 100,000)
        ("1,00", b"such as 10000 or 10,000"),
        ("10 00", b"such as 10000 or 10,000"),
        ("10,,000", b"such as 10000 or 10,000"),
    ):
        data = {"csrf_token": token, "preset": "minnesota", "target": target, "players": "Ann"}
        resp = client.post("/new", data=data)
        assert resp.status_code == 422 and said in resp.data, target
    resp = client.post(
        "/new", data={"csrf_token": token, "preset": "minnesota", "players": "Ann\nann"}
    )
    assert resp.status_code == 422 and b"same name" in resp.data
    resp = client.post(
        "/new",
        data={"csrf_token": token, "preset": "exact-10000", "target": "500", "players": "Ann"},
    )
    assert resp.status_code == 422 and b"no one could win" in resp.data
    resp = client.post("/new", data={"csrf_token": token, "preset": "exact-10000", "target": "500"})
    assert resp.status_code == 422 and b"no one could win" in resp.data  # (players join later)
    resp = client.post("/new", data={"csrf_token": token, "preset": "x" * 50_000, "players": "A"})
    assert resp.status_code == 422 and b"characters cut" in resp.data
    # the flashed message rides in the session cookie, which a browser drops past 4 KB
    assert len(resp.headers.get("Set-Cookie", "")) < 1500
    with app.app_context():
        from web.db import get_db

        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_cross_site_form_posts_are_refused(client: FlaskClient) -> None:
    data = {"preset": "farkle", "players": "Ann"}
    assert client.post("/new", data=data).status_code == 403
    assert client.post("/new", data={**data, "csrf_token": "forged"}).status_code == 403
    token = csrf(client)
    for form in ("/new", "/join"):  # (a token that is not ASCII: compare_digest raised, a 500)
        sent = client.post(form, data={**data, "csrf_token": "\u00e9t\u00e9"})
        assert sent.status_code == 403 and b"the form has expired" in sent.data
    evil = client.post(
        "/new", data={**data, "csrf_token": token}, headers={"Origin": "http://evil.example"}
    )
    assert evil.status_code == 403 and b"cross-site" in evil.data
    for garbled in ("http://[::1", "http://a]"):  # (an Origin that does not parse)
        bad = client.post("/new", data={**data, "csrf_token": token}, headers={"Origin": garbled})
        assert bad.status_code == 403 and b"cross-site" in bad.data
    ok = client.post(
        "/new", data={**data, "csrf_token": token}, headers={"Origin": "http://localhost"}
    )
    assert ok.status_code == 302


def test_join_link_spectator_link_and_typed_codes(app: Flask, game: GameActions) -> None:
    out = game.create()
    spectator = app.test_client()
    page = spectator.get(out["view_url"]).get_data(as_text=True)
    assert "watching" in page and 'id="quick"' not in page and out["token"] not in page
    player = app.test_client()
    resp = player.get(out["join_url"])
    assert resp.status_code == 302 and "t=" not in resp.location
    page = player.get(resp.location).get_data(as_text=True)
    assert 'id="quick"' in page and f'data-token="{out["token"]}"' in page
    assert 'id="play-link"' not in page
    # a phone the invite brought opens on the sheet, the invite folded below it
    assert page.index('id="sheet"') < page.index('<details class="card share"')
    assert '<details class="card share" >' in page
    assert 'id="seating-note"' in page and 'id="late-join"' not in page
    # once play has started, a phone that comes late is told why it cannot add a player
    game.score("Ann", 300)
    late = app.test_client()
    page = late.get(out["join_url"], follow_redirects=True).get_data(as_text=True)
    assert 'id="late-join"' in page and "the players are fixed" in page
    assert 'id="add-player"' not in page
    # a phone that joined before it is not told so on every reload, nor when it opens the
    # invite again (its tab closed: it had been told it joined too late)
    assert 'id="late-join"' not in player.get(resp.location).get_data(as_text=True)
    again = player.get(out["join_url"], follow_redirects=True).get_data(as_text=True)
    assert 'id="quick"' in again and 'id="late-join"' not in again
    # nor is a spectator sent the late player's address (it cannot enter turns)
    pasted = spectator.get(f"/g/{game.id}?joined=late").get_data(as_text=True)
    assert "watching" in pasted and 'id="late-join"' not in pasted
    # the player's own spectator link shows what spectators see, and the way back to play
    view = player.get(f"/g/{game.id}?watch=1").get_data(as_text=True)
    assert "watching" in view and 'id="quick"' not in view and out["token"] not in view
    assert 'data-watch="1"' in view and f'id="play-link" href="/g/{game.id}"' in view
    assert 'id="quick"' not in player.get(f"/g/{game.id}/sheet?watch=1").get_data(as_text=True)
    assert 'id="quick"' in player.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="play-link"' not in spectator.get(f"/g/{game.id}?watch=1").get_data(as_text=True)
    wrong = app.test_client()
    page = wrong.get(f"/g/{game.id}?t=NOTVALID", follow_redirects=True).get_data(as_text=True)
    assert "not valid" in page and "watching" in page
    typed = app.test_client()
    token = csrf(typed)
    code = "-".join(out["token"][i : i + 4] for i in range(0, 12, 4)).lower()
    resp = typed.post(
        "/join",
        # (typed as read out: in two halves, with a dash or a space, the join code alike)
        data={"csrf_token": token, "game": f" {game.id[:3].lower()}-{game.id[3:]} ", "code": code},
        follow_redirects=True,
    )
    assert 'id="quick"' in resp.get_data(as_text=True)
    # a link's join code as typed is shown, to read out, as the server made it
    # ("bckr--agg-p-8j-gw" until a review)
    grouped = "-".join(out["token"][i : i + 4] for i in range(0, 12, 4))
    linked = app.test_client().get(f"/g/{game.id}?t={grouped.lower()}", follow_redirects=True)
    assert f"{grouped}<" in linked.get_data(as_text=True)
    assert f'data-token="{out["token"]}"' in linked.get_data(as_text=True)
    # the join code typed as the game code, or a code that names no game: back to the
    # form, by it what to type, and what was typed kept (the join code in its own box)
    formatted = "-".join(out["token"][i : i + 4] for i in range(0, 12, 4))
    for sent, said, kept in (
        (
            {"game": code},
            "That is the join code: type the 6-character game code too",
            ("", formatted),
        ),
        ({"game": "zzzzzz", "code": code}, "no game ZZZZZZ: check the game code", ("zzzzzz", code)),
        ({"game": " "}, "type the game code", (" ", "")),
        # (found by a review: a join code typed wrong opened the game to watch, with no
        # way to type it again)
        (
            {"game": game.id.lower(), "code": "aaaa-bbbb-cccc"},
            f"That join code is not for game {game.id}: check it, or leave it empty to watch",
            (game.id.lower(), "aaaa-bbbb-cccc"),
        ),
    ):
        resp = typed.post("/join", data={"csrf_token": token, **sent})
        page = resp.get_data(as_text=True)
        assert resp.status_code == 422 and f'id="join-error">{said}' in page
        game_box, code_box = re.findall(r'name="(?:game|code)"[^>]*value="([^"]*)"', page)
        assert (game_box, code_box) == kept
    # a code far too long to be one is not carried into a link of 400 KB: it is refused
    long = typed.post("/join", data={"csrf_token": token, "game": game.id, "code": "A" * 400_000})
    assert long.status_code == 422
    assert "That join code is not for game" in long.get_data(as_text=True)
    # a wrong code in a link, opened by a phone that plays already: it still plays
    page = typed.get(f"/g/{game.id}?t=NOTVALID", follow_redirects=True).get_data(as_text=True)
    assert "this phone plays with the one it already had" in page and 'id="quick"' in page
    # nor is a phone that comes to a game already won ("enter everyone's turns": none left)
    won = game.create("ten-thousand", ["Ann", "Bob"], target=1000)
    game.score("Ann", 1000)
    game.score("Bob", 0)
    page = app.test_client().get(won["join_url"], follow_redirects=True).get_data(as_text=True)
    assert "Ann wins" in page and 'id="late-join"' not in page


def test_sheet_fragment_etag_and_content(
    app: Flask, client: FlaskClient, game: GameActions
) -> None:
    game.create("zilch", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    first = client.get(f"/g/{game.id}/sheet")
    assert first.status_code == 200 and b'data-version="0"' in first.data
    tag = first.headers["ETag"]
    assert client.get(f"/g/{game.id}/sheet", headers={"If-None-Match": tag}).status_code == 304
    game.score("Ann", 0)
    game.score("Bob", 350)
    game.event({"type": "roll", "dice": [1, 1, 5, 2, 3, 4]})
    html = client.get(f"/g/{game.id}/sheet", headers={"If-None-Match": tag}).get_data(as_text=True)
    assert 'data-version="3"' in html and "bust" in html and "+350" in html
    assert "Tap what to keep" in html and '"dice": [1, 1, 5]' in html
    spectator = app.test_client().get(f"/g/{game.id}/sheet")
    assert spectator.headers["ETag"] != first.headers["ETag"]
    game.event({"type": "keep", "dice": [1, 1, 5]})
    game.event({"type": "roll", "dice": [1, 5, 6]})
    game.event({"type": "keep", "dice": [1, 5]})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "· 1 die left" in html  # (not "1 dice")
    assert b"Tap what to keep" not in spectator.data
    # the photo shows under the pad's Roll and Bank buttons (above them, once read, it had
    # pushed Roll below a phone's screen)
    assert html.index('data-pad="go"') < html.index('class="photo-preview"')
    assert html.index('data-event=\'{"type": "bank"}\'') < html.index('class="photo-preview"')


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ("exact-10000", "Banking hits exactly 3,000 and wins the game, and a roll can only bust."),
        ("dice-10000", "Banking reaches 3,000 and wins the game."),
    ],
)
def test_a_bank_that_wins_is_said_and_bank_is_the_main_button(
    client: FlaskClient, game: GameActions, rules: str, said: str
) -> None:
    """A play-test: under an exact finish a player at 2,500 kept 500 and the sheet showed Roll
    as its main button beside Bank, with no word that banking wins and a roll can only
    bust (which `hotdice turn` says); rolled on out of habit, the turn busted."""
    game.create(rules, ["Ann", "Bob"], target=3000)
    client.get(f"/g/{game.id}?t={game.token}")
    dice = crules.load_rules(rules).dice
    game.score("Ann", 2400)
    game.score("Bob", 0)
    game.event({"type": "roll", "dice": [1, 2, 2, 3, 4, 6][:dice]})
    game.event({"type": "keep", "dice": [1]})  # (2,500 banked: not the game)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="bank-wins"' not in html and "Bank 100</button>" in html
    assert 'class="btn primary" data-pad="go"' in html
    game.event({"type": "roll", "dice": [5, 5, 5, 2, 3][: dice - 1]})
    game.event({"type": "keep", "dice": [5, 5, 5]})  # (2,400 and 600: the target)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    note = re.search(r'<p class="phase-note" id="bank-wins">(.*?)</p>', html)
    assert note and note[1] == said
    assert 'aria-describedby="bank-wins">Bank 600 · wins</button>' in html
    assert 'class="btn " data-pad="go" aria-describedby="bank-wins"' in html  # (not red)


def test_a_bank_past_the_target_that_wins_nothing_yet_is_not_said_to_win(
    client: FlaskClient, game: GameActions
) -> None:
    """A review: under first-to-target with the 5150, a tie-break's bank (at or past the
    target, as every one is) and a bank while another player's bonus roll is owed were
    both said to win the game, "Bank 100 · wins"; neither ends it. The sheet now banks on
    a copy of the state and says so only where that wins: a final round's last bank too,
    which the rules' words for reaching the target had left unsaid."""

    def note() -> str | None:
        html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        found = re.search(r'id="bank-wins">(.*?)</p>', html)
        assert ("· wins</button>" in html) == bool(found)
        return found[1] if found else None

    game.create("dice-10000+the-5150", ["Ann", "Bob"], target=5200)
    client.get(f"/g/{game.id}?t={game.token}")
    game.score("Ann", 1000)
    game.score("Bob", 5150)
    game.score("Ann", 4200)  # (Ann at the target: Bob's bonus roll)
    game.score("Bob", 50)  # (5,200 each: a tie-break)
    assert game.state["phase"] == "tie_break"
    game.event({"type": "roll", "dice": [1, 2, 3, 4, 6]})
    game.event({"type": "keep", "dice": [1]})
    assert note() is None
    game.create("dice-10000+the-5150", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    for player, points in (("Ann", 9000), ("Bob", 5150), ("Ann", 0), ("Bob", 4650)):
        game.score(player, points)  # (Bob through 5150 to 9,800: his bonus roll owed)
    game.event({"type": "roll", "dice": [1, 1, 1, 4, 6]})
    game.event({"type": "keep", "dice": [1, 1, 1]})  # (Ann's bank would reach 10,000)
    assert note() is None
    game.event({"type": "bank"})
    assert game.state["winner"] is None and game.state["current_player"] == "Bob"
    game.create("dice-10000+the-5150", ["Ann", "Bob"])  # (none owed: it wins, said plainly)
    client.get(f"/g/{game.id}?t={game.token}")
    game.score("Ann", 9000)
    game.score("Bob", 0)
    game.event({"type": "roll", "dice": [1, 1, 1, 4, 6]})
    game.event({"type": "keep", "dice": [1, 1, 1]})
    assert note() == "Banking reaches 10,000 and wins the game."
    # a final round's last bank wins by passing the lead: said so, whatever the target
    game.create("farkle", ["Ann", "Bob"], target=2000)
    client.get(f"/g/{game.id}?t={game.token}")
    for player, points in (("Ann", 1000), ("Bob", 1000), ("Ann", 1000)):
        game.score(player, points)
    assert game.state["phase"] == "final_round" and game.state["current_player"] == "Bob"
    game.event({"type": "roll", "dice": [1, 2, 3, 4, 5, 6]})
    game.event({"type": "keep", "dice": [1, 2, 3, 4, 5, 6]})  # (2,500: past Ann's 2,000)
    assert note() == "Banking now wins the game."


def test_the_controls_say_whose_turn_its_total_and_hot_dice(
    client: FlaskClient, game: GameActions
) -> None:
    """Mid-turn the sheet's own turn line is scrolled away above the pad (a review found a
    phone passed round the table showing only "Tap the 6 dice..." and "Bank 1,500"): the
    controls say it again, hot dice too; a spectator has no controls, and before the first
    roll the quick entry's heading names the player."""
    game.create("farkle", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="turn-now"' not in html and "Quick entry for Ann" in html
    game.event({"type": "roll", "dice": [1, 2, 3, 4, 5, 6]})
    game.event({"type": "keep", "dice": [1, 2, 3, 4, 5, 6]})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    controls = html[html.index('id="controls"') :]
    line = re.sub(r"<[^>]+>|\s+", " ", controls[: controls.index("</p>")])
    assert (
        re.sub(r" +", " ", line)
        .strip()
        .endswith("Ann · turn total 1,500 · 6 dice left · hot dice!")
    )
    game.event({"type": "roll", "dice": [1, 2, 2, 3, 4, 6]})
    game.event({"type": "keep", "dice": [1]})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert html.count("· turn total <b>1,600</b> · 5 dice left</p>") == 2  # (and the sheet's)
    spectator = client.application.test_client().get(f"/g/{game.id}/sheet")
    assert b'id="turn-now"' not in spectator.data


def _turn_so_far(sheet: str, card_id: str = "turn-so-far") -> list[str]:
    """The watching screen's lines of the turn so far (or of another card of rolls), dice
    as their values, tags dropped."""
    if f'id="{card_id}"' not in sheet:
        return []
    start = sheet.index(f'id="{card_id}"')
    card = sheet[start : sheet.index("</ol>", start)]
    lines = re.findall(r"<li[^>]*>(.*?)</li>", card, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", li)).split()) for li in lines]


def test_a_watching_screen_shows_the_turns_rolls_and_keeps(
    client: FlaskClient, game: GameActions
) -> None:
    """A spectator has no pad where the roll shows: a review found a wall screen saying
    only "Ann's turn · turn total 0" while the table waited on Ann's keep. It shows the
    roll being chosen from and each keep so far; a player's phone shows them in its pad."""
    game.create("farkle", ["Ann", "Bob"])
    watcher = client.application.test_client()
    client.get(f"/g/{game.id}?t={game.token}")

    def sheets() -> tuple[list[str], str]:
        seen = watcher.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        return _turn_so_far(seen), client.get(f"/g/{game.id}/sheet").get_data(as_text=True)

    assert sheets()[0] == []  # (before the first roll: nothing to show)
    game.event({"type": "roll", "dice": [1, 1, 5, 2, 3, 4]})
    lines, player = sheets()
    assert lines == ["Rolled 1 1 5 2 3 4 · choosing what to keep"]
    assert 'id="turn-so-far"' not in player and 'id="controls"' in player
    game.event({"type": "keep", "dice": [1, 1, 5]})
    game.event({"type": "roll", "dice": [1, 2, 3]})
    assert sheets()[0] == [
        "Rolled 1 1 5 2 3 4 · kept 1 1 5 +250",
        "Rolled 1 2 3 · choosing what to keep",
    ]
    game.event({"type": "keep", "dice": [1]})
    assert sheets()[0] == ["Rolled 1 1 5 2 3 4 · kept 1 1 5 +250", "Rolled 1 2 3 · kept 1 +100"]
    game.event({"type": "bank"})
    assert sheets()[0] == []  # (Bob's turn: nothing rolled yet)


def test_dice_are_said_as_their_numbers_not_as_pictures(
    client: FlaskClient, game: GameActions
) -> None:
    """A screen reader had heard each die as "image 5": the pictures are hidden from it,
    and a roll is said as its numbers."""
    game.create("farkle", ["Ann", "Bob"])
    game.event({"type": "roll", "dice": [1, 1, 5, 2, 3, 4]})
    sheet = client.application.test_client().get(f"/g/{game.id}/sheet").get_data(as_text=True)
    pictures = re.findall(r'<svg class="die[^>]*>', sheet)
    assert len(pictures) == 6 and all('aria-hidden="true"' in p for p in pictures)
    assert 'role="img"' not in "".join(pictures)
    assert '<span class="dice"><span class="sr">1 1 5 2 3 4</span><svg' in sheet


def test_a_watching_screen_shows_the_turn_just_ended_until_the_next_ones_first_roll(
    client: FlaskClient, game: GameActions
) -> None:
    """A review's wall showed the roll that busted nowhere (only "bust" on the sheet): the
    turn just ended stays, its rolls and how it ended, until the next player rolls. A
    quick entry has no rolls to show, and a player's phone has its own messages."""
    game.create("farkle", ["Ann", "Bob"])
    watcher = client.application.test_client()
    client.get(f"/g/{game.id}?t={game.token}")

    def last_turn() -> list[str]:
        return _turn_so_far(watcher.get(f"/g/{game.id}/sheet").get_data(as_text=True), "last-turn")

    game.event({"type": "roll", "dice": [1, 1, 5, 2, 3, 4]})
    game.event({"type": "keep", "dice": [1, 1, 5]})
    game.event({"type": "bank"})
    assert last_turn() == ["Rolled 1 1 5 2 3 4 · kept 1 1 5 +250", "Banked +250"]
    assert 'id="last-turn"' not in client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    game.event({"type": "roll", "dice": [5, 2, 3, 4, 6, 6]})
    assert last_turn() == []  # (Bob's turn under way: its own card)
    game.event({"type": "keep", "dice": [5]})
    game.event({"type": "roll", "dice": [2, 2, 3, 4, 6]})  # (a bust ends the turn)
    assert last_turn() == [
        "Rolled 5 2 3 4 6 6 · kept 5 +50",
        "Rolled 2 2 3 4 6 · bust : the turn's 50 lost",
    ]
    game.undo()  # (the bust taken back: Bob chooses again, his turn's card shows)
    assert last_turn() == []
    game.event({"type": "roll", "dice": [2, 2, 3, 4, 6]})
    game.score("Ann", 300)
    assert last_turn() == []  # (a quick entry: no rolls)
    game.event({"type": "roll", "dice": [2, 2, 3, 3, 4, 6]})  # (a bust on the first roll)
    assert last_turn() == ["Rolled 2 2 3 3 4 6 · bust"]


def test_the_last_turn_stays_on_the_wall_while_its_takeover_is_answered(
    client: FlaskClient, game: GameActions
) -> None:
    """A takeover offer's answer is no turn: the turn banked stays shown until the next
    player's first roll (a review's wall lost it at the answer). An exact finish's bust on
    the first roll says why."""
    game.create("farkle+amish", ["Bob", "Ann"])
    game.score("Bob", 200)
    game.event({"type": "roll", "dice": [5, 2, 2, 3, 4, 6]})
    game.event({"type": "keep", "dice": [5]})
    game.event({"type": "bank"})
    watcher = client.application.test_client()
    banked = ["Rolled 5 2 2 3 4 6 · kept 5 +50", "Banked +50"]

    def last_turn() -> list[str]:
        return _turn_so_far(watcher.get(f"/g/{game.id}/sheet").get_data(as_text=True), "last-turn")

    assert last_turn() == banked
    for accept in (False, True):
        game.event({"type": "takeover", "accept": accept})
        assert last_turn() == banked
        game.undo()
    game.event({"type": "takeover", "accept": True})
    game.event({"type": "roll", "dice": [2, 2, 3, 3, 6]})
    assert last_turn() == [
        "Took over Ann's 50 with 5 dice",
        "Rolled 2 2 3 3 6 · bust : the turn's 50 lost",
    ]
    game.create("exact-10000", ["Ann", "Bob"])
    game.score("Ann", 9900)
    game.score("Bob", 1000)
    game.event({"type": "roll", "dice": [1, 5, 2, 2, 3, 6]})
    reason = game.state["history"][-1]["reason"]
    assert "would pass 10,000" in reason
    assert last_turn() == [f"Rolled 1 5 2 2 3 6 · bust ({unescape(reason)})"]


def test_a_5150_bonus_roll_is_no_last_turn_on_the_wall(
    client: FlaskClient, game: GameActions
) -> None:
    """The bonus roll is one roll of all dice, said by the sheet's own row: no turn's card."""
    game.create("dice-10000+the-5150", ["Ann", "Bob"], target=5200)
    for player, points in (("Ann", 1000), ("Bob", 5150), ("Ann", 4200)):
        game.score(player, points)  # (Ann at the target: Bob's bonus roll owed)
    game.event({"type": "roll", "dice": [5, 2, 3, 4, 6]})  # (dice-10000: five dice)
    assert game.state["history"][-1]["kind"] == "bonus" and game.state["phase"] == "tie_break"
    watcher = client.application.test_client()
    assert 'id="last-turn"' not in watcher.get(f"/g/{game.id}/sheet").get_data(as_text=True)


def test_a_takeover_turn_lists_the_points_it_took_over(
    client: FlaskClient, game: GameActions
) -> None:
    """A review's wall listed "+500" and "+150" under a turn total of 700: the 50 and the
    dice taken over head the list."""
    game.create("farkle+amish", ["Bob", "Ann"])
    game.score("Bob", 200)
    game.event({"type": "roll", "dice": [5, 2, 2, 3, 4, 6]})
    game.event({"type": "keep", "dice": [5]})
    game.event({"type": "bank"})
    game.event({"type": "takeover", "accept": True})
    game.event({"type": "roll", "dice": [5, 5, 5, 2, 3]})
    game.event({"type": "keep", "dice": [5, 5, 5]})
    watcher = client.application.test_client()
    sheet = watcher.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    taken, kept = "Took over Ann's 50 with 5 dice", "Rolled 5 5 5 2 3 · kept 5 5 5 +500"
    assert _turn_so_far(sheet) == [taken, kept]
    game.event({"type": "roll", "dice": [2, 3]})  # (a bust: the takeover's turn just ended)
    sheet = watcher.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    busted = "Rolled 2 3 · bust : the turn's 550 lost"
    assert _turn_so_far(sheet, "last-turn") == [taken, kept, busted]


def test_the_web_package_loads_no_opencv_and_shares_visions_pixel_limit(tmp_path: Path) -> None:
    """An app that reads no photo never loads OpenCV (`photos._vision` imports it on the
    first photo, and a server without it answers that photo 503): importing the limit
    from vision had loaded it with every app (a review). The number written out in
    `web` is vision's."""
    import vision
    import web

    made = {"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "test"}
    code = f"import sys, web; web.create_app({made!r}); print('cv2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "False", out.stderr
    assert web.MAX_PIXELS == vision.MAX_PIXELS


def test_banners_for_final_round_tie_break_and_winner(
    app: Flask, client: FlaskClient, game: GameActions
) -> None:
    out = game.create("ten-thousand", ["Ann", "Bob", "Cid"], target=1000)
    game.score("Ann", 1000)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "Final round" in html
    assert "<b>Bob</b> (1,050 to pass), <b>Cid</b> (1,050 to pass)</p>" in html
    player = app.test_client()
    player.get(out["join_url"])
    html = player.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="phase-note">Final round: Bob needs 1,050 to pass</p>' in html  # (by the pad)
    game.score("Bob", 1000)
    game.score("Cid", 0)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "Tie-break" in html and "Ann vs Bob" in html
    assert 'id="phase-note">Tie-break turn</p>' in player.get(f"/g/{game.id}/sheet").get_data(
        as_text=True
    )  # (level: no mark set yet, so no sum to pass)
    game.score("Ann", 100)  # Ann sets the mark: Bob needs 150 to pass it (Cid is out)
    html = " ".join(client.get(f"/g/{game.id}/sheet").get_data(as_text=True).split())
    assert "Ann vs Bob</b> · still to play: Bob (150 to pass)</p>" in html
    assert 'id="phase-note">Tie-break turn: Bob needs 150 to pass</p>' in player.get(
        f"/g/{game.id}/sheet"
    ).get_data(as_text=True)
    game.score("Bob", 0)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="winner"' in html and "Ann wins" in html
    # the turns are marked as on paper: Bob's and Cid's in the final round, the tie-break's
    phases = [h["phase"] for h in game.state["history"]]
    assert phases == ["playing", "final_round", "final_round", "tie_break", "tie_break"]
    assert "Bob: +1,000 (final round) → 1,000" in html and "Bob: bust (tie-break)" in html
    assert html.count('<span class="tag">tie-break</span>') == 2
    assert 'id="new-game"' not in html  # (a spectator starts no game for the table)
    html = player.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="new-game" href="/"' in html  # the table plays again from the winner screen


def test_the_rule_check_link_starts_from_the_games_rules(
    client: FlaskClient, game: GameActions
) -> None:
    game.create("zilch+threshold+strike-out", ["Ann", "Bob"])
    page = client.get(f"/g/{game.id}").get_data(as_text=True)
    link = re.search(r'id="check-link" href="([^"]+)"', page)
    assert link and link.group(1) == (
        f"/check?preset=zilch&amp;toggle=threshold&amp;toggle=strike-out&amp;game={game.id}"
    )
    check = client.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)
    chosen = re.findall(r'<option value="([^"]+)"[^>]*\bselected>', check)
    ticked = re.findall(r'value="([^"]+)"\s+checked>', check)
    assert chosen == ["zilch"] and ticked == ["threshold", "strike-out"]
    assert '<details class="toggles-fold" open>' in check  # the chosen house rules in view
    # and a way back to the sheet (a home-screen app has no Back button)
    assert f'id="back-to-game" href="/g/{game.id}"' in check
    game.create("farkle", ["Ann", "Bob"])
    page = client.get(f"/g/{game.id}?watch=1").get_data(as_text=True)
    assert f'id="check-link" href="/check?preset=farkle&amp;game={game.id}&amp;watch=1"' in page
    check = client.get(f"/check?preset=farkle&game={game.id}&watch=1").get_data(as_text=True)
    assert f'id="back-to-game" href="/g/{game.id}?watch=1"' in check  # (read-only, as it was)
    game.create("farkle + greed", ["Ann", "Bob"])  # (spaces, as the rules engine reads them)
    page = client.get(f"/g/{game.id}").get_data(as_text=True)
    href = f"/check?preset=farkle&amp;toggle=greed&amp;game={game.id}"
    assert f'id="check-link" href="{href}"' in page
    for unknown in ("NOSUCH", "", "x" * 500):  # (no game there: no link, and no error)
        answer = client.get("/check", query_string={"game": unknown})
        assert answer.status_code == 200 and b"back-to-game" not in answer.data


def test_the_chart_axis_reads_in_round_steps() -> None:
    history = [{"player": "Ann", "score": 10_650}, {"player": "Bob", "score": 7_988}]
    svg = chart.score_chart({"history": history, "target": 10_000}, ["Ann", "Bob"])
    labels = re.findall(r'text-anchor="end">([\d,]+)</text>', svg)
    assert labels == ["0", "2,500", "5,000", "7,500", "10,000", "12,500"]
    for highest, step in ((1, 1), (999, 200), (1_050, 250), (10_000, 2_000), (10**6, 2 * 10**5)):
        assert chart.axis_step(highest) == step
        assert 5 * step >= highest


def test_badge_needs_and_takeover_offer(client: FlaskClient, game: GameActions) -> None:
    game.create("minnesota", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "needs 1,000" in html
    game.score("Ann", 1000)
    game.score("Bob", 1000)
    game.event({"type": "roll", "dice": [1, 5, 2, 3, 3]})
    game.event({"type": "keep", "dice": [1, 5]})
    game.event({"type": "bank"})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "needs 1,000" not in html
    assert "Bob</b> may take Ann's 3 dice and 150" in html
    assert '"accept": true' in html
    # the offer is answered first: a quick entry or a roll beside it would start fresh unasked
    assert 'id="controls"' not in html and 'id="quick"' not in html
    game.event({"type": "takeover", "accept": False})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="quick"' in html and "may take" not in html


def _offer_of_1000_to_bob(client: FlaskClient, game: GameActions, bob: int) -> str:
    """An exact-10000 game where Ann banks 1,000 (three 1s) and Bob, at `bob`, may take it
    over: the sheet Bob's phone shows."""
    game.create("exact-10000", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    game.score("Ann", 1000)
    game.score("Bob", bob)
    game.event({"type": "roll", "dice": [1, 1, 1, 2, 3, 4]})
    game.event({"type": "keep", "dice": [1, 1, 1]})
    game.event({"type": "bank"})
    assert game.state["takeover"]["past_target"] is True
    return str(client.get(f"/g/{game.id}/sheet").get_data(as_text=True))


def test_a_takeover_past_the_exact_target_is_marked(client: FlaskClient, game: GameActions) -> None:
    html = _offer_of_1000_to_bob(client, game, 9500)
    assert (
        "That would carry Bob past 10,000: it could never be banked, and every roll would bust."
        in html
    )
    assert 'class="btn primary" data-event=\'{"type": "takeover", "accept": false}\'' in html
    game.event({"type": "takeover", "accept": False})
    game.score("Bob", 0)
    game.event({"type": "roll", "dice": [1, 5, 2, 3, 4, 6]})
    game.event({"type": "keep", "dice": [1, 5]})
    game.event({"type": "bank"})  # Bob at 9,500 may take 150: no mark
    assert game.state["takeover"]["past_target"] is False
    assert "takeover-past" not in client.get(f"/g/{game.id}/sheet").get_data(as_text=True)


def test_a_takeover_to_the_exact_target_is_marked_too(
    client: FlaskClient, game: GameActions
) -> None:
    # (found by a review: a taker must roll and keep before banking, and at 10,000 exactly
    # every keep passes it, so this offer too can only bust)
    html = _offer_of_1000_to_bob(client, game, 9000)
    assert (
        "That would bring Bob to exactly 10,000, but a takeover must roll and keep before "
        "banking, and every keep would pass it: every roll would bust." in html
    )
    assert 'class="btn primary" data-event=\'{"type": "takeover", "accept": false}\'' in html
    game.event({"type": "takeover", "accept": True})
    game.event({"type": "roll", "dice": [1, 4, 6]})  # (a 1 would pass: the turn busts)
    assert game.state["history"][-1]["bust"] is True


def test_qr_chart_manifest_and_check(client: FlaskClient, game: GameActions) -> None:
    game.create()
    svg = client.get(f"/g/{game.id}/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.data.startswith(b"<svg")
    # a Host of 3,000 characters makes a link past a QR code's largest (version 40): a 400
    far = ".".join(["a" * 60] * 50)
    too_long = client.get(
        f"/g/{game.id}/qr.svg", headers={"Host": far, "Accept": "application/json"}
    )
    assert too_long.status_code == 400
    assert too_long.get_json() == {"error": "the game's address is too long for a QR code"}
    game.score("Ann", 500)
    chart = client.get(f"/g/{game.id}/chart.svg")
    assert chart.status_code == 200 and b"<polyline" in chart.data
    assert ("Ann", "500") in legend(chart.get_data(as_text=True))
    # a game no one has joined yet (or every join taken back): the axes alone, not a 500
    empty = client.post("/api/games", json={"rules": "farkle"}).get_json()["id"]
    bare = client.get(f"/g/{empty}/chart.svg")
    assert bare.status_code == 200 and b"<svg" in bare.data and b"<polyline" not in bare.data
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    icons = manifest.get_json()["icons"]
    for icon in icons:
        resp = client.get(icon["src"])
        assert resp.status_code == 200
        resp.close()
    assert b"What does this roll score?" in client.get("/check").data


def test_static_files_and_cli_command(client: FlaskClient, runner: FlaskCliRunner) -> None:
    for name in ["style.css", "game.js", "swap.js", "dice.js", "coach.js", "check.js", "rules.js"]:
        resp = client.get(f"/static/{name}")
        assert resp.status_code == 200
        resp.close()
    result = runner.invoke(args=["init-db"])
    assert "Initialized" in result.output


def test_security_headers(client: FlaskClient) -> None:
    resp = client.get("/")
    assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["X-Frame-Options"] == "DENY"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_a_browser_keeps_the_join_tokens_of_its_latest_games(app: Flask) -> None:
    from web.pages import REMEMBERED_GAMES

    browser, api = app.test_client(), app.test_client()
    games = []
    for n in range(REMEMBERED_GAMES + 10):  # (made by many phones: one makes 30 a minute)
        made = api.post(
            "/api/games",
            json={"rules": "farkle", "players": ["Ann", "Bob"]},
            environ_base={"REMOTE_ADDR": f"10.0.0.{n}"},
        )
        games.append(made.get_json())
        assert browser.get(games[-1]["join_url"]).status_code == 302
    cookie = browser.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 2500  # browsers drop one past 4 KB

    def playing(game: dict) -> bool:
        return 'id="quick"' in browser.get(f"/g/{game['id']}").get_data(as_text=True)

    assert all(playing(g) for g in games[-REMEMBERED_GAMES:])
    assert not playing(games[0])  # the oldest is forgotten: its link or code joins again
    browser.get(games[0]["join_url"])
    assert playing(games[0]) and not playing(games[10])  # rejoined: now the newest


@pytest.mark.parametrize("held", [["a", "b"], "text", {"x": 3}, 7])
def test_a_session_holding_tokens_in_another_shape_plays_no_game(app: Flask, held: object) -> None:
    # (a signed cookie another layout wrote: the page treats it as holding none, no 500)
    made = app.test_client().post("/api/games", json={"rules": "farkle", "players": ["Ann", "Bob"]})
    game = made.get_json()
    browser = app.test_client()
    with browser.session_transaction() as sess:
        sess["tokens"] = held
    page = browser.get(f"/g/{game['id']}")
    assert page.status_code == 200 and 'id="quick"' not in page.get_data(as_text=True)
    assert browser.get(game["join_url"]).status_code == 302  # joining mends the cookie
    assert 'id="quick"' in browser.get(f"/g/{game['id']}").get_data(as_text=True)


def test_the_sheet_says_what_the_rules_did_where_no_button_would(
    client: FlaskClient, game: GameActions
) -> None:
    # a walkthrough at a table: the 420's free roll, a refused bank, a one-die takeover,
    # the 5150 bonus roll and an Undo with nothing left to undo all looked like nothing
    game.create("minnesota+the-420+the-5150", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")

    def sheet() -> str:
        return client.get(f"/g/{game.id}/sheet").get_data(as_text=True)

    def undo_label() -> str:  # (as the phone shows it: the page escapes the apostrophe)
        label = re.search(r"↶</span> Undo ([^<]*)</button>", sheet())
        return unescape(label.group(1)) if label else ""

    assert 'id="undo"' not in sheet()
    game.score("Ann", 1000)
    game.undo()
    assert game.version == 2 and 'id="undo"' not in sheet()  # nothing left to undo
    game.score("Ann", 1000)
    assert undo_label() == "Ann's 1,000"  # (what it takes back, named)
    game.score("Bob", 1000)
    game.event({"type": "roll", "dice": [3, 3, 3, 2, 4]})
    # the button names what the Undo then says it took back
    assert undo_label() == "Ann's roll of 3 3 3 2 4"
    assert 'data-undone="' not in sheet()
    assert game.undo().get_json()["undone"] == "Ann's roll of 3 3 3 2 4"
    # every phone's sheet says what the latest Undo took back, for the others to say it
    assert 'data-undone="Ann&#39;s roll of 3 3 3 2 4"' in sheet()
    game.event({"type": "roll", "dice": [3, 3, 3, 2, 4]})
    game.event({"type": "keep", "dice": [3, 3, 3]})
    game.event({"type": "roll", "dice": [1, 6]})
    game.event({"type": "keep", "dice": [1]})
    html = sheet()
    assert "Roll 1 die<" in html and "Roll 1 dice" not in html
    assert 'id="turn-note"' not in html
    game.event({"type": "roll", "dice": [2]})  # 400 with one die: the 420
    html = sheet()
    assert "Ann rolled 2, which scores nothing, but the 420: roll the 2 again." in html
    assert (
        '<p class="phase-note" id="pad-note">The 420: roll the 2 again.</p>' in html
    )  # (by the pad)
    game.event({"type": "roll", "dice": [5]})  # the free roll scores: the note has done
    assert 'id="turn-note"' not in sheet()
    # a one-die takeover, which must roll before it may bank
    game.create("minnesota", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    game.score("Ann", 1000)
    game.score("Bob", 1000)
    for dice, keep in (([1, 5, 5, 2, 3], [1, 5, 5]), ([1, 4], [1])):
        game.event({"type": "roll", "dice": dice})
        game.event({"type": "keep", "dice": keep})
    game.event({"type": "bank"})
    assert "Bob</b> may take Ann's 1 die and 300" in sheet()
    game.event({"type": "takeover", "accept": True})
    assert "No bank yet: roll and keep at least once before banking." in sheet()
    # the 5150 bonus roll is marked as one, in the column and the history
    game.create("minnesota+the-5150", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    game.score("Ann", 5150)
    game.score("Bob", 10000)
    game.score("Ann", 0)
    assert "<h2>Ann's 5150 bonus roll</h2>" in sheet()  # (not "Quick entry": it is the bonus)
    game.event({"type": "roll", "dice": [1, 1, 1, 1, 1]})
    html = sheet()
    assert "(5150 bonus roll)" in html and ">5150 bonus roll</span>" in html
    assert undo_label() == "Ann's 5150 bonus roll"  # (not "Ann's bust")


def test_a_bank_under_the_minimum_is_refused_in_words(
    client: FlaskClient, game: GameActions
) -> None:
    game.create("zilch", ["Ann", "Bob"])
    client.get(f"/g/{game.id}?t={game.token}")
    game.event({"type": "roll", "dice": [1, 5, 2, 3, 4, 4]})
    game.event({"type": "keep", "dice": [1, 5]})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'data-event=\'{"type": "bank"}\'' not in html
    assert "No bank yet: a bank needs at least 300, has 150." in html


def test_busts_in_a_row_are_marked_only_where_they_cost(
    client: FlaskClient, game: GameActions
) -> None:
    for rules, marked in (("zilch", True), ("farkle", False)):
        game.create(rules, ["Ann", "Bob"])
        for player in ("Ann", "Bob", "Ann"):
            game.score(player, 0)
        html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        assert ('aria-label="busts in a row: 2"' in html) is marked, rules
        game.score("Bob", 0)
        game.score("Ann", 0)  # Ann's third: struck, from 0 (zilch), so nothing is taken
        html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        said = "Ann: bust (strike-out penalty: nothing to take from 0) → 0" in html
        assert (
            said is marked
            and ('title="the strike-out penalty, from a score of 0"' in html) is marked
        )


def test_a_roll_for_first_player_is_finished_first_and_then_shows_its_seating(
    client: FlaskClient, game: GameActions
) -> None:
    """While a roll-off is tied, no turn is offered: a quick entry there would start the
    game as seated and drop the roll-off unasked. Undo takes the tie back. Once decided,
    the form gives way to the seating: left open, and sent again, it reseated the table."""
    game.create("farkle", ["Uma", "Vic", "Wes"])
    client.get(f"/g/{game.id}?t={game.token}")
    assert 'id="quick"' in client.get(f"/g/{game.id}/sheet").get_data(as_text=True)

    def roll_first(rolls: dict[str, int]) -> tuple[dict[str, Any], str]:
        resp = game.first(rolls)
        return resp.get_json(), client.get(f"/g/{game.id}/sheet").get_data(as_text=True)

    tie, html = roll_first({"Uma": 4, "Vic": 4, "Wes": 1})
    assert tie["roll_again"] == ["Uma", "Vic"]
    assert "Tie: Uma and Vic roll again." in html and "take the tie back (Undo)" in html
    assert 'id="quick"' not in html and 'id="turn-line"' not in html and "data-undo" in html
    assert 'id="to-turn"' not in html  # (no turn to jump to while the tie stands)
    game.undo()
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="quick"' in html and "<b>Uma</b>'s turn" in html and 'id="first"' in html
    assert 'Enter Uma\'s turn <span aria-hidden="true">↓</span>' in html
    _, html = roll_first({"Uma": 2, "Vic": 6, "Wes": 3})
    assert 'id="first"' not in html and "<b>Vic</b> rolled highest and starts" in html
    assert 'Enter Vic\'s turn <span aria-hidden="true">↓</span>' in html
    assert "Vic → Wes → Uma" in html and "<b>Vic</b>'s turn" in html
    game.undo()  # taken back: the form again
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'id="first"' in html and 'id="first-decided"' not in html


def test_what_a_player_needs_to_pass_is_never_under_the_least_bank(
    client: FlaskClient, game: GameActions
) -> None:
    """zilch to 2,000: Bob, 50 behind, cannot bank 100; he needs the 300 a bank takes."""
    game.create("zilch", ["Ann", "Bob"], target=2000)
    for player, points in (("Ann", 300), ("Bob", 1950), ("Ann", 1700)):
        game.score(player, points)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "<b>Bob</b> (300 to pass)" in html


def test_the_final_round_banner_says_who_set_the_mark(
    client: FlaskClient, game: GameActions
) -> None:
    """minnesota: a tie of the top score owes every other player a turn again; the banner
    says who tied, so the players see why Mo, who reached the target, plays again."""
    game.create("minnesota", ["Kim", "Lee", "Mo"], target=3000)
    for player, points in (("Kim", 1000), ("Lee", 1000), ("Mo", 3000)):
        game.score(player, points)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "Mo reached the target." in html and "the lead" not in html
    game.score("Kim", 2000)
    html = " ".join(client.get(f"/g/{game.id}/sheet").get_data(as_text=True).split())
    assert (
        "Mo reached the target. Kim tied the lead at 3,000. "
        "Still to play: <b>Lee</b> (2,050 to pass), <b>Mo</b> (50 to pass)" in html
    )
    game.score("Lee", 2500)
    html = " ".join(client.get(f"/g/{game.id}/sheet").get_data(as_text=True).split())
    assert (  # (what each needs to pass the top score: Lee, the lone leader, needs none)
        "Lee took the lead with 3,500. "
        "Still to play: <b>Mo</b> (550 to pass), <b>Kim</b> (550 to pass)" in html
    )
    game.score("Mo", 500)  # the player who reached the target ties the new lead
    html = " ".join(client.get(f"/g/{game.id}/sheet").get_data(as_text=True).split())
    assert (
        "Mo reached the target. Mo tied the lead at 3,500. "
        "Still to play: <b>Kim</b> (550 to pass), <b>Lee</b> (50 to pass)" in html
    )


def test_an_instant_win_says_why(client: FlaskClient, game: GameActions) -> None:
    """farke: six 1s in one roll win the game at once; the keep says so, and so does the
    winner screen (8,000 points alone would not explain it), with no "needs" badge left."""
    game.create("farke", ["Xan", "Yul"])
    client.get(f"/g/{game.id}?t={game.token}")
    game.event({"type": "roll", "dice": [1, 1, 1, 1, 1, 1]})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "six 1s · wins the game" in html and "five 1s · most points" not in html
    game.event({"type": "keep", "dice": [1, 1, 1, 1, 1, 1]})
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "Xan wins!" in html and "At once: six 1s in one roll." in html
    assert "needs" not in html  # (Yul never got on the board: the game is over all the same)


def test_a_win_by_points_is_not_called_instant(client: FlaskClient, game: GameActions) -> None:
    game.create("ten-thousand", ["Ann", "Bob"], target=1000)
    game.score("Ann", 1000)
    game.score("Bob", 0)
    html = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "Ann wins!" in html and "instant-win" not in html


def test_rematch_fills_the_form_as_the_game_was_made(
    client: FlaskClient, game: GameActions
) -> None:
    """The winner screen's *Rematch* opens the create form with the game's preset, house
    rules, target and players (the roll for first player's seating)."""
    made = game.create("farkle+greed+the-420", ["Ann", "Bob"], target=1000)
    client.get(made["join_url"])  # (a player's phone: spectators start no game)
    game.score("Ann", 1000)
    game.score("Bob", 0)
    sheet = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "Ann wins!" in sheet and f'id="rematch" href="/?again={game.id}"' in sheet
    page = client.get(f"/?again={game.id}").get_data(as_text=True)
    assert re.search(r'<option value="farkle"[^>]*\sselected', page)
    for toggle in ("greed", "the-420"):
        assert re.search(rf'value="{toggle}"\s+checked', page), toggle
    assert not re.search(r'value="amish"\s+checked', page)
    assert re.search(r'id="target"[^>]*value="1000"', page)
    assert ">Ann\nBob\n</textarea>" in page
    # a name with a comma is one name on its line (a single line "Ann, Bob" is two)
    token = csrf(client)
    for typed, seated in (
        ("Smith, Jr.\nAnn", ["Smith, Jr.", "Ann"]),
        ("Smith, Jr.\n", ["Smith, Jr."]),  # (one player, as Rematch writes it: a line)
        ("Ann, Bob", ["Ann", "Bob"]),
    ):
        posted = client.post(
            "/new", data={"csrf_token": token, "preset": "farkle", "players": typed}
        )
        assert posted.status_code == 302
        state = client.get(f"/api{posted.location}".replace("/g/", "/games/")).get_json()["state"]
        assert [p["name"] for p in state["players"]] == seated
    plain = client.get("/?again=NOSUCH").get_data(as_text=True)
    assert "checked" not in plain and "</textarea>" in plain


def test_no_player_is_marked_to_act_while_the_roll_for_first_player_is_tied(
    client: FlaskClient, game: GameActions
) -> None:
    game.create("farkle", ["Ann", "Bob", "Cid"])
    assert 'class="current"' in client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    resp = game.first({"Ann": 2, "Bob": 5, "Cid": 5})
    assert resp.get_json()["roll_again"] == ["Bob", "Cid"]
    sheet = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert 'class="current"' not in sheet and 'id="turn-line"' not in sheet


def test_a_join_that_ends_a_tie_for_first_player_says_so(
    client: FlaskClient, game: GameActions
) -> None:
    """A player joining while the roll for first player is tied ends the tie (everyone
    rolls again, the newcomer too): the form says so, not nothing."""
    made = game.create("farkle", ["Ann", "Bob", "Cid"])
    client.get(made["join_url"])  # (a player's phone: the form is a player's)
    game.first({"Ann": 6, "Bob": 6, "Cid": 2})
    sheet = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    assert "Tie: Ann and Bob roll again." in sheet
    for name in ("Dee", "Eve"):
        game.join(name)
        sheet = client.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        assert "Dee joined during the tie: everyone rolls again." in sheet
        assert "Tie: " not in sheet and 'select name="Dee"' in sheet
    game.undo()
    game.undo()
    assert "Tie: Ann and Bob roll again." in client.get(f"/g/{game.id}/sheet").get_data(
        as_text=True
    )
    assert "joined during the tie" not in client.get(f"/g/{game.id}/sheet").get_data(as_text=True)


def test_a_watching_screen_shows_the_roll_for_first_player(
    client: FlaskClient, game: GameActions
) -> None:
    """A review's wall showed nothing of it: its turn line went at a tie, with no word of
    why, and the columns reordered unsaid once it was decided. The dice of each round,
    the tie and who starts are shown, with no form; a player's phone shows the dice too."""
    made = game.create("farkle", ["Ann", "Bob", "Cid"])
    client.get(made["join_url"])
    watcher = client.application.test_client()

    def card(phone: FlaskClient) -> str:
        sheet = phone.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        if 'id="setup"' not in sheet:
            return ""
        start = sheet.index(">", sheet.index('id="setup"')) + 1
        found = sheet[start : sheet.index("</section>", start)]
        return " ".join(unescape(re.sub(r"<[^>]+>", " ", found)).split())

    assert card(watcher).startswith("Players Ann → Bob → Cid")
    assert "Add" not in card(watcher) and "Who goes first" not in card(watcher)
    game.first({"Ann": 6, "Bob": 6, "Cid": 2})
    assert card(watcher) == (
        "Players Ann → Bob → Cid Rolled for first player: Ann 6 , Bob 6 , Cid 2 "
        "Tie: Ann and Bob roll again for first player."
    )
    game.first({"Ann": 3, "Bob": 5})
    assert card(watcher) == (
        "Players Bob → Cid → Ann Rolled for first player: Ann 6 , Bob 6 , Cid 2 ; then Ann 3 , "
        "Bob 5 Bob rolled highest and starts: Bob → Cid → Ann."
    )
    player = card(client)
    assert "Rolled for first player: Ann 6" in player and "(Undo takes the roll back.)" in player
    game.score("Bob", 500)
    assert card(watcher) == "" and card(client) == ""  # (play has started)


def token_of(client: FlaskClient, game_id: str) -> str:
    """The join code a browser's game page holds for this game (its script's)."""
    match = re.search(r'data-token="([^"]*)"', client.get(f"/g/{game_id}").get_data(as_text=True))
    assert match and match.group(1)
    return match.group(1)


def _won_with_rematch_form(app: Flask, game: GameActions, phones: int) -> list[FlaskClient]:
    """Browsers holding the join code of a ten-thousand game to 1,000 that Ann has won; the
    first has the Rematch form open, filled with the game (and which game it follows)."""
    out = game.create("ten-thousand", ["Ann", "Bob"], target=1000)
    clients = [app.test_client() for _ in range(phones)]
    for client in clients:
        client.get(out["join_url"])
    game.score("Ann", 1000)
    game.score("Bob", 0)
    form = clients[0].get(f"/?again={game.id}").get_data(as_text=True)
    assert f'name="again" value="{game.id}"' in form and "Ann\nBob\n</textarea>" in form
    # (said to be the rematch, not a bare "New game"; the house rules folded, as none is set)
    assert "<h2>Rematch</h2>" in form and f"Game {game.id}'s rules, target" in form
    assert '<details class="toggles-fold">' in form
    return clients


def _send_rematch(client: FlaskClient, game_id: str, **fields: str) -> Any:
    """The Rematch form sent (``fields`` in place of the finished game's)."""
    data = {"preset": "ten-thousand", "target": "1000", "players": "Ann\nBob", **fields}
    return client.post("/new", data={"csrf_token": csrf(client), "again": game_id, **data})


def test_a_rematch_made_while_its_game_is_taken_back_is_not_made(
    app: Flask, game: GameActions
) -> None:
    """Phones sending Rematch while another's Undo took the last turn back each made a game
    of their own: now none is made, and each is told why."""
    (host,) = _won_with_rematch_form(app, game, phones=1)
    game.undo()  # meanwhile, on another phone
    # (and a Rematch tapped only now, on a winner screen not yet taken down, says so too)
    opened = host.get(f"/?again={game.id}")
    assert opened.status_code == 302 and opened.location == f"/g/{game.id}"
    assert "no longer finished (taken back?)" in host.get(opened.location).get_data(as_text=True)
    sent = _send_rematch(host, game.id)
    assert sent.location == f"/g/{game.id}"
    assert "no longer finished (taken back?): no rematch was made" in host.get(
        sent.location
    ).get_data(as_text=True)
    with app.app_context():
        from web.db import get_db

        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


@pytest.mark.parametrize("host", ["a b", "x:99999999", "xn--a"])
def test_the_create_form_from_a_host_no_phone_can_open_makes_no_game(
    app: Flask, client: FlaskClient, host: str
) -> None:
    """As the API's create: its links would be "http:/g/..." (or, a port past 65535, no
    link at all: a 500), so no game is made."""
    form = {"csrf_token": csrf(client), "preset": "farkle", "players": "Ann\nBob"}
    cookie = client.get_cookie("session")  # (sent by hand: `past_the_client`)
    assert cookie is not None
    headers = {"Host": host, "Cookie": f"session={cookie.value}"}
    status, page = past_the_client(app, "/new", method="POST", data=form, headers=headers)
    assert status == 400 and "not an address phones can open" in page
    with app.app_context():
        from web.db import get_db

        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


@pytest.mark.parametrize("host", ["a" * 64, "a..b"])
def test_a_host_werkzeug_cannot_route_gets_a_page_not_a_500(client: FlaskClient, host: str) -> None:
    """A host name Werkzeug refuses to route (a label over 63 letters, an empty one) left
    the error page no URL adapter for its links: a 500, on every page. Now a 400 page
    whose links are fixed paths, or the API's JSON."""
    for path in ("/", "/check", "/g/ABCDEF"):
        page = client.get(path, headers={"Host": host, "Accept": "text/html"})
        assert page.status_code == 400 and page.mimetype == "text/html"
        assert "not an address phones can open" in page.get_data(as_text=True)
        assert 'href="/"' in page.get_data(as_text=True)
    api = client.get("/api/rules", headers={"Host": host})
    assert api.status_code == 400
    assert api.get_json() == {
        "error": "the request's Host header is not an address phones can open"
    }


def test_a_game_seen_from_a_host_idna_cannot_decode_gets_a_400(
    app: Flask, client: FlaskClient, game: GameActions
) -> None:
    """Its links (the join link, the QR code's) cannot be written: a 400, not a 500."""
    game.create()
    for path in (f"/g/{game.id}", f"/g/{game.id}/qr.svg"):
        headers = {"Host": "xn--a", "Accept": "text/html"}
        status, page = past_the_client(app, path, headers=headers)
        assert status == 400 and "not an address phones can open" in page, path
    assert client.get(f"/g/{game.id}").status_code == 200  # (its own host: as ever)


def test_a_rematch_stopped_before_its_link_leaves_no_game(app: Flask, game: GameActions) -> None:
    """The rematch and the finished game's link to it are one transaction: a server stopped
    between the two (here the link refused by the file) had left a rematch no winner screen
    linked to, which the form sent again opened and another phone's Rematch doubled. Now
    nothing is left; the form sent again makes the rematch, linked, and the other phone's
    Rematch opens it."""
    host, guest = _won_with_rematch_form(app, game, phones=2)
    with app.app_context():
        get_db().execute(
            "CREATE TRIGGER stop BEFORE INSERT ON events WHEN NEW.kind = 'rematch' "
            "BEGIN SELECT RAISE(ABORT, 'the server stopped'); END"
        )
    form = {"form_id": form_id(host, f"/?again={game.id}")}
    with pytest.raises(sqlite3.IntegrityError, match="the server stopped"):
        _send_rematch(host, game.id, **form)
    with app.app_context():
        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        get_db().execute("DROP TRIGGER stop")
    assert "rematch" not in game.get()
    sent = _send_rematch(host, game.id, **form)
    rematch = sent.location.rsplit("/", 1)[-1]
    assert sent.status_code == 302 and rematch != game.id and game.get()["rematch"] == rematch
    late = _send_rematch(guest, game.id, players="Ann\nBob\nCid")
    assert late.location == f"/g/{rematch}?joined=1"
    with app.app_context():
        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2


def test_a_rematch_of_a_game_this_phone_does_not_play_is_not_made(
    app: Flask, game: GameActions
) -> None:
    """A rematch is played with the finished game's join code, so a phone without it (a
    spectator, or a form sent by hand) makes none, and is told so rather than that the
    game was taken back."""
    _won_with_rematch_form(app, game, phones=1)
    stranger = app.test_client()
    sent = _send_rematch(stranger, game.id)
    assert sent.location == f"/g/{game.id}"
    page = stranger.get(sent.location).get_data(as_text=True)
    assert f"This phone does not play in game {game.id}: no rematch was made." in page
    assert "taken back" not in page
    with app.app_context():
        from web.db import get_db

        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_a_rematch_is_one_game_for_the_whole_table(app: Flask, game: GameActions) -> None:
    """Rematch on one phone used to leave the others on the old winner screen, each with a
    Rematch of its own that made another game: now the winner screen of every phone links
    to the one rematch, which the same phones play with the same join code."""
    host, guest = _won_with_rematch_form(app, game, phones=2)
    spectator = app.test_client()
    made = _send_rematch(host, game.id, players="Bob\nAnn")
    assert made.status_code == 302
    rematch = made.location.rsplit("/", 1)[-1]
    assert rematch != game.id
    opened = f"/g/{rematch}?joined=1"  # (the sheet first, the invite folded: as invited)
    # every phone's winner screen, the spectator's too, which stays a spectator's (a wall
    # screen opened by the host's spectator link holds the code, and would play)
    for phone, link in ((guest, opened), (spectator, f"/g/{rematch}?watch=1")):
        sheet = phone.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        assert f'id="rematch-open" href="{link}"' in sheet and 'id="rematch"' not in sheet
    wall = host.get(f"/g/{game.id}/sheet?watch=1").get_data(as_text=True)
    assert f'id="rematch-open" href="/g/{rematch}?watch=1"' in wall
    assert game.get()["rematch"] == rematch  # (and in the API's answer)
    # (a phone that closed its tab finds the rematch from the home page's list, and the old
    # game's Undo, a slip once the table has moved on, asks for a second tap: game.js)
    home = guest.get("/").get_data(as_text=True)
    listed = f'href="{opened}"><b>{game.id}</b> <span>Ann won · rematch {rematch} set up'
    assert listed in home
    assert f'data-rematch="{rematch}"' in guest.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    page = guest.get(opened).get_data(as_text=True)
    assert page.index('id="sheet"') < page.index('<details class="card share"')
    assert 'id="quick"' in guest.get(f"/g/{rematch}/sheet").get_data(as_text=True)
    home = guest.get("/").get_data(as_text=True)  # (opened: listed as a game of its own)
    assert f"<b>{rematch}</b>" in home and "set up" not in home
    guest.get(f"/g/{game.id}")  # (the old game opened since: listed first, and still its own)
    home = guest.get("/").get_data(as_text=True)
    assert f'href="/g/{game.id}"><b>{game.id}</b>' in home and "set up" not in home
    assert 'id="quick"' not in spectator.get(f"/g/{rematch}/sheet").get_data(as_text=True)
    # a second Rematch, or its form sent late, opens the same game instead of another
    assert guest.get(f"/?again={game.id}").location == opened
    late = _send_rematch(guest, game.id, preset="farkle", players="X")
    assert late.location == opened
    assert "Another phone had set up the rematch first" in guest.get(opened).get_data(as_text=True)
    with app.app_context():
        from web.db import get_db

        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    # a newcomer to the rematch, who holds only its code, is no player of the old game
    newcomer = app.test_client()
    newcomer.get(f"/g/{rematch}?t={token_of(host, rematch)}")
    assert 'id="quick"' in newcomer.get(f"/g/{rematch}/sheet").get_data(as_text=True)
    assert "data-undo" not in newcomer.get(f"/g/{game.id}/sheet").get_data(as_text=True)
    # the link is no action: Undo on the old game takes back its last turn, not the link
    game.version = game.get()["version"]  # (the link is a row of its own)
    game.undo()
    assert game.state["phase"] == "final_round"
    # (the winner screen's link gone with the win: the sheet still names the rematch)
    for phone, link in ((guest, opened), (spectator, f"/g/{rematch}?watch=1")):
        sheet = phone.get(f"/g/{game.id}/sheet").get_data(as_text=True)
        assert 'id="rematch-open"' not in sheet
        assert f'was set up from this game\'s end, since taken back. <a href="{link}">' in sheet
    game.undo()
    joined = game.join("Cid")  # (a row of another kind on the cached snapshot keeps it)
    assert joined.get_json()["rematch"] == rematch
    restarted = create_app(
        {"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test"}
    )
    with restarted.app_context():  # (folded from the stored rows: no cache)
        assert store.load(game.id).rematch == rematch


def test_a_form_post_from_another_port_is_cross_site(client: FlaskClient) -> None:
    """An origin is scheme, host and port: another server on the same machine (a page on
    localhost:5000) is another site, whatever cookie it rides on."""
    token = csrf(client)
    resp = client.post(
        "/new",
        data={"csrf_token": token, "preset": "farkle", "players": "Ann"},
        headers={"Origin": "http://localhost:5000"},
    )
    assert resp.status_code == 403 and b"cross-site" in resp.data


def test_pages_allow_scripts_and_forms_from_this_origin_only(client: FlaskClient) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = [d.strip() for d in policy.split(";")]
    assert "default-src 'self'" in directives and "form-action 'self'" in directives


def test_the_sheet_of_a_player_and_of_a_spectator_are_cached_apart(
    app: Flask, game: GameActions
) -> None:
    """At one version, a player's sheet (with its buttons) and the spectator's are two
    answers: a phone switching to its spectator link is not told its player's sheet is
    current, and no shared cache may hand one browser's sheet to another."""
    out = game.create("farkle", ["Ann", "Bob"])
    phone = app.test_client()
    phone.get(out["join_url"])
    played = phone.get(f"/g/{game.id}/sheet")
    assert b'id="quick"' in played.data
    assert "private" in played.headers["Cache-Control"] and "cookie" in played.vary
    watched = phone.get(
        f"/g/{game.id}/sheet?watch=1", headers={"If-None-Match": played.headers["ETag"]}
    )
    assert watched.status_code == 200 and b'id="quick"' not in watched.data
    spectator = app.test_client().get(f"/g/{game.id}/sheet")
    assert spectator.headers["ETag"] == watched.headers["ETag"] != played.headers["ETag"]


def test_the_qr_code_carries_the_join_code_only_where_asked(
    app: Flask, game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player's QR is the join link; the spectator QR (``?link=view``), and any QR a
    spectator opens, is the read-only link: a code on the wall must not let anyone play.
    Neither is kept by any cache."""
    drawn: list[str] = []

    def qr_svg(url: str) -> str:
        drawn.append(url)
        return "<svg/>"

    monkeypatch.setattr(chart, "qr_svg", qr_svg)
    out = game.create("farkle", ["Ann", "Bob"])
    phone = app.test_client()
    phone.get(out["join_url"])
    resp = phone.get(f"/g/{game.id}/qr.svg")
    assert "no-store" in resp.headers["Cache-Control"]
    phone.get(f"/g/{game.id}/qr.svg?link=view")
    app.test_client().get(f"/g/{game.id}/qr.svg")
    assert drawn == [out["join_url"], out["view_url"], out["view_url"]]


def test_the_chart_is_not_sent_again_while_the_game_stands(
    client: FlaskClient, game: GameActions
) -> None:
    game.create()
    first = client.get(f"/g/{game.id}/chart.svg")
    tag = first.headers["ETag"]
    again = client.get(f"/g/{game.id}/chart.svg", headers={"If-None-Match": tag})
    assert again.status_code == 304 and not again.data
    game.score("Ann", 500)
    moved = client.get(f"/g/{game.id}/chart.svg", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and ("Ann", "500") in legend(moved.get_data(as_text=True))


def test_a_bust_sets_no_mark_in_the_final_round(client: FlaskClient, game: GameActions) -> None:
    """minnesota: Lee reached 3,000 and Kim tied him; Lee, owed a turn by the tie, busts. The
    mark is still Kim's tie (a bust ties no one), and Mo needs 3,050 to pass."""
    game.create("minnesota", ["Kim", "Lee", "Mo"], target=3000)
    for player, points in (("Kim", 1000), ("Lee", 3000), ("Mo", 0), ("Kim", 2000), ("Lee", 0)):
        game.score(player, points)
    html = " ".join(client.get(f"/g/{game.id}/sheet").get_data(as_text=True).split())
    assert (
        "Lee reached the target. Kim tied the lead at 3,000. "
        "Still to play: <b>Mo</b> (3,050 to pass)" in html
    )


def test_the_quick_entry_knows_an_exact_finish(client: FlaskClient, game: GameActions) -> None:
    """Under an exact finish the pad is told so (``data-exact``), to warn of a score past
    the target before it is sent; under a plain finish it is not."""
    for rules, exact in (("exact-10000", True), ("ten-thousand", False)):
        game.create(rules, ["Ann", "Bob"])
        client.get(f"/g/{game.id}?t={game.token}")
        form = re.search(
            r'<form class="quick" id="quick"[^>]*>',
            client.get(f"/g/{game.id}/sheet").get_data(as_text=True),
        )
        assert form and ('data-exact="1"' in form.group(0)) is exact, rules


def test_a_spectator_cannot_set_up_the_tables_rematch(app: Flask, game: GameActions) -> None:
    """The rematch is played with a code derived from the finished game's: one set up by a
    browser without that code would leave every player a spectator of it. A spectator's
    Rematch form does not name the game, and one sent naming it makes and links nothing."""
    _won_with_rematch_form(app, game, phones=1)
    spectator = app.test_client()
    form = spectator.get(f"/?again={game.id}").get_data(as_text=True)
    assert 'name="again"' not in form
    sent = _send_rematch(spectator, game.id)
    assert sent.status_code == 302 and sent.location == f"/g/{game.id}"
    assert game.get().get("rematch") is None
    with app.app_context():
        from web.db import get_db

        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_a_spectator_link_typed_in_lower_case_stays_read_only(
    app: Flask, game: GameActions
) -> None:
    """The game code is case-blind; the redirect to its canonical form keeps ``watch=1``
    (a wall screen opened by the host's own browser would otherwise play)."""
    out = game.create()
    host = app.test_client()
    host.get(out["join_url"])
    resp = host.get(f"/g/{game.id.lower()}?watch=1")
    assert resp.status_code == 302 and resp.location == f"/g/{game.id}?watch=1"
    assert 'id="quick"' not in host.get(resp.location).get_data(as_text=True)


def test_the_home_page_lists_this_phones_games_newest_first(
    app: Flask, client: FlaskClient, game: GameActions
) -> None:
    """A player who closed the tab gets back to the sheet from the home page (found by a
    review: the cookie kept 30 games' codes, and the page listed none)."""
    assert 'id="my-games"' not in client.get("/").get_data(as_text=True)
    first = game.create("farkle", ["Ann", "Bob"])
    client.get(first["join_url"])
    game.score("Ann", 500)
    second = app.test_client().post("/api/games", json={"rules": "zilch", "players": []})
    client.get(second.get_json()["join_url"])
    page = html.unescape(client.get("/").get_data(as_text=True))
    listed = re.findall(r'href="/g/([^"]+)"><b>[^<]*</b> <span>([^<]*)</span>', page)
    assert listed == [(second.get_json()["id"], "setting up"), (first["id"], "Bob's turn")]
    assert "Ann · Bob" in page
    client.get(f"/g/{first['id']}")  # (the game opened last comes first)
    page = html.unescape(client.get("/").get_data(as_text=True))
    listed = re.findall(r'href="/g/([^"]+)"><b>', page)
    assert listed == [first["id"], second.get_json()["id"]]
    # the page's first heading is its one h1 ("Your games" had come before it)
    assert re.findall(r"<h([1-6])", page)[:3] == ["1", "2", "2"]
    # a phone that only watches has no game of its own to list
    assert 'id="my-games"' not in app.test_client().get("/").get_data(as_text=True)
