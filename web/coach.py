"""The coach: the strategy advisor's advice for a game as it stands.

Every figure and every decision about which question to ask (a turn in progress, a fresh
turn, a takeover offer, playing to pass the leader) comes from ``companion.coach`` and
``companion.strategy``.
"""

from __future__ import annotations

import threading
from typing import Any

from companion import rules as crules
from companion import strategy
from companion.coach import advise_game
from companion.game import GamePhase, GameState
from companion.rules import Finish, Rules
from companion.winprob import tie_break_chance, tie_break_race

_warming: dict[Rules, threading.Thread] = {}
_warming_lock = threading.Lock()


def _tie_break_solved(rules: Rules) -> threading.Thread:
    """Solve the rules' tie-break race (``tie_break_chance``) once, in the background: the
    coach of a final round's last player needs it, and under ``hot-dice``'s doublings it
    takes half a minute, so it starts at the game's first advice rather than at its end."""
    key = tie_break_race(rules)
    with _warming_lock:
        worker = _warming.get(key)
        if worker is None:
            worker = threading.Thread(target=tie_break_chance, args=(key,), daemon=True)
            worker.start()
            _warming[key] = worker
    return worker


def advice_for(state: GameState | None) -> dict[str, Any] | None:
    """JSON-ready advice for the player to act, or None when there is nothing to decide
    (no game yet, the game is over, or a 5150 bonus roll)."""
    if state is None:
        return None
    if state.rules.finish in (Finish.FINAL_ROUND, Finish.TIE_OR_BEAT):
        worker = _tie_break_solved(state.rules)
        if state.phase in (GamePhase.FINAL_ROUND, GamePhase.TIE_BREAK):
            worker.join()  # (the last player's tie is worth this race's chance)
    return advise_game(state)


def advice_for_roll(
    rules_spec: str, dice: list[int], target: int | None = None
) -> dict[str, Any] | None:
    """Every legal keep of a roll ranked (the first roll of a fresh turn); None if no dice."""
    if not dice:
        return None
    rules = crules.load_rules(rules_spec, target=target)
    return strategy.advise_roll(rules, dice)
