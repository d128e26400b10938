"""A whole game as a fold over its events: ``state = apply(state, event)``.

The game log (rules, players, events) is the only record; every state is rebuilt from it,
so undo is dropping the last event and any game can be replayed. Events are plain JSON:
``roll``, ``keep``, ``bank`` and ``takeover`` for roll-by-roll play, ``score`` for tables
that only write down each turn's result.

>>> log = new_log("dice-10000", ["Ann", "Bob"], target=5000)
>>> log["events"] = [{"type": "roll", "dice": [1, 5, 5, 2, 6]},
...                  {"type": "keep", "dice": [1, 5, 5]}, {"type": "bank"}]
>>> state = replay(log)
>>> state.current_player, state.players[0].score
('Bob', 200)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalEvent, IllegalMove, ParseError
from companion.names import folded_name, looks_blank, name_key, plain_text
from companion.rules import (
    MAX_TARGET,
    SCORE_STEP,
    Finish,
    Rules,
    check_winnable,
    load_rules,
)
from companion.scoring import dice_word, distinct_rolls, parse_dice, score_roll
from companion.turn import Phase, Turn, bank_short_of

MAX_PLAYERS = 12
MAX_NAME = 40
EVENT_TYPES = ("roll", "keep", "bank", "takeover", "score")


class GamePhase(enum.Enum):
    """Where the game stands."""

    PLAYING = "playing"
    """Nobody has reached the target yet."""
    FINAL_ROUND = "final_round"
    """Someone reached the target; the players in ``to_play`` still have a turn."""
    TIE_BREAK = "tie_break"
    """Leaders are tied at the end; they play tie-break turns until one leads."""
    BONUS = "bonus"
    """The 5150: players who ever stood at exactly 5150 roll once more."""
    OVER = "over"
    """The game has a winner; no more events."""


@dataclass(frozen=True)
class Player:
    """A player's standing: banked score, on the board, busts in a row."""

    name: str
    score: int = 0
    on_board: bool = False
    busts_in_row: int = 0
    hit_5150: bool = False
    bonus_done: bool = False


@dataclass(frozen=True)
class TurnRecord:
    """One finished turn, a row of the paper scoresheet."""

    player: str
    points: int
    bust: bool
    score: int
    takeover: bool = False
    penalty: int = 0
    kind: str = "dice"
    wins: bool = False
    reason: str = ""
    """Why a rolled turn busted, in the engine's words: at a table the busts worth a dispute
    are the exact finish's (every scoring die kept would pass the target)."""
    phase: str = "playing"
    """The game's phase the turn was played in (``GamePhase``'s value): the sheet marks a
    final round's and a tie-break's turns, as a player marks them on paper."""
    strike: bool = False
    """A bust that completed a run the strike-out penalty counts: its marks start again,
    even where the penalty took nothing (a score of 0), which the sheet then says."""

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "points": self.points,
            "bust": self.bust,
            "score": self.score,
            "takeover": self.takeover,
            "penalty": self.penalty,
            "kind": self.kind,
            "wins": self.wins,
            "reason": self.reason,
            "phase": self.phase,
            "strike": self.strike,
        }


@dataclass(frozen=True)
class Offer:
    """A takeover offer: the next player may go on with this banked turn's dice and total."""

    from_player: int
    turn: Turn


