"""The coach: the strategy advisor's advice for a game as it stands.

Every figure and every decision about which question to ask (a turn in progress, a fresh
turn, a takeover offer, playing to pass the leader) comes from ``companion.coach`` and
``companion.advice``.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from companion import rules as crules
from companion.advice import advise_roll
from companion.coach import advise_game, needs_the_race
from companion.game import GameState
from companion.rules import Finish, Rules
from companion.tie_break import FIRST_TURNS_KEPT, tie_break_first_turn, tie_break_race

RACES_QUEUED = 8
"""Tie-break races waiting for the background solver at the most: past that a game's
advice queues nothing (advice resting on its race stays pending, and queues it once there
is room)."""

RACES_KEPT = FIRST_TURNS_KEPT
"""Races remembered as solved or queued: as many as ``tie_break`` keeps solved first turns,
so that one remembered as solved is (but for a rare other order of forgetting) still
solved: advice never solves a race inside a request."""


class Pending(Exception):
    """The advice rests on a tie-break race still being solved: the answer for now (not to
    be cached), which says so; the phone asks again shortly."""

    def __init__(self, advice: dict[str, Any]) -> None:
        super().__init__(advice["reason"])
        self.advice = advice


RETRY_MS = 2000
"""How soon a phone told the advice is pending asks again."""

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
    (no game yet, the game is over, or a 5150 bonus roll); ``Pending`` while the rules'
    tie-break race, which it rests on, is being solved."""
    if state is None:
        return None
    if state.rules.finish in (Finish.FINAL_ROUND, Finish.TIE_OR_BEAT):
        solved = _tie_break_solved(state.rules)
        if needs_the_race(state) and (solved is None or not solved.is_set()):
            # (no request waits on the solver: a waiting request holds a server thread, and
            # a table of phones asking at every change held them all, stalling every game)
            raise pending(state, "Working out the tie-break odds for these rules…")
    return advise_game(state)


def pending(state: GameState, reason: str) -> Pending:
    """The answer for now while the advice cannot be given yet, for ``reason``."""
    return Pending(
        {
            "player": state.players[state.current].name,
            "situation": "pending",
            "reason": reason,
            "retry_ms": RETRY_MS,
        }
    )


def advice_for_roll(
    rules_spec: str, dice: list[int], target: int | None = None
) -> dict[str, Any] | None:
    """Every legal keep of a roll ranked (the first roll of a fresh turn); None if no dice."""
    if not dice:
        return None
    rules = crules.load_rules(rules_spec, target=target)
    return advise_roll(rules, dice)
