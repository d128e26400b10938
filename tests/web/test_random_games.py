"""Seeded random games through the API for every preset: every step renders for players
and spectators, and the exported log replays to the state the server shows."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask

from companion.game import replay
from companion.rules import PRESETS

if TYPE_CHECKING:
    from tests.web.conftest import GameActions


def next_event(rng: random.Random, state: dict[str, Any], dice: int) -> dict[str, Any]:
    turn = state["turn"]
    if state["takeover"] and not turn:
        return {"type": "takeover", "accept": rng.random() < 0.5}
    if turn and turn["awaiting"] == "keep":
        return {"type": "keep", "dice": rng.choice(turn["options"])["keep"]}
    if turn and turn["can_bank"] and not turn["must_roll"] and rng.random() < 0.45:
        return {"type": "bank"}
    n = turn["dice_left"] if turn and turn["dice_left"] else dice
    return {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(n)]}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_game_renders_every_step(app: Flask, game: GameActions, preset: str) -> None:
    rng = random.Random(preset)
    game.create(preset, ["Ann", "Bob", "Cid"], target=1500)
    player = app.test_client()
    player.get(f"/g/{game.id}?t={game.token}")
    spectator = app.test_client()
    dice = PRESETS[preset].dice
    for _step in range(400):
        if game.state["phase"] == "over":
            break
        event = next_event(rng, game.state, dice)
        game.event(event)
        for client in (player, spectator) if _step % 5 == 0 else (player,):
            resp = client.get(f"/g/{game.id}/sheet")
            assert resp.status_code == 200
            assert f'data-version="{game.version}"' in resp.get_data(as_text=True)
    assert game.state["phase"] == "over", "a random game should finish within 400 events"
    log = player.get(f"/api/games/{game.id}/log").get_json()
    assert replay(log).to_json() == game.get()["state"]
    page = player.get(f"/g/{game.id}")
    assert page.status_code == 200
    assert player.get(f"/g/{game.id}/chart.svg").status_code == 200
