"""vision/coarser_looks.py: the looks at half the scale for dice too big for a look: the look
over finds in pieces, a roll of mixed sizes, a coarser look reading better, and a die found
as pieces put in whole."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.conftest import grey_looks, read_scores
from vision import faces, reader

# Every test here runs on both engines, as test_reader.py's do (they were there)
pytestmark = pytest.mark.usefixtures("engine")


def _pieces_look(
    monkeypatch: pytest.MonkeyPatch, found: np.ndarray, probs: list[np.ndarray], big: np.ndarray
) -> tuple[np.ndarray, list[np.ndarray]]:
    """`_Looks._near_by_pieces` at scale 1 (dice over 51 px too big) in a 1280x960 image
    whose look at half the scale finds `big`, each read as a sure 4 unless its side is 70
    (read unsure); returns the finds it keeps and the boxes it looked in."""
    boxes: list[np.ndarray] = []

    def coarse_look(
        self: reader._Looks, box: tuple[int, int, int, int], scale: float
    ) -> np.ndarray:
        assert scale == 0.5
        boxes.append(np.array(box))
        return big.astype(np.float32)

    def classify(image: np.ndarray, finds: np.ndarray, *_: Any, **__: Any) -> np.ndarray:
        return np.array([read_scores(4, 0.3 if f[2] == 70 else 0.95) for f in finds], np.float32)

    monkeypatch.setattr(reader._Looks, "_coarse_look", coarse_look)
    monkeypatch.setattr(faces, "classify", classify)
    looks = grey_looks(1280, 960)
    kept, _ = looks._near_by_pieces(
        found.astype(np.float32), np.array(probs, np.float32), 0.5, 1.5 * 34.0
    )
    return kept, boxes


def test_the_look_over_pieces_needs_two_and_takes_big_dice_read_surely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three far dice of 34 px (read surely), and two finds not taken for dice (no die,
    at even odds) 40 px apart: pieces of one near die. The look at half the scale over
    them finds a die of 110 px holding them, read surely: it is added and the pieces go.
    A lone such find (a speck) takes no look; a big die read unsure is not taken; one near
    a die of the roll's size already there is that die."""
    dice = np.array([[100, 100, 34, 0.9], [300, 100, 34, 0.9], [500, 100, 34, 0.9]])
    pieces = np.array([[600, 700, 20, 0.4], [640, 700, 20, 0.4]])
    reads = [read_scores(3, 0.95)] * 3 + [read_scores(1, 0.5, dieness=0.5)] * 2
    near_die = np.array([[620, 700, 110, 0.8]])
    kept, boxes = _pieces_look(monkeypatch, np.vstack([dice, pieces]), reads, near_die)
    assert kept[:, :3].tolist() == np.vstack([dice, near_die])[:, :3].tolist()
    assert len(boxes) == 1 and boxes[0][0] <= 600 and boxes[0][2] >= 640
    kept, boxes = _pieces_look(monkeypatch, np.vstack([dice, pieces[:1]]), reads[:4], near_die)
    assert boxes == [] and len(kept) == 4  # a lone speck: no look
    unsure = np.array([[620, 700, 70, 0.8]])  # (read unsure by the stub)
    kept, _ = _pieces_look(monkeypatch, np.vstack([dice, pieces]), reads, unsure)
    assert len(kept) == 5
    there = np.vstack([dice, [[625, 705, 30, 0.9]], pieces])  # a die of the roll's size
    kept, _ = _pieces_look(
        monkeypatch, there, [*reads[:3], read_scores(2, 0.95), *reads[3:]], near_die
    )
    assert len(kept) == 6 and not (kept[:, 2] == 110).any()


