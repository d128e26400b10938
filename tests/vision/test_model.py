"""The networks' plumbing: input blobs, the face readers' second look, the die finder."""

from __future__ import annotations

import concurrent.futures
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import pytest

from vision import model

if TYPE_CHECKING:
    from tests.vision.conftest import Drawn

HAVE_ONNXRUNTIME = model.onnxruntime() is not None


@pytest.mark.parametrize("count", [1, 3])
def test_blob_matches_opencv(count: int) -> None:
    """One image (the finder's, copied a plane at a time) and a batch of crops (stacked)
    give OpenCV's own blob, to the bit."""
    rng = np.random.default_rng(count)
    images = [rng.integers(0, 256, (37, 53, 3), dtype=np.uint8) for _ in range(count)]
    expected = cv2.dnn.blobFromImages(
        images, 1 / 255, mean=(127.5, 127.5, 127.5), swapRB=False, crop=False
    )
    blob = model._blob(images)
    assert blob.flags.c_contiguous  # (else each engine copies it again)
    assert np.array_equal(blob, expected)


def _crops(drawn: Drawn) -> list[np.ndarray]:
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


def test_wider_look_never_decides_whether_it_is_a_die(drawn: Drawn) -> None:
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


def test_first_reader_alone_reads_the_dice_it_is_sure_of(
    drawn: Drawn, monkeypatch: pytest.MonkeyPatch
) -> None:
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
    # given the first reader's scores (`first_reader`), the glance reads them not again
    # and comes to the same, to the bit (the slant's first look, reused)
    known = model.first_reader(crops)
    passes.clear()
    given = model.glance(crops, first=known)
    assert passes == {second: len(crops) - alone.sum()}
    for a, b in zip(given, model.glance(crops), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("table_colour", [(200, 200, 195), (45, 60, 80)])
def test_finder_marks_die_centres_and_sizes(
    drawn: Drawn, table_colour: tuple[int, int, int]
) -> None:
    """At the size the reader scales dice to (about 34 px), each die is one find near its
    centre, with a size about its side or its turned extent (1.41 sides at 45 degrees).
    (The finder overstates these drawn dice a little: up to 1.56 sides.)"""
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


@pytest.mark.parametrize("pad", [16, 32])
def test_the_finder_input_is_padded_to_its_multiple(
    drawn: Drawn, monkeypatch: pytest.MonkeyPatch, engine: str, pad: int
) -> None:
    """The finder gets its image padded (edge pixels repeated) to the multiple of its
    sides that `config.json` names (`det_pad`: 32 for a finder trained `--context`), and
    its finds stay inside the image: a die drawn near the padded corner is found once,
    where it lies."""
    draw_die, table = drawn
    img = table((200, 200, 195), (150, 100), seed=2)
    draw_die(img, 5, (120, 70), 34, angle=7)
    shapes = []
    run = model._run

    def spy(name: str, blob: np.ndarray) -> np.ndarray:
        shapes.append(blob.shape[2:])
        return run(name, blob)

    monkeypatch.setattr(model, "_run", spy)
    monkeypatch.setattr(model, "DET_PAD", pad)
    found = model.find_centres(img)
    assert shapes == [(-(-100 // pad) * pad, -(-150 // pad) * pad)]
    found = found[found[:, 3] >= 0.5]
    assert len(found) == 1 and np.hypot(found[0, 0] - 120, found[0, 1] - 70) < 0.3 * 34


def test_a_batch_reads_as_its_crops_one_at_a_time(drawn: Drawn, engine: str) -> None:
    """The readers take all crops in one batch; each crop's reading is what it would get
    alone (the int8 readers' ranges are fixed, not taken from the batch)."""
    blob = model._blob(_crops(drawn))
    for name in model.CLS_FILES:
        batch = model._softmax_of(name, blob)
        alone = np.vstack([model._softmax_of(name, blob[i : i + 1]) for i in range(len(blob))])
        np.testing.assert_allclose(batch, alone, atol=1e-5)
        np.testing.assert_allclose(batch.sum(axis=1), 1.0, atol=1e-9)
    assert model._softmax_of(model.CLS_FILES[0], blob[:0]).shape == (0, 7)


def test_onnx_runtime_runs_int8_readers_and_the_float_finder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The int8 copies are for ONNX Runtime only; OpenCV's DNN and the finder stay float."""
    for name in model.CLS_FILES:
        assert (model.MODEL_DIR / model.int8_file(name)).is_file()
        assert model.network_file(name, "onnxruntime") == model.int8_file(name)
        assert model.network_file(name, "opencv") == name
    assert model.network_file(model.DET_FILE, "onnxruntime") == model.DET_FILE
    monkeypatch.setattr(model, "MODEL_DIR", model.MODEL_DIR / "no such folder")
    first = model.CLS_FILES[0]
    assert model.network_file(first, "onnxruntime") == first  # no int8 copy: the float one


def test_engine_named_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """HOTDICE_ENGINE picks the engine (to compare them); a typo is a one-line error, not a
    silent choice, and asking for ONNX Runtime where it is missing says so."""
    assert model.pick_engine("", have_onnxruntime=True) == "onnxruntime"
    assert model.pick_engine("auto", have_onnxruntime=False) == "opencv"
    assert model.pick_engine(" OpenCV ", have_onnxruntime=True) == "opencv"
    with pytest.raises(OSError, match="'openvc': not an engine"):
        model.pick_engine("openvc", have_onnxruntime=True)
    with pytest.raises(OSError, match="ONNX Runtime is not installed"):
        model.pick_engine("onnxruntime", have_onnxruntime=False)
    monkeypatch.setattr(model, "ENGINE", None)
    monkeypatch.setenv("HOTDICE_ENGINE", "opencv")
    assert model.engine() == "opencv"
    monkeypatch.setenv("HOTDICE_ENGINE", "tensorflow")
    with pytest.raises(OSError, match="HOTDICE_ENGINE='tensorflow'"):
        model.find_centres(np.zeros((64, 64, 3), np.uint8))


@pytest.mark.skipif(not HAVE_ONNXRUNTIME, reason="ONNX Runtime not installed")
def test_onnx_runtime_uses_as_many_threads_as_opencv(monkeypatch: pytest.MonkeyPatch) -> None:
    """cv2.setNumThreads is the one thread knob: a benchmark that sets 1 stays on one core."""
    model._session.cache_clear()
    monkeypatch.setattr(model.cv2, "getNumThreads", lambda: 3)
    try:
        assert model._session(model.DET_FILE).get_session_options().intra_op_num_threads == 3
    finally:
        model._session.cache_clear()


def test_threads_loading_a_network_at_once_wait_for_one_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server's threads reading their first photos at once share one load of each network
    (and one int8 probe), rather than each loading it again."""
    loads: list[str] = []

    def slow_load(name: str, **options: object) -> object:
        loads.append(name)
        time.sleep(0.2)
        return object()

    monkeypatch.setattr(model, "_new_session", slow_load)
    model._session.cache_clear()
    try:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            sessions = list(pool.map(model._session, [model.DET_FILE] * 4))
        assert loads == [model.DET_FILE]
        assert all(session is sessions[0] for session in sessions)
    finally:
        model._session.cache_clear()


@pytest.fixture
def model_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the shipped networks that a test may damage, read instead of them."""
    import shutil

    for file in model.MODEL_DIR.iterdir():
        shutil.copy(file, tmp_path / file.name)
    monkeypatch.setattr(model, "MODEL_DIR", tmp_path)
    caches = (model._session, model._net, model._ships, model._saturates)
    for cache in caches:
        cache.cache_clear()
    yield tmp_path
    for cache in caches:
        cache.cache_clear()


FRAME = np.zeros((64, 64, 3), np.uint8)
CROPS = np.zeros((1, 3, model.CROP, model.CROP), np.float32)


def test_a_damaged_finder_file_is_a_one_line_error(model_copy: Path, engine: str) -> None:
    (model_copy / model.DET_FILE).write_bytes(b"not a network")
    pattern = r"dice_det.onnx: not a network (OpenCV|ONNX Runtime) can load \(.+\)$"
    with pytest.raises(OSError, match=pattern) as err:
        model.find_centres(FRAME)
    assert "\n" not in str(err.value) and str(model_copy) not in str(err.value).split(": ", 1)[1]
    (model_copy / model.DET_FILE).unlink()
    with pytest.raises(OSError, match="dice_det.onnx: model file missing"):
        model.find_centres(FRAME)


def test_a_damaged_int8_reader_is_an_error_only_where_it_is_read(
    model_copy: Path, engine: str
) -> None:
    """The int8 copy is ONNX Runtime's file: OpenCV's DNN reads the float reader still."""
    first = model.CLS_FILES[0]
    (model_copy / model.int8_file(first)).write_bytes(b"not a network")
    if engine == "opencv":
        assert model._softmax_of(first, CROPS).shape == (1, 7)
        return
    with pytest.raises(OSError, match=r"dice_cls.int8.onnx: not a network ONNX Runtime can load"):
        model._softmax_of(first, CROPS)


def test_a_swapped_network_file_is_a_one_line_error(model_copy: Path, engine: str) -> None:
    """A face reader's file where the finder's should be, and the other way round: it
    loads, but cannot take the input or gives the wrong output."""
    finder = (model_copy / model.DET_FILE).read_bytes()
    (model_copy / model.DET_FILE).write_bytes((model_copy / model.CLS_FILES[0]).read_bytes())
    wrong = r"dice_det.onnx: (does not take this input \(.+\)|not this network \(.+\))$"
    with pytest.raises(OSError, match=wrong):
        model.find_centres(FRAME)
    reader = model.network_file(model.CLS_FILES[0])
    (model_copy / reader).write_bytes(finder)
    wrong = rf"{reader}: (does not take this input \(.+\)|not this network \(.+\))$"
    with pytest.raises(OSError, match=wrong):
        model._softmax_of(model.CLS_FILES[0], CROPS)


@pytest.mark.skipif(not HAVE_ONNXRUNTIME, reason="ONNX Runtime not installed")
def test_both_engines_read_the_sample_photos_alike(
    samples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ONNX Runtime with the int8 readers reads every sample die as OpenCV's DNN with the
    float ones does; confidences move a little (0.11 at most, on a dark die)."""
    from vision import reader
    from vision.io import load_image

    photos = sorted(samples_dir.glob("*.jpg"))
    assert len(photos) >= 8
    for photo in photos:
        image = load_image(photo)
        reads = {}
        for engine in ("opencv", "onnxruntime"):
            monkeypatch.setattr(model, "ENGINE", engine)
            reads[engine] = reader.read(image).dice
        fast, slow = reads["onnxruntime"], reads["opencv"]
        assert [d.value for d in fast] == [d.value for d in slow], photo.name
        for a, b in zip(fast, slow, strict=True):
            assert abs(a.confidence - b.confidence) < 0.15, photo.name
            assert np.hypot(*np.subtract(a.center_xy, b.center_xy)) < 1.0, photo.name


def test_saturating_tells_strayed_logits_from_rounding() -> None:
    """Saturated 16-bit sums move most crops' logits by a third or more; the exact
    arithmetic and the fused kernels otherwise differ by a rounding step (0.04 at most),
    and one odd crop of the probe does not decide."""
    rng = np.random.default_rng(1)
    exact = rng.normal(0, 3, (16, 7)).astype(np.float32)
    rounding = exact + rng.choice([-0.04, 0.0, 0.04], (16, 7)).astype(np.float32)
    assert not model.saturating(rounding, exact)
    one_odd = rounding.copy()
    one_odd[3, 2] += 1.0
    assert not model.saturating(one_odd, exact)
    strayed = exact + rng.uniform(-0.6, 0.6, (16, 7)).astype(np.float32)
    assert model.saturating(strayed, exact)


def _probabilities(session: Any, blob: np.ndarray) -> np.ndarray:
    """A reader's probabilities from a given session of it (not the one `read` runs)."""
    return model.softmax(model._run_session(session, "a reader", blob))


@pytest.mark.skipif(not HAVE_ONNXRUNTIME, reason="ONNX Runtime not installed")
def test_the_int8_readers_read_real_dice_as_their_files_say(
    samples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On every CPU each int8 reader, as the reader runs it, reads the sample photos' dice
    as its file's exact arithmetic (op by op) does. The probe's noise crops tell where ONNX
    Runtime's fused kernels would not: there the first reader strayed (0.36 on an AVX2 CPU,
    0.036 at the 95th percentile of crops against 0.0002), and the reader runs it in uint8.
    OpenCV's DNN runs the float networks, which never saturate."""
    import json

    from vision.io import load_image

    monkeypatch.setattr(model, "ENGINE", "opencv")
    assert model.int8_saturates() == () and model.describe_engine() == "opencv"
    monkeypatch.setattr(model, "ENGINE", "onnxruntime")
    saturated = model.int8_saturates()
    crops = []
    for entry in json.loads((samples_dir / "labels.json").read_text())["images"]:
        image = load_image(samples_dir / entry["file"])
        for die in entry["dice"]:
            x, y, w, h = die["box"]
            for scale in (0.9, 1.0, 1.15):  # (as far off as the finder's sizes)
                crops.append(model.crop_die(image, (x + w / 2, y + h / 2), max(w, h) * scale))
    assert len(crops) >= 120
    blob = model._blob(crops)
    for name in model.CLS_FILES:
        file = model.int8_file(name)
        exact = _probabilities(model._new_session(file, exact=True), blob)
        as_run = _probabilities(model._session(file), blob)
        assert np.abs(as_run - exact).max() < 0.02, file
        fused = _probabilities(model._new_session(file), blob)
        strays = float(np.percentile(np.abs(fused - exact).max(axis=1), 95))
        assert (strays > 0.01) == (file in saturated), (file, strays)


@pytest.mark.skipif(not HAVE_ONNXRUNTIME, reason="ONNX Runtime not installed")
def test_a_reader_whose_int8_kernels_saturate_runs_in_uint8(
    monkeypatch: pytest.MonkeyPatch, drawn: Drawn
) -> None:
    """Where the probe finds a reader's int8 copy saturating, its session multiplies in
    uint8 x uint8 (ONNX Runtime's `session.x64quantprecision`), which reads as the file's
    exact arithmetic on every CPU (the probe's verdict is made up here), and the others'
    sessions are left as they are."""
    monkeypatch.setattr(model, "ENGINE", "onnxruntime")
    first, second = (model.int8_file(name) for name in model.CLS_FILES)
    monkeypatch.setattr(model, "_saturates", lambda folder, file: file == first)
    model._session.cache_clear()
    try:
        assert model.int8_saturates() == (first,)
        assert model.describe_engine() == (
            f"onnxruntime; {first} run in uint8: int8 saturates on this CPU, no VNNI"
        )
        precision = "session.x64quantprecision"
        options = [model._session(f).get_session_options() for f in (first, second)]
        assert options[0].get_session_config_entry(precision) == "1"
        with pytest.raises(RuntimeError, match="does not have configuration"):
            options[1].get_session_config_entry(precision)
        blob = model._blob(_crops(drawn))
        exact = _probabilities(model._new_session(first, exact=True), blob)
        np.testing.assert_allclose(_probabilities(model._session(first), blob), exact, atol=0.02)
    finally:
        model._session.cache_clear()


def test_threads_reading_at_once_read_as_one_alone(drawn: Drawn, engine: str) -> None:
    """A web server reads photos from several threads at once; each must get what it
    would get alone (an OpenCV network is not safe to run from two threads)."""
    from concurrent.futures import ThreadPoolExecutor

    crops = _crops(drawn)
    blobs = [model._blob(crops[k:]) for k in range(8)]
    alone = [model._softmax_of(model.CLS_FILES[-1], b) for b in blobs]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(5):
            together = list(pool.map(lambda b: model._softmax_of(model.CLS_FILES[-1], b), blobs))
            for a, t in zip(alone, together, strict=True):
                np.testing.assert_allclose(t, a, atol=1e-6)


def test_a_find_every_reader_takes_for_no_die_is_owed_no_vote(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The vote is there to read a face: a find the readers agree is no die (even unsurely)
    is not read again turned, while one they disagree on, or a die read unsurely, is."""
    first = np.array(
        [
            [0.52, 0.15, 0.06, 0.11, 0.04, 0.07, 0.05],  # agreed: no die, unsurely
            [0.52, 0.15, 0.06, 0.11, 0.04, 0.07, 0.05],  # the same, not agreed on
            [0.01, 0.08, 0.06, 0.15, 0.04, 0.08, 0.58],  # a die, read unsurely
            [0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.94],  # a die, read surely
        ],
        np.float32,
    )
    agree = np.array([True, False, True, True])
    monkeypatch.setattr(
        model, "_first_look", lambda crops, first_known: (first.copy(), agree.copy())
    )
    crops = [np.zeros((model.CROP, model.CROP, 3), np.uint8)] * len(first)
    probs, owed = model.glance(crops)
    np.testing.assert_array_equal(probs, first)
    assert owed.tolist() == [False, True, True, False]


def test_finds_in_the_padding_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 160x40 image is padded to 160x48 for the finder: a centre it marks in the padded
    rows (below the image) is no find, however far it is inside the image's width."""
    out = np.zeros((1, 4, 6, 20), np.float32)
    out[0, 0, 2, 3] = 0.9  # a die at (28, 20)
    out[0, 0, 5, 10] = 0.9  # a "die" at (84, 44): in the padding
    out[0, 1:3] = 0.5  # centres mid-cell; sides 32 (log 0)
    monkeypatch.setattr(model, "DET_PAD", 16)
    monkeypatch.setattr(model, "_run", lambda name, blob: out)
    found = model.find_centres(np.zeros((40, 160, 3), np.uint8), views=((False, False),))
    np.testing.assert_allclose(found, [[28, 20, model.DET_SIZE_REF, 0.9]])


def _spot_finder(name: str, blob: np.ndarray) -> np.ndarray:
    """A stand-in finder that marks the brightest pixel of its input's first plane as a
    die's centre (score 0.9, side 32), wherever the image is mirrored: what the real
    finder learned to be."""
    h, w = blob.shape[2:]
    y, x = np.unravel_index(int(np.argmax(blob[0, 0])), (h, w))
    out = np.zeros((1, 4, h // model.DET_CELL, w // model.DET_CELL), np.float32)
    row, col = y // model.DET_CELL, x // model.DET_CELL
    out[0, :3, row, col] = 0.9, x / model.DET_CELL - col, y / model.DET_CELL - row
    return out


@pytest.mark.parametrize(
    "size_hw, spot",
    [((96, 160), (0, 0)), ((96, 160), (5, 3)), ((96, 160), (151, 77)), ((96, 160), (159, 95))]
    + [((100, 150), (60, 41)), ((100, 150), (143, 97))],  # padded to 112x160 first
)
def test_each_look_of_the_finder_is_mirrored_back(
    monkeypatch: pytest.MonkeyPatch, size_hw: tuple[int, int], spot: tuple[int, int]
) -> None:
    """The finder looks at the image as it is and mirrored three ways; each look's maps
    are mirrored back, offsets and all (pixel k of a mirrored look is pixel side - 1 - k),
    so a finder that sees alike every way finds one die, where it is."""
    looks = []

    def spy(name: str, blob: np.ndarray) -> np.ndarray:
        looks.append(blob[0, 0].copy())
        return _spot_finder(name, blob)

    monkeypatch.setattr(model, "DET_PAD", 16)
    monkeypatch.setattr(model, "_run", spy)
    img = np.zeros((*size_hw, 3), np.uint8)
    img[spot[1], spot[0]] = 255
    found = model.find_centres(img, views=model.FINDER_VIEWS)
    np.testing.assert_allclose(found, [[spot[0], spot[1], model.DET_SIZE_REF, 0.9]], atol=1e-4)
    plane = looks[0]
    assert model.FINDER_VIEWS[0] == (False, False) and len(set(model.FINDER_VIEWS)) > 1
    assert len(looks) == len(model.FINDER_VIEWS)
    for look, (mirror_x, mirror_y) in zip(looks, model.FINDER_VIEWS, strict=True):
        np.testing.assert_array_equal(
            look, plane[:: -1 if mirror_y else 1, :: -1 if mirror_x else 1]
        )


def _found_by_two_looks(
    monkeypatch: pytest.MonkeyPatch, first: np.ndarray, second: np.ndarray, **kw: Any
) -> np.ndarray:
    """`find_centres` (with `kw`) on a 48x80 image whose two looks (both as is) give the
    maps `first` and then `second` (heat, x and y in the cell, log side; 6x10 cells each)."""
    outs = iter([first[None], second[None]])
    runs: list[str] = []

    def two_looks(name: str, blob: np.ndarray) -> np.ndarray:
        runs.append(name)
        return next(outs)

    monkeypatch.setattr(model, "DET_PAD", 16)
    monkeypatch.setattr(model, "_run", two_looks)
    image = np.zeros((48, 80, 3), np.uint8)
    found = model.find_centres(image, views=((False, False),) * 2, **kw)
    assert runs == [model.DET_FILE] * 2
    return found


def test_the_finder_averages_its_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A die's score, centre and size are the mean of the looks' maps in its cell; but a
    die `TOO_BIG_TO_AVERAGE` for the finder keeps the first look's own centre and size
    (the looks of a die too big for the finder peak cells apart)."""
    first, second = np.zeros((2, 4, 6, 10), np.float32)
    first[:, 1, 2] = 0.9, 0.5, 0.5, 0.0  # (20, 12), side 32
    first[:, 4, 8] = 0.8, 0.5, 0.5, np.log(2.0)  # (68, 36), side 64
    second[:, 1, 2] = 0.3, 0.25, 0.5, np.log(2.0)  # (18, 12), side 64
    second[:, 4, 8] = 0.1, 0.0, 0.0, np.log(2.0)  # (64, 32), side 64
    found = _found_by_two_looks(monkeypatch, first, second)
    assert 32 * np.sqrt(2.0) < model.TOO_BIG_TO_AVERAGE * model.DET_SIZE_REF <= 64
    expected = [[19, 12, 32 * np.sqrt(2.0), 0.6], [68, 36, 64, 0.45]]
    np.testing.assert_allclose(found, expected, rtol=1e-5)


def test_the_vote_averages_not_a_die_over_its_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop read 0.4 "no die" at a glance and surely a 3 by its three turned views is
    0.1 "no die" (the mean of four views), and a 3 with the rest."""
    turned = np.array([[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]], np.float32)
    monkeypatch.setattr(
        model, "_scores", lambda blob: (np.repeat(turned, len(blob), 0), np.ones(len(blob), bool))
    )
    first = np.array([[0.4, 0.0, 0.0, 0.6, 0.0, 0.0, 0.0]], np.float32)
    crops = [np.zeros((model.CROP, model.CROP, 3), np.uint8)]
    probs = model.vote(crops, first, np.array([True]), rotations=4)
    np.testing.assert_allclose(probs, [[0.1, 0.0, 0.0, 0.9, 0.0, 0.0, 0.0]], atol=1e-6)


def test_the_vote_reads_a_dark_face_lifted_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `lift_dark`, a crop of a dark face (level 20) owed a vote takes its value half
    from its usual views (here all a 3) and half from its lifted views (all a 6): "no
    die" as before. A lit crop (level 150) and every crop without `lift_dark` are read
    as before."""

    def reading(blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # (a stand-in reader: dark crops read as 3s, the rest, lifted ones too, as 6s)
        value = np.where(blob.mean(axis=(1, 2, 3)) < -0.3, 3, 6)
        probs = np.zeros((len(blob), 7), np.float32)
        probs[:, 0] = 0.2
        probs[np.arange(len(blob)), value] = 0.8
        return probs, np.ones(len(blob), bool)

    monkeypatch.setattr(model, "_scores", reading)
    dark = np.full((model.CROP, model.CROP, 3), 20, np.uint8)
    lit = np.full((model.CROP, model.CROP, 3), 150, np.uint8)
    first = np.array([[0.2, 0, 0, 0.8, 0, 0, 0], [0.2, 0, 0, 0, 0, 0, 0.8]], np.float32)
    owed = np.array([True, True])
    first = first[::-1].copy()  # (the dark crop second: its own row is mixed)
    probs = model.vote([lit, dark], first, owed, lift_dark=True)
    np.testing.assert_allclose(probs[0], first[0], atol=1e-6)
    np.testing.assert_allclose(probs[1], [0.2, 0, 0, 0.4, 0, 0, 0.4], atol=1e-6)
    plain = model.vote([lit, dark], first, owed)
    np.testing.assert_allclose(plain, first, atol=1e-6)


def test_det_scale_upscales_small_images_up_to_twice() -> None:
    """A small image is looked at up to twice its size (its dice come closer to the
    finder's best size: a 320 px wide sample photo's reading changed without it), a big
    one scaled down to `long_side`."""
    assert model.det_scale((320, 240), long_side=640) == 2.0
    assert model.det_scale((200, 100), long_side=640) == 2.0
    assert model.det_scale((480, 360), long_side=640) == pytest.approx(640 / 480)
    assert model.det_scale((1920, 1080), long_side=640) == pytest.approx(1 / 3)


def test_a_die_too_big_to_average_keeps_the_first_looks_own_peak(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A die of twice the finder's size at the image's edge: the first look peaks in cell
    (0, 0), another look in the cell beside it, surer, so the mean peaks there. The die
    keeps the first look's centre and size (at its own peak), with the mean's score; where
    the first look sees no die beside the mean's peak, the mean's place stands."""
    first, second = np.zeros((2, 4, 6, 10), np.float32)
    first[3] = second[3] = np.log(2.0)  # side 64 everywhere
    first[:3, 0, 0] = 0.9, 0.5, 0.5  # (4, 4)
    second[:3, 0, 1] = 0.95, 0.25, 0.75  # (10, 6)
    found = _found_by_two_looks(monkeypatch, first, second)
    np.testing.assert_allclose(found, [[4, 4, 64, 0.475]], rtol=1e-5)
    first[:3, 0, 0] = 0.0, 0.0, 0.0  # the first look sees nothing there
    found = _found_by_two_looks(monkeypatch, first, second)
    np.testing.assert_allclose(found, [[(1 + 0.125) * 8, 0.375 * 8, 64, 0.475]], rtol=1e-5)
    # a first look scoring it 0.2 sees a die there for a caller asking down to 0.1, unless
    # it keeps its own bar (`sees`: the reader's first look, which also keeps faint finds)
    first[:3, 0, 0] = 0.2, 0.5, 0.5
    found = _found_by_two_looks(monkeypatch, first, second, min_score=0.1)
    np.testing.assert_allclose(found[:, :3], [[4, 4, 64]], rtol=1e-5)
    found = _found_by_two_looks(monkeypatch, first, second, min_score=0.1, sees=0.3)
    np.testing.assert_allclose(found[:, :3], [[(1 + 0.125) * 8, 0.375 * 8, 64]], rtol=1e-5)


def _resize_as_before(image: np.ndarray, scale: float) -> np.ndarray:
    """Session 50's `model.resize`, before `model.Halvings`: halved while more than halving
    remains, then bilinear."""
    if abs(scale - 1.0) < 1e-3:
        return image
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    while size[0] * 2 <= image.shape[1] and size[1] * 2 <= image.shape[0]:
        half = (image.shape[1] // 2, image.shape[0] // 2)
        image = cv2.resize(image[: half[1] * 2, : half[0] * 2], half, interpolation=cv2.INTER_AREA)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


def test_halvings_scale_as_resize_did_and_halve_an_image_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`model.Halvings` keeps an image's halvings: scaled for the finder's first look (a
    third) and then for the colour search (a fifth), a 1080p frame is halved twice in all,
    not three times, and every scale, in any order, comes out exactly as `resize` made it
    before (an odd-sized grey image too)."""
    image = np.random.default_rng(0).integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
    halvings = model.Halvings(image)
    halved: list[tuple[int, int]] = []
    real_resize = cv2.resize

    def counted(src: np.ndarray, size: tuple[int, int], **kw: Any) -> np.ndarray:
        if kw.get("interpolation") == cv2.INTER_AREA:
            halved.append(size)
        return real_resize(src, size, **kw)

    monkeypatch.setattr(model.cv2, "resize", counted)
    first = halvings.resize(1 / 3)
    second = halvings.resize(0.2)
    assert halved == [(960, 540), (480, 270)]
    monkeypatch.setattr(model.cv2, "resize", real_resize)
    for scale, scaled in ((1 / 3, first), (0.2, second)):
        assert np.array_equal(scaled, _resize_as_before(image, scale))
    odd = np.random.default_rng(1).integers(0, 256, (777, 1235), dtype=np.uint8)
    for picture in (image, odd):
        kept = model.Halvings(picture)
        for scale in (0.05, 0.6, 0.01, 1.0, 1.7, 0.26, 0.5, 0.05):  # (smaller, larger, ...)
            assert np.array_equal(kept.resize(scale), _resize_as_before(picture, scale))
            assert np.array_equal(model.resize(picture, scale), _resize_as_before(picture, scale))
    assert halvings.resize(1.0) is image


WARMED_THEN_READ = """
import sys
import vision
from vision import model
from vision.io import load_image

vision.warm_up()
loaded = []
open_file = model._model_path
model._model_path = lambda name: loaded.append(name) or open_file(name)
vision.read(load_image(sys.argv[1]))
print(",".join(loaded))
"""


@pytest.mark.parametrize("engine", ["onnxruntime", "opencv"])
def test_warm_up_loads_every_network_a_photo_needs(
    engine: str, samples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Else the first photo's time counts loading the rest (the second reader, which a blank
    crop never reaches, and its int8 probe): its `ms` read 90 ms more than the next one's.
    In a process of its own: this one has loaded them all already."""
    photo = sorted(samples_dir.glob("IMG_*.jpg"))[0]  # (a roll both readers look at)
    monkeypatch.setenv("HOTDICE_ENGINE", engine)
    run = subprocess.run(
        [sys.executable, "-c", WARMED_THEN_READ, str(photo)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ""


def test_ctrl_c_while_onnxruntime_imports_is_heard_not_taken_for_no_onnxruntime(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ONNX Runtime's C module turns a Ctrl-C in its start-up into "ImportError:
    initialization failed": it had been cached as no ONNX Runtime for good (the networks
    then on OpenCV's DNN, slower) and the Ctrl-C lost. It is a Ctrl-C, and nothing is kept."""
    import builtins

    real = builtins.__import__

    def interrupted(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "onnxruntime":
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as interrupt:
                raise ImportError("initialization failed") from interrupt
        return real(name, *args, **kwargs)

    model.onnxruntime.cache_clear()
    monkeypatch.setattr(builtins, "__import__", interrupted)
    try:
        with pytest.raises(KeyboardInterrupt):
            model.onnxruntime()
        monkeypatch.setattr(builtins, "__import__", real)
        assert (model.onnxruntime() is not None) == HAVE_ONNXRUNTIME  # (asked again: as is)
    finally:
        model.onnxruntime.cache_clear()
