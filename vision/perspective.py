"""How big a die should look at each place in a photo taken at a slant.

Seen from straight above, the dice of one roll are about the same size in the photo, so the
reader compares each find with the roll's typical (median) die. A phone held at a slant sees
the near dice several times bigger than the far ones, and against the median the nearest
dice look like giants (a box corner, a chair foot) and the farthest like specks. For points
on a flat table, one over the depth is an affine function of the image position, and a
die's side in the photo goes with one over its depth; so the sides of a roll's dice fit a
plane `side = a + b x + c y`, which tells how big a die should be anywhere on the table.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np

# Fewer dice than this cannot tell a slant from dice that differ in size by chance.
MIN_DICE = 4
# A fit whose dice differ less than this from the nearest to the farthest is a photo from
# above (sizes in one photo differ by 10-20% by the finder's misjudging alone).
MIN_SLANT = 1.3
# How far past the dice it was fitted on the plane is believed: a die beyond the roll may
# be at most this much bigger or smaller than the fit's own extremes.
REACH = 1.5
# A find whose side is off the plane by more than this factor is left out of the next fit:
# the finder misjudges a die's side by 10-30%, while a pip or a speck is off by 2-4 times.
FIT_TOLERANCE = 1.35


@dataclass(frozen=True)
class SizePlane:
    """The die side the plane expects at each image position, in image pixels."""

    coef: tuple[float, float, float]  # side = a + b x + c y
    low: float  # the least and most side believed (`REACH` past the fitted dice)
    high: float

    def at(self, xy: np.ndarray) -> np.ndarray:
        """Expected sides for rows of (x, y)."""
        a, b, c = self.coef
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        return np.clip(a + b * xy[:, 0] + c * xy[:, 1], self.low, self.high)


Row = tuple[float, float, float]  # x, y, side


def fit_sizes(
    found: np.ndarray, *, band: tuple[float, float] = (0.6, 2.0), sure: np.ndarray | None = None
) -> SizePlane | None:
    """The plane of die sides through finds (x, y, side, ...) of one roll, or None where the
    photo is not at a slant: fewer than `MIN_DICE` dice, dice not spread across the table
    (in a line, the slope across it is unknown), or fitted sizes that differ by less than
    `MIN_SLANT`.

    With `sure` (a mask) marking at least `MIN_DICE` finds, those alone are fitted on, all
    of them at first: dice read surely, as a speck, a pip or a box corner seldom is. At a
    steep slant the near dice are over twice the median die, so a first fit on the finds
    near the median would leave them out and, through the far dice (whose size the finder
    overstates most), come out too steep. Otherwise the first fit takes the finds within
    `band` of the median side. Then, up to three times, it is fitted again on the finds
    within `FIT_TOLERANCE` of the last fit. (Plain Python: a roll has tens of finds, for
    which each NumPy call costs more than the arithmetic.)"""
    if len(found) < MIN_DICE:
        return None
    surely = sure is not None and int(np.count_nonzero(sure)) >= MIN_DICE
    rows: list[Row] = [tuple(r) for r in (found[sure] if surely else found)[:, :3].tolist()]
    middle = statistics.median(side for _, _, side in rows)
    if middle <= 0:
        return None
    use = rows if surely else [r for r in rows if band[0] <= r[2] / middle <= band[1]]
    expected: list[float] = []
    coef = (middle, 0.0, 0.0)
    for _ in range(4):
        if len(use) < MIN_DICE:
            return None
        fitted = _plane(use)
        if fitted is None:
            return None
        coef = fitted
        a, b, c = coef
        expected = [a + b * x + c * y for x, y, _ in rows]
        again = [
            r
            for r, e in zip(rows, expected, strict=True)
            if e > 0 and 1 / FIT_TOLERANCE <= r[2] / e <= FIT_TOLERANCE
        ]
        if again == use:
            break
        use = again
    # the slant is judged over the finds the plane fits (fitted on a cluster of dice at one
    # side, it cannot tell much of the table beyond), and the plane believed `REACH` past
    # the finds within `band` of it
    fits = [
        (e, 1 / FIT_TOLERANCE <= r[2] / e <= FIT_TOLERANCE)
        for r, e in zip(rows, expected, strict=True)
        if e > 0 and band[0] <= r[2] / e <= band[1]
    ]
    support = [e for e, close in fits if close]
    if len(support) < MIN_DICE or max(support) / min(support) < MIN_SLANT:
        return None
    reach = [e for e, _ in fits]
    return SizePlane(coef, min(reach) / REACH, max(reach) * REACH)


def _plane(rows: list[Row]) -> tuple[float, float, float] | None:
    """Least squares `side = a + b x + c y` through rows (x, y, side), solved in closed form
    about their mean; None for points that spread across less than their median side
    (the least standard deviation of their positions, over all directions): a row of
    dice, along which the size may change, tells nothing of the slope across it."""
    n = len(rows)
    mx = sum(r[0] for r in rows) / n
    my = sum(r[1] for r in rows) / n
    mv = sum(r[2] for r in rows) / n
    sxx = syy = sxy = sxv = syv = 0.0
    for x, y, v in rows:
        dx, dy, dv = x - mx, y - my, v - mv
        sxx += dx * dx
        syy += dy * dy
        sxy += dx * dy
        sxv += dx * dv
        syv += dy * dv
    det = sxx * syy - sxy * sxy
    half_trace = (sxx + syy) / 2
    least = half_trace - math.sqrt(max(half_trace**2 - det, 0.0))  # (n times the variance)
    if least < n * statistics.median(r[2] for r in rows) ** 2 or det <= 0:
        return None
    b = (syy * sxv - sxy * syv) / det
    c = (sxx * syv - sxy * sxv) / det
    return mv - b * mx - c * my, b, c


def relative_sides(found: np.ndarray, plane: SizePlane | None) -> np.ndarray:
    """Each find's side over the side expected at its place: the plane's where the photo is
    at a slant, else the roll's median."""
    sides = found[:, 2].astype(np.float64)
    if plane is None:
        return sides / max(float(np.median(sides)), 1e-6)
    return sides / plane.at(found[:, :2])
