"""The networks' plumbing: input blobs, the face readers' second look, the die finder."""

import cv2
import numpy as np
import pytest

from vision import model


def test_blob_matches_opencv():
    rng = np.random.default_rng(0)
    images = [rng.integers(0, 256, (37, 53, 3), dtype=np.uint8) for _ in range(3)]
    expected = cv2.dnn.blobFromImages(images, 1 / 255, None, (127.5, 127.5, 127.5), False, False)
    assert np.array_equal(model._blob(images), expected)


def _crops(drawn) -> list[np.ndarray]:
    """Die crops the readers find hard (tiny, blurred, off-centre) and plain table crops."""
    draw_die, table = drawn
    crops = []
    for k, value in enumerate(range(1, 7)):
        img = table((120, 110, 100), (120, 120), seed=k)
        draw_die(img, value, (60 + 3 * k, 58), 18 + 2 * k, angle=11 * k)
        img = cv2.GaussianBlur(img, (0, 0), 1.2)
        crops.append(model.crop_die(img, (60.0, 60.0), 20.0 + 2 * k))
        crops.append(model.crop_die(img, (60.0 + 9, 60.0), 20.0 + 2 * k))
    crops.append(model.crop_die(table((90, 60, 40), (120, 120), seed=9), (60.0, 60.0), 30.0))
    return crops


def test_wider_look_never_decides_whether_it_is_a_die(drawn):
    crops = _crops(drawn)
    calls = []

    def wider(i: int) -> np.ndarray:
        calls.append(i)
        return cv2.resize(crops[i][4:-4, 4:-4], (model.CROP, model.CROP))

    plain = model.classify_crops(crops, wider=None)
    wide = model.classify_crops(crops, wider=wider)
    assert calls, "no crop was unsure enough for a second look: the test needs harder crops"
    np.testing.assert_allclose(wide[:, 0], plain[:, 0], atol=1e-6)
    np.testing.assert_allclose(wide.sum(axis=1), 1.0, atol=1e-5)
    calls.clear()
    # a crop the turned views already reject is not cut wider
    model.classify_crops(crops, wider=wider, min_dieness=1.01)
    assert calls == []


def test_first_reader_alone_reads_the_dice_it_is_sure_of(drawn, monkeypatch):
    """A die the first reader reads at ALONE or more is not shown to the second; the rest
    get both readers' average, as before."""
    draw_die, table = drawn
    img = table((200, 200, 195), (120, 120))
    draw_die(img, 4, (60, 60), 50, angle=8)
    clear = model.crop_die(img, (60.0, 60.0), 50.0)
    crops = [clear, *_crops(drawn)]
    passes: dict[str, int] = {}
    softmax_of = model._softmax_of

    def counted(name: str, blob: np.ndarray) -> np.ndarray:
        passes[name] = passes.get(name, 0) + len(blob)
        return softmax_of(name, blob)

    monkeypatch.setattr(model, "_softmax_of", counted)
    probs, _ = model._first_look(crops)
    first, second = model.CLS_FILES
    assert passes[first] == len(crops)
    by_first = model._softmax_of(first, model._blob(crops))
    alone = by_first.max(axis=1) >= model.ALONE
    assert alone[0] and not alone.all()
    assert passes[second] == len(crops) - alone.sum()
    np.testing.assert_allclose(probs[alone], by_first[alone], atol=1e-6)
    both, _ = model._scores(model._blob(crops))
    np.testing.assert_allclose(probs[~alone], both[~alone], atol=1e-6)
    assert int(probs[0].argmax()) == 4


@pytest.mark.parametrize("table_colour", [(200, 200, 195), (45, 60, 80)])
def test_finder_marks_die_centres_and_sizes(drawn, table_colour):
    """At the size the reader scales dice to (about 34 px), each die is one find near its
    centre, with a size between its side and its turned extent (1.41 sides at 45 degrees)."""
    draw_die, table = drawn
    img = table(table_colour, (320, 256), seed=1)
    centres = [(60, 60), (170, 70), (260, 90), (90, 190), (220, 190)]
    for k, c in enumerate(centres):
        draw_die(img, k + 2, c, 34, angle=11 * k)
    found = model.find_centres(img)
    found = found[found[:, 3] >= 0.5]
    assert len(found) == len(centres)
    for cx, cy in centres:
        d = np.hypot(found[:, 0] - cx, found[:, 1] - cy)
        i = int(np.argmin(d))
        assert d[i] < 0.3 * 34
        assert 0.75 * 34 < found[i, 2] < 1.6 * 34