def test_a_roll_of_windows_beside_pips_is_of_mixed_sizes() -> None:
    """`_Looks.mixed`, which sends a roll to the look at half the scale: two windows of a
    face too big for a look at scale 0.5 (124-134 px, 62-67 there) beside two pips a
    third of their size are sizes no roll has; a slant's near dice twice the far ones are
    not, nor windows alone, nor finds the readers do not take for dice. `_Looks.pieces`:
    which finds a die read clearly holds as pieces (pip-sized); `holds_pieces`, whether
    one holds two dice of the roll so."""
    looks = grey_looks(1280, 960)
    windows = [[183, 107, 124, 0.6], [133, 140, 134, 0.6]]
    pips = [[786, 1060, 38, 0.6], [723, 1127, 37, 0.7]]
    found = np.array(windows + pips, np.float32)
    reads = np.array(
        [read_scores(3, 0.95), read_scores(6, 0.84), read_scores(6, 0.3), read_scores(4, 0.3)],
        np.float32,
    )
    assert looks.mixed(found, reads, 0.5)
    assert not looks.mixed(found[:2], reads[:2], 0.5)
    assert not looks.mixed(found, reads, 0.25)  # (62-67 px dice there: none too big)
    slant = found.copy()
    slant[2:, 2] = [70, 66]  # (far dice half the near ones)
    assert not looks.mixed(slant, reads, 0.5)
    no_dice = reads.copy()
    no_dice[2:] = read_scores(1, 0.5, dieness=0.1)
    assert not looks.mixed(found, no_dice, 0.5)
    dice = np.array([[160, 140, 213, 0.8], [760, 1100, 206, 0.7]], np.float32)
    pieces = looks.pieces(
        dice, np.array([read_scores(6, 0.97), read_scores(2, 0.98)], np.float32), found
    )
    assert pieces.tolist() == [[False] * 4, [False, False, True, True]]
    unclear = np.array([read_scores(6, 0.97), read_scores(2, 0.8)], np.float32)
    assert not looks.pieces(dice, unclear, found)[1].any()
    # `holds_pieces`: the cream die holds the two pips; one pip found twice, or one pip
    # and a find the readers do not take for a die, is one piece, not two
    dice_probs = np.array([read_scores(6, 0.97), read_scores(2, 0.98)], np.float32)
    assert looks.holds_pieces(dice, dice_probs, found, reads)
    twice = np.vstack([found[:3], [[788, 1062, 37, 0.6]]]).astype(np.float32)
    assert not looks.holds_pieces(dice, dice_probs, twice, reads)
    assert not looks.holds_pieces(dice, dice_probs, found, no_dice)