@dataclass(frozen=True)
class GameState:
    """Everything the scoresheet shows, derived from the events so far."""

    rules: Rules
    players: tuple[Player, ...]
    current: int = 0
    phase: GamePhase = GamePhase.PLAYING
    turn: Turn | None = None
    offer: Offer | None = None
    trigger: int | None = None
    to_play: tuple[int, ...] = ()
    tie_break: tuple[int, ...] = ()
    winner: int | None = None
    history: tuple[TurnRecord, ...] = ()
    events: int = 0

    @property
    def current_player(self) -> str | None:
        return None if self.phase is GamePhase.OVER else self.players[self.current].name

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else self.players[self.winner].name

    def index_of(self, name: str) -> int:
        for i, player in enumerate(self.players):
            if player.name == name:
                return i
        raise IllegalMove(f"no player named {name!r}")

    def to_pass(self) -> dict[str, int]:
        """In a final round, what each player still to play needs to pass the top score
        (all but a lone leader): the sum a table works out at every turn, and no less than
        the rules' least bank for that player (`zilch`'s 300). In tie-break turns the same
        once one of the tied players has played this round: their busts under a strike
        penalty may take them below a player outside the tie, whose score counts too.

        >>> log = new_log("ten-thousand", ["Ann", "Bob"], target=2000)
        >>> log["events"] = [{"type": "score", "player": "Ann", "points": 500},
        ...                  {"type": "score", "player": "Bob", "points": 2000}]
        >>> replay(log).to_pass()
        {'Ann': 1550}
        """
        marked = self.phase is GamePhase.TIE_BREAK and len(self.to_play) < len(self.tie_break)
        if self.phase is not GamePhase.FINAL_ROUND and not marked:
            return {}
        top, leaders = self._lead()
        return {
            p.name: max(top - p.score + SCORE_STEP, self.rules.least_bank(on_board=p.on_board))
            for p, i in ((self.players[i], i) for i in self.to_play)
            if leaders != [i]
        }

    def final_round_mark(self) -> dict[str, Any] | None:
        """Who last tied or took the lead in a final round (the player who reached the
        target too): under tie-or-beat that owes every other player a turn again, and a
        sheet says why they play. None outside a final round."""
        if self.phase is not GamePhase.FINAL_ROUND:
            return None
        top, leaders = self._lead()
        setter = next(
            (
                r.player
                for r in reversed(self.history)
                if r.phase == GamePhase.FINAL_ROUND.value and r.score == top and not r.bust
            ),
            None,
        )
        if setter is None:
            return None
        return {"player": setter, "score": top, "tied": len(leaders) > 1}

    def _lead(self) -> tuple[int, list[int]]:
        """The top score among every player, and the seats that hold it."""
        top = max(p.score for p in self.players)
        return top, [i for i, p in enumerate(self.players) if p.score == top]

    def to_json(self) -> dict[str, Any]:
        """The state as ``hotdice replay --json`` prints it and the web API returns it."""
        rules = self.rules
        return {
            "rules": rules.name,
            "target": rules.target,
            "phase": self.phase.value,
            "current_player": self.current_player,
            "players": [
                {
                    "name": p.name,
                    "score": p.score,
                    "on_board": p.on_board,
                    "busts_in_row": p.busts_in_row,
                    "needs": 0 if p.on_board else rules.entry,
                    "hit_5150": p.hit_5150,
                }
                for p in self.players
            ],
            "winner": self.winner_name,
            "turn": self._turn_json(),
            "takeover": None
            if self.offer is None or self.phase is GamePhase.OVER
            else {
                "from": self.players[self.offer.from_player].name,
                "dice": self.offer.turn.dice_left,
                "total": self.offer.turn.total,
                "past_target": rules.takeover_only_busts(
                    self.players[self.current].score + self.offer.turn.total
                ),
            },
            "final_round": None
            if self.phase is not GamePhase.FINAL_ROUND
            else {
                "triggered_by": self.players[self.trigger].name
                if self.trigger is not None
                else None,
                "to_play": [self.players[i].name for i in self.to_play],
                "to_pass": self.to_pass(),
                "mark": self.final_round_mark(),
            },
            "tie_break": None
            if self.phase is not GamePhase.TIE_BREAK
            else {
                "players": [self.players[i].name for i in self.tie_break],
                "to_play": [self.players[i].name for i in self.to_play],
                "to_pass": self.to_pass(),
            },
            "bonus": None
            if self.phase is not GamePhase.BONUS
            else {
                "to_play": [self.players[i].name for i in self.to_play],
            },
            "history": [r.to_json() for r in self.history],
            "events": self.events,
        }

    def _turn_json(self) -> dict[str, Any] | None:
        turn = self.turn
        if turn is None:
            return None
        options = turn.options()
        return {
            "player": self.players[self.current].name,
            "total": turn.total,
            "dice_left": turn.dice_left,
            "hot_dice": turn.hot_dice,
            "awaiting": turn.phase.value,
            "roll": list(turn.last_roll) if turn.last_roll else None,
            "options": [k.to_json() for k in options],
            "can_bank": turn.can_bank,
            "bank_refusal": turn.bank_refusal(),
            "must_roll": turn.must_roll,
            "takeover": turn.takeover,
            "steps": [s.to_json() for s in turn.steps],
        }


