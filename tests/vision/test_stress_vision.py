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


@pytest.mark.parametrize("kind", ["dots", "check", "cloth", "print", "wood", "felt"])
def test_on_table_keeps_the_dice_and_lays_a_cloth_around_them(
    stress: ModuleType, kind: str
) -> None:
    """`--table`: each labelled die's box is the photo's own, pixel for pixel; the table
    far from the dice is the drawn cloth, not the photo's plain top."""
    rng = np.random.default_rng(3)
    image = np.full((240, 320, 3), 200, np.uint8)
    image[100:140, 60:100] = rng.integers(0, 256, (40, 40, 3))  # a die of 40 px
    image[40:80, 220:260] = rng.integers(0, 256, (40, 40, 3))
    entry = {
        "dice": [{"value": 3, "box": [60, 100, 40, 40]}, {"value": 5, "box": [220, 40, 40, 40]}]
    }
    out = stress.on_table(image, entry, kind, np.random.default_rng(0))
    assert out.shape == image.shape and out.dtype == np.uint8
    for x, y, w, h in (d["box"] for d in entry["dice"]):
        box = (slice(y, y + h), slice(x, x + w))
        assert np.abs(out[box].astype(int) - image[box]).max() <= 1
    far = out[180:, 150:]  # two dice sides and more from both
    assert np.abs(far.astype(int) - 200).max() > 30  # a pattern, not the plain top
    again = stress.on_table(image, entry, kind, np.random.default_rng(0))
    np.testing.assert_array_equal(out, again)  # a seed gives the same cloth


def test_polka_dots_are_two_colours_on_a_grid(stress: ModuleType) -> None:
    """`dots`: light dots on a dark cloth or dark on light, a pip's to a third of a die's
    size; most of the cloth is its ground."""
    cloth = stress.drawn_table("dots", 200, 300, 40.0, np.random.default_rng(1))
    assert cloth.shape == (200, 300, 3)
    grey = cloth.mean(axis=2)
    ground = np.median(grey)
    spots = np.abs(grey - ground) > 60
    assert 0.02 < spots.mean() < 0.4


def test_no_such_table(stress: ModuleType) -> None:
    with pytest.raises(ValueError, match="no table 'lace'"):
        stress.drawn_table("lace", 10, 10, 4.0, np.random.default_rng(0))
