"""Train the two small networks of `vision/` and export them to ONNX for OpenCV's DNN module.

    python scripts/train_vision.py --only cls      # about 30 min on one CPU core
    python scripts/train_vision.py --only det      # about 15 min on one CPU core

(the shipped models were made exactly so, the two runs side by side; `--out DIR` writes
elsewhere, `--shared DIR` points at the dev photos, default ../shared/dice_photos or
$HOTDICE_SHARED). Needs torch and onnx, for training only.

* `vision/models/dice_det.onnx`: a fully convolutional die finder. It outputs, at 1/4 of the
  input resolution, a heat map of die centres, the sub-cell offset of each centre and the
  die's size, in the style of CenterNet.
* `vision/models/dice_cls.onnx`: reads one die crop (36x36, centred on the die, 1.3 die sides
  wide) into 7 classes: 0 = not a die, 1-6 = top-face value.

Training data, and only this: the *training* halves of `byler_d6` (BSD-3-Clause, the author's
own train.record) and `skovy_catan` (MIT, the author's `training/` folder), and dice this
script draws itself (random colours, pips, rotation, perspective, side faces) pasted onto
those photos and onto drawn tables (wood grain, felt, plain). `fudw_tray` is never used:
it has no licence, and it stays an honest held-out check. Everything is seeded; torch is
needed only here, never at run time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
import warnings
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "vision" / "models"
CROP = 44  # classifier input side
CROP_SPAN = 1.3  # crop side in die sides
DET_CELL = 4  # detector output stride
DET_SIZE_REF = 32.0


def shared_dir(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    env = os.environ.get("HOTDICE_SHARED")
    if env:
        return Path(env) / "dice_photos" if (Path(env) / "dice_photos").is_dir() else Path(env)
    return ROOT / ".." / "shared" / "dice_photos"


def training_images(shared: Path, *, split: str = "train") -> list[tuple[np.ndarray, list[dict]]]:
    """(image, dice) of the licensed sources' own training (or test) halves."""
    out = []
    for folder, train_key in (("byler_d6", "train.record"), ("skovy_catan", "/training/")):
        data = json.loads((shared / folder / "labels.json").read_text())
        for entry in data["images"]:
            is_train = train_key in entry["orig_path"]
            if (split == "train") != is_train:
                continue
            img = cv2.imread(str(shared / folder / entry["file"]))
            if img is not None:
                out.append((img, entry["dice"]))
    return out


# ---------------------------------------------------------------- drawing synthetic dice

PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def draw_face(rng: np.random.Generator, value: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """A die's top face seen from above, size x size, and its alpha mask."""
    face_col = rng.integers(0, 256, 3).astype(np.float32)
    if rng.random() < 0.35:
        face_col = np.full(3, rng.choice([rng.uniform(200, 255), rng.uniform(10, 50)]), np.float32)
    pip_col = 255.0 - face_col if rng.random() < 0.7 else rng.integers(0, 256, 3).astype(np.float32)
    if np.linalg.norm(pip_col - face_col) < 90:
        pip_col = np.where(face_col > 127, 20.0, 235.0).astype(np.float32)
    s = size * 4
    img = np.zeros((s, s, 3), np.float32)
    img[:] = face_col
    mask = np.zeros((s, s), np.uint8)
    rad = int(s * rng.uniform(0.08, 0.2))
    cv2.rectangle(mask, (rad, rad), (s - rad, s - rad), 255, -1)
    for cx, cy in ((rad, rad), (s - rad, rad), (rad, s - rad), (s - rad, s - rad)):
        cv2.circle(mask, (cx, cy), rad, 255, -1)
    cv2.rectangle(mask, (rad, 0), (s - rad, s), 255, -1)
    cv2.rectangle(mask, (0, rad), (s, s - rad), 255, -1)
    a = s * rng.uniform(0.23, 0.3)
    pr = s * rng.uniform(0.06, 0.1) * (1.5 if value == 1 and rng.random() < 0.5 else 1.0)
    for dx, dy in PIP_LAYOUT[value]:
        cv2.circle(
            img,
            (int(s / 2 + dx * a), int(s / 2 + dy * a)),
            int(pr),
            pip_col.tolist(),
            -1,
            lineType=cv2.LINE_AA,
        )
    # shading: a soft light gradient across the face
    gx = np.linspace(-1, 1, s, dtype=np.float32)
    shade = 1.0 + rng.uniform(-0.25, 0.25) * gx[None, :] + rng.uniform(-0.25, 0.25) * gx[:, None]
    img *= shade[..., None]
    img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA)
    return np.clip(img, 0, 255), mask.astype(np.float32) / 255.0


