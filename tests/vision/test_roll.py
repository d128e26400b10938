"""vision/roll.py: the roll reported from a look's finds: the finds far from the roll's size
dropped unless read clearly (a far 1 only in the colour of the roll's dice), a doubted find
far over the roll's size cut to it and read again, each die found twice reported once, a
find's gain where it lies, and the detections cut at the frame's edge."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import cv2
import numpy as np
import pytest

from tests.vision.conftest import grey_looks, read_scores
from vision import faces, light, reader, roll
from vision.detections import Detections

if TYPE_CHECKING:
    from tests.vision.conftest import Drawn

# Every test here runs on both engines, as test_reader.py's do (they were there)
pytestmark = pytest.mark.usefixtures("engine")


_WHITE, _RED, _GREEN = (235, 235, 235), (40, 40, 200), (40, 160, 40)


def _sized(squares: list[tuple[int, int, tuple[int, int, int], np.ndarray]]) -> list[int]:
    """`_Looks.sized` on finds (x, side, BGR colour, readers' scores) drawn as squares of
    their colour along one line (no slant is fitted to dice in a line): the x of those
    kept."""
    image = np.full((300, 800, 3), (130, 80, 40), np.uint8)
    for x, side, colour, _ in squares:
        h = side // 2
        cv2.rectangle(image, (x - h, 150 - h), (x + h, 150 + h), colour, -1)
    found = np.array([(x, 150, side, 0.9) for x, side, _, _ in squares], np.float32)
    looks = reader._Looks(**{**grey_looks(800, 300).__dict__, "image": image})
    kept, _ = looks.sized(found, np.array([probs for *_, probs in squares]))
    return sorted(int(x) for x in kept[:, 0])


def _near_white(*values: int) -> list[tuple[int, int, tuple[int, int, int], np.ndarray]]:
    """Near white dice of 90 px, read clearly as `values`, from x = 70 every 110 px."""
    return [(70 + 110 * k, 90, _WHITE, read_scores(v, 0.95)) for k, v in enumerate(values)]


def test_a_far_1_is_spared_the_size_rules_only_in_the_colour_of_the_rolls_dice() -> None:
    """Four near white dice of 90 px and three far ones of 30, all read clearly: the far 5
    is kept whatever its colour (green, like no other), a far 1 only if white like the near
    dice (a red one, of no die's colour here, is what a cloth's cartoon eye looks like to
    the readers); with the near dice red, the other way round."""
    far = [(520, 30, _WHITE, read_scores(1, 0.95)), (600, 30, _RED, read_scores(1, 0.95))]
    far.append((700, 30, _GREEN, read_scores(5, 0.95)))
    assert _sized(_near_white(4, 6, 2, 3) + far) == [70, 180, 290, 400, 520, 700]
    red = [(x, side, _RED, probs) for x, side, _, probs in _near_white(4, 6, 2, 3)]
    assert _sized(red + far) == [70, 180, 290, 400, 600, 700]


def test_a_far_1_may_match_any_die_of_the_roll_read_surely() -> None:
    """The colour a far 1 is held to is any die's of the roll read surely: a far die spared
    itself (a white 5 beside red near dice), a 1 of the roll's size, a die read surely but
    not clearly; not a die read unsurely."""
    red = [(x, side, _RED, probs) for x, side, _, probs in _near_white(4, 6, 2, 3)]
    far_one = (620, 30, _WHITE, read_scores(1, 0.95))
    assert _sized(red + [(520, 30, _WHITE, read_scores(5, 0.95)), far_one]) == [
        70,
        180,
        290,
        400,
        520,
        620,
    ]
    one = [(400, 90, _WHITE, read_scores(1, 0.95))]
    assert _sized(red[:3] + one + [far_one]) == [70, 180, 290, 400, 620]
    surely = [(400, 90, _WHITE, read_scores(3, 0.7))]
    assert _sized(red[:3] + surely + [far_one]) == [70, 180, 290, 400, 620]
    unsure = [(400, 90, _WHITE, read_scores(3, 0.3))]
    assert _sized(red[:3] + unsure + [far_one]) == [70, 180, 290, 400]


def test_only_a_clear_die_all_but_surely_a_die_is_spared() -> None:
    """Three far dice of 30 px and three near ones of 90: the near die read clearly is
    spared, not one read surely but not clearly (a box corner is read so), nor one read
    clearly that the readers give only 0.8 of being a die. Of two finds, a speck read
    surely beside a die is still dropped."""
    far = [(x, 30, _WHITE, read_scores(v, 0.95)) for x, v in ((500, 4), (560, 5), (620, 2))]
    near = [
        (100, 90, _WHITE, read_scores(6, 0.95)),
        (250, 90, _WHITE, read_scores(3, 0.7)),
        (400, 90, _WHITE, read_scores(3, 0.95, dieness=0.8)),
    ]
    assert _sized(far + near) == [100, 500, 560, 620]
    assert _sized(
        [(200, 120, _WHITE, read_scores(4, 0.95)), (500, 30, _WHITE, read_scores(2, 0.7))]
    ) == [200]


def _roll_cut_to_size(
    monkeypatch: pytest.MonkeyPatch, found: np.ndarray, probs: list[np.ndarray], again: np.ndarray
) -> tuple[Detections, list[np.ndarray]]:
    """The roll `_Looks.roll` reports from finds read as `probs` in a 2560x1440 photo, each
    find read again (`faces.classify`) read as `again`; and the finds read again."""
    asked: list[np.ndarray] = []

    def classify(
        image: np.ndarray,
        finds: np.ndarray,
        rotations: int,
        min_dieness: float,
        *,
        known: object = None,
        lift_dark: bool = False,
    ) -> np.ndarray:
        assert (rotations, min_dieness) == (4, 0.7)  # (`read`'s, as any look reads)
        assert known is None and lift_dark  # (a lit frame: dark faces lifted for the vote)
        asked.append(finds.copy())
        return np.repeat(again[None], len(finds), axis=0)

    monkeypatch.setattr(faces, "classify", classify)
    looks = grey_looks(2560, 1440)
    return looks.roll(found.astype(np.float32), np.array(probs, np.float32)), asked


# `skovy_catan`'s WIN_20221211_13_07_07 at twice its size: a 3 and a 5 the finder is sure
# of, and a wood floor's speck it doubts (0.33), found as a die of 166 px (1.68 times the
# others' 99) and read as a 1 at 0.92
SPECK_ROLL = np.array([[1830, 266, 91, 0.72], [2082, 602, 107, 0.73], [336, 96, 166, 0.33]])


SPECK_READS = [read_scores(3, 0.95), read_scores(5, 0.97), read_scores(1, 0.92, dieness=0.96)]


def test_a_doubted_find_bigger_than_the_roll_is_read_again_at_its_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cut at the roll's size (99 px), the speck reads as no die, and goes."""
    dice, asked = _roll_cut_to_size(monkeypatch, SPECK_ROLL, SPECK_READS, read_scores(1, 0.9, 0.2))
    assert dice.values == [3, 5]
    (again,) = asked
    assert again[:, :3].tolist() == [[336, 96, 99]]


def test_a_die_found_too_big_and_doubted_is_kept_at_its_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A die of a pile found as twice its size: cut to size, it reads as a 2, and is
    reported so, its box the roll's size."""
    dice, _ = _roll_cut_to_size(monkeypatch, SPECK_ROLL, SPECK_READS, read_scores(2, 0.98))
    assert dice.values == [2, 3, 5]
    assert dice.dice[0].box_xywh[2:] == (99, 99)


@pytest.mark.parametrize(
    "score, side, read_again",
    [
        (0.6, 166, False),
        (0.5, 166, False),
        (0.49, 166, True),
        (0.33, 0.98 * roll.DOUBTED_MOST * 99, False),
        (0.33, 1.02 * roll.DOUBTED_MOST * 99, True),
    ],
)
def test_only_doubted_finds_over_the_band_are_read_again(
    monkeypatch: pytest.MonkeyPatch, score: float, side: float, read_again: bool
) -> None:
    """A big find the finder is sure of (0.5 or more) keeps the band of twice the roll's
    size, and a doubted one up to `DOUBTED_MOST` times it is not read again either."""
    found = SPECK_ROLL.copy()
    found[2, 2:] = side, score
    dice, asked = _roll_cut_to_size(monkeypatch, found, SPECK_READS, read_scores(1, 0.9, 0.2))
    assert bool(asked) == read_again
    assert dice.values == ([3, 5] if read_again else [1, 3, 5])


def test_a_die_found_twice_keeps_its_find_of_the_right_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A die found twice: at its size (99 px, finder 0.45, read as a 4) and as a find
    twice that (190 px, 0.48, read as a 1) centred near it. The big one, read again at the
    roll's size, is no die, so the die is reported from its other find: each find is cut
    to size before a die found twice is counted once."""
    found = np.concatenate([SPECK_ROLL[:2], [[336, 96, 99, 0.45], [380, 96, 190, 0.48]]])
    reads = [*SPECK_READS[:2], read_scores(4, 0.95), read_scores(1, 0.92, dieness=0.96)]
    dice, asked = _roll_cut_to_size(monkeypatch, found, reads, read_scores(1, 0.9, 0.2))
    assert [finds[:, 2].tolist() for finds in asked] == [[99.0]]
    assert dice.values == [4, 3, 5]
    assert dice.dice[0].box_xywh[2] == 99


def test_a_die_found_twice_is_reported_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two finds of one die, both its size (99 and 100 px, 6 px apart): one die."""
    found = np.concatenate([SPECK_ROLL[:2], [[336, 96, 99, 0.45], [340, 100, 100, 0.44]]])
    reads = [*SPECK_READS[:2], read_scores(4, 0.95), read_scores(4, 0.9)]
    dice, asked = _roll_cut_to_size(monkeypatch, found, reads, read_scores(1, 0.9, 0.2))
    assert asked == [] and dice.values == [4, 3, 5]


def test_finds_of_one_thing_count_once_for_the_roll_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The speck found three times (166, 160 and 150 px): counted every time, the three
    would lift the roll's median to 150 and pass; counted once, each is read again."""
    dups = [[340, 100, 160, 0.32], [330, 92, 150, 0.31]]
    found = np.concatenate([SPECK_ROLL, dups])
    reads = [*SPECK_READS, read_scores(1, 0.9, 0.96), read_scores(1, 0.9, 0.96)]
    dice, asked = _roll_cut_to_size(monkeypatch, found, reads, read_scores(1, 0.9, 0.2))
    (again,) = asked
    assert again[:, 2].tolist() == [99.0, 107.0, 107.0]
    assert dice.values == [3, 5]


def test_a_find_in_question_does_not_vouch_for_a_slant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four dice of 70-112 px and a speck of 180 read as a 1 (`skovy_catan`'s
    WIN_20221211_13_09_09 at twice its size, one die moved): a slant fitted on all five
    expects 172 px at the speck; the four dice alone show none, so it is read again at
    the roll's size (92.5 px)."""
    found = np.array(
        [[1251, 509, 112, 0.75], [2053, 358, 70, 0.54], [1700, 900, 90, 0.7], [600, 1000, 95, 0.8]]
        + [[337, 96, 180, 0.37]]
    )
    reads = [
        read_scores(5, 0.97),
        read_scores(1, 0.95),
        read_scores(2, 0.95),
        read_scores(3, 0.95),
        read_scores(1, 0.9),
    ]
    dice, asked = _roll_cut_to_size(monkeypatch, found, reads, read_scores(1, 0.9, 0.2))
    (again,) = asked
    assert again[:, 2].tolist() == [92.5]
    assert sorted(dice.values) == [1, 2, 3, 5]


def test_beside_a_speck_a_doubted_die_is_read_again_at_three_quarters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A speck of 50 px beside two dice of 100, one doubted: the others' median is 75, and
    the doubted die over 1.3 times it, so it is read again at 75 px (docs/vision.md, Known limits:
    Size rules); it stays if it still reads as a die."""
    found = np.array([[100, 100, 50, 0.9], [300, 100, 100, 0.9], [500, 100, 100, 0.4]])
    reads = [read_scores(1, 0.9), read_scores(2, 0.95), read_scores(3, 0.95)]
    dice, asked = _roll_cut_to_size(monkeypatch, found, reads, read_scores(3, 0.9))
    assert [finds[:, 2].tolist() for finds in asked] == [[75.0]]
    assert {2, 3} <= set(dice.values)


def test_two_finds_are_not_cut_to_each_others_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Of two finds, neither tells the roll's size: a doubted find twice the other (1.33
    times their median) is not read again, and both are reported."""
    found = np.array([[100, 100, 100, 0.9], [600, 100, 200, 0.4]])
    dice, asked = _roll_cut_to_size(
        monkeypatch, found, [read_scores(2, 0.95), read_scores(1, 0.9)], read_scores(1, 0.9, 0.2)
    )
    assert asked == []
    assert dice.values == [2, 1]


def test_at_a_slant_a_doubted_find_is_held_to_the_slants_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dice growing from 32 px at the far edge to 107 px at the near one: a near die the
    finder doubts is over `DOUBTED_MOST` times the median but the slant's size there, and
    is not read again; a doubted find 1.7 times the slant's size (82.5 px) amid the roll
    is, at the slant's size. A far doubted find over both sizes is cut to the slant's
    (32.5 px), not the median's."""
    rows = [(100, 100), (300, 110), (500, 90), (200, 300), (450, 320), (100, 700), (300, 700)]
    found = np.array([[x, y, 20.0 + 0.125 * y, 0.9] for x, y in rows] + [[300, 500, 140.25, 0.4]])
    found[6, 3] = 0.4  # the near die (107.5 px), doubted
    assert found[6, 2] > roll.DOUBTED_MOST * np.median(found[:, 2])
    reads = [read_scores(k % 6 + 1, 0.95) for k in range(8)]
    dice, asked = _roll_cut_to_size(monkeypatch, found, reads, read_scores(1, 0.9, 0.2))
    (again,) = asked
    assert again[:, :3].tolist() == [[300, 500, 82.5]]
    assert len(dice) == 7
    # the slant only narrows the median's test: a far doubted find 1.6 times the slant's
    # size there (32.5 px) but under the roll's (54.75) is not read again
    far = np.concatenate([found[:7], [[400, 100, 1.6 * 32.5, 0.4]]])
    dice, asked = _roll_cut_to_size(monkeypatch, far, reads, read_scores(1, 0.9, 0.2))
    assert asked == [] and len(dice) == 8
    far[7, 2] = 80.0  # over both: cut to the slant's size at its place
    dice, asked = _roll_cut_to_size(monkeypatch, far, reads, read_scores(1, 0.9, 0.2))
    assert [finds[:, 2].tolist() for finds in asked] == [[32.5]]
    assert len(dice) == 7


def test_each_find_has_the_gain_of_where_it_lies(drawn: Drawn) -> None:
    """`_Looks.gains_at`: a dark frame's gain everywhere, or the shadow's lift where each
    find lies, which the marks test and the unread colour patches go by: of two marked
    patches read as dice but unread, the one in a lifted shadow is not reported, as none
    in a dark frame scaled up is, and the lit one is (as both are, lift unknown)."""
    draw_die = drawn[0]
    img = np.full((720, 1280, 3), 200, np.float32)
    for x in (100, 1200):
        draw_die(img, 5, (x, 300), 44)
    img[:, 640:] *= 0.2
    lifted, lift = light.shadows_lifted(np.clip(img, 0, 255).astype(np.uint8))
    found = np.array([[100.0, 300.0, 44.0, 0.9], [1200.0, 300.0, 44.0, 0.9]], np.float32)
    unknown = dataclasses.replace(grey_looks(1280, 720), image=lifted)
    shadowed = dataclasses.replace(unknown, lift=lift)
    assert shadowed.gains_at(found) == pytest.approx([1.0, 3.65], abs=0.05)
    dark = dataclasses.replace(unknown, gain=2.5)
    assert dark.gains_at(found).tolist() == [2.5, 2.5]
    patches = np.ones(2, bool)
    probs = np.array([[0.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.6]] * 2, np.float32)  # (die 1.0)
    assert shadowed.unread_patches(found, probs, patches).tolist() == [True, False]
    assert not dark.unread_patches(found, probs, patches).any()
    assert unknown.unread_patches(found, probs, patches).tolist() == [True, True]


def test_boxes_at_the_frame_edge_are_cut_to_it_and_dice_run_left_to_right() -> None:
    """A die half out of a 640x480 frame's right edge gets a box cut there (narrower than
    tall), one at the bottom edge a box cut there (wider than tall), and the roll is
    ordered left to right whatever its rows."""
    found = np.array([[630, 100, 40, 0.9], [100, 470, 40, 0.9]], np.float32)
    probs = np.full((2, 7), 0.01, np.float32)
    probs[:, 3] = 0.94
    dets = roll._detections(found, probs, (640, 480))
    assert [d.center_xy for d in dets] == [(100.0, 470.0), (630.0, 100.0)]
    assert [d.box_xywh for d in dets] == [(80, 450, 40, 30), (610, 80, 30, 40)]
    assert dets.values == [3, 3]
