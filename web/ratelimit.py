"""How many games one address may create a minute (``GAMES_PER_MINUTE``).

A security review found that anyone on the Wi-Fi could create 219 games a second, about
300 MB of database an hour, until the server's disk was full and every table's writes
failed. A table creates a game, a rematch, now and then a few more: a sliding minute per
address lets every real table through and stops a loop.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import Flask, current_app, request
from werkzeug.exceptions import TooManyRequests

WINDOW_SECONDS = 60.0


class SlidingWindow:
    """At most ``most`` events per address in any ``seconds``; thread-safe. An event is
    held (`hold`: checked and counted at once, so requests at the same moment cannot
    pass the limit together) just before the work, and given back (`give_back`) if the
    work then fails: work refused for another reason costs nothing."""

    def __init__(
        self,
        most: int,
        seconds: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.most = most
        self.seconds = seconds
        self.clock = clock
        self.lock = threading.Lock()
        self.seen: dict[str, deque[float]] = {}
        self.forgotten = clock()

    def hold(self, address: str) -> float:
        """Count one event for ``address`` and return when (the clock's time, for
        `give_back`), or raise `WindowFull` (counting nothing)."""
        now = self.clock()
        with self.lock:
            times = self.seen.setdefault(address, deque())
            while times and now - times[0] >= self.seconds:
                times.popleft()
            if len(times) >= self.most:
                raise WindowFull(times[0] + self.seconds - now)
            times.append(now)
            # (addresses gone quiet forgotten, at most once a second: every call had
            # rebuilt the table past so many addresses, 3.8 ms a call at 20,000)
            if len(self.seen) > 4 * max(self.most, 256) and now - self.forgotten >= 1.0:
                self.seen = {a: d for a, d in self.seen.items() if d and now - d[-1] < self.seconds}
                self.forgotten = now
            return now

    def give_back(self, address: str, when: float) -> None:
        """Uncount the event `hold` counted for ``address`` at ``when`` (its work failed;
        not the address's latest, which may be another request's)."""
        with self.lock:
            times = self.seen.get(address)
            if times and when in times:
                times.remove(when)


class WindowFull(Exception):
    """An address's window is full: one more event is allowed in ``wait`` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"full for {wait:.1f} s")
        self.wait = wait


def init_app(app: Flask) -> None:
    """The app's window, from ``GAMES_PER_MINUTE`` (None: no limit)."""
    most = app.config.get("GAMES_PER_MINUTE")
    app.extensions["hotdice_creates"] = SlidingWindow(most) if most else None


@contextmanager
def a_new_game() -> Iterator[Callable[[], None]]:
    """For a request that may create a game: yields the call to make just before the game
    is made (a form or key sent again makes none, and calls it not), which counts it
    against the request's address or refuses it (429, with Retry-After) where that
    address has made ``GAMES_PER_MINUTE`` games in the last minute. A game counted that
    the block then fails to make is given back."""
    window: SlidingWindow | None = current_app.extensions["hotdice_creates"]
    address = request.remote_addr or ""
    held: list[float] = []

    def count() -> None:
        if window is None:
            return
        try:
            held.append(window.hold(address))
        except WindowFull as full:
            refused = TooManyRequests(
                f"this phone has created {window.most} game{'s' * (window.most != 1)} in the "
                "last minute, the most it may: try again in a minute"
            )
            refused.retry_after = max(1, round(full.wait))
            raise refused from None

    try:
        yield count
    except BaseException:
        if window:
            for when in held:
                window.give_back(address, when)
        raise
