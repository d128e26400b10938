"""Rule sets as data: every table's rules are one frozen ``Rules`` value.

The presets and house-rule toggles are those of ``docs/RULES.md``; a table can also describe its
own rules as a mapping (from a TOML file read at the edge) naming a base preset, toggles and
option overrides. Nothing here scores a roll: ``scoring`` and ``turn`` read these options.

>>> rules = load_rules("ten-thousand+progressive+strike-out")
>>> rules.multiples, rules.strike_penalty, rules.dice
(<Multiples.PROGRESSIVE: 'progressive'>, 500, 6)
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from companion.errors import ParseError
from companion.names import has_visible, is_plain_line, name_key


class Multiples(enum.Enum):
    """How four, five or six of a kind from one roll score."""

    NONE = "none"
    """Only the triple counts; extra 1s and 5s score as singles."""
    DOUBLE = "double"
    """Each die past three doubles: 4 = 2T, 5 = 4T, 6 = 8T."""
    ADD = "add"
    """Each die past three adds T: 4 = 2T, 5 = 3T, 6 = 4T."""
    FLAT = "flat"
    """4 = 1000, 5 = 2000, 6 = 3000 whatever the face (boxed Farkle)."""
    DOUBLE_TURN = "double-turn"
    """A triple becomes a held set; each further die of it doubles the whole turn total."""
    PROGRESSIVE = "progressive"
    """All kept dice of a value since the last pick-up form one set; each past three doubles it."""


class Finish(enum.Enum):
    """How the game ends."""

    FIRST_TO_TARGET = "first-to-target"
    """The first banked score at or above the target wins at once."""
    FINAL_ROUND = "final-round"
    """Reaching the target gives every other player one more turn; the highest score wins."""
    TIE_OR_BEAT = "tie-or-beat"
    """Each tie or beat of the top score gives every other player another turn."""
    EXACT = "exact"
    """The target must be hit exactly; a turn ending above it is a bust."""


class InstantWin(enum.Enum):
    """Rolls that win the game on the spot."""

    NONE = "none"
    """No roll wins by itself."""
    SIX_ONES = "six-ones"
    """Six 1s in one roll (Farke)."""
    SIX_OF_A_KIND_FIRST_ROLL = "six-of-a-kind-first-roll"
    """Six of a kind on the turn's first roll (Ten Thousand's extra combinations)."""


# The advisor's work and the database's integers grow with the target: a game to a million
# is already a hundred times the usual 10,000
MAX_TARGET = 1_000_000

# Every score a rule set names is a multiple of this (checked below), so every roll, turn
# and banked total is too: the advisor's grid, and a typed score's sanity check
SCORE_STEP = 50

# Busts in a row before a strike-out penalty: the advisor tracks each count (100,000 took it
# a minute), and no table counts past a handful
MAX_STRIKES = 10


@dataclass(frozen=True)
class Rules:
    """One table's complete rules; every field is a named option a table may override."""

    name: str
    dice: int = 6
    target: int = 10_000
    entry: int = 0
    min_bank: int = 0
    triple_one: int = 1000
    multiples: Multiples = Multiples.NONE
    straight: int = 0
    three_pairs: int = 0
    four_kind_pair_is_three_pairs: bool = False
    four_kind_and_pair: int = 0
    two_triplets: int = 0
    full_house_bonus: int = 0
    nothing_scores: int = 0
    nothing_scores_first_roll_only: bool = False
    instant_win: InstantWin = InstantWin.NONE
    hot_dice_must_roll: bool = False
    takeover: bool = False
    finish: Finish = Finish.FINAL_ROUND
    the_420: bool = False
    hard_six: bool = False
    the_5150: bool = False
    strike_penalty: int = 0
    strike_after: int = 3

    def __post_init__(self) -> None:
        if self.dice not in (5, 6):
            raise ParseError(f"dice must be 5 or 6, not {self.dice}")
        if self.target > MAX_TARGET:  # (first: 10**20 is off the grid too, but too big is why)
            raise ParseError(f"target must be at most {MAX_TARGET:,}, not {self.target:,}")
        if self.target <= 0 or self.target % SCORE_STEP:
            raise ParseError(
                f"target must be a positive multiple of {SCORE_STEP}, not {self.target}"
            )
        for name in (
            "entry",
            "min_bank",
            "triple_one",
            "straight",
            "three_pairs",
            "four_kind_and_pair",
            "two_triplets",
            "full_house_bonus",
            "nothing_scores",
            "strike_penalty",
        ):
            value = getattr(self, name)
            if value > MAX_TARGET:  # (the advisor's work grows with every score named)
                raise ParseError(f"{name} must be at most {MAX_TARGET:,}, not {value:,}")
            if value < 0 or value % SCORE_STEP:
                raise ParseError(
                    f"{name} must be a multiple of {SCORE_STEP} and at least 0, not {value}"
                )
        if not 1 <= self.strike_after <= MAX_STRIKES:
            raise ParseError(
                f"strike_after must be 1 to {MAX_STRIKES} busts in a row, not {self.strike_after}"
            )

    def __hash__(self) -> int:
        # Rules key every scoring table; hashing two dozen fields (enums among them) on each
        # look-up would cost more than the look-up itself, so the hash is worked out once.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    def triple(self, value: int) -> int:
        """T(v): the three-of-a-kind value."""
        return self.triple_one if value == 1 else 100 * value

    def least_bank(self, *, on_board: bool) -> int:
        """The smallest turn total a player may bank: the minimum bank, and the entry
        threshold while not yet on the board (what the engine, the advisor, the win
        chances and the sheet's "to pass" all go by)."""
        return max(self.min_bank, 0 if on_board else self.entry)

    def bank_ends_game(self, banked: int, *, bonus_owed: bool = True) -> str:
        """What a bank to ``banked`` does where it ends the game at once, in words ("" where
        it does not): a player at 9,000 keeping 1,000 under an exact finish was not told
        that banking wins, nor that any roll would bust (said by ``hotdice turn``, which
        knows no other player, so a 5150 bonus roll may be owed, ``bonus_owed``; and by the
        sheet beside its Bank button where the game's state says the bank wins).

        >>> load_rules("exact-10000").bank_ends_game(10_000)
        'banking hits exactly 10,000 and wins the game, and a roll can only bust'
        """
        if self.finish is Finish.EXACT and banked == self.target:
            exactly = f"banking hits exactly {self.target:,}"
            return f"{exactly} and wins the game, and a roll can only bust"
        if self.finish is Finish.FIRST_TO_TARGET and banked >= self.target:
            owed = (
                ", once any 5150 bonus rolls still owed are played"
                if self.the_5150 and bonus_owed
                else ""
            )
            return f"banking reaches {self.target:,} and wins the game{owed}"
        return ""

    def bank_wins_at_once(self, banked: int) -> bool:
        """Whether a bank to ``banked`` wins the game there and then, so that no point past
        it counts: first to the target, with no 5150 bonus rolls to come after (those are
        added, and may still change who leads). Advice played for points had said to roll
        on past a winning bank (a review)."""
        return self.finish is Finish.FIRST_TO_TARGET and banked >= self.target and not self.the_5150

    def bank_wins(self, banked: int) -> bool:
        """Whether a bank to ``banked`` wins the game there and then, as advice says it
        (`bank_ends_game`'s words): first to the target (`bank_wins_at_once`), or exactly
        on an exact one, with no 5150 bonus rolls to come after (a keep to exactly 10,000
        under ``exact-10000`` had read "then bank: expect 300", no word that it wins)."""
        exact = self.finish is Finish.EXACT and banked == self.target and not self.the_5150
        return exact or self.bank_wins_at_once(banked)

    def past_exact_target(self, total: int) -> bool:
        """Whether a score plus turn total is past an exact target: such a turn can never be
        banked, and every roll busts (a takeover can hand one over)."""
        return self.finish is Finish.EXACT and total > self.target

    def takeover_only_busts(self, total: int) -> bool:
        """Whether a takeover offer that would put its taker at ``total`` can only bust: under
        an exact finish, past the target, or at it exactly, since a taker must roll and keep
        before banking and every keep then passes it."""
        return self.finish is Finish.EXACT and total >= self.target

    def past_target_refusal(self, total: int) -> str:
        """Why a total past the exact target cannot be banked, in one wording for the
        engine's refusal and the advisor's."""
        return f"{total:,} would pass {self.target:,}: this turn can only bust"