def test_a_coarser_look_reads_better_when_its_clear_dice_hold_the_pips_read_surely() -> None:
    """A close-up of two dice of 250 px: the first look finds their pips, three read surely
    (as 4s at 0.55, from windows of their neighbours) and five not; the look at half the
    scale reads the two dice clearly. Counting the pips each clear die holds once, it reads
    as many dice surely and more clearly: it reads better (session 45; it lost, 2 to 3,
    on dice read surely alone). Not so when a first look reads its dice clearly (a roll of
    small dice the coarser look sees as one), nor when a die holds more pips than its
    value plus one (a pile, as eight small dice seen as one), nor when a die it reads
    surely is no die's piece, nor when the dice it holds are too big to be pips (a block
    of four small dice seen as one)."""
    looks = grey_looks(1280, 960)
    pip_xy = [(-60, -60), (60, -60), (-60, 60), (60, 60)]
    pips = [[300 + dx, 700 + dy, 45, 0.7] for dx, dy in pip_xy]
    pips += [[900 + dx, 300 + dy, 45, 0.4] for dx, dy in pip_xy]
    found = np.array(pips, np.float32)
    reads = [read_scores(4, 0.55)] * 3 + [read_scores(4, 0.3)] * 5
    probs = np.array(reads, np.float32)
    big = np.array([[300, 700, 250, 0.8], [900, 300, 230, 0.8]], np.float32)
    clear = np.array([read_scores(4, 0.97)] * 2, np.float32)
    assert looks.read_surely(big, clear) < looks.read_surely(found, probs)
    assert looks.reads_better(big, clear, found, probs)
    assert not looks.reads_better(
        big, np.array([read_scores(4, 0.8)] * 2, np.float32), found, probs
    )
    clearly = np.array([read_scores(4, 0.95)] * 3 + reads[3:], np.float32)  # small dice, read so
    assert not looks.reads_better(big, clear, found, clearly)
    as_ones = np.array([read_scores(1, 0.97)] * 2, np.float32)  # (three pips in a 1: a pile)
    assert not looks.reads_better(big, as_ones, found, probs)
    # eight small dice, three read surely, none clearly, seen at the coarser look as one
    # die read clearly as a 3: a pile (more finds that may be dice than a 3 and one more)
    pile = np.array([[900 + 30 * (k % 4), 500 + 40 * (k // 4), 22, 0.7] for k in range(8)])
    pile_reads = np.array([read_scores(5, 0.7)] * 3 + [read_scores(4, 0.4)] * 5, np.float32)
    one_three = np.array([[945, 520, 212, 0.5]], np.float32)
    three = np.array([read_scores(3, 0.94)], np.float32)
    assert not looks.reads_better(one_three, three, pile.astype(np.float32), pile_reads)
    assert looks.reads_better(one_three, three, pile[:3].astype(np.float32), pile_reads[:3])
    elsewhere = np.vstack([found, [[600, 100, 40, 0.9]] * 2]).astype(np.float32)
    elsewhere[-1, 0] = 700  # two dice read surely outside the big ones
    more = np.vstack([probs, [read_scores(2, 0.6)] * 2]).astype(np.float32)
    assert not looks.reads_better(big, clear, elsewhere, more)
    # a 4 may hold five pieces that may be dice (four pips, one found twice), not six; a
    # piece the readers think no die (die odds under even) does not count
    centre = np.array([[300, 700, 45, 0.5]] * 2, np.float32)
    for extra, reads_extra, better in [
        (centre[:1], [read_scores(4, 0.3)], True),
        (centre, [read_scores(4, 0.3)] * 2, False),
        (centre, [read_scores(4, 0.3), read_scores(4, 0.3, dieness=0.3)], True),
    ]:
        more = np.vstack([probs, np.array(reads_extra, np.float32)])
        assert looks.reads_better(big, clear, np.vstack([found, extra]), more) == better
    # four dice of 30 px in a block, read surely, not clearly, seen coarser as one clear 4
    # of 85 px: a die a third of its side is no piece of it (`_PIECE_SIDES`; a pip's find
    # for `closeup.holds` may be), so the four stay dice
    block = np.array([[883 + 34 * (k % 2), 483 + 34 * (k // 2), 30, 0.7] for k in range(4)])
    block_reads = np.array([read_scores(2, 0.75)] * 4, np.float32)
    one_four = np.array([[900, 500, 85, 0.6]], np.float32)
    assert not looks.reads_better(one_four, clear[:1], block.astype(np.float32), block_reads)


def _wholes(
    monkeypatch: pytest.MonkeyPatch,
    found: np.ndarray,
    probs: list[np.ndarray],
    big: np.ndarray,
    read_as: float = 0.95,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """`_Looks.wholes` on a first look at scale 1 (dice over 51 px too big for it) of a
    1280x960 image, whose look at half the scale finds `big`, read as 3s at `read_as`."""

    def finds(self: reader._Looks, scale: float, boxes: Any = None) -> np.ndarray:
        assert scale == 0.5 and boxes is None  # (over the whole image)
        return big.astype(np.float32)

    def classify(image: np.ndarray, finds: np.ndarray, *_: Any, **__: Any) -> np.ndarray:
        return np.array([read_scores(3, read_as)] * len(finds), np.float32).reshape(-1, 7)

    monkeypatch.setattr(reader._Looks, "finds", finds)
    monkeypatch.setattr(faces, "classify", classify)
    looks = grey_looks(1280, 960)
    owed = np.zeros(len(found), bool)
    return looks.wholes(found.astype(np.float32), np.array(probs, np.float32), owed, 1.0)


def test_a_die_too_big_for_the_first_look_is_put_in_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A die of 200 px at a look whose dice should be 34: the finder finds two of its pips
    (read as 1s) and two overlapping windows of its face (read surely as 3s); the look at
    half the scale finds it whole, read clearly as a 3. It replaces its pieces; a far die
    stays. Not so when the look at half the scale holds one find only, or reads it
    unclearly, or the first look found that die whole too, or it holds two dice side by
    side (a pile of dice seen as one)."""
    far = [[200, 200, 34, 0.9]]
    pips = [[560, 460, 40, 0.8], [640, 540, 40, 0.8]]
    pieces = [[600, 500, 110, 0.7], [615, 512, 110, 0.6]]
    found = np.array(far + pips + pieces, np.float32)
    reads = [
        read_scores(5, 0.95),
        read_scores(1, 0.9),
        read_scores(1, 0.9),
        read_scores(3, 0.95),
        read_scores(3, 0.9),
    ]
    big = np.array([[600, 500, 200, 0.8]])
    whole = _wholes(monkeypatch, found, reads, big)
    assert whole is not None
    kept, probs, owed = whole
    assert kept[:, :3].tolist() == [[200, 200, 34], [600, 500, 200]]
    assert probs[1].argmax() == 3 and not owed.any()
    assert _wholes(monkeypatch, found[:2], reads[:2], big) is None  # holds one find
    assert _wholes(monkeypatch, found, reads, big, read_as=0.8) is None  # read unclearly
    found_whole = np.vstack([found, [[598, 503, 180, 0.8]]])  # (0.9 of its side, centred)
    assert _wholes(monkeypatch, found_whole, [*reads, read_scores(3, 0.95)], big) is None
    # two dice side by side, each with a window of its face found too (so the first look
    # has two pairs of overlapping finds and takes the look): a pile, not one die's pieces
    pile = far + [[560, 500, 80, 0.9], [640, 500, 80, 0.9], [565, 505, 50, 0.6]]
    pile += [[635, 495, 50, 0.6]]
    pile_reads = [
        read_scores(5, 0.95),
        read_scores(2, 0.95),
        read_scores(5, 0.95),
        read_scores(2, 0.9),
        read_scores(5, 0.9),
    ]
    assert _wholes(monkeypatch, np.array(pile, np.float32), pile_reads, big) is None
    side_by_side = np.array(pile, np.float32)  # (the same four finds nearer: one die's)
    side_by_side[1:, 0] = [585, 615, 590, 610]
    assert _wholes(monkeypatch, side_by_side, pile_reads, big) is not None
