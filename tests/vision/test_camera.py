"""The live loop reads each roll once, after the dice stop moving."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import camera
from vision.camera import (
    changed_share,
    light,
    reaching_in,
    same_dice,
    settled_rolls,
    thumbnail,
)
from vision.detections import Detections, DieDetection


def _frames() -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    still_a = np.full((120, 160, 3), 90, np.uint8)
    still_b = still_a.copy()
    still_b[40:80, 60:100] = 230
    frames = []
    for _ in range(10):  # dice tumbling: big changes every frame
        frames.append(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    frames += [still_a] * 20
    for _ in range(5):
        frames.append(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    frames += [still_b] * 20
    return frames, still_a, still_b


def test_one_reading_per_settled_roll() -> None:
    frames, a, b = _frames()
    seen = []

    def reader(frame: np.ndarray) -> Detections:
        seen.append(frame)
        return Detections.empty((frame.shape[1], frame.shape[0]))

    rolls = list(settled_rolls(frames, reader, still_frames=5))
    assert len(rolls) == 2
    assert seen[0] is a and seen[1] is b
    assert 10 < rolls[0].frame_index < 30 < rolls[1].frame_index


def test_dice_still_rolling_in_a_dark_room_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dim die sliding 10 px a frame changes its pixels by 8 grey levels, under the
    daylight change level (12); scaled by the frame's light, it counts as moving."""
    frames = []
    for k in range(22):
        frame = np.full((120, 160, 3), 10, np.uint8)
        x = 20 + 10 * min(k, 11)  # slides for 12 frames, then lies still
        frame[40:80, x : x + 40] = 18
        frames.append(frame)
    reads = [r.frame_index for r in settled_rolls(frames, _empty_reader, still_frames=5)]
    assert reads == [15]  # only once it has lain still for 5 frames
    monkeypatch.setattr(camera, "light", lambda thumb: 1.0)  # the daylight level
    reads = [r.frame_index for r in settled_rolls(frames, _empty_reader, still_frames=5)]
    assert reads == [4]  # read mid-slide


def test_still_dark_noisy_scene_is_read() -> None:
    """Sensor noise in a dark frame must not pass for rolling dice."""
    rng = np.random.default_rng(5)
    scene = np.full((480, 640, 3), 15.0)
    scene[200:260, 300:360] = 35
    frames = [
        np.clip(scene + rng.normal(0, 6, scene.shape), 0, 255).astype(np.uint8) for _ in range(13)
    ]
    reads = [r.frame_index for r in settled_rolls(frames, _empty_reader, still_frames=8)]
    assert reads == [7]  # the first 8 frames are alike


def _table(
    dice: list[tuple[int, int]], *, level: int = 120, die: int = 235, side: int = 40
) -> np.ndarray:
    """A 1280x720 frame of a plain table with square dice of `side` pixels at `dice`."""
    frame = np.full((720, 1280, 3), level, np.uint8)
    for x, y in dice:
        frame[y : y + side, x : x + side] = die
    return frame


def _reads(frames: list[np.ndarray], still_frames: int = 5) -> list[int]:
    return [r.frame_index for r in settled_rolls(frames, _empty_reader, still_frames=still_frames)]


def test_dice_moved_without_a_hand_in_view_are_a_new_roll() -> None:
    """Two small dice in a wide view change the frame's mean by well under a grey level; a
    new roll is seen by the pixels that changed, whether the dice slide or jump."""
    a = _table([(300, 300), (700, 400)])
    b = _table([(500, 200), (900, 500)])
    sliding = [
        _table([(300 + 20 * k, 300 - 10 * k), (700 + 20 * k, 400 + 10 * k)]) for k in range(11)
    ]
    assert _reads([a] * 10 + sliding + [b] * 10) == [4, 24]
    assert _reads([a] * 10 + [b] * 10) == [4, 14]  # a cut straight to the next roll


def test_a_die_sliding_slowly_is_read_once_it_stops() -> None:
    """Two pixels a frame is under the change level from one frame to the next, but not
    from the first frame of a still run."""
    frames = [_table([(300 + 2 * min(k, 30), 300)]) for k in range(45)]
    assert _reads(frames) == [34]


def test_a_hand_over_a_settled_roll_or_a_light_change_does_not_read_it_again() -> None:
    a = _table([(300, 300), (700, 400)])
    hands = [a.copy() for _ in range(6)]  # a hand reaching in and out: never still
    for k, hand in enumerate(hands):
        hand[100 + 30 * k : 600, 200 : 900 - 40 * k] = 60
    brighter = [a + np.uint8(k) for k in range(1, 16)]  # the light turned up slowly
    assert _reads([a] * 10 + hands + [a] * 10 + brighter + [brighter[-1]] * 10) == [4]