PRESETS: dict[str, Rules] = {
    "hot-dice": Rules(
        "hot-dice",
        dice=6,
        entry=1000,
        multiples=Multiples.DOUBLE_TURN,
        straight=1500,
        finish=Finish.FINAL_ROUND,
    ),
    "dice-10000": Rules(
        "dice-10000",
        dice=5,
        multiples=Multiples.DOUBLE,
        finish=Finish.FIRST_TO_TARGET,
    ),
    "farke": Rules(
        "farke",
        dice=6,
        entry=750,
        multiples=Multiples.DOUBLE,
        three_pairs=750,
        straight=1500,
        instant_win=InstantWin.SIX_ONES,
        finish=Finish.FIRST_TO_TARGET,
    ),
    "minnesota": Rules(
        "minnesota",
        dice=5,
        entry=1000,
        multiples=Multiples.DOUBLE,
        straight=1500,
        hot_dice_must_roll=True,
        takeover=True,
        finish=Finish.TIE_OR_BEAT,
    ),
    "exact-10000": Rules(
        "exact-10000",
        dice=6,
        entry=1000,
        multiples=Multiples.ADD,
        straight=1500,
        three_pairs=1500,
        takeover=True,
        finish=Finish.EXACT,
    ),
    "ten-thousand": Rules(
        "ten-thousand",
        dice=6,
        multiples=Multiples.NONE,
        finish=Finish.FINAL_ROUND,
    ),
    "farkle": Rules(
        "farkle",
        dice=6,
        triple_one=300,
        multiples=Multiples.FLAT,
        straight=1500,
        three_pairs=1500,
        four_kind_and_pair=1500,
        two_triplets=2500,
        finish=Finish.FINAL_ROUND,
    ),
    "zilch": Rules(
        "zilch",
        dice=6,
        multiples=Multiples.DOUBLE,
        straight=1500,
        three_pairs=1500,
        four_kind_pair_is_three_pairs=True,
        nothing_scores=500,
        min_bank=300,
        strike_penalty=500,
        strike_after=3,
        finish=Finish.FINAL_ROUND,
    ),
}

