"""Scoring a reader against labelled photos (the `labels.json` format of the dev set).

A detection matches a labelled die when its centre falls inside the labelled box, one to
one (as many pairs as can be made, nearest box centre first). Detections inside an
image's `ignore` boxes are not scored. Dice flagged `"face": "symbol"` must be found, but
their value is left out of face and roll accuracy, since no pip counter can read a
printed logo. A roll is read right when its multiset of values is the labelled one (a
symbol die matching any value), as the table scores it; where a source gives no boxes,
that is all that is compared, and no face accuracy is scored. `close_ups` blows
labelled dice up to fill a frame, as a phone held close to the table shows them.

A die read under `ASK_BELOW` is one the player is asked to check, so besides the exact
figures each roll is also judged as the table would end up with it: right once the dice
asked about are checked, unless a die was missed or read wrong without asking.
"""

from __future__ import annotations

import json
import os
import stat
import statistics
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .detections import ASK_BELOW, Detections, DieDetection
from .io import box_upright, exif_orientation, image_size_wh, read_bytes, stat_path


@dataclass
class ImageResult:
    """How one image was read compared with its labels."""

    file: str
    labelled: int
    detected: int
    matched: int
    face_correct: int
    face_scored: int
    roll_ok: bool
    ms: float
    problems: list[str] = field(default_factory=list)
    read: bool = True
    """False for a photo that could not be decoded: scored as a roll read wrong, with no
    dice found, and left out of the timings."""
    asked: int = 0
    """Dice read under `ASK_BELOW`: the player is asked to check them."""
    wrong_unasked: int = 0
    """Dice read wrong, or found where no die is, at `ASK_BELOW` or more: wrong, and not
    asked about."""
    right_once_asked: bool = False
    """Whether the roll is right once the player has checked the dice asked about: every
    die found, none read wrong without asking (as is a roll read exactly right)."""
    unmeasured: str | None = None
    """Why the image could not be measured (it did not decode, or its labels do not fit
    it), if so: a bad input, which `hotdice eval` says on stderr and exits 2 for."""


def _inside(pt: tuple[float, float], box: list[float]) -> bool:
    x, y, w, h = box
    return x <= pt[0] <= x + w and y <= pt[1] <= y + h


def _ignored(label: dict, ignore: list[list[float]]) -> bool:
    """Whether a labelled die's box has its centre in an ignore box."""
    if "box" not in label:
        return False
    x, y, w, h = label["box"]
    return any(_inside((x + w / 2, y + h / 2), b) for b in ignore)


def score_image(entry: dict, detections: Detections, ms: float) -> ImageResult:
    """Compare one image's detections with its label entry."""
    ignore = entry.get("ignore", [])
    dets = [d for d in detections if not any(_inside(d.center_xy, b) for b in ignore)]
    # (a labelled die in an ignore box is not scored either: its reading was just dropped)
    labels = [lab for lab in entry.get("dice", []) if not _ignored(lab, ignore)]
    problems: list[str] = []
    asked = sum(d.confidence < ASK_BELOW for d in dets)
    if labels and all("box" in lab for lab in labels):
        used_l = _pairs(labels, dets)
        used_d = set(used_l.values())
        face_ok = face_n = 0
        for i, lab in enumerate(labels):
            box = [round(v) for v in lab["box"]]
            if i not in used_l:
                problems.append(f"missed {lab['value']} at {box}")
                continue
            if lab.get("face") == "symbol":
                continue
            face_n += 1
            got = dets[used_l[i]]
            if got.value == lab["value"]:
                face_ok += 1
            else:
                problems.append(
                    f"read {got.value} ({got.confidence:.2f}) for {lab['value']} at {box}"
                )
        for j, d in enumerate(dets):
            if j not in used_d:
                problems.append(f"extra {d.value} ({d.confidence:.2f}) at {list(d.box_xywh)}")
        matched = len(used_l)
        # (the roll is its multiset of values, as the table scores it: two dice read each
        # as the other is a roll right, its faces wrong)
        roll_ok = _multiset_matched(labels, dets) == len(labels) == len(dets)
        wrong_unasked, right_once_asked = _once_asked(labels, dets)
        # (a roll whose values are the labelled dice's, read in each other's places, is
        # right; a printed symbol's value is its face's here, as the table scores it)
        every_value = Counter(lab["value"] for lab in labels) == Counter(d.value for d in dets)
        right_once_asked = right_once_asked or every_value
    else:
        # no boxes: the multisets of values. A misread die is then a miss and an extra, so
        # no face is scored.
        want, symbols = _wanted(labels)
        read = Counter(d.value for d in dets)
        matched = _multiset_matched(labels, dets)
        face_ok = face_n = 0
        roll_ok = matched == len(labels) == len(dets)
        # values read surely beyond the labelled ones (a symbol die's its face's, as with
        # boxes) are wrong unasked; the dice asked about can be set to the values left
        # (an upper bound: with no places, an unsure extra may stand in for a missed die)
        sure = Counter(d.value for d in dets if d.confidence >= ASK_BELOW)
        wrong_unasked = sum((sure - Counter(lab["value"] for lab in labels)).values())
        right_once_asked = not wrong_unasked and len(dets) >= len(labels)
        if not roll_ok:
            wanted = sorted(want.elements()) + ["symbol"] * symbols
            problems.append(f"read {sorted(read.elements())} for {wanted}")
    return ImageResult(
        entry["file"],
        len(labels),
        len(dets),
        matched,
        face_ok,
        face_n,
        roll_ok,
        ms,
        problems,
        asked=asked,
        wrong_unasked=wrong_unasked,
        right_once_asked=right_once_asked,
    )


