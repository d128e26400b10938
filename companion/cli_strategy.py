"""``hotdice strategy`` and ``hotdice advise``: the strategy advisor at the command line.

``companion.cli`` calls ``register(subparsers)``; each handler returns the exit status and
raises ``ValueError`` (or ``OSError``) with a one-line message on bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from companion.advice import advise_roll, advise_state
from companion.errors import ParseError
from companion.rules import SCORE_STEP, Finish, Rules, check_winnable
from companion.scoring import dice_word, keep_options, parse_dice
from companion.strategy import bust_value, counts_kept_dice, holds_sets, strategy_summary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``strategy`` and ``advise`` commands."""
    p = subparsers.add_parser(
        "strategy",
        help="optimal play of a turn: expected score, when to bank, bust odds",
        description="The policy that maximises the expected score of a turn, solved exactly.",
    )
    _rules_arguments(p)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument(
        "--win-probability",
        action="store_true",
        help="two players: the play that maximises the chance to win a game to "
        "--target (with the rules' final round, or first to the target) and the first "
        "player's chance; "
        "pure Python, so keep the target small (about 2,000 takes seconds "
        "to a minute under farkle; rules whose held sets double the turn, as hot-dice's, "
        "take several times that: 1,000 took 100 s)",
    )
    p.set_defaults(handler=run_strategy)

    p = subparsers.add_parser(
        "advise",
        help="bank or roll now, or which dice of a roll to keep",
        description="Bank or roll with the dice in hand (--dice), or rank every keep of a "
        "roll (--roll) by expected final turn score under optimal play.",
    )
    _rules_arguments(p)
    p.add_argument(
        "--score",
        type=int,
        default=None,
        metavar="N",
        help="the player's banked score; 0 means not on the board yet (default: on the board)",
    )
    p.add_argument(
        "--turn-total",
        type=int,
        default=0,
        metavar="T",
        help="points accumulated this turn so far (default 0)",
    )
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--dice", type=int, metavar="D", help="number of dice in hand")
    what.add_argument("--roll", nargs="+", metavar="DIE", help="the dice just rolled")
    board = p.add_mutually_exclusive_group()
    board.add_argument(
        "--on-board",
        dest="on_board",
        action="store_true",
        default=None,
        help="the player is on the board (whatever --score says)",
    )
    board.add_argument(
        "--off-board",
        dest="on_board",
        action="store_false",
        help="the player is not on the board yet (entry threshold applies)",
    )
    p.add_argument(
        "--busts-in-row",
        type=int,
        default=0,
        metavar="K",
        help="busts in a row so far (under a strike penalty only, below its count)",
    )
    p.add_argument(
        "--need",
        type=int,
        default=None,
        metavar="N",
        help="play for the chance to end the turn with at least N points "
        "(a final round: the lead plus 50) instead of the expected score",
    )
    p.add_argument(
        "--held-sets",
        nargs="+",
        type=int,
        default=[],
        metavar="V",
        help="double-turn: faces whose triple is held this turn",
    )
    p.add_argument(
        "--kept",
        nargs="+",
        default=[],
        metavar="DIE",
        help="progressive: dice kept since the dice were last all picked up",
    )
    p.add_argument("--json", action="store_true", help="print the advice as JSON")
    p.set_defaults(handler=run_advise)


RULES_HELP = "preset with +house-rules (e.g. minnesota+the-420) or a rule file (.toml)"


def _rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", required=True, metavar="NAME", help=RULES_HELP)
    p.add_argument("--target", type=int, default=None, metavar="N", help="game target score")


def read_rules(spec: str, target: int | None = None) -> Rules:
    """A preset spec or a ``.toml`` rule file, read the way every ``hotdice`` command does."""
    from companion.cli import read_rules as cli_read_rules

    return cli_read_rules(spec, target)


def warn_if_unwinnable(rules: Rules) -> None:
    """Say on stderr that no one could win a game under ``rules`` (an exact target under
    the least first bank: `exact-10000 --target 500`), which had been described and
    advised on without a word: a warning, not an error, since a roll still scores and a
    game recorded so still replays."""
    try:
        check_winnable(rules)
    except ParseError as error:
        say_on_stderr(f"hotdice: warning: {error}\n")


def _points(value: float) -> str:
    return f"{value:,.2f}"


def run_strategy(args: argparse.Namespace) -> int:
    """Print the optimal policy of a rule set in brief."""
    rules = read_rules(args.rules, args.target)
    warn_if_unwinnable(rules)
    if getattr(args, "win_probability", False):
        return run_win_probability(rules, args.json)
    summary = strategy_summary(rules)
    if args.json:
        print(json.dumps(summary.to_json()))
        return 0
    print(format_summary(summary.to_json()))
    if counts_kept_dice(rules):
        print(NOTHING_KEPT)
    return 0


