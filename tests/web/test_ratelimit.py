"""How many games one address may create a minute (`web.ratelimit`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from tests.web.test_pages import csrf
from web import ConfigError, create_app
from web.ratelimit import SlidingWindow


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_window_lets_so_many_through_a_minute_per_address() -> None:
    clock = Clock()
    window = SlidingWindow(3, clock=clock)
    assert [window.take("a") for _ in range(3)] == [0, 0, 0]
    clock.now += 20
    assert window.take("a") == pytest.approx(40)  # (the first of the three leaves at 60 s)
    assert window.take("b") == 0  # (another phone is not held up)
    clock.now += 40
    assert window.take("a") == 0 and window.take("a") == 0 and window.take("a") == 0
    assert window.take("a") == pytest.approx(60)  # (a refused one is not counted)


def test_addresses_gone_quiet_are_forgotten() -> None:
    clock = Clock()
    window = SlidingWindow(1, clock=clock)
    for n in range(1025):
        window.take(f"10.0.{n // 256}.{n % 256}")
    clock.now += 61
    window.take("10.9.9.9")
    assert list(window.seen) == ["10.9.9.9"]


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


def test_the_create_form_says_so_on_a_page(tmp_path: Path) -> None:
    client = limited(tmp_path, 1).test_client()
    data = {"csrf_token": csrf(client), "preset": "farkle", "players": "Ann\nBob"}
    assert client.post("/new", data=data).status_code == 302
    refused = client.post("/new", data=data, headers={"Accept": "text/html"})
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert "this phone has created 1 game in the last minute" in refused.get_data(as_text=True)


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