def _wanted(labels: list[dict]) -> tuple[Counter[int], int]:
    """The labelled values, as a multiset, and the number of printed symbols beside them."""
    symbols = sum(lab.get("face") == "symbol" for lab in labels)
    return Counter(lab["value"] for lab in labels if lab.get("face") != "symbol"), symbols


def _multiset_matched(labels: list[dict], dets: list[DieDetection]) -> int:
    """How many labelled dice the values read account for, as multisets (a symbol die
    takes any one value left over)."""
    want, symbols = _wanted(labels)
    common = sum((want & Counter(d.value for d in dets)).values())
    return common + min(symbols, len(dets) - common)


def _once_asked(labels: list[dict], dets: list[DieDetection]) -> tuple[int, bool]:
    """(dice wrong unasked, whether the roll is right once asked) of labelled dice with
    boxes: a detection may stand for a labelled die when its centre is in the box and it
    is asked about, or read as labelled (a symbol die too: its face's value). Judged on the best
    such pairing, not the nearest-first one the problems list: a sure die beside an unsure
    find in the same box is the die, the find one to drop. The wrong unasked are the sure
    detections no such pairing can give a die; the roll is right once asked when one
    pairing gives every labelled die a detection and every sure one a die (a pairing for
    each alone makes one for both: Mendelsohn and Dulmage)."""

    def stands_for(lab: dict, d: DieDetection) -> bool:
        # (a printed symbol too: the issue asks it reported unsure, so the player is asked;
        # read surely as another value than its face's, the table scores it wrong)
        return _inside(d.center_xy, lab["box"]) and (
            d.confidence < ASK_BELOW or d.value == lab["value"]
        )

    sure = [d for d in dets if d.confidence >= ASK_BELOW]
    for_sure = [[i for i, lab in enumerate(labels) if stands_for(lab, d)] for d in sure]
    for_labels = [[j for j, d in enumerate(dets) if stands_for(lab, d)] for lab in labels]
    wrong_unasked = len(sure) - len(_completed(for_sure, {}))
    return wrong_unasked, not wrong_unasked and len(_completed(for_labels, {})) == len(labels)


