"""vision/slant.py: a roll photographed at a steep slant is read again with its dice's crops
moved up onto their top faces and stretched upright, and that reading taken only where the
readers read the whole roll clearly better so."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import vision
from tests.vision.conftest import grey_looks, read_scores
from vision import faces, roll, slant
from vision.finds import readings
from vision.model import CROP, crop_die


def _roll(*readings: tuple[int, float]) -> np.ndarray:
    return np.array([read_scores(v, c) for v, c in readings], np.float32)


def test_a_find_is_moved_up_by_a_share_of_its_side() -> None:
    found = np.array([[100, 100, 40, 0.9], [300, 200, 60, 0.5]], np.float32)
    moved = slant.moved_up(found, 0.25)
    assert moved.tolist() == [[100, 90, 40, pytest.approx(0.9)], [300, 185, 60, 0.5]]
    assert found[0, 1] == 100  # (a copy)


def test_the_clarity_of_a_roll_is_its_dice_mean_log_confidence() -> None:
    assert slant.clarity(_roll((3, 0.9), (5, 0.9))) == pytest.approx(np.log(0.9 + slant.FLOOR))
    assert slant.clarity(_roll((3, 0.9), (5, 0.5))) < slant.clarity(_roll((3, 0.9), (5, 0.9)))


def test_the_slant_read_most_clearly_is_taken_if_clearly_better() -> None:
    as_found = _roll((3, 0.7), (5, 0.6), (2, 0.9))
    slants = np.stack(
        [
            _roll((3, 0.8), (5, 0.7), (2, 0.9)),
            _roll((4, 0.97), (6, 0.95), (2, 0.95)),  # the clearest
            _roll((4, 0.9), (6, 0.9), (2, 0.9)),
        ]
    )
    assert slant.slant_taken(as_found, slants) == 1
    barely = np.stack([_roll((3, 0.72), (5, 0.62), (2, 0.9))])  # better, not by GAIN
    assert slant.clarity(barely[0]) > slant.clarity(as_found)
    assert slant.slant_taken(as_found, barely) == -1
    assert slant.slant_taken(as_found[:1], slants[:, :1]) == -1  # one die: not judged


def test_every_slant_is_read_only_if_a_first_one_reads_more_clearly() -> None:
    as_found = _roll((3, 0.8), (5, 0.8))
    assert slant.steeper_worth_reading(as_found, _roll((3, 0.85), (5, 0.8)))
    assert not slant.steeper_worth_reading(as_found, _roll((3, 0.75), (5, 0.8)))
    assert not slant.steeper_worth_reading(as_found[:1], _roll((3, 0.99)))
    worse, better = _roll((3, 0.6), (5, 0.8)), _roll((3, 0.9), (5, 0.8))
    assert slant.steeper_worth_reading(as_found, worse, better)  # (either slant will do)
    assert not slant.steeper_worth_reading(as_found, worse, worse)


def test_a_die_read_much_more_surely_as_found_keeps_its_reading() -> None:
    read_as = _roll((1, 0.95), (1, 0.9), (3, 0.5))
    at_slant = _roll((5, 0.43), (2, 0.8), (4, 0.9))
    assert slant.taken_dice(read_as, at_slant).tolist() == [False, True, True]


def test_a_crop_stretched_upright_shows_a_squashed_face_square() -> None:
    """A square squashed to half its height, stretched by 2, fills the crop as the square
    itself does unstretched."""
    square = np.full((400, 400, 3), 255, np.uint8)
    square[150:250, 150:250] = 0
    squashed = np.full((400, 400, 3), 255, np.uint8)
    squashed[175:225, 150:250] = 0
    plain = crop_die(square, (200, 200), 100) < 128
    stretched = crop_die(squashed, (200, 200), 100, stretch=2.0) < 128
    assert plain.shape == stretched.shape == (CROP, CROP, 3)
    assert np.mean(plain != stretched) < 0.02  # (the same square, in the same place)
    assert (crop_die(squashed, (200, 200), 100) < 128).sum() < 0.6 * plain.sum()


def test_a_roll_drawn_at_45_degrees_reads_right_only_read_at_its_slant(
    drawn_rolls: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Black dice seen from 45 degrees, the phone upright: as found, three of the six read
    wrong (the finder's centres lie on the side faces); read at the slant, all six right."""
    img, drawn = drawn_rolls.drawn_roll(
        np.random.default_rng(4), "black", "plain", 48, 45, upright=True
    )
    truth = sorted(d.value for d in drawn)
    assert sorted(d.value for d in vision.read(img)) == truth
    monkeypatch.setattr(slant, "GAIN", np.inf)  # (no slant is ever taken)
    assert sorted(d.value for d in vision.read(img)) != truth


