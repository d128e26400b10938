"""Stress the reader with conditions the dev photos lack: a dark room, a tilted camera...

    python scripts/stress_vision.py DIR --dim 0.2 --noise 6      # a fifth of the light
    python scripts/stress_vision.py DIR --tilt 35                # camera tipped back 35 deg
    python scripts/stress_vision.py DIR --tilt 50 --focal 0.7    # ... a phone's wide lens
    python scripts/stress_vision.py DIR --scale 0.5              # a camera of half the pixels
    python scripts/stress_vision.py DIR --frame 1920x1080        # in a webcam's 1080p frame
    python scripts/stress_vision.py DIR --canvas 4000x3000       # amid a 12 MP wide shot
    python scripts/stress_vision.py DIR --saturation 0           # a grey camera
    python scripts/stress_vision.py DIR --blur 1.5 --quality 40  # out of focus, crushed JPEG
    python scripts/stress_vision.py DIR --rotate 30              # camera turned 30 degrees
    python scripts/stress_vision.py DIR --glare 0.06             # a lamp reflected on each die
    python scripts/stress_vision.py DIR --hue 120                # other dice, another table
    python scripts/stress_vision.py DIR --invert                 # dark table, dark dice
    python scripts/stress_vision.py DIR --warm 0.5               # a tungsten lamp's cast
    python scripts/stress_vision.py DIR --shadow 0.4             # a shadow across the roll
    python scripts/stress_vision.py DIR --exposure 1.3           # exposed 30% too long
    python scripts/stress_vision.py DIR --gamma 1.4              # another camera's tone curve
    python scripts/stress_vision.py DIR --table dots             # on a polka-dot tablecloth

Each labelled photo of DIR (the `labels.json` format of ../shared/dice_photos) is changed,
its labels moved with it, then read and scored as `hotdice eval` scores. `--dim` scales the
light, adds sensor noise and re-encodes as JPEG (quality 80); `--no-brighten` reads it
without the reader's dark-frame scaling and shadow lifting (nor their smoothing), for
comparison. `--tilt` warps the photo as a camera tipped back by that angle would see the
table (a flat warp: the far side smaller and foreshortened, no new side faces; `--focal`,
the camera's focal length over the long side, 1 by default: a phone's wider lens, about 0.7,
makes the near dice bigger still); dice that leave the frame, even partly, are not scored.
`--scale` resizes the photo, as a camera with fewer pixels; `--frame WxH` (not with
`--scale`) scales it (bicubic) to fill the frame's height, or its width if it is wider, and
centres it in a frame of that size, its edge pixels repeated, as a webcam's frame of the
same table; `--canvas WxH` keeps the photo's size (after `--scale`) and sets it amid a WxH
photo of the table around it (its median colour, a little noise), as a wide shot of the
whole table. `--rotate` turns the photo about its centre and keeps the largest upright
rectangle of it, as a camera turned so sees the table. `--saturation` scales the colour
about each pixel's brightness (0: grey, as a monochrome camera, a sodium lamp or a
washed-out webcam sees the table), `--blur` adds a Gaussian blur of that many pixels (a
camera out of focus) and `--quality` re-encodes as a JPEG of that quality (a messaging app).
`--hue D` turns every colour D degrees round the hue wheel (blue dice come out red or green,
the wood another tint: other dice on another table, as the dev photos do not have them), and
`--invert` makes each pixel its negative (white dice on a light table become black dice on a
dark one, the shadows light halos). `--glare K` puts a lamp's reflection on each labelled
die: a soft bright spot (a Gaussian whose spread is K die sides, a little flattened)
somewhere on its face, which on a dark die looks like a pip. `--warm S` casts a warm lamp's
colour the camera did not balance away: blue dimmed by the share S and green by half of it
(a tungsten bulb's, about 0.5). `--shadow L` lays a shadow across the roll, the phone's or a
hand's: a straight edge at a random angle through a random point of a labelled die, the
light beyond it kept at L, the edge `--shadow-edge` die sides wide (0.3 by default; a small
bulb casts a sharp edge, a big shade a soft one). `--exposure G` exposes the photo G times
as long (every level times G, the brightest clipped at 255: a phone metering on a dark
table; `--dim` above 1 without its noise and JPEG), and `--gamma G` gives it another
camera's tone curve (each level v becomes 255 (v / 255)^G: over 1 darker mid-tones, under 1
lighter, black and white kept); both after the glare, cast and shadow, before the colour,
blur and JPEG changes and `--dim`.
`--close M` cuts each photo close around its labelled dice (M median die sides beyond the
outermost) and scales the cut to `--close-long` pixels (1280 by default): a phone held just
over the roll, its dice a sixth to a quarter of the frame (first, before the other
changes). `--table KIND` sets each photo's labelled dice, each with a rim of its own table,
on a drawn tablecloth lit as the photo's table was (first of all): `dots`, polka dots on a
grid; `check`, a gingham check; `wood`, planks with their grain; `cloth`, `print` and
`felt`, the training script's printed cloth, cartoon print and felt (`synthetic_dice.py`);
motifs sized to the photo's dice.
`--jpeg` encodes each changed photo as a JPEG (quality 90) and reads its bytes as `hotdice
read` reads a file's (decoded at a reduced size, again larger if its dice may be too small).
Dice without a box are left out. Prints one line of figures (`FIGURES`, `hotdice eval`'s:
the player's side of them too, the dice asked about and the rolls right once they are
checked; `--failures`: and, on stderr, each photo not read exactly right, with what went
wrong, as `hotdice eval` lists them). The docs/vision.md's Known limits quote its results.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.append(str(Path(__file__).resolve().parent))  # (the drawn cloths: synthetic_dice.py)

import vision  # noqa: E402
from synthetic_dice import fabric, felt, printed_cloth, warm_gains  # noqa: E402
from vision import reader  # noqa: E402
from vision.evaluate import iter_dataset, score_image, summarize  # noqa: E402
from vision.photo import read_photo_data  # noqa: E402

# The figures of `summarize` printed: the finding and reading, and the player's side
FIGURES = (
    "images",
    "precision",
    "recall",
    "face_accuracy",
    "roll_accuracy",
    "dice_asked",
    "dice_wrong_unasked",
    "roll_accuracy_once_asked",
)


def dimmed(image: np.ndarray, light: float, noise: float, rng: np.random.Generator) -> np.ndarray:
    """Less light (a dark room, a camera that does not adjust), its noise and JPEG."""
    out = np.clip(image * light + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
    return _through_jpeg(out, 80)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The photo's JPEG file bytes at `quality` (as a uint8 array)."""
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]