NOTHING_KEPT = (
    "  (progressive: these bank thresholds are for dice with nothing kept since they were\n"
    "   picked up, a taker's; a player who kept dice this turn banks later: give them to\n"
    "   `hotdice advise --kept`)"
)
"""Under ``progressive`` every player with fewer dice than the rules roll has kept some
since the last pick-up, but a taker: the summary's thresholds (nothing held) are the
taker's, and a player's own lie higher (a review: 3,050 with 5 dice, where a kept 5 rolls
on at 3,500)."""


WIN_MAX_TARGET = 20_000
"""The largest target ``--win-probability`` takes: the solve grows with the square of the
target in pure Python (10,000 took 12 minutes under ``farkle``, longer under doublings); a
million was accepted, with "about 687167055502 min left"."""

WIN_SLOW_TARGET = 3_000
"""Past this target the solve takes minutes: said before it starts, not only as it goes."""


def run_win_probability(rules: Rules, as_json: bool) -> int:
    """The two-player game: the first player's chance under optimal play, and how the play
    that maximises it differs from the expected-score play."""
    from companion.tie_break import tie_break_chance
    from companion.winprob import check_solvable, win_report

    if rules.target > WIN_MAX_TARGET:
        raise ParseError(
            f"--win-probability solves games to at most {WIN_MAX_TARGET:,} points, not "
            f"{rules.target:,} (pure Python: 10,000 takes 10-12 minutes under farkle); "
            "give a smaller --target"
        )
    least = rules.least_bank(on_board=False)  # (each turn's solve spans totals up to it)
    if least > WIN_MAX_TARGET:
        raise ParseError(
            f"--win-probability solves games whose first bank needs at most "
            f"{WIN_MAX_TARGET:,} points, not {least:,} (each turn is solved up to it)"
        )
    if max(rules.target, least) > WIN_SLOW_TARGET:
        past = least > rules.target  # (then the first bank is what makes it slow)
        game = f"a game to {rules.target:,}" + (
            f" whose first bank needs {least:,}" if past else ""
        )
        quick = "a first bank near 2,000" if past else "--target 2000"
        say_on_stderr(
            f"hotdice: note: solving {game} takes minutes to hours in pure "
            f"Python ({quick} takes seconds to a minute); Ctrl+C stops it\n"
        )
    check_solvable(rules)  # (refused at once, not after the tie-break's solve)
    if rules.finish is Finish.FINAL_ROUND:  # (its ties go to tie-break turns, solved first)
        with said_if_slow("hotdice: note: solving the tie-break turns first\n"):
            tie_break_chance(rules)  # (kept: the game's solve reads it again at once)
    progress = ProgressLine(f"solving the two-player game to {rules.target:,}")
    try:
        report = win_report(rules, progress)
    finally:
        progress.close()
    if as_json:
        summary = strategy_summary(rules).to_json()
        print(json.dumps({**summary, **report, "rules": rules.name}))
        return 0
    print(format_win_report(report))
    return 0


@contextlib.contextmanager
def said_if_slow(
    words: str, out: TextIO | None = None, after: float | None = None
) -> Iterator[None]:
    """Write ``words`` once the block has run ``after`` seconds (`ProgressLine.QUIET_S`):
    for a step that cannot say how far it is (`hot-dice`'s tie-break turns take 40 s
    before the game's own progress line can start), so a long silence is explained. The
    words are written whole before the block's end returns, or not at all."""
    timer = threading.Timer(
        ProgressLine.QUIET_S if after is None else after, say_on_stderr, (words, out)
    )
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()  # (a note already being written ends before the answer starts)


