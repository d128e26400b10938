"""vision/finer_looks.py: a roll half read unsure, or with no die read clearly, takes the look
at twice the scale."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import grey_looks, read_scores

# Every test here runs on both engines, as test_reader.py's do (they were there)
pytestmark = pytest.mark.usefixtures("engine")


def test_a_roll_is_unsure_when_half_its_dice_are_or_none_is_read_clearly() -> None:
    """`_Looks.unsure`, which decides the looks at twice and half the scale: four dice, one
    read surely (a pip's 1) and three not, are unsure; three read clearly and one not are
    not; one die read surely, not clearly, is; a lone logo die (a die, unread) is not."""
    looks = grey_looks(1280, 960)
    found = np.array([[200 + 100 * k, 300, 34, 0.8] for k in range(4)], np.float32)
    pips = np.array([read_scores(1, 0.65)] + [read_scores(4, 0.3)] * 3, np.float32)
    assert looks.unsure(found, pips, None)
    clear = np.array([read_scores(5, 0.95)] * 3 + [read_scores(4, 0.3)], np.float32)
    assert not looks.unsure(found, clear, None)
    assert looks.unsure(found[:1], np.array([read_scores(5, 0.7)], np.float32), None)
    assert not looks.unsure(found[:1], np.array([read_scores(5, 0.2)], np.float32), None)
    half = np.array([read_scores(5, 0.95)] * 2 + [read_scores(4, 0.3)] * 2, np.float32)
    assert looks.unsure(found, half, None)  # (half read clearly, half not: unsure)
