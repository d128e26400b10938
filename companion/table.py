"""A table around its game: who sits down, the roll for first player, and the game's events,
as one fold over the table's rows (``table = table.add(kind, payload)``).

A game log (`game.replay`) needs its players seated. A shared scoresheet fills in before
that, one row at a time from any phone: a player joins, a roll for first player ties (so
every phone shows who rolls again) or seats the table, and Undo takes the last row back.
Once the first event of the game is recorded, the seating is fixed. Keeping these rules
here, beside the game's, leaves the web's store only the storing.

>>> table = Table(("Ann",)).add("join", {"player": " Bob "})
>>> table.players
('Ann', 'Bob')
>>> table = table.add("tie", {"rolls": [{"Ann": 5, "Bob": 5}], "on": 2})
>>> table.roll_again
['Ann', 'Bob']
>>> winner, _, rounds = table.roll_off([{"Ann": 2, "Bob": 6}], every_round=False)
>>> table.add("seat", {"players": seating_from(table.players, winner)}).seated
['Bob', 'Ann']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .errors import IllegalMove, ParseError
from .game import MAX_NAME, MAX_PLAYERS, roll_off_rounds
from .names import folded_name, looks_blank, name_key, plain_text

KINDS = ("join", "tie", "seat", "game")
"""The rows a table is made of: a player added before the first turn, a roll for first
player that left players tied (every round so far), the seating after a roll for first
player, and an event of the game log."""

MAX_ROLL_OFF_ROUNDS = 20
"""Tied rounds a roll for first player may record (twenty ties in a row is a table playing
with the sheet: each tie's row holds every round so far, so the cap keeps a table's rows
small); the one round after them that decides it is still taken."""

SEATING_FIXED = "players and seating are fixed once the first turn is recorded"

Row = tuple[str, Mapping[str, Any]]


def clean_players(
    players: Any, *, stored: Sequence[str] = (), max_name: int = MAX_NAME
) -> list[str]:
    """Player names: a list of distinct, non-empty names of at most ``max_name``
    characters (white space folded, direction controls dropped), after the names already
    `stored` (a join's), which are not checked again: a seating saved under older checks
    still takes a player. A name that cannot be one is a ``ParseError``; a name taken, or
    a table full, an ``IllegalMove``."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ParseError("players must be a list of names")
    names = [folded_name(p) for p in players]
    if any(not n for n in names):
        raise ParseError("a player name is empty")
    if not all(plain_text(n) and not looks_blank(n) for n in names):
        raise ParseError("a player name must be plain text to see, without control characters")
    long = [n for n in names if len(n) > max_name]
    if long:
        raise ParseError(f"a player name is longer than {max_name} characters: {long[0][:24]}…")
    seen: dict[str, str] = {name_key(name): name for name in stored}
    for name in names:
        key = name_key(name)
        twin = seen.get(key)
        if twin is not None:  # (the second of two: say which, as the sheet shows it)
            looks = f"{name} is" if name == twin else f"{name} looks like {twin}, who is"
            raise IllegalMove(f"{looks} already a player: two players cannot have the same name")
        seen[key] = name
    if len(stored) + len(names) > MAX_PLAYERS:
        raise IllegalMove(f"at most {MAX_PLAYERS} players")
    return [*stored, *names]


def seating_from(players: Sequence[str], first: str) -> list[str]:
    """Keep the seating order around the table, starting with ``first``."""
    i = list(players).index(first)
    return [*players[i:], *players[:i]]


@dataclass(frozen=True)
class Table:
    """The players a game was made with and the table's rows that still count, in order."""

    made_with: tuple[str, ...]
    rows: tuple[Row, ...] = ()

    @cached_property
    def players(self) -> tuple[str, ...]:
        """The seating now: the names the game was made with, the joins after them, in the
        order the last roll for first player decided."""
        players = list(self.made_with)
        for kind, payload in self.rows:
            if kind == "join":  # (folded again: rows stored before session 31 kept it as typed)
                players.append(folded_name(payload["player"]))
            elif kind == "seat":
                players = list(payload["players"])
        return tuple(players)

    @cached_property
    def events(self) -> tuple[Mapping[str, Any], ...]:
        """The game log's events."""
        return tuple(payload for kind, payload in self.rows if kind == "game")

    @property
    def started(self) -> bool:
        """True once the first event of the game log is recorded."""
        return bool(self.events)

    @property
    def tie_rounds(self) -> list[dict[str, int]]:
        """The rounds of a roll for first player that is still tied (a join or a seating
        ends it), else none."""
        rounds: list[dict[str, int]] = []
        for kind, payload in self.rows:
            if kind == "tie":
                rounds = payload["rolls"]
            elif kind in ("join", "seat"):
                rounds = []
        return rounds

    @property
    def roll_again(self) -> list[str]:
        """Who rolls again for first player (the players the recorded tie left level)."""
        rounds = self.tie_rounds
        return roll_off_rounds(self.players, rounds)[1] if rounds else []

    @property
    def tie_ended_by(self) -> str | None:
        """Who joined while the roll for first player was tied, ending the tie (everyone
        rolls again, the newcomer too): a sheet says so, or the tie would vanish unsaid."""
        first_join = len(self.rows)  # (of the joins that end the rows)
        while first_join and self.rows[first_join - 1][0] == "join":
            first_join -= 1
        if first_join in (0, len(self.rows)) or self.rows[first_join - 1][0] != "tie":
            return None
        return str(self.rows[first_join][1]["player"])

    @property
    def roll_off_round(self) -> str:
        """Which round of the roll for first player the phones pick dice for: the seatings
        recorded, the tied rounds still standing (a join or an undo ends a tie; the tie's
        words repeat from round to round) and the version the last tie or seating was
        recorded on (one taken back and recorded again is another round)."""
        seats = sum(kind == "seat" for kind, _ in self.rows)
        last = next((p for k, p in reversed(self.rows) if k in ("tie", "seat")), {})
        return f"{seats}-{len(self.tie_rounds)}-{last.get('on', '')}"

    @property
    def seated(self) -> list[str] | None:
        """The seating a roll for first player decided, while it stands (a join since asks
        for another roll: the newcomer rolls too)."""
        for kind, payload in reversed(self.rows):
            if kind in ("join", "tie"):
                return None
            if kind == "seat":
                return list(payload["players"])
        return None

    @property
    def first_rolls(self) -> list[dict[str, int]]:
        """The dice of the roll for first player that stand, round by round: a recorded
        tie's, or those of the seating they decided while it stands (a join since asks for
        another roll). For a screen that shows how it went, not only who starts."""
        if rounds := self.tie_rounds:
            return rounds
        for kind, payload in reversed(self.rows):
            if kind in ("join", "tie"):
                return []
            if kind == "seat":
                return list(payload.get("rolls", []))
        return []

    def add(self, kind: str, payload: Mapping[str, Any], *, max_name: int = MAX_NAME) -> Table:
        """The table with one more row, or ``ValueError`` with the reason it is not allowed.

        Only a game event follows the first one. A join's name is cleaned (`clean_players`,
        names of at most ``max_name`` characters); the row kept holds it as cleaned. The
        game's own rules judge a game event (`game.apply`); here only a tie left standing
        stops it, as every phone shows the tie.
        """
        if kind not in KINDS:
            raise ParseError(f"a table's row is one of {', '.join(KINDS)}, not {kind!r}")
        if kind == "game":
            if not self.started and self.roll_again:
                raise IllegalMove(
                    f"the roll for first player is tied: {' and '.join(self.roll_again)} roll "
                    "again first (or Undo takes the tie back)"
                )
        elif self.started:
            raise IllegalMove(SEATING_FIXED)
        elif kind == "join":
            names = clean_players([payload["player"]], stored=self.players, max_name=max_name)
            payload = {"player": names[-1]}
        elif kind == "seat" and sorted(payload["players"]) != sorted(self.players):
            raise IllegalMove(f"the seating must list the same players: {', '.join(self.players)}")
        return Table(self.made_with, (*self.rows, (kind, payload)))

    def undone(self) -> Table:
        """The table without its last row (``IllegalMove`` if it has none)."""
        if not self.rows:
            raise IllegalMove("nothing to undo")
        return Table(self.made_with, self.rows[:-1])

    def roll_off(
        self, rounds: list[dict[str, int]], *, every_round: bool
    ) -> tuple[str | None, list[str], list[dict[str, int]]]:
        """Who starts: (winner, who rolls again, every round so far), by
        `game.roll_off_rounds`.

        A single round sent continues a recorded tie; a list of rounds (``every_round``) is
        the whole roll from the first round, starting with the recorded ones. Only the
        players at the table may roll, every one of them in the first round, only the tied
        ones after.
        """
        if self.started:  # (a tie would otherwise be recorded for nothing)
            raise IllegalMove(SEATING_FIXED)
        if self.seated:  # (another roll would re-seat a table every phone saw settled)
            raise IllegalMove(
                f"{self.seated[0]} already won the roll for first player (Undo takes it back)"
            )
        if any(set(rolls) - set(self.players) for rolls in rounds):
            raise IllegalMove("a roll names someone who is not in this game")
        recorded = self.tie_rounds
        if not every_round:
            rounds = [*recorded, *rounds]
        elif rounds[: len(recorded)] != recorded or len(rounds) == len(recorded):
            raise IllegalMove(
                f"the roll for first player so far is recorded ({len(recorded)} round(s)): "
                "send the tied players' new round, or every round starting with the recorded ones"
            )
        winner, again = roll_off_rounds(self.players, rounds)
        # (one round that decides it is always taken: a tie left at the cap, or past it by
        # a hotdice of before the cap, had the table undo rounds before it could start)
        deciding = winner is not None and len(rounds) == len(recorded) + 1
        if len(rounds) > MAX_ROLL_OFF_ROUNDS and not deciding:
            raise IllegalMove(
                f"the roll for first player stops at {MAX_ROLL_OFF_ROUNDS} tied rounds: "
                "roll again until one player is highest, or Undo takes the ties back"
            )
        return winner, again, rounds