def _through_jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The photo as a JPEG of `quality` shows it: saved, then decoded."""
    pixels = image.shape[0] * image.shape[1]  # (however big a canvas the options made)
    return vision.decode_image(_jpeg(image, quality).tobytes(), max_pixels=pixels)


def tilt_homography(size_wh: tuple[int, int], degrees: float, focal: float = 1.0) -> np.ndarray:
    """A camera (focal length `focal` times the long side) turned about the horizontal
    axis, with the photo's centre kept where it was."""
    w, h = size_wh
    f, a = focal * float(max(w, h)), np.radians(-degrees)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    r = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    m = k @ r @ np.linalg.inv(k)
    c = m @ np.array([w / 2, h / 2, 1.0])
    c /= c[2]
    return np.array([[1, 0, w / 2 - c[0]], [0, 1, h / 2 - c[1]], [0, 0, 1.0]]) @ m


def _warped_box(box: list[float], m: np.ndarray) -> tuple[list[float], bool]:
    """The box around a warped box, and whether its corners stayed in front of the camera."""
    x, y, bw, bh = box
    corners = np.array([[x, y, 1], [x + bw, y, 1], [x + bw, y + bh, 1], [x, y + bh, 1]], float)
    q = corners @ m.T
    if (q[:, 2] <= 0).any():
        return [0.0, 0.0, 0.0, 0.0], False
    q = q[:, :2] / q[:, 2:]
    lo, hi = q.min(axis=0), q.max(axis=0)
    return [float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1])], True


