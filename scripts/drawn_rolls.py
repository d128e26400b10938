"""Rolls of six dice of one set drawn on tables the dev photos lack, read die by die:

    python scripts/drawn_rolls.py [--rolls 2] [--seed 0] [--sets S,..] [--tables T,..]
                                  [--slants A,..] [--sides P,..] [--upright] [--failures]

The dev photos hold a few die sets on three tables. Here each roll is six dice of one set
(white with black pips, red with white, black with white, or any: the training script's
random sets, marbled ones too) drawn as `synthetic_dice.py`'s 3D cubes at one camera slant
for the roll (0, 20 or 35 degrees, any direction; tipped, side faces show beside the top
with their pips), top faces of 24, 32, 48 or 72 pixels in a 1280x720 frame, none
touching, on a plain table of a random colour, a felt or a wooden one
(`stress_vision.drawn_table`: planks with their grain). `--rolls` rolls are drawn for each
of those 144 cases (or of those that `--sets`, `--tables`, `--slants` and `--sides` name,
in the order named: only they are drawn, so a seed draws other rolls for them than it does
in a full run) and read by `vision.read`; a die is found when a die read lies within
three quarters of its side of its top face's centre (one to one). Prints, for each set on
each table, the rolls read right (exactly the drawn values), the dice missed and misread
(and how many of the misread were read at `vision.ASK_BELOW` or more, so the player would
not be asked to check them) and the extras, then the same by slant, by size and over all;
`--failures` lists each roll read wrong.
`--upright` draws each roll as a phone held upright sees it: the slant's direction within
`UPRIGHT_ROLL` of the one that shows the side faces below the top (any direction, by
default, shows them above it as often, which such a phone does not see), the rest of each
roll as without it. `--slants` may also name the steep slants, 40, 45 and 50 degrees (not
drawn unless named): the networks were trained on dice tipped up to 40 degrees, and from
45 degrees on a top face is as foreshortened as a side face turned to the camera, or
more, so only which way is up tells it.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path += [str(ROOT), str(ROOT / "scripts")]  # (`vision` as installed or as PYTHONPATH says)

from stress_vision import drawn_table  # noqa: E402

import vision  # noqa: E402
from synthetic_dice import die_style, paste_die  # noqa: E402

T = TypeVar("T")
FRAME = (1280, 720)
SETS = ("white", "red", "black", "any")
TABLES = ("plain", "felt", "wood")
SLANTS = (0.0, 20.0, 35.0)
STEEP = (40.0, 45.0, 50.0)  # (slants drawn only when named)
UPRIGHT_ROLL = float(np.radians(10))
"""How far a phone held upright may turn about its axis from level (radians)."""
SIDES = (24, 32, 48, 72)
DICE = 6


@dataclass(frozen=True)
class Drawn:
    """A drawn die: its value and its top face's centre and side, in pixels."""

    value: int
    x: float
    y: float
    side: float


def set_style(kind: str, rng: np.random.Generator) -> dict:
    """A die set's look (`synthetic_dice.die_style`): `kind` fixes the colours of the
    common plastic sets, plain (not marbled); "any" keeps the random draw."""
    style = die_style(rng)
    colours = {
        "white": ((235, 235, 235), (20, 20, 20)),
        "red": ((30, 30, 170), (240, 240, 240)),
        "black": ((25, 25, 25), (235, 235, 235)),
    }
    if kind in colours:
        face, pip = colours[kind]
        style.update(face=np.array(face, np.float32), pip=np.array(pip, np.float32), marble=0.0)
    elif kind != "any":
        raise ValueError(f"no die set {kind!r}: one of {', '.join(SETS)}")
    return style


def table_top(kind: str, side: float, rng: np.random.Generator) -> np.ndarray:
    """A 1280x720 table top of `kind` (float BGR) for dice of `side` pixels."""
    w, h = FRAME
    if kind == "plain":
        top = np.empty((h, w, 3), np.float32)
        top[:] = rng.integers(0, 256, 3)
        return top + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    if kind not in TABLES:
        raise ValueError(f"no table {kind!r}: one of {', '.join(TABLES)}")
    return drawn_table(kind, h, w, side, rng).astype(np.float32)


def drawn_roll(
    rng: np.random.Generator,
    dice_set: str,
    table: str,
    side: float,
    slant: float,
    *,
    upright: bool = False,
) -> tuple[np.ndarray, list[Drawn]]:
    """A frame of `DICE` dice of one set, top faces `side` pixels, seen at `slant` degrees
    (one slant for the roll, any direction, or if `upright` as a phone held upright sees
    it: side faces below the top), none touching, and the dice drawn."""
    w, h = FRAME
    canvas = table_top(table, side, rng)
    style = set_style(dice_set, rng)
    # (one draw either way: an upright roll is the same roll but for its slant's direction;
    # `synthetic_dice.cube_rotation` tips a die towards direction 0 to show its sides below)
    way = rng.uniform(-UPRIGHT_ROLL, UPRIGHT_ROLL) if upright else rng.uniform(0, 2 * np.pi)
    pose = (float(np.radians(slant)), float(way))
    placed: list[tuple[float, float]] = []
    drawn = []
    for _ in range(DICE):
        for _try in range(200):  # (a free spot; the last one tried after 200)
            x, y = rng.uniform(side, w - side), rng.uniform(side, h - side)
            if all(np.hypot(x - px, y - py) > 1.8 * side for px, py in placed):
                break
        placed.append((x, y))
        value = int(rng.integers(1, 7))
        tx, ty, _ = paste_die(rng, canvas, value, x, y, side, pose=pose, style=style)
        drawn.append(Drawn(value, tx, ty, side))
    return np.clip(canvas, 0, 255).astype(np.uint8), drawn