def _pairs(labels: list[dict], dets: list) -> dict[int, int]:
    """Labelled die -> detection, one to one, each detection's centre in its die's box:
    nearest pairs first, then, for any die left without one where boxes overlap, a chain
    of re-pairings that frees a detection for it, so as many dice are paired as can be."""
    options: list[list[int]] = []
    ranked = []
    for i, lab in enumerate(labels):
        x, y, w, h = lab["box"]
        cx, cy = x + w / 2, y + h / 2
        inside = [j for j, d in enumerate(dets) if _inside(d.center_xy, lab["box"])]
        dist = {
            j: (dets[j].center_xy[0] - cx) ** 2 + (dets[j].center_xy[1] - cy) ** 2 for j in inside
        }
        options.append(sorted(inside, key=dist.__getitem__))
        ranked += [(dist[j], i, j) for j in inside]
    held: dict[int, int] = {}  # labelled die -> detection
    taken: set[int] = set()
    for _, i, j in sorted(ranked):
        if i not in held and j not in taken:
            held[i] = j
            taken.add(j)
    return _completed(options, held)


def _completed(options: list[list[int]], held: dict[int, int]) -> dict[int, int]:
    """A one-to-one pairing `held` (item -> one of its `options`) grown to as many pairs
    as any pairing can make: for each item left without one, the chain of re-pairings
    that frees an option for it, found breadth-first along alternating paths."""
    held = dict(held)
    owner = {j: i for i, j in held.items()}  # option -> the item holding it
    for start in sorted(set(range(len(options))) - held.keys()):
        # breadth-first along alternating paths to an option no item holds
        came_from: dict[int, int] = {}  # option -> the item that reached it
        queue, free = deque([start]), None
        while queue and free is None:
            i = queue.popleft()
            for j in options[i]:
                if j in came_from:
                    continue
                came_from[j] = i
                if j not in owner:
                    free = j
                    break
                queue.append(owner[j])
        while free is not None:  # each item on the chain takes the option after it
            i = came_from[free]
            before = held.get(i)
            owner[free], held[i] = i, free
            free = before
    return held


LABELS_MAX_BYTES = 64 * 1024 * 1024
"""The most a labels.json may hold: 100 bytes a die, over half a million dice."""


def iter_dataset(directory: Path) -> tuple[dict, list[dict]]:
    """The labels file of a folder: (header, image entries)."""
    path = Path(directory) / "labels.json"
    try:
        raw = read_bytes(path, limit=LABELS_MAX_BYTES, what="labels file")
    except (FileNotFoundError, NotADirectoryError):
        raise OSError(f"{path}: no labels.json in {directory}") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))  # (a BOM, as Notepad writes)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"  # (a message may end in "at")
        raise ValueError(
            f"{path}: not valid JSON ({exc.msg.removesuffix(' at')}, {where})"
        ) from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    except RecursionError:
        raise ValueError(f"{path}: nested too deeply to be a labels file") from None
    except ValueError:  # (Python's own limit on the digits of an integer)
        raise ValueError(f"{path}: not a labels file: a number in it is too long") from None
    entries = data.get("images", []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f"{path}: no list of images")
    if not entries:
        raise ValueError(f"{path}: no images listed")
    first: dict[Path, int] = {}  # a file -> the image that lists it first
    for k, entry in enumerate(entries):
        problem = _label_problem(entry)
        if not problem:
            # by the file it leads to ("sub/../a.jpg" or a link to a.jpg is a.jpg again);
            # os.path.realpath, as Path.resolve raises on a symlink loop
            seen = first.setdefault(Path(os.path.realpath(Path(directory) / entry["file"])), k + 1)
            if seen != k + 1:  # (it would be read and counted twice)
                problem = f"{entry['file']}: listed twice (image {seen} too)"
        if problem:
            raise ValueError(f"{path}: image {k + 1}: {problem}")
    return data, entries


def _all_there(directory: Path, entries: list[dict]) -> None:
    """A one-line OSError naming the first photo labelled that cannot be read as one (and
    how many more): said before an hour of reading, not after."""
    unread = [
        (e["file"], why) for e in entries if (why := _not_a_photo(Path(directory) / e["file"]))
    ]
    if unread:
        more = f" and {len(unread) - 1} more" if len(unread) > 1 else ""
        raise OSError(f"{Path(directory) / unread[0][0]}{more}: labelled, but {unread[0][1]}")