def tilted(
    image: np.ndarray, entry: dict, degrees: float, focal: float = 1.0
) -> tuple[np.ndarray, dict]:
    """The photo and its labels as a camera tipped back by `degrees` sees them."""
    h, w = image.shape[:2]
    m = tilt_homography((w, h), degrees, focal)
    out = cv2.warpPerspective(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    dice, ignore = [], []
    for b in entry.get("ignore", []):
        box, seen = _warped_box(b, m)
        if seen:
            ignore.append(box)
    for die in entry["dice"]:
        box, seen = _warped_box(die["box"], m)
        if seen and box[0] >= 0 and box[1] >= 0 and box[0] + box[2] < w and box[1] + box[3] < h:
            dice.append({**die, "box": box})
        elif seen:
            ignore.append(box)  # partly out of the frame: not scored
    return out, {**entry, "dice": dice, "ignore": ignore}


def _inscribed(w: int, h: int, radians: float) -> tuple[float, float]:
    """The largest upright rectangle inside a w x h one turned by `radians`."""
    sin, cos = abs(np.sin(radians)), abs(np.cos(radians))
    long, short = max(w, h), min(w, h)
    if short <= 2 * sin * cos * long or abs(sin - cos) < 1e-10:
        half = short / 2
        return (half / sin, half / cos) if w >= h else (half / cos, half / sin)
    cos2 = cos * cos - sin * sin
    return (w * cos - h * sin) / cos2, (h * cos - w * sin) / cos2


def rotated(image: np.ndarray, entry: dict, degrees: float) -> tuple[np.ndarray, dict]:
    """The photo turned by `degrees` about its centre, as a camera turned so sees the table:
    the largest upright rectangle that holds only the photo, each die's box its own size
    around its moved centre; dice that leave it, even partly, are not scored."""
    h, w = image.shape[:2]
    cw, ch = (int(v) for v in _inscribed(w, h, np.radians(degrees)))
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    m[:, 2] += (cw - w) / 2, (ch - h) / 2
    out = cv2.warpAffine(image, m, (cw, ch), flags=cv2.INTER_LINEAR)

    def moved(box: list[float]) -> list[float]:
        x, y, bw, bh = box
        cx, cy = m @ np.array([x + bw / 2, y + bh / 2, 1.0])
        return [float(cx - bw / 2), float(cy - bh / 2), bw, bh]

    dice, ignore = [], [moved(b) for b in entry.get("ignore", [])]
    for die in entry["dice"]:
        x, y, bw, bh = box = moved(die["box"])
        if x >= 0 and y >= 0 and x + bw < cw and y + bh < ch:
            dice.append({**die, "box": box})
        else:
            ignore.append(box)  # partly out of the view: not scored
    return out, {**entry, "dice": dice, "ignore": ignore}


def repainted(image: np.ndarray, *, hue: float = 0.0, invert: bool = False) -> np.ndarray:
    """The same scene with other dice on another table: every colour turned `hue` degrees
    round the hue wheel (brightness and saturation kept; in float, so the turn is exact and
    a turn of 0 or 360 leaves the photo as it was), then made its negative if `invert`."""
    out = image
    if hue % 360:
        hsv = cv2.cvtColor(out.astype(np.float32) / 255.0, cv2.COLOR_BGR2HSV)  # (hue 0-360)
        hsv[:, :, 0] = (hsv[:, :, 0] + hue) % 360.0
        bgr = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR) * 255.0
        out = np.clip(np.rint(bgr), 0, 255).astype(np.uint8)
    if invert:
        out = 255 - out
    return out


def recoloured(
    image: np.ndarray, *, saturation: float = 1.0, blur: float = 0.0, quality: int | None = None
) -> np.ndarray:
    """The photo with its colour scaled by `saturation` about its brightness (0: grey, as a
    monochrome camera sees it), blurred by `blur` pixels and re-encoded as a JPEG of
    `quality`."""
    out = image
    if saturation != 1.0:
        grey = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        out = cv2.addWeighted(out, saturation, grey, 1.0 - saturation, 0.0)
    if blur:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if quality is not None:
        out = _through_jpeg(out, quality)
    return out


