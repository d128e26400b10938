"""Pip candidates: small round spots that differ from a uniform ring around them.

A pip is a disc of one colour on a face of another, so at the pip's own scale the mean colour
of a disc differs from the mean colour of the ring around it, and that ring is uniform (it is
the face). Edges, corners, wood grain and print differ from their ring too, but their ring is
not uniform. Working on colour vectors rather than grey levels finds yellow pips on red dice
as well as black pips on white ones.
"""

from __future__ import annotations

import cv2
import numpy as np

_ANGLES = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)

# Columns of the candidate array returned by find_pips.
X, Y, R, CONTRAST, SCORE = range(5)


def _ring_samples(image: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                  radius: np.ndarray | float) -> np.ndarray:
    """Colours at 16 points on a circle around each (x, y): shape (n, 16, channels)."""
    h, w = image.shape[:2]
    rad = np.asarray(radius, dtype=np.float32).reshape(-1, 1)
    px = np.clip(np.rint(xs[:, None] + rad * _COS), 0, w - 1).astype(np.intp)
    py = np.clip(np.rint(ys[:, None] + rad * _SIN), 0, h - 1).astype(np.intp)
    return image[py, px]


def find_pips(image: np.ndarray, *, radii: tuple[int, ...] = (2, 3, 4, 5, 7, 9),
              min_contrast: float = 10.0, min_score: float = 1.6) -> np.ndarray:
    """Pip candidates in a BGR image as rows (x, y, r, contrast, score).

    `contrast` is the colour distance between the spot and its ring, `score` that contrast
    over the ring's own spread plus a small floor: a real pip scores high, an edge or streak low.
    Candidates overlapping a better one (at any scale) are dropped.
    """
    f = image.astype(np.float32)
    h, w = f.shape[:2]
    found = []
    for r in radii:
        k1, k2 = 2 * r + 1, 4 * r + 1
        inner = cv2.boxFilter(f, -1, (k1, k1))
        outer = cv2.boxFilter(f, -1, (k2, k2))
        ring = (outer * (k2 * k2) - inner * (k1 * k1)) / (k2 * k2 - k1 * k1)
        diff = inner - ring
        mag = np.sqrt((diff * diff).sum(axis=2))
        peak = cv2.dilate(mag, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k1, k1)))
        ys, xs = np.nonzero((mag >= peak) & (mag > min_contrast))
        if len(xs) == 0:
            continue
        samples = _ring_samples(f, xs, ys, 1.9 * r)
        ring_mean = samples.mean(axis=1)
        spread = np.sqrt(((samples - ring_mean[:, None, :]) ** 2).sum(axis=2).mean(axis=1))
        centre = cv2.GaussianBlur(f, (0, 0), max(0.5, r / 2.0))[ys, xs] if r > 2 else f[ys, xs]
        contrast = np.sqrt(((centre - ring_mean) ** 2).sum(axis=1))
        score = contrast / (spread + 6.0)
        keep = (score > min_score) & (contrast > min_contrast)
        n = int(keep.sum())
        if n:
            found.append(np.column_stack([xs[keep], ys[keep], np.full(n, r), contrast[keep],
                                          score[keep]]).astype(np.float32))
    if not found:
        return np.zeros((0, 5), np.float32)
    cand = np.concatenate(found)
    return _suppress(cand, w, h)


def _suppress(cand: np.ndarray, w: int, h: int) -> np.ndarray:
    """Keep the best-scoring candidate among those that overlap, across scales."""
    order = np.argsort(-(cand[:, SCORE] * np.sqrt(cand[:, CONTRAST])), kind="stable")
    cand = cand[order]
    cell = 16
    grid: dict[tuple[int, int], list[int]] = {}
    kept: list[int] = []
    for i, (x, y, r) in enumerate(cand[:, :3].tolist()):
        gx, gy = int(x) // cell, int(y) // cell
        ok = True
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((gx + dx, gy + dy), ()):
                    xj, yj, rj = cand[j, 0], cand[j, 1], cand[j, 2]
                    lim = 1.1 * max(r, rj)
                    if (xj - x) ** 2 + (yj - y) ** 2 < lim * lim:
                        ok = False
                        break
                if not ok:
                    break
            if not ok:
                break
        if ok:
            kept.append(i)
            grid.setdefault((gx, gy), []).append(i)
    return cand[kept]
