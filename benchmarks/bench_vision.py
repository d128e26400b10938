"""Speed of the dice reader on one CPU core.

    python benchmarks/bench_vision.py [--runs 30]

Prints the median and 95th-percentile milliseconds for
* a 1920x1080 BGR frame already in memory (what a live camera gives): `vision.read(frame)`;
* a 1920x1080 frame of a six-dice roll (a Farkle roll; dice of 65 px), the same way;
* a 12-megapixel JPEG file, decoding included (`hotdice read`'s path: the JPEG is decoded at
  reduced size when the dice stay large enough);
* each network alone: the finder on a 640x368 input (a 1080p frame's first look, padded to
  its multiple of 16; a finder trained `--context` takes 640x384), and each
  face reader on one 44x44 crop;
on each engine that can run the networks: ONNX Runtime (where installed), then OpenCV's DNN.
The two-dice images are made from `sample_images/WIN_20221210_14_48_22.jpg` (1280x720, MIT):
upscaled to 1920x1080, and upscaled to 4032x2268 then padded (edge rows repeated) to
4032x3024 (12.2 MP) and saved at JPEG quality 92, like a phone photo. The six-dice frame is
`sample_images/IMG_20191208_112143.jpg` (640x640, BSD-3-Clause) upscaled to 1080x1080 and
centred in the frame, its edge columns repeated.
Then, once, the live camera loop (`vision.camera.settled_rolls`) on 1080p frames, the time
it spends on each frame before the next: the six dice lying still, and the same with an arm
reaching in from the edge, its fingertips moving (the most it compares a frame with).
Not a timed test: speed depends on the machine.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision  # noqa: E402
from vision import camera, model  # noqa: E402
from vision.cli import read_photo  # noqa: E402
from vision.reader import FINDER_LOOKS  # noqa: E402

SOURCE = ROOT / "sample_images" / "WIN_20221210_14_48_22.jpg"
SIX_DICE = ROOT / "sample_images" / "IMG_20191208_112143.jpg"


def _stats(times: list[float]) -> tuple[float, float]:
    s = sorted(times)
    return statistics.median(s), s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def _timed(fn: Callable[[], object], runs: int) -> list[float]:
    """Milliseconds of `runs` calls of `fn`, after one untimed call (loading, caches)."""
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return times


def _fidgeting(frame: np.ndarray) -> list[np.ndarray]:
    """`frame` with a dark arm reaching in from its left edge, its fingertips moving."""
    frames = []
    for reach in (300, 360, 420, 360):
        arm = frame.copy()
        arm[300:800, :reach] = (60, 80, 120)
        frames.append(arm)
    return frames


def _loop_times(frames: list[np.ndarray], count: int) -> list[float]:
    """Milliseconds the live loop (`camera.settled_rolls`) spends on each of `count`
    frames: the first 8 of `frames` settle and are read (by a reader that finds nothing),
    then the rest come round and round."""
    stamps = []

    def fed() -> Iterator[np.ndarray]:
        for k in range(count + 8):
            stamps.append(time.perf_counter())
            yield frames[k if k < 8 else 8 + (k - 8) % (len(frames) - 8)]
        stamps.append(time.perf_counter())

    for _ in camera.settled_rolls(fed(), lambda f: vision.Detections()):
        pass
    return list(np.diff(stamps[9:]) * 1000)


def _networks(runs: int) -> None:
    """Each network's own time: what a look or a die costs, whatever the reader does."""
    rng = np.random.default_rng(0)
    pad = -360 % model.DET_PAD  # (a 1080p frame's first look, 640x360, as the finder gets it)
    inputs = {model.DET_FILE: (360 + pad, 640)} | {
        name: (model.CROP, model.CROP) for name in model.CLS_FILES
    }
    for name, (h, w) in inputs.items():
        image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        blob = model._blob([image])
        med, p95 = _stats(_timed(functools.partial(model._run, name, blob), runs * 10))
        print(
            f"{model.network_file(name) + f' {w}x{h}:':34s}median {med:6.2f} ms  p95 {p95:6.2f} ms"
        )
        if name == model.DET_FILE:  # a whole find_centres call: one look, then all four
            for looks in (1, len(model.FINDER_VIEWS)):
                find = functools.partial(
                    model.find_centres, image, views=model.FINDER_VIEWS[:looks]
                )
                med, p95 = _stats(_timed(find, runs * 10))
                label = f"  find_centres, {looks} look(s):"
                print(f"{label:34s}median {med:6.2f} ms  p95 {p95:6.2f} ms")