# --- the log ---------------------------------------------------------------------------


def _check_players(players: Any, *, strict: bool = True) -> tuple[str, ...]:
    """Usable player names. ``strict`` (a new game) folds them as the web's are
    (`folded_name`) and tells them apart as they look (`name_key`); a recorded game's are
    kept as typed and told apart by case alone, as when it was made, so it still replays."""
    same = name_key if strict else str.casefold
    if isinstance(players, str) or not isinstance(players, list | tuple) or not players:
        raise ParseError("players must be a non-empty list of names")
    if len(players) > MAX_PLAYERS:  # (first: the name checks below take n squared)
        raise ParseError(f"at most {MAX_PLAYERS} players, got {len(players)}")
    names: list[str] = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise ParseError(f"a player's name must be non-empty text, not {name!r}")
        name = folded_name(name) if strict else name.strip()
        if len(name) > MAX_NAME:
            raise ParseError(f"a player's name is at most {MAX_NAME} characters: {name[:20]!r}...")
        if not plain_text(name):
            raise ParseError(f"a player's name must be plain text, not {name!r}")
        if strict and looks_blank(name):  # (a recorded game's still replays)
            raise ParseError(f"a player's name must show something, not {name!r}")
        if same(name) in (same(n) for n in names):
            raise ParseError(f"two players are named {name!r}")
        names.append(name)
    return tuple(names)


def new_log(
    rules: str | Mapping[str, Any],
    players: Sequence[str],
    target: int | None = None,
    *,
    strict: bool = True,
) -> dict[str, Any]:
    """A fresh game log, checked: the rules load and the player names are usable
    (``strict=False``: rules as an earlier version recorded them, ``load_rules``); a new
    game must be winnable (``check_winnable``)."""
    loaded = load_rules(rules, target=target, strict=strict)
    if strict:
        check_winnable(loaded)
    log: dict[str, Any] = {
        "rules": rules if isinstance(rules, str) else dict(rules),
        "players": list(_check_players(players, strict=strict)),
        "events": [],
    }
    if target is not None:
        log["target"] = target
    return log


def new_game(rules: Rules, players: Sequence[str], *, strict: bool = True) -> GameState:
    """The state before the first event: every player at 0, the first name to play
    (``strict=False``: the names of a recorded game, `_check_players`)."""
    return GameState(rules, tuple(Player(n) for n in _check_players(players, strict=strict)))


def start(log: Mapping[str, Any]) -> GameState:
    """The initial state of a game log (its events not yet applied)."""
    if not isinstance(log, Mapping):
        raise ParseError("a game log must be a JSON object")
    for key in ("rules", "players"):
        if key not in log:
            raise ParseError(f"a game log needs {key!r}")
    target = log.get("target")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise ParseError(f"target must be a whole number, not {target!r}")
    rules = load_rules(log["rules"], target=target, strict=False)  # (recorded: as it was)
    return new_game(rules, log["players"], strict=False)


