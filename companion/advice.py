"""The advice for a situation: bank or roll with the dice in hand, or which dice to keep.

``companion.strategy`` solves a turn and sums up its policy; here one situation at the table
(a turn total with dice in hand, a roll just thrown, or an engine ``Turn`` as it stands) is
checked and looked up in that solution. This is what ``hotdice advise``, the coach and the
web show.

>>> from companion.rules import load_rules
>>> advise_state(load_rules("farkle"), turn_total=300, dice=2)["advice"]
'bank'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.errors import ParseError
from companion.rules import MAX_TARGET, Rules
from companion.scoring import parse_dice
from companion.strategy import (
    bust_value,
    check_dice,
    held_key,
    solve,
    state_at,
    turn_at,
    turn_model,
)
from companion.strategy_dp import UNIT, StateKey
from companion.turn import Phase, Turn, bank_short_of, banked_score_problem


def _check_situation(rules: Rules, turn_total: int, score: int, on_board: bool) -> None:
    if isinstance(turn_total, bool) or not isinstance(turn_total, int):  # (not a crash later)
        raise ParseError(f"turn total must be a whole number, not {turn_total!r}")
    if turn_total < 0 or turn_total % UNIT:
        raise ParseError(
            f"turn total must be a multiple of {UNIT} and at least 0, not {turn_total}"
        )
    if turn_total > MAX_TARGET:  # (no game goes so far: a typo's extra digits)
        raise ParseError(f"turn total must be at most {MAX_TARGET:,}, not {turn_total:,}")
    if (problem := banked_score_problem(rules, score)) is not None:
        raise ParseError(f"score {problem}")
    if not on_board and score > 0:  # (only a bank scores, and the first bank boards)
        raise ParseError(f"a player with {score:,} banked is on the board, not off it")


def _held_faces(
    rules: Rules, sets: Iterable[int], kept: Iterable[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Held sets and kept dice as faces (one-line errors: None or 1.5 had been TypeErrors;
    whether a turn can hold them is the model's to say, `state_at`)."""
    try:
        held, kept_dice = tuple(sets), tuple(kept)
    except TypeError:
        raise ParseError(
            f"held sets and kept dice are lists of faces, not {sets!r} and {kept!r}"
        ) from None
    bad = [f for f in held if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6]
    if bad:
        raise ParseError(f"a held set is a face from 1 to 6, not {sorted(set(bad), key=repr)!r}")
    return held, parse_dice(kept_dice, max_dice=rules.dice) if kept_dice else ()


