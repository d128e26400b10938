"""vision/pattern.py: a window of a polka-dot cloth matches itself shifted by under its
side along two lines; a die never does, whatever its face, turn, table or neighbour."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import Drawn
from vision import read
from vision.pattern import REPEATS, patterned, repeats

PURPLE, CREAM = (110, 40, 90), (225, 230, 235)


def polka(
    size_wh: tuple[int, int], step: float, radius: int, *, cloth=PURPLE, dot=CREAM
) -> np.ndarray:
    """A polka-dot cloth: dots of `radius` on a hexagonal grid `step` pixels apart."""
    import cv2

    w, h = size_wh
    img = np.empty((h, w, 3), np.uint8)
    img[:] = cloth
    for row, y in enumerate(np.arange(0, h + step, step * 0.87)):
        for x in np.arange((row % 2) * step / 2, w + step, step):
            cv2.circle(img, (int(x), int(y)), radius, dot, -1, cv2.LINE_AA)
    return img


@pytest.mark.parametrize("step", [30.0, 45.0, 60.0])
def test_windows_of_polka_dots_repeat(step: float) -> None:
    """Four dots read as a 4, five as a 5, one as a 1: windows the finder gave such cloth,
    over its dots at any offset, all repeat."""
    img = polka((640, 480), step, max(2, int(step / 6)))
    rng = np.random.default_rng(0)
    centres = rng.uniform([200, 150], [440, 330], (12, 2))
    sides = rng.uniform(1.0, 2.2, 12) * step
    found = np.column_stack([centres, sides, np.ones(12)])
    assert (repeats(img, found) > REPEATS).all()
    assert patterned(img, found).all()


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("angle", [0.0, 20.0, 45.0])
@pytest.mark.parametrize(
    "colours",
    [
        ((200, 200, 200), (235, 235, 235), (20, 20, 20)),
        ((40, 60, 30), (30, 30, 180), (240, 240, 240)),
    ],
)
def test_a_die_does_not_repeat_in_a_row_of_like_dice(
    drawn: Drawn, value: int, angle: float, colours: tuple
) -> None:
    """Each face, turned, on a light table (white die, black pips, as light as the table)
    and a dark one (red die, white pips), in a row of three like dice turned alike a
    tenth of a side apart (dice kept and lined up beside the roll)."""
    draw_die, table = drawn
    tabletop, face, pip = colours
    img = table(tabletop)
    for cx, cy in ((276, 240), (320, 240), (364, 240)):
        draw_die(img, value, (cx, cy), 40, angle=angle, face=face, pip=pip)
    found = np.array([[320.0, 240.0, 40.0, 1.0]])
    assert repeats(img, found)[0] < REPEATS


def test_a_die_on_polka_dot_cloth_does_not_repeat(drawn: Drawn) -> None:
    """The dots around a die do not make it a pattern: its face breaks them."""
    draw_die, _ = drawn
    img = polka((640, 480), 30.0, 5)
    for value, x in zip(range(1, 7), range(120, 640, 80), strict=False):
        draw_die(img, value, (x, 240), 36, angle=10.0 * value)
    found = np.array([[x, 240.0, 36.0, 1.0] for x in range(120, 600, 80)])
    assert (repeats(img, found) < REPEATS).all()


def test_finds_at_and_beyond_the_edge() -> None:
    """A find cut by the frame is judged on what shows; one wholly outside it, or over a
    plain patch (which any shift matches), scores 0."""
    img = polka((320, 240), 30.0, 5)
    img[100:140, 140:180] = PURPLE
    found = np.array([[5.0, 120.0, 50.0, 1.0], [-100.0, -100.0, 40.0, 1.0], [160, 120, 30, 1]])
    scores = repeats(img, found)
    assert scores[0] > REPEATS
    assert scores[1] == 0.0 and scores[2] == 0.0
    assert repeats(img, np.zeros((0, 4))).shape == (0,)


@pytest.mark.parametrize("step", [50.0, 70.0, 90.0])
def test_read_a_roll_on_polka_dot_cloth(drawn: Drawn, step: float) -> None:
    """Six dice on a cloth of cream dots as big as their pips, 1.1 to 2 dice apart: the
    reader reads the six dice and none of the cloth's windows (without the pattern test,
    it read 6 to 23 windows as 4s and 5s of two to four times the dice's size; session
    47)."""
    draw_die, _ = drawn
    img = polka((960, 720), step, 6)
    values = [1, 2, 3, 4, 5, 6]
    for value, (x, y) in zip(
        values,
        [(250, 250), (480, 230), (700, 260), (260, 480), (470, 500), (690, 470)],
        strict=True,
    ):
        draw_die(
            img, value, (x, y), 44, angle=15.0 * value, face=(30, 30, 170), pip=(240, 240, 240)
        )
    got = read(img)
    assert sorted(d.value for d in got.dice) == values


@pytest.mark.parametrize(
    "tabletop, face, pip, gaps",
    [
        ((40, 60, 30), (30, 30, 180), (240, 240, 240), (2, 4, 6)),
        ((200, 200, 200), (235, 235, 235), (20, 20, 20), (4, 6)),
    ],
)
@pytest.mark.parametrize("value", [4, 6])
def test_a_block_of_like_dice_squared_up_is_read_whole(
    drawn: Drawn, tabletop: tuple, face: tuple, pip: tuple, gaps: tuple, value: int
) -> None:
    """Four like dice showing 4 squared up in a block, a twentieth to a seventh of a side
    apart, are a grid of pips: each repeats like a cloth's window (0.76-0.92). A cloth
    repeats across the table, so it takes `CLOTH_LEAST` windows in one look (a block's
    four dice and the windows at their seams are fewer) before any is taken for one;
    with two, three of the four red 4s were lost (session 47)."""
    draw_die, table = drawn
    for gap in gaps:
        img = table(tabletop)
        for c in ((320, 240), (360 + gap, 240), (320, 280 + gap), (360 + gap, 280 + gap)):
            draw_die(img, value, c, 40, face=face, pip=pip)
        assert [d.value for d in read(img).dice] == [value] * 4, gap


def test_patterned_takes_windows_only_when_enough_are(drawn: Drawn) -> None:
    """`least`: a cloth covers the table, so fewer windows than that are none; the dice
    among them are never windows, whatever their place in the list."""
    draw_die, _ = drawn
    img = polka((640, 480), 30.0, 5)
    img[300:460, 20:620] = (60, 60, 60)  # a plain grey mat at the bottom, dice on it
    dice = [[100.0 + 90 * n, 380.0, 40.0, 1.0] for n in range(5)]
    for value, (x, y, side, _) in zip(range(2, 7), dice, strict=True):
        draw_die(img, value, (x, y), side)
    windows = [[120.0 + 60 * n, 120.0, 50.0, 1.0] for n in range(3)]
    found = np.array([dice[0], windows[0], dice[1], windows[1], dice[2], windows[2], *dice[3:]])
    is_window = np.array([False, True, False, True, False, True, False, False])
    np.testing.assert_array_equal(patterned(img, found, 3), is_window)
    np.testing.assert_array_equal(patterned(img, found), is_window)
    assert not patterned(img, found, 4).any()
    assert not patterned(img, found[~is_window], 1).any()
    assert patterned(img, np.zeros((0, 4)), 5).shape == (0,)