def replay(log: Mapping[str, Any]) -> GameState:
    """Fold every event of a log; an illegal event raises ``IllegalEvent`` with its index."""
    state = start(log)
    events = log.get("events", [])
    if not isinstance(events, list):
        raise ParseError("'events' must be a list")
    for index, event in enumerate(events):
        try:
            state = apply(state, event)
        except IllegalEvent as error:
            raise IllegalEvent(error.reason, index) from None
    return state


def undo(log: Mapping[str, Any]) -> dict[str, Any]:
    """The log without its last event (the state is whatever replaying that gives)."""
    events = list(log.get("events", []))
    if not events:
        raise IllegalMove("nothing to undo")
    return {**log, "events": events[:-1]}


@functools.lru_cache(maxsize=64)
def bonus_scores(rules: Rules) -> frozenset[int]:
    """What the 5150 bonus (one roll of all the dice, its best keep added) can add: a quick
    score in that phase must be one of these, 0 for a roll with nothing to keep."""
    return frozenset(
        best.points if (best := score_roll(rules, roll).best) else 0
        for roll, _ in distinct_rolls(rules.dice)
    )


def roll_off(rolls: Mapping[str, int]) -> tuple[str | None, list[str]]:
    """Who starts: each player rolls one die, highest starts, tied leaders roll again."""
    if not isinstance(rolls, Mapping):  # (a list of dice says not whose each is)
        raise ParseError(f"rolls must map each player to one die, not a {type(rolls).__name__}")
    if not rolls:
        raise ParseError("nobody rolled")
    for name, value in rolls.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise ParseError(f"{name} must roll one die from 1 to 6, not {value!r}")
    top = max(rolls.values())
    leaders = [name for name, value in rolls.items() if value == top]
    return (leaders[0], []) if len(leaders) == 1 else (None, leaders)


def roll_off_rounds(
    players: Sequence[str], rounds: Sequence[Mapping[str, int]]
) -> tuple[str | None, list[str]]:
    """`roll_off` over the rounds rolled so far: the first round is every player's, each
    later one only the players the round before left tied, so a tie is settled among them
    and a partial roll cannot pick the starter."""
    if not rounds:
        raise ParseError("nobody rolled")
    must = list(players)
    winner: str | None = None
    for k, rolls in enumerate(rounds):
        if winner is not None:
            raise ParseError(f"round {k + 1}: {winner} already starts; no more rounds")
        if sorted(rolls) != sorted(must):
            missing = [p for p in must if p not in rolls]
            if missing and set(rolls) <= set(must):  # (only some rolled: say who is left)
                raise ParseError(f"round {k + 1}: {' and '.join(missing)} must roll too")
            who = "every player" if k == 0 else "the tied players"
            raise ParseError(f"round {k + 1} must have a roll from {who}: {', '.join(must)}")
        winner, must = roll_off(rolls)
    return winner, must


# --- applying one event ----------------------------------------------------------------


def apply(state: GameState, event: Any) -> GameState:
    """The state after one event; raises ``IllegalEvent`` (state untouched) if it is not allowed."""
    try:
        return replace(_apply(state, event), events=state.events + 1)
    except IllegalEvent:
        raise
    except ValueError as error:
        raise IllegalEvent(str(error)) from None


