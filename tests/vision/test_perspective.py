"""The size plane of a roll seen at a slant (`vision/perspective.py`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vision.perspective import REACH, fit_sizes, relative_sides


def _finds(rows: Sequence[tuple[float, float, float]]) -> np.ndarray:
    return np.array([[x, y, side, 0.9] for x, y, side in rows], np.float32)


def test_too_few_dice_or_none_at_a_slant_give_no_plane() -> None:
    assert fit_sizes(_finds([(0, 0, 30), (300, 0, 40), (0, 300, 50)])) is None
    flat = _finds([(0, 0, 40), (300, 0, 42), (0, 300, 39), (300, 300, 41), (150, 150, 40)])
    assert fit_sizes(flat) is None  # from above: sizes differ by chance, under MIN_SLANT


@pytest.mark.parametrize("jitter", [0.0, 3.0, 30.0])
def test_dice_in_a_line_give_no_plane(jitter: float) -> None:
    """Dice along a row (a few pixels off it, or up to 30 px, still under their median side
    of 54): their size grows along the row, but nothing tells how it changes across it,
    which a fit would make up (and then keep a chair foot or a speck off the row as the
    size it made up there)."""
    rows = [(100 + 150 * k, 500 + jitter * (-1) ** k, 30 + 8 * k) for k in range(7)]
    assert fit_sizes(_finds(rows)) is None


def test_a_slant_is_recovered_past_strays() -> None:
    rng = np.random.default_rng(3)
    xy = rng.uniform(0, 1000, (12, 2))
    sides = 30 + 0.02 * xy[:, 0] + 0.06 * xy[:, 1]
    rows = list(zip(xy[:, 0], xy[:, 1], sides, strict=True))
    rows += [(500.0, 500.0, 5.0), (100.0, 900.0, 400.0)]  # a speck and a chair foot
    plane = fit_sizes(_finds(rows))
    assert plane is not None
    assert plane.coef == pytest.approx((30, 0.02, 0.06), rel=1e-3, abs=1e-4)
    relative = relative_sides(_finds(rows), plane)
    assert relative[:12] == pytest.approx(1.0, abs=1e-3)
    assert relative[12] < 0.2 and relative[13] > 2.5


def test_only_the_surely_read_finds_are_fitted_on() -> None:
    """Dice from 30 px at the far edge to 110 px at the near one, and a stray the readers
    cannot read where it tilts a least-squares plane most: at the near edge, far under
    the dice there. Fitted on the dice read surely, the plane is the dice's."""
    dice = [(x, y, 20 + 0.125 * y) for x, y in [(100, 80), (500, 90), (300, 400), (100, 720)]]
    dice += [(500, 700, 20 + 0.125 * 700)]
    found = _finds([*dice, (300, 720, 45.0), (320, 690, 44.0)])
    sure = np.array([True] * 5 + [False] * 2)
    plane = fit_sizes(found, sure=sure)
    assert plane is not None
    assert plane.coef == pytest.approx((20, 0, 0.125), abs=1e-6)
    assert relative_sides(found, plane)[5:].max() < 0.5


def test_the_plane_is_believed_only_a_little_past_the_dice() -> None:
    rows = [(x, y, 40 + 0.1 * y) for x in (100, 300, 500) for y in (100, 300)]
    plane = fit_sizes(_finds(rows))
    assert plane is not None
    far_off = plane.at(np.array([[300, 5000], [300, -5000]]))
    assert far_off[0] == pytest.approx((40 + 0.1 * 300) * REACH)
    assert far_off[1] == pytest.approx((40 + 0.1 * 100) / REACH)


def test_without_a_plane_the_median_is_typical() -> None:
    found = _finds([(0, 0, 20), (10, 0, 40), (20, 0, 40), (30, 0, 90)])
    assert relative_sides(found, None).tolist() == pytest.approx([0.5, 1.0, 1.0, 2.25])


