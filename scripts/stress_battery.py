"""Run a battery of stress runs (scripts/stress_vision.py) over the dev folders, to judge a
change to the reader on many hard conditions at once rather than on one folder as shot.

    python scripts/stress_battery.py ../shared/dice_photos > before.txt
    python scripts/stress_battery.py ../shared/dice_photos --battery big > before_big.txt
    ... change the reader ...
    python scripts/stress_battery.py ../shared/dice_photos --compare before.txt

`--battery base` (48 runs, session 36) changes each folder 16 ways: tilted 35 degrees, and
50 with a phone's lens, grey, hue turned 90 and 180 degrees, negative, in a 1080p frame, at
half and a quarter of its size, at twice through JPEG, blurred, crushed JPEG, glare, a fifth
of the light with noise, amid a 12 MP JPEG, turned 30 degrees. `--battery big` (18 runs,
session 37) holds photos over 1920 px: each folder at twice its size through JPEG, tilted,
grey, dim, under glare or with its hue turned, and amid a 12 MP JPEG turned 30 degrees.
`--battery close` (18 runs, session 45) cuts each folder's photos close around their dice
(`--close`: a quarter, half, one and two dice beyond them, at 1280 px; a quarter at 640
px; half at 2000 px through JPEG): a phone held over the roll, its dice 100-450 px.
`--battery tables` (18 runs, session 47) sets each folder's dice on six drawn tables
(`--table`: polka dots, a gingham check, a printed cloth, a cartoon print, wood, felt).
`--battery light` (18 runs, session 59) lights each folder six other ways: exposed 0.7 and
1.3 times as long, through tone curves of gamma 0.7 and 1.4, under a warm cast of 0.3 and
with a soft-edged shadow keeping a quarter of the light across the roll.
`byler_d6` takes its first 60 photos. Each run prints one line: the run, then precision,
recall, face and roll accuracy in percent (face None where no die was scored for its face).
With `--compare`, each line also gives the change from that earlier output, and a last line
sums them, with the runs better and worse.
Two runs at a time (`--jobs`); the battery `base` takes about ten minutes on two cores.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

STRESS = Path(__file__).resolve().parent / "stress_vision.py"
FOLDERS = {"skovy_catan": [], "fudw_tray": [], "byler_d6": ["--images", "60"]}
BATTERIES = {
    "base": [
        "--tilt 35",
        "--tilt 50 --focal 0.7",
        "--saturation 0",
        "--hue 180",
        "--invert",
        "--frame 1920x1080",
        "--scale 0.5",
        "--scale 2 --jpeg",
        "--blur 1.5",
        "--quality 40",
        "--glare 0.06",
        "--dim 0.2 --noise 6",
        "--canvas 4000x3000 --jpeg",
        "--scale 0.25",
        "--hue 90",
        "--rotate 30",
    ],
    "big": [
        "--scale 2 --jpeg --tilt 35",
        "--scale 2 --jpeg --saturation 0",
        "--scale 2 --jpeg --dim 0.2 --noise 6",
        "--scale 2 --jpeg --glare 0.06",
        "--scale 2 --jpeg --hue 180",
        "--canvas 4000x3000 --jpeg --rotate 30",
    ],
    "tables": [
        "--table dots",
        "--table check",
        "--table cloth",
        "--table print",
        "--table wood",
        "--table felt",
    ],
    "close": [
        "--close 0.25",
        "--close 0.25 --close-long 640",
        "--close 0.5",
        "--close 1",
        "--close 2",
        "--close 0.5 --close-long 2000 --jpeg",
    ],
    "light": [
        "--exposure 0.7",
        "--exposure 1.3",
        "--gamma 0.7",
        "--gamma 1.4",
        "--warm 0.3",
        "--shadow 0.25 --shadow-edge 1",
    ],
}
FIGURES = ("precision", "recall", "face_accuracy", "roll_accuracy")


Figures = list[float | None]  # (face accuracy is None where no die was scored for its face)


def run_name(folder: str, change: str) -> str:
    """How a run is named in the output, and found again by `--compare`."""
    return " ".join([folder, *FOLDERS[folder], *change.split()])


def run(shared: Path, folder: str, change: str) -> tuple[str, Figures]:
    """One stress run: its name and its four figures in percent."""
    args = [*FOLDERS[folder], *change.split()]
    name = run_name(folder, change)
    cmd = [sys.executable, str(STRESS), str(shared / folder), *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{name}: {last}")
    figures = json.loads(lines[-1])
    return name, [None if figures[k] is None else round(100 * figures[k], 2) for k in FIGURES]


def read_output(path: Path) -> dict[str, Figures]:
    """An earlier output of this script: run name -> figures. Raises ValueError for a line
    that is not one."""
    runs = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if " [" in line and not line.startswith("sum"):
            name, figures = line.split(" [", 1)
            try:
                values = ast.literal_eval("[" + figures.split("]")[0] + "]")
            except (ValueError, SyntaxError):
                values = None
            if not (isinstance(values, list) and len(values) == len(FIGURES)) or not all(
                v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
                for v in values
            ):
                raise ValueError(f"line {n} is not a run's four figures")
            runs[name] = values
    return runs


def changes(now: Figures, before: Figures) -> Figures:
    """Each figure's change (None where either run has none)."""
    pairs = zip(now, before, strict=True)
    return [None if a is None or b is None else round(a - b, 2) for a, b in pairs]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shared", type=Path, help="folder holding the dev folders")
    ap.add_argument("--battery", choices=sorted(BATTERIES), default="base")
    ap.add_argument("--compare", type=Path, help="an earlier output to compare with")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    missing = [f for f in FOLDERS if not (args.shared / f / "labels.json").is_file()]
    if missing:
        ap.error(f"{args.shared}: no labelled folder {', '.join(missing)}")
    if args.jobs < 1:
        ap.error("--jobs: at least 1")
    todo = [(f, c) for f in FOLDERS for c in BATTERIES[args.battery]]
    try:
        before = read_output(args.compare) if args.compare else {}
    except (OSError, ValueError) as exc:
        ap.error(f"--compare: cannot read {args.compare}: {exc}")
    names = {run_name(f, c) for f, c in todo}
    if args.compare and not names & set(before):
        ap.error(f"--compare: {args.compare} holds no run of the battery {args.battery!r}")
    total, better, worse = [0.0] * len(FIGURES), 0, 0
    with ThreadPoolExecutor(args.jobs) as pool:
        try:
            for name, figures in pool.map(lambda fc: run(args.shared, *fc), todo):
                line = f"{name} {figures}"
                if name in before:
                    change = changes(figures, before[name])
                    total = [t + (c or 0.0) for t, c in zip(total, change, strict=True)]
                    moved = sum(c or 0.0 for c in change)
                    better += moved > 0.01
                    worse += moved < -0.01
                    line += f"  change {change}"
                print(line, flush=True)
        except RuntimeError as exc:
            print(f"stress_battery: error: {exc}", file=sys.stderr)
            return 1
    if before:
        print(f"sum of changes {[round(t, 2) for t in total]}: {better} better, {worse} worse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
