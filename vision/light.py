"""Dark frames and shadows lifted towards the light the networks learnt from.

The finder and the readers were trained on dice in ordinary light. A dark room, a webcam
that does not adjust, or the phone's or a hand's shadow over part of the roll leaves the
dice too dark for them: a very dark frame is scaled up as a whole (`brightening`, then
`lifted`; `brightened` does both), the deep parts of a shadow across a lit frame are lifted
(`shadows_lifted`), and in both the sensor noise the scaling scaled up is smoothed out
(`lifted`). `reader.read` does this first; `roll.RollLooks.gains_at` then holds its unread finds
to the gain of the part they lie in, since the readers take lifted noise for dice. A dark die
in a lit frame is lifted alone, for the readers' vote on it (`dark_face_lifted`). Pure
functions on BGR uint8 arrays.
"""

from __future__ import annotations

import cv2
import numpy as np

# A frame whose brightest pixels (99th percentile) and brightest patch (`patch_level`) stay
# under this many grey levels is dark: `read` scales it up (and smooths its noise,
# `lifted`). It was 64 until session 57: scaling a frame also scaled its noise, and the
# byler tray's grey buttons passed for dice at 35% of the light. Smoothed, frames up to 96
# read better scaled (stress runs at 30-40% of the light, noise 0-6: `fudw_tray` 15 -> 60%,
# 40 -> 70% and 30 -> 60% of rolls at 30% with noise 6, 35% with 4 and with 1; `byler_d6`
# 2-8 points more on each of six runs); `skovy_catan` at twice its size as a JPEG lost 6 and
# 2 points at 35% and 40% (a dark sleeve's JPEG blotches read as a 5), and drawn rolls one
# of each 288 (of the few frames drawn in a dim light). At 128, `byler_d6` at half the light
# lost 20.
DARK_LEVEL = 96.0


def top_level(pixels: np.ndarray) -> float:
    """The level of an image's brightest pixels: the 99th percentile, so a few specular
    glints do not count."""
    flat = pixels.ravel()
    k = int(0.99 * (flat.size - 1))
    return float(np.partition(flat, k)[k])


def brightened(image: np.ndarray, *, dark: float = DARK_LEVEL, aim: float = 160.0) -> np.ndarray:
    """A very dark photo or frame lifted towards the light the networks learnt from: when
    its brightest pixels (99th percentile of a sparse sample, brightest channel) and its
    brightest patch (`patch_level`: a pale die's face on a dark table) are under `dark`,
    every pixel is scaled by up to 4 so the brightest pixels reach `aim` (`brightening`),
    and the sensor noise that scaling scaled too is smoothed out (`lifted`). Dev photos
    at an eighth of their light kept 38-43% of their dice without the scaling and 92-94% with
    it (before the smoothing). A dim photo above `dark` is left alone: scaling scales its
    noise too, and even smoothed that made round grey buttons pass as dice at half the
    light (`DARK_LEVEL`). Photos in normal light are returned unchanged. `image`: BGR."""
    return lifted(image, brightening(image, dark=dark, aim=aim))


def brightening(image: np.ndarray, *, dark: float = DARK_LEVEL, aim: float = 160.0) -> float:
    """The factor `brightened` scales `image` by: 1 unless it is dark, that is unless its
    brightest pixels or its brightest patch (`patch_level`) reach `dark`; else what brings
    its brightest pixels to `aim`."""
    sample = brightest_sample(image)
    top = top_level(sample)
    if max(top, patch_level(sample)) >= dark:
        return 1.0
    return min(4.0, aim / max(top, 1.0))