def test_the_camera_turning_its_gain_up_does_not_read_a_roll_again() -> None:
    """Dark dice on a light table, the whole frame then 10% brighter: the table gains 18
    grey levels and the dice 4, more than the change level apart."""
    dark = _table([(300, 300), (700, 400)], level=180, die=40)
    brighter = np.clip(dark.astype(np.float32) * 1.1, 0, 255).astype(np.uint8)
    assert _reads([dark] * 10 + [brighter] * 10) == [4]


def test_the_camera_bending_its_levels_does_not_read_a_roll_again() -> None:
    """An exposure change along a curve (gamma 0.7 and 1.4) scales no two levels alike and
    shifts them unalike: neither a ratio of medians nor an offset takes it out, while
    matching the frames' levels rank for rank does (`_matched`). Two of the sample photos
    were read twice under each before."""
    table = _table([(300, 300), (700, 400)], level=150, die=40)
    table[:, :250] = 90  # (two tones of table: a curve moves them unalike)
    for gamma in (0.7, 1.4):
        bent = (255 * (table / 255.0) ** gamma).round().astype(np.uint8)
        assert _reads([table] * 10 + [bent] * 10) == [4]
    moved = _table([(340, 300), (700, 400)], level=150, die=40)
    moved[:, :250] = 90
    bent = (255 * (moved / 255.0) ** 0.7).round().astype(np.uint8)
    assert _reads([table] * 10 + [bent] * 10) == [4, 14]  # (a die moved as the light changed)


def _empty_reader(frame: np.ndarray) -> Detections:
    return Detections.empty((frame.shape[1], frame.shape[0]))


