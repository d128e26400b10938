"""One player's turn as an immutable state machine: roll, keep, roll again or bank.

Every rule that reaches across rolls lives here: hot dice (may or must roll again), the held
sets of ``double-turn`` and ``progressive``, the 420 and hard-six free re-rolls, the entry
threshold and bank minimum, and the exact-10,000 forced keep. Each action returns a new
``Turn``; an illegal one raises ``IllegalMove`` and leaves the old turn as it was.

>>> from companion.rules import load_rules
>>> turn = Turn.start(load_rules("hot-dice"), score=2000)
>>> turn = turn.roll((1, 4, 2, 4, 4, 5)).keep((1, 4, 4, 4, 5)).roll((4,)).keep((4,))
>>> turn.total, turn.dice_left, turn.hot_dice
(1100, 6, True)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalMove, ParseError
from companion.rules import MAX_TARGET, SCORE_STEP, Finish, Rules
from companion.scoring import (
    NO_COUNTS,
    Counts,
    Dice,
    Held,
    Keep,
    counts_of,
    format_dice,
    keep_options,
    parse_dice,
)

MAX_TURN_TOTAL = 10**15
"""A turn total no dice make: doublings of six 2s multiply a total by about eight a roll,
and with no bound a recorded game ran on until its numbers no longer printed (4,300
digits). Under 2**53, so a phone's JavaScript reads every total exactly."""


class Phase(enum.Enum):
    """Where a turn stands."""

    ROLL = "roll"
    """Waiting for the player to roll (or bank, when allowed)."""
    KEEP = "keep"
    """Waiting for the player to pick a keep from the last roll."""
    BUST = "bust"
    """Over: a roll had nothing to keep, so the turn total is lost."""
    BANKED = "banked"
    """Over: the turn total was added to the player's score."""
    WON = "won"
    """Over: a roll that wins the game outright was kept."""


@dataclass(frozen=True)
class Step:
    """One roll of a turn and what came of it, as the ``hotdice turn`` listing shows it."""

    roll: Dice
    keep: Dice
    points: int
    turn_total: int
    dice_left: int
    hot_dice: bool
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "roll": list(self.roll),
            "keep": list(self.keep),
            "points": self.points,
            "turn_total": self.turn_total,
            "dice_left": self.dice_left,
            "hot_dice": self.hot_dice,
        }
        if self.note:
            out["note"] = self.note
        return out


def score_problem(score: int) -> str | None:
    """Why ``score`` is no banked score in any game, said after the score's name: banked
    scores are whole turns of 50s. All ``Turn.start`` checks: a game's own scores may pass
    the bounds of ``banked_score_problem`` (a tie-break among scores past the target)."""
    if isinstance(score, bool) or not isinstance(score, int):  # (not a crash later on)
        return f"must be a whole number, not {score!r}"
    if score < 0 or score % SCORE_STEP:
        return f"must be a multiple of {SCORE_STEP} and at least 0, not {score}"
    return None


def banked_score_problem(rules: Rules, score: int) -> str | None:
    """Why ``score`` cannot be a player's banked score before a turn, said after the score's
    name ("score ...", "--score ..."): the advisor and ``hotdice turn`` take one alike."""
    if (problem := score_problem(score)) is not None:
        return problem
    if score > MAX_TARGET:  # (no game goes so far: a typo's extra digits)
        return f"must be at most {MAX_TARGET:,}, not {score:,}"
    if rules.finish is Finish.EXACT and score == rules.target:
        return f"{score:,} has already hit the exact target {rules.target:,}: the game is won"
    if rules.finish is Finish.EXACT and score > rules.target:
        return f"{score:,} is past the exact target {rules.target:,}, which no score passes"
    # (first to the target: the bank that reached it won; where the target starts a final
    # round, tie-break turns and the 5150's bonus roll are played from past it)
    if rules.bank_wins_at_once(score):
        return (
            f"{score:,} has already reached the target {rules.target:,}, and the first to "
            "reach it wins at once: the game is won"
        )
    return None


def bank_short_of(rules: Rules, total: int, *, on_board: bool) -> str | None:
    """Why a turn total is too small to bank (the entry threshold, the least bank), in the
    words the engine and the advisor both give; None when it is enough."""
    if not on_board and total < rules.entry:
        return f"not on the board yet: needs {rules.entry:,} in one turn, has {total:,}"
    if total < rules.min_bank:
        return f"a bank needs at least {rules.min_bank:,}, has {total:,}"
    return None


