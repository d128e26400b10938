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
    """At most ``most`` events per address in any ``seconds``; thread-safe."""

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

    def take(self, address: str) -> float:
        """Record one event for ``address`` and return 0, or (the window full) record
        nothing and return the seconds until one more is allowed."""
        now = self.clock()
        with self.lock:
            if len(self.seen) > 4 * max(self.most, 256):  # (addresses gone quiet forgotten)
                self.seen = {a: d for a, d in self.seen.items() if now - d[-1] < self.seconds}
            times = self.seen.setdefault(address, deque())
            while times and now - times[0] >= self.seconds:
                times.popleft()
            if len(times) >= self.most:
                return times[0] + self.seconds - now
            times.append(now)
            return 0.0


def init_app(app: Flask) -> None:
    """The app's window, from ``GAMES_PER_MINUTE`` (None: no limit)."""
    most = app.config.get("GAMES_PER_MINUTE")
    app.extensions["hotdice_creates"] = SlidingWindow(most) if most else None


def count_a_new_game() -> None:
    """Count the game this request is about to create against its address, or refuse it
    (429, with Retry-After)."""
    window: SlidingWindow | None = current_app.extensions["hotdice_creates"]
    if window is None:
        return
    wait = window.take(request.remote_addr or "")
    if wait:
        refused = TooManyRequests(
            f"this phone has created {window.most} game{'s' * (window.most != 1)} in the last "
            "minute, the most it may: try again in a minute"
        )
        refused.retry_after = max(1, round(wait))
        raise refused