def _apply(state: GameState, event: Any) -> GameState:
    if not isinstance(event, Mapping):
        raise ParseError(f"an event must be an object, not {event!r}")
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        if kind is None:
            raise ParseError(f"an event needs 'type', one of: {', '.join(EVENT_TYPES)}")
        raise ParseError(f"unknown event type {kind!r}; types: {', '.join(EVENT_TYPES)}")
    if state.phase is GamePhase.OVER:
        raise IllegalMove(f"the game is over: {state.winner_name} won")
    name = state.players[state.current].name
    if kind == "score":
        return _quick_score(state, event)
    if kind == "takeover":
        return _takeover(state, event)
    if kind == "roll":
        dice = _event_dice(event)
        if state.phase is GamePhase.BONUS:
            return _bonus_roll(state, dice)
        turn = state.turn
        if turn is None:
            player = state.players[state.current]
            turn = Turn.start(state.rules, score=player.score, on_board=player.on_board)
            if len(dice) != turn.dice_left:
                hint = (
                    ""
                    if state.offer is None
                    else (
                        f" (to roll the {dice_word(state.offer.turn.dice_left)} left by "
                        f"{state.players[state.offer.from_player].name}, accept the takeover first)"
                    )
                )
                raise IllegalMove(
                    f"{name} starts a turn by rolling all {turn.dice_left} dice, "
                    f"not {len(dice)}{hint}"
                )
            state = replace(state, offer=None)
        turn = turn.roll(dice)
        state = replace(state, turn=turn)
        if turn.phase is Phase.BUST:
            return _finish_turn(state, points=0, bust=True)
        return state
    if state.turn is None:
        raise IllegalMove(f"{name} has not rolled yet this turn")
    if kind == "keep":
        turn = state.turn.keep(_event_dice(event))
        if turn.phase is Phase.WON:
            return _finish_turn(replace(state, turn=turn), points=turn.total, bust=False, wins=True)
        return replace(state, turn=turn)
    turn = state.turn.bank()
    return _finish_turn(replace(state, turn=turn), points=turn.total, bust=False)


def _event_dice(event: Mapping[str, Any]) -> tuple[int, ...]:
    dice = event.get("dice")
    if not isinstance(dice, list):
        raise ParseError(f"a {event.get('type')} event needs 'dice', a list of values 1-6")
    for die in dice:  # (a log is JSON: "5" in it is a slip the API refuses too, not a 5)
        if isinstance(die, str):
            raise ParseError(f"a die must be a number from 1 to 6, not {die!r}")
    if not dice and event.get("type") == "keep":
        raise IllegalMove("a keep needs at least one scoring die")
    return parse_dice(dice)


def _takeover(state: GameState, event: Mapping[str, Any]) -> GameState:
    accept = event.get("accept")
    if not isinstance(accept, bool):
        raise ParseError("a takeover event needs 'accept': true or false")
    if state.offer is None or state.turn is not None:
        raise IllegalMove("there is no takeover offer to answer")
    if not accept:
        return replace(state, offer=None)
    player = state.players[state.current]
    turn = state.offer.turn.handed_to(score=player.score, on_board=player.on_board)
    return replace(state, offer=None, turn=turn)


def check_named(state: GameState, event: Mapping[str, Any]) -> None:
    """Refuse an event whose ``player`` is not the one whose turn it is. A ``score`` event
    must name its player; any other event may, and the name is then checked before the
    event is recorded, so a log never credits a turn to someone else. `apply` checks it
    for ``score`` alone: a roll naming the wrong player, stored before the web checked,
    still replays (the web checks every new event: `web.store`)."""
    who = event.get("player")
    if who is None:
        return
    name = state.players[state.current].name
    if not isinstance(who, str):
        raise ParseError(f"'player' must be the name of whose turn it is, not {who!r}")
    if who != name:
        state.index_of(who)
        raise IllegalMove(f"it is {name}'s turn, not {who}'s")


