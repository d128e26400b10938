"""From pip candidates to dice: grouping pips into faces and checking their layout.

Pips of one face share a face colour, and the straight path between two neighbouring pips
stays on that face; between pips of two touching dice the path crosses the dice's edges.
The groups are then checked against the six legal layouts (a rotation- and scale-free
comparison of pairwise distances) and each die is verified as a face bounded by an edge.
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from .pips import CONTRAST, R, SCORE, X, Y, _ring_samples

LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], float),
    2: np.array([[-1, -1], [1, 1]], float),
    3: np.array([[-1, -1], [0, 0], [1, 1]], float),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], float),
    5: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1], [0, 0]], float),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], float),
}


def _signature(points: np.ndarray) -> np.ndarray:
    d = [math.dist(p, q) for p, q in itertools.combinations(points.tolist(), 2)]
    d = np.sort(np.array(d))
    return d / d[-1]


_SIGNATURES = {n: _signature(p) for n, p in LAYOUTS.items() if n > 1}
# Face side over the longest pip-to-pip distance (corner pips at about +-0.27 of the side).
SIDE_PER_SPAN = 1.30


def layout_error(points: np.ndarray) -> float:
    """How far pip centres are from the legal layout with that many pips (0 = perfect)."""
    n = len(points)
    if n <= 2:
        return 0.0
    if n > 6:
        return 1.0
    return float(np.abs(_signature(points) - _SIGNATURES[n]).max())


def _segment_clear(f: np.ndarray, pips: np.ndarray, i: int, j: int, face: np.ndarray,
                   tol: float) -> bool:
    """True when the path between pips i and j stays on a face of colour `face`."""
    xi, yi, ri = pips[i, X], pips[i, Y], pips[i, R]
    xj, yj, rj = pips[j, X], pips[j, Y], pips[j, R]
    d = math.hypot(xj - xi, yj - yi)
    t0, t1 = (1.6 * ri) / d, 1.0 - (1.6 * rj) / d
    if t1 <= t0:
        return True
    ts = np.linspace(t0, t1, max(3, int((t1 - t0) * d / 1.5)))
    px = xi + ts * (xj - xi)
    py = yi + ts * (yj - yi)
    others = np.ones(len(ts), bool)
    near = np.nonzero((np.abs(pips[:, X] - (xi + xj) / 2) < d) & (np.abs(pips[:, Y] - (yi + yj) / 2) < d))[0]
    for k in near:
        if k in (i, j):
            continue
        others &= (px - pips[k, X]) ** 2 + (py - pips[k, Y]) ** 2 > (1.6 * pips[k, R]) ** 2
    if not others.any():
        return True
    h, w = f.shape[:2]
    cols = f[np.clip(np.rint(py[others]), 0, h - 1).astype(int), np.clip(np.rint(px[others]), 0, w - 1).astype(int)]
    dev = np.sqrt(((cols - face) ** 2).sum(axis=1))
    return float(np.percentile(dev, 90)) < tol


def group_pips(f: np.ndarray, pips: np.ndarray, *, max_span: float = 5.5,
               same_face: float = 0.45) -> list[list[int]]:
    """Partition pips into faces: linked when close, alike and joined by clear face."""
    n = len(pips)
    if n == 0:
        return []
    ring = _ring_samples(f, pips[:, X], pips[:, Y], 1.9 * pips[:, R]).mean(axis=1)
    centre = f[pips[:, Y].astype(int), pips[:, X].astype(int)]
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    xy = pips[:, :2]
    for i in range(n):
        d = np.hypot(xy[:, 0] - xy[i, 0], xy[:, 1] - xy[i, 1])
        for j in np.nonzero((d > 0) & (np.arange(n) > i))[0]:
            rmax = max(pips[i, R], pips[j, R])
            rmin = min(pips[i, R], pips[j, R])
            if d[j] > max_span * 2 * rmax or rmax > 2.0 * rmin + 1:
                continue
            con = min(pips[i, CONTRAST], pips[j, CONTRAST])
            if np.linalg.norm(ring[i] - ring[j]) > same_face * con + 8:
                continue
            if np.linalg.norm(centre[i] - centre[j]) > 0.8 * con + 10:
                continue
            face = (ring[i] + ring[j]) / 2
            if _segment_clear(f, pips, i, j, face, tol=same_face * con + 10):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())
