"""The two ways input can be wrong, both ``ValueError`` so callers can catch either.

``ParseError`` is for input that cannot be understood at all (a die of 7, an unknown rule
set, a malformed game log); ``IllegalMove`` for input that is well formed but not allowed in
the current state (a keep that does not score, banking below the entry threshold).
"""

from __future__ import annotations


class ParseError(ValueError):
    """Input that cannot be read: bad dice, unknown rules, a malformed log."""


class IllegalMove(ValueError):
    """A well-formed action that the rules forbid in the current state."""


class IllegalEvent(IllegalMove):
    """An event of a game log that the rules forbid; ``index`` is its position in the log."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.reason = message

    def __str__(self) -> str:
        if self.index is None:
            return self.reason
        return f"event {self.index + 1}: {self.reason}"


MESSAGE_LIMIT = 300
"""Characters an error message may take: it is one line on a terminal or a phone."""


def brief(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """The message on one line, an echoed input of any size cut in the middle (a 100 KB
    rule name made a 100 KB "one-line" error); both ends stay, which say what and why."""
    text = " ".join(message.splitlines())
    cut = len(text) - limit
    notice = f" [... {cut:,} characters cut ...] "
    if cut <= len(notice):  # (cutting would not make it shorter)
        return text
    head = limit * 2 // 3
    return f"{text[:head]}{notice}{text[len(text) - (limit - head) :]}"
