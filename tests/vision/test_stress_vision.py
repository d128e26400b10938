"""scripts/stress_vision.py's changes to a photo, checked pixel by pixel: docs/vision.md's
Known limits figures come from them, and tests read the sample photos so changed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

RED, GREEN, BLUE = (0, 0, 255), (0, 255, 0), (255, 0, 0)  # (BGR; green is no drawn cloth's)
TABLES = ["dots", "check", "cloth", "print", "wood", "felt"]
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


def test_warmed_dims_blue_most_and_green_by_half(stress: ModuleType) -> None:
    image = np.array([[(200, 200, 200), (100, 40, 250)]], np.uint8)
    np.testing.assert_array_equal(
        stress.warmed(image, 0.5), np.array([[(100, 150, 200), (50, 30, 250)]], np.uint8)
    )
    np.testing.assert_array_equal(stress.warmed(image, 0.0), image)  # no cast: as it was


def test_shadowed_darkens_one_side_of_a_line_through_a_die(stress: ModuleType) -> None:
    """Light is kept in full on one side of a straight edge and at `light` on the other,
    the edge running through one of the dice, its fall from 10% to 90% `edge` die sides
    wide (the photo's dice are 48 pixels)."""
    image, entry = _photo()
    image[:] = 200
    for seed in range(8):
        for edge in (0.3, 1.0):
            out = stress.shadowed(image, entry, 0.25, edge, np.random.default_rng(seed))
            assert (out[..., 0] == out[..., 1]).all() and (out[..., 1] == out[..., 2]).all()
            kept = out[..., 0] / 200.0
            assert kept.max() > 0.99 and kept.min() < 0.26, seed  # both sides in the frame
            boxes = [d["box"] for d in entry["dice"]]
            spans = [np.ptp(kept[y : y + h, x : x + w]) for x, y, w, h in boxes]
            assert max(spans) > 0.3, seed  # the edge crosses a die
            fall = (1.0 - kept) / 0.75
            gy, gx = np.gradient(fall)
            angle = np.arctan2(gy.sum(), gx.sum())  # the way the light falls
            ys, xs = np.mgrid[0 : kept.shape[0], 0 : kept.shape[1]]
            along = xs * np.cos(angle) + ys * np.sin(angle)
            # (the fall is a step of 1/200 a grey level: the levels 0.1 and 0.9 lie within)
            low = np.median(along[np.abs(fall - 0.1) < 0.02])
            high = np.median(along[np.abs(fall - 0.9) < 0.02])
            assert high - low == pytest.approx(edge * 48, rel=0.1, abs=1.0), (seed, edge)


@pytest.mark.parametrize("kind", TABLES)
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
    for x, y, w, h in ((60, 100, 40, 40), (220, 40, 40, 40)):
        box = (slice(y, y + h), slice(x, x + w))
        assert np.abs(out[box].astype(int) - image[box]).max() <= 1
    far = out[180:, 150:]  # two dice sides and more from both
    assert np.abs(far.astype(int) - 200).max() > 30  # a pattern, not the plain top
    again = stress.on_table(image, entry, kind, np.random.default_rng(0))
    np.testing.assert_array_equal(out, again)  # a seed gives the same cloth


def test_no_such_table(stress: ModuleType) -> None:
    with pytest.raises(ValueError, match="no table 'lace'"):
        stress.drawn_table("lace", 10, 10, 4.0, np.random.default_rng(0))


def _photo() -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng(3)
    image = np.full((240, 320, 3), GREEN, np.uint8)
    image[100:148, 60:108] = rng.integers(0, 256, (48, 48, 3))
    image[40:88, 200:248] = rng.integers(0, 256, (48, 48, 3))
    entry = {
        "dice": [{"value": 3, "box": [60, 100, 48, 48]}, {"value": 5, "box": [200, 40, 48, 48]}]
    }
    return image, entry


@pytest.mark.parametrize("kind", TABLES)
def test_on_table_keeps_a_rim_of_a_sixth_and_no_more(stress: ModuleType, kind: str) -> None:
    image, entry = _photo()
    out = stress.on_table(image, entry, kind, np.random.default_rng(0)).astype(int)
    for x, y, w, _h in (d["box"] for d in entry["dice"]):
        near = out[y - 3 : y, x : x + w]  # within a sixth (8 px) above the box: the photo's
        assert np.abs(near - GREEN).max() <= 6
        far = out[y - 24 : y - 14, x : x + w]  # a third to half a side above: the cloth's
        assert np.abs(far - GREEN).mean() > 30


@pytest.mark.parametrize("kind", ["dots", "check", "cloth", "print"])
def test_on_table_lays_a_pattern_not_a_plain_top(stress: ModuleType, kind: str) -> None:
    image, entry = _photo()
    out = stress.on_table(image, entry, kind, np.random.default_rng(0))
    assert out[180:, 150:].reshape(-1, 3).std(axis=0).max() > 10


@pytest.mark.parametrize("kind", TABLES)
def test_on_table_lights_the_cloth_as_the_photo_was(stress: ModuleType, kind: str) -> None:
    image = np.full((240, 480, 3), 200, np.uint8)
    image[:, :160] = 60  # a dark third
    out = stress.on_table(image, {"dice": []}, kind, np.random.default_rng(0)).astype(float)
    assert out[:, :100].mean() < 0.8 * out[:, 220:].mean()


def test_on_table_draws_the_cloth_from_the_rng_given(stress: ModuleType) -> None:
    image, entry = _photo()
    one = stress.on_table(image, entry, "dots", np.random.default_rng(0))
    other = stress.on_table(image, entry, "dots", np.random.default_rng(1))
    assert (one != other).any()


def test_gingham_is_three_tones_in_squares(stress: ModuleType) -> None:
    cloth = stress.drawn_table("check", 200, 300, 40.0, np.random.default_rng(1))
    tones = np.unique(cloth.reshape(-1, 3), axis=0)
    assert len(tones) == 3  # white, one band, two bands crossed
    grey = cloth.mean(axis=2)
    assert (grey[0] != grey[0, 0]).any() and (grey[:, 0] != grey[0, 0]).any()  # both ways


def test_polka_dots_spacing_and_size(stress: ModuleType) -> None:
    """Dots 0.6-1.6 dice apart, radius a tenth to three tenths of that (so 0.06-0.48 of a
    die), light on dark and dark on light among the seeds."""
    die, polarities = 40.0, set()
    for seed in range(12):
        cloth = stress.drawn_table("dots", 400, 600, die, np.random.default_rng(seed))
        grey = cloth.mean(axis=2)
        ground = np.median(grey)
        spots = (np.abs(grey - ground) > 40).astype(np.uint8)
        polarities.add(bool(grey[spots > 0].mean() > ground))
        n, _, stats, centres = cv2.connectedComponentsWithStats(spots)
        inner = (stats[1:, 0] > 0) & (stats[1:, 1] > 0)
        inner &= stats[1:, 0] + stats[1:, 2] < 600
        inner &= stats[1:, 1] + stats[1:, 3] < 400
        c = centres[1:][inner]
        r = np.sqrt(np.median(stats[1:, 4][inner]) / np.pi)
        d = np.hypot(*(c[:, None] - c[None]).transpose(2, 0, 1))
        np.fill_diagonal(d, np.inf)
        step = np.median(d.min(axis=1))
        assert 0.6 * die - 2 <= step <= 1.6 * die + 2, seed
        assert 0.1 * step - 1.5 <= r <= 0.3 * step + 1.5, seed
        density = len(c) / ((600 - 2 * step) * (400 - 2 * step))  # (inner dots, roughly)
        assert 0.6 < density * 0.87 * step**2 < 1.6, seed  # a hexagonal grid
    assert polarities == {True, False}


def test_main_reads_the_sample_photos_on_a_table(
    stress: ModuleType, samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--table` reaches the photos read: the sample rolls on polka dots are read as on
    their own table (every die found, none of the dots), and the line names the table."""
    assert stress.main([str(samples_dir), "--table", "dots", "--images", "3"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["table"] == "dots" and figures["images"] == 3
    assert figures["precision"] == 1.0 and figures["recall"] == 1.0
    # (the player's side too: a roll read right is right once asked)
    assert figures["roll_accuracy_once_asked"] >= figures["roll_accuracy"]
    assert {"dice_asked", "dice_wrong_unasked"} <= figures.keys()


def test_exposed_scales_levels_and_clips_the_brightest(stress: ModuleType) -> None:
    image = np.array([[(0, 100, 200), (10, 150, 255)]], np.uint8)
    np.testing.assert_array_equal(
        stress.exposed(image, 1.3), np.array([[(0, 130, 255), (13, 195, 255)]], np.uint8)
    )
    np.testing.assert_array_equal(stress.exposed(image, 0.5), [[(0, 50, 100), (5, 75, 128)]])
    np.testing.assert_array_equal(stress.exposed(image, 1.0), image)


def test_toned_bends_mid_tones_and_keeps_black_and_white(stress: ModuleType) -> None:
    image = np.array([[(0, 64, 128), (191, 255, 255)]], np.uint8)
    darker, lighter = stress.toned(image, 2.0), stress.toned(image, 0.5)
    np.testing.assert_array_equal(darker, [[(0, 16, 64), (143, 255, 255)]])  # 255 (v/255)^2
    np.testing.assert_array_equal(lighter, [[(0, 128, 181), (221, 255, 255)]])
    np.testing.assert_array_equal(stress.toned(image, 1.0), image)


PhotosRead = Callable[[list[str]], tuple[list[np.ndarray], list[np.ndarray], dict]]


@pytest.fixture
def photos_read(
    stress: ModuleType,
    samples_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> PhotosRead:
    """The stress tool run with a change on the first two sample photos: the photos the
    reader was given, the same photos as stored, and the line of figures printed."""
    import vision
    from vision.evaluate import iter_dataset

    def run(change: list[str]) -> tuple[list[np.ndarray], list[np.ndarray], dict]:
        seen: list[np.ndarray] = []
        read = vision.read

        def noted(image: np.ndarray) -> object:
            seen.append(image)
            return read(image)

        monkeypatch.setattr(stress.vision, "read", noted)
        assert stress.main([str(samples_dir), "--images", "2", *change]) == 0
        figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        entries = iter_dataset(samples_dir)[1][:2]
        return seen, [vision.load_image(samples_dir / e["file"]) for e in entries], figures

    return run


@pytest.mark.parametrize("change", [["--exposure", "1.3"], ["--gamma", "1.5"]])
def test_main_exposes_and_tones_the_photos_read(photos_read: PhotosRead, change: list[str]) -> None:
    """`--exposure` and `--gamma` reach the photos the reader is given, pixel for pixel,
    and the line of figures names them."""
    seen, plain, figures = photos_read(change)
    value = float(change[1])
    assert figures[change[0][2:]] == value
    for image, photo in zip(seen, plain, strict=True):
        if change[0] == "--exposure":
            expected = np.clip(photo * np.float32(value) + 0.5, 0, 255).astype(np.uint8)
        else:
            expected = np.clip(np.rint(255 * (photo / 255.0) ** value), 0, 255).astype(np.uint8)
        np.testing.assert_array_equal(image, expected)


@pytest.mark.parametrize("change", [["--warm", "0.6"], ["--shadow", "0.3"]])
def test_main_casts_and_shadows_the_photos_read(photos_read: PhotosRead, change: list[str]) -> None:
    """`--warm` and `--shadow` reach the photos the reader is given, and the line of
    figures names them."""
    seen, plain, figures = photos_read(change)
    assert figures["warm" if change[0] == "--warm" else "shadow"] == float(change[1])
    means = np.array([image.reshape(-1, 3).mean(axis=0) for image in seen])
    before = np.array([image.reshape(-1, 3).mean(axis=0) for image in plain])
    if change[0] == "--warm":  # blue down by 0.6, green by 0.3, red as it was
        np.testing.assert_allclose(means / before, [[0.4, 0.7, 1.0]] * 2, atol=0.01)
    else:  # some of each photo in the shadow, none of it brighter
        assert (means < before - 5).all() and (means > 0.3 * before).all()
        assert all((image <= photo).all() for image, photo in zip(seen, plain, strict=True))


def test_light_changes_out_of_range(stress: ModuleType, samples_dir: Path) -> None:
    for bad in (
        ["--warm", "1"],
        ["--warm", "-0.1"],
        ["--shadow", "1.5"],
        ["--shadow", "0.5", "--shadow-edge", "-1"],
        ["--shadow-edge", "1"],  # (no shadow to give an edge)
        ["--shadow-edge", "0.3"],  # (not even the default's width)
        ["--exposure", "0"],
        ["--exposure", "5"],
        ["--gamma", "0.1"],
        ["--gamma", "6"],
    ):
        with pytest.raises(SystemExit) as exc:
            stress.main([str(samples_dir), *bad])
        assert exc.value.code == 2, bad


def test_no_brighten_reads_dark_photos_unscaled(
    stress: ModuleType,
    samples_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--no-brighten` reaches the reader: the dark photos are read as they are, neither
    scaled nor smoothed, where without it they are scaled (it once replaced a function
    `read` no longer called, and changed nothing), and no shadow is lifted."""
    from vision import reader

    gains: list[float] = []
    lifted = reader.lifted

    def noted(image: np.ndarray, gain: float) -> np.ndarray:
        gains.append(gain)
        return lifted(image, gain)

    monkeypatch.setattr(reader, "brightening", reader.brightening)  # (restored after)
    monkeypatch.setattr(reader, "shadows_lifted", reader.shadows_lifted)
    monkeypatch.setattr(reader, "lifted", noted)
    shadowed = np.full((240, 320, 3), 200, np.uint8)
    shadowed[:, 160:] = 20
    assert reader.shadows_lifted(shadowed)[1] is not None
    args = [str(samples_dir), "--dim", "0.2", "--images", "2"]
    assert stress.main(args) == 0
    assert gains and min(gains) > 1.0
    gains.clear()
    assert stress.main([*args, "--no-brighten"]) == 0
    assert gains == []  # (`lifted` scales only a frame found dark)
    assert reader.shadows_lifted(shadowed)[1] is None
