"""Finds (x, y, side, score) and the face readers' scores for them (not-a-die, 1-6): the
array arithmetic every look of the reader shares, with no network and no image in it, so
each rule (what counts as a die, as read surely, as the same die found twice, as the size of
the roll's dice) lives once.
"""

from __future__ import annotations

import numpy as np

from .perspective import fit_sizes, relative_sides


def dedupe(found: np.ndarray, rank: np.ndarray, *, overlap: float = 0.5) -> np.ndarray:
    """Indices of finds to keep: best `rank` first, dropping any find closer than `overlap`
    die sides to one already kept. Touching dice seen from above are a full side apart, but
    seen at a slant the near one hides part of the far one, and their centres come closer;
    one die found twice is found within a quarter side."""
    kept: list[int] = []
    for i in np.argsort(-rank, kind="stable"):
        x, y, s = found[i, :3]
        if all(
            (x - found[j, 0]) ** 2 + (y - found[j, 1]) ** 2 > (overlap * max(s, found[j, 2])) ** 2
            for j in kept
        ):
            kept.append(int(i))
    return np.array(kept, dtype=np.intp)


def count_once(found: np.ndarray, which: np.ndarray) -> int:
    """How many of the finds `which` marks there are, a die found twice counted once."""
    return len(dedupe(found[which], found[which, 3]))


def same_finds(
    found: np.ndarray, before: np.ndarray, *, off: float = 0.2, size: float = 1.25
) -> np.ndarray:
    """For each find, the index of the find in `before` at about the same centre (`off`
    sides) and size (within a factor `size`), or -1."""
    if not len(before) or not len(found):
        return np.full(len(found), -1, np.intp)
    dx = before[None, :, 0] - found[:, None, 0]
    dy = before[None, :, 1] - found[:, None, 1]
    d2 = dx**2 + dy**2  # (finds, before)
    nearest = np.argmin(d2, axis=1)
    side = found[:, 2]
    ratio = before[nearest, 2] / side
    near = d2[np.arange(len(found)), nearest] <= (off * side) ** 2
    return np.where(near & (1 / size <= ratio) & (ratio <= size), nearest, -1).astype(np.intp)


def readings(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each find's value (1-6) and its confidence: the value's probability given that the
    find is a die, scaled down when the readers doubt it is a die at all."""
    dieness = np.maximum(1.0 - probs[:, 0], 1e-6)
    values = np.argmax(probs[:, 1:], axis=1) + 1
    confidence = probs[np.arange(len(probs)), values] / dieness * np.minimum(1.0, dieness / 0.5)
    return values.astype(int), np.clip(confidence, 0.0, 1.0).astype(float)


def maybe_dice(probs: np.ndarray) -> np.ndarray:
    """Finds the readers give even odds or better of being a die: as telling as confirmed
    ones where a pile of dice or a die's pieces are counted."""
    return 1.0 - probs[:, 0] >= 0.5


def surely_read(probs: np.ndarray) -> np.ndarray:
    """Finds read with a confidence of at least 0.5 (the player is not asked about them)."""
    return readings(probs)[1] >= 0.5


def confirmed_dice(
    scores: np.ndarray, probs: np.ndarray, min_dieness: float, min_sure_score: float
) -> np.ndarray:
    """Which finds count as dice: the readers give "a die" at least `min_dieness`, and
    either the finder is sure (score >= `min_sure_score`) or the readers can read the face
    (confidence >= 0.5). A find only the finder doubts and the readers cannot read is a
    chair foot, a box corner or a blot, unless the roll's dice vouch for it (`same_set`,
    applied to the roll as reported); one the finder is sure of is kept unread (a logo;
    `read` reports it only past `not_lookalike`, or as a die of the roll's set)."""
    _, confidence = readings(probs)
    sure_find = (scores >= min_sure_score) | (confidence >= 0.5)
    return (1.0 - probs[:, 0] >= min_dieness) & sure_find


def not_lookalike(probs: np.ndarray, min_unread_dieness: float) -> np.ndarray:
    """Which finds to report: a die whose face is read (confidence 0.5), or one the readers
    are all but sure is a die (`min_unread_dieness`: a logo die reads over 0.92). A grey
    button or a token the finder is sure of, which readers trained on reflections half
    believe a die, is not worth asking the player about. Applied to the roll as reported
    only, never to the looks that lead to it: there an unsure find still earns a closer
    look, which may read it surely (dice of 10 px in a 12 MP photo, close-ups)."""
    _, confidence = readings(probs)
    return (confidence >= 0.5) | (1.0 - probs[:, 0] >= min_unread_dieness)


def centre_inside(big: np.ndarray, small: np.ndarray) -> np.ndarray:
    """(len(big), len(small)): small find j's centre lies in big find i's box."""
    dx = np.abs(small[None, :, 0] - big[:, None, 0])
    dy = np.abs(small[None, :, 1] - big[:, None, 1])
    half = big[:, None, 2] / 2
    return (dx < half) & (dy < half)


def distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)): how far apart find i of `a` and find j of `b` are, centre to
    centre."""
    return np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])


def near_pairs(a: np.ndarray, b: np.ndarray, *, overlap: float) -> np.ndarray:
    """(len(a), len(b)): finds closer than `overlap` times the bigger one's side."""
    d2 = (a[:, None, 0] - b[None, :, 0]) ** 2 + (a[:, None, 1] - b[None, :, 1]) ** 2
    return d2 < (overlap * np.maximum(a[:, None, 2], b[None, :, 2])) ** 2