PRESET_SOURCES: dict[str, str] = {
    "hot-dice": "Hot Dice (seed 000)",
    "dice-10000": "Dice 10,000, five dice (seed 001)",
    "farke": "Farke, the six-dice version of seed 001",
    "minnesota": "Minnesota Hot Dice (seed 002)",
    "exact-10000": "Dice, exactly 10,000 (seed 003)",
    "ten-thousand": "Ten Thousand (seed 004)",
    "farkle": "Farkle, the boxed commercial rules",
    "zilch": "Zilch, the online rules",
}

TOGGLES: dict[str, tuple[str, dict[str, Any]]] = {
    "greed": ("entry 1000 in one turn to get on the board", {"entry": 1000}),
    "amish": (
        "a player on the board may take over the previous player's dice and turn total",
        {"takeover": True},
    ),
    "the-420": (
        "turn total exactly 400 with one die left: a rolled 2 may be rolled again",
        {"the_420": True},
    ),
    "hard-six": ("one die left: a rolled 6 may be rolled again", {"hard_six": True}),
    "the-5150": (
        "a score ever exactly 5150 earns one bonus roll of all dice at the end",
        {"the_5150": True},
    ),
    "progressive": (
        "kept dice of one value form a growing set; each past three doubles it",
        {"multiples": Multiples.PROGRESSIVE},
    ),
    "extra-combos": (
        "three pairs 500, straight 1000, full house T+250, a scoreless first "
        "roll of all dice 500, six of a kind on the first roll wins",
        {
            "three_pairs": 500,
            "straight": 1000,
            "full_house_bonus": 250,
            "nothing_scores": 500,
            "nothing_scores_first_roll_only": True,
            "instant_win": InstantWin.SIX_OF_A_KIND_FIRST_ROLL,
        },
    ),
    "threshold": ("entry 500 in one turn to get on the board", {"entry": 500}),
    "strike-out": (
        "three busts in a row cost 500 (never below 0)",
        {"strike_penalty": 500, "strike_after": 3},
    ),
}

