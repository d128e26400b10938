"""Rolls of a few dice of different sizes, as a phone held low at a slant sees them:

    python scripts/near_and_far.py [--rolls 6] [--seed 0] [--cubes]

For two and three dice, far ones of 24, 40 or 64 pixels and one near die 1.5, 2, 2.5 or 3
times their size, `--rolls` drawn rolls each (a 1280x720 frame, a plain table of a random
colour, white dice with black pips or red ones with white, any values, turned any way;
`tests/vision/conftest.py` draws them), read by `vision.read`. Read right = exactly the
drawn values. Too few dice to fit a slant to (four), so only the size rules and the looks
decide; prints the share read right for each case and over all, then each roll read wrong.
`--cubes` draws them instead as `synthetic_dice.py`'s small 3D cubes (what the networks
were trained on: a die set's colours, one slant of 20-45 degrees shared by the roll, so
their side faces show with their own pips, a shadow, on a plain, wood or felt table).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# (for `tests` and `synthetic_dice`; `vision` as installed, or as PYTHONPATH says)
sys.path += [str(ROOT), str(ROOT / "scripts")]

import vision  # noqa: E402
from synthetic_dice import die_style, draw_table, paste_die  # noqa: E402
from tests.vision.conftest import draw_die, table  # noqa: E402

DICE = (2, 3)
FAR_SIDES = (24, 40, 64)
NEAR_TIMES = (1.5, 2.0, 2.5, 3.0)
FRAME = (1280, 720)


def drawn_roll(
    rng: np.random.Generator, dice: int, far: float, near: float, *, cubes: bool = False
) -> tuple[np.ndarray, list[int]]:
    """A frame with `dice - 1` dice of side `far` and one of `far * near`, none touching,
    and the values drawn, sorted (`cubes`: as 3D cubes at a shared slant)."""
    if cubes:
        return _cube_roll(rng, dice, far, near)
    r, g, b = (int(v) for v in rng.integers(60, 200, 3))
    img = table((r, g, b), FRAME, seed=int(rng.integers(1_000_000)))
    white = rng.random() < 0.5
    face, pip = ((235, 235, 235), (20, 20, 20)) if white else ((30, 30, 170), (240, 240, 240))
    placed: list[tuple[float, float, float]] = []
    values = []
    for side in [far] * (dice - 1) + [far * near]:
        x, y = _free_spot(rng, side, placed)
        value = int(rng.integers(1, 7))
        draw_die(img, value, (x, y), side, angle=float(rng.uniform(0, 90)), face=face, pip=pip)
        values.append(value)
    return img, sorted(values)


def _free_spot(
    rng: np.random.Generator, side: float, placed: list[tuple[float, float, float]]
) -> tuple[float, float]:
    """A centre in the frame for a die of `side` touching none `placed` (x, y, side), which
    it joins (the last one tried, after 200)."""
    w, h = FRAME
    for _ in range(200):
        x, y = rng.uniform(side, w - side), rng.uniform(side, h - side)
        if all(np.hypot(x - px, y - py) > 0.65 * (side + ps) + 5 for px, py, ps in placed):
            break
    placed.append((x, y, side))
    return x, y


def _cube_roll(
    rng: np.random.Generator, dice: int, far: float, near: float
) -> tuple[np.ndarray, list[int]]:
    """`drawn_roll` as 3D cubes of one set at one slant, on a drawn table."""
    w, h = FRAME
    canvas = draw_table(rng, h, w, far, busy=False)
    style = die_style(rng)
    pose = (float(np.radians(rng.uniform(20, 45))), float(rng.uniform(0, 2 * np.pi)))
    placed: list[tuple[float, float, float]] = []
    values = []
    for side in [far] * (dice - 1) + [far * near]:
        x, y = _free_spot(rng, side, placed)
        value = int(rng.integers(1, 7))
        paste_die(rng, canvas, value, x, y, side, pose=pose, style=style)
        values.append(value)
    return np.clip(canvas, 0, 255).astype(np.uint8), sorted(values)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=6, help="rolls drawn for each case")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cubes", action="store_true", help="3D cubes at a slant, side faces showing")
    args = ap.parse_args(argv)
    if args.rolls < 1:
        ap.error("--rolls: at least 1")
    rng = np.random.default_rng(args.seed)
    right_all = total = 0
    wrong: list[str] = []
    for dice in DICE:
        for far in FAR_SIDES:
            for near in NEAR_TIMES:
                right = 0
                for _ in range(args.rolls):
                    img, want = drawn_roll(rng, dice, far, near, cubes=args.cubes)
                    got = sorted(d.value for d in vision.read(img).dice)
                    right += got == want
                    if got != want:
                        wrong.append(f"{dice} dice, {far} px, near x{near}: {want} read {got}")
                print(f"{dice} dice, far {far} px, near x{near}: {right}/{args.rolls}")
                right_all += right
                total += args.rolls
    print(f"all: {right_all}/{total} read right")
    for line in wrong:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