@dataclass(frozen=True)
class Turn:
    """A turn in progress or finished; ``score`` is the player's banked score before it."""

    rules: Rules
    score: int = 0
    on_board: bool = False
    total: int = 0
    dice_left: int = 0
    phase: Phase = Phase.ROLL
    last_roll: Dice | None = None
    sets: frozenset[int] = frozenset()
    kept: Counts = NO_COUNTS
    first_roll: bool = True
    has_kept: bool = False
    hot_dice: bool = False
    must_roll: bool = False
    takeover: bool = False
    bust_reason: str = ""
    steps: tuple[Step, ...] = ()

    @classmethod
    def start(cls, rules: Rules, *, score: int = 0, on_board: bool | None = None) -> Turn:
        """A fresh turn with all dice in hand; a player with a score is on the board."""
        if (problem := score_problem(score)) is not None:
            raise ParseError(f"score {problem}")
        board = score > 0 if on_board is None else on_board
        return cls(rules, score=score, on_board=board, dice_left=rules.dice)

    @classmethod
    def at(
        cls,
        rules: Rules,
        *,
        total: int,
        dice: int,
        score: int = 0,
        on_board: bool = True,
        sets: frozenset[int] = frozenset(),
        kept: Counts = NO_COUNTS,
    ) -> Turn:
        """A turn part-way through, waiting to roll ``dice`` dice with ``total`` so far.

        For the advisor and for tests, which reason about states no one has played to yet.
        """
        if not 1 <= dice <= rules.dice:
            raise IllegalMove(f"a turn holds 1 to {rules.dice} dice, not {dice}")
        return cls(
            rules,
            score=score,
            on_board=on_board,
            total=total,
            dice_left=dice,
            sets=sets,
            kept=kept,
            first_roll=False,
            has_kept=True,
        )

    def handed_to(self, *, score: int, on_board: bool) -> Turn:
        """The takeover: the next player picks up these dice and this turn total.

        The held sets were built from the previous player's dice and stay with them.
        """
        if self.phase is not Phase.BANKED:
            raise IllegalMove("only a banked turn can be taken over")
        return replace(
            self,
            score=score,
            on_board=on_board,
            phase=Phase.ROLL,
            last_roll=None,
            has_kept=False,
            takeover=True,
            must_roll=False,
            first_roll=False,
            sets=frozenset(),
            kept=NO_COUNTS,
            steps=(),
        )

    def free_reroll(self, dice: Sequence[int]) -> bool:
        """Whether this scoreless roll is rolled again for free (the 420, the hard six)."""
        rules = self.rules
        if len(dice) != 1 or self.dice_left != 1:
            return False
        return (rules.the_420 and tuple(dice) == (2,) and self.total == 400) or (
            rules.hard_six and tuple(dice) == (6,)
        )

    # --- what the turn allows now -------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase in (Phase.BUST, Phase.BANKED, Phase.WON)

    @property
    def held(self) -> Held:
        return Held(
            turn_total=self.total, sets=self.sets, kept=self.kept, first_roll=self.first_roll
        )

    def options(self) -> tuple[Keep, ...]:
        """The legal keeps of the last roll in this turn's context, best first."""
        scoring = self._scoring()
        if scoring and self.total + max(k.points for k in scoring) > MAX_TURN_TOTAL:
            return tuple(k for k in scoring if self.total + k.points <= MAX_TURN_TOTAL)
        return scoring

    def _scoring(self) -> tuple[Keep, ...]:
        """The last roll's scoring keeps, however far they take the total."""
        if self.phase is not Phase.KEEP or self.last_roll is None:
            return ()
        return keep_options(self.rules, self.last_roll, self.held)

    def _past_the_cap(self, keeps: Sequence[Keep]) -> str:
        """Why these scoring keeps are refused: each takes the total past what a turn may
        make, where doublings would run it on until it no longer prints."""
        least = min(k.points for k in keeps)
        return (
            f"a turn total of {self.total + least:,} is past {MAX_TURN_TOTAL:,}, more than any "
            "real turn makes: check the dice entered"
        )

    def bank_refusal(self) -> str | None:
        """Why the turn may not be banked now, or None when it may."""
        rules = self.rules
        if self.over:
            return f"the turn is over ({self.phase.value})"
        if self.phase is Phase.KEEP:
            return "keep some dice from the roll first"
        if rules.past_exact_target(self.score + self.total):
            return rules.past_target_refusal(self.score + self.total)
        if not self.has_kept:
            if rules.takeover_only_busts(self.score + self.total):  # (a takeover that lands
                # on an exact target: the keep that must come first passes it)
                return (
                    f"{self.score + self.total:,} is the target, but a roll and keep must come "
                    "first, and any keep passes it: this turn can only bust"
                )
            return "roll and keep at least once before banking"
        if self.must_roll:
            return f"hot dice: all {rules.dice} dice must be rolled again before banking"
        return bank_short_of(rules, self.total, on_board=self.on_board)

    @property
    def can_bank(self) -> bool:
        return self.bank_refusal() is None

    # --- actions -------------------------------------------------------------------------

    def roll(self, dice: Sequence[int]) -> Turn:
        """Roll the dice in hand; a roll with nothing to keep busts (bar the free re-rolls)."""
        dice = parse_dice(dice)
        if self.over:
            raise IllegalMove(f"the turn is over ({self.phase.value}): no more rolls")
        if self.phase is Phase.KEEP:
            raise IllegalMove(
                f"keep some dice from {format_dice(self.last_roll or ())} before rolling again"
            )
        if len(dice) != self.dice_left:
            raise IllegalMove(
                f"the player holds {self.dice_left} {'die' if self.dice_left == 1 else 'dice'}, "
                f"but {len(dice)} {'was' if len(dice) == 1 else 'were'} rolled "
                f"({format_dice(dice)})"
            )
        rolled = replace(self, phase=Phase.KEEP, last_roll=dice, hot_dice=False, must_roll=False)
        scoring = rolled._scoring()
        if not scoring:
            if self.free_reroll(dice):
                note = (
                    "the 420: roll the 2 again"
                    if dice == (2,)
                    else ("the hard six: roll the 6 again")
                )
                step = Step(dice, (), 0, self.total, self.dice_left, False, note)
                return replace(self, steps=(*self.steps, step))
            return rolled._bust("nothing to keep")
        if self.rules.finish is Finish.EXACT:
            most = max(scoring, key=lambda k: (len(k.dice), k.points))
            if self.score + self.total + most.points > self.rules.target:
                reason = (
                    f"keeping every scoring die ({' '.join(map(str, most.dice))}) would pass "
                    f"{self.rules.target:,}"
                )
                return rolled._bust(reason)
        if not rolled.options():  # (every keep would pass the cap)
            raise IllegalMove(rolled._past_the_cap(scoring))
        return rolled

    def _bust(self, reason: str) -> Turn:
        roll = self.last_roll or ()
        step = Step(roll, (), 0, 0, 0, False, f"bust: {reason}")
        return replace(  # (no dice left to roll: the step and the turn say 0 alike)
            self,
            phase=Phase.BUST,
            total=0,
            dice_left=0,
            bust_reason=reason,
            steps=(*self.steps, step),
        )

    def keep(self, dice: Sequence[int]) -> Turn:
        """Set aside a legal keep from the last roll and add its points."""
        if self.phase is not Phase.KEEP or self.last_roll is None:
            last = self.steps[-1] if self.steps else None
            if not self.over and last is not None and not last.keep and last.note:
                # (the 420's or the hard six's free roll: "there is no roll" puzzled)
                raise IllegalMove(
                    f"the {format_dice(last.roll)} scores nothing and is rolled again "
                    f"({last.note}): there is nothing to keep"
                )
            raise IllegalMove(
                "there is no roll to keep dice from"
                if not self.over
                else f"the turn is over ({self.phase.value})"
            )
        if not dice:
            raise IllegalMove("a keep needs at least one scoring die")
        chosen = tuple(sorted(parse_dice(dice)))
        roll = self.last_roll
        want = counts_of(chosen)
        if any(w > h for w, h in zip(want, counts_of(roll), strict=True)):
            raise IllegalMove(f"keep {format_dice(chosen)} is not in the roll {format_dice(roll)}")
        keep = next((k for k in self.options() if k.dice == chosen), None)
        if keep is None:
            capped = [k for k in self._scoring() if k.dice == chosen]
            if capped:
                raise IllegalMove(self._past_the_cap(capped))
            raise IllegalMove(
                f"keep {format_dice(chosen)} from {format_dice(roll)} includes a "
                "die that does not score"
            )
        total = self.total + keep.points
        left = self.dice_left - len(chosen)
        hot = left == 0
        turn = replace(
            self,
            phase=Phase.WON if keep.wins else Phase.ROLL,
            last_roll=None,
            total=total,
            has_kept=True,
            hot_dice=hot,
            first_roll=False,
        )
        if hot:
            turn = replace(
                turn,
                dice_left=self.rules.dice,
                sets=frozenset(),
                kept=NO_COUNTS,
                must_roll=self.rules.hot_dice_must_roll,
            )
        else:
            turn = replace(turn, dice_left=left, sets=keep.held_sets, kept=keep.held_kept)
        step = Step(
            roll,
            chosen,
            keep.points,
            total,
            turn.dice_left,
            hot,
            "wins the game" if keep.wins else "",
        )
        return replace(turn, steps=(*self.steps, step))

    def bank(self) -> Turn:
        """End the turn and keep the turn total."""
        refusal = self.bank_refusal()
        if refusal:
            raise IllegalMove(f"cannot bank: {refusal}")
        return replace(self, phase=Phase.BANKED)

    def to_json(self) -> dict[str, Any]:
        """The turn as the ``hotdice turn --json`` listing reports it."""
        out: dict[str, Any] = {
            "rules": self.rules.name,
            "steps": [s.to_json() for s in self.steps],
            "bust": self.phase is Phase.BUST,
            "turn_total": self.total,
            "dice_left": self.dice_left,
            "hot_dice": self.hot_dice,
            "can_bank": self.can_bank,
        }
        if self.phase is Phase.BUST:
            out["bust_reason"] = self.bust_reason
        if self.phase is Phase.WON:
            out["wins_game"] = True
        if self.phase is Phase.KEEP:
            out["awaiting"] = "keep"
            out["roll"] = list(self.last_roll or ())
            out["options"] = [k.to_json() for k in self.options()]
        elif not self.over:
            out["awaiting"] = "roll"
            if not self.can_bank:
                out["bank_refusal"] = self.bank_refusal()
        return out
