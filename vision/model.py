"""The small networks shipped in `vision/models/`, run on the CPU.

All were trained by `scripts/train_vision.py` (see there for the data). The die finder is
fully convolutional: it takes any image whose sides are multiples of 16 (or `det_pad` in
`config.json`) and returns, on a
grid of 8x8-pixel cells, a centre heat map, the centre's offset inside its cell and the log
of the die's side. The face readers (two, of different shapes, listed in `config.json`)
take 44x44 crops and return 7 scores each: not-a-die, 1..6; their probabilities are
averaged, so a die one of them misreads with confidence comes out unsure. A die the first
reader alone reads at 0.9 or more is not shown to the second (no dev photo's reading
changed; it saves a fifth of the readers' passes on a 1080p roll).

OpenCV's own DNN module runs them, so `vision/` needs NumPy and OpenCV only. Where ONNX
Runtime is installed (the `[fast]` extra), it runs them instead: the finder to the same
outputs (within 1e-5) in about half the time on one core, and the face readers from their
int8 copies (`*.int8.onnx`, quantized by the training script), several times as fast as
OpenCV runs the float ones (figures in docs/vision.md's Speed).
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .io import opencv_message
from .light import dark_face_lifted

# HOTDICE_MODEL_DIR points the reader at networks retrained with `--out DIR`, to compare
# them with the shipped ones by `hotdice eval` before replacing them
MODEL_DIR = Path(os.environ.get("HOTDICE_MODEL_DIR") or Path(__file__).resolve().parent / "models")
DET_FILE = "dice_det.onnx"
ENGINES = ("onnxruntime", "opencv")

# What runs the networks when set (tests and the benchmark set it); None: `engine()` picks
ENGINE: str | None = None


def _config() -> dict:
    """Geometry the networks were trained with, written by the training script."""
    path = MODEL_DIR / "config.json"
    defaults = {
        "crop": 44,
        "crop_span": 1.3,
        "det_cell": 8,
        "det_size_ref": 32.0,
        "det_pad": 16,
        "classifiers": ["dice_cls.onnx"],
    }
    if path.is_file():
        defaults.update(json.loads(path.read_text()))
    return defaults


try:  # (a config of the wrong shape said so, naming the file, not "'int' is not iterable")
    _CFG = _config()
    DET_CELL = int(_CFG["det_cell"])
    DET_SIZE_REF = float(_CFG["det_size_ref"])
    DET_PAD = int(_CFG["det_pad"])  # the finder's input sides are padded to multiples of this
    CROP = int(_CFG["crop"])
    CROP_SPAN = float(_CFG["crop_span"])
    if isinstance(_CFG["classifiers"], str):
        raise TypeError("classifiers: a list of file names, not one name")
    CLS_FILES = tuple(str(name) for name in _CFG["classifiers"]) or ("dice_cls.onnx",)
except (OSError, ValueError, TypeError, AttributeError) as error:
    raise ImportError(f"{MODEL_DIR / 'config.json'}: not a model config: {error}") from error


@functools.cache
def onnxruntime() -> Any | None:
    """The onnxruntime module, or None where it is not installed (imported on first use:
    OpenCV's DNN alone needs it not)."""
    try:
        import onnxruntime as module
    except ImportError as error:
        # (a Ctrl-C in the import, which its C module's start-up turns into "initialization
        # failed": heard, not cached as "no onnxruntime", the networks then run slower)
        if isinstance(error.__cause__ or error.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        return None
    return module


def pick_engine(requested: str, *, have_onnxruntime: bool) -> str:
    """The engine a HOTDICE_ENGINE value names: "" or "auto" for ONNX Runtime where it is
    installed, else OpenCV's DNN. Raises OSError (one line) for anything else."""
    requested = requested.strip().lower()
    if requested in ("", "auto"):
        return "onnxruntime" if have_onnxruntime else "opencv"
    if requested not in ENGINES:
        raise OSError(f"HOTDICE_ENGINE={requested!r}: not an engine (opencv, onnxruntime or auto)")
    if requested == "onnxruntime" and not have_onnxruntime:
        raise OSError("HOTDICE_ENGINE=onnxruntime, but ONNX Runtime is not installed")
    return requested


def engine() -> str:
    """What runs the networks: `ENGINE` if set, else what HOTDICE_ENGINE names (to compare
    the two), else ONNX Runtime where it is installed."""
    if ENGINE is not None:
        return ENGINE
    requested = os.environ.get("HOTDICE_ENGINE", "")
    return pick_engine(requested, have_onnxruntime=onnxruntime() is not None)


def int8_file(name: str) -> str:
    """The int8 copy of a face reader's file, which only ONNX Runtime runs fast (OpenCV's
    DNN ran int8 networks 1.3-1.7 times slower than float ones)."""
    return name.removesuffix(".onnx") + ".int8.onnx"


def _loaded_once(load: Callable[..., Any]) -> Any:
    """`load` cached (`functools.lru_cache`, 8 entries), one load at a time: a server's
    threads reading their first photos at once each waited for the same network files to
    load and the int8 probe to run, and did it again, where now they wait for the first.
    The cache's `cache_clear` is kept (the tests swap networks)."""
    cached = functools.lru_cache(maxsize=8)(load)
    lock = threading.Lock()  # (one per cache: a session's load runs the probe, under its own)

    @functools.wraps(load)
    def once(*args: Any) -> Any:
        with lock:
            return cached(*args)

    once.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    once.cache_info = cached.cache_info  # type: ignore[attr-defined]
    return once


@functools.lru_cache(maxsize=32)
def _ships(folder: Path, name: str) -> bool:
    return (folder / name).is_file()


def network_file(name: str, engine_name: str | None = None) -> str:
    """The file that `engine_name` (default: `engine()`) runs for network `name`: under ONNX
    Runtime a face reader's int8 copy where one ships; else the float network."""
    if (engine_name or engine()) == "onnxruntime" and name != DET_FILE:
        if _ships(MODEL_DIR, int8_file(name)):
            return int8_file(name)
    return name


def _model_path(name: str) -> Path:
    path = MODEL_DIR / name
    if not path.is_file():
        raise OSError(f"{path}: model file missing; run scripts/train_vision.py")
    return path


def _failed(path: Path, what: str, message: str) -> OSError:
    """An engine's error about a network file as one short line (`path: what (reason)`),
    without the file's path that the engine's own message repeats."""
    lines = [ln.strip() for ln in str(message).replace(str(path), "the file").splitlines()]
    reason = next((ln for ln in lines if ln), "unknown error")
    if len(reason) > 160:
        reason = reason[:157] + "..."
    return OSError(f"{path}: {what} ({reason})")


@_loaded_once
def _session(name: str) -> Any:
    """An ONNX Runtime session for a network file; for an int8 file whose fused kernels
    saturate on this CPU (`int8_saturates`), one that multiplies in uint8 x uint8."""
    precise = name.endswith(".int8.onnx") and _saturates(MODEL_DIR, name)
    return _new_session(name, precise=precise)


def _new_session(name: str, *, exact: bool = False, precise: bool = False) -> Any:
    """`exact`: with the graph left as it is, so an int8 file runs op by op, each quantized
    layer as float arithmetic on the dequantized values (what a CPU with VNNI computes, at
    2-3 times the time). `precise`: ONNX Runtime's `session.x64quantprecision`, which on
    an x86 CPU without VNNI multiplies uint8 by uint8 (its int8 weights shifted), in sums
    that do not saturate, at about the float network's speed."""
    path = _model_path(name)
    ort = onnxruntime()
    if ort is None:  # (`pick_engine` picks ONNX Runtime only where it is installed)
        raise RuntimeError("ONNX Runtime is not installed (pip install 'hotdice[fast]')")
    options = ort.SessionOptions()
    # One knob for the whole pipeline: OpenCV's thread count (cv2.setNumThreads, read when a
    # network is first used) also sizes the networks' pool, so a one-core benchmark stays on
    # one core. Idle pool threads sleep rather than spin: a server has other work for them.
    options.intra_op_num_threads = max(1, cv2.getNumThreads())
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    if exact:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    if precise:
        options.add_session_config_entry("session.x64quantprecision", "1")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime's own error types derive from Exception alone
        raise _failed(path, "not a network ONNX Runtime can load", str(exc)) from None


@_loaded_once
def _net(name: str) -> cv2.dnn.Net:
    """OpenCV's DNN network for a file, on the classic engine: about 5-10% faster on one
    core for these small networks than the new engine OpenCV 5 picks by default."""
    path = _model_path(name)
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    try:
        if classic is not None:
            try:
                return cv2.dnn.readNetFromONNX(str(path), classic)
            except cv2.error:
                pass
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise _failed(path, "not a network OpenCV can load", opencv_message(exc)) from None


# An OpenCV network holds its input and its layers' buffers: two threads (a web server's)
# must not run it at once. ONNX Runtime's sessions may be run from many threads.
_OPENCV_LOCK = threading.Lock()


def _run(name: str, blob: np.ndarray) -> np.ndarray:
    """Network `name`'s one output for an NCHW float32 blob (a batch: both engines read a
    batch of crops as fast per crop as one crop a pass, or faster). A network that does
    not take the blob (a file swapped for another network) is a one-line OSError."""
    if engine() == "onnxruntime":
        file = network_file(name, "onnxruntime")
        return _run_session(_session(file), file, blob)
    net = _net(name)
    try:
        with _OPENCV_LOCK:
            net.setInput(blob)
            return net.forward()
    except cv2.error as exc:
        message = opencv_message(exc)
        raise _failed(MODEL_DIR / name, "does not take this input", message) from None


# The int8 probe (`int8_saturates`): crops of uniform noise, and how far apart (in logits:
# the median over the crops of the largest gap) a reader's int8 copy may read, run by ONNX
# Runtime's fused kernels and op by op, before this CPU's kernels are said to saturate.
# Logit gaps come in steps of the output's quantization (about 0.038), so 0.15 is four
# steps: measured in session 42 on an AMD EPYC with AVX2 alone, 0.35-0.42 for the first
# reader (noise seeds 0-3), 0.00 for the second reader and for the first reader's copies
# made with 7-bit weights or a float first layer, and for the first reader run in uint8.
PROBE_CROPS = 16
SATURATES_ABOVE = 0.15


def saturating(fused: np.ndarray, exact: np.ndarray) -> bool:
    """Whether logits read by the fused kernels stray from those of the exact arithmetic
    (same crops, same order) as saturated 16-bit sums make them stray."""
    gaps = np.abs(fused.astype(np.float64) - exact.astype(np.float64)).max(axis=1)
    return float(np.median(gaps)) > SATURATES_ABOVE


@_loaded_once
def _saturates(folder: Path, file: str) -> bool:
    """Whether ONNX Runtime's fused int8 kernels saturate on int8 network `file` of
    `folder` (`MODEL_DIR`) on this CPU: its probe read both ways."""
    if onnxruntime() is None:
        return False
    noise = np.random.default_rng(0).integers(0, 256, (PROBE_CROPS, CROP, CROP, 3), np.uint8)
    blob = _blob(list(noise))
    fused = _run_session(_new_session(file), file, blob)
    exact = _run_session(_new_session(file, exact=True), file, blob)
    if fused.shape != (PROBE_CROPS, 7) or exact.shape != fused.shape:
        return False  # (not a reader: reading with it says so, `_softmax_of`)
    return saturating(fused, exact)


def int8_saturates() -> tuple[str, ...]:
    """The face readers' int8 files that ONNX Runtime's fused kernels saturate on, on this
    CPU (none where OpenCV's DNN runs the networks). An x86 CPU without VNNI instructions
    (AVX2, or AVX512 without VNNI) multiplies uint8 activations by int8 weights in pairs
    summed into 16 bits, which saturate: there the first reader's int8 copy read some dice
    otherwise than a VNNI CPU does, and otherwise than the README's figures and the tests
    expect (docs/vision.md, Measured accuracy). So such a file is run multiplying in uint8 x uint8
    (`_session`), which reads as its exact arithmetic does. ONNX Runtime's switch for that
    is not set everywhere: it could take a VNNI CPU off its fast kernels (not measured;
    on an EPYC with AVX512-VNNI, session 55, the probe finds nothing to switch). The probe
    runs once a process, when a reader is first used (`warm_up`; threads reading at once
    for the first time wait for one probe: `_loaded_once`)."""
    if engine() != "onnxruntime":
        return ()
    files = (int8_file(name) for name in CLS_FILES)
    return tuple(f for f in files if _ships(MODEL_DIR, f) and _saturates(MODEL_DIR, f))


def describe_engine() -> str:
    """What runs the networks, as `hotdice eval` and the benchmark print it."""
    name = engine()
    saturated = int8_saturates()
    if saturated:
        name += f"; {', '.join(saturated)} run in uint8: int8 saturates on this CPU, no VNNI"
    return name


def _run_session(session: Any, file: str, blob: np.ndarray) -> np.ndarray:
    """A session's one output for `blob`; an input it does not take is a one-line error."""
    try:
        return session.run(None, {session.get_inputs()[0].name: blob})[0]
    except Exception as exc:  # ONNX Runtime's errors derive from Exception alone
        raise _failed(MODEL_DIR / file, "does not take this input", str(exc)) from None


def _not_this_network(name: str, shape: tuple[int, ...]) -> OSError:
    """A network file swapped for another network: it ran, but gave the wrong output."""
    return OSError(f"{MODEL_DIR / network_file(name)}: not this network (output shape {shape})")


def _blob(images: list[np.ndarray]) -> np.ndarray:
    """Same-size BGR uint8 images as the networks' NCHW float input, (x - 127.5) / 255.
    One big image (the finder's) is split into channel planes by OpenCV and copied a plane
    at a time; a batch of small crops is stacked, then converted to float in channel-first
    order by one NumPy copy. Each is the faster way for its shape (0.8 against 1.2 ms for
    a 640x368 image, 0.07 against 0.10 ms for 8 crops, one core);
    cv2.dnn.blobFromImages took 3.5 ms for that image."""
    if len(images) == 1:
        blob = np.empty((1, 3, *images[0].shape[:2]), np.float32)
        for c, plane in enumerate(cv2.split(images[0])):
            blob[0, c] = plane
    else:
        blob = np.stack(images).transpose(0, 3, 1, 2).astype(np.float32, order="C")
    blob -= 127.5
    blob *= 1.0 / 255.0
    return blob


# The finder can look at an image four ways, as it is and mirrored left to right, top to
# bottom and both, and average its four sets of maps (test-time augmentation). It learned
# all four alike, yet each look has blind spots of its own: a die one look scores 0.2
# another may score 0.6. Averaged, they found more dice in one battery of photos made
# harder (grey, dim, tilted, far bigger or smaller) and fewer in another (big photos made
# so), misread some small dark dice in piles, and take four times the finder's time:
# `reader.read` and `find_centres` take one unless asked.
# (mirrored left to right, mirrored top to bottom) for each look:
Views = tuple[tuple[bool, bool], ...]
FINDER_VIEWS: Views = (
    (False, False),
    (True, False),
    (False, True),
    (True, True),
)


def finder_views(looks: int) -> Views:
    """The finder's first `looks` looks: 1 (the image as it is, fastest), 2 (and mirrored
    left to right) or 4 (every mirror: three would weigh one axis twice)."""
    if isinstance(looks, bool) or looks not in (1, 2, 4):
        raise ValueError(f"finder looks: 1, 2 or 4, not {looks!r}")
    return FINDER_VIEWS[:looks]


def _finder_looks(image: np.ndarray, views: Views) -> np.ndarray:
    """The finder's output maps for `image` (sides multiples of DET_CELL), one set a look,
    mirrored back: (look, map, row, column), the maps heat, the centre's x and y within
    its cell, and the log side."""
    grid = (4, image.shape[0] // DET_CELL, image.shape[1] // DET_CELL)
    looks = np.empty((len(views), *grid), np.float32)
    for look, (mirror_x, mirror_y) in zip(looks, views, strict=True):
        step_x, step_y = (-1 if mirror_x else 1), (-1 if mirror_y else 1)
        # (mirrored by OpenCV before it is made the network's input: a NumPy copy of the
        # image mirrored left to right cost 3-4 ms more a look at 960x720)
        flip = {(True, False): 1, (False, True): 0, (True, True): -1}.get((mirror_x, mirror_y))
        out = _run(DET_FILE, _blob([image if flip is None else cv2.flip(image, flip)]))
        if out.shape != (1, *grid):
            raise _not_this_network(DET_FILE, out.shape)
        look[:] = out[0][:, ::step_y, ::step_x]
        # a mirrored look's offsets count from its cell's other side, and pixel k of it is
        # pixel side - 1 - k of the image: so x = 1 - x' - 1/DET_CELL cells, likewise y
        for mirrored, channel in ((mirror_x, 1), (mirror_y, 2)):
            if mirrored:
                look[channel] = 1.0 - 1.0 / DET_CELL - look[channel]
    return looks


def _peaks(maps: np.ndarray, min_heat: float) -> tuple[np.ndarray, ...]:
    """(rows, columns) of the cells where `maps`' heat peaks over `min_heat`."""
    heat = maps[0]
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    return np.nonzero((heat >= peak) & (heat > min_heat))


def _decoded(maps: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Rows (x, y, side) of the dice `maps` mark in cells (ys, xs), in pixels (float64,
    so a centre on the image's last pixel is judged inside it before rounding)."""
    cx = (xs + maps[1, ys, xs]) * DET_CELL
    cy = (ys + maps[2, ys, xs]) * DET_CELL
    side = np.exp(np.clip(maps[3, ys, xs], -4, 4)) * DET_SIZE_REF
    return np.column_stack([cx, cy, side])


# Dice this many times the finder's best size or more are placed by its first look alone
TOO_BIG_TO_AVERAGE = 1.5


def find_centres(
    image: np.ndarray,
    *,
    min_score: float = 0.3,
    views: Views = FINDER_VIEWS[:1],
    sees: float | None = None,
) -> np.ndarray:
    """Die centres in `image` (already at detector scale) as rows (x, y, side, score),
    read off the mean maps of the finder's `views` (default: one look, as it is). A die
    `TOO_BIG_TO_AVERAGE` for the finder keeps the centre and size the first of `views`
    gives at its own peak beside it, if that look sees a die there (scores it over
    `sees`, by default `min_score`; a caller that also wants fainter finds keeps its own
    bar): the looks of a die too big for the finder peak cells apart, and their mean
    placed a drawn slant's near die a third of its side off."""
    h, w = image.shape[:2]
    ph, pw = (-h) % DET_PAD, (-w) % DET_PAD
    if ph or pw:
        image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    looks = _finder_looks(image, views)
    mean = looks[0] if len(looks) == 1 else looks.mean(axis=0)
    ys, xs = _peaks(mean, min_score)
    found = np.column_stack([_decoded(mean, ys, xs), mean[0, ys, xs]])
    big = found[:, 2] >= TOO_BIG_TO_AVERAGE * DET_SIZE_REF
    if big.any() and len(views) > 1:
        first = looks[0]
        for k in np.flatnonzero(big):
            y0, x0 = max(ys[k] - 1, 0), max(xs[k] - 1, 0)
            near = first[0, y0 : ys[k] + 2, x0 : xs[k] + 2]
            dy, dx = np.unravel_index(int(np.argmax(near)), near.shape)
            if near[dy, dx] > (min_score if sees is None else sees):
                found[k, :3] = _decoded(first, np.array([y0 + dy]), np.array([x0 + dx]))[0]
    return found[(found[:, 0] < w) & (found[:, 1] < h)].astype(np.float32)


def crop_die(
    image: np.ndarray, center_xy: tuple[float, float], side: float, *, stretch: float = 1.0
) -> np.ndarray:
    """The face reader's view of one die: CROP x CROP pixels, CROP_SPAN die sides wide; with
    `stretch`, the die stretched that much upright (a top face squashed by a slant)."""
    cx, cy = center_xy
    scale = CROP / (CROP_SPAN * max(side, 2.0))
    up = scale * stretch
    m = np.array([[scale, 0, CROP / 2 - cx * scale], [0, up, CROP / 2 - cy * up]], np.float32)
    return cv2.warpAffine(
        image,
        m,
        (CROP, CROP),
        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _softmax_of(name: str, blob: np.ndarray) -> np.ndarray:
    """One reader's class probabilities for each crop of an NCHW blob."""
    if not len(blob):
        return np.zeros((0, 7), np.float64)
    logits = _run(name, blob)
    if logits.shape != (len(blob), 7):
        raise _not_this_network(name, logits.shape)
    return softmax(logits)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Each row of a reader's logits as class probabilities (float64)."""
    logits = logits.astype(np.float64)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _scores(blob: np.ndarray, *, first: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Averaged softmax of the face readers for the crops of an NCHW blob, and whether they
    all pick the same class; `first`: the first reader's, already known."""
    total = np.zeros((len(blob), 7), np.float64)
    picks = []
    for k, name in enumerate(CLS_FILES):
        probs = first if k == 0 and first is not None else _softmax_of(name, blob)
        total += probs
        picks.append(probs.argmax(axis=1))
    agree = np.all(np.array(picks) == picks[0], axis=0)
    return (total / len(CLS_FILES)).astype(np.float32), agree


# A die the first reader alone reads with at least this probability is not shown to the
# others (each reader costs 1-2 ms a die on one core under OpenCV's DNN, 0.1-0.5 ms under
# ONNX Runtime)
ALONE = 0.9


def _first_look(
    crops: list[np.ndarray], first: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """`_scores` of the crops, with the other readers asked only where the first one is
    not sure on its own (a crop it alone decides counts as not agreed on: it is at or
    above `sure` anyway); `first`: the first reader's probabilities, already known
    (`first_reader`)."""
    blob = _blob(crops)
    if len(CLS_FILES) < 2:
        return _scores(blob, first=first)
    if first is None:
        first = _softmax_of(CLS_FILES[0], blob)
    probs, agree = first.astype(np.float32), np.zeros(len(crops), bool)
    ask = np.nonzero(first.max(axis=1) < ALONE)[0]
    if len(ask):
        probs[ask], agree[ask] = _scores(blob[ask], first=first[ask])
    return probs, agree


def first_reading(crops: list[np.ndarray]) -> np.ndarray:
    """The first face reader's probabilities for die crops, alone: a screen for crops only
    a clear reading would matter for (`finer_looks.FinerLooks.faint_dice`), at about half the cost
    of `_first_look`, which asks the second reader about every crop the first is unsure of
    (seven faint finds of a 1080p frame: 1.0 ms against 2.3)."""
    return first_reader(crops).astype(np.float32)


def first_reader(crops: list[np.ndarray]) -> np.ndarray:
    """The first face reader's probabilities for die crops, as `glance` takes them again
    (float64, `first=`), so crops it has read already are not read twice."""
    if not crops:
        return np.zeros((0, 7), np.float64)
    return _softmax_of(CLS_FILES[0], _blob(crops))


# The readers' first look at a die is taken as it is when their average is at least `sure`,
# or at least AGREED when every reader picks the same class (two readers that agree at 0.7
# were right as often as their vote; the vote costs 10 forward passes, 18 for a die whose
# face is dark, `_read_lifted_where_dark`)
AGREED = 0.7


def glance(
    crops: list[np.ndarray],
    *,
    sure: float = 0.8,
    agreed: float = AGREED,
    first: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The readers' first look at die crops (`_first_look`), and which crops a vote would
    read again (`vote`): those whose first reading is below `sure`, not agreed on at
    `agreed`, and not plainly "not a die" (0.8). Nor is a crop every reader takes for no
    die: the vote is there to read a face, and on the dev photos and their stress runs it
    never made such a find a die (on the six-dice benchmark frame it cost a stray find
    eight crop passes). `first`: the first reader's probabilities for the crops, where
    the caller has them (`first_reader`)."""
    if not crops:
        return np.zeros((0, 7), np.float32), np.zeros(0, bool)
    probs, agree = _first_look(crops, first)
    best = probs.max(axis=1)
    no_die = agree & (probs.argmax(axis=1) == 0)
    owed = (best < sure) & ~(agree & (best >= agreed)) & (probs[:, 0] < 0.8) & ~no_die
    return probs, owed


def vote(
    crops: list[np.ndarray],
    probs: np.ndarray,
    owed: np.ndarray,
    *,
    rotations: int = 4,
    wider: Callable[[int], np.ndarray] | None = None,
    min_dieness: float = 0.0,
    lift_dark: bool = False,
) -> np.ndarray:
    """`probs` (a `glance` at `crops`) with the crops `owed` a vote read again.

    A face reads the same turned by a quarter, so such a crop is read again turned by 90,
    180 and 270 degrees (up to `rotations` views) and the scores averaged: a cheap vote
    that steadies small, blurred or odd dice, paid only for the dice that need it.

    With `wider` (crop index -> the same die cut with a wider margin), the vote also reads
    the wider crop turned by 90 and 270 degrees for the value (not for "is it a die"): they
    see past a die whose size the finder underestimated (its edge pips at the border of the
    first crop) or whose centre is off. A crop the turned views leave below `min_dieness`
    is not cut wider: the caller drops it, so its value does not matter.

    With `lift_dark`, a crop whose die's face is dark is also read lifted by a tone curve
    (`light.dark_face_lifted`), turned each quarter, and its value taken half from those
    views and half from the others: a dark die's pips stand out of its face lifted, where
    the readers learnt them.
    """
    probs = probs.copy()
    redo = np.nonzero(owed)[0] if rotations > 1 else np.zeros(0, np.intp)
    if not len(redo):
        return probs
    turned = [
        np.ascontiguousarray(np.rot90(crops[i], k)) for k in range(1, rotations) for i in redo
    ]
    more = _scores(_blob(turned))[0].reshape(rotations - 1, len(redo), 7)
    # "is it a die at all" is judged on the crops at the trained margin only (a wider crop
    # of a pip-sized find shows the face around it and looks like a die); the value is
    # read from all views
    not_die = (probs[redo, 0] + more[:, :, 0].sum(axis=0)) / rotations
    faces = probs[redo, 1:] + more[:, :, 1:].sum(axis=0)
    live = np.nonzero(1.0 - not_die >= min_dieness)[0]  # (the rest the caller drops)
    if wider is not None and len(live):
        wide = [wider(int(redo[j])) for j in live]
        views = [np.ascontiguousarray(np.rot90(w, k)) for k in (1, 3) for w in wide]
        faces[live] += _scores(_blob(views))[0].reshape(2, len(live), 7)[:, :, 1:].sum(axis=0)
    faces /= np.maximum(faces.sum(axis=1, keepdims=True), 1e-12)
    if lift_dark and len(live):
        faces[live] = _read_lifted_where_dark(faces[live], [crops[redo[j]] for j in live])
    probs[redo] = np.column_stack([not_die, faces * (1.0 - not_die)[:, None]])
    return probs


def _read_lifted_where_dark(faces: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
    """`faces` (each crop's value shares, summing to 1) with those of each crop whose die's
    face is dark averaged with the readers' reading of the crop lifted
    (`light.dark_face_lifted`) at each quarter turn: 8 more forward passes for a dark die
    (two readers, four turns; 18 in all with the vote's own), paid only where a face is
    dark."""
    dark = [(i, up) for i, up in enumerate(map(dark_face_lifted, crops)) if up is not None]
    if not dark:
        return faces
    views = [np.ascontiguousarray(np.rot90(up, k)) for k in range(4) for _, up in dark]
    seen = _scores(_blob(views))[0].reshape(4, len(dark), 7).mean(axis=0)[:, 1:]
    total = seen.sum(axis=1)
    rows = np.array([i for i, _ in dark])[total > 0]  # (a view read as no die at all: none)
    out = faces.copy()
    out[rows] = (faces[rows] + seen[total > 0] / total[total > 0, None]) / 2.0
    return out


def classify_crops(
    crops: list[np.ndarray],
    *,
    rotations: int = 4,
    sure: float = 0.8,
    agreed: float = AGREED,
    wider: Callable[[int], np.ndarray] | None = None,
    min_dieness: float = 0.0,
) -> np.ndarray:
    """Softmax scores (n, 7) for die crops: column 0 = not a die, column k = value k.
    A `glance`, and a `vote` on the crops it leaves unsure."""
    probs, owed = glance(crops, sure=sure, agreed=agreed)
    return vote(crops, probs, owed, rotations=rotations, wider=wider, min_dieness=min_dieness)


def warm_up() -> None:
    """Load the networks and run each once, so a photo's timing is the reading alone.
    Every reader is run (a blank crop, which the first reader decides alone, left the
    second one and its int8 probe to the first photo), and OpenCV's colour tables for Lab,
    which the colour tests use, are filled: the first photo took 90 ms more than the next."""
    find_centres(np.zeros((480, 640, 3), np.uint8))
    _scores(_blob([np.zeros((CROP, CROP, 3), np.uint8)] * 32))
    cv2.cvtColor(np.zeros((8, 8, 3), np.uint8), cv2.COLOR_BGR2LAB)


def resize(image: np.ndarray, scale: float) -> np.ndarray:
    """Scale an image fast: halve it (2x2 averages, which keep small pips from aliasing)
    while more than halving remains, then bilinear. OpenCV's INTER_AREA has a fast path
    for exactly half (about 0.8 ms for a 1920x1080 frame on one core); for other factors
    it costs 3-8 times more than this, and pyrDown 4 times more than a halving."""
    return Halvings(image).resize(scale)


class Halvings:
    """An image and the halvings `resize` makes of it, kept as made: the looks `read` takes
    at a whole image (the finder's first look at a 1080p frame, a third, and the colour
    search for dice it missed, `same_set.colour_patches`, a fifth) halve it once, not once
    each (scaling the frame so took 1.3 ms, most of it the first halving). The coarser
    looks for a close-up's big dice (`coarser_looks.look_until`) still halve it afresh."""

    def __init__(self, image: np.ndarray) -> None:
        self._levels = [image]  # (the image, then each halving as made)

    def resize(self, scale: float) -> np.ndarray:
        """The image scaled by `scale`, exactly as `resize` scales it."""
        image = self._levels[0]
        if abs(scale - 1.0) < 1e-3:
            return image
        h, w = image.shape[:2]
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        level = 0
        while (
            size[0] * 2 <= self._levels[level].shape[1]
            and size[1] * 2 <= self._levels[level].shape[0]
        ):
            if level + 1 == len(self._levels):
                big = self._levels[level]
                half = (big.shape[1] // 2, big.shape[0] // 2)
                self._levels.append(
                    cv2.resize(
                        big[: half[1] * 2, : half[0] * 2], half, interpolation=cv2.INTER_AREA
                    )
                )
            level += 1
        return cv2.resize(self._levels[level], size, interpolation=cv2.INTER_LINEAR)


def det_scale(size_wh: tuple[int, int], *, long_side: int) -> float:
    """Scale factor to the detector's working size (never upscaling by more than 2)."""
    return min(2.0, long_side / max(size_wh))
