"""The coach: the strategy advisor's advice for a game as it stands.

Every figure and every decision about which question to ask (a turn in progress, a fresh
turn, a takeover offer, playing to pass the leader) comes from ``companion.strategy``.
"""

from __future__ import annotations

from typing import Any

from companion import rules as crules
from companion import strategy


def advice_for(state: Any) -> dict[str, Any] | None:
    """JSON-ready advice for the player to act, or None when there is nothing to decide
    (no game yet, the game is over, or a 5150 bonus roll)."""
    return None if state is None else strategy.advise_game(state)


def advice_for_roll(
    rules_spec: str, dice: list[int], target: int | None = None
) -> dict[str, Any] | None:
    """Every legal keep of a roll ranked (the first roll of a fresh turn); None if no dice."""
    if not dice:
        return None
    rules = crules.load_rules(rules_spec, target=target)
    return strategy.advise_roll(rules, dice)
