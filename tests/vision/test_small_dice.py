"""scripts/small_dice.py, which `vision/small.py`'s table comes from: its bins, and a run
on the sample photos shrunk."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from vision import small


def test_the_bins_cover_every_side_once(small_dice: ModuleType) -> None:
    bins = small_dice.bins()
    assert bins[0] == (0, 10) and bins[-1] == (30, None)
    assert all(a[1] == b[0] for a, b in zip(bins, bins[1:], strict=False))  # (no gap)


def test_a_run_bins_the_dice_as_the_readers_read_them(
    small_dice: ModuleType, samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sample photos shrunk to a fifth: every die lands in one bin, read with the
    readers' own confidences (the hold on small dice off for the run, and back after)."""
    rows = small_dice.measure(samples_dir, [0.2], 1)
    assert small.SMALL_BELOW == 13
    assert len(rows) >= 20 and all(side < 20 for side, _, _ in rows)
    assert any(conf > small.SMALL_CONFIDENCE and side < 13 for side, conf, _ in rows)
    assert sum(n for _, n, _, _, _ in small_dice.binned(rows)) == len(rows)
    lines = small_dice.table(rows)
    assert small_dice.main([str(samples_dir), "--scales", "0.2"]) == 0
    assert capsys.readouterr().out.splitlines() == lines
    with pytest.raises(SystemExit):
        small_dice.main([str(samples_dir), "--scales", "2"])