def _quick_score(state: GameState, event: Mapping[str, Any]) -> GameState:
    rules = state.rules
    player = state.players[state.current]
    who, points = event.get("player"), event.get("points")
    if who is None:
        raise ParseError("a score event needs 'player', the name of whose turn it is")
    if isinstance(points, bool) or not isinstance(points, int):
        raise ParseError(f"'points' must be a whole number, not {points!r}")
    check_named(state, event)
    if state.turn is not None:
        raise IllegalMove(f"{player.name} is playing this turn roll by roll; finish it first")
    if points < 0 or points % SCORE_STEP:
        raise IllegalMove(f"a turn scores a multiple of {SCORE_STEP} and at least 0, not {points}")
    if points > MAX_TARGET:  # (a typo's extra digits, not a turn: no game goes so far)
        raise IllegalMove(f"a turn scores at most {MAX_TARGET:,}, not {points:,}")
    if state.phase is GamePhase.BONUS and points not in bonus_scores(rules):
        raise IllegalMove(
            f"the bonus is one roll of all {rules.dice} dice, its best keep added: "
            f"{points:,} is not what one roll can score"
        )
    if points and state.phase is not GamePhase.BONUS:
        short = bank_short_of(rules, points, on_board=player.on_board)
        if short:
            raise IllegalMove(f"{player.name}: {short}")
        if rules.past_exact_target(player.score + points):
            raise IllegalMove(
                f"{player.score:,} + {points:,} would pass {rules.target:,}: "
                "that turn is a bust (record 0 points)"
            )
    state = replace(state, offer=None)
    bonus = state.phase is GamePhase.BONUS  # (the 5150's roll, entered as its points)
    return _finish_turn(state, points=points, bust=points == 0, kind="bonus" if bonus else "quick")


def _bonus_roll(state: GameState, dice: tuple[int, ...]) -> GameState:
    if state.turn is not None:
        raise IllegalMove("the bonus roll is a single roll")
    if len(dice) != state.rules.dice:
        raise IllegalMove(f"the bonus roll is of all {state.rules.dice} dice")
    best = score_roll(state.rules, dice).best
    if best is None:
        return _finish_turn(state, points=0, bust=True, kind="bonus")
    # (a roll that wins at once wins as the bonus roll too: farke's six 1s "in one roll")
    return _finish_turn(state, points=best.points, bust=False, kind="bonus", wins=best.wins)


# --- the end of a turn and who plays next -------------------------------------------------


def _finish_turn(
    state: GameState, *, points: int, bust: bool, kind: str = "dice", wins: bool = False
) -> GameState:
    rules = state.rules
    p = state.current
    player = state.players[p]
    turn = state.turn
    penalty = 0
    strike = False
    bonus = state.phase is GamePhase.BONUS
    if bust:
        busts = player.busts_in_row + (0 if bonus else 1)
        if rules.strike_penalty and busts >= rules.strike_after:
            penalty = min(rules.strike_penalty, player.score)
            busts = 0
            strike = True
        player = replace(player, score=player.score - penalty, busts_in_row=busts)
    else:
        player = replace(player, score=player.score + points, on_board=True, busts_in_row=0)
    if rules.the_5150 and player.score == 5150:
        player = replace(player, hit_5150=True)
    if bonus:
        player = replace(player, bonus_done=True)
    top_before = max(q.score for q in state.players)
    players = tuple(player if i == p else q for i, q in enumerate(state.players))
    record = TurnRecord(
        player.name,
        0 if bust else points,
        bust,
        player.score,
        takeover=bool(turn and turn.takeover),
        penalty=penalty,
        kind=kind,
        wins=wins,
        reason=turn.bust_reason if bust and turn is not None else "",
        phase=state.phase.value,
        strike=strike,
    )
    state = replace(state, players=players, turn=None, offer=None, history=(*state.history, record))
    if wins:
        return replace(state, phase=GamePhase.OVER, winner=p, to_play=())
    banked = turn if turn is not None and turn.phase is Phase.BANKED else None
    phase = state.phase
    if phase in (GamePhase.BONUS, GamePhase.TIE_BREAK):  # (each owed turn once, then settle)
        state = _next_of(state, p, _without(state.to_play, p))
        return state if state.to_play else _resolve(state, after=p)
    if rules.finish in (Finish.FIRST_TO_TARGET, Finish.EXACT):
        reached = (
            player.score >= rules.target
            if rules.finish is Finish.FIRST_TO_TARGET
            else (player.score == rules.target)
        )
        if reached and rules.finish is Finish.EXACT:  # ("wins at once", as an instant win:
            # no 5150 bonus roll, which could only pass the target or tie it for ever)
            return replace(state, phase=GamePhase.OVER, winner=p, to_play=())
        if reached:
            return _would_end(state, p)
        return _with_offer(_next_of(state, p, range(len(players))), p, banked)
    if phase is GamePhase.PLAYING:
        if player.score < rules.target:
            return _with_offer(_next_of(state, p, range(len(players))), p, banked)
        others = _seating_after(p, [i for i in range(len(players)) if i != p], len(players))
        state = replace(state, phase=GamePhase.FINAL_ROUND, trigger=p, to_play=others)
    else:
        owed = _without(state.to_play, p)
        if (
            rules.finish is Finish.TIE_OR_BEAT
            and not bust
            and points
            and (player.score >= top_before)
        ):
            owed = tuple(i for i in range(len(players)) if i != p)
        state = replace(state, to_play=_seating_after(p, list(owed), len(players)))
    if not state.to_play:
        return _resolve(state, after=p)
    return _with_offer(replace(state, current=state.to_play[0]), p, banked)