@settings(max_examples=60, deadline=None)
@given(
    a=st.floats(10, 60),
    b=st.floats(-0.05, 0.05),
    c=st.floats(-0.05, 0.08),
    points=st.lists(
        st.tuples(st.floats(0, 1000), st.floats(0, 1000)), min_size=4, max_size=20, unique=True
    ),
)
def test_dice_on_a_plane_are_all_the_size_it_expects(
    a: float, b: float, c: float, points: list[tuple[float, float]]
) -> None:
    """Dice whose sides lie exactly on a plane are all judged the expected size, wherever
    a plane is fitted (none is fitted on dice that spread too little or differ too little)."""
    rows = [(x, y, a + b * x + c * y) for x, y in points]
    assume(min(r[2] for r in rows) >= 5)  # no die is that small
    found = _finds(rows)
    plane = fit_sizes(found)
    if plane is not None:
        assert relative_sides(found, plane) == pytest.approx(1.0, rel=1e-3)
        assert plane.coef == pytest.approx((a, b, c), rel=1e-3, abs=1e-3)


def _slanted(xy: Sequence[tuple[float, float]]) -> list[tuple[float, float, float]]:
    """Dice at these places on a table seen at a slant: side 30 + 0.02 x + 0.06 y."""
    return [(x, y, 30 + 0.02 * x + 0.06 * y) for x, y in xy]


SPREAD = [(100, 100), (900, 150), (500, 500), (150, 850), (850, 900), (400, 700)]


def test_too_few_surely_read_dice_are_not_fitted_on_alone() -> None:
    """Three dice read surely are fewer than MIN_DICE: the fit takes all the finds, as
    without `sure`, rather than giving up on the slant."""
    found = _finds(_slanted(SPREAD))
    plane = fit_sizes(found, sure=np.array([True] * 3 + [False] * 3))
    assert plane is not None
    assert plane.coef == pytest.approx((30, 0.02, 0.06), rel=1e-3, abs=1e-4)


def test_a_stray_within_the_band_is_left_out_when_fitted_again() -> None:
    """A find 1.8 times the side expected at its place among twelve dice is within the
    first fit's band of the median (0.6-2.0), so it tilts that fit; fitted again on the finds within
    FIT_TOLERANCE, the plane is the dice's own."""
    rng = np.random.default_rng(3)
    rows = _slanted([tuple(p) for p in rng.uniform(0, 1000, (12, 2))])
    rows.append((500.0, 150.0, 1.8 * (30 + 0.02 * 500 + 0.06 * 150)))
    plane = fit_sizes(_finds(rows))
    assert plane is not None
    assert plane.coef == pytest.approx((30, 0.02, 0.06), rel=1e-3, abs=1e-4)


def test_chair_feet_outside_the_band_do_not_tilt_the_first_fit() -> None:
    """Three chair feet ten times a die's side are left out of the first fit by the band
    around the median side, so they cannot drag the plane away from the dice."""
    rows = _slanted(SPREAD) + [(200.0, 300.0, 500.0), (700.0, 300.0, 520.0), (450, 600, 480.0)]
    plane = fit_sizes(_finds(rows))
    assert plane is not None
    assert plane.coef == pytest.approx((30, 0.02, 0.06), rel=1e-3, abs=1e-4)


def test_a_speck_far_off_does_not_stretch_what_the_plane_believes() -> None:
    """The plane is believed REACH past the finds within `band` of it: a speck far down
    the table, a twentieth of the side expected there, does not widen that range."""
    rows = [(x, y, 40 + 0.1 * y) for x in (100, 300, 500) for y in (100, 300)]
    plane = fit_sizes(_finds([*rows, (300.0, 3000.0, 17.0)]))
    assert plane is not None
    assert (plane.low, plane.high) == pytest.approx((50 / REACH, 70 * REACH))


def test_the_slant_is_judged_on_the_finds_the_plane_fits() -> None:
    """Dice 40 to 48 px (under MIN_SLANT apart) are a photo from above, even with a find
    within the band but off the plane far down the table, where the plane expects 80."""
    rows = [(x, y, 40 + 0.02 * y) for x in (100, 500, 900) for y in (0, 200, 400)]
    plane = fit_sizes(_finds([*rows, (500.0, 2000.0, 1.8 * 80)]))
    assert plane is None