def paste_die(
    rng: np.random.Generator,
    canvas: np.ndarray,
    value: int,
    cx: float,
    cy: float,
    size: float,
    flat: float = 0.0,
) -> None:
    """Draw a rotated, slightly tilted die with a shadow or side face into canvas.

    With probability `flat` the die has neither (a clean top view). The shipped die finder
    was trained with flat=0, the face reader with flat=0.2.
    """
    isz = max(8, int(size))
    face, mask = draw_face(rng, value, isz)
    h, w = canvas.shape[:2]
    ang = rng.uniform(0, 360)
    m = cv2.getRotationMatrix2D((isz / 2, isz / 2), ang, 1.0)
    m[:, 2] += (cx - isz / 2, cy - isz / 2)
    tilt = np.float32(
        [
            [1 + rng.uniform(-0.12, 0.12), rng.uniform(-0.1, 0.1), 0],
            [rng.uniform(-0.1, 0.1), 1 + rng.uniform(-0.12, 0.12), 0],
        ]
    )
    m3 = np.vstack([m, [0, 0, 1]])
    t3 = np.vstack([tilt, [0, 0, 1]])
    c = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]], np.float32)
    ci = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], np.float32)
    mm = (c @ t3 @ ci @ m3)[:2]
    # shadow / side face: the die body slightly offset, darker (sometimes none at all)
    shaded = not flat or rng.random() < 1.0 - flat
    off = rng.uniform(0.05, 0.25) * size if shaded else 0.0
    oa = rng.uniform(0, 2 * np.pi)
    body = mm.copy()
    body[:, 2] += (off * math.cos(oa), off * math.sin(oa))
    bmask = cv2.warpAffine(mask, body, (w, h))
    dark = rng.uniform(0.25, 0.8)
    side_col = face[isz // 2, 2] * dark if rng.random() < 0.5 else canvas.mean(axis=(0, 1)) * 0.4
    canvas[:] = canvas * (1 - bmask[..., None]) + bmask[..., None] * side_col
    fw = cv2.warpAffine(face, mm, (w, h), borderMode=cv2.BORDER_REPLICATE)
    mw = cv2.warpAffine(mask, mm, (w, h))
    canvas[:] = canvas * (1 - mw[..., None]) + fw * mw[..., None]


def draw_table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A plain, wood-grain, felt or patterned table top."""
    kind = rng.integers(0, 4)
    base = rng.integers(0, 256, 3).astype(np.float32)
    if kind == 0:
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += rng.normal(0, rng.uniform(1, 8), (h, w, 1))
    elif kind == 1:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        noise = cv2.resize(rng.normal(0, 1, (h // 16 + 2, w // 16 + 2)).astype(np.float32), (w, h))
        f = rng.uniform(0.05, 0.4)
        grain = np.sin(u * f + noise * rng.uniform(2, 8)) + 0.5 * np.sin(u * f * 3.1 + noise * 5)
        img = base + grain[..., None] * rng.uniform(10, 50) * np.array([1.0, 0.8, 0.6], np.float32)
    elif kind == 2:
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        n = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
        img += n[..., None] * rng.uniform(5, 25)
    else:
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
    grad = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.2), w, dtype=np.float32)
    return np.clip(img * grad[None, :, None], 0, 255)


def photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Colour, light, blur, noise and JPEG changes, so no one camera or dice set is learned."""
    img = img.astype(np.float32)
    if rng.random() < 0.5:
        img = img[..., rng.permutation(3)]
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(
            np.int32
        )
        hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180
        img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.15:
        img = 255.0 - img
    img = img * rng.uniform(0.5, 1.4) + rng.uniform(-40, 40)
    mean = img.mean()
    img = (img - mean) * rng.uniform(0.6, 1.3) + mean
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3))
    img = img + rng.normal(0, rng.uniform(0, 6), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 95))])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


