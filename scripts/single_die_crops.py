"""Photos cut close around one die, as a phone held over one die takes them:

    python scripts/single_die_crops.py ../shared/dice_photos/byler_d6 sample_images [--dice 40]

For `--dice` labelled dice of each folder (drawn with a fixed seed; printed symbols left
out), the die and a tenth, then three tenths, of its side around it are cut out and blown
up to 150 and 260 pixels across, bicubic and bilinear: eight photos a die. Read right =
exactly the labelled value, one die. Unlike `hotdice eval --close-ups`, which centres the
die in a 640x480 frame filled with the photo around it, nothing but the die and its margin
is left, so the finder has almost no table to see it against. The wider cut may show a
neighbour, which is then rightly found: counted wrong all the same. Prints each folder's
figure, then every photo read wrong (folder, file, box, margin, size, interpolation, what
was read).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

import vision
from vision.io import load_image

MARGINS = (0.1, 0.3)
SIZES = (150, 260)
RESIZES = {"bicubic": cv2.INTER_CUBIC, "bilinear": cv2.INTER_LINEAR}


def labelled_dice(folder: Path, count: int, seed: int = 0) -> list[tuple[str, dict]]:
    """`count` of the folder's labelled dice with pips, drawn with `seed`."""
    labels = json.loads((folder / "labels.json").read_text())
    dice = [
        (entry["file"], die)
        for entry in labels["images"]
        for die in entry.get("dice", [])
        if "box" in die and die.get("face") != "symbol"
    ]
    random.Random(seed).shuffle(dice)
    return dice[:count]


def cut_close(
    photo: np.ndarray, box: list[float], margin: float, size: int, resize: int
) -> np.ndarray:
    """The die in `box` and `margin` of its side around it (within the photo), blown up so
    that its longer side is `size` pixels."""
    x, y, w, h = (int(round(v)) for v in box)
    mx, my = int(round(margin * w)), int(round(margin * h))
    crop = photo[max(0, y - my) : y + h + my, max(0, x - mx) : x + w + mx]
    k = size / max(crop.shape[:2])
    return cv2.resize(crop, None, fx=k, fy=k, interpolation=resize)


def cuts(photo: np.ndarray, box: list[float]) -> Iterator[tuple[str, np.ndarray]]:
    """Every cut of one die: its name (margin, size, interpolation) and the image."""
    for margin in MARGINS:
        for size in SIZES:
            for name, resize in RESIZES.items():
                yield f"{margin} {size} {name}", cut_close(photo, box, margin, size, resize)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path, help="folders with labels.json")
    ap.add_argument("--dice", type=int, default=40, help="dice of each folder (default 40)")
    args = ap.parse_args(argv)
    wrong: list[str] = []
    right_all = total_all = 0
    for folder in args.folders:
        right = total = 0
        for file, die in labelled_dice(folder, args.dice):
            photo = load_image(folder / file)
            for name, image in cuts(photo, die["box"]):
                values = vision.read(image).values
                total += 1
                if values == [die["value"]]:
                    right += 1
                else:
                    wrong.append(f"{folder.name} {file} {die['box']} {name}: read {values}")
        print(f"{folder}: {right} of {total} read right", flush=True)
        right_all, total_all = right_all + right, total_all + total
    print(f"all: {right_all} of {total_all}")
    for line in wrong:
        print(line)


if __name__ == "__main__":
    main()