def glared(image: np.ndarray, entry: dict, size: float, rng: np.random.Generator) -> np.ndarray:
    """The photo with a lamp's reflection on each labelled die: a soft spot (a Gaussian of
    spread `size` die sides, flattened by 1.6 up and down) brightening by up to 200
    levels, centred within the middle 60% of the die's box."""
    out = image.astype(np.float32)
    h, w = out.shape[:2]
    for die in entry["dice"]:
        x, y, bw, bh = die["box"]
        side = max(bw, bh)
        cx, cy = x + bw * rng.uniform(0.2, 0.8), y + bh * rng.uniform(0.2, 0.8)
        x0, y0 = max(0, int(cx - side)), max(0, int(cy - side))
        x1, y1 = min(w, int(cx + side) + 1), min(h, int(cy + side) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        sigma = size * side
        spot = np.exp(-((xx - cx) ** 2 + ((yy - cy) * 1.6) ** 2) / (2 * sigma * sigma))
        out[y0:y1, x0:x1] += 200 * spot[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def warmed(image: np.ndarray, share: float) -> np.ndarray:
    """The photo under a warm lamp the camera did not balance: blue kept at 1 - `share` of
    its level and green at 1 - `share` / 2 (a tungsten bulb's cast, about 0.5)."""
    return np.clip(image * warm_gains(share), 0, 255).astype(np.uint8)


def exposed(image: np.ndarray, gain: float) -> np.ndarray:
    """The photo exposed `gain` times as long: every level scaled, the brightest clipped
    at 255 as a sensor's are (a phone metering on a dark table blows out white dice)."""
    return np.clip(image * np.float32(gain) + 0.5, 0, 255).astype(np.uint8)


def toned(image: np.ndarray, gamma: float) -> np.ndarray:
    """The photo through another camera's tone curve: each level v becomes
    255 (v / 255)^`gamma` (over 1, darker mid-tones; under 1, lighter; 0 and 255 kept)."""
    curve = 255.0 * (np.arange(256, dtype=np.float64) / 255.0) ** gamma
    return cv2.LUT(image, np.clip(np.rint(curve), 0, 255).astype(np.uint8))


def shadowed(
    image: np.ndarray, entry: dict, light: float, edge: float, rng: np.random.Generator
) -> np.ndarray:
    """The photo with a shadow across its roll (the phone's or a hand's): a straight line at
    a random angle through a random point of a labelled die, beyond which the light falls
    to `light`, over about `edge` die sides (a logistic step, 10% to 90% of the fall; a
    small lamp casts a sharp edge, a big shade a soft one)."""
    h, w = image.shape[:2]
    boxes = [d["box"] for d in entry["dice"]] or [[0, 0, w, h]]
    x, y, bw, bh = boxes[rng.integers(len(boxes))]
    side = float(np.median([max(b[2], b[3]) for b in boxes]))
    px, py = x + bw * rng.uniform(0, 1), y + bh * rng.uniform(0, 1)
    angle = rng.uniform(0, 2 * np.pi)
    yy, xx = (a.astype(np.float32) for a in np.ogrid[0:h, 0:w])  # (broadcast, not grids)
    beyond = (xx - px) * np.cos(angle) + (yy - py) * np.sin(angle)
    spread = max(edge * side / 4.4, 0.25)  # (a logistic rises 10% -> 90% over 4.4 spreads)
    fall = 0.5 + 0.5 * np.tanh(beyond / (2 * spread))  # (the logistic, without overflow)
    shade = 1.0 - (1.0 - light) * fall
    return np.clip(image * shade[..., None], 0, 255).astype(np.uint8)


def _moved_labels(entry: dict, k: float, dx: float = 0.0, dy: float = 0.0) -> dict:
    """The labels of a photo scaled by `k` and then shifted by (dx, dy)."""

    def moved(box: list[float]) -> list[float]:
        return [box[0] * k + dx, box[1] * k + dy, box[2] * k, box[3] * k]

    dice = [{**d, "box": moved(d["box"])} for d in entry["dice"]]
    return {**entry, "dice": dice, "ignore": [moved(b) for b in entry.get("ignore", [])]}


def scaled(image: np.ndarray, entry: dict, factor: float) -> tuple[np.ndarray, dict]:
    """The photo and its labels resized by `factor`."""
    out = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return out, _moved_labels(entry, factor)


def framed(image: np.ndarray, entry: dict, size_wh: tuple[int, int]) -> tuple[np.ndarray, dict]:
    """The photo scaled to the frame's height (or width, if it is too wide) and centred in
    a frame of `size_wh`, its edge pixels repeated, with its labels moved with it."""
    w, h = size_wh
    k = min(h / image.shape[0], w / image.shape[1])
    out = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    dx, dy = (w - out.shape[1]) // 2, (h - out.shape[0]) // 2
    out = cv2.copyMakeBorder(
        out, dy, h - out.shape[0] - dy, dx, w - out.shape[1] - dx, cv2.BORDER_REPLICATE
    )
    return out, _moved_labels(entry, k, dx, dy)


def cut_close(
    image: np.ndarray, entry: dict, margin: float, long_side: int
) -> tuple[np.ndarray, dict]:
    """The photo cut close around its labelled dice (`margin` median die sides beyond the
    outermost ones, within the photo) and scaled (bicubic) to `long_side` pixels on its long
    side, its labels moved with it: a phone held just over the roll, whose dice fill the
    frame. A photo without labelled dice is kept whole."""
    boxes = np.array([d["box"] for d in entry["dice"]], np.float64).reshape(-1, 4)
    if not len(boxes):
        k = long_side / max(image.shape[:2])
        return cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC), _moved_labels(
            entry, k
        )
    pad = margin * float(np.median(boxes[:, 2:].max(axis=1)))
    h, w = image.shape[:2]
    x0, y0 = (max(0, int(v - pad)) for v in boxes[:, :2].min(axis=0))
    x1 = min(w, int(np.ceil((boxes[:, 0] + boxes[:, 2]).max() + pad)))
    y1 = min(h, int(np.ceil((boxes[:, 1] + boxes[:, 3]).max() + pad)))
    k = long_side / max(x1 - x0, y1 - y0)
    out = cv2.resize(image[y0:y1, x0:x1], None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    return out, _moved_labels(entry, k, -x0 * k, -y0 * k)


def on_canvas(
    image: np.ndarray, entry: dict, size_wh: tuple[int, int], rng: np.random.Generator
) -> tuple[np.ndarray, dict]:
    """The photo, at its own size, in the middle of a bigger photo of the table around it
    (the photo's median colour), a little sensor noise over all, its labels moved with it:
    a wide shot of the whole table, whose dice are a small share of its long side."""
    w, h = size_wh
    ih, iw = image.shape[:2]
    if iw > w or ih > h:
        raise ValueError(f"the photo ({iw}x{ih}) is bigger than the canvas ({w}x{h})")
    fill = [int(v) for v in np.median(image.reshape(-1, 3), axis=0)]
    dx, dy = (w - iw) // 2, (h - ih) // 2
    out = cv2.copyMakeBorder(
        image, dy, h - ih - dy, dx, w - iw - dx, cv2.BORDER_CONSTANT, value=fill
    )
    noise = np.rint(3 * rng.standard_normal(out.shape, dtype=np.float32)).astype(np.int8)
    return cv2.add(out, noise, dtype=cv2.CV_8U), _moved_labels(entry, 1.0, dx, dy)


TABLES = ("dots", "check", "cloth", "print", "wood", "felt")


def wood_planks(h: int, w: int, die: float, rng: np.random.Generator) -> np.ndarray:
    """A wooden table top, in float BGR, for dice of side `die`: planks 3-8 dice wide with
    dark seams between them, each with its own shade and long grain lines a sixth to half
    a die apart, bent gently over several dice, and fine fibres along them."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / die  # (in dice)
    angle = rng.uniform(0, np.pi)
    across = -xx * np.sin(angle) + yy * np.cos(angle)
    cells = max(2, int(max(h, w) / (4 * die)) + 2)  # (a bend every four dice or so)
    bend = cv2.resize(
        rng.normal(0, 1, (cells, cells)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    width = rng.uniform(3, 8)
    plank = np.floor(across / width)
    period = rng.uniform(1 / 6, 1 / 2)
    phase = 2 * np.pi * (across + bend * rng.uniform(0.2, 0.8) + 0.37 * plank) / period
    grain = np.sin(phase) + 0.4 * np.sin(2.3 * phase + 1.0)
    fibre = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7)
    brown = np.array([40, 80, 140], np.float32) * rng.uniform(0.5, 1.5)
    shade = 1 + 0.12 * np.sin(plank * 2.1 + rng.uniform(0, 6))  # (each plank its own)
    img = brown * (shade * (1 + rng.uniform(0.05, 0.2) * grain))[..., None]
    img += (fibre * rng.uniform(2, 6))[..., None]
    seam = np.abs(across / width - np.round(across / width)) * width < 0.03
    img[seam] *= 0.4
    return img


def drawn_table(kind: str, h: int, w: int, die: float, rng: np.random.Generator) -> np.ndarray:
    """A table top of `kind`, in float BGR, its motifs sized to dice of side `die`: polka
    dots on a regular grid (light on a dark cloth or dark on a light one, 0.6-1.6 dice
    apart, each dot's radius a tenth to three tenths of that), a gingham check (squares of
    half to one and a half dice), the training script's printed cloth (motifs of rings and
    dots) or cartoon print (eyes the size of a die showing 1), planks of wood
    (`wood_planks`), or the training script's felt (green, blue, red or grey)."""
    if kind == "dots":
        light, dark = rng.integers(170, 256, 3), rng.integers(0, 110, 3)
        base, spot = (dark, light) if rng.random() < 0.5 else (light, dark)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        step = die * rng.uniform(0.6, 1.6)
        r = max(1, int(step * rng.uniform(0.1, 0.3)))
        for row, gy in enumerate(np.arange(0, h + step, step * 0.87)):
            for gx in np.arange((row % 2) * step / 2, w + step, step):
                cv2.circle(img, (int(gx), int(gy)), r, spot.tolist(), -1, cv2.LINE_AA)
        return img
    if kind == "check":
        side = die * rng.uniform(0.5, 1.5)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        bands = ((xx // side) % 2) + ((yy // side) % 2)  # 0, 1 or 2 coloured bands cross
        colour = rng.integers(0, 200, 3).astype(np.float32)
        white = np.array([235, 235, 235], np.float32)
        return white + (colour - white) * (bands[..., None] / 2)
    if kind == "cloth":
        return fabric(rng, h, w, rng.integers(0, 256, 3).astype(np.float32), die)
    if kind == "print":
        return printed_cloth(rng, h, w, die)[0]
    if kind == "wood":
        return wood_planks(h, w, die, rng)
    if kind == "felt":
        colours = ([40, 110, 30], [120, 60, 20], [30, 30, 140], [90, 90, 90])
        return felt(rng, h, w, np.array(colours[rng.integers(0, 4)], np.float32))
    raise ValueError(f"no table {kind!r}: one of {', '.join(TABLES)}")


def on_table(image: np.ndarray, entry: dict, kind: str, rng: np.random.Generator) -> np.ndarray:
    """The photo's labelled dice, each with a rim of its own table (a sixth of its side),
    set on a drawn patterned table of `kind` (`drawn_table`, motifs sized to the median
    die), lit as the photo's table was (its brightness smoothed over two dice): the same
    dice on a tablecloth. Everything beyond the labelled dice is table, unlabelled dice
    and the tray wall too. A photo without labelled dice is all table."""
    h, w = image.shape[:2]
    boxes = [d["box"] for d in entry["dice"]]
    die = float(np.median([max(b[2], b[3]) for b in boxes])) if boxes else min(h, w) / 12
    keep = np.zeros((h, w), np.float32)
    for x, y, bw, bh in boxes:
        pad = max(bw, bh) / 6
        cv2.rectangle(
            keep, (int(x - pad), int(y - pad)), (int(x + bw + pad), int(y + bh + pad)), 1.0, -1
        )
    rim = cv2.GaussianBlur(keep, (0, 0), max(0.5, die / 20))[..., None]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    smooth = cv2.GaussianBlur(grey, (0, 0), 2 * die)
    light = np.clip(smooth / max(1.0, float(np.median(smooth))), 0.6, 1.2)[..., None]
    cloth = drawn_table(kind, h, w, die, rng) * light
    out = image.astype(np.float32) * rim + cloth * (1 - rim)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _frame_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not WxH: {text!r}") from None
    if not (16 <= w <= 10000 and 16 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"frame sides must be 16-10000 pixels: {text!r}")
    return w, h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("directory", type=Path)
    ap.add_argument("--dim", type=float, default=1.0, help="share of the light kept")
    ap.add_argument("--noise", type=float, default=0.0, help="sensor noise (grey levels)")
    ap.add_argument("--tilt", type=float, default=0.0, help="camera tipped back, degrees")
    ap.add_argument(
        "--focal",
        type=float,
        default=1.0,
        help="the tilted camera's focal length over the long side (a phone's is about 0.7)",
    )
    ap.add_argument("--scale", type=float, default=1.0, help="photo resized by this factor")
    ap.add_argument("--frame", type=_frame_size, help="placed in a frame of WxH pixels")
    ap.add_argument(
        "--canvas", type=_frame_size, help="at its size (after --scale) amid a WxH table"
    )
    ap.add_argument("--rotate", type=float, default=0.0, help="photo turned, degrees")
    ap.add_argument("--saturation", type=float, default=1.0, help="colour scaled by this (0: grey)")
    ap.add_argument("--blur", type=float, default=0.0, help="Gaussian blur, pixels")
    ap.add_argument("--hue", type=float, default=0.0, help="colours turned, degrees")
    ap.add_argument("--invert", action="store_true", help="each pixel its negative")
    ap.add_argument("--quality", type=int, help="re-encoded as a JPEG of this quality")
    ap.add_argument(
        "--glare", type=float, default=0.0, help="a reflection on each die, its spread in die sides"
    )
    ap.add_argument(
        "--warm",
        type=float,
        default=0.0,
        help="a warm lamp's cast: blue dimmed by this share, green by half of it",
    )
    ap.add_argument(
        "--shadow", type=float, default=None, help="a shadow across the roll: the light kept (0-1)"
    )
    ap.add_argument(
        "--shadow-edge",
        type=float,
        default=None,
        metavar="SIDES",
        help="the shadow's edge this many die sides wide (default 0.3)",
    )
    ap.add_argument(
        "--exposure",
        type=float,
        default=1.0,
        help="exposed this many times as long (levels scaled, clipped at 255)",
    )
    ap.add_argument(
        "--gamma", type=float, default=1.0, help="another tone curve: levels v -> 255 (v/255)^G"
    )
    ap.add_argument("--table", choices=TABLES, help="the dice set on a drawn patterned table")
    ap.add_argument("--images", type=int, default=60, help="the first N photos")
    ap.add_argument(
        "--close",
        type=float,
        default=None,
        metavar="MARGIN",
        help="cut close around the dice, MARGIN die sides beyond them (a close-up of the roll)",
    )
    ap.add_argument(
        "--close-long",
        type=int,
        default=1280,
        metavar="PX",
        help="--close's photo scaled to this long side (default 1280)",
    )
    ap.add_argument(
        "--no-brighten",
        action="store_true",
        help="no dark-frame scaling or shadow lifting (nor their smoothing)",
    )
    ap.add_argument(
        "--jpeg",
        action="store_true",
        help="encode each as a JPEG and read it as `hotdice read` does (reduced decoding)",
    )
    ap.add_argument(
        "--failures", action="store_true", help="list each photo read wrong (on stderr)"
    )
    args = ap.parse_args(argv)
    if not (0 < args.dim <= 4 and args.noise >= 0 and 0 < args.scale <= 4 and args.images > 0):
        ap.error("need 0 < --dim <= 4, --noise >= 0, 0 < --scale <= 4 and --images > 0")
    if args.close is not None and not (0 <= args.close <= 10 and 64 <= args.close_long <= 8000):
        ap.error("need 0 <= --close <= 10 and 64 <= --close-long <= 8000")
    if args.frame and args.scale != 1.0:
        ap.error("--frame scales the photo itself: leave out --scale")
    if args.frame and args.canvas:
        ap.error("give --frame or --canvas, not both")
    if not (0 <= args.saturation <= 4 and 0 <= args.blur <= 20 and 0 <= args.glare <= 1):
        ap.error("need 0 <= --saturation <= 4, 0 <= --blur <= 20 and 0 <= --glare <= 1")
    if args.shadow is None and args.shadow_edge is not None:
        ap.error("--shadow-edge is the shadow's: give --shadow too")
    if args.shadow is not None and args.shadow_edge is None:
        args.shadow_edge = 0.3
    if not (0 <= args.warm < 1 and 0 <= (args.shadow_edge or 0) <= 20):
        ap.error("need 0 <= --warm < 1 and 0 <= --shadow-edge <= 20")
    if args.shadow is not None and not 0 <= args.shadow <= 1:
        ap.error("--shadow is the light kept in the shadow: 0-1")
    if not (0 < args.exposure <= 4 and 0.2 <= args.gamma <= 5):
        ap.error("need 0 < --exposure <= 4 and 0.2 <= --gamma <= 5")
    if args.quality is not None and not 1 <= args.quality <= 100:
        ap.error("--quality must be 1-100")
    if not 0.3 <= args.focal <= 3:
        ap.error("--focal must be 0.3-3 (a phone's wide camera is about 0.7)")
    if args.focal != 1.0 and not args.tilt:
        ap.error("--focal is the tilted camera's: give --tilt too")
    if abs(args.tilt) > 60:
        ap.error("--tilt must stay within 60 degrees (further, the near edge leaves the view)")
    try:
        _, entries = iter_dataset(args.directory)
    except (OSError, ValueError) as exc:
        print(f"stress_vision: error: {exc}", file=sys.stderr)
        return 2
    if args.no_brighten:
        reader.brightening = lambda image, **_: 1.0
        reader.shadows_lifted = lambda image: (image, None)
    rng = np.random.default_rng(0)
    results = []
    for entry in entries[: args.images]:
        try:
            image = vision.load_image(args.directory / entry["file"])
        except (OSError, ValueError) as exc:
            print(f"stress_vision: skipped {exc}", file=sys.stderr)
            continue
        # only dice with a box can be moved with the photo
        entry = {**entry, "dice": [d for d in entry.get("dice", []) if "box" in d]}
        if args.table:
            image = on_table(image, entry, args.table, rng)
        if args.close is not None:
            image, entry = cut_close(image, entry, args.close, args.close_long)
        if args.scale != 1.0:
            image, entry = scaled(image, entry, args.scale)
        if args.frame:
            image, entry = framed(image, entry, args.frame)
        if args.canvas:
            try:
                image, entry = on_canvas(image, entry, args.canvas, rng)
            except ValueError as exc:
                print(f"stress_vision: error: {entry['file']}: {exc}", file=sys.stderr)
                return 2
        if args.rotate:
            image, entry = rotated(image, entry, args.rotate)
        if args.tilt:
            image, entry = tilted(image, entry, args.tilt, args.focal)
        # (a lamp's reflection stays bright: after this)
        image = repainted(image, hue=args.hue, invert=args.invert)
        if args.glare:
            image = glared(image, entry, args.glare, rng)
        if args.warm:
            image = warmed(image, args.warm)
        if args.shadow is not None:
            image = shadowed(image, entry, args.shadow, args.shadow_edge, rng)
        if args.exposure != 1.0:
            image = exposed(image, args.exposure)
        if args.gamma != 1.0:
            image = toned(image, args.gamma)
        if args.saturation != 1.0 or args.blur or args.quality is not None:
            image = recoloured(
                image, saturation=args.saturation, blur=args.blur, quality=args.quality
            )
        if args.dim != 1.0 or args.noise:
            image = dimmed(image, args.dim, args.noise, rng)
        if args.jpeg:  # the file's bytes, read as `hotdice read` reads a file's
            dets = read_photo_data(_jpeg(image, 90).tobytes()).detections
        else:
            dets = vision.read(image)
        results.append(score_image(entry, dets, 0.0))
        if args.failures and results[-1].problems:
            print(f"{entry['file']}: {'; '.join(results[-1].problems)}", file=sys.stderr)
    s = summarize(results)
    figures = {k: s[k] for k in FIGURES}
    print(
        json.dumps(
            {"directory": str(args.directory), "dim": args.dim, "noise": args.noise}
            | {"tilt": args.tilt, "focal": args.focal, "scale": args.scale, "frame": args.frame}
            | {"canvas": args.canvas, "jpeg": args.jpeg, "rotate": args.rotate}
            | {"saturation": args.saturation, "blur": args.blur, "quality": args.quality}
            | {"glare": args.glare, "hue": args.hue, "invert": args.invert}
            | {"warm": args.warm, "shadow": args.shadow}
            | {"shadow_edge": args.shadow_edge, "exposure": args.exposure, "gamma": args.gamma}
            | {"close": args.close, "close_long": args.close_long, "table": args.table}
            | figures
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
