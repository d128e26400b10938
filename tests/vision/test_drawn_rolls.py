"""scripts/drawn_rolls.py, which docs/vision.md's figures for die sets and tables the dev photos
lack come from: its drawn rolls, how it judges a reading, and a run over a few cases."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from vision.detections import Detections, DieDetection


def test_a_drawn_roll_is_six_dice_of_one_set_on_its_table(drawn_rolls: ModuleType) -> None:
    img, drawn = drawn_rolls.drawn_roll(np.random.default_rng(4), "red", "wood", 32, 20)
    assert img.shape == (720, 1280, 3) and img.dtype == np.uint8
    assert len(drawn) == drawn_rolls.DICE == 6
    assert all(1 <= d.value <= 6 and d.side == 32 for d in drawn)
    assert all(0 < d.x < 1280 and 0 < d.y < 720 for d in drawn)
    for a in drawn:  # (none touching)
        assert all(np.hypot(a.x - b.x, a.y - b.y) > 32 for b in drawn if b is not a)
    for d in drawn:  # the middle of each top face: red, or a white pip (BGR, shaded)
        b, g, r = img[int(d.y), int(d.x)].astype(int)
        assert r > 2 * max(b, g) + 30 or min(b, g, r) > 150, (b, g, r)
    again, same = drawn_rolls.drawn_roll(np.random.default_rng(4), "red", "wood", 32, 20)
    assert same == drawn and np.array_equal(again, img)  # (a seed gives the same roll)


@pytest.mark.parametrize("table", ["plain", "felt", "wood"])
def test_each_table_is_drawn_and_an_unknown_one_is_refused(
    drawn_rolls: ModuleType, table: str
) -> None:
    top = drawn_rolls.table_top(table, 40, np.random.default_rng(0))
    assert top.shape == (720, 1280, 3) and np.isfinite(top).all()
    with pytest.raises(ValueError, match="no table 'marble'"):
        drawn_rolls.table_top("marble", 40, np.random.default_rng(0))
    with pytest.raises(ValueError, match="no die set 'gold'"):
        drawn_rolls.set_style("gold", np.random.default_rng(0))


def _die(value: int, x: float, y: float) -> DieDetection:
    return DieDetection(value, 0.9, (int(x) - 20, int(y) - 20, 40, 40), (x, y))


def test_a_reading_is_judged_die_by_die(drawn_rolls: ModuleType) -> None:
    """Each drawn die takes the nearest die read within 3/4 of its side, once."""
    drawn = [drawn_rolls.Drawn(v, x, 100.0, 40.0) for v, x in ((3, 100.0), (5, 300.0), (2, 500.0))]
    read = Detections(
        (_die(3, 110, 105), _die(6, 305, 100), _die(4, 700, 100), _die(3, 125, 100)), (800, 200)
    )
    j = drawn_rolls.judged(drawn, read)
    assert j.missed == [2] and j.misread == [(5, 6)] and sorted(j.extra) == [3, 4]
    assert not j.right
    assert j.unasked == 1  # (the 5 read 6 at 0.9: the player is not asked)
    unsure = Detections((_die(3, 100, 100), replace(_die(6, 300, 100), confidence=0.5)))
    asked = drawn_rolls.judged(drawn[:2], unsure)
    assert asked.misread == [(5, 6)] and asked.unasked == 0  # (asked: under ASK_BELOW)
    right = drawn_rolls.judged(drawn, Detections(tuple(_die(d.value, d.x, d.y) for d in drawn)))
    assert right.right and right == drawn_rolls.Judged()


def test_a_run_prints_each_case_by_slant_and_size_and_over_all(
    drawn_rolls: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    drawn_rolls.main(["--rolls", "1", "--sets", "white", "--tables", "plain"])
    out = capsys.readouterr().out.splitlines()
    names = [line[:14].strip() for line in out]
    slants = [f"slant {a:g}" for a in drawn_rolls.SLANTS]
    assert names == ["white on plain", *slants, *[f"side {s}" for s in drawn_rolls.SIDES], "all"]
    cases = len(drawn_rolls.SLANTS) * len(drawn_rolls.SIDES)
    assert out[-1].split()[1].endswith(f"/{cases}")
    right = int(out[-1].split()[1].split("/")[0])
    assert right >= cases * 3 // 4  # (white dice on a plain table: 12 of 12, session 48)
    assert out[0].split()[3] == out[-1].split()[1]  # (one case: the same rolls)
    small = ["--rolls", "1", "--sets", "white", "--tables", "plain", "--sides", "24"]
    for bad, said in (
        (["--rolls", "0"], "--rolls"),
        (["--seed", "-1"], "--seed"),
        (["--sets", "white,gold"], "--sets: 'gold' not one of white, red, black, any"),
        (["--tables", "x"], "--tables: 'x' not one of"),
        (["--slants", "35,60"], "--slants: '60' not one of 0, 20, 35, 40, 45, 50"),
        (["--sides", "24,"], "--sides: '' not one of 24, 32, 48, 72"),
    ):
        with pytest.raises(SystemExit) as exit_:
            drawn_rolls.main([*small, *bad])  # (the bad option last: it wins)
        assert exit_.value.code == 2
        assert said in capsys.readouterr().err.splitlines()[-1]


def test_a_run_can_be_cut_to_some_slants_and_sides(
    drawn_rolls: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--rolls", "1", "--sets", "black", "--tables", "felt", "--slants", "35.0, 0,35"]
    drawn_rolls.main([*args, "--sides", "48"])
    out = capsys.readouterr().out.splitlines()
    names = [line[:14].strip() for line in out]
    assert names == ["black on felt", "slant 35", "slant 0", "side 48", "all"]  # (as named)
    rolls = [next(t for t in line.split() if "/" in t).split("/")[1] for line in out]
    assert rolls == ["2", "1", "1", "2", "2"]  # (a roll a case, 35 degrees named twice)


def test_an_upright_roll_shows_the_side_faces_below_the_top(
    drawn_rolls: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--upright`: the same roll (values, places) as without it, but every die tipped the
    way a phone held upright sees it, so each top face lies above the middle of its die;
    drawn any way, not every die of the draws does."""
    posed: list[tuple[float, float, float, float, tuple[float, float]]] = []
    paste = drawn_rolls.paste_die

    def spy(
        rng: np.random.Generator,
        canvas: np.ndarray,
        value: int,
        x: float,
        y: float,
        size: float,
        **kw: Any,
    ) -> tuple[float, float, float]:
        tx, ty, extent = paste(rng, canvas, value, x, y, size, **kw)
        posed.append((x, y, tx, ty, kw["pose"]))
        return tx, ty, extent

    monkeypatch.setattr(drawn_rolls, "paste_die", spy)
    for seed in range(4):
        _, upright = drawn_rolls.drawn_roll(
            np.random.default_rng(seed), "white", "plain", 48, 35, upright=True
        )
        tops = posed[-6:]
        assert all(abs(pose[1]) <= drawn_rolls.UPRIGHT_ROLL for *_, pose in tops)
        assert all(pose[0] == pytest.approx(np.radians(35)) for *_, pose in tops)
        assert all(ty < y - 0.15 * 48 for _, y, _, ty, _ in tops)  # (the top above)
        _, anyway = drawn_rolls.drawn_roll(np.random.default_rng(seed), "white", "plain", 48, 35)
        assert [d.value for d in anyway] == [d.value for d in upright]
        assert [p[:2] for p in posed[-6:]] == [p[:2] for p in tops]  # (the dice's places)
    anyway_drawn = [die for k in range(4) for die in posed[12 * k + 6 : 12 * k + 12]]
    assert not all(ty < y - 0.15 * 48 for _, y, _, ty, _ in anyway_drawn)


def test_a_run_may_draw_the_steep_slants(
    drawn_rolls: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """The steep slants are drawn when named (the default run draws 0, 20 and 35: above),
    in the order named."""
    args = ["--rolls", "1", "--sets", "white", "--tables", "plain", "--sides", "48"]
    drawn_rolls.main([*args, "--slants", "50,45"])
    names = [line[:14].strip() for line in capsys.readouterr().out.splitlines()]
    assert names == ["white on plain", "slant 50", "slant 45", "side 48", "all"]
