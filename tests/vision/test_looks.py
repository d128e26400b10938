"""vision/looks.py: the pieces of the image a closer look covers, and the dice a look
farther away loses given back."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pytest

from tests.vision.conftest import grey_looks, read_scores
from vision import looks

# Every test here runs on both engines, as test_reader.py's do (they were there)
pytestmark = pytest.mark.usefixtures("engine")


def test_pieces_cover_each_find_and_merge_where_dice_come_close() -> None:
    """Each find gets a box two typical sides wider on each side, cut at the image's edge;
    boxes that overlap become the box around both, and so do boxes of dice closer than two
    sides, until none do; boxes further apart stay apart, a find that is no die is merged
    only when its box overlaps, and no finds make no boxes."""
    found = np.array(
        [[100, 100, 20, 0.9], [150, 100, 20, 0.9], [500, 300, 20, 0.9], [570, 370, 20, 0.9]],
        np.float32,
    )
    dice = np.ones(len(found), bool)
    pieces = looks._pieces(found, (600, 400), margin=2.0, dice=dice)
    assert sorted(pieces) == [(60, 60, 190, 140), (460, 260, 600, 400)]
    lone = looks._pieces(found[2:3], (600, 400), margin=1.0, dice=dice[:1])
    assert lone == [(480, 280, 520, 320)]
    # the first box comes close only to the box the other two merge into
    chain = np.array([[100, 100, 20, 0.9], [150, 300, 20, 0.9], [250, 200, 20, 0.9]], np.float32)
    assert looks._pieces(chain, (600, 400), margin=2.0, dice=dice[:3]) == [(60, 60, 290, 340)]
    near = np.array([[100, 100, 20, 0.9], [210, 100, 20, 0.9]], np.float32)  # boxes 30 px apart
    assert looks._pieces(near, (600, 400), margin=2.0, dice=dice[:2]) == [(60, 60, 250, 140)]
    speck = np.array([True, False])
    assert sorted(looks._pieces(near, (600, 400), margin=2.0, dice=speck)) == [
        (60, 60, 140, 140),
        (170, 60, 250, 140),
    ]
    far = np.array([[100, 100, 20, 0.9], [230, 100, 20, 0.9]], np.float32)  # boxes 50 px apart
    assert sorted(looks._pieces(far, (600, 400), margin=2.0, dice=dice[:2])) == [
        (60, 60, 140, 140),
        (190, 60, 270, 140),
    ]
    assert looks._pieces(found[:0], (600, 400), margin=2.0, dice=dice[:0]) == []


def _lost(before: Sequence[tuple[float, ...]], after: Sequence[tuple[float, ...]]) -> list[bool]:
    """`lost_dice` for a look `before` of dice (x, y, confidence[, side: 100]) and a
    farther look `after` of dice (x, y, confidence[, dieness: 0.98]) of 60 px."""
    looks = grey_looks(1280, 720)
    found = np.array([(d[0], d[1], d[3] if len(d) > 3 else 100, 0.6) for d in before], np.float32)
    probs = np.array([read_scores(3, d[2]) for d in before])
    far = np.array([(d[0], d[1], 60, 0.6) for d in after], np.float32).reshape(-1, 4)
    far_probs = np.array(
        [read_scores(3, d[2], d[3] if len(d) > 3 else 0.98) for d in after]
    ).reshape(-1, 7)
    return looks.lost_dice(far, far_probs, found, probs).tolist()


def test_a_farther_look_gives_dice_back_if_it_lost_one_read_clearly_and_reads_fewer() -> None:
    row = [(150.0 + 200 * k, 300.0, 0.95) for k in range(4)]
    # two of four dice lost, one read clearly: both back, whatever they were read at
    assert _lost([*row[:2], (550, 300, 0.6), row[3]], row[:2]) == [False, False, True, True]
    # a side face read at 0.58 beside its die, lost with nothing else: it stays lost
    side_face = (160, 350, 0.58)
    assert _lost([*row, side_face], row) == [False] * 5
    # a die read clearly is lost, but the farther look reads as many dice surely
    assert _lost(row, [*row[:3], (900, 600, 0.9)]) == [False] * 4
    # ... counting only dice of the roll's size: a speck of 40 px read clearly is none
    assert _lost([*row, (900, 600, 0.95, 40)], row) == [False] * 5
    # a farther look that finds nothing gives back every die read surely
    assert _lost([*row[:3], (750, 300, 0.4)], []) == [True, True, True, False]
    # a die found near (half the bigger side) is not lost
    assert _lost(row, [*row[:3], (740, 340, 0.3)]) == [False] * 4
    # unless what is found there is taken for no die
    assert _lost(row, [*row[:3], (740, 340, 0.9, 0.3)]) == [False, False, False, True]


def test_dark_faces_are_lifted_only_in_a_frame_not_lifted_itself() -> None:
    """A frame scaled for the dark, or with a shadow lifted, had its noise scaled with it:
    its dice are not lifted again for the vote (`light.dark_face_lifted`)."""
    lit = grey_looks(64, 48)
    assert lit.lifts_dark_faces
    assert not dataclasses.replace(lit, gain=2.0).lifts_dark_faces
    assert not dataclasses.replace(lit, lift=np.ones((48, 64), np.float32)).lifts_dark_faces