def patch_level(sample: np.ndarray) -> float:
    """The level of the brightest patch of a `brightest_sample`: the brightest level that
    fills two samples by two (a die's face, where a glint fills one sample or none).

    Pale dice on a dark table are lit, however dark the table: a few small dice cover
    under 1% of the frame, so the brightest pixels (`top_level`) are the table's, and a
    frame taken for dark on them alone was scaled by up to 4, the dice clipped to white
    with their pips (drawn rolls, 18 of 576 frames were scaled so, 13 of them with such
    dice; a pale set at 35 degrees on a table at level 48 lost four dice of six)."""
    # (beyond the sample nothing is bright: a glint in a corner fills no patch)
    square = np.ones((2, 2), np.uint8)
    fills = cv2.erode(sample, square, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return float(fills.max())


def brightest_sample(image: np.ndarray, *, longest: int | None = None) -> np.ndarray:
    """A sparse sample of `image` (every so many pixels: 64-127 on the short side, and at
    most `longest` on the long if given), each its brightest channel."""
    h, w = image.shape[:2]
    step = max(1, min(h, w) // 64)
    if longest is not None:
        step = max(step, -(-max(h, w) // longest))
    sample = cv2.resize(
        image, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_NEAREST
    )
    b, g, r = cv2.split(sample)  # (OpenCV here: NumPy's max over channels took 0.4 ms)
    return cv2.max(cv2.max(b, g), r)


# The smoothing of a dark frame's noise once it is scaled (`lifted`): OpenCV's bilateral
# filter, over a neighbourhood `SMOOTH_SPAN` pixels across (`SMOOTH_REACH` its spatial
# sigma), averages only pixels within about `SMOOTH_COLOUR` times the gain of each other:
# the scaling multiplied the sensor's noise by the gain, while a pip stands out of its face
# by far more. Measured in session 57 on stress runs of dark rooms (a fifth or an eighth of
# the light with noise 2-6, 30% with noise 6; frames scaled under 64, as then), rolls read
# right rose by 45 points in all over `byler_d6`'s four runs and 20 over `fudw_tray`'s (a
# fifth with noise 6: 28 -> 38% and 40 -> 55%), none lower; `byler_d6` at twice its size
# as a JPEG lost 5 (75 -> 70%): the tray's grey buttons, smooth, pass for dice read unsure
# more often. A colour range of 10 or 12.5 times the gain lost rolls on three of the eight
# runs (two to the buttons); 5 or 6 times (tried on three runs) did no better overall and
# lost as much or more at twice the size. A Gaussian blur (sessions 7, 52, 55) blurred the
# pips with the noise and lost more; non-local means took 230 ms on a 640 x 640 frame,
# this 7 ms.
SMOOTH_SPAN = 7
SMOOTH_REACH = 3.0
SMOOTH_COLOUR = 7.0


def lifted(image: np.ndarray, gain: float) -> np.ndarray:
    """`image` scaled by `gain` and, where it was (a dark frame), its noise smoothed out."""
    if gain == 1.0:
        return image
    return _smoothed(cv2.convertScaleAbs(image, alpha=gain), gain)


def _smoothed(scaled: np.ndarray, gain: float) -> np.ndarray:
    """`scaled` (an image scaled up by `gain`) with the noise the scaling scaled smoothed."""
    return cv2.bilateralFilter(scaled, SMOOTH_SPAN, SMOOTH_COLOUR * gain, SMOOTH_REACH)


# A shadow across part of a frame that is lit as a whole (the phone's or a hand's over the
# roll): where the brightest pixels within `SHADOW_REACH` of the long side stay under
# `DARK_LEVEL` and under `SHADOW_SHARE` of the frame's own brightest, that part is lifted as
# a dark frame is scaled (`shadow_gains`). Session 58, stress runs (`stress_vision.py
# --shadow L --shadow-edge E`, rolls read right), a shadow keeping a quarter of the light:
# `byler_d6` 78.3 -> 80.0% (edge 0.3 die sides) and 85.0 -> 91.7% (edge 1; with noise 4,
# 61.7 -> 66.7%), `fudw_tray` 25 -> 40% (edge 1; 25% either way at 0.3), `skovy_catan`
# 87.8 -> 89.8% and 98.0 -> 100%; one keeping 40%: `fudw_tray` 65 -> 60% (edge 1: IMG_4554
# loses a 1), the rest as before. No dev photo is lifted but one of `skovy_catan`'s (read
# as before), and the base, tables, big and close batteries read as before. Without the
# share, every part under 96 was lifted, and frames dim all over lost: `byler_d6` at half
# the light with noise 4, 76.7 -> 41.7% (its grey buttons, their noise scaled up, passed
# as dice), `fudw_tray` at 40% 60 -> 50%.
SHADOW_REACH = 0.08
SHADOW_SHARE = 0.5
# A gain this close to 1 is no lift (a blur's rounding, or the faint edge of one)
LIFTED = 1.001


def shadow_gains(
    image: np.ndarray, *, dark: float = DARK_LEVEL, aim: float = 160.0
) -> np.ndarray | None:
    """The gains that lift the shadowed parts of a frame lit as a whole, on a coarse map
    (float32, a sparse sample: 64-127 pixels on the short side, at most 256 on the long),
    or None where no part is in shadow. A part is in shadow where its local top (the
    brightest level within `SHADOW_REACH` of the long side, smoothed) is under `dark` and
    under `SHADOW_SHARE` of the frame's top; it is scaled so its local top reaches `aim`, by
    at most 4, as `brightened` scales a dark frame, and the gains are smoothed so no edge
    of their own is drawn (so a shadow's part near its lit edge is lifted less)."""
    grey = brightest_sample(image, longest=256)  # (a long strip: a short sample)
    reach = max(2, round(SHADOW_REACH * max(grey.shape)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    top = cv2.GaussianBlur(cv2.dilate(grey, disc).astype(np.float32), (0, 0), reach)
    dark = min(dark, SHADOW_SHARE * top_level(grey))
    if float(top.min()) >= dark:
        return None
    gains = np.where(top < dark, np.clip(aim / np.maximum(top, 1.0), 1.0, 4.0), 1.0)
    gains = cv2.GaussianBlur(gains.astype(np.float32), (0, 0), reach / 2)
    return gains if float(gains.max()) > LIFTED else None


def shadows_lifted(image: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """`image` (BGR) with its shadowed parts lifted (`shadow_gains`) and, where lifted,
    the noise the lift scaled up smoothed as a dark frame's is (`lifted`, its colour range
    that of the greatest gain), in full where the gain is 2 or more; and the gain at each
    pixel (float32), which the tests on unread finds take as a dark frame's
    (`roll.RollLooks.gains_at`). With no part in shadow, the same array and None."""
    gains = shadow_gains(image)
    if gains is None:
        return image, None
    h, w = image.shape[:2]
    full = cv2.resize(gains, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(image, cv2.merge([full, full, full]), dtype=cv2.CV_8U)
    mask = full > LIFTED
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not rows.size:  # (the coarse map's lift fell between the pixels: none)
        return image, None
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    part, part_gains = out[y0:y1, x0:x1], full[y0:y1, x0:x1]
    smooth = _smoothed(part, float(part_gains.max()))
    weight = np.clip(part_gains - 1.0, 0.0, 1.0)
    out[y0:y1, x0:x1] = cv2.blendLinear(smooth, part, weight, 1.0 - weight)
    return out, full


# A die whose face is dark in a frame that is not (a black or dark translucent die, or a
# photo whose tone curve sinks the dark levels: a phone exposing for a white table) gives
# the readers little to tell its pips by. Where its face's level (`face_level`) is under
# `DARK_FACE`, the vote on a die read unsure also reads its crop lifted by a tone curve
# that brings that level to `FACE_AIM` of white (`dark_face_lifted`; `model.vote`), its
# gamma at least 0.3 (a face under level 8 is lifted less: level 3 to 67).
# Session 85, stress runs (`stress_vision.py`; faces / rolls read right, `byler_d6`'s first
# 60 photos): under a tone curve of gamma 2.2, `byler_d6` 96.6 / 61.7 -> 98.8 / 78.3%
# (`fudw_tray` and `skovy_catan` as before, 50% and 98.0%). Of the batteries' 120 runs
# (`stress_battery.py`) five moved: under gamma 1.4 `byler_d6` 86.7 -> 88.3%, exposed 0.7
# times as long `fudw_tray` 75 -> 80%, and at twice the size through JPEG `byler_d6` grey
# 56.7 -> 53.3% (dice read unsure: once asked, 93.3% either way), its hue turned 90.0 ->
# 88.3% (a die lost), under glare 68.3 -> 70.0%. The dev photos as shot read as before (a
# few of their dice are so dark: 17 of 293 votes). In a frame scaled for the dark its noise
# was scaled too, and lifting it further lost a roll each at a fifth of the light with
# noise 6 (`byler_d6`, `fudw_tray`), and so did a frame with a shadow lifted (a quarter of
# the light kept, edge 1: `byler_d6` 91.7 -> 90.0%, `fudw_tray` 45 -> 40%): the looks at
# such a frame do not lift its dice again (`looks.Looks.lifts_dark_faces`). Before that
# gate, a threshold of 40 did worse at an eighth of the light; an aim of 0.28 or 0.45 read
# alike.
DARK_FACE = 60.0
FACE_AIM = 0.35
# The face in a reader's crop: the crop less this share of its side each way (the crop is
# 1.3 die sides across, so this is about the die's inner face)
_FACE_MARGIN = 0.2


def face_level(crop: np.ndarray) -> float:
    """The level of a die crop's face: the median of its middle's brightest channel, so a
    red or yellow face counts as lit."""
    k = crop.shape[0]
    m = int(k * _FACE_MARGIN)
    middle = crop[m : k - m, m : k - m]
    return float(np.median(middle.max(axis=2) if middle.ndim == 3 else middle))


def dark_face_lifted(crop: np.ndarray) -> np.ndarray | None:
    """A die crop (uint8) whose face is dark (`face_level` under `DARK_FACE`) with its levels
    lifted by the tone curve that brings the face to `FACE_AIM` of white (gamma at least
    0.3), or None where the face is not dark or the crop is not uint8. A tone curve, not a
    gain: the pips and the face's edge keep their order, and white stays white."""
    if crop.dtype != np.uint8:
        return None
    level = face_level(crop)
    if level >= DARK_FACE:
        return None
    gamma = max(np.log(FACE_AIM) / np.log(max(level, 2.0) / 255.0), 0.3)
    curve = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    return cv2.LUT(crop, curve)