_OPTION_TYPES: dict[str, type] = {f.name: f.type for f in fields(Rules)}  # type: ignore[misc]
_ENUMS: dict[str, type[enum.Enum]] = {
    "multiples": Multiples,
    "finish": Finish,
    "instant_win": InstantWin,
}


def option_names() -> list[str]:
    """The options a custom rule set may override (every field but ``name``)."""
    return [f.name for f in fields(Rules) if f.name != "name"]


def _coerce(key: str, value: Any) -> Any:
    """Check one override's type, so a typo in a rule file fails loudly with its key."""
    if key in _ENUMS:
        enum_type = _ENUMS[key]
        if isinstance(value, enum_type):
            return value
        try:
            return enum_type(value)
        except ValueError:
            choices = ", ".join(m.value for m in enum_type)
            raise ParseError(f"{key} must be one of {choices}, not {value!r}") from None
    default = getattr(Rules("x"), key)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ParseError(f"{key} must be true or false, not {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParseError(f"{key} must be a whole number, not {value!r}")
    return value


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.value if isinstance(value, enum.Enum) else f"{value:,}"


def _did_you_mean(name: str, known: Mapping[str, Any]) -> str:
    """A suggestion for a mistyped name (case, a letter or two, the start of a long one), as
    ` (did you mean 'x'?)`, or the two closest (`farkel`: 'farke' or 'farkle')."""
    lowered = {k.lower(): k for k in known}
    low = unicodedata.normalize("NFKC", name).lower()  # (ＦＡＲＫＬＥ, typed full-width)
    if low in lowered:
        picks = [low]
    else:
        started = [k for k in lowered if len(low) >= 4 and k.startswith(low)]
        picks = started if len(started) == 1 else []
        picks = picks or difflib.get_close_matches(low, list(lowered), n=2, cutoff=0.75)
    return f" (did you mean {' or '.join(repr(lowered[k]) for k in picks)}?)" if picks else ""


def _build(
    base: str, toggles: list[str], overrides: Mapping[str, Any], name: str, strict: bool
) -> Rules:
    if base not in PRESETS:
        raise ParseError(
            f"unknown rule set {base!r}{_did_you_mean(base, PRESETS)}; "
            f"presets: {', '.join(PRESETS)}"
        )
    options: dict[str, Any] = {}
    set_by: dict[str, str] = {}
    for k, toggle in enumerate(toggles):
        if toggle not in TOGGLES:
            if toggle in PRESETS:
                raise ParseError(f"{toggle!r} is a preset, not a house rule: one preset per game")
            raise ParseError(
                f"unknown house rule {toggle!r}{_did_you_mean(toggle, TOGGLES)}; "
                f"toggles: {', '.join(TOGGLES)}"
            )
        if toggle in toggles[:k]:  # one table's rules, one name: farkle+greed+greed is a typo
            raise ParseError(f"house rule {toggle!r} is named twice")
        for key, value in TOGGLES[toggle][1].items():
            if strict and key in set_by and options[key] != value:  # (the order would decide)
                raise ParseError(
                    f"house rules {set_by[key]!r} and {toggle!r} set the "
                    f"{OPTION_WORDS.get(key, key)} two ways ({_shown(options[key])} and "
                    f"{_shown(value)}): tick one of them"
                )
            set_by[key] = toggle
        options.update(TOGGLES[toggle][1])
    for key, value in overrides.items():
        if key not in _OPTION_TYPES or key == "name":
            known = dict.fromkeys(option_names())
            hint = _did_you_mean(key, known) if isinstance(key, str) else ""  # (a key of 5)
            raise ParseError(
                f"unknown rule option {key!r}{hint}; every option and "
                "its value: hotdice rules farkle --json"
            )
        options[key] = _coerce(key, value)
    try:
        return replace(PRESETS[base], name=name, **options)
    except ParseError:
        raise
    except (TypeError, ValueError) as error:  # pragma: no cover - dataclass guards above
        raise ParseError(str(error)) from None


def load_rules(
    spec: str | Mapping[str, Any] | Rules, *, target: int | None = None, strict: bool = True
) -> Rules:
    """Rules from ``"preset+toggle+..."`` or a mapping ``{"base", "toggles", option: value}``.

    ``strict=False`` reads the rules of a game already recorded as earlier versions did: two
    house rules setting one option two ways (the later one wins), any one-line name. New
    rules are checked (``strict``), so no new game is made so; an old one still replays.

    >>> load_rules("minnesota+the-420", target=5000).target
    5000
    >>> load_rules({"base": "farkle", "entry": 500}).entry
    500
    """
    if isinstance(spec, Rules):
        rules = spec
    elif isinstance(spec, str):
        base, toggles = split_spec(spec)
        if not base:
            raise ParseError("empty rule set name")
        rules = _build(base, toggles, {}, "+".join([base, *toggles]), strict)
    elif isinstance(spec, Mapping):
        options = dict(spec)
        base = options.pop("base", None)
        if base is None:
            raise ParseError("a custom rule set needs 'base', the name of a preset")
        if not isinstance(base, str):
            raise ParseError(f"'base' must be the name of a preset, in quotes, not {base!r}")
        toggles = options.pop("toggles", [])
        if (
            isinstance(toggles, str)
            or not isinstance(toggles, list)
            or not all(isinstance(t, str) for t in toggles)
        ):
            raise ParseError("'toggles' must be a list of house-rule names")
        label = options.pop("name", None)
        if label is not None:
            if not isinstance(label, str):
                raise ParseError("'name' must be text")
            # (control characters, and lone surrogates, which no output can encode, even
            # in a log kept as recorded; new rule sets also nothing that turns or breaks it)
            if any(unicodedata.category(c) in ("Cc", "Cs") for c in label) or (
                strict and not is_plain_line(label)
            ):
                raise ParseError(f"'name' must be one line of plain text, not {label!r}")
            if strict and not has_visible(label):  # ("123456 under    : ...")
                raise ParseError("'name' must not be blank: name the table's rules")
            # (a sheet headed "Zilch" reads as zilch, and "farkle" with a zero-width space
            # or a soft hyphen in it as farkle: compared as they look, `name_key`)
            named = preset_spec(name_key(label))
            if strict and named is not None:
                named_base, named_toggles = named
                other_toggles = sorted(named_toggles) != sorted(toggles)
                if named_base != base:
                    raise ParseError(
                        f"'name' {label!r} names the preset {named_base}, but the base "
                        f"is {base}: call these rules something else"
                    )
                if named_toggles and other_toggles:
                    # ("farkle+greed" with no greed ticked advised a bank greed would refuse)
                    ticked = "+".join([base, *toggles])
                    raise ParseError(
                        f"'name' {label!r} names other house rules than the file ticks "
                        f"({ticked}): call these rules something else"
                    )
                if (options or other_toggles) and not name_key(label).endswith(" (custom)"):
                    label += " (custom)"  # (a preset's name on other rules: said so)
        name = label or "+".join([base, *toggles]) + (" (custom)" if options else "")
        rules = _build(base, toggles, options, name, strict)
    else:
        raise ParseError(f"rules must be a name or a table of options, not {type(spec).__name__}")
    if target is not None:
        if isinstance(target, bool) or not isinstance(target, int):
            raise ParseError(f"target must be a whole number, not {target!r}")
        rules = replace(rules, target=target)
    if len(_INTERNED) >= _INTERNED_MAX:  # a server asked for endless variants stays bounded
        return _INTERNED.get(rules, rules)
    return _INTERNED.setdefault(rules, rules)


def check_winnable(rules: Rules) -> None:
    """An exact target below the least first bank can never be hit: a new game so is
    refused before anyone plays it (a roll still scores under such rules, and a game
    recorded so still replays)."""
    least = rules.least_bank(on_board=False)
    if rules.finish is Finish.EXACT and least > rules.target:
        word = "entry threshold" if rules.entry >= rules.min_bank else "minimum bank"
        raise ParseError(
            f"no one could win: the target {rules.target:,} must be hit exactly, but a "
            f"first bank needs at least {least:,} (the {word}); raise the target or "
            f"lower the {word}"
        )


# Equal rule sets are handed out as one object, so the scoring tables keyed by them are found
# by identity instead of by comparing every option on each look-up.
_INTERNED: dict[Rules, Rules] = {}
_INTERNED_MAX = 1024


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every option as plain JSON values (enums by their names in the rule files)."""
    out = dataclasses.asdict(rules)
    return {k: (v.value if isinstance(v, enum.Enum) else v) for k, v in out.items()}


def _points(n: int) -> str:
    return f"{n:,}"


def split_spec(spec: str) -> tuple[str, list[str]]:
    """A spec's preset and house rules, as `load_rules` reads them: ``"farkle + greed"`` is
    farkle, with greed (neither checked)."""
    base, *toggles = (part.strip() for part in spec.strip().split("+"))
    return base, toggles


def preset_spec(name: str) -> tuple[str, list[str]] | None:
    """A rule set's name (or spec) read as the preset and house rules it names
    (``"farkle+greed (custom)"``: farkle, with greed); None for a name of the table's own
    ("zilch night", "our-table")."""
    base, toggles = split_spec(name.removesuffix(" (custom)"))
    if base in PRESETS and all(t in TOGGLES for t in toggles):
        return base, toggles
    return None


def named_preset(name: str) -> str | None:
    """The preset a rule set's name is a spec of (``"farkle+greed (custom)"``: farkle)."""
    spec = preset_spec(name)
    return spec[0] if spec else None


OPTION_WORDS = {
    "entry": "entry threshold",
    "three_pairs": "three pairs",
    "full_house_bonus": "full house bonus",
    "nothing_scores": "a scoreless roll",
    "nothing_scores_first_roll_only": "a scoreless roll of all dice scores only as the first",
    "instant_win": "instant win",
    "strike_penalty": "strike penalty",
    "strike_after": "busts in a row for a strike",
    "the_420": "the 420",
    "hard_six": "the hard six",
    "the_5150": "the 5150",
}
"""Rule options in a player's words, where the option's name is not already one."""


def _replaced_by_house_rules(rules: Rules) -> list[str]:
    """For ``preset+toggle+...``: what a toggle sets that the preset itself sets otherwise
    (``farkle+extra-combos`` scores farkle's straight 1,000, not 1,500), so a table that
    picked a house rule from another preset's seed sees what it gave up."""
    spec = preset_spec(rules.name)
    if spec is None:
        return []
    base, toggles = spec
    preset, defaults = PRESETS[base], {f.name: f.default for f in fields(Rules)}

    def own(key: str) -> bool:  # (a qualifier of the preset's own rule is its own too)
        qualified = {"nothing_scores_first_roll_only": "nothing_scores"}.get(key, key)
        return getattr(preset, qualified) != defaults[qualified]

    def change(key: str, value: Any) -> str:
        words = OPTION_WORDS.get(key, key)
        if isinstance(value, bool):
            return f"{words} (not so in {base})" if value else f"not: {words} (as in {base})"
        return f"{words} {_shown(value)}, not {base}'s {_shown(getattr(preset, key))}"

    return [
        f"  {toggle}: {change(key, value)}"
        for toggle in toggles
        for key, value in TOGGLES[toggle][1].items()
        if getattr(preset, key) != value and own(key) and getattr(rules, key) == value
    ]


# (a free re-roll need not be taken: the README's decision, as RULES.md's "may")
_OR_BANKED = " (or the turn banked, where it could be before that roll)"


def describe(rules: Rules) -> str:
    """The rule set in plain words, so a table can check it before the first roll."""
    t = rules.triple
    lines = [f"{rules.name}: {rules.dice} dice, game to {_points(rules.target)}."]
    base = named_preset(rules.name)
    if base in PRESET_SOURCES:
        lines[0] += f" ({PRESET_SOURCES[base]})"
    lines.append("")
    # (a held set grows across rolls: "one roll only" had headed the line that says so)
    grows = rules.multiples in (Multiples.DOUBLE_TURN, Multiples.PROGRESSIVE)
    lines.append(
        "Scoring (dice of one roll, but for a set that grows):"
        if grows
        else "Scoring (dice of one roll only):"
    )
    lines.append("  single 1: 100; single 5: 50; other single dice score nothing")
    lines.append(f"  three 1s: {_points(t(1))}; three 2s-6s: 100 x the face (200 ... 600)")
    m = rules.multiples
    if m is Multiples.NONE:
        lines.append("  four or more of a kind: only the triple counts; extra 1s and 5s as singles")
    elif m is Multiples.DOUBLE:
        six = "; six: 8 x" if rules.dice == 6 else ""
        lines.append(
            f"  four of a kind: 2 x the triple; five: 4 x{six} "
            f"(five 1s {_points(4 * t(1))}, five 6s {_points(4 * t(6))})"
        )
    elif m is Multiples.ADD:
        lines.append(
            f"  four or more of a kind: the triple once more for each extra die "
            f"(five 6s {_points(3 * t(6))})"
        )
    elif m is Multiples.FLAT:
        six = "; six 3,000" if rules.dice == 6 else ""
        lines.append(f"  four of a kind 1,000; five 2,000{six}, whatever the face")
    elif m is Multiples.DOUBLE_TURN:
        lines.append(
            "  a triple rolled at once becomes a held set: each further die of it, in "
            "the same roll or a later one before hot dice, doubles the whole turn "
            "total (six 2s = 1,600)"
        )
    elif m is Multiples.PROGRESSIVE:
        lines.append(
            "  all kept dice of one value since the last pick-up form one set: two "
            "kept 1s (or 5s) plus a third make three of a kind, and each die past "
            f"three doubles the set (three 1s then three more: {_points(8 * t(1))})"
        )
    if rules.dice == 6:
        lines.append("  six of a kind may always be scored as two triples instead")
    if rules.straight:
        run = "1-2-3-4-5-6" if rules.dice == 6 else "1-2-3-4-5 or 2-3-4-5-6"
        lines.append(f"  straight {run}, rolled at once: {_points(rules.straight)}")
    six_dice = rules.dice == 6  # (the combinations of six dice, and six 1s, need them all)
    if rules.three_pairs and six_dice:
        extra = (
            " (four of a kind plus a pair counts too)"
            if (rules.four_kind_pair_is_three_pairs)
            else ""
        )
        lines.append(f"  three pairs: {_points(rules.three_pairs)}{extra}")
    if rules.four_kind_and_pair and six_dice:
        lines.append(f"  four of a kind plus a pair: {_points(rules.four_kind_and_pair)}")
    if rules.two_triplets and six_dice:
        lines.append(f"  two triplets: {_points(rules.two_triplets)}")
    if rules.full_house_bonus:
        lines.append(
            f"  full house (three of a kind and a pair): the triple + {rules.full_house_bonus}"
        )
    if rules.nothing_scores:
        when = "the first roll of a turn, " if rules.nothing_scores_first_roll_only else ""
        lines.append(
            f"  {when}all {rules.dice} dice scoring nothing: "
            f"{_points(rules.nothing_scores)} (hot dice)"
        )
    if six_dice and rules.instant_win is InstantWin.SIX_ONES:
        lines.append("  six 1s in one roll win the game at once")
    elif six_dice and rules.instant_win is InstantWin.SIX_OF_A_KIND_FIRST_ROLL:
        lines.append("  six of a kind on the first roll of a turn wins the game at once")
    lines.append("")
    lines.append("A turn:")
    lines.append(
        "  keep at least one scoring die from each roll, then roll the rest or bank; "
        "a roll with nothing to keep is a bust and the turn total is lost"
    )
    hot = (
        "must roll all of them again before banking"
        if rules.hot_dice_must_roll
        else ("may roll all of them again")
    )
    lines.append(f"  hot dice: when every die has been kept, the player {hot}")
    if rules.entry:
        lines.append(
            f"  getting on the board: the first bank needs {_points(rules.entry)} in one turn"
        )
    else:
        least = "" if rules.min_bank else ": any turn total may be banked"
        lines.append(f"  no entry threshold{least}")
    if rules.min_bank:
        lines.append(f"  every bank needs at least {_points(rules.min_bank)}")
    if rules.takeover:
        lines.append(
            "  takeover: a player on the board may pick up the dice the previous "
            "player left and go on from that turn total, or roll all dice from zero"
        )
    if rules.the_420:
        lines.append(
            "  the 420: turn total exactly 400 with one die left, a rolled 2 may be "
            f"rolled again{_OR_BANKED}"
        )
    if rules.hard_six:
        lines.append(f"  the hard six: one die left, a rolled 6 may be rolled again{_OR_BANKED}")
    if rules.strike_penalty:
        lines.append(
            f"  {rules.strike_after} busts in a row cost "
            f"{_points(rules.strike_penalty)} (never below 0) and reset the count"
        )
    lines.append("")
    lines.append("Winning:")
    target = _points(rules.target)
    if rules.finish is Finish.FIRST_TO_TARGET and rules.the_5150:
        lines.append(
            f"  the first player to bank {target} or more wins at once, unless a player "
            "who ever stood at exactly 5,150 still has the 5150's bonus roll: after such "
            "rolls the highest score wins, tied leaders play tie-break turns"
        )
    elif rules.finish is Finish.FIRST_TO_TARGET:
        lines.append(f"  the first player to bank {target} or more wins at once")
    elif rules.finish is Finish.FINAL_ROUND:
        lines.append(
            f"  once a player reaches {target}, every other player has one more "
            "turn; the highest score wins, tied leaders play tie-break turns"
        )
    elif rules.finish is Finish.TIE_OR_BEAT:
        lines.append(
            f"  once a player reaches {target}, every other player has one turn to "
            "tie or beat the top score; each tie or beat gives every other player "
            "another turn; tied leaders then play tie-break turns"
        )
    elif rules.finish is Finish.EXACT:
        lines.append(
            f"  reach exactly {target} to win at once; a turn that would end above "
            "it is a bust, and a roll whose scoring dice would all carry the player "
            "above it must be kept whole, so it busts"
        )
    if rules.the_5150 and rules.finish is Finish.EXACT:
        lines.append(
            f"  the 5150 never comes into play: reaching exactly {target} wins at once, "
            "with no bonus roll (one could only carry a player past it)"
        )
    elif rules.the_5150:
        lines.append(
            "  the 5150: a player whose score is ever exactly 5,150 rolls all dice "
            "once more at the end and adds the best keep"
        )
    replaced = _replaced_by_house_rules(rules)
    if replaced:
        lines.append("")
        lines.append("House rules that replace the preset's own:")
        lines.extend(replaced)
    return "\n".join(lines)
