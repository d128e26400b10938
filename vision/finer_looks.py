"""The look at twice the scale, for dice a look saw too small or all but missed: dice under
the finder's trained size (found as blots, read unsure) and dice that blend into the table
(red on a grain of wood: found weakly, or faintly beside dice found surely).

`FinerLooks` tells when a roll needs that look (`unsure`, `doubtful`, `weakly_found`,
`faint_dice`) and what it gives: a roll read instead (`blended`) or the dice it reads
clearly where the roll has none (`filled_in`, `beside_the_roll`). The looks for dice too
big for a look are in `coarser_looks.py`; `reader.read` decides which to take.
"""

from __future__ import annotations

import numpy as np

from . import faces
from .closeup import crowd, look_like_pips
from .faces import LIKELY_NOT
from .finds import count_once, near_pairs, readings, surely_read
from .looks import CLEARLY, Looks
from .model import first_reading
from .same_set import coloured_as

# A first look whose dice the finder scores under this at the median finds this table's
# dice poorly, and may have missed some: at the end, a look at twice its scale fills in
# the dice it missed (`filled_in`). Of red dice on a drawn grain of wood (session
# 48, scripts/drawn_rolls.py) the finder missed about one in six; in 16 of 20 rolls read
# wrong its median score of a roll's dice was 0.33-0.6 (0.66 and 0.78 in two, nothing
# found in two); the dev folders' photos score 0.62 at the least (byler_d6 0.72 for 19 in
# 20, skovy_catan 0.69, fudw_tray 0.67), so the look costs them nothing.
_WEAK_FIND = 0.6


# A first look that finds its dice surely enough, but also, under `read`'s `min_score`, a
# find of the roll's size where it has no die that the readers read clearly, takes that
# look too (`faint_dice`, session 61): six red dice of 32 px on drawn planks, five
# of them scored 0.13-0.23 and lost, the one found at 0.61. Of such faint finds the
# finder's surest few inside the image are read, by the first reader alone (a 1080p frame
# of two dice on a grey table had seven such finds, at its edges: 1 ms, 2.4 with both).
_FAINT_READ = 4