def advise_state(
    rules: Rules,
    *,
    turn_total: int,
    dice: int,
    score: int = 0,
    on_board: bool = True,
    busts_in_row: int = 0,
    sets: Iterable[int] = (),
    kept: Iterable[int] = (),
    need: int | None = None,
    tie: float = 0.0,
    taker: bool = False,
) -> dict[str, Any]:
    """Bank or roll with ``dice`` in hand at ``turn_total``, and the figures behind it.

    ``expected_if_roll`` is the expected final turn score of rolling on and playing
    optimally; under a strike penalty a bust counts as ``bust_value`` (its long-run cost).
    With ``need`` (a final round: the turn must end with at least that many points) the
    figures are chances instead: ``chance_if_roll``, ``chance_if_bank`` (a tie on top, a
    bank of ``need - 50``, worth ``tie``: the chance to win the tie-break that follows).
    All dice in hand with a turn total means hot dice. ``sets`` are the held sets of
    ``double-turn``, ``kept`` the dice kept since the last pick-up under ``progressive``.
    ``taker``: the dice were taken over and nothing kept yet, so no bank (a free re-roll
    too is rolled again).

    >>> from companion.rules import load_rules
    >>> advice = advise_state(load_rules("farkle"), turn_total=1000, dice=2)
    >>> advice["advice"], round(advice["expected_if_roll"], 2)
    ('bank', 652.77)
    """
    _check_situation(rules, turn_total, score, on_board)
    sets, kept = _held_faces(rules, sets, kept)
    check_dice(rules, dice)  # (before `fresh` below compares it)
    if isinstance(tie, bool) or not isinstance(tie, int | float) or not 0 <= tie <= 1:
        raise ParseError(f"tie must be a chance from 0 to 1, not {tie!r}")  # (NaN too)
    bust = bust_value(rules, busts_in_row) if need is None else 0.0
    word = "expected" if need is None else "chance"
    out: dict[str, Any] = {
        "rules": rules.name,
        "turn_total": turn_total,
        "dice": dice,
        "score": score,
        "on_board": on_board,
    }
    if need is not None:
        out["need"] = need
    if rules.strike_penalty and need is None:
        out["busts_in_row"] = busts_in_row
        out["bust_value"] = bust
    if rules.past_exact_target(score + turn_total):
        return {
            **out,
            "advice": "roll",
            "can_bank": False,
            "bust_probability": 1.0,
            f"{word}_if_roll": bust,
            f"{word}_if_bank": None,
            "bank_refusal": rules.past_target_refusal(score + turn_total),
        }
    solution = solve(rules, score=score, on_board=on_board, bust_value=bust, need=need, tie=tie)
    fresh = turn_total == 0 and dice == rules.dice
    key = solution.model.start if fresh else state_at(rules, dice, sets, kept)
    hot = dice == rules.dice and turn_total > 0
    roll = solution.taker_roll_value if taker else solution.roll_value
    roll_value = roll(key, turn_total)
    refusal = None
    if fresh or taker:
        refusal = "roll and keep at least once before banking"
    elif turn_total == 0:
        refusal = "a turn total of 0 is nothing to bank"
    elif hot and rules.hot_dice_must_roll:
        refusal = f"hot dice: all {rules.dice} dice must be rolled again before banking"
    elif not solution.can_bank(turn_total):
        refusal = bank_short_of(rules, turn_total, on_board=on_board)
    bank_value = None if refusal else solution.bank_value(turn_total)
    wins = bank_value is not None and need is None and rules.bank_wins(score + turn_total)
    if wins:  # (points past the target count for nothing: the bank wins the game)
        out["bank_wins"] = rules.bank_ends_game(score + turn_total)
    out.update(
        {
            "advice": "bank"
            if wins or (bank_value is not None and bank_value >= roll_value)
            else "roll",
            "can_bank": bank_value is not None,
            "bust_probability": solution.bust_probability(key, turn_total),
            f"{word}_if_roll": roll_value,
            f"{word}_if_bank": bank_value,
        }
    )
    if refusal:
        out["bank_refusal"] = refusal
    return out


def advise_roll(
    rules: Rules,
    dice: Sequence[int] | str,
    *,
    turn_total: int = 0,
    score: int = 0,
    on_board: bool = True,
    busts_in_row: int = 0,
    sets: Iterable[int] = (),
    kept: Iterable[int] = (),
    need: int | None = None,
) -> dict[str, Any]:
    """Every legal keep of a roll ranked by expected final turn score under optimal play.

    The roll is the first of the turn when all dice are rolled from zero. Each option says
    what to do next (``bank`` or ``roll``) and what the turn is then worth (``expected``;
    with ``need``, the ``chance`` of ending the turn with at least that many points).

    >>> from companion.rules import load_rules
    >>> best = advise_roll(load_rules("farkle"), [1, 1, 2, 3, 4, 6])["options"][0]
    >>> best["keep"], best["then"], round(best["expected"], 1)
    ([1], 'roll', 370.1)
    """
    roll = parse_dice(dice, max_dice=rules.dice)
    _check_situation(rules, turn_total, score, on_board)
    sets, kept = _held_faces(rules, sets, kept)
    first = turn_total == 0 and len(roll) == rules.dice
    if not first:
        state_at(rules, len(roll), sets, kept)
    turn = turn_at(
        rules,
        total=turn_total,
        dice=len(roll),
        score=score,
        on_board=on_board,
        sets=sets,
        kept=kept,
        first_roll=first,
    )
    out = advise_turn(turn.roll(roll), busts_in_row=busts_in_row, need=need)
    out["turn_total"] = turn_total  # (a bust's turn is left at 0: this is what it lost)
    return out