def _engine(args: argparse.Namespace, frame: np.ndarray, roll: np.ndarray, jpeg: Path) -> None:
    """Every figure, on the engine `model.ENGINE` names."""
    # as `vision.read` reads them (one look of the finder), then with all four of its looks
    for looks in (FINDER_LOOKS, len(model.FINDER_VIEWS)):
        for label, image in (("1920x1080 frame", frame), ("1920x1080, six dice", roll)):
            read = functools.partial(vision.read, image, finder_looks=looks)
            med, p95 = _stats(_timed(read, args.runs))
            dets = read()
            print(
                f"{f'{label}, {looks} look(s):':34s}median {med:6.1f} ms  p95 {p95:6.1f} ms  "
                f"({len(dets)} dice: {sorted(dets.values)})"
            )
    read_photo(jpeg)
    times = []
    for _ in range(args.runs):
        dets, _, ms = read_photo(jpeg)
        times.append(ms)
    med, p95 = _stats(times)
    print(
        f"4032x3024 JPEG ({jpeg.stat().st_size / 1e6:.1f} MB), decode+read: median {med:6.1f} ms  "
        f"p95 {p95:6.1f} ms  ({len(dets)} dice: {sorted(dets.values)})"
    )
    _networks(args.runs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument(
        "--engine",
        choices=["onnxruntime", "opencv", "both"],
        default="both",
        help="what runs the networks (default: both, ONNX Runtime where it is installed)",
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    engines = ["onnxruntime", "opencv"] if args.engine == "both" else [args.engine]
    if model.onnxruntime() is None:
        if args.engine == "onnxruntime":
            ap.error("ONNX Runtime is not installed (pip install -e '.[fast]')")
        engines = ["opencv"]
    base = vision.load_image(SOURCE)
    frame = cv2.resize(base, (1920, 1080), interpolation=cv2.INTER_CUBIC)
    roll = cv2.resize(vision.load_image(SIX_DICE), (1080, 1080), interpolation=cv2.INTER_CUBIC)
    roll = cv2.copyMakeBorder(roll, 0, 0, 420, 420, cv2.BORDER_REPLICATE)
    big = cv2.resize(base, (4032, 2268), interpolation=cv2.INTER_CUBIC)
    big = cv2.copyMakeBorder(big, 378, 378, 0, 0, cv2.BORDER_REPLICATE)
    with tempfile.TemporaryDirectory() as tmp:
        jpeg = Path(tmp) / "12mp.jpg"
        cv2.imwrite(str(jpeg), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
        ort = model.onnxruntime()
        for engine in engines:
            model.ENGINE = engine
            version = ort.__version__ if engine == "onnxruntime" and ort else cv2.__version__
            # ("; dice_cls.int8.onnx run in uint8: ..." where int8 saturates on this CPU)
            in_uint8 = model.describe_engine().removeprefix(engine)
            print(f"-- networks run by {engine} {version}{in_uint8}")
            _engine(args, frame, roll, jpeg)
    for name, moving in (("still", [roll]), ("hand moving", _fidgeting(roll))):
        med, p95 = _stats(_loop_times([roll] * 8 + moving, args.runs * 10))
        label = f"camera loop 1080p, {name}:"
        print(f"{label:34s}median {med:6.2f} ms  p95 {p95:6.2f} ms")
    print(
        f"(one core: cv2.setNumThreads(1), which also sizes ONNX Runtime's pool; "
        f"numpy {np.__version__}, OpenCV {cv2.__version__})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
