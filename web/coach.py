"""The coach: the strategy advisor's advice for a game as it stands.

Every figure and every decision about which question to ask (a turn in progress, a fresh
turn, a takeover offer, playing to pass the leader) comes from ``companion.coach`` and
``companion.strategy``.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from companion import rules as crules
from companion import strategy
from companion.coach import advise_game, needs_the_race
from companion.game import GameState
from companion.rules import Finish, Rules
from companion.winprob import tie_break_first_turn, tie_break_race

RACES_QUEUED = 8
"""Tie-break races waiting for the background solver at the most: past that a game's
first advice queues nothing, and its last player's advice solves the race itself."""

RACES_KEPT = 256
"""Races remembered as solved or queued (``tie_break_chance`` keeps as many results; a
forgotten one is solved again in the request that needs it)."""

RACE_WAIT = 60.0
"""Seconds a last player's advice waits for the background solver before solving the race
in the request itself (the solver may have hot-dice races queued before it)."""

_races: dict[Rules, threading.Event] = {}
_queue: queue.SimpleQueue[tuple[Rules, threading.Event]] = queue.SimpleQueue()
_races_lock = threading.Lock()
_solver: threading.Thread | None = None


def _solve_races() -> None:
    """The one background solver: races one at a time, so no flood of new games can take
    more than one core from the server. A race that fails is left to the request that
    needs it (which then solves it, or says why the coach is unavailable)."""
    while True:
        race, done = _queue.get()
        try:
            tie_break_first_turn(race)  # (the chance, and the first player's turn)
        except Exception:  # (the solver must outlive any one race)
            pass
        finally:
            done.set()


def _tie_break_solved(rules: Rules) -> threading.Event | None:
    """Have the rules' tie-break race (``tie_break_first_turn``) solved in the background,
    once: the coach of a final round's last player and of a tie-break's first needs it,
    and under ``hot-dice``'s doublings it takes about a minute, so it starts at the game's
    first advice rather than at its end. Returns the event set once it is solved, or None
    when too many races are waiting."""
    global _solver
    race = tie_break_race(rules)
    with _races_lock:
        done = _races.get(race)
        if done is None:
            if _queue.qsize() >= RACES_QUEUED:
                return None
            if len(_races) >= RACES_KEPT:  # forget the oldest solved one
                oldest = next((r for r, e in _races.items() if e.is_set()), None)
                if oldest is None:
                    return None
                del _races[oldest]
            done = _races[race] = threading.Event()
            _queue.put((race, done))
        if _solver is None or not _solver.is_alive():
            _solver = threading.Thread(target=_solve_races, name="tie-breaks", daemon=True)
            _solver.start()
    return done


def advice_for(state: GameState | None) -> dict[str, Any] | None:
    """JSON-ready advice for the player to act, or None when there is nothing to decide
    (no game yet, the game is over, or a 5150 bonus roll)."""
    if state is None:
        return None
    if state.rules.finish in (Finish.FINAL_ROUND, Finish.TIE_OR_BEAT):
        solved = _tie_break_solved(state.rules)
        if solved is not None and needs_the_race(state):
            solved.wait(RACE_WAIT)  # (then solved here, if the solver is still busy)
    return advise_game(state)


def advice_for_roll(
    rules_spec: str, dice: list[int], target: int | None = None
) -> dict[str, Any] | None:
    """Every legal keep of a roll ranked (the first roll of a fresh turn); None if no dice."""
    if not dice:
        return None
    rules = crules.load_rules(rules_spec, target=target)
    return strategy.advise_roll(rules, dice)