# ---------------------------------------------------------------- detector samples


def det_sample(rng: np.random.Generator, real, size: int = 256):
    """One training crop for the detector and its list of (cx, cy, side, value)."""
    if rng.random() < 0.7 and real:
        img, dice = real[rng.integers(len(real))]
        sides = [max(d["box"][2], d["box"][3]) for d in dice] or [40.0]
        target = rng.uniform(14, 56)
        s = target / float(np.median(sides))
        img = cv2.resize(
            img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
        )
        boxes = [
            (
                s * (d["box"][0] + d["box"][2] / 2),
                s * (d["box"][1] + d["box"][3] / 2),
                s * max(d["box"][2], d["box"][3]),
                d["value"],
            )
            for d in dice
        ]
        h, w = img.shape[:2]
        if h < size or w < size:
            pad = cv2.copyMakeBorder(
                img, 0, max(0, size - h), 0, max(0, size - w), cv2.BORDER_REFLECT
            )
            img = pad
            h, w = img.shape[:2]
        if boxes and rng.random() < 0.8:
            b = boxes[rng.integers(len(boxes))]
            x0 = int(np.clip(b[0] - rng.uniform(0.1, 0.9) * size, 0, w - size))
            y0 = int(np.clip(b[1] - rng.uniform(0.1, 0.9) * size, 0, h - size))
        else:
            x0, y0 = int(rng.integers(0, w - size + 1)), int(rng.integers(0, h - size + 1))
        canvas = img[y0 : y0 + size, x0 : x0 + size].astype(np.float32)
        objs = [(cx - x0, cy - y0, sd, v) for cx, cy, sd, v in boxes]
        n_syn = rng.integers(0, 4)
        target_side = target
    else:
        canvas = draw_table(rng, size, size)
        objs = []
        n_syn = rng.integers(0, 9)
        target_side = rng.uniform(14, 56)
    for _ in range(n_syn):
        sd = target_side * rng.uniform(0.85, 1.15)
        for _try in range(10):
            cx, cy = rng.uniform(0, size), rng.uniform(0, size)
            if all(math.hypot(cx - o[0], cy - o[1]) > 0.75 * (sd + o[2]) for o in objs):
                break
        else:
            continue
        if objs and rng.random() < 0.3:  # touching a neighbour
            o = objs[rng.integers(len(objs))]
            a = rng.uniform(0, 2 * np.pi)
            cx, cy = (
                o[0] + math.cos(a) * (sd + o[2]) * 0.55,
                o[1] + math.sin(a) * (sd + o[2]) * 0.55,
            )
            if any(math.hypot(cx - p[0], cy - p[1]) < 0.5 * (sd + p[2]) for p in objs):
                continue
        v = int(rng.integers(1, 7))
        paste_die(rng, canvas, v, cx, cy, sd)
        objs.append((cx, cy, sd, v))
    if rng.random() < 0.5:
        canvas = canvas[:, ::-1]
        objs = [(size - 1 - cx, cy, sd, v) for cx, cy, sd, v in objs]
    k = int(rng.integers(4))
    canvas = np.ascontiguousarray(np.rot90(canvas, k))
    for _ in range(k):
        objs = [(cy, size - 1 - cx, sd, v) for cx, cy, sd, v in objs]
    img = photometric(rng, canvas)
    return img, [
        o
        for o in objs
        if -0.3 * o[2] < o[0] < size + 0.3 * o[2] and -0.3 * o[2] < o[1] < size + 0.3 * o[2]
    ]


def det_targets(objs, size: int):
    g = size // DET_CELL
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for cx, cy, sd, _v in objs:
        gx, gy = cx / DET_CELL, cy / DET_CELL
        sigma = max(0.6, sd / DET_CELL / 6.0)
        heat = np.maximum(
            heat, np.exp(-((xx - gx + 0.5) ** 2 + (yy - gy + 0.5) ** 2) / (2 * sigma**2))
        )
        ix, iy = int(gx), int(gy)
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
            reg[:, iy, ix] = (gx - ix, gy - iy, math.log(sd / DET_SIZE_REF))
            mask[iy, ix] = 1.0
    return heat, reg, mask


