"""Fixtures for the vision tests: drawn dice, the sample photos and the shared dev photos."""

from __future__ import annotations

import importlib.util
import os
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Protocol

import cv2
import numpy as np
import pytest

from vision import model
from vision.reader import _Looks

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_images"
SCRIPTS = REPO / "scripts"

PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def draw_die(
    canvas: np.ndarray,
    value: int,
    center_xy: tuple[float, float],
    side: float,
    *,
    angle: float = 0.0,
    face: tuple[int, int, int] = (235, 235, 235),
    pip: tuple[int, int, int] = (20, 20, 20),
    shadow: float = 0.12,
    logo: str | None = None,
) -> None:
    """Draw a die's top face (rounded square with pips) rotated by `angle` degrees, in place.

    Like a real die lit from above-left, it casts a soft shadow `shadow` sides down-right.
    With `logo`, the face shows that printed letter instead of pips (a maker's logo face).
    """
    s = int(side * 4)
    face_img = np.zeros((s, s, 3), np.uint8)
    mask = np.zeros((s, s), np.uint8)
    r = s // 7
    cv2.rectangle(mask, (r, 0), (s - r, s), 255, -1)
    cv2.rectangle(mask, (0, r), (s, s - r), 255, -1)
    for c in ((r, r), (s - r, r), (r, s - r), (s - r, s - r)):
        cv2.circle(mask, c, r, 255, -1)
    face_img[:] = face
    a, pr = 0.26 * s, int(0.085 * s)
    if logo:
        scale, thick = s / 45, max(1, s // 18)
        (tw, th), _ = cv2.getTextSize(logo, cv2.FONT_HERSHEY_TRIPLEX, scale, thick)
        org = ((s - tw) // 2, (s + th) // 2)
        cv2.putText(face_img, logo, org, cv2.FONT_HERSHEY_TRIPLEX, scale, pip, thick, cv2.LINE_AA)
    for dx, dy in [] if logo else PIPS[value]:
        cv2.circle(face_img, (int(s / 2 + dx * a), int(s / 2 + dy * a)), pr, pip, -1, cv2.LINE_AA)
    m: np.ndarray = cv2.getRotationMatrix2D((s / 2, s / 2), angle, side / s)
    m[:, 2] += (center_xy[0] - s / 2, center_xy[1] - s / 2)
    h, w = canvas.shape[:2]
    if shadow:
        ms = m.copy()
        ms[:, 2] += shadow * side
        dark = cv2.GaussianBlur(cv2.warpAffine(mask, ms, (w, h)), (0, 0), max(1.0, side / 25))
        canvas[:] = (canvas * (1 - 0.6 * dark[..., None] / 255.0)).astype(np.uint8)
    warped = cv2.warpAffine(face_img, m, (w, h))
    alpha = cv2.warpAffine(mask, m, (w, h)).astype(np.float32)[..., None] / 255.0
    canvas[:] = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)


def table(
    colour: tuple[int, int, int],
    size_wh: tuple[int, int] = (640, 480),
    *,
    seed: int = 0,
    noise: float = 4.0,
) -> np.ndarray:
    """A plain table with a little sensor noise."""
    rng = np.random.default_rng(seed)
    w, h = size_wh
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    img += rng.normal(0, noise, (h, w, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


def grey_looks(w: int, h: int) -> _Looks:
    """`read`'s looks, at its default settings, at a plain grey image of w x h (for tests
    that stub what the finder and the readers see)."""
    return _Looks(
        np.full((h, w, 3), 180, np.uint8),
        min_score=0.3,
        min_dieness=0.7,
        min_unread_dieness=0.9,
        min_sure_score=0.5,
        roll_size=(0.6, 2.0),
        target_side_px=34.0,
        rotations=4,
    )


def read_scores(value: int, confidence: float, dieness: float = 0.98) -> np.ndarray:
    """Made-up readers' scores (not-a-die, 1-6) for a find: "a die" at `dieness`, `value`
    at `confidence` of that."""
    probs = np.full(7, dieness * (1 - confidence) / 5, np.float32)
    probs[0], probs[value] = 1 - dieness, dieness * confidence
    return probs


class DrawDie(Protocol):
    """`draw_die`'s signature, for the `drawn` fixture's type."""

    def __call__(
        self,
        canvas: np.ndarray,
        value: int,
        center_xy: tuple[float, float],
        side: float,
        *,
        angle: float = ...,
        face: tuple[int, int, int] = ...,
        pip: tuple[int, int, int] = ...,
        shadow: float = ...,
        logo: str | None = ...,
    ) -> None: ...


class Table(Protocol):
    """`table`'s signature, for the `drawn` fixture's type."""

    def __call__(
        self,
        colour: tuple[int, int, int],
        size_wh: tuple[int, int] = ...,
        *,
        seed: int = ...,
        noise: float = ...,
    ) -> np.ndarray: ...


Drawn = tuple[DrawDie, Table]


@pytest.fixture
def drawn() -> Drawn:
    """The drawing helpers, for tests that build their own scenes."""
    return draw_die, table


def _exif_tiff(orientation: int) -> bytes:
    """EXIF's TIFF structure holding only the orientation tag."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1)
    return tiff + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)


def _exif_jpeg(image: np.ndarray, orientation: int) -> bytes:
    """A JPEG with an APP1 EXIF segment holding only the orientation tag."""
    ok, enc = cv2.imencode(".jpg", image)
    assert ok
    payload = b"Exif\x00\x00" + _exif_tiff(orientation)
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    data = enc.tobytes()
    return data[:2] + app1 + data[2:]


def _exif_png(image: np.ndarray, orientation: int, *, at_end: bool = False) -> bytes:
    """A PNG with an eXIf chunk holding only the orientation tag, after its header (or
    after its image data, `at_end`: libpng takes it there too)."""
    ok, enc = cv2.imencode(".png", image)
    assert ok
    tiff, data = _exif_tiff(orientation), enc.tobytes()
    chunk = b"eXIf" + tiff
    chunk = struct.pack(">I", len(tiff)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    at = len(data) - 12 if at_end else 33  # (before IEND, or after the signature and IHDR)
    return data[:at] + chunk + data[at:]


@pytest.fixture
def exif_jpeg() -> Callable[[np.ndarray, int], bytes]:
    """JPEG bytes of an image with an EXIF orientation tag (6: turn 90 degrees to view)."""
    return _exif_jpeg


@pytest.fixture
def exif_png() -> Callable[..., bytes]:
    """PNG bytes of an image with an EXIF orientation tag, as a phone's screenshot app or
    an editor may save one."""
    return _exif_png


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def stress() -> ModuleType:
    """scripts/stress_vision.py, whose changed photos docs/vision.md's Known limits figures
    come from: tests change the sample photos the same way."""
    return _script("stress_vision")


@pytest.fixture(scope="session")
def single_die_crops() -> ModuleType:
    """scripts/single_die_crops.py, behind docs/vision.md's figures for photos cut close
    around one die."""
    return _script("single_die_crops")


@pytest.fixture(scope="session")
def near_and_far() -> ModuleType:
    """scripts/near_and_far.py, behind docs/vision.md's figure for rolls of a few dice of
    different sizes."""
    return _script("near_and_far")


@pytest.fixture(scope="session")
def small_dice() -> ModuleType:
    """scripts/small_dice.py, behind `vision/small.py`'s table of dice read small."""
    return _script("small_dice")


@pytest.fixture(scope="session")
def drawn_rolls() -> ModuleType:
    """scripts/drawn_rolls.py, behind docs/vision.md's figures for drawn die sets on drawn
    tables."""
    return _script("drawn_rolls")


@pytest.fixture(scope="session")
def battery() -> ModuleType:
    """scripts/stress_battery.py, which runs stress_vision.py many ways at once."""
    return _script("stress_battery")


def _script(name: str) -> ModuleType:
    """One of scripts/ (not a package) loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (a dataclass looks up its module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def wide_shot(samples_dir: Path, stress: ModuleType) -> Callable[..., np.ndarray]:
    """A sample photo (dice of about 40 px) in the middle of a 12 MP photo of the table
    around it: a phone photo of a whole table from standing height, where a die is 1% of
    the long side. Made by scripts/stress_vision.py's `--canvas`; `seed` draws its noise."""

    def make(
        name: str, size_wh: tuple[int, int] = (4000, 3000), scale: float = 1.0, seed: int = 0
    ) -> np.ndarray:
        image = cv2.imread(str(samples_dir / name))
        assert image is not None, name
        if scale != 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        rng = np.random.default_rng(seed)
        return stress.on_canvas(image, {"dice": []}, size_wh, rng)[0]

    return make


@pytest.fixture(scope="session")
def shared_photos() -> Path:
    """../shared/dice_photos beside the repository (or $HOTDICE_SHARED), else skip."""
    env = os.environ.get("HOTDICE_SHARED")
    root = Path(env) if env else REPO / ".." / "shared"
    path = root / "dice_photos" if (root / "dice_photos").is_dir() else root
    if not (path / "byler_d6" / "labels.json").is_file():
        pytest.skip(f"shared dev photos not found at {path} (set HOTDICE_SHARED)")
    return path


ENGINES = [
    "opencv",
    pytest.param(
        "onnxruntime",
        marks=pytest.mark.skipif(
            model.onnxruntime() is None,
            reason="ONNX Runtime not installed (pip install -e '.[fast]')",
        ),
    ),
]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each engine in turn runs the networks (ONNX Runtime only where it is installed)."""
    monkeypatch.setattr(model, "ENGINE", request.param)
    return request.param


# A polka-dot cloth's colours (`polka`)
PURPLE, CREAM = (110, 40, 90), (225, 230, 235)


def polka(
    size_wh: tuple[int, int],
    step: float,
    radius: int,
    *,
    cloth: tuple[int, int, int] = PURPLE,
    dot: tuple[int, int, int] = CREAM,
) -> np.ndarray:
    """A polka-dot cloth: dots of `radius` on a hexagonal grid `step` pixels apart."""
    w, h = size_wh
    img = np.empty((h, w, 3), np.uint8)
    img[:] = cloth
    for row, y in enumerate(np.arange(0, h + step, step * 0.87)):
        for x in np.arange((row % 2) * step / 2, w + step, step):
            cv2.circle(img, (int(x), int(y)), radius, dot, -1, cv2.LINE_AA)
    return img


def gingham(
    size_wh: tuple[int, int], square: float, colour: tuple[int, int, int] = (47, 165, 19)
) -> np.ndarray:
    """A gingham check: bands of `colour` at half strength on white, `square` pixels wide,
    crossing both ways (where two cross, the full colour)."""
    w, h = size_wh
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bands = ((xx // square) % 2) + ((yy // square) % 2)
    white = np.array([235, 235, 235], np.float32)
    tinted = white + (np.array(colour, np.float32) - white) * (bands[..., None] / 2)
    return np.rint(tinted).astype(np.uint8)
