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
from collections.abc import Callable

from flask import Flask, current_app, request
from werkzeug.exceptions import TooManyRequests

WINDOW_SECONDS = 60.0


class SlidingWindow:
    """At most ``most`` events per address in any ``seconds``; thread-safe. An event is
    asked for (`wait`) before the work and recorded (`record`) once it is done, so that
    work refused for another reason, or found done before, costs nothing."""

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

    def _times(self, address: str, now: float) -> deque[float]:
        """(With the lock held.) The address's events still in the window."""
        times = self.seen.get(address)
        if times is None:
            times = self.seen[address] = deque()
        while times and now - times[0] >= self.seconds:
            times.popleft()
        return times

    def wait(self, address: str) -> float:
        """0 if one more event is allowed for ``address`` now, else the seconds until it is."""
        now = self.clock()
        with self.lock:
            times = self._times(address, now)
            return times[0] + self.seconds - now if len(times) >= self.most else 0.0

    def record(self, address: str) -> None:
        """Count one event for ``address``."""
        now = self.clock()
        with self.lock:
            self._times(address, now).append(now)
            # (addresses gone quiet forgotten, at most once a second: every call had
            # rebuilt the table past so many addresses, 3.8 ms a call at 20,000)
            if len(self.seen) > 4 * max(self.most, 256) and now - self.forgotten >= 1.0:
                self.seen = {a: d for a, d in self.seen.items() if now - d[-1] < self.seconds}
                self.forgotten = now


def init_app(app: Flask) -> None:
    """The app's window, from ``GAMES_PER_MINUTE`` (None: no limit)."""
    most = app.config.get("GAMES_PER_MINUTE")
    app.extensions["hotdice_creates"] = SlidingWindow(most) if most else None


def _window() -> SlidingWindow | None:
    window: SlidingWindow | None = current_app.extensions["hotdice_creates"]
    return window


def refuse_a_new_game() -> None:
    """Refuse (429, with Retry-After) the game this request asks for, where its address
    has created ``GAMES_PER_MINUTE`` games in the last minute."""
    window = _window()
    wait = window.wait(request.remote_addr or "") if window else 0.0
    if window and wait:
        refused = TooManyRequests(
            f"this phone has created {window.most} game{'s' * (window.most != 1)} in the last "
            "minute, the most it may: try again in a minute"
        )
        refused.retry_after = max(1, round(wait))
        raise refused


def count_a_new_game() -> None:
    """Count a game this request has made against its address."""
    window = _window()
    if window:
        window.record(request.remote_addr or "")
