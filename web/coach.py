"""The coach: the strategy advisor's advice for a game as it stands.

Every figure and every decision about which question to ask (a turn in progress, a fresh
turn, a takeover offer, playing to pass the leader) comes from ``companion.coach`` and
``companion.advice``.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from companion import rules as crules
from companion.advice import advise_roll
from companion.coach import needs_the_race
from companion.game import GameState
from companion.rules import Finish, Rules
from companion.strategy import bust_value, expected_turn_score, turn_rules
from companion.tie_break import (
    FIRST_TURNS_KEPT,
    first_turn_solved,
    tie_break_first_turn,
    tie_break_race,
)

RACES_QUEUED = 8
"""Tie-break races waiting for the background solver at the most: past that a game's
advice queues nothing (advice resting on its race stays pending, and queues it once there
is room)."""

RACES_KEPT = FIRST_TURNS_KEPT
"""Races remembered as solved or queued: as many as ``tie_break`` keeps solved first turns,
so that one remembered as solved is (but for a rare other order of forgetting) still
solved (one forgotten meanwhile, `first_turn_solved`, is solved again in the background):
advice never solves a race inside a request."""

TURNS_KEPT = 32
"""Rule sets whose turn is remembered as solved or queued: as many as ``strategy`` keeps
(its models, strike penalties' long runs)."""

TURN_WAIT_S = 1.0
"""How long a request waits for its rules' turn, solved in the background, before it says
the advice is pending: most rule sets take under half a second, and are answered at once;
a strike penalty's streak-aware long run takes seconds (8 s for `zilch+progressive`), and
a request had held a server thread, and one of the two slots for heavy work, all that
while (so every other game's photos and keeps were "busy")."""


class Pending(Exception):
    """The advice rests on a solve still under way: the answer for now (not to be cached),
    which says so; the phone asks again shortly."""

    def __init__(self, advice: dict[str, Any]) -> None:
        super().__init__(advice["reason"])
        self.advice = advice


RACE_PENDING = "Working out the tie-break odds for these rules (once: it can take a few minutes)…"
"""What the coach says while the race is solved: under `hot-dice`'s doublings about 30 s,
which had looked stuck."""

RETRY_MS = 2000
"""How soon a phone told the advice is pending asks again."""


class BackgroundSolver:
    """One thread solving rule sets one at a time, each once, so that no flood of new
    games can take more than one core from the server, and no request waits on a solve
    (a waiting request holds a server thread: a table of phones asking at every change had
    held them all, stalling every game). A solve that fails is left to the request that
    needs it (which then solves it, or says why the coach is unavailable)."""

    def __init__(self, name: str, work: Callable[[Rules], object], kept: int, queued: int):
        self.name = name
        self.work = work
        self.kept = kept  # (rule sets remembered as solved or queued)
        self.queued = queued  # (waiting at the most: past that, none is queued)
        self.done: dict[Rules, threading.Event] = {}
        self.failed: set[Rules] = set()  # (solves that raised: left to the request)
        self.queue: queue.SimpleQueue[tuple[Rules, threading.Event]] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def solved(self, rules: Rules) -> threading.Event | None:
        """Have ``rules`` solved, once: the event set once it is, or None when too many
        are waiting."""
        with self.lock:
            done = self.done.get(rules)
            if done is None:
                if self.queue.qsize() >= self.queued:
                    return None
                if len(self.done) >= self.kept:  # forget the oldest solved one
                    oldest = next((r for r, e in self.done.items() if e.is_set()), None)
                    if oldest is None:
                        return None
                    del self.done[oldest]
                    self.failed.discard(oldest)
                done = self.done[rules] = threading.Event()
                self.queue.put((rules, done))
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self.thread.start()
        return done

    def again(self, rules: Rules) -> threading.Event | None:
        """`solved` once more, for ``rules`` whose solution was since forgotten."""
        with self.lock:
            self.done.pop(rules, None)
            self.failed.discard(rules)
        return self.solved(rules)

    def _run(self) -> None:
        while True:
            rules, done = self.queue.get()
            try:
                self.work(rules)
            except Exception:  # (the solver must outlive any one solve)
                with self.lock:
                    self.failed.add(rules)
            finally:
                done.set()


def _solve_turn(rules: Rules) -> None:
    """What a game's advice under ``rules`` always rests on: the turn's model and a fresh
    turn, and under a strike penalty the value of a bust (its long run: seconds)."""
    expected_turn_score(rules)
    bust_value(rules)


# (the works looked up when run: a test puts a slow or failing one in their place)
RACES = BackgroundSolver(
    "tie-breaks", lambda race: tie_break_first_turn(race), RACES_KEPT, RACES_QUEUED
)
"""The tie-break races (``tie_break_first_turn``): the coach of a final round's last
player and of a tie-break's first needs one, and under ``hot-dice``'s doublings it takes
about a minute, so it starts at the game's first advice rather than at its end."""

TURNS = BackgroundSolver("turns", lambda rules: _solve_turn(rules), TURNS_KEPT, RACES_QUEUED)
"""The rule sets' turns (`_solve_turn`), apart from the races: a turn queued behind a
minute's race would keep a new game's coach waiting that minute."""


def ready(state: GameState) -> None:
    """Raise ``Pending`` unless what the advice for ``state`` rests on is solved: the
    rules' turn (queued for the background, and waited on up to `TURN_WAIT_S`) and, where
    it plays a part, their tie-break race (never waited on). Called before the request
    takes a slot of heavy work: one waiting here had held a slot for that second."""
    turn = TURNS.solved(turn_rules(state.rules))
    if state.rules.finish in (Finish.FINAL_ROUND, Finish.TIE_OR_BEAT):
        the_race = tie_break_race(state.rules)
        race = RACES.solved(the_race)
        needed = needs_the_race(state)
        # (remembered as solved, but forgotten by `tie_break` since, whose reads reorder
        # what it keeps: solved again in the background, not in a request, where a review
        # saw one hold a slot of heavy work for 30-85 s)
        if needed and race is not None and race.is_set() and the_race not in RACES.failed:
            if not first_turn_solved(state.rules):
                race = RACES.again(the_race)
        if needed and (race is None or not race.is_set()):
            raise pending(state, RACE_PENDING)
    if turn is None or not turn.wait(TURN_WAIT_S):
        raise pending(state, TURN_PENDING)


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


TURN_PENDING = "Working out the odds of a turn under these rules…"


def roll_pending(rules_spec: str, target: int | None = None) -> dict[str, Any] | None:
    """The rule check's answer for now while the turn its ranking rests on is solved in
    the background (queued, and waited on up to `TURN_WAIT_S`), or None once it is: asked
    before the request takes a slot of heavy work, which a review's two requests under
    new rules held 7-8 s, every table's advice and photos "busy" meanwhile."""
    turn = TURNS.solved(turn_rules(crules.load_rules(rules_spec, target=target)))
    if turn is not None and turn.wait(TURN_WAIT_S):
        return None
    return {"situation": "pending", "reason": TURN_PENDING, "retry_ms": RETRY_MS}


def advice_for_roll(
    rules_spec: str, dice: list[int], target: int | None = None
) -> dict[str, Any] | None:
    """Every legal keep of a roll ranked (the first roll of a fresh turn); None if no dice."""
    if not dice:
        return None
    rules = crules.load_rules(rules_spec, target=target)
    return advise_roll(rules, dice)