def _without(order: tuple[int, ...], p: int) -> tuple[int, ...]:
    return tuple(i for i in order if i != p)


def _seating_after(p: int, indices: Sequence[int], n: int) -> tuple[int, ...]:
    """Indices in seating order, starting with the first seat after p."""
    return tuple(sorted(set(indices), key=lambda i: (i - p - 1) % n))


def _next_of(state: GameState, p: int, candidates: Sequence[int]) -> GameState:
    """Move play to the first of ``candidates`` after p; they stay owed turns where listed."""
    order = _seating_after(p, candidates, len(state.players))
    if state.phase in (GamePhase.BONUS, GamePhase.TIE_BREAK, GamePhase.FINAL_ROUND):
        state = replace(state, to_play=order)
    return replace(state, current=order[0]) if order else state


def _with_offer(state: GameState, p: int, banked: Turn | None) -> GameState:
    """After a bank by dice, the next player (if on the board) may take the dice over."""
    if (
        banked is None
        or not state.rules.takeover
        or state.phase in (GamePhase.OVER, GamePhase.TIE_BREAK, GamePhase.BONUS)
        or state.current == p
        or not state.players[state.current].on_board
    ):
        return state
    return replace(state, offer=Offer(p, banked))


def _resolve(state: GameState, *, after: int) -> GameState:
    """The last owed turn is played: the 5150 bonus rolls come first (a bonus may break a
    tie, or make one), then a single leader ends the game and tied leaders play on,
    starting with the first of them to sit after the player who just played. The leaders
    are taken among every player, after tie-break turns too: busts there under a strike
    penalty can take the tied players below one outside the tie."""
    bonus = _bonus_rolls(state)
    if bonus is not None:
        return bonus
    leaders = _seating_after(after, state._lead()[1], len(state.players))
    if len(leaders) == 1:
        return _would_end(state, leaders[0])
    return replace(
        state,
        phase=GamePhase.TIE_BREAK,
        tie_break=leaders,
        to_play=leaders,
        current=leaders[0],
        offer=None,
    )


def _would_end(state: GameState, winner: int) -> GameState:
    """The game would end: first the 5150 bonus rolls, then the winner."""
    bonus = _bonus_rolls(state)
    if bonus is not None:
        return bonus
    return replace(state, phase=GamePhase.OVER, winner=winner, to_play=(), offer=None)


def _bonus_rolls(state: GameState) -> GameState | None:
    """The 5150 bonus rolls still owed (players who ever stood at exactly 5150), as the
    phase that plays them; None when none is."""
    owed = tuple(i for i, q in enumerate(state.players) if q.hit_5150 and not q.bonus_done)
    if not state.rules.the_5150 or not owed:
        return None
    return replace(state, phase=GamePhase.BONUS, to_play=owed, current=owed[0], offer=None)
