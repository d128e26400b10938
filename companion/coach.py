"""The coach: which question to ask the strategy advisor for the player to act in a game.

A game's state decides what is worth what: between turns or mid-turn, expected points; a
takeover offer, both starts; the last player of a final round or tie-break, the chance to
pass the leader, a tie valued by the tie-break that follows (``tie_break``); a player with
others still to play after them, points, no bank short of the leader valued.

>>> from companion.game import new_game
>>> from companion.rules import load_rules
>>> advise_game(new_game(load_rules("farkle"), ["Ann", "Bob"]))["situation"]
'fresh'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.advice import advise_state, advise_turn, state_key
from companion.game import GamePhase, GameState
from companion.rules import Finish
from companion.strategy_dp import UNIT
from companion.tie_break import tie_break_chance, tie_break_first_turn
from companion.turn import Phase, Turn


def _need_to_lead(state: GameState) -> int | None:
    """In a final round or tie-break a player plays to pass the leader (the lead plus 50);
    otherwise None, and the advice maximises the expected score."""
    if state.phase not in (GamePhase.FINAL_ROUND, GamePhase.TIE_BREAK):
        return None
    me = state.players[state.current]
    others = [p.score for i, p in enumerate(state.players) if i != state.current]
    need = max(others, default=0) + UNIT - me.score
    return need if need > 0 else None


def _still_to_play(state: GameState) -> list[str]:
    """Who plays after the current player in this final round or tie-break: under
    tie-or-beat everyone else, as a tie or a pass gives them another turn."""
    if state.phase not in (GamePhase.FINAL_ROUND, GamePhase.TIE_BREAK):
        return []
    if state.phase is GamePhase.FINAL_ROUND and state.rules.finish is Finish.TIE_OR_BEAT:
        return [p.name for i, p in enumerate(state.players) if i != state.current]
    return [state.players[i].name for i in state.to_play if i != state.current]


def _bank_from(state: GameState, need: int | None) -> tuple[int, str]:
    """The least worth banking for a player who others still follow, and why: reaching
    the leader (a tie stays in the game), or the rules' least bank where that is more. (An
    entry threshold never is: the leader met it, and a player not on the board has 0.)"""
    tie = (need or UNIT) - UNIT
    if tie >= state.rules.min_bank:
        return tie, "level with the leader"
    return state.rules.min_bank, "the rules' least bank"


def needs_the_race(state: GameState) -> bool:
    """Whether the advice for the player to act rests on the solved tie-break race: the
    last of a final round or tie-break values a tie by it (``tie_break.tie_break_chance``),
    the first of two in a tie-break plays it (``tie_break.tie_break_first_turn``)."""
    last = _need_to_lead(state) is not None and not _still_to_play(state)
    return last or _first_of_two_in_a_tie_break(state)


def _tie_value(state: GameState) -> tuple[float, str]:
    """What a bank that ties on top is worth to the last player of a final round or
    tie-break, and why: the tied players play tie-break turns, this player last. Two tied:
    the second player's chance, solved (``tie_break.tie_break_chance``); more: an even share
    (the last of three or more also knows the marks, but that race is not solved)."""
    others = [p.score for i, p in enumerate(state.players) if i != state.current]
    tied = 1 + others.count(max(others))
    if tied == 2:
        return tie_break_chance(state.rules), "you would play second in the tie-break"
    return 1.0 / tied, f"an even share of a tie-break among {tied}"


def _first_of_two_in_a_tie_break(state: GameState) -> bool:
    """The first of two players in a tie-break: the race is solved (``tie_break``), so their
    advice is their chance to win it, not points."""
    return (
        state.phase is GamePhase.TIE_BREAK
        and len(state.tie_break) == 2
        and (state.current == state.tie_break[0])
    )


def _as_chances_in_the_race(turn: Turn, advice: dict[str, Any]) -> None:
    """Put the first tie-break player's chances to win (``tie_break.tie_break_first_turn``)
    in place of the expected points of ``advise_turn``'s advice for ``turn``; its
    legality (what may be banked, which keeps) stays."""
    values = tie_break_first_turn(turn.rules)
    index = {key: n for n, key in enumerate(values.keys)}
    hot = len(values.keys)  # (the row of arriving with hot dice)

    def roll(row: int, t: int) -> float:  # (past the totals solved, banking is best)
        return values.roll[row][t] if t < len(values.roll[row]) else -1.0

    def bank(t: int, row: int) -> float | None:  # (None: no bank allowed there)
        return values.bank[t] if t < len(values.bank) else values.arriving(row, t)

    if "options" in advice:
        for option in advice["options"]:
            after = turn.keep(option["keep"])
            t = after.total // UNIT
            if after.phase is Phase.WON:
                option["chance"] = 1.0
            else:
                row = index[state_key(after)]
                option["chance"] = values.arriving(hot if after.hot_dice else row, t)
                banked = None if after.must_roll else bank(t, row)
                option["then"] = "bank" if banked is not None and banked >= roll(row, t) else "roll"
            del option["expected"]
        advice["options"].sort(key=lambda o: (-o["chance"], len(o["keep"]), o["keep"]))
        return
    t = turn.total // UNIT
    row = index[state_key(turn)]
    rolled = roll(row, t)
    banked = bank(t, row) if advice["can_bank"] else None
    advice["chance_if_roll"] = rolled if rolled >= 0 else None
    advice["chance_if_bank"] = banked
    advice["advice"] = "bank" if banked is not None and banked >= rolled else "roll"
    del advice["expected_if_roll"], advice["expected_if_bank"]


def _say_what_the_rules_allow(turn: Turn, advice: dict[str, Any]) -> None:
    """Put the engine's own ``can_bank`` and refusal into advice given under the coach's
    stricter bank minimum, and say why a bank the rules allow is not valued."""
    advice["can_bank"] = turn.can_bank
    advice.pop("bank_refusal", None)
    refusal = turn.bank_refusal()
    if refusal:
        advice["bank_refusal"] = refusal
    elif advice.get("expected_if_bank") is None:
        advice["bank_short"] = f"a bank of {turn.total:,} leaves you behind the leader"


def nothing_to_decide(state: GameState) -> bool:
    """The game is over, or a 5150 bonus roll (a single roll, no choice) is due: the web
    answers at once without taking a slot of heavy work."""
    return state.phase in (GamePhase.OVER, GamePhase.BONUS)


def advise_game(state: GameState) -> dict[str, Any] | None:
    """Advice for the player to act in a game, labelled with its ``situation``.

    ``keep`` (a roll waits for a keep: keeps ranked), ``bank_or_roll`` (dice in hand),
    ``fresh`` (between turns), ``takeover`` (an offer is pending: take it or start afresh),
    or ``unavailable`` (a state the advisor cannot value, with its reason). None when there is
    nothing to decide: the game is over, or a 5150 bonus roll (a single roll) is due.
    """
    if nothing_to_decide(state):
        return None
    me = state.players[state.current]
    need = _need_to_lead(state)
    busts = me.busts_in_row
    head: dict[str, Any] = {"player": me.name}
    bonus = [p.name for p in state.players if p.hit_5150 and not p.bonus_done]
    if state.rules.the_5150 and bonus and need is not None:
        # (the chances count this turn and the tie, not the bonus rolls before the end)
        rollers = ", ".join("yours" if name == me.name else name for name in bonus)
        head["not_counted"] = f"the 5150 bonus roll still to come ({rollers})"
    rules, turn, offer = state.rules, state.turn, state.offer.turn if state.offer else None
    later = _still_to_play(state)
    try:
        if later:
            # Passing the leader does not win yet: the chance of making the lead would call
            # a bank of 50 in a tie-break a sure thing. Play for points, and value no bank
            # that leaves the player behind the leader (the game ends this round: no strike
            # penalty to weigh either).
            bank_from, why = _bank_from(state, need)
            head.update(still_to_play=later, bank_from=bank_from, bank_from_why=why)
            owed = {state.players[i].name for i in state.to_play if i != state.current}
            again = [name for name in later if name not in owed]  # (tie-or-beat's others)
            if again:
                head["if_you_tie_or_beat"] = again
            rules = replace(rules, min_bank=bank_from, strike_penalty=0)
            turn = replace(turn, rules=rules) if turn is not None else None
            offer = replace(offer, rules=rules) if offer is not None else None
            need, busts = None, 0
        tie = 0.0
        if need is not None:
            tie, head["tie_value_why"] = _tie_value(state)
            head["tie_value"] = tie
            least = state.rules.least_bank(on_board=me.on_board)
            if least > need - UNIT:  # (zilch: a bank needs 300, so no bank of 250 ties)
                head["least_bank"] = least
        race = _first_of_two_in_a_tie_break(state)
        if race:
            head["playing_to_win"] = True
        if turn is not None:
            out = advise_turn(turn, busts_in_row=busts, need=need, tie=tie)
            situation = "keep" if "options" in out else "bank_or_roll"
            if later and state.turn is not None and "can_bank" in out:
                _say_what_the_rules_allow(state.turn, out)
            if race:
                _as_chances_in_the_race(turn, out)
            return {**head, "situation": situation, **out}
        fresh = advise_state(
            rules,
            turn_total=0,
            dice=state.rules.dice,
            score=me.score,
            on_board=me.on_board,
            busts_in_row=busts,
            need=need,
            tie=tie,
        )
        if race:
            chance = tie_break_first_turn(state.rules).value
            fresh.update(advice="roll", chance_if_roll=chance, chance_if_bank=None)
            del fresh["expected_if_roll"], fresh["expected_if_bank"]
        if offer is None:
            return {**head, "situation": "fresh", **fresh}
        take = advise_turn(
            offer.handed_to(score=me.score, on_board=me.on_board),
            busts_in_row=busts,
            need=need,
            tie=tie,
        )
    except ValueError as error:
        return {**head, "situation": "unavailable", "error": str(error)}
    word = "expected" if need is None else "chance"
    take_value, fresh_value = take[f"{word}_if_roll"], fresh[f"{word}_if_roll"]
    out = {
        **head,
        "situation": "takeover",
        "advice": "takeover" if take_value > fresh_value else "fresh",
        f"{word}_if_takeover": take_value,
        f"{word}_if_fresh": fresh_value,
        "takeover": take,
        "fresh": fresh,
    }
    if need is not None:
        out["need"] = need
    return out
