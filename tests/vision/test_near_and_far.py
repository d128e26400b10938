"""scripts/near_and_far.py, which docs/vision.md's figure for rolls of a few dice of different
sizes comes from: its drawn rolls, and a run of one roll a case."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest


def test_a_drawn_roll_has_its_far_dice_and_one_near_die(near_and_far: ModuleType) -> None:
    img, values = near_and_far.drawn_roll(np.random.default_rng(3), 3, 40, 2.5)
    assert img.shape == (720, 1280, 3)
    assert len(values) == 3 and values == sorted(values) and set(values) <= set(range(1, 7))
    again, same = near_and_far.drawn_roll(np.random.default_rng(3), 3, 40, 2.5)
    assert same == values and np.array_equal(again, img)  # (a seed gives the same roll)


def test_a_roll_of_cubes_is_drawn_as_one_set_at_one_slant(near_and_far: ModuleType) -> None:
    """`--cubes`: the same roll sizes, drawn as 3D cubes whose side faces show."""
    img, values = near_and_far.drawn_roll(np.random.default_rng(5), 2, 40, 3.0, cubes=True)
    assert img.shape == (720, 1280, 3) and img.dtype == np.uint8
    assert len(values) == 2 and set(values) <= set(range(1, 7))
    flat, _ = near_and_far.drawn_roll(np.random.default_rng(5), 2, 40, 3.0)
    assert not np.array_equal(img, flat)


def test_a_run_prints_each_case_and_the_rolls_read_wrong(
    near_and_far: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    near_and_far.main(["--rolls", "1"])
    out = capsys.readouterr().out.splitlines()
    cases = len(near_and_far.DICE) * len(near_and_far.FAR_SIDES) * len(near_and_far.NEAR_TIMES)
    assert all(line.endswith(("0/1", "1/1")) for line in out[:cases])
    right = sum(line.endswith(" 1/1") for line in out[:cases])
    assert out[cases] == f"all: {right}/{cases} read right"
    assert len(out) - cases - 1 == cases - right  # (one line for each roll read wrong)
    assert right >= cases * 3 // 4  # (137 of 144 at six rolls a case, session 46)
    with pytest.raises(SystemExit):
        near_and_far.main(["--rolls", "0"])