def advise_turn(
    turn: Turn, *, busts_in_row: int = 0, need: int | None = None, tie: float = 0.0
) -> dict[str, Any]:
    """Advice for a turn of the engine as it stands: bank or roll, or which dice to keep.

    This is what the web and ``hotdice read`` show when the table turns the coach on.
    ``need`` and ``tie`` as in ``advise_state``.
    """
    rules = turn.rules
    bust = bust_value(rules, busts_in_row) if need is None else 0.0
    if turn.over and turn.phase is not Phase.BUST:
        raise ParseError(f"the turn is over ({turn.phase.value}): nothing to advise")
    word = "expected" if need is None else "chance"
    if turn.phase is Phase.ROLL:
        takeover = not turn.has_kept and turn.takeover
        sets, kept = _held(turn)
        out = advise_state(
            rules,
            turn_total=turn.total,
            dice=turn.dice_left,
            score=turn.score,
            on_board=turn.on_board,
            busts_in_row=busts_in_row,
            sets=sets,
            kept=kept,
            need=need,
            tie=tie,
            taker=takeover,
        )
        if turn.steps and turn.steps[-1].note and not turn.steps[-1].keep:
            out.update(roll=list(turn.steps[-1].roll), reroll=True, note=turn.steps[-1].note)
        return out
    roll = turn.last_roll or ()
    out = {
        "rules": rules.name,
        "roll": list(roll),
        "turn_total": turn.total,
        "score": turn.score,
        "on_board": turn.on_board,  # (as `advise_state` says: --score 0 is off the board)
        "bust": turn.phase is Phase.BUST,
        "options": [],
    }
    if need is not None:
        out["need"] = need
    if turn.phase is Phase.BUST:
        out["bust_reason"] = turn.bust_reason
        return out
    solution = solve(
        rules, score=turn.score, on_board=turn.on_board, bust_value=bust, need=need, tie=tie
    )
    options: list[dict[str, Any]] = []
    for keep in turn.options():
        after = turn.keep(keep.dice)
        left = 0 if after.hot_dice else after.dice_left
        wins = need is None and after.can_bank and rules.bank_wins(turn.score + after.total)
        if after.phase is Phase.WON:
            value, then = (1.0 if need else float(after.total)), "win"
        elif wins:
            value, then = float(after.total), "bank"  # (a bank that wins the game: ranked first)
        else:
            key = (left, held_key(rules, after.sets, after.kept, False))
            value = solution.arrive_value(key, after.total)
            bank_value = None if after.must_roll else solution.bank_value(after.total)
            then = "bank" if bank_value is not None and bank_value >= value else "roll"
        option = {
            "keep": list(keep.dice),
            "points": keep.points,
            "turn_total": after.total,
            "dice_left": after.dice_left,
            "hot_dice": after.hot_dice,
            "then": then,
            word: value,
        }
        if wins:
            option["bank_wins"] = rules.bank_ends_game(turn.score + after.total)
        options.append(option)
    options.sort(key=lambda o: ("bank_wins" not in o, -o[word], len(o["keep"]), o["keep"]))
    out["options"] = options
    return out


def state_key(turn: Turn) -> StateKey:
    """The DP state in which a turn waiting for a roll rolls next: its dice in hand and what
    they hold (a takeover's first roll holds nothing of the previous player's)."""
    rules = turn.rules
    if turn.total == 0 and turn.dice_left == rules.dice:
        return turn_model(rules).start
    return state_at(rules, turn.dice_left, *_held(turn))


def _held(turn: Turn) -> tuple[frozenset[int], tuple[int, ...]]:
    """The sets and the dice a turn's next roll builds on: none for a takeover's first roll
    (the previous player's dice are handed over, not what they held)."""
    if not turn.has_kept and turn.takeover:
        return frozenset(), ()
    return turn.sets, tuple(v for v in range(1, 7) for _ in range(turn.kept[v - 1]))
