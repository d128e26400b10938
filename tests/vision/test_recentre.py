"""vision/recentre.py: a die read unsure is read again with its crop moved onto its top face
(dice seen at a slant, side faces showing), never towards another die, and only a clear,
unambiguous reading is taken."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import vision
from tests.vision.conftest import grey_looks, read_scores
from vision import faces, recentre, roll
from vision.finds import readings
from vision.model import crop_die, glance


def test_a_find_is_moved_0_3_of_its_side_each_way() -> None:
    found = np.array([[100, 100, 40, 0.9], [300, 200, 60, 0.5]], np.float32)
    moved = recentre.moved(found, np.array([1]))
    assert moved.shape == (recentre.WAYS, 4)
    step = recentre.SHIFT * 60
    assert moved[0].tolist() == pytest.approx([300 + step, 200, 60, 0.5])  # (first: +x)
    assert moved[recentre.WAYS // 4].tolist() == pytest.approx([300, 200 + step, 60, 0.5])
    dist = np.hypot(moved[:, 0] - 300, moved[:, 1] - 200)
    assert dist == pytest.approx(np.full(recentre.WAYS, step), abs=1e-3)
    both = recentre.moved(found, np.array([0, 1]))  # (a find's ways one after another)
    assert np.array_equal(both[recentre.WAYS :], moved)
    far = recentre.moved(found, np.array([1]), shift=0.7)
    dist = np.hypot(far[:, 0] - 300, far[:, 1] - 200)
    assert dist == pytest.approx(np.full(recentre.WAYS, 0.7 * 60), abs=1e-3)


def test_the_ways_towards_a_neighbour_are_closed() -> None:
    found = np.array(
        [[100, 100, 40, 0.9], [160, 100, 40, 0.9], [100, 300, 40, 0.9], [400, 400, 40, 0.9]],
        np.float32,
    )
    closed = recentre.closed_ways(found, np.array([0, 3]))
    # the die 1.5 sides to the right closes right, down-right and up-right; the one 5 sides
    # below is too far to matter, and so are all for the lone die
    assert np.flatnonzero(closed[0]).tolist() == [0, 1, 7]
    assert not closed[1].any()
    big = found.copy()
    big[2, 2] = 120  # (within twice the bigger die's side)
    assert np.flatnonzero(recentre.closed_ways(big, np.array([0]))[0]).tolist() == [0, 1, 2, 3, 7]


def _ways(readings: dict[int, tuple[int, float, float]]) -> np.ndarray:
    """Scores of a die's moved crops: each way read unsure as a 3 unless given."""
    return np.array(
        [read_scores(*readings.get(k, (3, 0.5, 0.95))) for k in range(recentre.WAYS)], np.float32
    )


@pytest.mark.parametrize(
    "readings, closed, way",
    [
        ({2: (5, 0.96, 0.99)}, [], 2),  # one way reads it clearly: taken
        ({2: (5, 0.93, 0.99), 3: (5, 0.97, 0.99)}, [], 3),  # the clearest of two alike
        ({2: (5, 0.85, 0.99)}, [], -1),  # not clearly
        ({2: (5, 0.96, 0.99), 6: (2, 0.95, 0.99)}, [], -1),  # a top one way, a side the other
        ({2: (5, 0.96, 0.99)}, [2], -1),  # towards another die
        ({2: (5, 0.96, 0.99), 6: (2, 0.95, 0.99)}, [6], 2),  # ... whose face it read
        ({2: (5, 0.93, 0.99), 6: (2, 0.97, 0.99)}, [6], 2),  # ... however clearly
        ({2: (5, 0.96, 0.6)}, [], -1),  # clear, but hardly a die there
        ({2: (5, 0.97, 0.6), 3: (5, 0.92, 0.99)}, [], 3),  # ... the next way is one
        ({1: (4, 0.93, 0.97), 6: (2, 0.91, 0.69)}, [], -1),  # another value there still counts
    ],
)
def test_a_way_is_taken_only_where_it_reads_the_die_clearly_and_alone(
    readings: dict[int, tuple[int, float, float]], closed: list[int], way: int
) -> None:
    shut = np.isin(np.arange(recentre.WAYS), closed)
    assert recentre.best_way(_ways(readings), shut, dieness=0.7) == way


@pytest.mark.parametrize(
    "taken, way",
    [
        ([1, 1], 1),
        ([1, 2, 1], 1),  # neighbouring ways agree; the sum is nearest the middle one
        ([1], -1),  # one die alone does not make the roll's way
        ([1, 5], -1),  # opposite ways
        ([0, 2], 1),  # two a quarter turn apart just agree, on the way between
        ([0, 3], -1),  # 135 degrees apart: not
    ],
)
def test_the_rolls_way_is_the_one_its_dice_agree_on(taken: list[int], way: int) -> None:
    assert recentre.roll_way(taken) == way


