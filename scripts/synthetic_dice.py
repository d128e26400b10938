"""Dice and tables drawn from nothing, for `train_vision.py`: small 3D cubes (random
colours, marbling, pips or a printed logo, turned and tipped under a perspective camera so
that side faces show with their own pips, lit with a soft shadow) on drawn tables (wood
grain, felt, plain, patterned, printed cloth with pip-sized motifs, stains, a tray wall),
and the photometric changes that keep any one camera from being learnt. NumPy and OpenCV
only; every draw takes its numpy Generator, so a seed gives the same pictures.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def die_style(rng: np.random.Generator) -> dict:
    """Colours and shapes shared by every face of one die (a die is one material)."""
    face_col = rng.integers(0, 256, 3).astype(np.float32)
    if rng.random() < 0.35:
        face_col = np.full(3, rng.choice([rng.uniform(200, 255), rng.uniform(10, 50)]), np.float32)
    pip_col = 255.0 - face_col if rng.random() < 0.7 else rng.integers(0, 256, 3).astype(np.float32)
    if np.linalg.norm(pip_col - face_col) < 90:
        pip_col = np.where(face_col > 127, 20.0, 235.0).astype(np.float32)
    return {
        "face": face_col,
        "pip": pip_col,
        "corner": rng.uniform(0.08, 0.2),
        "spread": rng.uniform(0.23, 0.3),
        "pip_r": rng.uniform(0.06, 0.1),
        "big_one": rng.random() < 0.4,
        # marbled or swirled plastic (a third of real dice sets)
        "marble": rng.uniform(0.08, 0.25) if rng.random() < 0.3 else 0.0,
        "seed": int(rng.integers(1 << 30)),
    }


def _glyph(rng: np.random.Generator, img: np.ndarray, s: int, col: np.ndarray) -> None:
    """A printed logo instead of pips: a letter, a star or a blob, as on maker's dice."""
    ink = np.zeros((s, s), np.uint8)
    kind = rng.integers(3)
    if kind == 0:
        ch = chr(int(rng.integers(65, 91)))
        scale = s / 40.0 * rng.uniform(0.8, 1.3)
        thick = max(1, s // 20)
        (tw, th), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
        org = ((s - tw) // 2, (s + th) // 2)
        cv2.putText(ink, ch, org, cv2.FONT_HERSHEY_DUPLEX, scale, 255, thick, cv2.LINE_AA)
    else:
        n = int(rng.integers(5, 12))
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        rad = s * rng.uniform(0.12, 0.36, n) * (1 + (kind == 1) * (np.arange(n) % 2))
        pts = np.stack([s / 2 + rad * np.cos(ang), s / 2 + rad * np.sin(ang)], 1)
        cv2.fillPoly(ink, [pts.astype(np.int32)], 255, cv2.LINE_AA)
    alpha = ink.astype(np.float32)[..., None] / 255.0
    img[:] = img * (1 - alpha) + col * alpha


def draw_face(
    rng: np.random.Generator, value: int, size: int, st: dict
) -> tuple[np.ndarray, np.ndarray]:
    """One face of a die (style `st` from `die_style`) seen square on, size x size, and its
    alpha mask (rounded corners). `value` 0 draws a printed logo instead of pips.
    """
    s = size * 4
    img: np.ndarray = np.empty((s, s, 3), np.float32)
    img[:] = st["face"]
    if st["marble"]:
        mr = np.random.default_rng(st["seed"] + value)
        noise = cv2.resize(mr.normal(0, 1, (6, 6)).astype(np.float32), (s, s))
        veins = np.sin(noise * mr.uniform(3, 8))
        img *= (1 + st["marble"] * veins)[..., None]
    mask: np.ndarray = np.zeros((s, s), np.uint8)
    rad = int(s * st["corner"])
    for cx, cy in ((rad, rad), (s - rad, rad), (rad, s - rad), (s - rad, s - rad)):
        cv2.circle(mask, (cx, cy), rad, 255, -1)
    cv2.rectangle(mask, (rad, 0), (s - rad, s), 255, -1)
    cv2.rectangle(mask, (0, rad), (s, s - rad), 255, -1)
    if value == 0:
        _glyph(rng, img, s, st["pip"])
    else:
        a = s * st["spread"]
        pr = s * st["pip_r"] * (1.5 if value == 1 and st["big_one"] else 1.0)
        for dx, dy in PIP_LAYOUT[value]:
            cv2.circle(
                img,
                (int(s / 2 + dx * a), int(s / 2 + dy * a)),
                int(pr),
                st["pip"].tolist(),
                -1,
                lineType=cv2.LINE_AA,
            )
    img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA)
    return np.clip(img, 0, 255), mask.astype(np.float32) / 255.0


# the four faces around a top face, in order round the die (opposite faces add up to 7)
def _side_values(rng: np.random.Generator, top: int) -> list[int]:
    rest = [v for v in range(1, 7) if v not in (top, 7 - top)]
    a = int(rng.choice(rest))
    b = int(rng.choice([v for v in rest if v not in (a, 7 - a)]))
    return [a, b, 7 - a, 7 - b]


_CUBE_FACES = [  # (normal, two in-face axes) of a cube [-1, 1]^3; index 0 is the top (+z)
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
]


def cube_rotation(yaw: float, tilt: float, tilt_dir: float) -> np.ndarray:
    """The 3x3 rotation of a die turned `yaw` about the table's normal, then tipped by `tilt`
    about the axis in the table's plane at angle `tilt_dir` (radians; Rodrigues' formula):
    a die cocked against another, or seen by a slanted camera, shows its sides."""
    cz, sz = math.cos(yaw), math.sin(yaw)
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    axis = np.array([math.cos(tilt_dir), math.sin(tilt_dir), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rt = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * k @ k
    return rt @ rz


def paste_die(
    rng: np.random.Generator,
    canvas: np.ndarray,
    value: int,
    cx: float,
    cy: float,
    size: float,
    flat: float = 0.0,
    max_tilt: float = 40.0,
    pose: tuple[float, float] | None = None,
    outline: list | None = None,
    style: dict | None = None,
) -> tuple[float, float, float]:
    """Render a die as a small 3D cube into canvas; returns its top face's centre and the
    side of the square around the whole die as seen (what a labeller boxes).

    The cube is turned at random about the vertical, then tipped by up to `max_tilt` degrees
    (an oblique camera, or a die cocked against another), so one or two side faces show, with
    their own pips, darker or lighter by a random light. `size` is the top face's side;
    `(cx, cy)` the centre of the whole die as seen. With probability `flat` it is seen
    straight down. `value` 0 is a die showing a printed logo on top. `pose` (tilt, its
    direction, in radians) replaces the random tip: the camera's slant, which every die of an
    oblique pile shares. `outline`, if given, gets the top face's corners and the whole die's
    hull as seen (to tell how much of the top a nearer die hides). `style` (`die_style`):
    the set's colours, shared by the dice of one set; drawn anew if not given.
    """
    if not 0 <= max_tilt < 80:
        raise ValueError("max_tilt must stay well below 90 degrees: the top face must show")
    st = die_style(rng) if style is None else style
    tex = max(8, int(size * 1.2))
    if pose is None:
        tilt = 0.0 if rng.random() < flat else math.radians(max_tilt) * rng.random() ** 1.5
        rot = cube_rotation(rng.uniform(0, 2 * np.pi), tilt, rng.uniform(0, 2 * np.pi))
    else:
        rot = cube_rotation(rng.uniform(0, 2 * np.pi), *pose)
    dist = rng.uniform(6, 30)  # camera distance in half die sides: perspective strength
    f = size / 2 * (dist - 1)  # the top face, untilted, is `size` pixels across
    light = np.array([rng.normal(), rng.normal(), rng.uniform(0.8, 2.0)])
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.35, 0.7)
    sides = _side_values(rng, value if value else int(rng.integers(1, 7)))
    values = [value] + sides
    h, w = canvas.shape[:2]
    quads, shades = [], []
    for (n, u, v), val in zip(_CUBE_FACES, values, strict=True):
        n_r = rot @ np.array(n, float)
        # edge-on faces are slivers and near-singular warps. (Under perspective the exact
        # test is dist * n_r[2] > 1; this simpler one lets through a back face in about 1 of
        # 1000 side faces of the closest cameras. Kept as is: the shipped networks were
        # trained with it, and the script must reproduce them.)
        if n_r[2] <= 0.15:
            continue
        corners = [
            np.array(n, float) + su * np.array(u, float) + sv * np.array(v, float)
            for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        pts = []
        for c in corners:
            p = rot @ c
            z = dist - p[2]
            pts.append((p[0] * f / z, p[1] * f / z))
        quads.append((np.array(pts, np.float32), val))
        shades.append(ambient + (1 - ambient) * max(0.0, float(n_r @ light)))
    allpts = np.concatenate([q for q, _ in quads])
    centre = (allpts.max(0) + allpts.min(0)) / 2
    off = np.array([cx, cy], np.float32) - centre
    # soft shadow on the table, away from the light
    shadow = np.zeros((h, w), np.float32)
    cast = allpts + off - light[:2] * size * rng.uniform(0.1, 0.4)
    hull = cv2.convexHull(cast.astype(np.int32))
    cv2.fillConvexPoly(shadow, hull, 1.0, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, size * 0.08)) * rng.uniform(0.2, 0.6)
    canvas *= (1 - shadow)[..., None]
    # the die body under the rounded faces: the darkest side's colour
    body = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(body, cv2.convexHull((allpts + off).astype(np.int32)), 1.0, cv2.LINE_AA)
    canvas[:] = canvas * (1 - body[..., None]) + body[..., None] * st["face"] * min(shades) * 0.8
    src = np.array([[0, 0], [tex, 0], [tex, tex], [0, tex]], np.float32)
    for (q, val), shade in zip(quads, shades, strict=True):
        face, mask = draw_face(rng, val, tex, st)
        m = cv2.getPerspectiveTransform(src, q + off)
        fw = cv2.warpPerspective(face * shade, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
        mw = cv2.warpPerspective(mask, m, (w, h))
        canvas[:] = canvas * (1 - mw[..., None]) + fw * mw[..., None]
    np.nan_to_num(canvas, copy=False)
    # the top face always shows (the tilt stays far below 90 degrees) and comes first. Its
    # centre, not the centre of the box around the whole die, is the label: the point the
    # face reader should look at (real labels' box centres are within a third of a side)
    top = quads[0][0].mean(0) + off
    extent = float((allpts.max(0) - allpts.min(0)).max())
    if outline is not None:
        outline.extend([quads[0][0] + off, cv2.convexHull(allpts + off)[:, 0]])
    return float(top[0]), float(top[1]), extent


def fabric(rng: np.random.Generator, h: int, w: int, base: np.ndarray, die: float) -> np.ndarray:
    """A printed cloth: a motif of rings, dots and petals repeated on a jittered grid. Eyes
    and spots the size of pips are what a dice reader must learn to ignore."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    step = die * rng.uniform(0.8, 2.5)
    parts = [
        (rng.uniform(-0.3, 0.3, 2), rng.uniform(0.05, 0.35), rng.integers(0, 256, 3).tolist())
        for _ in range(rng.integers(2, 7))
    ]
    for gy in np.arange(-step, h + step, step):
        for gx in np.arange(-step, w + step, step):
            jx, jy = rng.normal(0, 0.08 * step, 2)
            for (ox, oy), r, col in parts:
                c = (int(gx + jx + ox * step), int(gy + jy + oy * step))
                rr = max(1, int(r * step))
                if r < 0.12 or rng.random() < 0.5:
                    cv2.circle(img, c, rr, col, -1, cv2.LINE_AA)
                else:
                    cv2.circle(img, c, rr, col, max(1, rr // 3), cv2.LINE_AA)
    return img


def printed_cloth(
    rng: np.random.Generator, h: int, w: int, die: float
) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """A cartoon-printed cloth (owls, cats, flowers) and the centres of its eyes: a light
    disc with a dark pupil, the size of a die showing 1, in pairs on coloured bodies, on a
    woven texture. On the held-out tray photos the finder's false dice were mostly such eyes,
    which the readers took for ones. Round, not square, and not a die."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = rng.integers(120, 256, 3)
    for _ in range(rng.integers(2, 9)):  # bodies, leaves, petals
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(die * rng.uniform(0.4, 2.0)), int(die * rng.uniform(0.4, 2.0)))
        cv2.ellipse(img, c, axes, rng.uniform(0, 180), 0, 360, rng.integers(0, 256, 3).tolist(), -1)
    eyes = []
    for _ in range(rng.integers(1, 4)):
        eye_pair = rng.uniform(0, [w, h])
        r = die * rng.uniform(0.2, 0.55)
        a = rng.uniform(0, 2 * np.pi)
        gap = r * rng.uniform(1.9, 2.8)
        light = rng.integers(170, 256, 3).tolist()
        dark = rng.integers(0, 90, 3).tolist()
        ring = rng.integers(0, 256, 3).tolist()
        for sign in (-1, 1) if rng.random() < 0.8 else (1,):
            e = eye_pair + sign * gap / 2 * np.array([math.cos(a), math.sin(a)])
            at = (int(e[0]), int(e[1]))
            cv2.circle(img, at, int(r * rng.uniform(1.0, 1.3)), ring, -1, cv2.LINE_AA)
            cv2.circle(img, at, int(r), light, -1, cv2.LINE_AA)
            pr = max(1, int(r * rng.uniform(0.25, 0.6)))
            p = (int(e[0] + rng.normal(0, 0.12) * r), int(e[1] + rng.normal(0, 0.12) * r))
            if rng.random() < 0.5:
                cv2.circle(img, p, pr, dark, -1, cv2.LINE_AA)
            else:
                cv2.rectangle(img, (p[0] - pr, p[1] - pr), (p[0] + pr, p[1] + pr), dark, -1)
            eyes.append((float(e[0]), float(e[1])))
    period = max(2.0, die * rng.uniform(0.04, 0.12))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    img += weave[..., None] * rng.uniform(5, 30)
    return np.clip(img, 0, 255), eyes


def _stains(rng: np.random.Generator, img: np.ndarray, die: float) -> None:
    """Blots, rings and scratches on a plain surface, from a pip's size to a die's."""
    h, w = img.shape[:2]
    for _ in range(rng.integers(1, 8)):
        n = int(rng.integers(5, 12))
        c = rng.uniform(0, [w, h])
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        rad = die * rng.uniform(0.05, 0.6) * rng.uniform(0.5, 1.0, n)
        pts = np.stack([c[0] + rad * np.cos(ang), c[1] + rad * np.sin(ang)], 1).astype(np.int32)
        blot: np.ndarray = np.zeros((h, w), np.float32)
        cv2.fillPoly(blot, [pts], 1.0, cv2.LINE_AA)
        blot = cv2.GaussianBlur(blot, (0, 0), max(0.5, die * 0.03))
        col = img.mean(axis=(0, 1)) * rng.uniform(0.3, 0.9) * rng.uniform(0.7, 1.0, 3)
        img[:] = img * (1 - blot[..., None]) + col * blot[..., None]


def _rim(rng: np.random.Generator, img: np.ndarray, other: np.ndarray) -> None:
    """A tray wall or table edge: `other` beyond a straight edge, with a shadow along it."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    d = xx * math.cos(ang) + yy * math.sin(ang) - rng.uniform(0.2, 0.8) * (w + h) / 2
    beyond = np.clip(d / 1.5 + 0.5, 0, 1)[..., None]
    shade = 1 - rng.uniform(0.2, 0.6) * np.exp(-np.abs(d) / rng.uniform(2, 15))[..., None]
    img[:] = (img * (1 - beyond) + other * beyond) * shade


def felt(rng: np.random.Generator, h: int, w: int, base: np.ndarray) -> np.ndarray:
    """A felt top of colour `base`: fine blurred noise."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    n = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
    return img + n[..., None] * rng.uniform(5, 25)


def draw_table(
    rng: np.random.Generator, h: int, w: int, die: float | None = None, *, busy: bool = True
) -> np.ndarray:
    """A plain, wood-grain, felt, patterned, printed-cloth or stained table top, sometimes
    with a tray wall or table edge across it. `die`: the side of the dice that will lie on
    it, in pixels, which sets the size of the cloth's motifs and stains. `busy=False` keeps
    to the first four (no cloth, stains or edges): what the shipped die finder saw."""
    die = die or min(h, w) / 6
    kind = rng.integers(0, 6 if busy else 4)
    base = rng.integers(0, 256, 3).astype(np.float32)
    if kind in (0, 5):
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += rng.normal(0, rng.uniform(1, 8), (h, w, 1))
        if kind == 5:
            _stains(rng, img, die)
    elif kind == 1:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        noise = cv2.resize(rng.normal(0, 1, (h // 16 + 2, w // 16 + 2)).astype(np.float32), (w, h))
        f = rng.uniform(0.05, 0.4)
        grain = np.sin(u * f + noise * rng.uniform(2, 8)) + 0.5 * np.sin(u * f * 3.1 + noise * 5)
        img = base + grain[..., None] * rng.uniform(10, 50) * np.array([1.0, 0.8, 0.6], np.float32)
    elif kind == 2:
        img = felt(rng, h, w, base)
    elif kind == 3:
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        for _ in range(rng.integers(5, 40)):
            col = rng.integers(0, 256, 3).tolist()
            p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            if rng.random() < 0.5:
                cv2.circle(img, p, int(rng.integers(2, 40)), col, -1)
            else:
                q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
                cv2.line(img, p, q, col, int(rng.integers(1, 6)))
    else:
        img = fabric(rng, h, w, base, die)
    if busy and rng.random() < 0.25:
        _rim(rng, img, draw_table(rng, h, w, die))
    grad = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.2), w, dtype=np.float32)
    return np.clip(img * grad[None, :, None], 0, 255)


# The shares of pictures whose hues `photometric` turns by a random angle and that it makes
# their negative: the shipped networks' (session 19 tried more for the face readers:
# `train_vision.py --hue-share/--invert-share`, docs/vision-log.md)
HUE_SHARE = 0.5
INVERT_SHARE = 0.15
# The share of pictures `photometric` lights with a lamp's colour the camera left in (a
# warm or a cool cast, `cast`): none for the shipped networks (session 58 tried it for the
# face readers: `train_vision.py --cast-share`, docs/vision-log.md)
CAST_SHARE = 0.0


def warm_gains(share: float) -> np.ndarray:
    """The BGR gains of a warm lamp's colour left unbalanced: blue kept at 1 - `share`,
    green at 1 - `share` / 2, red whole (a tungsten bulb's, about 0.5)."""
    return np.array([1.0 - share, 1.0 - share / 2, 1.0], np.float32)


def cast(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """`img` (float BGR) under a lamp's colour left unbalanced: seven in ten warm (blue
    dimmed by up to 0.6 and green by half as much, `warm_gains`), the rest cool (red
    dimmed so, as daylight through a window in a room lit warm)."""
    gains = warm_gains(rng.uniform(0.0, 0.6))
    if rng.random() >= 0.7:
        gains = gains[::-1]
    return img * gains


def photometric(
    rng: np.random.Generator,
    img: np.ndarray,
    *,
    hue_share: float = HUE_SHARE,
    invert_share: float = INVERT_SHARE,
    cast_share: float = CAST_SHARE,
) -> np.ndarray:
    """Colour, light, blur, noise and JPEG changes, so no one camera or dice set is learned:
    the colour channels swapped in half the pictures, the hues of `hue_share` turned,
    `invert_share` made their negative and `cast_share` given a lamp's `cast`."""
    img = img.astype(np.float32)
    if rng.random() < 0.5:
        img = img[..., rng.permutation(3)]
    if rng.random() < hue_share:
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(
            np.int32
        )
        hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180
        img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < invert_share:
        img = 255.0 - img
    if cast_share and rng.random() < cast_share:  # (no draw at 0: the shipped recipe's)
        img = cast(rng, img)
    img = img * rng.uniform(0.5, 1.4) + rng.uniform(-40, 40)
    mean = img.mean()
    img = (img - mean) * rng.uniform(0.6, 1.3) + mean
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3))
    img = img + rng.normal(0, rng.uniform(0, 6), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 95))])
        decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR)
        assert decoded is not None  # (the JPEG just encoded)
        img = decoded
    return img


def smeared(rng: np.random.Generator, img: np.ndarray, side: float) -> np.ndarray:
    """The picture as a shaking hand or a lens out of focus leaves it, for dice `side`
    pixels across: a straight streak 8-35% of a side long at any angle, or, one time in
    three, a disc of radius 4-12% of a side. Its light is kept (the kernel sums to 1)."""
    if rng.random() < 1 / 3:
        r = side * rng.uniform(0.04, 0.12)
        n = 2 * math.ceil(r) + 1
        kernel = np.zeros((n, n), np.float32)
        cv2.circle(kernel, (n // 2, n // 2), max(1, round(r)), 1.0, -1, cv2.LINE_AA)
    else:
        length = side * rng.uniform(0.08, 0.35)
        n = 2 * math.ceil(length / 2) + 1
        kernel = np.zeros((n, n), np.float32)
        a = rng.uniform(0, np.pi)
        dx, dy = math.cos(a) * length / 2, math.sin(a) * length / 2
        c = n // 2
        ends = (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy))
        cv2.line(kernel, *ends, 1.0, 1, cv2.LINE_AA)
    kernel /= kernel.sum()
    return cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REPLICATE)
