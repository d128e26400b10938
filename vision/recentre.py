"""Where to read a die again when its face was read unsure: its crop moved onto its top.

Seen at a slant, a die shows its top face and one or two side faces with their own pips.
The finder marks a centre between the top face's and the whole die's (drawn cubes at 35
degrees: a sixth of a side towards the side faces at the median, up to two thirds), so
the face readers' crop, centred there, takes in a side face's pips, and they read the die
unsure or wrong; read at the top face's own centre, the misread dice of drawn rolls read
right at 0.91-0.98 (session 49). Which way the top lies is not known from the find, so a
die read unsure is read again with its crop moved `SHIFT` of its side each of `WAYS` ways,
and the reading of the way read most clearly is taken if it is clear (`CLEARLY`) and no
other way reads another value clearly (a top face one way, a side face the other). A way
towards another die of the roll (within `NEAR` sides, `CONE` of the way) is not read:
there the crop takes in that die's face (two dice touching in a dev photo: the crop moved
onto the one behind read its 4 clearly). The die's box stays where the finder put it
(moved, a die at a box's edge fell out of a labeller's box). A die that takes no way so,
with no other find near, is read again `FARTHER` out too, and the clearest of all its ways
taken on the same terms (its top may lie up to 0.7 of a side off the finder's centre).
Each way's crop is cut at the find's side and narrower (`SIDES`), and the reading of the
size read more clearly taken (`clearest`): the finder's side takes in the side faces, whose
pips a crop on the top face's own centre still holds at that size.
A roll's dice share the camera's slant, so their tops lie the same way from the finder's
centres: where `ROLL_LEAST` dice of the roll took ways that agree, near or far out
(`roll_way`, by direction), a die no
way read clearly takes the roll's way if it reads the die more surely there, at `ROLL_SURE`
at least (`on_roll_way`).
The arithmetic lives here, without networks or images; `roll.RollLooks.recentred` cuts the
crops (only for the open ways) and reads them.
"""

from __future__ import annotations

import numpy as np

from .finds import readings

# A die read under this confidence is read again: under what the readers' first look takes
# as it is (`model.glance`'s `sure`). Up to 0.9 read the same drawn rolls at 35 degrees alike
# (78 of 96), for more crops.
BELOW = 0.8
# How far the crop is moved, in die sides: the finder's centre lies a sixth of a side from a
# 35-degree die's top face's centre at the median, a misread die's 0.2-0.65; crops moved
# half a side as well read the same drawn rolls alike (78 of 96)
SHIFT = 0.3
# Farther, for a die no way `SHIFT` off reads clearly and no other find lies near (no way
# closed): the dice drawn at 35 degrees still misread after it lay 0.55-0.7 of a side from
# their tops (another draw: 6 of 14 read right after it, none of the rest nor a die of the
# dev photos changed; session 51). Those ways are read with the near ones, and the
# clearest of all taken, as long as no other reads another value clearly. A die with
# another find near may lie in a pile, beside a die the finder missed, whose face a crop
# moved so far reads clearly (three dice of the held-out tray's stress runs, read wrong
# before this rule: no reading of a way a step nearer, nor its value's, told them apart)
FARTHER = (0.5, 0.7)
WAYS = 8
# Each way's crop is cut at these shares of the find's side (a narrower crop shows the
# readers the die larger, its side faces outside), and the clearest reading taken
# (`clearest`): seen at a slant, the finder's side takes in the side faces. Of 25 dice the
# drawn rolls at 35 degrees misread, cut on their top face's own centre 24 read right at
# the find's side (10 clearly), all 25 at 0.85 of it (13 clearly). With 0.8 as well,
# drawn rolls read 278 -> 280, 273 -> 274, 267 -> 269 and 272 -> 274 of 288 (seeds 0 and
# 2-4), the dev photos as before, the batteries 7 runs better and 3 worse (session 59);
# 0.7 in its place read seed 2's 35-degree rolls 83 of 96 (85 with 0.8, 84 before)
SIDES = (1.0, 0.8)
# A way is closed where another find's centre lies within NEAR sides (the bigger of the
# two) and within 60 degrees of it (the cosine CONE)
NEAR = 2.0
CONE = 0.5
# A way's reading is taken at this confidence (the reader's "clearly", as for a die the
# look at twice the scale adds)
CLEARLY = 0.9
# Where this many dice of a roll took ways that agree (their unit vectors' sum at least
# ROLL_AGREE of their count: two dice's ways a quarter turn apart at most), the roll's way is
# taken for another die read unsure if it reads it more surely there, at ROLL_SURE at
# least (drawn rolls at 35 degrees, another draw: 78 to 81 of 96; no die of the dev
# photos is read by it)
ROLL_LEAST = 2
ROLL_AGREE = 0.7
ROLL_SURE = 0.6


