"""A close-up's pips, or a pile of dice seen as one: the tests that tell them apart.

Seen too close, a die's pips look like little dice to the finder; seen too far, a pile of
little dice looks like one die. The reader (`read`) looks at other scales when a roll
could be either, and these pure functions over finds and the readers' scores decide
which it is: a die showing v holds v pips, so a "die" holding more finds, or finds too
small or too many to be its pips, is a pile.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .finds import centre_inside, dedupe, maybe_dice, readings, surely_read


def look_like_pips(values: np.ndarray, confidences: np.ndarray) -> bool:
    """Whether a roll's dice may be the pips of bigger dice (a close-up): a pip taken for a
    die reads as a 1, or unsure. Two finds in three so (or the only find): in real rolls one
    die alone showing 1, or two 1s among three dice (7%), fewer among more. It costs only
    looks at coarser scales (a read about a third slower), which must then find readable
    bigger dice that hold the finds, and, where they do, a look for a `crowd` in them
    (a quarter more for a close-up in a 1080p frame); a close-up often has just one pip
    confirmed."""
    doubtful = (values == 1) | (confidences < 0.5)
    return bool(len(values)) and float(doubtful.mean()) >= 2 / 3


# A find for a pip is no smaller than this many times less than its die's side (`holds`)
PIP_SIDES = 12.0

# A find under this share of a die's side holds no two whole pips of it (`crowd`): the
# readers see 1.3 finds wide (`CROP_SPAN`), under a third of the side, and two pips take
# their spacing (a quarter of the side or more) and a pip's width (0.12-0.2) besides
PIP_WINDOW = 0.25


def holds(
    big: np.ndarray, small: np.ndarray, *, ratio: float = 2.5, max_ratio: float = PIP_SIDES
) -> np.ndarray:
    """(len(big), len(small)): small find j lies inside big find i, and i is `ratio` to
    `max_ratio` times its size (a pip is under a fifth of its die's side, and a find for
    a pip is no smaller than a twelfth: a die many times bigger than the finds is a pile
    of dice seen as one)."""
    size = big[:, None, 2] / np.maximum(small[None, :, 2], 1e-6)
    return centre_inside(big, small) & (size >= ratio) & (size <= max_ratio)


def explains(
    found: np.ndarray,
    probs: np.ndarray,
    pips: np.ndarray,
    confirmed: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> bool:
    """Whether readable dice among `found` hold at least half of `pips`, each holding no
    more of them than its value plus one (a pip found twice, an edge): a die showing v has v
    pips, and one holding more finds is a pile of dice seen as one big die from far away."""
    values, confidences = readings(probs)
    inside = holds(found, pips)
    sure = confirmed(found, probs) & (confidences >= 0.5) & (inside.sum(axis=1) <= values + 1)
    return bool(len(pips)) and float(inside[sure].any(axis=0).mean()) >= 0.5


def stands(
    found: np.ndarray,
    probs: np.ndarray,
    pips: np.ndarray,
    confirmed: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> bool:
    """Whether a second look at the bigger dice's own size bears them out: it reads some
    die, and under half of the finds there that the readers give even odds of being a die
    hold more of `pips` than their value plus one (a pile of dice that passed for one big
    die from far away; a piece of the pile the readers half doubt is as telling as a
    confirmed one). Until session 44 one such find was enough, and a close-up of five dice
    whose one die, seen at a slant, held its side face's pips too was read as its pips."""
    values, confidences = readings(probs)
    sure = confirmed(found, probs)
    maybe = maybe_dice(probs)
    piles = maybe & (holds(found, pips).sum(axis=1) > values + 1)
    read = bool((sure & (confidences >= 0.5)).any())
    return read and 2 * int(piles.sum()) < max(1, int(maybe.sum()))


def crowd(
    big: np.ndarray,
    big_probs: np.ndarray,
    small: np.ndarray,
    small_probs: np.ndarray,
    confirmed: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> bool:
    """Whether the dice among `big` are crowds of the dice among `small` (found at a finer
    look) seen as one, not dice and their pips: one holds more of them (each counted once)
    than its value plus one (a die showing v has v pips, one maybe found twice), or holds
    one read surely that is too small to be its pip (`PIP_SIDES`), or holds two read
    surely as 2 to 6 that are under a quarter of its side (`PIP_WINDOW`): a window that
    small holds no two whole pips, so what reads as several pips there is a die (two, as
    a lone pip is now and then read surely as a 4 or a 6; four dice of a tenth of a
    pile's side, read 3, 4, 2 and 1 surely, had passed for a 4).
    Only finds under half a big die's side count: the big die found again is no die
    inside it (and, kept first by `dedupe` for its score, it would hide the small ones
    near its centre)."""
    held = confirmed(big, big_probs)
    if not held.any():
        return False
    smaller = small[:, 2] < 0.5 * float(big[held, 2].max())
    dice = np.nonzero(confirmed(small, small_probs) & smaller)[0]
    if not len(dice):
        return False
    dice = dice[dedupe(small[dice], small[dice, 3])]
    values, _ = readings(big_probs[held])
    inside = centre_inside(big[held], small[dice]) & (
        small[None, dice, 2] < 0.5 * big[held, None, 2]
    )
    too_many = inside.sum(axis=1) > values + 1
    sure = surely_read(small_probs[dice])
    tiny = inside & sure[None, :] & (big[held, None, 2] > PIP_SIDES * small[None, dice, 2])
    several_pips = sure & (readings(small_probs[dice])[0] >= 2)
    pips_read = (
        inside & several_pips[None, :] & (small[None, dice, 2] < PIP_WINDOW * big[held, None, 2])
    )
    return bool(too_many.any() or tiny.any() or (pips_read.sum(axis=1) >= 2).any())