def test_a_die_unread_takes_the_rolls_way_only_if_read_more_surely_there() -> None:
    ways = _ways({3: (4, 0.75, 0.99), 5: (2, 0.7, 0.6)})
    now = read_scores(6, 0.5)
    open_ = np.zeros(recentre.WAYS, bool)
    assert recentre.on_roll_way(ways, open_, 3, now, dieness=0.7)
    assert not recentre.on_roll_way(ways, open_, -1, now, dieness=0.7)  # no roll's way
    assert not recentre.on_roll_way(ways, np.isin(np.arange(8), [3]), 3, now, dieness=0.7)
    assert not recentre.on_roll_way(ways, open_, 3, read_scores(6, 0.8), dieness=0.7)
    assert not recentre.on_roll_way(ways, open_, 0, read_scores(6, 0.3), dieness=0.7)  # 0.5
    assert not recentre.on_roll_way(ways, open_, 5, now, dieness=0.7)  # hardly a die there


Reading = tuple[int, float, float]  # (value, its probability, dieness): `read_scores`


def _recentred(
    monkeypatch: pytest.MonkeyPatch,
    dice: list[tuple[float, float, tuple[int, float]]],
    moved: dict[tuple[int, int], Reading],
    narrow: dict[tuple[int, int], Reading] | None = None,
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """`_Looks.recentred` on finds of 40 px at (x, y) read as given, with the readers'
    scores of moved crops stubbed: at a moved centre (rounded) as `moved` says (as
    `narrow` says for a crop cut narrower than the find), else a 3 read unsure. Returns
    the scores and the centres of the crops read at the find's own side (each way is read
    at every one of `recentre.SIDES`)."""
    found = np.array([[x, y, 40, 0.9] for x, y, _ in dice], np.float32)
    probs = np.array([read_scores(*r) for _, _, r in dice], np.float32)
    asked: list[tuple[int, int]] = []
    sides: list[float] = []

    def crops(image: np.ndarray, at: np.ndarray) -> list[tuple[int, int, float]]:
        return [(round(float(x)), round(float(y)), float(side)) for x, y, side in at[:, :3]]

    def glance(cut: list[tuple[int, int, float]]) -> tuple[np.ndarray, np.ndarray]:
        asked.extend((x, y) for x, y, side in cut if side == 40)
        sides.extend(side for *_, side in cut)
        rows = [
            read_scores(
                *(narrow or {}).get((x, y), moved.get((x, y), (3, 0.5, 0.95)))
                if side < 40
                else moved.get((x, y), (3, 0.5, 0.95))
            )
            for x, y, side in cut
        ]
        return np.array(rows, np.float32).reshape(-1, 7), np.zeros(len(rows), bool)

    monkeypatch.setattr(faces, "crops_of", crops)
    monkeypatch.setattr(roll, "glance", glance)
    looks = grey_looks(600, 400)
    out, scores = looks.recentred(found, probs)
    assert np.array_equal(out, found)  # (finds and boxes stay)
    assert sorted(set(sides)) == sorted(40 * share for share in recentre.SIDES)
    assert len(sides) == len(recentre.SIDES) * len(asked)
    return scores, asked


def test_a_way_read_clearly_only_in_a_narrower_crop_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seen at a slant, a crop of the find's side takes in a side face's pips: a way read
    unsure at that side but clearly cut narrower gives the narrower reading; one where the
    narrower crop is no die keeps the reading at the find's side."""
    step = round(recentre.SHIFT * 40)
    dice = [(300.0, 200.0, (4, 0.5))]
    at_side = {(300, 200 + step): (6, 0.6, 0.99)}
    scores, _ = _recentred(monkeypatch, dice, at_side, {(300, 200 + step): (4, 0.96, 0.99)})
    assert readings(scores)[0].tolist() == [4] and readings(scores)[1][0] >= 0.9
    clear_at_side = {(300, 200 + step): (5, 0.95, 0.99)}
    hardly_a_die = {(300, 200 + step): (2, 0.97, 0.6)}  # (under the readers' 0.7)
    scores, _ = _recentred(monkeypatch, dice, clear_at_side, hardly_a_die)
    assert readings(scores)[0].tolist() == [5]  # (the narrower crop no die: the find's side)
    clear = {(300, 200 + step): (5, 0.95, 0.99)}
    scores, _ = _recentred(monkeypatch, dice, clear, {(300, 200 + step): (5, 0.92, 0.99)})
    assert readings(scores)[0].tolist() == [5] and readings(scores)[1][0] == pytest.approx(0.95)


def test_clearest_takes_the_size_read_most_clearly_as_a_die() -> None:
    full = np.array(
        [read_scores(*r) for r in ((6, 0.6, 0.99), (3, 0.85, 0.99), (2, 0.5, 0.3), (4, 0.9, 0.9))]
    )
    cut = np.array(
        [read_scores(*r) for r in ((4, 0.95, 0.99), (1, 0.99, 0.65), (5, 0.5, 0.2), (6, 0.9, 0.8))]
    )
    best = recentre.clearest(np.stack([full, cut]), dieness=0.7)
    # the second crop cut narrower reads more clearly but hardly as a die; neither reading
    # of the third is a die, and the fourth is a tie: the find's own side
    np.testing.assert_array_equal(best, [cut[0], full[1], full[2], full[3]])
    np.testing.assert_array_equal(recentre.clearest(np.stack([cut, full]), dieness=0.7)[3], cut[3])
    found = np.array([[10, 20, 40, 0.5]], np.float32)
    np.testing.assert_array_equal(recentre.narrowed(found, 0.75), [[10, 20, 30, 0.5]])
    assert found[0, 2] == 40  # (a copy)


def test_a_roll_reads_its_unsure_dice_again_on_their_open_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Of a die read surely (0.85), one read unsure beside it (60 px to its right) and one
    alone: only the unsure ones are read again, the first not towards its neighbour."""
    step = round(recentre.SHIFT * 40)
    dice = [(100.0, 100.0, (2, 0.85)), (160.0, 100.0, (1, 0.5)), (400.0, 300.0, (6, 0.4))]
    moved = {(160 - step, 100): (2, 0.97, 0.99), (400, 300 + step): (5, 0.95, 0.99)}
    scores, asked = _recentred(monkeypatch, dice, moved)
    values, confidence = readings(scores)
    # the middle die's way back towards the surely read die is closed (its crop would read
    # that die's 2), the lone die's way down reads it clearly
    assert values.tolist() == [2, 1, 5] and confidence[2] >= 0.9
    assert (160 - step, 100) not in asked and not any(c[0] < 130 for c in asked)
    assert len(asked) == 2 * recentre.WAYS - 3  # (the three ways towards it not read, and
    # the middle die, with a find beside it, not read farther out)
    assert np.array_equal(scores[0], read_scores(2, 0.85))


def test_a_clear_way_where_the_readers_doubt_a_die_is_not_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    step = round(recentre.SHIFT * 40)
    dice = [(300.0, 200.0, (4, 0.5))]
    scores, _ = _recentred(monkeypatch, dice, {(300 + step, 200): (5, 0.96, 0.75)})
    assert readings(scores)[0].tolist() == [5]  # (0.75: over the reader's min_dieness)
    scores, _ = _recentred(monkeypatch, dice, {(300 + step, 200): (5, 0.96, 0.65)})
    assert readings(scores)[0].tolist() == [4]


def test_a_die_no_way_reads_clearly_takes_the_way_the_rolls_dice_took(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    step = round(recentre.SHIFT * 40)
    dice = [(100.0, 100.0, (1, 0.5)), (300.0, 100.0, (2, 0.5)), (500.0, 100.0, (3, 0.4))]
    down = {(x, 100 + step): (v, 0.95, 0.99) for x, v in ((100, 4), (300, 6))}
    scores, _ = _recentred(monkeypatch, dice, down | {(500, 100 + step): (5, 0.7, 0.99)})
    assert readings(scores)[0].tolist() == [4, 6, 5]
    one = {(100, 100 + step): (4, 0.95, 0.99), (500, 100 + step): (5, 0.7, 0.99)}
    scores, _ = _recentred(monkeypatch, dice, one)  # (one die's way alone is no roll's way)
    assert readings(scores)[0].tolist() == [4, 2, 3]


def test_a_die_no_near_way_reads_clearly_is_read_farther_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A die alone whose top lies half a side from its find: read clearly only there; a
    side face read clearly the other way, farther out, leaves it as it was; a die with
    another find near (maybe a pile, a die the finder missed beside it) is not read so far
    out."""
    far = round(recentre.FARTHER[0] * 40)
    dice = [(300.0, 200.0, (4, 0.5))]
    scores, asked = _recentred(monkeypatch, dice, {(300, 200 + far): (6, 0.95, 0.99)})
    assert readings(scores)[0].tolist() == [6] and len(asked) == 8 * (1 + len(recentre.FARTHER))
    both = {(300, 200 + far): (6, 0.95, 0.99), (300, 200 - far): (2, 0.93, 0.99)}
    scores, _ = _recentred(monkeypatch, dice, both)
    assert readings(scores)[0].tolist() == [4]
    near = round(recentre.SHIFT * 40)  # (read clearly near: not read farther out)
    _, asked = _recentred(monkeypatch, dice, {(300, 200 + near): (6, 0.95, 0.99)})
    assert len(asked) == recentre.WAYS
    pile = dice + [(300.0, 130.0, (2, 0.97))]  # (under two sides above: the ways up closed)
    scores, asked = _recentred(monkeypatch, pile, {(300, 200 + far): (6, 0.95, 0.99)})
    assert readings(scores)[0].tolist() == [4, 2] and len(asked) == recentre.WAYS - 3


def test_dice_read_farther_out_lend_their_way_to_the_roll(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two dice alone whose tops lie below their finds, 0.7 and 0.5 of a side: each read
    there, and the way they agree on (down) taken for a die beside another find, read more
    surely 0.3 below it."""
    far, farther, near = (round(k * 40) for k in (*recentre.FARTHER, recentre.SHIFT))
    dice = [
        (100.0, 100.0, (3, 0.5)),
        (300.0, 100.0, (2, 0.5)),
        (500.0, 300.0, (1, 0.4)),
        (560.0, 300.0, (6, 0.97)),  # (1.5 sides right of the third: its ways right closed)
    ]
    moved = {
        (100, 100 + farther): (5, 0.95, 0.99),
        (300, 100 + far): (4, 0.96, 0.99),
        (500, 300 + near): (2, 0.7, 0.99),
    }
    scores, asked = _recentred(monkeypatch, dice, moved)
    assert readings(scores)[0].tolist() == [5, 4, 2, 6]
    # the two alone read 8 ways at each shift, the third 5 ways, 0.3 off only
    assert len(asked) == 2 * recentre.WAYS * (1 + len(recentre.FARTHER)) + recentre.WAYS - 3


@pytest.mark.parametrize("seed, dice_set", [(20, "white"), (27, "black"), (22, "black")])
def test_a_die_seen_at_a_slant_is_read_on_its_top_face(
    drawn_rolls: ModuleType, seed: int, dice_set: str
) -> None:
    """Six dice of 48 px drawn at 35 degrees: one of them the readers misread at the centre
    the finder gives it (a side face's pips in the crop), read right with the crop moved."""
    img, drawn = drawn_rolls.drawn_roll(np.random.default_rng(seed), dice_set, "plain", 48, 35)
    read = vision.read(img)
    assert drawn_rolls.judged(drawn, read).right
    at_centre = [glance([crop_die(img, d.center_xy, d.box_xywh[2])])[0][0] for d in read.dice]
    wrong = [
        d for d, p in zip(read.dice, at_centre, strict=True) if int(np.argmax(p[1:])) + 1 != d.value
    ]
    assert wrong and all(d.confidence >= 0.9 for d in wrong)


@pytest.mark.parametrize(
    "seed, dice_set, table", [(6, "red", "wood"), (19, "any", "plain"), (27, "red", "plain")]
)
def test_a_die_whose_top_lies_far_from_its_find_is_read_there(
    drawn_rolls: ModuleType, monkeypatch: pytest.MonkeyPatch, seed: int, dice_set: str, table: str
) -> None:
    """Six dice of 48 px drawn at 35 degrees, one of them misread however its crop is moved
    `SHIFT` of a side: read right with the ways `FARTHER` off."""
    img, drawn = drawn_rolls.drawn_roll(np.random.default_rng(seed), dice_set, table, 48, 35)
    assert drawn_rolls.judged(drawn, vision.read(img)).right
    monkeypatch.setattr(recentre, "FARTHER", ())
    near_only = drawn_rolls.judged(drawn, vision.read(img))
    assert len(near_only.misread) == 1 and not near_only.missed and not near_only.extra


@pytest.mark.parametrize(
    "seed, dice_set, table", [(20, "red", "plain"), (29, "black", "plain"), (47, "black", "felt")]
)
def test_a_die_seen_at_a_slant_is_read_in_a_crop_narrower_than_its_find(
    drawn_rolls: ModuleType, monkeypatch: pytest.MonkeyPatch, seed: int, dice_set: str, table: str
) -> None:
    """Six dice of 48 px drawn at 35 degrees, read right; with every way read at the
    find's side alone (a side face's pips in each crop), not."""
    img, drawn = drawn_rolls.drawn_roll(np.random.default_rng(seed), dice_set, table, 48, 35)
    assert drawn_rolls.judged(drawn, vision.read(img)).right
    monkeypatch.setattr(recentre, "SIDES", (1.0,))
    assert not drawn_rolls.judged(drawn, vision.read(img)).right
