"""scripts/stress_vision.py's changes to a photo, checked pixel by pixel: the README's
Known limits figures come from them, and tests read the sample photos so changed."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

RED, GREEN, BLUE = (0, 0, 255), (0, 255, 0), (255, 0, 0)  # (BGR)
YELLOW, GREY = (0, 255, 255), (128, 128, 128)


@pytest.mark.parametrize(
    "hue, before, after",
    [
        (120, [RED, BLUE, GREY], [GREEN, RED, GREY]),
        (60, [RED, GREEN], [YELLOW, (255, 255, 0)]),  # red to yellow, green to cyan
        (-120, [RED, GREEN], [BLUE, RED]),
        (360, [RED, GREY], [RED, GREY]),
    ],
)
def test_repainted_turns_every_hue_by_its_angle(
    stress: ModuleType,
    hue: int,
    before: list[tuple[int, int, int]],
    after: list[tuple[int, int, int]],
) -> None:
    image = np.array([before], np.uint8)
    np.testing.assert_array_equal(stress.repainted(image, hue=hue), np.array([after], np.uint8))


def test_repainted_keeps_brightness_and_turns_back(stress: ModuleType) -> None:
    image = np.random.default_rng(1).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    nudged = stress.repainted(image, hue=0.1).astype(int)
    assert np.abs(nudged - image).max() <= 1  # a tenth of a degree: nothing to see
    turned = image
    for _ in range(3):
        turned = stress.repainted(turned, hue=120)
    assert np.abs(turned.astype(int) - image).max() <= 2  # round the wheel: back again
    once = stress.repainted(image, hue=90).astype(int)
    np.testing.assert_allclose(once.max(axis=2), image.max(axis=2), atol=1)  # HSV's value


def test_repainted_makes_the_negative_of_the_turned_colours(stress: ModuleType) -> None:
    image = np.array([[RED, GREY]], np.uint8)
    np.testing.assert_array_equal(stress.repainted(image, invert=True), 255 - image)
    turned_then_negative = stress.repainted(image, hue=120, invert=True)
    np.testing.assert_array_equal(turned_then_negative, 255 - np.array([[GREEN, GREY]], np.uint8))