def unit_ways(ways: int = WAYS) -> np.ndarray:
    """(ways, 2) unit vectors, the first to the right (+x), turning towards +y."""
    angles = 2.0 * np.pi * np.arange(ways) / ways
    return np.column_stack([np.cos(angles), np.sin(angles)])


def moved(
    found: np.ndarray, which: np.ndarray, ways: int = WAYS, *, shift: float = SHIFT
) -> np.ndarray:
    """The finds `which` (indices into finds x, y, side, score), each moved `shift` of its
    side each way: (len(which) * ways, 4), a find's ways one after another."""
    rows = found[which].astype(np.float64)
    step = unit_ways(ways)[None, :, :] * (shift * rows[:, None, 2:3])  # (n, ways, 2)
    out = np.repeat(rows[:, None, :], ways, axis=1)
    out[:, :, :2] += step
    return out.reshape(-1, 4).astype(np.float32)


def narrowed(found: np.ndarray, share: float) -> np.ndarray:
    """The finds (x, y, side, score) with their sides cut to `share`, centres kept."""
    out = np.array(found, np.float32, copy=True)
    out[:, 2] *= share
    return out


def clearest(probs: np.ndarray, *, dieness: float) -> np.ndarray:
    """For crops each read at several sizes (sizes, crops, 7), the reading of the size read
    most clearly where the readers take it for a die (at least `dieness`): (crops, 7). A
    tie, or no size a die, keeps the first size's (the find's own side)."""
    _, confidence = readings(probs.reshape(-1, 7))
    confidence = confidence.reshape(probs.shape[:2])
    confidence = np.where(1.0 - probs[..., 0] < dieness, -1.0, confidence)
    best = np.argmax(confidence, axis=0)  # (the first of equals)
    return probs[best, np.arange(probs.shape[1])]


def closed_ways(found: np.ndarray, which: np.ndarray, ways: int = WAYS) -> np.ndarray:
    """(len(which), ways): whether each way of each find `which` points at another find
    (within `NEAR` sides of it, within 60 degrees of the way)."""
    unit = unit_ways(ways)
    closed = np.zeros((len(which), ways), bool)
    for row, i in enumerate(np.asarray(which).tolist()):
        off = found[:, :2].astype(np.float64) - found[i, :2]
        dist = np.hypot(off[:, 0], off[:, 1])
        others = (dist > 0) & (dist < NEAR * np.maximum(found[i, 2], found[:, 2]))  # (not i)
        if others.any():
            towards = unit @ (off[others] / dist[others, None]).T  # (ways, others)
            closed[row] = (towards > CONE).any(axis=1)
    return closed


def best_way(probs: np.ndarray, closed: np.ndarray, *, dieness: float) -> int:
    """The way whose reading to take for one die, given the readers' scores of its moved
    crops (ways, 7) and its `closed` ways: the open way read most clearly where the
    readers take it for a die (at least `dieness`), if at least `CLEARLY` and no open way
    reads another value that clearly (a way they doubt is a die too: a 2 read at 0.91
    there, one way, and a 4 at 0.93 the other was the 2); else -1."""
    values, confidence = readings(probs)
    confidence = np.where(closed, 0.0, confidence)
    clear = confidence >= CLEARLY
    if not clear.any() or len(set(values[clear].tolist())) > 1:
        return -1
    confidence = np.where(1.0 - probs[:, 0] < dieness, 0.0, confidence)
    way = int(np.argmax(confidence))
    return way if confidence[way] >= CLEARLY else -1


def roll_way(taken: list[int], ways: int = WAYS) -> int:
    """The way the roll's dice took (`best_way` of each die that took one), if at least
    `ROLL_LEAST` took ways and they agree; else -1."""
    if len(taken) < ROLL_LEAST:
        return -1
    unit = unit_ways(ways)
    pull = unit[taken].sum(axis=0)
    if float(np.hypot(*pull)) < ROLL_AGREE * len(taken):
        return -1
    return int(np.argmax(unit @ pull))


def on_roll_way(
    probs: np.ndarray, closed: np.ndarray, way: int, now: np.ndarray, *, dieness: float
) -> bool:
    """Whether a die that no way read clearly takes the roll's `way`: open, a die to the
    readers there (`dieness`), and read at `ROLL_SURE` at least and more surely than `now`
    (its scores as read)."""
    if way < 0 or closed[way] or 1.0 - float(probs[way, 0]) < dieness:
        return False
    there = float(readings(probs[way : way + 1])[1][0])
    return there >= ROLL_SURE and there > float(readings(now[None])[1][0])
