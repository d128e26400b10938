"""The ``hotdice`` command: the edge where files, standard input and output meet the core.

Core commands (``rules``, ``score``, ``turn``, ``replay``) live here; ``strategy`` and
``advise`` in ``cli_strategy``; ``read``/``eval`` (vision) and ``serve`` (web) plug in through
the ``hotdice.commands`` entry points, so this package never imports those layers.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import stat
import sys
import tomllib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, TextIO

from companion import advice, cli_strategy, game
from companion.errors import IllegalEvent, ParseError, brief
from companion.names import BIDI_CONTROLS, has_visible, is_plain_line
from companion.rules import (
    PRESET_SOURCES,
    PRESETS,
    TOGGLES,
    Rules,
    describe,
    load_rules,
    named_preset,
    rules_to_json,
)
from companion.scoring import dice_word, format_dice, parse_dice, roll_report
from companion.turn import Phase, Turn, banked_score_problem

EXIT_ERROR = 2


def _has_huge_int(value: object) -> bool:
    """Whether a parsed TOML value holds an integer past Python's 4,300 printable digits."""
    if isinstance(value, dict):
        return any(_has_huge_int(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_huge_int(v) for v in value)
    return isinstance(value, int) and value.bit_length() > 14_000  # (about 4,200 digits)


RULE_FILE_MAX_BYTES = 1024 * 1024
GAME_LOG_MAX_BYTES = 64 * 1024 * 1024
"""A real game's log is a few KB; 64 MB holds over a million events (replaying 100,000
takes half a minute)."""


def read_plain_file(path: str, *, limit: int, what: str) -> bytes:
    """The bytes of a plain file or a pipe (`<(...)`, /dev/stdin) of at most ``limit``
    bytes, read no further. A device (/dev/zero) or a huge file was read until memory ran
    out; each is now an OSError of one line."""
    info = os.stat(path)
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
        raise OSError(errno.EINVAL, f"not a file (a {what} is a plain file)")
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise too_big(limit, what)
    return data


def too_big(limit: int, what: str) -> OSError:
    """The error for input past ``limit`` bytes (a file's, or standard input's)."""
    return OSError(errno.EFBIG, f"over {limit // (1024 * 1024):,} MB, too big for a {what}")


def is_rule_file(spec: str) -> bool:
    """Whether ``--rules`` names a rule file: a name ending in ``.toml`` (OUR.TOML too), or
    an existing file or pipe that names no rule set (`<(printf ...)` is /dev/fd/63, which
    was "unknown rule set '/dev/fd/63'"). A rule set's name comes first, so a file called
    ``farkle`` beside the command never stands for farkle."""
    if spec.lower().endswith(".toml"):
        return True
    try:
        mode = os.stat(spec).st_mode
    except (OSError, ValueError):  # (no such path; a NUL in the name)
        return False
    # (a folder named "hot" is a typo of hot-dice; "/tmp", or a terminal's /dev/stdin, a
    # path: "not a file")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or os.sep in spec or "/" in spec):
        return False
    try:
        load_rules(spec)
    except ParseError:
        return True
    return False


def _a_pipe(path: str) -> bool:
    """Whether ``path`` is a shell's ``<(...)`` (a pipe in a folder of file descriptors,
    ``/dev/fd/63``), whose name names nothing of what comes through it; a named pipe's
    name was chosen."""
    try:
        return Path(path).parent.name == "fd" and stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def rules_spec(spec: str) -> str | dict[str, Any]:
    """What ``--rules`` names: a preset spec as it is, or a rule file's table (a base
    preset and overrides, named after the file unless it says otherwise), read once: a
    pipe has nothing left for a second read."""
    if not is_rule_file(spec):
        return spec
    try:
        data = read_plain_file(spec, limit=RULE_FILE_MAX_BYTES, what="rule file")
        text = data.decode("utf-8-sig")  # (Notepad's byte-order mark is fine)
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ParseError(f"{spec}: not valid TOML: {error}") from None
    except UnicodeDecodeError:
        raise ParseError(f"{spec}: not UTF-8 text") from None
    except RecursionError:
        raise ParseError(f"{spec}: nested too deeply to be a rule file") from None
    except ValueError:  # (Python's own limit on the digits of an integer)
        raise ParseError(f"{spec}: not a rule file: a number in it is too long") from None
    except OSError as error:
        raise OSError(f"cannot read rule file {spec}: {error.strerror}") from None
    if _has_huge_int(table):  # (0x and 0o numbers pass tomllib, then fail when printed)
        raise ParseError(f"{spec}: not a rule file: a number in it is too long")
    stem = Path(spec).stem
    if _a_pipe(spec):  # ("/dev/fd/63" had named them "63", another number each run)
        base = table.get("base")
        stem = f"{base if isinstance(base, str) else 'piped'} rule file"
    if "name" not in table and (not is_plain_line(stem) or not has_visible(stem)):
        raise ParseError(
            f"{spec!r}: a rule file's name names its rules, so it must be one line of plain "
            'text, not blank: rename the file, or give it a name = "..." line'
        )
    # (a file named after a preset is not that preset: "zilch.toml" may hold farkle's rules)
    if named_preset(stem.lower()):
        toml = spec.lower().endswith(".toml")
        stem = f"{stem}.toml" if toml else Path(spec).name if Path(spec).suffix else f"{stem} file"
    table.setdefault("name", stem)
    return table


def read_rules(spec: str, target: int | None = None) -> Rules:
    """Rules from a preset spec or a ``.toml`` file naming a base preset and overrides."""
    return rules_from(spec, rules_spec(spec), target)


def rules_from(spec: str, table: str | dict[str, Any], target: int | None = None) -> Rules:
    """Rules from what ``--rules spec`` named (`rules_spec`), a bad file's options named."""
    try:
        return load_rules(table, target=target)
    except ParseError as error:
        if isinstance(table, dict):  # name the file whose options are wrong
            raise ParseError(f"{spec}: {error}") from None
        raise


@dataclass(frozen=True)
class CommandContext:
    """What plug-in commands may ask of the rules engine without importing it."""

    score_report: Callable[..., dict[str, Any]]
    advice_report: Callable[..., dict[str, Any]]
    brief: Callable[[str], str]
    """An error message as the core prints one: one line, a long echo cut."""
    score_text: Callable[[dict[str, Any]], str]
    """A `score_report` as `hotdice score` prints it."""
    advice_text: Callable[[dict[str, Any]], str]
    """An `advice_report` as `hotdice advise --roll` prints it."""


_READ: dict[tuple[str, int | None], Rules] = {}


def _rules_once(spec: str, target: int | None) -> Rules:
    """`read_rules`, for the plug-ins' reports: a command that scores many photos asks for
    the rules of each, and a rule file given as a pipe (`read --rules <(...)`) is read
    once, the rules kept for the rest of the run."""
    if (spec, target) not in _READ:
        _READ[(spec, target)] = read_rules(spec, target)
    return _READ[(spec, target)]


def _score_report(rules_spec: str, dice: Sequence[int], target: int | None = None) -> dict:
    rules = _rules_once(rules_spec, target)
    roll = parse_dice(dice, max_dice=rules.dice)
    return roll_report(rules, roll)


def _advice_report(
    rules_spec: str, dice: Sequence[int], target: int | None = None
) -> dict[str, Any]:
    rules = _rules_once(rules_spec, target)
    return advice.advise_roll(rules, parse_dice(dice, max_dice=rules.dice))


# --- printing ------------------------------------------------------------------------------


def _keep_line(keep: dict[str, Any]) -> str:
    why = ", ".join(f"{g['name']} {g['points']:,}" for g in keep["groups"])
    flag = "  WINS THE GAME" if keep.get("wins_game") else ""
    return f"  {format_dice(keep['keep']):<8} {keep['points']:>6,}  {why}{flag}"


def format_score(report: dict[str, Any]) -> str:
    """The table `hotdice score` prints, from its JSON object (`roll_report`): the best keep
    first, then every legal keep."""
    head = f"{format_dice(report['roll'])} under {report['rules']}: "
    best = report["best"]
    if report["bust"] or best is None:
        return head + "bust, nothing scores"
    lines = [head + f"best keep {format_dice(best['keep'])} for {best['points']:,}"]
    lines.append(f"  {'keep':<8} {'points':>6}  groups")
    lines.extend(_keep_line(keep) for keep in report["options"])
    return "\n".join(lines)


CONTEXT = CommandContext(
    _score_report, _advice_report, brief, format_score, cli_strategy.format_roll_advice
)


# --- commands ------------------------------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> int:
    """`hotdice rules`: the presets and toggles, or one rule set in words (or JSON)."""
    out = sys.stdout
    if args.name is not None and args.rules is not None and args.name != args.rules:
        raise ParseError(f"two rule sets named: {args.name!r} and --rules {args.rules!r}")
    name = args.name if args.name is not None else args.rules
    if name is None and args.target is not None:  # (it had been dropped without a word)
        raise ParseError("--target needs a rule set: hotdice rules NAME --target N")
    if name is not None:
        rules = read_rules(name, args.target)
        cli_strategy.warn_if_unwinnable(rules)
        if args.json:
            print(json.dumps(rules_to_json(rules)))
        else:
            print(describe(rules))
        return 0
    if args.json:
        print(
            json.dumps(
                {
                    "presets": {n: PRESET_SOURCES[n] for n in PRESETS},
                    "toggles": {n: d for n, (d, _) in TOGGLES.items()},
                }
            )
        )
        return 0
    out.write(
        "Rule sets (use --rules NAME, add house rules with +, e.g. "
        "ten-thousand+progressive+strike-out):\n"
    )
    for name_ in PRESETS:
        out.write(f"  {name_:<14} {PRESET_SOURCES[name_]}\n")
    out.write("House rules (toggles):\n")
    for toggle, (text, _) in TOGGLES.items():
        out.write(f"  +{toggle:<13} {text}\n")
    out.write(
        'A table\'s own rules: --rules my-table.toml with base = "preset", '
        "toggles = [...] and any option to override.\n"
    )
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """`hotdice score`: what rolls are worth, from the arguments or a roll a stdin line."""
    rules = _require_rules(args)
    if args.dice == ["-"]:
        return _score_stream(rules, sys.stdin, args.json)
    if not args.dice:
        raise ParseError("give the dice of the roll, e.g. hotdice score --rules farkle 1 4 2 4 4 5")
    roll = parse_dice(" ".join(args.dice), max_dice=rules.dice)
    report = roll_report(rules, roll)
    print(json.dumps(report) if args.json else format_score(report))
    return 0


ROLL_LINE_MAX = 64 * 1024
"""The longest line `score -` reads as a roll: far past any roll written out (ten thousand
dice, spaced), and short of what a line with no end (`< /dev/zero`) would take, all of
memory, Ctrl-C unheard."""


def _score_stream(rules: Rules, lines: TextIO, as_json: bool) -> int:
    """Score one roll a line; a bad line is reported with its number and stops the run, and
    input without a roll is an error (an empty pipe is a mistake, not a bare table). A
    byte-order mark before the first line, as Notepad saves it, is passed over."""
    rolls = 0
    for number, line in enumerate(iter(lambda: lines.readline(ROLL_LINE_MAX + 1), ""), 1):
        if len(line) > ROLL_LINE_MAX and not line.endswith("\n"):
            raise ParseError(
                f"line {number}: over {ROLL_LINE_MAX:,} characters, too long for a roll"
            )
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        rolls += 1
        try:
            roll = parse_dice(line, max_dice=rules.dice)
        except ParseError as error:
            raise ParseError(f"line {number}: {error}") from None
        report = roll_report(rules, roll)
        sys.stdout.write((json.dumps(report) if as_json else format_score(report)) + "\n")
    if not rolls:
        raise ParseError("no roll on standard input: give one roll a line")
    return 0


def parse_step(text: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """``"142445>14445"`` is a roll and the dice kept from it; without ``>`` just a roll."""
    roll_text, sep, keep_text = text.partition(">")
    roll = parse_dice(roll_text)
    if not sep:
        return roll, None
    if not keep_text.strip():
        raise ParseError(f"{text!r}: nothing after '>' (name the dice kept)")
    return roll, parse_dice(keep_text)


def play_turn(rules: Rules, steps: Sequence[str], score: int) -> Turn:
    """Play a turn from the command line's ``roll>keep`` arguments."""
    if (problem := banked_score_problem(rules, score)) is not None:
        raise ParseError(f"--score {problem}")
    turn = Turn.start(rules, score=score)
    for text in steps:
        if turn.phase is Phase.BUST:
            raise ParseError(f"{text!r}: the turn is already bust, no more rolls")
        roll, keep = parse_step(text)
        turn = turn.roll(roll)
        if keep is not None:
            if turn.phase is Phase.BUST:
                raise ParseError(
                    f"{text!r}: {format_dice(roll)} is a bust "
                    f"({turn.bust_reason}), nothing can be kept"
                )
            turn = turn.keep(keep)
    return turn


def cmd_turn(args: argparse.Namespace) -> int:
    """`hotdice turn`: play one turn from `roll>keep` steps and show where it ends."""
    rules = _require_rules(args)
    if not args.steps:
        raise ParseError('give the rolls, e.g. hotdice turn --rules hot-dice "142445>14445" "4>4"')
    turn = play_turn(rules, args.steps, args.score)
    if args.json:
        print(json.dumps(turn.to_json()))
        return 0
    print(
        f"{rules.name}, banked score before the turn {args.score:,}"
        + ("" if turn.on_board or not rules.entry else " (not on the board)")
    )
    if turn.steps:  # (a first roll given with no keep yet has no row to head)
        print(f"  {'roll':<8} {'keep':<8} {'points':>7} {'total':>7} {'left':>4}")
    for step in turn.steps:
        hot = "  HOT DICE" if step.hot_dice else ""
        note = f"  {step.note}" if step.note else ""
        print(
            f"  {format_dice(step.roll):<8} {format_dice(step.keep) or '-':<8} "
            f"{step.points:>7,} {step.turn_total:>7,} {step.dice_left:>4}{hot}{note}"
        )
    if turn.phase is Phase.BUST:
        print(f"Bust: {turn.bust_reason}; the turn scores 0.")
    elif turn.phase is Phase.WON:
        print(f"Turn total {turn.total:,}: that roll wins the game.")
    elif turn.phase is Phase.KEEP:
        print(f"Turn total {turn.total:,}; keep from {format_dice(turn.last_roll or ())}:")
        for keep in turn.options():
            print(_keep_line(keep.to_json()))
    else:
        refusal = turn.bank_refusal()
        verdict = "may be banked now" if refusal is None else f"cannot be banked: {refusal}"
        if refusal is None:
            wins = rules.bank_ends_game(args.score + turn.total)
            verdict += f": {wins}" if wins else ""
        left = dice_word(turn.dice_left)
        print(f"Turn total {turn.total:,} with {left} to roll; {verdict}.")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """`hotdice replay`: fold a game log into its state, naming the first illegal event."""
    path = args.log
    if not path:
        raise ParseError("the game log's path is empty")
    try:
        if path == "-":
            text = sys.stdin.read(GAME_LOG_MAX_BYTES + 1)  # (characters: near enough)
            if len(text) > GAME_LOG_MAX_BYTES:
                raise too_big(GAME_LOG_MAX_BYTES, "game log")
        else:
            data = read_plain_file(path, limit=GAME_LOG_MAX_BYTES, what="game log")
            text = data.decode("utf-8")
    except OSError as error:
        raise OSError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ParseError(f"{path} is not a text file") from None
    if not text.strip():
        where = "standard input" if path == "-" else path
        raise ParseError(
            f"{where} is empty: a game log is a JSON object (see hotdice replay --help)"
        )
    try:
        log = json.loads(text.removeprefix("\ufeff"))  # (Notepad's byte-order mark is fine)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"  # (a message may end in "at")
        raise ParseError(
            f"{path} is not valid JSON: {error.msg.removesuffix(' at')} ({where})"
        ) from None
    except RecursionError:
        raise ParseError(f"{path} is nested too deeply to be a game log") from None
    except ValueError:  # (Python's own limit on the digits of an integer)
        raise ParseError(f"{path} is not a game log: a number in it is too long") from None
    if isinstance(log, dict) and (args.rules is not None or args.target is not None):
        log = dict(log)
        if args.rules is not None:  # (an empty --rules is said to be so, not ignored)
            log["rules"] = rules_spec(args.rules)  # (read once: a pipe has no second read)
            chosen = rules_from(args.rules, log["rules"], args.target)  # a bad file is named
            if isinstance(log["rules"], dict) and "target" in log["rules"]:
                log["target"] = chosen.target  # the table's own target beats the log's
        if args.target is not None:
            log["target"] = args.target
    try:
        state = game.replay(log)
    except IllegalEvent as error:
        events = log.get("events", []) if isinstance(log, dict) else []
        shown = (  # (an event that is no object is echoed by the engine's own message)
            json.dumps(events[error.index])
            if error.index is not None
            and error.index < len(events)
            and isinstance(events[error.index], dict)
            else ""
        )
        raise IllegalEvent(f"{error} {shown}".rstrip()) from None
    if args.json:
        print(json.dumps(state.to_json()))
        return 0
    print_standings(state, sys.stdout)
    return 0


def print_standings(state: game.GameState, out: TextIO) -> None:
    """A game's standings as the paper scoresheet would show them."""
    rules = state.rules
    # (in the history's words: "tie-break", "final round"; a 5150's bonus "bonus rolls")
    phase = {"tie_break": "tie-break", "bonus": "bonus rolls"}.get(
        state.phase.value, state.phase.value.replace("_", " ")
    )
    width = max([16, *(_cells(player.name) for player in state.players)])
    out.write(f"{_shown(rules.name)}, game to {rules.target:,}: {phase}\n")
    for player in sorted(state.players, key=lambda q: -q.score):
        badge = (
            ""
            if player.on_board or not rules.entry
            else (f"  (not on the board: needs {rules.entry:,})")
        )
        out.write(f"  {_column(player.name, width)} {player.score:>7,}{badge}\n")
    if state.phase is game.GamePhase.FINAL_ROUND:  # (the sheet's banner, for a dispute)
        said = (
            [] if state.trigger is None else [f"{_name(state, state.trigger)} reached the target"]
        )
        mark = state.final_round_mark()
        if mark:
            lead = "tied the lead at" if mark["tied"] else "took the lead with"
            if state.trigger is not None and mark["player"] == state.players[state.trigger].name:
                said[-1] += f", then {lead} {mark['score']:,}"  # (the one who reached it)
            else:
                said.append(f"{_shown(mark['player'])} {lead} {mark['score']:,}")
        still = ", ".join(_name(state, i) for i in state.to_play)
        out.write(f"Final round: {'; '.join([*said, f'still to play: {still}'])}\n")
    winner, to_play = state.winner_name, state.current_player  # (one of them: over or not)
    if winner:
        out.write(f"Winner: {_shown(winner)}\n")
    elif to_play is not None:
        need = state.to_pass().get(to_play)  # (a final round's or a tie-break's)
        to_pass = f" (needs {need:,} to pass the lead)" if need else ""
        if state.phase is game.GamePhase.BONUS:
            to_pass = " (the 5150 bonus roll: one roll of all the dice, its best keep added)"
        out.write(f"To play: {_shown(to_play)}{to_pass}\n")
    turn = state.turn  # (a log that stops mid-turn: what --json's "turn" says, in words)
    if turn is not None:
        doing = (
            f"to keep from {' '.join(map(str, turn.last_roll))}"
            if turn.phase is Phase.KEEP and turn.last_roll
            else f"to roll {dice_word(turn.dice_left)}" + (" or bank" if turn.can_bank else "")
        )
        out.write(f"  turn so far: {turn.total:,}, {doing}\n")
    elif state.offer is not None:
        offer = state.offer
        giver = _name(state, offer.from_player)
        left = dice_word(offer.turn.dice_left)
        out.write(f"  may take over {giver}'s {left} and {offer.turn.total:,}\n")
    if state.history:
        out.write("History:\n")
        for number, record in enumerate(state.history, 1):
            what = "bust" if record.bust else f"+{record.points:,}"
            extra = f" (strike-out -{record.penalty:,})" if record.strike else ""
            extra += " (took over)" if record.takeover else ""
            extra += " (bonus roll)" if record.kind == "bonus" else ""
            extra += {"final_round": " (final round)", "tie_break": " (tie-break)"}.get(
                record.phase, ""
            )
            extra += f" ({record.reason})" if record.bust and record.reason else ""
            extra += " WINS" if record.wins else ""
            out.write(
                f"  {number:>3}. {_column(record.player, width)} {what:>8} -> "
                f"{record.score:>7,}{extra}\n"
            )


def _name(state: game.GameState, index: int) -> str:
    """The name of player ``index``, as the terminal prints it (`_shown`)."""
    return _shown(state.players[index].name)


def _shown(name: str) -> str:
    """A name as the terminal prints it: without the right-to-left controls a hand-written
    log's name may hold, which would turn the rest of its line backwards (the web drops
    them from the names it takes)."""
    return name.translate(BIDI_CONTROLS)


def _cells(text: str) -> int:
    """The terminal cells ``text`` (a name, `_shown`) takes: a wide letter (CJK) two, a
    combining mark none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in _shown(text)
    )


def _column(text: str, width: int) -> str:
    """``text`` (a name, `_shown`) padded to ``width`` terminal cells (the widest name's, at
    least 16), so the scores after every name stay in one column."""
    return _shown(text) + " " * max(0, width - _cells(text))


def _require_rules(args: argparse.Namespace) -> Rules:
    if not args.rules:  # (an empty one: argparse has seen that it was given)
        raise ParseError(NO_RULES)
    return read_rules(args.rules, args.target)


# --- the parser ------------------------------------------------------------------------------


class _StoreOnce(argparse._StoreAction):
    """An option given twice is an error: argparse keeps the last one, silently, and
    `score --rules farkle --rules zilch` scored under zilch."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if option_string is not None:
            given = namespace.__dict__.setdefault("_options_given", set())
            if self.dest in given:
                parser.error(f"{'/'.join(self.option_strings)} given twice: give it once")
            given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2, and an option given
    twice is one (`_StoreOnce`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the commands' own parsers (`build_parser`), whose usage errors name their help
        self.commands: Mapping[str, argparse.ArgumentParser] = {}
        # the plug-in commands that failed to load, and why (`_register_plugins`)
        self.unavailable: dict[str, str] = {}
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message: str) -> None:  # type: ignore[override]
        if message == "the following arguments are required: --rules":  # (the hint for it)
            _say_error(NO_RULES)
        else:
            _say_error(f"{brief(message)} (see: {self.prog} --help)")
        raise SystemExit(EXIT_ERROR)

    def _print_message(self, message: str, file: Any = None) -> None:
        """As argparse's, but the help that a stream cannot take (a full disk) is an
        error: argparse passes over it, and the exit status said all was well."""
        if message:
            out = file or sys.stderr
            out.write(message)
            out.flush()


NO_RULES = "choose the table's rules with --rules NAME (see: hotdice rules)"


def _common(*, rules_required: bool = False) -> _Parser:
    """--rules, --target and --json, accepted by every command; --rules required where the
    command cannot go without it, so its help does not show it as optional."""
    common = _Parser(add_help=False)
    common.add_argument(
        "--rules", required=rules_required, metavar="NAME", help=cli_strategy.RULES_HELP
    )
    common.add_argument("--target", type=int, metavar="N", help="game score to play to")
    common.add_argument("--json", action="store_true", help="print JSON")
    return common


def _command_asked(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word that is not an option."""
    return next((a for a in argv if not a.startswith("-")), None)


def _register_plugins(
    sub: argparse._SubParsersAction, argv: Sequence[str], core: set[str]
) -> dict[str, str]:
    """Load the plug-in that adds the command asked for (all of them for help or a typo);
    the commands whose plug-in failed to load, and why.

    Entry points are named after their commands, so a core command loads none: the vision
    and web layers bring OpenCV and Flask, a third of a second of start-up.
    """
    wanted = _command_asked(argv)
    if wanted in core:
        return {}
    points = list(entry_points(group="hotdice.commands"))
    chosen = [p for p in points if p.name == wanted] or points
    unavailable: dict[str, str] = {}
    for value in dict.fromkeys(p.value for p in chosen):
        try:
            next(p for p in chosen if p.value == value).load()(sub, CONTEXT)
        except Exception as error:  # noqa: BLE001 - a broken plug-in must not break `score`
            # (a Ctrl-C as it loads, which an import may wrap in its own error: heard)
            if isinstance(error.__cause__ or error.__context__, KeyboardInterrupt):
                raise KeyboardInterrupt from None
            names = sorted({p.name for p in points if p.value == value})
            unavailable |= dict.fromkeys(names, brief(str(error)))
            if wanted not in names:  # (the one asked for is an error: `_main`)
                said = f"the {' and '.join(names)} command{'s are' if len(names) > 1 else ' is'}"
                sys.stderr.write(f"hotdice: warning: {said} unavailable: {brief(str(error))}\n")
    return unavailable


def build_parser(argv: Sequence[str] = ()) -> _Parser:
    """Every `hotdice` command; the camera and web ones are loaded only when named in
    `argv`, so the core commands never import OpenCV or Flask."""
    common, ruled = _common(), _common(rules_required=True)
    parser = _Parser(prog="hotdice", description="Dice-table companion for the Farkle family.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    parser.commands = sub.choices  # (filled in below, the plug-ins' commands too)

    p = sub.add_parser("rules", parents=[common], help="list the rule sets, or explain one")
    p.add_argument("name", nargs="?", help="preset+toggles or a rule file (TOML)")
    p.set_defaults(handler=cmd_rules)

    p = sub.add_parser("score", parents=[ruled], help="what a roll scores, every legal keep")
    p.add_argument("dice", nargs="*", help="the roll (1 4 2 4 4 5 or 142445); - reads stdin")
    p.set_defaults(handler=cmd_score)

    p = sub.add_parser("turn", parents=[ruled], help="play out a turn: roll>keep ...")
    p.add_argument("steps", nargs="*", metavar="ROLL>KEEP", help='e.g. "142445>14445" "4>4"')
    p.add_argument(
        "--score",
        type=int,
        default=0,
        metavar="N",
        help="the player's banked score before the turn (0: not on the board)",
    )
    p.set_defaults(handler=cmd_turn)

    p = sub.add_parser("replay", parents=[common], help="standings and history of a game log")
    p.add_argument("log", help="game log JSON file (- for standard input)")
    p.set_defaults(handler=cmd_replay)

    cli_strategy.register(sub)
    parser.unavailable = _register_plugins(sub, argv, core=set(sub.choices))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """`hotdice`: bad input ends in one `hotdice: error:` line and exit status 2; Ctrl-C
    ends it with status 130 and no traceback, even while the commands' modules load
    (OpenCV's take 0.3 s, where a Ctrl-C had printed one)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return 130


def _main(argv: Sequence[str] | None) -> int:
    # started with a stream closed (`<&-`, `>&-`): Python gives None, which print() takes
    # silently and the rest fails on with a traceback
    if sys.stderr is None:
        sys.stderr = io.StringIO()  # (an error is unseen, but its exit status still says so)
    if sys.stdout is None:
        sys.stderr.write("hotdice: error: standard output is closed: nothing can be shown\n")
        return EXIT_ERROR
    if sys.stdin is None:
        sys.stdin = io.StringIO()  # (read as empty: "no roll on standard input")
    # a character the output's encoding has no place for (a rule set named "Zoë's ★" on a
    # Windows console's cp1252) is shown as "?", not an error that shows nothing (standard
    # error keeps Python's backslash escapes)
    with contextlib.suppress(AttributeError, ValueError):  # (a stream of the caller's)
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
    argv = sys.argv[1:] if argv is None else list(argv)
    _READ.clear()  # (each run reads its rule file afresh: `_rules_once`)
    parser = build_parser(argv)
    wanted = _command_asked(argv)
    if wanted in parser.unavailable:  # (not "invalid choice": the command is known, but broken)
        _say_error(f"hotdice {wanted} is unavailable: {parser.unavailable[wanted]}")
        return EXIT_ERROR
    try:
        args, extra = parser.parse_known_args(argv)
    except BrokenPipeError:  # (`hotdice --help | head -1`: what was asked for was shown)
        return _pipe_closed()
    except OSError as error:  # (the help, to a full disk: `_Parser._print_message`)
        _say_error(_in_words(error))
        return EXIT_ERROR
    photos = getattr(args, "photos", None)
    if extra:  # photos listed after an option (`read a.jpg --rules farkle b.jpg`) are photos
        # (and after a `--` even one whose name starts with "-")
        cut = extra.index("--") if isinstance(photos, list) and "--" in extra else len(extra)
        named = extra[:cut]
        wrong = [e for e in named if e.startswith("-")] if isinstance(photos, list) else extra
        if wrong:  # (said by the command's parser: "see: hotdice eval --help")
            command = parser.commands.get(args.command, parser)
            command.error(f"unrecognized arguments: {' '.join(wrong)}")
        args.photos += named + extra[cut + 1 :]
    handler = getattr(args, "handler", None)
    if handler is None:  # (a usage error: the help goes where errors go, as argparse's do)
        with contextlib.suppress(OSError):  # (nowhere to say it: the status still does)
            parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        return int(handler(args) or 0)
    except BrokenPipeError:
        return _pipe_closed()
    except (ValueError, OSError, ArithmeticError) as error:  # (the last: a solve that
        # did not converge, `winprob` or `tie_break`; no preset has met it)
        _say_error(brief(_in_words(error)))
        return EXIT_ERROR


def _pipe_closed() -> int:
    """Standard output's reader went away (`| head -1`): what it wanted was written. What
    Python still holds for it goes to /dev/null, as Python's docs advise: flushed at exit
    into the closed pipe it had said "Exception ignored ... BrokenPipeError", exit 120 (a
    review)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # (no real descriptor)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return 0


def _in_words(error: Exception) -> str:
    """An error's message; an OSError naming no file, its words without Python's
    "[Errno 28]" before them ("No space left on device": the output, on a full disk)."""
    if isinstance(error, OSError) and error.strerror and error.filename is None:
        return error.strerror
    return str(error)


def _say_error(message: str) -> None:
    """The one-line error, where it can be said: to a full standard error
    (`2>/dev/full`) the exit status still says it (it was 1, Python's own, not 2)."""
    cli_strategy.say_on_stderr(f"hotdice: error: {message}\n")


if __name__ == "__main__":
    sys.exit(main())