def conv(cin, cout, stride=1, dil=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dil, dilation=dil, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DetNet(nn.Module):
    """Slim on purpose: about 55 million multiply-adds for a 256x256 input."""

    def __init__(self):
        super().__init__()
        self.s2 = conv(3, 12, 2)
        self.s4 = conv(12, 20, 2)
        self.s8 = nn.Sequential(
            conv(20, 32, 2), conv(32, 32), conv(32, 32, dil=2), conv(32, 32, dil=4)
        )
        self.lat = nn.Conv2d(20, 32, 1)
        self.head = nn.Sequential(nn.Conv2d(32, 32, 1), nn.ReLU(inplace=True), nn.Conv2d(32, 4, 1))

    def forward(self, x):
        a = self.s4(self.s2(x))
        b = self.s8(a)
        up = F.interpolate(b, scale_factor=2.0, mode="nearest")
        out = self.head(up + self.lat(a))
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)


class ClsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(
            conv(3, 24),
            conv(24, 24),
            nn.MaxPool2d(2),
            conv(24, 48),
            conv(48, 48),
            nn.MaxPool2d(2),
            conv(48, 64),
            conv(64, 64),
            nn.MaxPool2d(2),
            conv(64, 96),
        )
        self.fc = nn.Linear(96, 7)

    def forward(self, x):
        x = self.f(x)
        return self.fc(x.mean(dim=(2, 3)))


def to_tensor(imgs) -> torch.Tensor:
    a = np.stack(imgs).astype(np.float32) / 255.0 - 0.5
    return torch.from_numpy(a.transpose(0, 3, 1, 2).copy())


def focal(pred, gt):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pl = -torch.log(pred) * (1 - pred) ** 2 * pos
    nl = -torch.log(1 - pred) * pred**2 * (1 - gt) ** 4 * neg
    return (pl.sum() + nl.sum()) / pos.sum().clamp(min=1)


def train_det(
    real, steps: int, rng: np.random.Generator, batch: int = 10, size: int = 192, checkpoint=None
) -> DetNet:
    net = DetNet()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    for step in range(steps):
        imgs, heats, regs, masks = [], [], [], []
        for _ in range(batch):
            img, objs = det_sample(rng, real, size)
            h, r, m = det_targets(objs, img.shape[0])
            imgs.append(img)
            heats.append(h)
            regs.append(r)
            masks.append(m)
        x = to_tensor(imgs)
        out = net(x)
        heat = torch.from_numpy(np.stack(heats))[:, None]
        reg = torch.from_numpy(np.stack(regs))
        mask = torch.from_numpy(np.stack(masks))[:, None]
        lh = focal(out[:, :1], heat)
        lr = (torch.abs(out[:, 1:] - reg) * mask).sum() / mask.sum().clamp(min=1)
        loss = lh + lr
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if checkpoint and step and step % 250 == 0:
            checkpoint(net.eval())
            net.train()
        if step % 100 == 0:
            print(
                f"det step {step} loss {lh.item():.3f} + {lr.item():.3f}  {time.time() - t0:.0f}s",
                flush=True,
            )
    return net.eval()