class FinerLooks(Looks):
    """`Looks` with the tests that send a roll to the look at twice the scale, and that look's
    use: half the roll unsure (`unsure`, `doubtful`), dice found weakly or beside a faint
    find read clearly (`weakly_found`, `faint_dice`), the roll that look reads instead of a
    coarser one's (`blended`) and the dice it adds (`filled_in`)."""

    def doubtful(
        self, found: np.ndarray, probs: np.ndarray, kept: np.ndarray, owed: np.ndarray | None
    ) -> int:
        """How many finds the readers give more than even odds of being a die, yet do not
        confirm: none a `kept` die found again, none whose vote is still `owed` (read at a
        glance only), none twice the kept dice's median side or more (the corner of a box
        or a cup beside two dice), and one found twice counted once. Smaller ones count:
        dice of 7 pixels come out as finds of half to a whole blot's size (the blots
        confirmed)."""
        doubt = ~self.confirmed(found, probs) & (1.0 - probs[:, 0] > LIKELY_NOT)
        if owed is not None:
            doubt &= ~owed
        if len(kept):
            doubt &= found[:, 2] < self.roll_size[1] * float(np.median(found[kept, 2]))
            doubt &= ~near_pairs(found, found[kept], overlap=0.5).any(axis=1)
        return count_once(found, doubt)

    def weakly_found(self, found: np.ndarray, probs: np.ndarray) -> bool:
        """Whether a look found its dice of the roll's size only weakly (the finder's
        median score under `_WEAK_FIND`): dice that blend into the table (red on wood)
        are found some and missed some."""
        kept = self.typical(found, probs)
        return bool(len(kept) and np.median(found[kept, 3]) < _WEAK_FIND)

    def faint_dice(self, faint: np.ndarray, found: np.ndarray, probs: np.ndarray) -> bool:
        """Whether, of a look's `faint` finds (scored under `min_score`), one inside the
        image, of the roll's size where it has no die (`beside_the_roll`; the finder's
        surest `_FAINT_READ`), reads clearly as a die to the first reader alone
        (`first_reading`): a die that blends into the table, all but missed beside one
        the finder found surely enough to take no look for dice found weakly."""
        if not len(faint) or not self.confirmed(found, probs).any():
            return False
        inside = (faint[:, 0] >= 0) & (faint[:, 0] < self.w)
        inside &= (faint[:, 1] >= 0) & (faint[:, 1] < self.h)
        faint = faint[inside & self.beside_the_roll(faint, found, probs)]
        faint = faint[np.argsort(-faint[:, 3])][:_FAINT_READ]
        return bool(
            self.read_clearly(faint, first_reading(faces.crops_of(self.image, faint))).any()
        )

    def beside_the_roll(self, more: np.ndarray, found: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """Which of `more` (finds of another look, or faint ones) are of the roll's size
        (`roll_size` times the median of its typical dice) where no confirmed find of it
        lies (centres over three quarters of the bigger side apart): dice it missed, not a
        pip or a window of a die it has. The roll `found` must confirm a die."""
        is_die = self.confirmed(found, probs)
        kept = self.typical(found, probs)
        median = float(np.median(found[kept if len(kept) else is_die, 2]))
        low, high = self.roll_size
        fits = (more[:, 2] >= low * median) & (more[:, 2] <= high * median)
        dice = found[is_die]
        apart = np.hypot(*(more[:, None, :2] - dice[None, :, :2]).transpose(2, 0, 1))
        return fits & (apart > 0.75 * np.maximum(more[:, None, 2], dice[None, :, 2])).all(axis=1)

    def blended(
        self, found: np.ndarray, probs: np.ndarray, first: float, finer: float, faint: bool
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """After a first look (at scale `first`) that found nothing and a coarser one that
        found the roll `found`: the look at `finer` over the whole image, if something
        `faint` was there at the first look (scored over `reader._FAINT`: dice that blend into
        the table, all but seen) and the finer look reads more dice surely than the
        coarser one, not as their pips (`look_like_pips`, unless they are a `crowd` in the
        coarser dice); else None. The coarser looks are for dice too big
        for the first; six red dice of 32 pixels drawn on wooden planks at a slant
        were all but missed at the first look, and a coarser one found two of them as one
        die, which its closer look then lost (none read), where the finer look read all six
        right."""
        if finer <= first or not faint:
            return None
        more, more_probs = self.look(finer)
        if self.read_surely(more, more_probs) <= self.read_surely(found, probs):
            return None
        kept = self.typical(more, more_probs)
        pips = look_like_pips(*readings(more_probs[kept]))
        if pips and not crowd(found, probs, more, more_probs, self.confirmed):
            return None
        return more, more_probs

    def filled_in(
        self,
        found: np.ndarray,
        probs: np.ndarray,
        finer: float,
        seen: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The roll `found`, with the dice a look at `finer` over the whole image (`seen`,
        if `read` took that look already) reads clearly (`CLEARLY`) where no confirmed
        find lies (centres over three quarters of the bigger side apart), of the roll's
        size (`roll_size` times the median of its typical dice), and, if a 1, with a face
        the colour of a die the roll reads surely (`coloured_as`: a cloth's eyes read
        clearly as 1s; of a die of another value the look adds, where the roll has no
        die). Taking the finer look's whole roll instead, when it read more dice surely,
        read 2 more of 48 drawn rolls of red dice on wood right, but lost the dice of
        close-ups found as their pips at that look, and let in owl eyes on the held-out
        table's cloth."""
        more, more_probs = self.look(finer, known=(found, probs)) if seen is None else seen
        new = self.read_clearly(more, more_probs)
        ones = readings(more_probs)[0] == 1
        is_die = self.confirmed(found, probs)
        if is_die.any():
            new &= self.beside_the_roll(more, found, probs)
            sure = found[is_die & surely_read(probs)]
        else:
            sure = more[new & ~ones]
        new[new & ones] = coloured_as(self.image, more[new & ones], sure)
        return np.concatenate([found, more[new]]), np.concatenate([probs, more_probs[new]])

    def unsure(self, found: np.ndarray, probs: np.ndarray, owed: np.ndarray | None) -> bool:
        """Whether half the roll's dice or more are read unsure (counting the `doubtful`
        finds), or some are read surely and none clearly (`CLEARLY`)."""
        kept = self.typical(found, probs)
        judged = len(kept) + self.doubtful(found, probs, kept, owed)
        sure = surely_read(probs[kept])
        clearly = readings(probs[kept])[1] >= CLEARLY
        return bool(judged >= 2 and sure.sum() <= judged / 2) or bool(
            sure.any() and not clearly.any()
        )
