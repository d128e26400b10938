"""How surely and how rightly dice are read as they get small, by the side of their box:

    python scripts/small_dice.py DIR [--scales 0.25,0.3,0.35,0.45] [--every 3]

DIR holds photos and a `labels.json` (the dev set's format, boxes needed). Every
`--every`-th photo is shrunk by each of `--scales` (OpenCV's area resampling, as a camera
with fewer pixels or one farther off) and read by `vision.read` with its confidences as the
readers give them (`vision/small.py`'s hold on dice under 13 px turned off). Each die read
is paired with its labelled die as `hotdice eval` pairs them (printed symbols left out),
and binned by the longer side of its box. Prints, per bin, the dice read, the share read
right, and of those read at `vision.ASK_BELOW` or more ("sure", the player not asked) how
many were wrong: the table behind `small.py`'s `SMALL_BELOW`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # (`vision` as installed, or as PYTHONPATH says)

import vision  # noqa: E402
from vision import small  # noqa: E402
from vision.evaluate import _pairs, iter_dataset, labels_upright  # noqa: E402

EDGES = (10, 11, 12, 13, 14, 16, 20, 30)
"""Bin edges, in pixels: under 10, 10-11, ..., 20-30, and 30 or more."""


def bins() -> list[tuple[int, int | None]]:
    """(from, to) pixel ranges, `to` excluded; (0, 10) first, (30, None) last."""
    lows = (0, *EDGES)
    return [(lo, hi) for lo, hi in zip(lows, (*EDGES, None), strict=True)]


def measure(directory: Path, scales: list[float], every: int) -> list[tuple[int, float, bool]]:
    """(box side, confidence, read right) of every labelled die read in the shrunk photos."""
    _, entries = iter_dataset(directory)
    held, small.SMALL_BELOW = small.SMALL_BELOW, 0  # (the readers' own confidences)
    try:
        out = []
        for scale in scales:
            for entry in entries[::every]:
                path = directory / entry["file"]
                image = vision.load_image(path)
                shrunk = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                dets = vision.read(shrunk)
                upright = labels_upright(entry, path, (image.shape[1], image.shape[0]))
                labels = [
                    {**lab, "box": [v * scale for v in lab["box"]]}
                    for lab in upright.get("dice", [])
                    if lab.get("face") != "symbol" and "box" in lab
                ]
                for i, j in _pairs(labels, list(dets.dice)).items():
                    die = dets.dice[j]
                    side = max(die.box_xywh[2:])
                    out.append((side, die.confidence, die.value == labels[i]["value"]))
        return out
    finally:
        small.SMALL_BELOW = held


def binned(rows: list[tuple[int, float, bool]]) -> list[tuple[str, int, float, int, int]]:
    """Per bin that holds dice: (its name, dice, share read right, read sure, sure but wrong)."""
    out = []
    for lo, hi in bins():
        got = [r for r in rows if r[0] >= lo and (hi is None or r[0] < hi)]
        if not got:
            continue
        sure = [r for r in got if r[1] >= vision.ASK_BELOW]
        name = (
            f"under {hi} px" if lo == 0 else f"{lo} px or more" if hi is None else f"{lo}-{hi} px"
        )
        right = sum(r[2] for r in got) / len(got)
        out.append((name, len(got), right, len(sure), sum(not r[2] for r in sure)))
    return out


def table(rows: list[tuple[int, float, bool]]) -> list[str]:
    """One line per bin that holds dice."""
    return [
        f"{name:<14} {n:5d} dice, {right:6.1%} right; read sure {sure:5d}, wrong {wrong}"
        for name, n, right, sure, wrong in binned(rows)
    ]


def _scales(text: str) -> list[float]:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of scales: {text!r}") from None
    if not values or not all(0.01 <= v <= 1.0 for v in values):
        raise argparse.ArgumentTypeError(f"scales must be 0.01 to 1: {text!r}")
    return values


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("directory", type=Path)
    ap.add_argument("--scales", type=_scales, default=[0.25, 0.3, 0.35, 0.45])
    ap.add_argument("--every", type=int, default=1, help="read every N-th photo (default: all)")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be 1 or more")
    for line in table(measure(args.directory, args.scales, args.every)):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
