"""How many games one address may create a minute (`web.ratelimit`)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask

from tests.web.test_pages import csrf
from web import ConfigError, create_app
from web.ratelimit import SlidingWindow, WindowFull


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def take(window: SlidingWindow, address: str) -> float:
    """0 where one more event is held, else the seconds to wait."""
    try:
        window.hold(address)
    except WindowFull as full:
        return full.wait
    return 0.0


def test_a_window_lets_so_many_through_a_minute_per_address() -> None:
    clock = Clock()
    window = SlidingWindow(3, clock=clock)
    assert [take(window, "a") for _ in range(3)] == [0, 0, 0]
    clock.now += 20
    assert take(window, "a") == pytest.approx(40)  # (the first of the three leaves at 60 s)
    assert take(window, "b") == 0  # (another phone is not held up)
    clock.now += 40
    assert take(window, "a") == 0 and take(window, "a") == 0 and take(window, "a") == 0
    assert take(window, "a") == pytest.approx(60)  # (a refused one is not counted)


def test_an_event_given_back_is_its_own_not_the_latest() -> None:
    """Two games at once from one phone, the first failing: its own time is uncounted,
    not the second's (a review: the window had then let a third in early)."""
    clock = Clock()
    window = SlidingWindow(2, clock=clock)
    first = window.hold("a")
    clock.now += 30
    window.hold("a")
    window.give_back("a", first)
    clock.now += 31  # (61 s after the first, 31 after the second: room for one only)
    assert take(window, "a") == 0 and take(window, "a") == pytest.approx(29)


def test_addresses_gone_quiet_are_forgotten_now_and_then() -> None:
    """Past so many addresses the quiet ones are dropped, at most once a second: every
    call had rebuilt the table, 3.8 ms a call at 20,000 addresses (a review). One whose
    game was given back holds nothing, and is dropped too (a review: it had crashed
    the dropping, and every create after it made a game and answered 500)."""
    clock = Clock()
    window = SlidingWindow(1, clock=clock)
    window.give_back("10.9.9.6", window.hold("10.9.9.6"))
    for n in range(1025):
        window.hold(f"10.0.{n // 256}.{n % 256}")
    clock.now += 61
    window.hold("10.9.9.9")
    assert list(window.seen) == ["10.9.9.9"]
    for n in range(1025):
        window.hold(f"10.1.{n // 256}.{n % 256}")
    clock.now += 0.5
    window.hold("10.9.9.8")  # (forgotten half a second ago: not yet again)
    assert len(window.seen) == 1027
    clock.now += 60.6
    window.hold("10.9.9.7")
    assert list(window.seen) == ["10.9.9.7"]


def test_creates_at_the_same_moment_pass_the_limit_none_the_more(tmp_path: Path) -> None:
    """The check and the count are one step: 200 creates at once from one address had
    made 39 games at a limit of 30 (a review)."""
    app = limited(tmp_path, 30)
    body = {"rules": "farkle", "players": ["Ann"]}
    start = threading.Barrier(8)

    def create(_: int) -> int:
        client = app.test_client()
        start.wait()
        return sum(client.post("/api/games", json=body).status_code == 201 for _ in range(10))

    with ThreadPoolExecutor(8) as pool:
        assert sum(pool.map(create, range(8))) == 30


def limited(tmp_path: Path, most: int | None) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "test.sqlite"),
            "SECRET_KEY": "test",
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "GAMES_PER_MINUTE": most,
        }
    )


def test_the_api_refuses_a_game_past_the_limit_with_when_to_try_again(tmp_path: Path) -> None:
    """Anyone on the Wi-Fi could create 219 games a second, 300 MB of database an hour
    (a security review)."""
    client = limited(tmp_path, 2).test_client()
    body = {"rules": "farkle", "players": ["Ann"]}
    assert [client.post("/api/games", json=body).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 429
    assert refused.get_json() == {
        "error": "this phone has created 2 games in the last minute, the most it may: try "
        "again in a minute"
    }
    assert 55 <= int(refused.headers["Retry-After"]) <= 60
    other = client.post("/api/games", json=body, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 201
    # what was made stands: the games read as before
    assert client.get(f"/api/games/{other.get_json()['id']}").status_code == 200


def test_only_games_made_count(tmp_path: Path) -> None:
    """A create refused for its rules, or an Idempotency-Key's retry answered with the game
    it made, made nothing: they had counted, and the retry of a game made been refused
    (a review)."""
    client = limited(tmp_path, 2).test_client()
    body = {"rules": "farkle", "players": ["Ann"]}
    for _ in range(3):
        assert client.post("/api/games", json={**body, "rules": "farkel"}).status_code == 422
    key = {"Idempotency-Key": "k" * 22}
    made = client.post("/api/games", json=body, headers=key)
    assert client.post("/api/games", json=body).status_code == 201
    for _ in range(2):  # (the window full: the retry still gets its game)
        again = client.post("/api/games", json=body, headers=key)
        assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
        assert again.get_json()["token"] == made.get_json()["token"]
    assert (
        client.post("/api/games", json=body, headers={"Idempotency-Key": "j" * 22}).status_code
        == 429
    )
    assert client.post("/api/games", json=body).status_code == 429


def test_the_create_form_says_so_and_keeps_what_was_typed(tmp_path: Path) -> None:
    client = limited(tmp_path, 1).test_client()
    data = {"csrf_token": csrf(client), "preset": "farkle", "players": "Ann\nBob"}
    typo = client.post("/new", data={**data, "target": "10,0000"})
    assert typo.status_code == 422  # (refused for the typo: no game made, none counted)
    assert client.post("/new", data=data).status_code == 302
    refused = client.post("/new", data={**data, "players": "Cid\nDee"})
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 60
    page = refused.get_data(as_text=True)
    assert "this phone has created 1 game in the last minute" in page
    assert ">Cid\nDee</textarea>" in page  # (the form as typed, to send again later)


def test_none_is_no_limit(tmp_path: Path) -> None:
    client = limited(tmp_path, None).test_client()
    body = {"rules": "farkle", "players": ["Ann"]}
    assert {client.post("/api/games", json=body).status_code for _ in range(40)} == {201}


def test_the_limit_is_30_unless_config_py_says(tmp_path: Path) -> None:
    client = limited(tmp_path, 30).test_client()
    body = {"rules": "farkle", "players": ["Ann"]}
    codes = [client.post("/api/games", json=body).status_code for _ in range(31)]
    assert codes == [201] * 30 + [429]
    default = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "i")})
    assert default.config["GAMES_PER_MINUTE"] == 30
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "config.py").write_text("GAMES_PER_MINUTE = 0\n")
    with pytest.raises(ConfigError, match="GAMES_PER_MINUTE = 0: must be a whole number such"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "j")})