def _bright_squares(frame: np.ndarray) -> Detections:
    """A reader for drawn tables: each white square is a die (a 1)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    contours, _ = cv2.findContours(
        (grey > 200).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    dice = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        dice.append(DieDetection(1, 1.0, (x, y, w, h), (x + w / 2, y + h / 2)))
    return Detections(tuple(dice), (frame.shape[1], frame.shape[0]))


def _with_hand(frame: np.ndarray, reach: int, *, top: int = 200) -> np.ndarray:
    """`frame` with a dark arm reaching `reach` pixels in from its left edge."""
    frame = frame.copy()
    frame[top : top + 300, :reach] = 60
    return frame


def _rolls(frames: list[np.ndarray]) -> list[tuple[int, int]]:
    """(frame index, dice read) of each roll, read by `_bright_squares`."""
    rolls = settled_rolls(frames, _bright_squares, still_frames=5)
    return [(r.frame_index, len(r.detections)) for r in rolls]


def test_a_hand_moving_at_the_edge_of_the_view_does_not_hold_the_reading() -> None:
    """Once the dice lie still, a hand fidgeting at the edge (and nowhere near a die) does
    not stop them being read, once two readings agree, and they are not read again when
    it goes. The hand came in after the last roll was read, and its fingertips alone move."""
    empty = _table([])  # (the table read while the dice were shaken)
    sliding = [_table([(300 + 20 * k, 300), (700, 400 - 10 * k)]) for k in range(1, 7)]
    still = sliding[-1]
    fidgeting = [_with_hand(still, 150 + 40 * (k % 4)) for k in range(30)]
    frames = [_with_hand(f, 150 + 40 * (k % 4)) for k, f in enumerate(sliding)]
    rolls = _rolls([empty] * 6 + frames + fidgeting + [still] * 10)
    assert rolls == [(4, 0), (20, 2)]  # (still from frame 11, hand moving until 41)
    # thrown again with that hand still there, in the scene read: it waits for the hand
    again = [_table([(420, 300 + 20 * k), (700, 340 + 10 * k)]) for k in range(1, 7)]
    hand = [_with_hand(f, 150 + 40 * (k % 4)) for k, f in enumerate(again + [again[-1]] * 20)]
    rolls = _rolls([empty] * 6 + frames + fidgeting + hand + [again[-1]] * 10)
    assert rolls == [(4, 0), (20, 2), (72, 2)]  # (the hand gone at frame 68)


def test_a_hand_that_may_hide_a_die_holds_the_reading() -> None:
    """An arm reaching over the table past the edge's band, or anything new beside the
    dice read (here the last roll's dice, gone), may hide a die: the roll waits for all
    to lie still."""
    empty = _table([])
    dice = _table([(700, 300), (900, 400)])
    over = [_with_hand(dice, 600 + 20 * (k % 3)) for k in range(20)]  # (half the view)
    assert _rolls([empty] * 6 + over + [dice] * 6) == [(4, 0), (30, 2)]
    before = _table([(640, 300), (980, 420)])
    beside = [_with_hand(dice, 150 + 40 * (k % 4)) for k in range(20)]
    assert _rolls([before] * 6 + beside + [dice] * 6) == [(4, 2), (30, 2)]


def test_a_die_rolling_along_the_edge_is_read_once_it_stops() -> None:
    """Motion at the edge with a die on it is the dice, not a hand: the roll waits."""
    frames = [_table([(500, 300), (20 * min(k, 19), 0)]) for k in range(30)]
    assert _rolls(frames) == [(23, 2)]


def test_a_hand_at_the_edge_over_a_die_holds_the_reading() -> None:
    """A die the moving hand half covers (or is about to pick up) is not read under it,
    nor when the hand goes."""
    still = _table([(500, 300), (100, 400)])
    fidgeting = [_with_hand(still, 105 + 10 * (k % 3), top=250) for k in range(20)]
    assert _rolls([still] * 10 + fidgeting + [still] * 10) == [(4, 2)]


def test_a_reading_past_a_hand_taken_then_refused_waits_for_all_to_be_still() -> None:
    """The first reading past the hand agrees with nothing before it; the next is refused
    (the hand come near the dice): no roll until all lies still (it had raised a
    TypeError, the refused reading's None compared as dice)."""
    dice = _table([(600, 300), (800, 400), (200, 300)])
    far = [_with_hand(dice, 120 + 10 * (k % 3)) for k in range(6)]
    near = [_with_hand(dice, 170 + 10 * (k % 3)) for k in range(20)]
    assert _rolls([_table([(1100, 100)])] * 8 + far + near + [dice] * 10) == [(4, 1), (38, 3)]


def test_dice_kept_while_the_others_are_shaken_at_the_edge_are_no_roll() -> None:
    """A Farkle player keeps a die where it lay and shakes the rest in a hand at the edge:
    the kept die alone is not read as a roll; the throw is."""
    first = _table([(500, 300), (900, 400), (1000, 200)])
    kept = _table([(500, 300)])
    shaking = [_with_hand(kept, 150 + 40 * (k % 4)) for k in range(30)]
    landing = [
        _table([(500, 300), (700 + 10 * k, 500), (850, 150 + 10 * k)]) for k in range(5, 0, -1)
    ]
    second = _table([(500, 300), (700, 500), (850, 150)])
    assert _rolls([first] * 8 + shaking + landing + [second] * 10) == [(4, 3), (47, 3)]


def test_dice_left_after_a_hand_took_some_away_are_no_roll() -> None:
    """A Farkle player's hand passes over the table and takes the scoring dice aside: the
    dice left where they lay are no new roll (they had been printed as one, a bust), nor
    are the kept ones once the hand picked up the rest; dice thrown again are."""
    first = _table([(300, 300), (500, 300), (700, 400), (900, 200)])
    left = _table([(700, 400), (900, 200)])

    def hand_over(frame: np.ndarray, k: int) -> np.ndarray:
        frame = frame.copy()
        frame[100 + 20 * k : 600, 200 : 1000 - 30 * k] = 60
        return frame

    passing = [hand_over(first if k < 3 else left, k) for k in range(6)]
    thrown = _table([(350, 250), (600, 500)])
    frames = [first] * 8 + passing + [left] * 10 + [thrown] * 10
    assert _rolls(frames) == [(4, 4), (28, 2)]
    kept = _table([(300, 300), (500, 300)])  # (the other way: the kept dice stay)
    passing = [hand_over(first if k < 3 else kept, k) for k in range(6)]
    assert _rolls([first] * 8 + passing + [kept] * 10 + [thrown] * 10) == [(4, 4), (28, 2)]


def test_a_hand_resting_over_every_die_does_not_read_the_roll_again() -> None:
    """A hand held still over the whole roll reads as a table with no dice: the roll had
    been printed again once it left (a review), and what it left of the roll once it took
    the scoring dice aside had been printed as a roll. Dice thrown after the hand, and a
    die thrown alone after the empty table, are rolls."""
    first = _table([(300, 300), (500, 300), (700, 400)])
    covered = first.copy()
    covered[200:600, 200:900] = 60  # (the dice under it: none read)
    frames = [first] * 8 + [covered] * 10 + [first] * 10
    assert _rolls(frames) == [(4, 3), (12, 0)]
    left = _table([(500, 300), (700, 400)])  # (the 1 taken aside)
    assert _rolls([first] * 8 + [covered] * 10 + [left] * 10) == [(4, 3), (12, 0)]
    thrown = _table([(350, 500), (900, 250), (1000, 500)])
    rolls = _rolls(frames + [covered] * 10 + [thrown] * 10)
    assert rolls == [(4, 3), (12, 0), (32, 0), (42, 3)]
    # a hand that stops on its way off, over one die (or two of the dice left): the rest,
    # once it goes, are still that roll (a review: printed again)
    partly = first.copy()
    partly[250:400, 250:400] = 60
    assert _rolls([first] * 8 + [covered] * 10 + [partly] * 10 + [first] * 10) == [
        (4, 3),
        (12, 0),
    ]
    six = _table([(300, 300), (500, 300), (700, 400), (300, 500), (500, 500), (700, 550)])
    over_six = six.copy()
    over_six[200:650, 200:800] = 60
    kept_aside = _table([(500, 300), (700, 400), (300, 500), (500, 500), (700, 550)])
    resting = kept_aside.copy()
    resting[450:600, 250:600] = 60  # (over two of the five left)
    frames = [six] * 8 + [over_six] * 10 + [resting] * 10 + [kept_aside] * 10
    assert _rolls(frames) == [(4, 6), (12, 0)]
    one = _table([(300, 300)])  # (one die alone: a throw, even into its old box)
    assert _rolls([one] * 8 + [covered] * 10 + [one] * 10) == [(4, 1), (12, 0), (22, 1)]


def test_a_die_rocking_at_the_edge_unread_is_no_hand() -> None:
    """A die too blurred to read, rocking against the edge, is a change the size of a die
    that reaches in: not a hand, so the dice read away from it wait for it."""
    two = _table([(600, 300), (800, 400)])

    def rocking(k: int) -> np.ndarray:
        frame = two.copy()
        frame[545 + 3 * (k % 3) : 595 - 3 * (k % 3), 0 : 45 - 3 * ((k + 1) % 3)] = 150 + 40 * (
            k % 2
        )
        return frame

    third = _table([(600, 300), (800, 400), (0, 560)])
    frames = [_table([(1100, 100)])] * 8 + [rocking(k) for k in range(30)] + [third] * 10
    assert _rolls(frames) == [(4, 1), (42, 3)]


def test_a_hand_that_turns_the_cameras_exposure_down_holds_the_reading() -> None:
    """A bright hand darkens the frame by the camera's auto exposure; a die the readers
    misread in it would be printed, and again once the light comes back: it waits."""
    empty, dice = _table([]), _table([(600, 300), (800, 400)])
    darker = [
        (_with_hand(dice, 150 + 40 * (k % 4)).astype(np.float32) * 0.9).astype(np.uint8)
        for k in range(30)
    ]
    assert _rolls([empty] * 6 + darker + [dice] * 10) == [(4, 0), (40, 2)]
    same = [_with_hand(dice, 150 + 40 * (k % 4)) for k in range(30)]  # (at the same light)
    assert _rolls([empty] * 6 + same + [dice] * 10) == [(4, 0), (15, 2)]


def test_an_arm_left_resting_at_the_edge_does_not_read_the_roll_again() -> None:
    still = _table([(500, 300), (700, 400)])
    reaching = [_with_hand(still, 40 * k) for k in range(1, 6)]
    assert _rolls([still] * 10 + reaching + [reaching[-1]] * 10) == [(4, 2)]


def test_a_die_put_down_at_the_edge_is_a_new_roll() -> None:
    """A change that reaches in from the edge is a new roll where a die lies on it."""
    still = _table([(500, 300), (700, 400)])
    more = _table([(500, 300), (700, 400), (0, 680)])
    assert _rolls([still] * 10 + [more] * 10) == [(4, 2), (14, 3)]


def test_a_camera_held_in_a_trembling_hand_still_reads_the_roll() -> None:
    """A phone or webcam held in a hand trembles by a pixel or three, which at the dice's
    edges changed the thumbnail past the level: the view never lay still and no roll was
    read (a review's video: none in 170 frames). The view's shift as a whole is taken out;
    dice thrown in are read once, and not again as the hand trembles on."""
    held = _trembling([_table([(500, 300), (700, 400), (900, 250)])] * 60)
    rolls = _rolls([_table([])] * 6 + held)
    assert [count for _, count in rolls] == [0, 3]


def test_a_camera_panning_slowly_reads_its_still_dice_once() -> None:
    """A slow pan lies still for the motion test as a shake does (`_steadied`); its dice,
    read where they lay, were then taken for a new roll once the view had moved half a
    die (a review: one roll printed two and three times). The view's shift since the last
    reading moves where they lay."""
    noise = np.random.default_rng(5).normal(0, 18, (720, 1400))  # (a wooden table's grain)
    grain = cv2.GaussianBlur(noise, (0, 0), 3)[..., None]
    table = np.clip(np.full((720, 1400, 3), 120.0) + grain, 0, 190).astype(np.uint8)
    with_dice = table.copy()
    for x, y in ((500, 300), (700, 400), (900, 250)):
        with_dice[y : y + 40, x : x + 40] = 235
    panning = [with_dice[:, 100 - k : 1380 - k] for k in range(90)]  # (a pixel a frame)
    assert [count for _, count in _rolls([table[:, 100:1380]] * 6 + panning)] == [0, 3]


def _trembling(frames: list[np.ndarray], seed: int = 3) -> list[np.ndarray]:
    """`frames` as a camera held in a hand sees them: shifted by a pixel or three, wandering."""
    rng = np.random.default_rng(seed)
    x = y = 0.0
    held = []
    for frame in frames:
        x, y = 0.8 * x + rng.normal(0, 1.8), 0.8 * y + rng.normal(0, 1.8)
        shift = np.array([[1, 0, x], [0, 1, y]], np.float32)
        held.append(cv2.warpAffine(frame, shift, (1280, 720), borderMode=cv2.BORDER_REPLICATE))
    return held


def _banded(frames: list[np.ndarray]) -> list[np.ndarray]:
    """`frames` under a lamp's flicker through a rolling shutter: bands of 8% rolling down."""
    rows = np.arange(720, dtype=np.float32)[:, None, None]
    return [
        np.clip(frame * (1 + 0.08 * np.sin(2 * np.pi * (rows / 240.0 + k * 0.33))), 0, 255).astype(
            np.uint8
        )
        for k, frame in enumerate(frames)
    ]


def test_a_lamps_flicker_rolling_down_the_frame_in_bands_does_not_hold_the_reading() -> None:
    """A lamp on mains power flickers, and a rolling shutter sees it as bands of light that
    roll down the frame: at 5% and more the view never lay still (a review). Each row's
    change of light is taken out; dice thrown anew in the bands are still a new roll. So
    is the view's shift with it: a camera in a trembling hand under that lamp read none."""
    first = _table([(500, 300), (700, 400), (900, 250)])
    second = _table([(300, 500), (800, 150)])
    frames = [_table([])] * 6 + [first] * 30 + [second] * 30
    assert [count for _, count in _rolls(_banded(frames))] == [0, 3, 2]
    assert [count for _, count in _rolls(_trembling(_banded(frames)))] == [0, 3, 2]


def test_the_camera_nudged_does_not_read_the_same_dice_again() -> None:
    """A still scene that differs from the one read, with the same dice where they lay
    (the camera nudged 8 pixels, an arm come to rest at the edge), is not a roll."""
    still = _table([(500, 300), (700, 400)])
    nudged = np.roll(still, (8, 8), axis=(0, 1))
    assert _rolls([still] * 10 + [nudged] * 10) == [(4, 2)]
    moved = _table([(560, 300), (700, 400)])  # (but one die moved is a new roll)
    assert _rolls([still] * 10 + [moved] * 10) == [(4, 2), (14, 2)]


def test_same_dice_are_as_many_each_of_its_value_in_the_others_box() -> None:
    def dice(*found: tuple[int, int, int]) -> Detections:
        return Detections(
            tuple(DieDetection(v, 0.9, (x, y, 40, 40), (x + 20, y + 20)) for v, x, y in found)
        )

    roll = dice((5, 100, 100), (2, 300, 100))
    assert same_dice(roll, dice((2, 310, 90), (5, 100, 110)))  # (the camera nudged)
    assert not same_dice(roll, dice((5, 100, 100), (3, 300, 100)))  # (a die turned over)
    assert not same_dice(roll, dice((5, 100, 100), (2, 330, 100)))  # (moved half a die)
    assert not same_dice(roll, dice((5, 100, 100)))
    assert not same_dice(roll, dice((5, 100, 100), (5, 100, 100)))  # (one to one)


def test_a_die_box_off_the_frame_marks_nothing() -> None:
    """A box wholly above or left of the frame had marked most of the thumbnail as on a
    die (a slice's negative end counts from the far one), so a hand beside a real die
    passed unseen."""
    frame = np.zeros((100, 200, 3), np.uint8)
    off = Detections((DieDetection(1, 0.9, (-30, -30, 10, 10), (-25.0, -25.0)),))
    assert not camera._boxes(off, (100, 200), frame).any()
    assert not camera._spread(off, (100, 200), frame).any()
    edge = Detections((DieDetection(1, 0.9, (190, 90, 20, 20), (200.0, 100.0)),))
    assert camera._boxes(edge, (100, 200), frame)[86:, 186:].all()


def test_reaching_in_is_the_change_joined_to_the_edge_within_its_band() -> None:
    changed = np.zeros((180, 320), bool)
    changed[50:120, :40] = True  # an arm, broken up by the table's pattern
    changed[50:120:6, 40:70] = True
    changed[80:90, 150:160] = True  # a die rolling inside the view
    edge = reaching_in(changed)
    assert edge[50:120, :70].sum() == changed[50:120, :70].sum()
    assert not edge[:, 100:].any()
    scattered = np.random.default_rng(4).random((180, 320)) < 0.2  # the camera knocked
    assert not reaching_in(scattered).any()
    changed[50:120, :100] = True  # (an arm reaching past a quarter of the view)
    assert not reaching_in(changed).any()


def test_a_die_creeping_a_pixel_a_frame_is_read_only_once_it_stops() -> None:
    """One pixel a frame changes no thumbnail pixel past the level from one frame to the
    next: compared with the frame before, the creeping die would pass for still. The die
    moves until frame 30."""
    frames = [_table([(300 + min(k, 30), 300)]) for k in range(45)]
    reads = _reads(frames)
    assert len(reads) == 1 and reads[0] >= 30


def test_a_change_of_frame_size_is_a_new_scene_not_a_crash() -> None:
    """A camera switching resolution mid-stream: the new frames are a new still scene."""
    small = np.full((120, 160, 3), 90, np.uint8)
    large = np.full((240, 320, 3), 90, np.uint8)
    assert _reads([small] * 6 + [large] * 6) == [4, 10]


def test_changed_share_counts_pixels_changed_by_more_than_the_level() -> None:
    before = np.full((40, 40), 100, np.uint8)
    by_level, past_level = before.copy(), before.copy()
    by_level[:10, :16] += 12  # a tenth of the pixels, exactly the level
    past_level[:10, :16] += 13  # (not whole rows, which a lamp's flicker in bands changes)
    assert changed_share(before, by_level, 12.0) == 0.0
    assert changed_share(before, past_level, 12.0) == 0.1
    assert changed_share(None, before, 12.0) == 1.0


def test_light_is_the_brightest_pixels_against_the_lit_level_from_a_half_to_one() -> None:
    """LIT_LEVEL is 64: a frame at 48 shows three quarters of daylight; a black one is
    held at a half, a bright one at one."""
    assert light(np.full((20, 20), 48, np.uint8)) == 0.75
    assert light(np.zeros((20, 20), np.uint8)) == 0.5
    assert light(np.full((20, 20), 200, np.uint8)) == 1.0


def test_thumbnail_is_320_wide_grey_and_never_enlarged() -> None:
    assert thumbnail(np.zeros((720, 1280, 3), np.uint8)).shape == (180, 320)
    assert thumbnail(np.zeros((120, 160, 4), np.uint8)).shape == (120, 160)
    assert thumbnail(np.zeros((120, 160, 1), np.uint8)).shape == (120, 160)


@pytest.mark.parametrize(
    ("rate", "frames"),
    [(30.0, 8), (29.97, 8), (60.0, 16), (15.0, 4), (10.0, 4), (120.0, 32), (240.0, 65)]
    + [(0.5, 4), (0.0, 8), (float("nan"), 8), (1000.0, 8), (90000.0, 8), (-1.0, 8)],
)
def test_the_view_must_lie_still_as_long_at_any_frame_rate(rate: float, frames: int) -> None:
    """A rate the source does not give, or none a camera has, is taken as 30 frames a
    second; a slow camera (or a time-lapse) still needs a run of four frames."""
    assert camera.still_frames_at(rate) == frames


def test_a_video_file_says_its_frame_rate_once_open(tmp_path: Path) -> None:
    video = tmp_path / "fast.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 60, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for k in range(3):
        writer.write(np.full((48, 64, 3), 40 * k, np.uint8))
    writer.release()
    said: list[tuple[float, int]] = []
    frames = camera.video_frames(str(video), opened=lambda rate: said.append((rate, len(got))))
    got: list[np.ndarray | None] = []
    for frame in frames:
        got.append(frame)
    assert said == [(60.0, 0)] and len(got) == 3  # (told once, before the first frame)


@pytest.mark.parametrize("shape", [(120, 160, 2), (120, 160, 5), (0, 160, 3), (4, 4, 4, 3)])
def test_a_frame_of_no_known_layout_is_refused_in_a_sentence(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="a frame must be HxW, HxWx3 or HxWx4"):
        thumbnail(np.zeros(shape, np.uint8))


def test_a_folder_is_no_video(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="a folder, not a video"):
        next(camera.video_frames(str(tmp_path)))


def test_only_a_video_files_own_trouble_is_said_when_it_does_not_open(tmp_path: Path) -> None:
    """A missing or empty file says so; a stream's address, an image sequence's pattern or
    a camera number is OpenCV's to open, and no file was missing."""
    (tmp_path / "empty.avi").write_bytes(b"")
    assert camera._why_not_opened(str(tmp_path / "nope.avi")) == ": no such file"
    assert camera._why_not_opened(str(tmp_path / "empty.avi")) == ": the file is empty"
    for source in ("rtsp://192.0.2.1/table", str(tmp_path / "roll_%03d.jpg"), 7):
        assert camera._why_not_opened(source) == ""


def _ctrl_c_heard() -> None:
    """In the reader's process, before it starts: Ctrl-C as a terminal gives it. A shell
    running the tests as a background job starts them with Ctrl-C ignored, and the reader
    inherited that (both tests timed out so in a CI run started with `&`)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_the_wait_on_a_named_pipe_with_no_writer(tmp_path: Path) -> None:
    """The pipe's open waits in OpenCV's C code, where Ctrl-C went unheard for good; a pipe
    with a writer (`--camera /dev/stdin`) is a video source like any other."""
    pipe = tmp_path / "roll.avi"
    os.mkfifo(pipe)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    command = [sys.executable, "-m", "companion.cli", "read", "--camera", str(pipe)]
    with subprocess.Popen(
        command, env=env, stderr=subprocess.DEVNULL, preexec_fn=_ctrl_c_heard
    ) as reading:
        try:
            time.sleep(2.0)  # (started, and waiting on the pipe)
            assert reading.poll() is None
            reading.send_signal(signal.SIGINT)
            assert reading.wait(timeout=20) in (0, 130)
        finally:
            reading.kill()


def _still_video(video: Path, samples_dir: Path, size: tuple[int, int]) -> Path:
    """An MJPG video at 15 frames a second of a sample roll lying still, 40 frames."""
    from vision import load_image

    still = cv2.resize(load_image(samples_dir / "WIN_20221210_14_48_22.jpg"), size)
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 15, size)
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for _ in range(40):
        writer.write(still)
    writer.release()
    return video


def test_ctrl_c_as_the_source_opens_ends_without_an_abort(
    tmp_path: Path, samples_dir: Path
) -> None:
    """An open given up on by Ctrl-C that finishes as Python winds down (the pipe's writer
    come just then) had aborted the process ("terminate called without an active
    exception", killed by SIGABRT), where Ctrl-C ends a reading quietly."""
    video = _still_video(tmp_path / "roll.avi", samples_dir, (640, 360))
    pipe = tmp_path / "live.avi"
    os.mkfifo(pipe)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    command = [sys.executable, "-m", "companion.cli", "read", "--camera", str(pipe)]

    def write() -> None:  # (as the reader gives up: it may be gone before it opens)
        with contextlib.suppress(OSError):
            fd = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
            os.set_blocking(fd, True)
            with open(fd, "wb") as live:
                live.write(video.read_bytes())

    with subprocess.Popen(
        command, env=env, stderr=subprocess.PIPE, preexec_fn=_ctrl_c_heard
    ) as reading:
        try:
            time.sleep(1.5)  # (started, and waiting on the pipe)
            reading.send_signal(signal.SIGINT)
            threading.Thread(target=write, daemon=True).start()
            _, said = reading.communicate(timeout=20)
            assert (reading.returncode, said) in ((0, b""), (130, b""))
        finally:
            reading.kill()


def test_ctrl_c_ends_the_wait_on_a_pipe_whose_writer_stalls(
    tmp_path: Path, samples_dir: Path
) -> None:
    """A pipe whose writer sends a roll and then nothing holds OpenCV's read in C: Ctrl-C
    went unheard until the writer let go (found by a review: 57 s). The frames are read on
    a thread of their own now, and Ctrl-C ends the wait at once."""
    data = _still_video(tmp_path / "roll.avi", samples_dir, (320, 180)).read_bytes()
    pipe = tmp_path / "live.avi"
    os.mkfifo(pipe)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    command = [sys.executable, "-m", "companion.cli", "read", "--camera", str(pipe)]
    with subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_heard
    ) as reading:
        try:
            with open(pipe, "wb") as live:  # (opened once the reader opens it)
                live.write(data[: len(data) * 3 // 4])
                live.flush()
                assert reading.stdout is not None
                assert "roll at frame 3" in reading.stdout.readline()  # (15 fps: 4 still)
                time.sleep(0.5)
                reading.send_signal(signal.SIGINT)
                assert reading.wait(timeout=10) == 0  # (the writer still holds the pipe)
        finally:
            reading.kill()


class _Capture:
    """A stand-in for OpenCV's capture: `script` says what each read gives ("ok", "lost",
    "slow": a failed read that waits, "raise"), then every read fails. `frame_count`: a
    video file's count of its frames (a camera's is -1)."""

    def __init__(self, script: list[str], frame_count: int = -1) -> None:
        self.script, self.released, self.frame_count = list(script), False, frame_count

    def isOpened(self) -> bool:  # (OpenCV's name)
        return True

    def get(self, prop: int) -> float:
        return float(self.frame_count) if prop == cv2.CAP_PROP_FRAME_COUNT else 0.0

    def read(self) -> tuple[bool, np.ndarray | None]:
        step = self.script.pop(0) if self.script else "lost"
        if step == "slow":
            time.sleep(0.3)
        if step == "raise":
            raise RuntimeError("the camera's driver failed")
        if step == "opencv":
            raise cv2.error("OpenCV(5.1.0) videoio: read failed\nmore detail")
        return (True, np.zeros((4, 4, 3), np.uint8)) if step == "ok" else (False, None)

    def release(self) -> None:
        self.released = True


def _stream(
    monkeypatch: pytest.MonkeyPatch,
    script: list[str],
    frame_count: int = -1,
    source: str | int = 0,
) -> tuple[list[bool], _Capture]:
    capture = _Capture(script, frame_count)
    monkeypatch.setattr(camera, "_capture", lambda source: capture)
    return [frame is not None for frame in camera.video_frames(source)], capture


def test_a_frame_lost_between_two_keeps_its_number_and_the_stream_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frames, capture = _stream(monkeypatch, ["ok", "lost", "lost", "ok", "ok"])
    assert frames == [True, False, False, True, True] and capture.released
    # a stream's end (every read failing) gives no lost frames after the last one
    frames, _ = _stream(monkeypatch, ["ok"] + ["lost"] * (camera.MISSED_FRAMES - 1) + ["ok"])
    assert frames == [True] + [False] * (camera.MISSED_FRAMES - 1) + [True]


def test_a_video_file_is_read_to_its_last_frame_past_a_damaged_stretch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file counts its frames: ten or more damaged ones in a row (at its start too) are
    lost frames, not its end, which had lost every roll after them unsaid; a camera's
    stream still ends after `MISSED_FRAMES` failed reads."""
    damaged = ["ok"] * 3 + ["lost"] * 15 + ["ok"] * 2
    frames, _ = _stream(monkeypatch, damaged, frame_count=20)
    assert frames == [True] * 3 + [False] * 15 + [True] * 2
    frames, _ = _stream(monkeypatch, ["lost"] * 12 + ["ok"], frame_count=13)
    assert frames == [False] * 12 + [True]
    frames, _ = _stream(monkeypatch, damaged)  # (a camera: the stream has ended)
    assert frames == [True] * 3


def test_a_video_file_none_of_whose_frames_decodes_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Not "no video frames (not a camera or a video file)": it is one, damaged. A camera
    that gives nothing, or a pipe (an MP4's frames do not decode through one, and the
    command says why), ends with no frames, as before."""
    video = tmp_path / "roll.avi"
    video.write_bytes(b"RIFF")
    with pytest.raises(OSError, match="^cannot read video '.*roll.avi': none of its frames"):
        _stream(monkeypatch, ["lost"] * 30, frame_count=30, source=str(video))
    assert _stream(monkeypatch, ["lost"] * 30)[0] == []
    assert _stream(monkeypatch, ["lost"] * 30, frame_count=30)[0] == []


def test_a_frozen_camera_ends_the_stream_in_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A V4L2 camera's read waits up to 10 s before it fails: ten such reads in a row had
    taken 100 s to end the stream (found by a review)."""
    monkeypatch.setattr(camera, "MISSED_SECONDS", 0.5)
    start = time.monotonic()
    frames, _ = _stream(monkeypatch, ["ok", "ok"] + ["slow"] * 20)
    assert frames == [True, True] and time.monotonic() - start < 2.0


def test_a_capture_that_raises_raises_in_the_reading_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not a traceback on the frame reader's own thread and a stream ended as if done."""
    with pytest.raises(RuntimeError, match="the camera's driver failed"):
        _stream(monkeypatch, ["ok", "ok", "raise"])
    with pytest.raises(OSError) as error:  # (OpenCV's own: the command's one-line error)
        _stream(monkeypatch, ["ok", "opencv"])
    assert str(error.value) == "cannot read camera or video 0: OpenCV(5.1.0) videoio: read failed"


def test_a_roll_settles_across_a_lost_frame() -> None:
    """A lost frame keeps its place in the count and nothing else: the still run goes on."""
    frames, still_a, _ = _frames()
    calm: list[np.ndarray | None] = [*frames[:14], None, *frames[14:30]]
    rolls = list(settled_rolls(calm, lambda frame: Detections()))
    assert rolls[0].frame_index == 18  # (as without the gap, one later: the gap counts)
    assert [r.frame_index for r in settled_rolls(frames[:30], lambda f: Detections())] == [17]


def test_a_stream_closed_early_stops_its_reading_thread_and_releases_the_capture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    capture = _Capture(["ok"] * 100)
    monkeypatch.setattr(camera, "_capture", lambda source: capture)
    stream = camera.video_frames(0)
    assert next(stream) is not None
    stream.close()  # (`--max-rolls`, or Ctrl-C)
    assert capture.released and len(capture.script) > 90  # (it stopped reading too)