def _not_a_photo(path: Path) -> str | None:
    """Why `path` cannot be a labelled photo ("no such file", "not a file": a folder, a
    device, a named pipe), or None; a one-line OSError for a symlink loop or a folder
    without permission (Path.is_file() calls a loop missing, or raises a bare [Errno 13])."""
    try:
        return None if stat.S_ISREG(stat_path(path).st_mode) else "not a file"
    except (FileNotFoundError, NotADirectoryError):
        return "no such file"


def _is_box(box: object) -> bool:
    """[x, y, w, h]: four finite numbers, w and h a pixel or more (no die is smaller, and
    a close-up of a box of 1e-300 scaled the photo past what a float holds)."""
    return (
        isinstance(box, list)
        and len(box) == 4
        and all(
            isinstance(v, (int, float))
            and not isinstance(v, bool)
            and abs(v) < 1e9  # (finite, and an int too big for a float is no pixel either)
            for v in box
        )
        and box[2] >= 1
        and box[3] >= 1
    )


def _label_problem(entry: object) -> str | None:
    """What is wrong with one image's labels, if anything (a one-line message)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        return 'no "file" name'
    if not entry["file"].strip():  # (else read as the folder itself: "no such file")
        return 'an empty "file" name'
    # (both ended the run with a bare Python message naming neither file)
    if "\0" in entry["file"]:
        return f'{ascii(entry["file"])}: a "file" name with a NUL character in it'
    try:
        os.fsencode(entry["file"])
    except UnicodeEncodeError:  # (a lone surrogate that is no byte of a name: "\ud800")
        return f'{ascii(entry["file"])}: a "file" name no file system can hold'
    name = os.path.normpath(entry["file"])
    if os.path.isabs(name) or name.split(os.sep)[0] == "..":
        return f"{entry['file']}: not in the folder (labels name photos beside labels.json)"
    for key in ("width", "height"):
        if key in entry and (type(entry[key]) is not int or entry[key] < 1):
            return f'{entry["file"]}: a "{key}" that is not a whole number of pixels'
    if "dice" not in entry:  # (a labelling slip, read as no dice: every find a miscount)
        return f'{entry["file"]}: no "dice" (a photo of none says "dice": [])'
    dice, ignore = entry["dice"], entry.get("ignore", [])
    if not isinstance(dice, list):
        return f'{entry["file"]}: "dice" is not a list'
    if not isinstance(ignore, list) or not all(_is_box(b) for b in ignore):
        return f'{entry["file"]}: "ignore" is not a list of [x, y, w, h] boxes'
    for die in dice:
        value = die.get("value") if isinstance(die, dict) else None
        if type(value) is not int or value not in range(1, 7):
            return f'{entry["file"]}: a die without a "value" of 1-6'
        if "box" in die and not _is_box(die["box"]):
            return (
                f'{entry["file"]}: a "box" that is not [x, y, w, h] (pixels: four numbers '
                "under a billion, w and h 1 or more)"
            )
        if die.get("face", "pips") not in ("pips", "symbol"):
            return f'{entry["file"]}: a "face" other than "symbol" (a printed symbol) or "pips"'
    return None


def _size_problem(entry: dict, size_wh: tuple[int, int]) -> str | None:
    """Why an image's labels do not fit the image as read, if they do not: the size the
    labels give (`width`, `height`, where given) is not the image's (labels made for a copy
    of another size, or the image since turned by its EXIF orientation), or a box's centre
    lies outside it. (A reader that gives no size, 0 x 0, is not checked.)"""
    w, h = size_wh
    if w <= 0 or h <= 0:
        return None
    said = entry.get("width"), entry.get("height")
    if all(type(v) is int for v in said) and said != (w, h):
        return f"labelled as {said[0]}x{said[1]}, but the image is {w}x{h}"
    for die in entry.get("dice", []):
        if "box" in die:
            x, y, bw, bh = die["box"]
            if not (0 <= x + bw / 2 <= w and 0 <= y + bh / 2 <= h):
                box = [round(v) for v in die["box"]]
                return f"a labelled box {box} lies outside the {w}x{h} image"
    return None


def labels_upright(entry: dict, path: Path, upright_wh: tuple[int, int]) -> dict:
    """An image's labels in the pixels `read` gives them in, the photo turned upright by its
    EXIF orientation. Labels made on the stored pixels (as a tool that ignores EXIF shows
    them: a phone photo taken upright is stored on its side) are turned with the photo when
    their `width` and `height` are the stored pixels' and not the upright photo's; else
    they are taken as given (turned half round or mirrored, orientations 2-4, a photo
    keeps its size, so which pixels its labels were made on cannot be told)."""
    said = entry.get("width"), entry.get("height")
    if said == tuple(upright_wh) or not all(type(v) is int for v in said):
        return entry
    try:
        data = read_bytes(path)
    except OSError:
        return entry
    stored, orientation = image_size_wh(data), exif_orientation(data)
    if orientation < 5 or stored is None or said != stored:
        return entry

    def turned(box: list[float]) -> list[float]:
        return box_upright(box, orientation, stored)

    dice = [{**d, "box": turned(d["box"])} if "box" in d else d for d in entry.get("dice", [])]
    ignore = [turned(b) for b in entry.get("ignore", [])]
    return {
        **entry,
        "width": upright_wh[0],
        "height": upright_wh[1],
        "dice": dice,
        "ignore": ignore,
    }


def evaluate(
    directory: Path,
    read_file: Callable[[Path], tuple[Detections, float]],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> list[ImageResult]:
    """Read every labelled image of `directory` with `read_file(path) -> (detections, ms)`."""
    _, entries = iter_dataset(directory)
    _all_there(directory, entries)
    results = []
    for k, entry in enumerate(entries):
        # One photo that does not decode, or whose labels do not fit it, is a failure of
        # its own, said in the list of failures: the run goes on (it had stopped, its
        # figures lost, after the photos before it were read)
        path = Path(directory) / entry["file"]
        try:
            dets, ms = read_file(path)
        except (OSError, ValueError) as exc:  # (not an image, cut off, a HEIC, too many
            # pixels; over 256 MB, a read error)
            result = score_image(entry, Detections(), 0.0)
            why = str(exc).removeprefix(f"{path}: ")  # (the line names the photo already)
            result.unmeasured = f"not read: {why}"
            result.problems.insert(0, result.unmeasured)
            result.roll_ok = result.right_once_asked = result.read = False
        else:
            entry = labels_upright(entry, path, dets.size_wh)
            result = score_image(entry, dets, ms)
            problem = _size_problem(entry, dets.size_wh)
            if problem:  # (its boxes are scored in the wrong pixels: dice "missed")
                result.unmeasured = f"labels do not fit the photo: {problem}"
                result.problems.insert(0, result.unmeasured)
                result.roll_ok = result.right_once_asked = False
        results.append(result)
        if progress:
            progress(k + 1, len(entries))
    return results


def _percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summarize(results: Iterable[ImageResult]) -> dict:
    """The figures `hotdice eval --json` prints: a share or a time of nothing (precision
    with no die found, timings with no image read) is None, not a perfect 1.0 or 0 ms."""
    res = list(results)
    labelled = sum(r.labelled for r in res)
    detected = sum(r.detected for r in res)
    matched = sum(r.matched for r in res)
    face_n = sum(r.face_scored for r in res)
    ms = [r.ms for r in res if r.read]
    return {
        "images": len(res),
        "dice_labelled": labelled,
        "dice_detected": detected,
        "dice_matched": matched,
        "precision": round(matched / detected, 4) if detected else None,
        "recall": round(matched / labelled, 4) if labelled else None,
        # None where no die was scored for its face (labels without boxes, or none found)
        "face_accuracy": round(sum(r.face_correct for r in res) / face_n, 4) if face_n else None,
        "roll_accuracy": round(sum(r.roll_ok for r in res) / len(res), 4) if res else 1.0,
        "ms_median": round(statistics.median(ms), 1) if ms else None,
        "ms_p95": round(_percentile(ms, 0.95), 1) if ms else None,
        # (beyond the keys: the player's side of it, `ASK_BELOW`)
        "dice_asked": sum(r.asked for r in res),
        "dice_wrong_unasked": sum(r.wrong_unasked for r in res),
        "roll_accuracy_once_asked": (
            round(sum(r.right_once_asked for r in res) / len(res), 4) if res else 1.0
        ),
    }


def failure_lines(results: Iterable[ImageResult]) -> Iterator[str]:
    """One line per image with a die missed, read wrong or found where none is: its roll
    read wrong, or right as a multiset with dice read in each other's places."""
    for r in results:
        if r.problems:
            right = "" if not r.roll_ok else "roll right, but "
            yield f"{r.file}: {right}" + "; ".join(r.problems)


