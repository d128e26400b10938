"""`hotdice eval` on the shared dev photos (skipped when ../shared is absent).

Floors sit a little under the figures in the README (Measured accuracy), so a change that makes
reading worse fails here. `fudw_tray` was never used for training: it is the held-out check.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import vision
from vision import model
from vision.cli import main
from vision.evaluate import close_ups, score_image, summarize

FLOORS = {
    "byler_d6": {
        "precision": 0.99,
        "recall": 0.995,
        "face_accuracy": 0.99,
        "roll_accuracy": 0.91,
        "roll_accuracy_once_asked": 0.92,
    },
    "skovy_catan": {
        "precision": 0.99,
        "recall": 0.98,
        "face_accuracy": 0.98,
        "roll_accuracy": 0.98,
        "roll_accuracy_once_asked": 0.98,
    },
    "fudw_tray": {
        "precision": 0.97,
        "recall": 0.985,
        "face_accuracy": 0.98,
        "roll_accuracy": 0.65,
        "roll_accuracy_once_asked": 0.65,
    },
}

# docs/vision.md, Close-ups: both engines read 86-100% of each size right (`byler_d6` 31 of
# 36 at half the frame's height). ONNX Runtime's int8 kernels follow the CPU: on the Xeon
# the figures were first measured on, its readers read one of those more (89%); on
# session 19's AVX512-VNNI EPYC, the same as OpenCV's float readers, and one `fudw_tray`
# close-up fewer at 30% and at 70%. So the floor leaves one close-up (1/36) under what both
# read there: another CPU passes, a reading step that loses two of a size fails
CLOSE_UP_FLOORS = {"onnxruntime": 0.83, "opencv": 0.83}


@pytest.mark.parametrize("folder", sorted(FLOORS))
def test_eval_on_dev_folder(
    shared_photos: Path, folder: str, capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    """On both engines: OpenCV's DNN with the float readers (`pip install -e .`) and ONNX
    Runtime with their int8 copies (the `[fast]` extra)."""
    assert main(["eval", "--json", "--no-progress", str(shared_photos / folder)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["images"] > 0
    for key, floor in FLOORS[folder].items():
        assert figures[key] >= floor, (folder, key, figures)


def test_printed_symbols_are_found_but_unsure(shared_photos: Path) -> None:
    """`fudw_tray`'s logo and skull faces cannot be counted: the die must still be found,
    and reported with a low confidence so the player is asked (README: Measured accuracy)."""
    folder = shared_photos / "fudw_tray"
    entries = json.loads((folder / "labels.json").read_text())["images"]
    found = unsure = total = 0
    for entry in entries:
        symbols = [d["box"] for d in entry["dice"] if d.get("face") == "symbol"]
        if not symbols:
            continue
        dice = vision.read(vision.load_image(folder / entry["file"]))
        for x, y, w, h in symbols:
            total += 1
            inside = [
                d for d in dice if x <= d.center_xy[0] <= x + w and y <= d.center_xy[1] <= y + h
            ]
            if inside:  # judged on the find nearest the box centre, as `hotdice eval` matches
                found += 1
                cx, cy = x + w / 2, y + h / 2
                near = min(inside, key=lambda d: math.dist(d.center_xy, (cx, cy)))
                unsure += near.confidence < 0.5
    assert total >= 50
    assert found / total >= 0.97, (found, total)
    assert unsure / found >= 0.9, (unsure, found)


@pytest.mark.parametrize("folder", sorted(FLOORS))
def test_close_ups_of_dev_photos(shared_photos: Path, folder: str) -> None:
    """Dice blown up to 30-90% of a frame's height (docs/vision.md: Close-ups): the finder
    sees their pips as dice, and the reader must look coarser to find the die itself."""
    figures = close_ups(shared_photos / folder, vision.load_image, vision.read)
    floor = CLOSE_UP_FLOORS[model.engine()]
    for fraction, fig in figures.items():
        assert fig["dice"] >= 24 and fig["share"] >= floor, (folder, fraction, fig)


def _labelled(shared_photos: Path, folder: str, name: str) -> tuple[np.ndarray, dict]:
    """A dev photo and its labels."""
    (entry,) = [
        e
        for e in json.loads((shared_photos / folder / "labels.json").read_text())["images"]
        if e["file"] == name
    ]
    return vision.load_image(shared_photos / folder / name), entry


def _cut_close(
    shared_photos: Path, stress: ModuleType, folder: str, name: str, margin: float, long_side: int
) -> tuple[np.ndarray, dict]:
    """A dev photo and its labels cut close around its dice, as `stress_vision.py --close
    MARGIN --close-long LONG_SIDE` cuts them."""
    return stress.cut_close(*_labelled(shared_photos, folder, name), margin, long_side)


def _problems_at_20_px(shared_photos: Path, stress: ModuleType, name: str) -> list[str]:
    """What goes wrong reading a `byler_d6` photo shrunk to half (dice of about 20 px)
    amid a 1080p frame, as `stress_vision.py --canvas 1920x1080 --scale 0.5` makes it."""
    image, entry = stress.scaled(*_labelled(shared_photos, "byler_d6", name), 0.5)
    image, entry = stress.on_canvas(image, entry, (1920, 1080), np.random.default_rng(0))
    return score_image(entry, vision.read(image), 0.0).problems


def test_dice_of_20_px_in_a_webcam_frame_are_read(shared_photos: Path, stress: ModuleType) -> None:
    """A `byler_d6` roll of 14 shrunk to dice of 20 px amid a 1080p frame: at the first look
    (7 px) the finder sees four blots and the readers confirm two, read as a 5 and a 1;
    the other two they take for more likely dice than not. Since session 17 those count
    as dice read unsure, so half the roll unsure takes the look at twice the scale; before,
    the two blots were the roll. (So under ONNX Runtime, which the test command installs.
    OpenCV's float readers confirm nothing at the first look, and reach the finer look
    through the coarser ones, as before.)"""
    assert _problems_at_20_px(shared_photos, stress, "IMG_20191208_111710.jpg") == []


@pytest.mark.parametrize("long_side", [640, 1280])
@pytest.mark.parametrize("name", ["IMG_20191209_100719.jpg", "IMG_20191209_100728.jpg"])
def test_a_roll_cut_close_is_read(
    shared_photos: Path, stress: ModuleType, long_side: int, name: str
) -> None:
    """Five `byler_d6` dice cut close (a quarter of a die beyond them, as `stress_vision.py
    --close 0.25` cuts them) fill the frame, 90-120 px at the first look. In the first
    photo the first look finds their pips, read as 1s, and the dice behind them, read
    surely at their own size, are the roll; one of them, a 4 seen at a slant, holds six
    finds (its side face's pips too), more than a 4 and a pip found twice, and until
    session 44 that one die made all five a pile of dice seen as one (`stands`): the roll
    was sixteen 1s and a 5. In the second the first look also finds windows of a face read
    surely as 2s and 3s, so the roll did not look like pips at all; since session 44 the
    look at half the scale puts such dice in whole (`wholes`); before, twelve 1s and a 2."""
    cut = _cut_close(shared_photos, stress, "byler_d6", name, 0.25, long_side)
    assert score_image(cut[1], vision.read(cut[0]), 0.0).problems == []


def test_a_roll_read_unsure_takes_the_look_at_half_the_scale(
    shared_photos: Path, stress: ModuleType
) -> None:
    """Six `byler_d6` dice cut close (`--close 0.25 --close-long 640`), 75-110 px at the
    first look: too big for the finder, which finds pieces of them, half read unsure.
    Since session 44 such a roll also takes a look at half the scale, kept when it reads
    more dice surely; before, one die was missed and one read as a 4 for a 6."""
    cut = _cut_close(shared_photos, stress, "byler_d6", "IMG_20191208_112122.jpg", 0.25, 640)
    assert score_image(cut[1], vision.read(cut[0]), 0.0).problems == []


def test_a_close_up_whose_pips_read_as_4s_takes_the_dice_holding_them(
    shared_photos: Path, stress: ModuleType
) -> None:
    """Two `skovy_catan` dice cut close (a die beyond them, `--close 1`), 210-260 px in a
    1280 px photo, 110 at the first look: it finds the cream die's pips, three of them
    read surely as 4s (windows of their neighbours), and not the red die. The look at half
    the scale reads both dice clearly as 4s, but two dice read surely lost to three pips
    read surely; since session 45 the pips each die holds count once (`reads_better`):
    before, the roll was four 4s, the red die missed."""
    cut = _cut_close(shared_photos, stress, "skovy_catan", "WIN_20221211_13_08_10.jpg", 1.0, 1280)
    assert score_image(cut[1], vision.read(cut[0]), 0.0).problems == []


def test_a_close_up_still_unsure_after_the_finer_look_takes_the_coarser(
    shared_photos: Path, stress: ModuleType
) -> None:
    """Two `skovy_catan` dice cut close (`--close 1`), 190-210 px in a 1280 px photo: the
    first look finds only two windows of the cream die's face, read unsure, so it looks at
    twice the scale, which finds the pips of both dice, one read surely as a 1. That roll
    is still half unsure; since session 45 it too takes the look at half the first scale,
    which reads the two dice clearly; before, a 1, a 2, a 3 and a 4 of pips."""
    cut = _cut_close(shared_photos, stress, "skovy_catan", "WIN_20221210_14_49_32.jpg", 1.0, 1280)
    assert score_image(cut[1], vision.read(cut[0]), 0.0).problems == []


def test_a_close_up_whose_finer_look_reads_nothing_takes_the_coarser(
    shared_photos: Path, stress: ModuleType
) -> None:
    """Two `skovy_catan` dice cut a quarter die close, 210-250 px in a 1280 px photo: the
    first look reads the red 4 clearly but finds the cream 2 as two pips read unsure, and
    a find it does not take for a die, so it looks at twice the scale, which reads nothing
    better and is not taken. Since session 45 such a roll, half unsure, also takes the
    look at half the first scale, which reads both dice; before, the 2 was missed."""
    cut = _cut_close(shared_photos, stress, "skovy_catan", "WIN_20221211_13_07_40.jpg", 0.25, 1280)
    assert score_image(cut[1], vision.read(cut[0]), 0.0).problems == []


def test_a_close_up_of_windows_beside_pips_takes_the_coarser_look(
    shared_photos: Path, stress: ModuleType
) -> None:
    """Two `skovy_catan` dice cut a quarter die close, 200-220 px in a 904x1280 photo: the
    first look reads two windows of the red 6 surely (a 3 at 0.95, a 6 at 0.84) and the
    cream 2's pips unsure, so the roll is not unsure; but dice of 124-134 px beside finds
    of 37 are sizes no roll has (`mixed`), and the look at half the scale finds both dice
    holding those pips, read at 0.98. Before session 45 the windows were cut to the pips'
    size and read as 1s: four pips reported."""
    cut = _cut_close(shared_photos, stress, "skovy_catan", "WIN_20221211_13_07_45.jpg", 0.25, 1280)
    assert score_image(cut[1], vision.read(cut[0]), 0.0).problems == []


def test_a_steep_slant_is_no_close_up(shared_photos: Path, stress: ModuleType) -> None:
    """A `byler_d6` roll of twelve tilted 50 degrees under a phone's lens (`stress_vision.py
    --tilt 50 --focal 0.7`): its near dice are three times its far ones, sizes a roll seen
    straight down has not (`mixed`), and the look at half the scale reads more of them
    clearly, but no die it finds holds two of the roll's dice as pips, so it is not taken
    (`holds_pieces`); taken, a 4 read as a 6."""
    photo = _labelled(shared_photos, "byler_d6", "IMG_20191208_111328.jpg")
    image, entry = stress.tilted(*photo, 50.0, 0.7)
    assert score_image(entry, vision.read(image), 0.0).problems == []


def test_a_pile_of_20_px_dice_found_as_one_blot_is_read(
    shared_photos: Path, stress: ModuleType
) -> None:
    """A `byler_d6` roll of eleven in a pile, shrunk to dice of 20 px amid a 1080p frame:
    at the first look (7 px) the finder sees one blot, which the readers read as a 3 at
    0.74, and nothing else. Since session 18 a roll with no die read at 0.9 or more takes
    the look at twice the scale, which reads the eleven; before, the blot was the roll
    (on both engines)."""
    assert _problems_at_20_px(shared_photos, stress, "IMG_20191208_111457.jpg") == []


def test_a_floor_at_twice_the_size_gives_no_extra_ones(
    shared_photos: Path, stress: ModuleType, engine: str
) -> None:
    """`skovy_catan` read at twice its size (2560x1440, as a 1440p webcam or a phone gives):
    its first look is then at 960 px, where a wood floor's speck beside the roll is found
    as a die of 1.4-1.7 times the roll's, which the finder doubts (0.32-0.45) and the
    readers read as a 1. Read in memory, as here, before session 35 (`_Looks.cut_to_size`)
    that was 21 extras in 19 photos (precision 82%, rolls 61%); since, 98% and 96% (two
    other false finds). (docs/vision.md's 22 in 20 are from JPEG files at that size.)"""
    folder = shared_photos / "skovy_catan"
    results = []
    for entry in json.loads((folder / "labels.json").read_text())["images"]:
        image, labels = stress.scaled(vision.load_image(folder / entry["file"]), entry, 2.0)
        results.append(score_image(labels, vision.read(image), 0.0))
    figures = summarize(results)
    assert figures["recall"] >= 0.98, figures
    assert figures["precision"] >= 0.97 and figures["roll_accuracy"] >= 0.93, figures


def test_grey_photos_read_better_with_the_finders_four_looks(
    shared_photos: Path, stress: ModuleType, engine: str
) -> None:
    """`skovy_catan` in grey (a washed-out webcam, a grey camera): its red and yellow dice
    are then as bright as the grey wood they lie on, and the finder's one look (the
    default) scores some of them 0.07-0.43: recall 91.8%, rolls 73%. Its four looks
    averaged (`read(..., finder_looks=4)`, session 36) find them: recall 96.9%, rolls 86%
    (both engines alike)."""
    folder = shared_photos / "skovy_catan"
    one, four = [], []
    for entry in json.loads((folder / "labels.json").read_text())["images"]:
        image = stress.recoloured(vision.load_image(folder / entry["file"]), saturation=0.0)
        one.append(score_image(entry, vision.read(image), 0.0))
        four.append(score_image(entry, vision.read(image, finder_looks=4), 0.0))
    once, averaged = summarize(one), summarize(four)
    assert averaged["recall"] >= max(0.95, once["recall"] + 0.03), (once, averaged)
    assert averaged["roll_accuracy"] >= max(0.8, once["roll_accuracy"] + 0.08), (once, averaged)
    assert averaged["precision"] >= 0.97, averaged
