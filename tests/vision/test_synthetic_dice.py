"""scripts/synthetic_dice.py's colour changes of the networks' training pictures."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from .conftest import _script


@pytest.fixture(scope="module")
def synthetic() -> ModuleType:
    return _script("synthetic_dice")


def test_cast_dims_blue_or_red_and_green_by_half_as_much(synthetic: ModuleType) -> None:
    grey = np.full((4, 4, 3), 200.0, np.float32)
    warm = 0
    for seed in range(300):
        b, g, r = synthetic.cast(np.random.default_rng(seed), grey)[0, 0]
        assert g == pytest.approx((b + r) / 2, abs=1e-3), seed
        assert max(b, r) == pytest.approx(200.0), seed  # one end kept, the other dimmed
        assert min(b, r) >= 200 * 0.4 - 1e-3, seed  # by 0.6 at most
        warm += bool(b < r)
    assert 0.6 < warm / 300 < 0.8  # seven in ten warm


def test_photometric_casts_the_share_asked(synthetic: ModuleType) -> None:
    """A grey picture stays grey, give or take its noise, unless it is cast."""
    grey = np.full((32, 32, 3), 128, np.uint8)

    def spread(share: float, seed: int) -> float:
        out = synthetic.photometric(np.random.default_rng(seed), grey, cast_share=share)
        means = out.reshape(-1, 3).astype(float).mean(axis=0)
        return float(means.max() - means.min())

    assert max(spread(0.0, seed) for seed in range(40)) < 4
    cast = [spread(1.0, seed) > 8 for seed in range(40)]
    assert sum(cast) > 30  # (a cast of nearly nothing, or one a dark picture hides, may pass)


class _NoLuck:
    """A stand-in random generator that takes no chance (every `random()` draw 0.99) and
    counts its `random()` draws."""

    def __init__(self) -> None:
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        return 0.99

    def uniform(self, low: float, high: float, size: object = None) -> float:
        return (low + high) / 2

    def normal(self, loc: float, scale: float, size: tuple[int, ...]) -> np.ndarray:
        return np.full(size, loc)


def test_photometric_draws_nothing_for_a_cast_at_share_0(synthetic: ModuleType) -> None:
    """At share 0 the random stream is the shipped recipe's: its five chances (channels,
    hue, negative, blur, JPEG) and no draw for the cast, where any share above 0 spends
    one on whether to cast."""
    picture = np.full((16, 16, 3), 90, np.uint8)
    draws = []
    for share in (0.0, 1e-12):
        rng = _NoLuck()
        synthetic.photometric(rng, picture, cast_share=share)
        draws.append(rng.draws)
    assert draws == [5, 6]


def test_smeared_spreads_a_point_as_a_streak_or_a_disc_and_keeps_its_light(
    synthetic: ModuleType,
) -> None:
    """A point of light, smeared for dice 40 px across: a streak 3-14 px long one way (a
    pixel more for its smooth ends), or a disc 4-10 px across (its radius rounded),
    round; either way as much light as before."""
    point = np.zeros((61, 61), np.float32)
    point[30, 30] = 1000.0
    kinds = set()
    for seed in range(30):
        out = synthetic.smeared(np.random.default_rng(seed), point, 40.0)
        assert out.sum() == pytest.approx(1000.0, rel=1e-3)
        ys, xs = np.nonzero(out > 1e-3)
        spread = np.cov(np.stack([xs, ys]).astype(float), aweights=out[ys, xs])
        long, short = np.sqrt(np.linalg.eigvalsh(spread))[::-1]
        if long > 2.5 * short:
            kinds.add("streak")
            assert 2 <= long * np.sqrt(12) <= 16  # (a line of length L: sd L / sqrt 12)
        else:
            kinds.add("disc")
            assert short > 0.4 and long * 4 <= 11  # (a disc of radius r: sd r / 2)
    assert kinds == {"streak", "disc"}