# How much of a close-up frame's height the die spans, in `close_ups`
CLOSE_UP_FRACTIONS = (0.3, 0.5, 0.7, 0.9)


def close_up(
    image: np.ndarray, box: list[float], fraction: float, size_wh: tuple[int, int] = (640, 480)
) -> np.ndarray:
    """A phone held close, made from a labelled photo: scaled (bicubic) so that the die in
    `box` spans `fraction` of the frame's height, at its centre; past the photo's edges its
    border pixels are repeated (a mirror would copy dice near the edge)."""
    x, y, w, h = box
    k = fraction * size_wh[1] / max(w, h)
    cx, cy = x + w / 2, y + h / 2
    m = np.array([[k, 0, size_wh[0] / 2 - cx * k], [0, k, size_wh[1] / 2 - cy * k]], np.float32)
    return cv2.warpAffine(image, m, size_wh, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)


def close_ups(
    directory: Path,
    load: Callable[[Path], np.ndarray],
    read: Callable[[np.ndarray], Detections],
    *,
    fractions: Iterable[float] = CLOSE_UP_FRACTIONS,
    images: int = 12,
    dice_per_image: int = 3,
    not_read: Callable[[Path, str], None] | None = None,
) -> dict[float, dict]:
    """Read close-ups made from the first `dice_per_image` dice (printed symbols left out)
    of the first `images` photos of a labelled folder, at each fraction of the frame's
    height. A close-up is read right when exactly one die is found on the labelled one
    and its value is the label; `other_finds` counts dice found elsewhere (neighbours that
    show at the edges, and mistakes). A photo that does not decode, or whose labels do not
    fit it, gives no close-ups, said to `not_read(path, why)` ("not read: ..." or "labels
    do not fit the photo: ..."): the run goes on, as
    `evaluate`'s does."""
    _, entries = iter_dataset(directory)
    entries = entries[:images]
    _all_there(directory, entries)
    figures: dict[float, dict[str, float]] = {
        f: {"dice": 0, "read_right": 0, "other_finds": 0} for f in fractions
    }
    for entry in entries:
        path = Path(directory) / entry["file"]
        try:
            photo = load(path)
        except (OSError, ValueError) as exc:  # (as in `evaluate`)
            if not_read:
                not_read(path, "not read: " + str(exc).removeprefix(f"{path}: "))
            continue
        # (labels of the stored pixels turned with the photo, and labels that do not fit
        # it said, as `evaluate` does: a phone photo's close-ups had been cut elsewhere)
        size_wh = (photo.shape[1], photo.shape[0])
        entry = labels_upright(entry, path, size_wh)
        problem = _size_problem(entry, size_wh)
        if problem:
            if not_read:
                not_read(path, f"labels do not fit the photo: {problem}")
            continue
        dice = [d for d in entry.get("dice", []) if "box" in d and d.get("face") != "symbol"]
        for die in dice[:dice_per_image]:
            for fraction, fig in figures.items():
                frame = close_up(photo, die["box"], fraction)
                half = fraction * frame.shape[0] / 2
                centre = (frame.shape[1] / 2, frame.shape[0] / 2)
                dets = read(frame)
                on_die = [
                    d
                    for d in dets
                    if abs(d.center_xy[0] - centre[0]) < half
                    and abs(d.center_xy[1] - centre[1]) < half
                ]
                fig["dice"] += 1
                fig["read_right"] += len(on_die) == 1 and on_die[0].value == die["value"]
                fig["other_finds"] += len(dets) - len(on_die)
    if not any(fig["dice"] for fig in figures.values()):
        raise ValueError(f"{directory}: no labelled dice with boxes to make close-ups of")
    for fig in figures.values():
        fig["share"] = round(fig["read_right"] / fig["dice"], 4)
    return figures
