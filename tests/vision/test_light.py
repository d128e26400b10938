"""vision/light.py: a dark frame scaled up as a whole and a shadow over part of a lit
frame lifted, each with the noise the scaling scaled up smoothed, and nothing else
touched."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import light


def test_frames_up_to_the_dark_level_are_scaled() -> None:
    """`DARK_LEVEL` is 96 since session 57 (64 before): a frame whose brightest pixels are
    at 80 is scaled (to 160), one at 100 is not."""
    assert light.brightening(np.full((20, 20, 3), 80, np.uint8)) == 2.0
    assert light.brightening(np.full((20, 20, 3), 100, np.uint8)) == 1.0


def test_a_dark_table_with_pale_dice_is_no_dark_frame() -> None:
    """Six pale faces of 30 px on a table at 40 cover under 1% of a 1280x720 frame: its
    brightest pixels (`top_level`) are the table's, but its brightest patch is a face, so
    the frame is lit and not scaled. Glints of 3 px, a sample wide at most, are no patch:
    a dark frame with them is still scaled."""
    frame = np.full((720, 1280, 3), 40, np.uint8)
    for k in range(6):
        frame[300 : 300 + 30, 100 + 180 * k : 130 + 180 * k] = 210
    sample = light.brightest_sample(frame)
    assert light.top_level(sample) < light.DARK_LEVEL
    assert light.patch_level(sample) == 210
    assert light.brightening(frame) == 1.0
    glints = np.full((720, 1280, 3), 40, np.uint8)
    for y in range(20, 700, 37):
        for x in range(20, 1260, 41):
            glints[y : y + 3, x : x + 3] = 255
    assert light.patch_level(light.brightest_sample(glints)) < light.DARK_LEVEL
    assert light.brightening(glints) == 4.0
    for y, x in ((0, 0), (0, 1277), (717, 0), (717, 1277)):  # (nothing bright beyond it)
        glints[y : y + 3, x : x + 3] = 255
    assert light.brightening(glints) == 4.0


def test_brightened_lifts_only_very_dark_images() -> None:
    lit = np.full((100, 100, 3), 90, np.uint8)
    lit[:10, :50] = 200  # 5% of the image bright: its 99th percentile is 200
    assert light.brightened(lit) is lit
    dark = (lit // 4).astype(np.uint8)  # brightest 50, the rest 22
    lifted = light.brightened(dark)
    assert lifted.dtype == np.uint8
    assert lifted[5, 5, 0] == 160  # brightest scaled to `aim`: a factor 3.2
    assert lifted[90, 90, 0] == round(22 * 3.2)
    very = (lit // 20).astype(np.uint8)  # brightest 10: the factor stops at 4
    assert light.brightened(very)[5, 5, 0] == 40


def test_brightened_smooths_the_noise_it_scaled_up() -> None:
    """Scaling a dark frame scales its sensor noise too: `brightened` smooths that out of
    the table and the face, and keeps a pip of a die of 34 px as it is (a blur that took
    the noise out would take half its contrast)."""
    rng = np.random.default_rng(0)
    clean = np.full((200, 200, 3), 30.0)
    clean[60:140, 60:140] = 15.0  # a dark die's face
    cv2.circle(clean, (100, 100), 3, (50.0, 50.0, 50.0), -1)  # its pip
    dark = np.clip(clean + rng.normal(0, 3, clean.shape), 0, 255).astype(np.uint8)
    gain = light.brightening(dark)
    assert gain > 2.5
    lifted = light.brightened(dark).astype(np.float64)
    table, face, pip = lifted[5:50, 5:50], lifted[70:85, 70:85], lifted[99:102, 99:102]
    assert table.std() < 0.5 * 3 * gain  # (scaled alone: the gain times 3)
    assert face.std() < 0.5 * 3 * gain
    assert pip.mean() - face.mean() > 0.9 * 35 * gain


def _half_in_shadow(
    kept: float, lit: int = 200, size_wh: tuple[int, int] = (1280, 720)
) -> np.ndarray:
    """A plain frame at `lit` on its left and `kept` of that on its right."""
    w, h = size_wh
    img = np.full((h, w, 3), lit, np.float32)
    img[:, w // 2 :] *= kept
    return img


def test_shadow_gains_only_where_a_lit_frame_has_a_shadow() -> None:
    """A part is lifted where its local top is under `DARK_LEVEL` and under
    `SHADOW_SHARE` (half) of the frame's: by up to 4, towards 160."""
    assert light.SHADOW_SHARE == 0.5
    even = np.full((720, 1280, 3), 200, np.uint8)
    assert light.shadow_gains(even) is None
    assert light.shadow_gains(even // 4) is None  # dark all over: `brightened`'s
    assert light.shadow_gains(_half_in_shadow(0.55).astype(np.uint8)) is None  # 110: lit
    for kept, gain in ((0.45, 160 / 90), (0.2, 4.0), (0.05, 4.0)):
        gains = light.shadow_gains(_half_in_shadow(kept).astype(np.uint8))
        assert gains is not None
        assert gains[:, 0] == pytest.approx(1.0, abs=1e-3)  # the lit side as it was
        assert gains[:, -1] == pytest.approx(gain, rel=0.01), kept  # the far shadow
        assert gains.min() >= 1.0 - 1e-3 and gains.max() <= 4.0 + 1e-3


def test_shadows_lifted_lifts_and_smooths_the_shadow_only() -> None:
    """The lit side is left as it was, pixel for pixel; the shadow is lifted by its lift
    (over 3: its brightest, noise and all, towards 160) and the noise that scaled up is
    smoothed (sensor noise of 3, lifted by 3, would be 9); the lift at each pixel comes
    back with the image."""
    rng = np.random.default_rng(0)
    noisy = _half_in_shadow(0.2) + rng.normal(0, 3, (720, 1280, 3))
    img = np.clip(noisy, 0, 255).astype(np.uint8)
    lifted, lift = light.shadows_lifted(img)
    assert lift is not None and lift.shape == (720, 1280)
    np.testing.assert_array_equal(lifted[:, :640], img[:, :640])  # the lit half
    assert lift[:, :640] == pytest.approx(1.0, abs=1e-3)
    far, far_lift = lifted[:, -200:].astype(float), float(lift[:, -200:].mean())
    assert 3.0 < far_lift <= 4.0
    assert far.mean() == pytest.approx(40 * far_lift, rel=0.03)
    assert far.std() < 5
    unlifted, none = light.shadows_lifted(np.full((720, 1280, 3), 200, np.uint8))
    assert none is None and (unlifted == 200).all()


def test_a_dark_face_is_lifted_along_a_tone_curve() -> None:
    """A face at level 20 (its middle, pips and all, as the median of the brightest
    channel) is lifted to about `FACE_AIM` of white; the curve keeps the levels' order, black
    black and white white. A face at `DARK_FACE` or over is not lifted, nor is a red face
    (its red channel is lit)."""
    crop = np.full((44, 44, 3), 20, np.uint8)
    crop[20:24, 20:24] = 40  # a pip
    crop[0, 0], crop[0, 1] = 0, 255  # (the table at the corner)
    lifted = light.dark_face_lifted(crop)
    assert lifted is not None and lifted.shape == crop.shape and lifted.dtype == np.uint8
    assert light.face_level(lifted) == pytest.approx(light.FACE_AIM * 255, abs=2)
    assert lifted[22, 22, 0] > lifted[10, 10, 0] > 20  # the pip still stands out, brighter
    assert lifted[0, 0, 0] == 0 and lifted[0, 1, 0] == 255
    assert light.dark_face_lifted(np.full((44, 44, 3), int(light.DARK_FACE), np.uint8)) is None
    red = np.zeros((44, 44, 3), np.uint8)
    red[..., 2] = 180
    assert light.face_level(red) == 180 and light.dark_face_lifted(red) is None
    grey = np.full((44, 44), 10, np.uint8)  # (one channel)
    assert light.face_level(grey) == 10
    deep = np.full((44, 44, 3), 3, np.uint8)  # (its gamma at the floor, 0.3: lifted less)
    lifted_deep = light.dark_face_lifted(deep)
    assert lifted_deep is not None and lifted_deep[22, 22, 0] == int(255 * (3 / 255) ** 0.3)


def test_a_face_is_as_dark_as_most_of_its_middle() -> None:
    """A dark face with six bright pips is dark (its median, not its mean: the pips lift
    the mean over `DARK_FACE`), and the table around the face does not count."""
    crop = np.full((44, 44, 3), 240, np.uint8)  # (the table)
    crop[8:36, 8:36] = 20  # the face
    for y in (13, 20, 27):
        for x in (13, 27):
            crop[y : y + 5, x : x + 5] = 250  # a pip
    middle = crop[8:36, 8:36]
    assert middle.mean() >= light.DARK_FACE > light.face_level(crop) == 20
    assert light.dark_face_lifted(crop) is not None
    assert light.dark_face_lifted(crop.astype(np.float32)) is None  # (uint8 crops only)