def test_a_roll_drawn_at_50_degrees_needs_its_crops_moved_further_up(
    drawn_rolls: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Black dice seen from 50 degrees, the phone upright: read at the slant moved up 0.3 of
    a side (stretched 1.41), all six right; at session 64's slants, which stretched the
    crops for 50 and 54 degrees instead of moving them further, the six found, a 2 reads
    as a 3."""
    img, drawn = drawn_rolls.drawn_roll(
        np.random.default_rng(8), "black", "plain", 48, 50, upright=True
    )
    taken: list[int] = []  # (the slant taken for each roll read)
    real = slant.slant_taken

    def spy(as_found: np.ndarray, at_slants: np.ndarray) -> int:
        taken.append(real(as_found, at_slants))
        return taken[-1]

    monkeypatch.setattr(slant, "slant_taken", spy)
    truth = sorted(d.value for d in drawn)
    assert sorted(d.value for d in vision.read(img)) == truth
    assert slant.SLANTS[taken[-1]] == (0.3, 1.41)
    stretched = ((0.15, 1.31), (0.2, 1.41), (0.2, 1.56), (0.25, 1.7))
    monkeypatch.setattr(slant, "SLANTS", stretched)
    monkeypatch.setattr(slant, "FIRST_SLANTS", (stretched[0], stretched[2]))
    read = sorted(d.value for d in vision.read(img))
    assert stretched[taken[-1]] == (0.25, 1.7)  # (read at a slant, but not far enough up)
    assert len(read) == len(truth) and read != truth


def test_a_roll_seen_from_above_is_not_read_at_a_slant(
    drawn_rolls: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[np.ndarray] = []  # (the rolls a slant was taken for)
    real = slant.taken_dice

    def spy(read_as: np.ndarray, at_slant: np.ndarray) -> np.ndarray:
        taken.append(read_as)
        return real(read_as, at_slant)

    monkeypatch.setattr(slant, "taken_dice", spy)
    for seed in range(3):
        img, drawn = drawn_rolls.drawn_roll(np.random.default_rng(seed), "white", "wood", 48, 0)
        assert sorted(d.value for d in vision.read(img)) == sorted(d.value for d in drawn)
    assert not taken
    steep, _ = drawn_rolls.drawn_roll(
        np.random.default_rng(4), "black", "plain", 48, 45, upright=True
    )
    vision.read(steep)
    assert len(taken) == 1  # (the spy sees a slant taken)


def test_a_roll_pays_for_the_first_look_and_reads_on_only_if_it_tells_a_slant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six dice: the first reader reads three of them as found and at two slants (nine
    crops); only where a slant reads them more clearly are all six read at every slant by
    the readers (thirty crops), each die taking its own reading at the slant taken."""
    looks = grey_looks(800, 200)
    found = np.array([[60 + 120 * i, 100, 40, 0.9] for i in range(6)], np.float32)
    probs = _roll(*[(3, 0.95)] * 6)
    steep = slant.SLANTS[1]  # (45 degrees: every die reads 0.99 there, its own value)
    first_tells = False
    seen: list[list[tuple[float, float, float]]] = []  # (x, y, stretch) of each crop read

    def crop_die(
        image: np.ndarray, xy: tuple[float, float], side: float, *, stretch: float = 1.0
    ) -> np.ndarray:
        return np.array([[[xy[0], xy[1], stretch]]])

    def scores(crops: list[np.ndarray], first: bool) -> np.ndarray:
        seen.append([tuple(c[0, 0]) for c in crops])
        out = []
        for x, y, stretch in seen[-1]:
            die = round((x - 60) / 120)  # (0-5, left to right)
            if not first and (y, stretch) == (pytest.approx(100 - steep[0] * 40), steep[1]):
                out.append(read_scores(die + 1, 0.99))
            elif first and stretch > 1.0 and first_tells:
                out.append(read_scores(3, 0.9))
            else:
                out.append(read_scores(3, 0.8))
        return np.array(out, np.float32)

    firsts: list[np.ndarray] = []  # (the first reader's scores each glance was given)

    def glance(crops: list[np.ndarray], *, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        firsts.append(first)
        return scores(crops, False), np.zeros(len(crops), bool)

    monkeypatch.setattr(faces, "crop_die", crop_die)
    read_first: list[np.ndarray] = []  # (what the first reader gave, call by call)

    def first_reader(crops: list[np.ndarray]) -> np.ndarray:
        read_first.append(scores(crops, True))
        return read_first[-1]

    monkeypatch.setattr(roll, "first_reader", first_reader)
    monkeypatch.setattr(roll, "glance", glance)
    assert looks.at_slant(found, probs) is probs  # (the first look tells no slant)
    assert len(seen) == 1 and len(seen[0]) == 3 * (1 + len(slant.FIRST_SLANTS))
    assert {x for x, _, _ in seen[0]} == {60, 180, 300}  # (three dice)
    shift, stretch = slant.FIRST_SLANTS[1]
    assert (180, 100 - shift * 40, stretch) in seen[0]  # (moved up, stretched)
    first_tells = True
    read = looks.at_slant(found, probs)
    # the first reader reads each of the thirty crops once: the first look's nine are
    # given to the glance, with the other twenty-one read then
    assert len(seen) == 4 and len(seen[2]) == 6 * (1 + len(slant.SLANTS)) - len(seen[1])
    assert len(seen[3]) == 6 * (1 + len(slant.SLANTS)) and len(firsts[0]) == len(seen[3])
    assert sorted(seen[1] + seen[2]) == sorted(seen[3])
    looked_at = [seen[3].index(crop) for crop in seen[1]]
    assert np.array_equal(firsts[0][looked_at], read_first[1])
    assert readings(read)[0].tolist() == [1, 2, 3, 4, 5, 6]  # (each die its own reading)
    seen.clear()
    assert looks.at_slant(found[:1], probs[:1]) is not None and not seen  # (one die: no look)