def crop_die(img: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0) -> np.ndarray:
    """The classifier's view of a die: CROP x CROP pixels, CROP_SPAN sides wide (as at run time)."""
    scale = CROP / (CROP_SPAN * side)
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += (CROP / 2 - cx, CROP / 2 - cy)
    return cv2.warpAffine(
        img,
        m,
        (CROP, CROP),
        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def cls_sample(rng: np.random.Generator, real):
    """One classifier crop and its class (0 = not a die centre)."""
    neg = rng.random() < 0.25
    if rng.random() < 0.6 and real:
        img, dice = real[rng.integers(len(real))]
        if not dice:
            return cls_sample(rng, real)
        d = dice[rng.integers(len(dice))]
        side = float(max(d["box"][2], d["box"][3]))
        cx, cy = d["box"][0] + d["box"][2] / 2, d["box"][1] + d["box"][3] / 2
        value = d["value"]
    else:
        side = rng.uniform(20, 60)
        img = draw_table(rng, int(side * 3), int(side * 3))
        value = int(rng.integers(1, 7))
        cx = cy = side * 1.5
        paste_die(rng, img, value, cx, cy, side, flat=0.2)
        for _ in range(rng.integers(0, 3)):  # neighbours that may show at the crop's edge
            a = rng.uniform(0, 2 * np.pi)
            paste_die(
                rng,
                img,
                int(rng.integers(1, 7)),
                cx + math.cos(a) * side * 1.1,
                cy + math.sin(a) * side * 1.1,
                side,
                flat=0.2,
            )
        img = np.clip(img, 0, 255).astype(np.uint8)
    if neg and rng.random() < 0.3:
        img = draw_table(rng, int(side * 3), int(side * 3))
        cx = cy = side * 1.5
        col = rng.integers(0, 256, 3).tolist()
        rad = int(side * rng.uniform(0.15, 0.6))
        if rng.random() < 0.5:
            cv2.circle(img, (int(cx), int(cy)), rad, col, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(
                img, (int(cx - rad), int(cy - rad)), (int(cx + rad), int(cy + rad)), col, -1
            )
        img = np.clip(img, 0, 255).astype(np.uint8)
        value = 0
    elif neg:
        a = rng.uniform(0, 2 * np.pi)
        dist = rng.uniform(0.55, 1.5) * side
        cx, cy = cx + math.cos(a) * dist, cy + math.sin(a) * dist
        if rng.random() < 0.5:
            side *= rng.uniform(0.3, 0.6)
        value = 0
    else:
        cx += rng.normal(0, 0.06) * side
        cy += rng.normal(0, 0.06) * side
        side *= rng.uniform(0.85, 1.18)
    crop = crop_die(img, cx, cy, side, rng.uniform(0, 360))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    return photometric(rng, crop), value


def train_cls(
    real, steps: int, rng: np.random.Generator, batch: int = 48, checkpoint=None
) -> ClsNet:
    net = ClsNet()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    for step in range(steps):
        samples = [cls_sample(rng, real) for _ in range(batch)]
        x = to_tensor([s[0] for s in samples])
        y = torch.tensor([s[1] for s in samples])
        loss = F.cross_entropy(net(x), y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if checkpoint and step and step % 500 == 0:
            checkpoint(net.eval())
            net.train()
        if step % 100 == 0:
            print(f"cls step {step} loss {loss.item():.3f}  {time.time() - t0:.0f}s", flush=True)
    return net.eval()


def export(net: nn.Module, path: Path, shape: tuple[int, ...], dynamic: bool) -> None:
    x = torch.zeros(shape)
    axes = {"input": {2: "h", 3: "w"}} if dynamic else {"input": {0: "n"}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            net,
            x,
            str(path),
            input_names=["input"],
            output_names=["output"],
            dynamic_axes=axes,
            opset_version=13,
            dynamo=False,
        )
    print("wrote", path, path.stat().st_size // 1024, "KB")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", help="folder holding byler_d6/ and skovy_catan/")
    ap.add_argument("--det-steps", type=int, default=2500)
    ap.add_argument("--cls-steps", type=int, default=3500)
    ap.add_argument("--only", choices=["det", "cls"])
    ap.add_argument("--out", type=Path, default=MODELS, help="where to write the .onnx files")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    real = training_images(shared_dir(args.shared))
    print(len(real), "training photos")
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    config = {
        "crop": CROP,
        "crop_span": CROP_SPAN,
        "det_cell": DET_CELL,
        "det_size_ref": DET_SIZE_REF,
    }
    (out / "config.json").write_text(json.dumps(config) + "\n")
    if args.only in (None, "cls"):

        def save_cls(net: ClsNet) -> None:
            export(net, out / "dice_cls.onnx", (1, 3, CROP, CROP), dynamic=False)

        cls = train_cls(real, args.cls_steps, np.random.default_rng(1), checkpoint=save_cls)
        export(cls, out / "dice_cls.onnx", (1, 3, CROP, CROP), dynamic=False)
    if args.only in (None, "det"):

        def save(net: DetNet) -> None:
            export(net, out / "dice_det.onnx", (1, 3, 256, 256), dynamic=True)

        det = train_det(real, args.det_steps, np.random.default_rng(2), checkpoint=save)
        export(det, out / "dice_det.onnx", (1, 3, 256, 256), dynamic=True)


if __name__ == "__main__":
    main()