@dataclass
class Judged:
    """How a roll was read: the drawn values missed, (drawn, read) pairs misread, the
    values of the extras, and how many of the misread dice were read at `vision.ASK_BELOW`
    or more (`unasked`: wrong, and the player not asked to check them)."""

    missed: list[int] = field(default_factory=list)
    misread: list[tuple[int, int]] = field(default_factory=list)
    extra: list[int] = field(default_factory=list)
    unasked: int = 0

    @property
    def right(self) -> bool:
        return not (self.missed or self.misread or self.extra)


def judged(drawn: list[Drawn], read: vision.Detections) -> Judged:
    """Each drawn die matched to the nearest unmatched die read within 3/4 of its side."""
    out = Judged()
    left = list(read.dice)
    for die in drawn:
        near = [
            (float(np.hypot(d.center_xy[0] - die.x, d.center_xy[1] - die.y)), k)
            for k, d in enumerate(left)
        ]
        near = [(dist, k) for dist, k in near if dist < 0.75 * die.side]
        if not near:
            out.missed.append(die.value)
            continue
        got = left.pop(min(near)[1])
        if got.value != die.value:
            out.misread.append((die.value, got.value))
            out.unasked += got.confidence >= vision.ASK_BELOW
    out.extra = [d.value for d in left]
    return out


@dataclass
class Tally:
    rolls: int = 0
    right: int = 0
    missed: int = 0
    misread: int = 0
    unasked: int = 0
    extra: int = 0

    def add(self, j: Judged) -> None:
        self.rolls += 1
        self.right += j.right
        self.missed += len(j.missed)
        self.misread += len(j.misread)
        self.unasked += j.unasked
        self.extra += len(j.extra)

    def line(self, name: str) -> str:
        return (
            f"{name:<14} {self.right:4d}/{self.rolls:<4d} right; dice missed {self.missed}, "
            f"misread {self.misread} ({self.unasked} not asked), extra {self.extra}"
        )


def _named(option: str, given: str, known: tuple[T, ...]) -> list[T]:
    """The cases of `known` that a comma-separated option names, in the order named, each
    once; a number names the case of that value ("35.0" names 35). Raises ValueError (one
    line, for the option's error) on a name that is no case."""
    chosen: list[T] = []
    unknown: list[str] = []
    for name in (n.strip() for n in given.split(",")):
        number = _number(name)
        case = next((k for k in known if name == _case_name(k) or number == k), None)
        if case is None:
            unknown.append(repr(name))
        elif case not in chosen:
            chosen.append(case)
    if unknown:
        names = ", ".join(map(_case_name, known))
        raise ValueError(f"{option}: {', '.join(unknown)} not one of {names}")
    return chosen


def _case_name(case: object) -> str:
    """A case as the options and the tallies write it (a slant of 35.0 degrees as "35")."""
    return f"{case:g}" if isinstance(case, float) else str(case)


def _number(name: str) -> float | None:
    """`name` as a number, or None."""
    try:
        return float(name)
    except ValueError:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=2, help="rolls drawn for each case")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sets", default=",".join(SETS), help="die sets, comma-separated")
    ap.add_argument("--tables", default=",".join(TABLES), help="tables, comma-separated")
    ap.add_argument(
        "--slants",
        default=",".join(map(_case_name, SLANTS)),
        help="camera slants in degrees, comma-separated (default: %(default)s; "
        f"{', '.join(map(_case_name, STEEP))} drawn only when named)",
    )
    ap.add_argument(
        "--sides",
        default=",".join(map(_case_name, SIDES)),
        help="top-face sides in pixels, comma-separated (default: %(default)s)",
    )
    ap.add_argument(
        "--upright",
        action="store_true",
        help="as a phone held upright sees the dice: side faces below the top",
    )
    ap.add_argument("--failures", action="store_true", help="list each roll read wrong")
    args = ap.parse_args(argv)
    if args.rolls < 1:
        ap.error("--rolls: at least 1")
    if args.seed < 0:
        ap.error("--seed: 0 or more")
    try:
        sets = _named("--sets", args.sets, SETS)
        tables = _named("--tables", args.tables, TABLES)
        slants = _named("--slants", args.slants, SLANTS + STEEP)
        sides = _named("--sides", args.sides, SIDES)
    except ValueError as e:
        ap.error(str(e))
    rng = np.random.default_rng(args.seed)
    tallies: dict[str, Tally] = defaultdict(Tally)
    wrong = []
    for dice_set in sets:
        for table in tables:
            for slant in slants:
                for side in sides:
                    for _ in range(args.rolls):
                        img, drawn = drawn_roll(
                            rng, dice_set, table, side, slant, upright=args.upright
                        )
                        j = judged(drawn, vision.read(img))
                        tilt = f"slant {_case_name(slant)}"
                        keys = (f"{dice_set} on {table}", tilt, f"side {side}")
                        for key in (*keys, "all"):
                            tallies[key].add(j)
                        if not j.right:
                            wrong.append(
                                f"{', '.join(keys)}: "
                                f"missed {j.missed}, misread {j.misread}, extra {j.extra}"
                            )
    order = [f"{d} on {t}" for d in sets for t in tables]
    order += [f"slant {_case_name(a)}" for a in slants] + [f"side {s}" for s in sides] + ["all"]
    for key in order:
        print(tallies[key].line(key))
    if args.failures:
        print("\n".join(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
