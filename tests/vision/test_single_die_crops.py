"""scripts/single_die_crops.py, which docs/vision.md's figures for photos cut close around one
die come from: its cuts, and a run over two dice of the sample photos."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest


def test_a_cut_is_the_die_and_its_margin_blown_up(single_die_crops: ModuleType) -> None:
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[50:90, 100:140] = 255  # the die: 40 px at (100, 50)
    cut = single_die_crops.cut_close(photo, [100, 50, 40, 40], 0.1, 150, 1)
    assert cut.shape[:2] == (150, 150)
    white = np.argwhere(cut[..., 0] > 127)  # the die spans 40 of the 48 px cut: 125 of 150
    assert abs(int(white[:, 0].min()) - 12) <= 1 and abs(int(white[:, 0].max()) - 137) <= 1
    edge = single_die_crops.cut_close(photo, [0, 0, 40, 40], 0.3, 260, 1)  # (at the corner)
    assert max(edge.shape[:2]) == 260 and edge.shape[0] == edge.shape[1]


def test_a_run_counts_each_folders_cuts_and_lists_the_wrong_ones(
    single_die_crops: ModuleType, samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    single_die_crops.main([str(samples_dir), "--dice", "2"])
    out = capsys.readouterr().out.splitlines()
    first = out[0].split(": ")
    assert first[0] == str(samples_dir) and first[1].endswith(" of 16 read right")
    right = int(first[1].split()[0])
    assert right >= 14  # (two dice, eight cuts each: as read in session 40, 16)
    assert out[1] == f"all: {right} of 16" and len(out) - 2 == 16 - right