def roll_sized(
    found: np.ndarray, low: float, high: float, *, sure: np.ndarray | None = None
) -> np.ndarray:
    """Finds (x, y, side, ...) the size of the roll's dice: dice of one roll are about the
    same size, so a find much smaller than the typical (median) one is a speck, a screw
    head or a pip, and one twice its size is a box corner or a chair foot. Among three
    finds or more, a big find is also held to twice the median of the *other* finds:
    with two dice and a box corner, the median of all three is the bigger die, and the
    corner (1.9 times it, 2.1 times the dice's mean in a `skovy_catan` photo) passed.
    In a photo taken at a slant (`perspective.fit_sizes`, on the finds `sure` marks) a find the size
    the roll's dice give at its place is kept too: the near dice are bigger, the far ones
    smaller. The slant only keeps finds, never drops one the median keeps: fitted on a
    few dice, it is unsure far from them (a tilted `byler_d6` photo, its surely read dice
    all at the far side, lost its near die to it)."""
    relative = found[:, 2] / typical_sides(found)
    keep = (relative >= low) & (relative <= high)
    if keep.all():  # (as a roll mostly is: no slant can keep more)
        return keep
    plane = fit_sizes(found, band=(low, high), sure=sure)
    if plane is not None:
        relative = relative_sides(found, plane)
        keep |= (relative >= low) & (relative <= high)
    return keep


def clear_dice(probs: np.ndarray, *, clearly: float, dieness: float) -> np.ndarray:
    """Finds read clearly (confidence `clearly`) that the readers are all but sure are dice
    (`dieness`): a die whose reading a rule may trust beyond the finder's."""
    _, confidence = readings(probs)
    return np.asarray((confidence >= clearly) & (1.0 - probs[:, 0] >= dieness))


def clear_and_apart(
    found: np.ndarray, probs: np.ndarray, *, clearly: float, dieness: float
) -> np.ndarray:
    """Finds that no size rule should drop on their size alone: a face read clearly
    (confidence `clearly`), the readers all but sure it is a die (`dieness`), neither
    holding another find's centre nor inside another find. Told nothing of a slant, the
    size rules cannot tell a near die from a box corner, nor a far one from a speck, but a
    box corner or a speck is not read clearly; a die's pip or a window of its face (read
    clearly as a 1, 2 or 3) lies inside that die, and a pile of dice seen as one holds
    them (`dedupe` drops most such finds first: this catches those in a corner). A 1 asks
    more (`roll.RollLooks.sized`): a cloth's cartoon eyes read clearly as 1s at any size."""
    clear = clear_dice(probs, clearly=clearly, dieness=dieness)
    inside = centre_inside(found, found)
    np.fill_diagonal(inside, False)
    return clear & ~inside.any(axis=0) & ~inside.any(axis=1)


def typical_sides(found: np.ndarray) -> np.ndarray:
    """The roll's typical side that each find (x, y, side, ...) is held to where no slant
    is fitted: the median side of all the finds, or among three finds or more the median
    of the *other* finds where that is less, which a big find cannot drag up (for the
    finds from the middle up; a small find's others have the higher median)."""
    sides = found[:, 2].astype(np.float64)
    typical = np.full(len(sides), float(np.median(sides)))
    if len(sides) >= 3:
        typical = np.minimum(typical, median_of_others(sides))
    return np.maximum(typical, 1e-6)


def median_of_others(values: np.ndarray) -> np.ndarray:
    """Each value's median of all the other values (at least two values): the middle
    of the sorted values, or the mean of the middle two, shifted by where the value left
    out sits."""
    n = len(values)
    order = np.argsort(values, kind="stable")
    ranked = values[order].astype(np.float64)
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n)
    mid = n // 2
    if n % 2 == 0:  # the others are odd in number: one middle value
        return np.where(rank < mid, ranked[mid], ranked[mid - 1])
    low, high = (ranked[mid - 1] + ranked[mid]) / 2, (ranked[mid] + ranked[mid + 1]) / 2
    return np.where(
        rank < mid, high, np.where(rank > mid, low, (ranked[mid - 1] + ranked[mid + 1]) / 2)
    )