class ProgressLine:
    """How far a long solve is, on stderr: a 10,000-point game takes 10-12 minutes.

    Silent for the first seconds, so quick solves print nothing; on a terminal one line
    redrawn each second, elsewhere (a log file) a line a minute.
    """

    QUIET_S = 2.0
    ESTIMATE_FROM = 0.1
    """The share done before the time left is said: the first score pairs' short turns cost
    more than their share of the work (at 0% a 3-minute solve said "about 4074 min left")."""

    def __init__(
        self,
        what: str,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.out = out if out is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        self.shown: float | None = None
        self.live = self.out.isatty()
        self.width = 0

    def __call__(self, share: float) -> None:
        now = self.clock()
        elapsed = now - self.started
        if elapsed < self.QUIET_S or share <= 0 or share >= 1:
            return
        if self.shown is not None and now - self.shown < (1.0 if self.live else 60.0):
            return
        self.shown = now
        text = f"{self.what}: {share:.0%} done"
        if share >= self.ESTIMATE_FROM:
            text += f", about {_duration(elapsed / share - elapsed)} left"
        if self.live:
            say_on_stderr("\r" + text.ljust(self.width), self.out)
            self.width = len(text)
        else:
            say_on_stderr(text + "\n", self.out)

    def close(self) -> None:
        """Wipe the live line, so the answer starts at the left edge."""
        if self.live and self.width:
            say_on_stderr("\r" + " " * self.width + "\r", self.out)


def say_on_stderr(words: str, out: TextIO | None = None) -> None:
    """Say ``words`` on standard error (or ``out``) if it can be written: a closed or full
    one had ended a solve with no answer, and with a closed pipe's status, 0;
    an error's exit status still says it (`cli._say_error`)."""
    with contextlib.suppress(OSError, ValueError):  # (nobody to tell: the answer goes on)
        stream = out if out is not None else sys.stderr
        stream.write(words)
        stream.flush()


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


_END_RULE_WORDS = {
    "final round": (
        "final round: the other player has a last turn to pass; a tie goes to tie-break turns"
    )
}


def format_win_report(data: dict[str, Any]) -> str:
    """The ``hotdice strategy --win-probability`` text from its JSON object."""
    lines = [
        f"{data['rules']}: two players, playing to win a game to {data['target']:,} "
        f"({_END_RULE_WORDS.get(data['end_rule'], data['end_rule'] + ' wins')})",
        f"  first player's chance to win under optimal play: "
        f"{data['first_player_win_probability']:.2%}",
        f"  (second player: {data['second_player_win_probability']:.2%}; "
        f"{data['states']:,} score pairs, {data['turn_solves']:,} turn solves, "
        f"{data['seconds']:.1f} s)",
    ]
    if data["left_out"]:
        lines.insert(1, f"  not modelled: {'; '.join(data['left_out'])}")
    shown: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for row in data["differences"]:
        shown.setdefault((row["score"], row["opponent"]), []).append(row)
    if not shown:
        lines.append("  the win-maximising bank thresholds match the expected-score ones")
    else:
        lines.append("  where playing to win banks differently from playing for points")
        lines.append("  (turn totals short of the target at which to bank, nothing held):")

    def word(ranges: list[list[int]]) -> str:
        return (
            ", ".join(f"{lo:,} to {hi:,}" if lo != hi else f"{lo:,}" for lo, hi in ranges)
            or "never (roll on)"
        )

    for (score, opponent), rows in shown.items():
        chance = data["win_chance"][f"{score}-{opponent}"]
        lines.append(f"    at {score:,} against {opponent:,} (chance to win {chance:.2%}):")
        for row in rows:
            lines.append(
                f"      {dice_word(row['dice']):>7} in hand: "
                f"{word(row['bank_when_playing_to_win'])}"
                f"  (for points: {word(row['bank_when_playing_for_points'])})"
            )
    return "\n".join(lines)


def format_summary(data: dict[str, Any]) -> str:
    """The ``hotdice strategy`` text from its JSON object."""
    lines = [f"{data['rules']}: optimal play of a turn"]
    if "exact_target" in data:
        lines.append(f"  (for a banked score of 0: a total past {data['exact_target']:,} busts,")
        lines.append("   so nearer it every figure falls; `hotdice advise --score N` plays it)")
    lines.append(f"  expected score of a fresh turn: {_points(data['expected_turn_score'])}")
    if "entry_turn_score" in data:
        lines.append(f"    (not yet on the board: {_points(data['entry_turn_score'])})")
    if "long_run_average" in data:
        lines.append(
            f"  long-run average per turn, streak-aware: {_points(data['long_run_average'])}"
        )
    lines.append("  bank at or above (on the board, no busts in a row):")
    # (None: rolling is best at every total looked at, not at any total: say how far)
    up_to = f"{data['bank_thresholds_up_to']:,}"
    for n, threshold in data["bank_thresholds"].items():
        shown = f"{threshold:,}" if threshold is not None else f"roll at every total to {up_to}"
        lines.append(f"    {dice_word(int(n)):>7} in hand: {shown}")
    if "streak_bank_thresholds" in data:
        for streak, table in data["streak_bank_thresholds"].items():
            if streak == "0":
                continue
            row = ", ".join(
                f"{n}: {v:,}" if v is not None else f"{n}: roll to {up_to}"
                for n, v in table.items()
            )
            lines.append(f"    after {streak} bust{'s' if streak != '1' else ''} in a row: {row}")
    lines.append("  chance that a roll busts:")
    for n, p in data["bust_probability"].items():
        lines.append(f"    {dice_word(int(n)):>7}: {p:6.2%}  ({data['bust_odds'][n]})")
    if "takeover_thresholds" in data:
        lines.append("  take over the previous player's dice at turn totals of:")
        for n, ranges in data["takeover_ranges"].items():
            shown = (
                ", ".join(f"{lo:,} to {hi:,}" if lo != hi else f"{lo:,}" for lo, hi in ranges)
                or "never"
            )
            lines.append(f"    {dice_word(int(n)):>7} handed over: {shown}")
    return "\n".join(lines)


def _check_busts(rules: Rules, busts_in_row: int) -> None:
    """Busts in a row count under a strike-out rule only, and below its count: checked
    here, as `--need` (a last turn) and rules without a penalty never ask `bust_value`,
    and -5 or 99 was taken without a word."""
    bust_value(rules, busts_in_row)  # (0 or more; below the strike count where one is)
    if busts_in_row and not rules.strike_penalty:
        raise ParseError(
            f"--busts-in-row counts only under a strike-out rule, and {rules.name} has none"
        )


def _check_held(
    rules: Rules, sets: Sequence[int], kept: Sequence[int], turn_total: int, in_hand: int
) -> None:
    """What a player typed about held dice must fit the rules: no held sets or kept dice
    where the rules have none (they would be ignored without a word), and none with a
    turn total of 0 (dice are held only for points). A face is held once (its later dice
    double the turn instead), and the turn total holds at least its sets' triples and 50
    for each other die kept since the pick-up (a single 5 at least, or a doubling): such
    a state cannot happen, and was advised on as if it could (`--roll 2 --turn-total 200
    --held-sets 2` under hot-dice, whose two other kept dice scored nothing)."""
    if sets and not holds_sets(rules):
        raise ParseError(f"{rules.name} has no held sets (a triple is scored, not held)")
    if kept and not counts_kept_dice(rules):
        raise ParseError(f"{rules.name} does not count kept dice (that is `progressive`)")
    if (sets or kept) and turn_total == 0:
        raise ParseError("held sets and kept dice score points: not with a turn total of 0")
    faces = [face for face in sets if 1 <= face <= 6]  # (others: `strategy.state_at` says so)
    twice = sorted({face for face in faces if faces.count(face) > 1})
    if twice:
        raise ParseError(
            f"held set {', '.join(map(str, twice))} named twice: a face is held once "
            "(its later dice double the turn)"
        )
    triples = sum(rules.triple(face) for face in faces)
    if 0 <= turn_total < triples:  # (a negative total: `strategy` says what a total is)
        raise ParseError(
            f"a turn total of {turn_total:,} is less than the {triples:,} its held sets' "
            "triples scored"
        )
    others = rules.dice - in_hand - 3 * len(faces)  # (below 0: `strategy.state_at` says)
    least = triples + SCORE_STEP * others
    if faces and others > 0 and 1 <= in_hand <= rules.dice and 0 <= turn_total < least:
        raise ParseError(
            f"a turn total of {turn_total:,} is less than the {least:,} scored at least by "
            f"its held sets' triples and the {others} other {'die' if others == 1 else 'dice'} "
            f"kept since the pick-up ({SCORE_STEP} or more a die)"
        )
    scored = _kept_points(rules, kept)
    if 0 <= turn_total < scored:
        raise ParseError(
            f"a turn total of {turn_total:,} is less than the {scored:,} its kept dice scored"
        )


def _kept_points(rules: Rules, kept: Sequence[int]) -> int:
    """The least a turn's `progressive` kept dice scored: each face's dice as one keep (a
    face's set scores the same however it was gathered: two 1s then a third is 200 then
    800 more). A face's dice that no keep takes (two 2s) add nothing here: `strategy`
    refuses such a state."""
    points = 0
    for face in set(kept):
        dice = (face,) * kept.count(face)
        points += max((k.points for k in keep_options(rules, dice) if k.dice == dice), default=0)
    return points


def run_advise(args: argparse.Namespace) -> int:
    """Bank or roll for a state, or every keep of a roll ranked."""
    rules = read_rules(args.rules, args.target)
    warn_if_unwinnable(rules)
    score = args.score or 0
    on_board = args.on_board
    if on_board is None:
        on_board = args.score is None or args.score > 0
    kept = parse_dice(" ".join(args.kept), max_dice=rules.dice) if args.kept else ()
    rolled = len(parse_dice(" ".join(args.roll), max_dice=rules.dice)) if args.roll else None
    in_hand = args.dice if rolled is None else rolled
    _check_held(rules, args.held_sets, kept, args.turn_total, in_hand)
    if args.turn_total == 0 and 1 <= in_hand < rules.dice:  # (dice were kept for points)
        sys.stderr.write(
            f"hotdice: warning: advised at a turn total of 0, which {dice_word(in_hand)} in "
            "hand cannot have (the dice kept this turn scored: give --turn-total)\n"
        )
    if counts_kept_dice(rules) and not kept and 1 <= in_hand < rules.dice:  # (NOTHING_KEPT)
        sys.stderr.write(
            f"hotdice: warning: no --kept: advised as a taker's {dice_word(in_hand)}, with "
            "nothing kept since they were picked up (give the dice kept this turn)\n"
        )
    _check_busts(rules, args.busts_in_row)
    common: dict[str, Any] = dict(
        turn_total=args.turn_total,
        score=score,
        on_board=on_board,
        busts_in_row=args.busts_in_row,
        sets=args.held_sets,
        kept=kept,
        need=args.need,
    )
    if args.roll is not None:
        advice = advise_roll(rules, " ".join(args.roll), **common)
        text = format_roll_advice(advice)
    else:
        advice = advise_state(rules, dice=args.dice, **common)
        text = format_state_advice(advice)
    print(json.dumps(advice) if args.json else text)  # (one line, as every --json)
    return 0


def _figure(value: float, chance: bool) -> str:
    return f"{value:.2%} chance" if chance else f"{_points(value)} expected"


def format_state_advice(data: dict[str, Any]) -> str:
    """The ``hotdice advise --dice`` text from its JSON object."""
    chance = "need" in data
    word = "chance" if chance else "expected"
    goal = f" (playing to make {data['need']:,} this turn)" if chance else ""
    lines = [
        f"{data['rules']}: turn total {data['turn_total']:,} with "
        f"{dice_word(data['dice'])} in hand{goal}: {data['advice'].upper()}"
    ]
    if data["can_bank"]:
        shown = f", {_figure(data['chance_if_bank'], True)}" if chance else ""
        wins = f": {data['bank_wins']}" if "bank_wins" in data else ""
        lines.append(f"  bank now: {data['turn_total']:,}{shown}{wins}")
    else:
        lines.append(f"  bank now: not allowed ({data['bank_refusal']})")
    lines.append(f"  roll on, then play optimally: {_figure(data[word + '_if_roll'], chance)}")
    lines.append(f"  chance the next roll busts: {data['bust_probability']:.2%}")
    if "bust_value" in data:
        lines.append(
            f"  a bust now is worth {_points(data['bust_value'])} in the long run "
            f"({_busts(data['busts_in_row'])} in a row so far)"
        )
    return "\n".join(lines)


def _busts(n: int) -> str:
    return "no busts" if n == 0 else f"{n} bust" + ("" if n == 1 else "s")


def format_roll_advice(data: dict[str, Any]) -> str:
    """The ``hotdice advise --roll`` text from its JSON object."""
    roll = " ".join(map(str, data["roll"]))
    head = f"{data['rules']}: roll {roll} at turn total {data['turn_total']:,}"
    if data.get("reroll"):
        return f"{head}: {data['note']}\n{format_state_advice(data)}"
    if data["bust"]:
        lost = f", {data['turn_total']:,} lost" if data["turn_total"] else ""
        return f"{head}: bust ({data['bust_reason']}){lost}"
    chance = "need" in data
    word = "chance" if chance else "expected"
    ranked = f"chance to make {data['need']:,} this turn" if chance else "expected final turn score"
    lines = [f"{head}: keeps ranked by {ranked}"]
    width = len(str(len(data["options"])))  # (ranks 10 and on keep the keeps' column)
    for rank, option in enumerate(data["options"], 1):
        keep = " ".join(map(str, option["keep"]))
        left = "hot dice" if option["hot_dice"] else f"{dice_word(option['dice_left'])} left"
        value = f"{option[word]:.2%}" if chance else _points(option[word])
        lines.append(
            f"  {rank:>{width}}. keep {keep:<11} +{option['points']:<5,} -> "
            f"{option['turn_total']:,}, {left}, then {option['then']}"
            f"{' (wins the game)' if 'bank_wins' in option else ''}: {value}"
        )
    return "\n".join(lines)
