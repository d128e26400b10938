"""Speed of the dice reader on one CPU core.

    python benchmarks/bench_vision.py [--runs 30]

Prints the median and 95th-percentile milliseconds for
* a 1920x1080 BGR frame already in memory (what a live camera gives): `vision.read(frame)`;
* a 1920x1080 frame of a six-dice roll (a Farkle roll; dice of 65 px), the same way;
* a 12-megapixel JPEG file, decoding included (`hotdice read`'s path: the JPEG is decoded at
  reduced size when the dice stay large enough).
The two-dice images are made from `sample_images/WIN_20221210_14_48_22.jpg` (1280x720, MIT):
upscaled to 1920x1080, and upscaled to 4032x2268 then padded (edge rows repeated) to
4032x3024 (12.2 MP) and saved at JPEG quality 92, like a phone photo. The six-dice frame is
`sample_images/IMG_20191208_112143.jpg` (640x640, BSD-3-Clause) upscaled to 1080x1080 and
centred in the frame, its edge columns repeated.
Not a timed test: speed depends on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision  # noqa: E402
from vision.cli import read_photo  # noqa: E402

SOURCE = ROOT / "sample_images" / "WIN_20221210_14_48_22.jpg"
SIX_DICE = ROOT / "sample_images" / "IMG_20191208_112143.jpg"


def _stats(times: list[float]) -> tuple[float, float]:
    s = sorted(times)
    return statistics.median(s), s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    base = cv2.imread(str(SOURCE))
    frame = cv2.resize(base, (1920, 1080), interpolation=cv2.INTER_CUBIC)
    roll = cv2.resize(cv2.imread(str(SIX_DICE)), (1080, 1080), interpolation=cv2.INTER_CUBIC)
    roll = cv2.copyMakeBorder(roll, 0, 0, 420, 420, cv2.BORDER_REPLICATE)
    for label, image in (("1920x1080 frame", frame), ("1920x1080, six dice", roll)):
        vision.read(image)
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            dets = vision.read(image)
            times.append((time.perf_counter() - t) * 1000)
        med, p95 = _stats(times)
        print(
            f"{label + ', read():':34s}median {med:6.1f} ms  p95 {p95:6.1f} ms  "
            f"({len(dets)} dice: {sorted(dets.values)})"
        )

    big = cv2.resize(base, (4032, 2268), interpolation=cv2.INTER_CUBIC)
    big = cv2.copyMakeBorder(big, 378, 378, 0, 0, cv2.BORDER_REPLICATE)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "12mp.jpg"
        cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
        size_mb = path.stat().st_size / 1e6
        read_photo(path)
        times = []
        for _ in range(args.runs):
            dets, _, ms = read_photo(path)
            times.append(ms)
    med, p95 = _stats(times)
    print(
        f"4032x3024 JPEG ({size_mb:.1f} MB), decode+read: median {med:6.1f} ms  p95 {p95:6.1f} ms  "
        f"({len(dets)} dice: {sorted(dets.values)})"
    )
    print(f"(one core: cv2.setNumThreads(1); numpy {np.__version__}, OpenCV {cv2.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
