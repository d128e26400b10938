"""Decoding files and bytes: errors are one-line messages, EXIF orientation is honoured."""

from __future__ import annotations

import errno
import os
import struct
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.io import (
    MAX_SCANS,
    PNG_MOST_SIDE,
    ImageTooLarge,
    decode_image,
    exif_orientation,
    image_size_wh,
    jpeg_scans,
    load_image,
    native_stderr_kept,
    opencv_message,
    read_bytes,
    reduction_for,
    write_image,
)


def test_exif_orientation_is_applied(exif_jpeg: Callable[[np.ndarray, int], bytes]) -> None:
    img = np.zeros((20, 40, 3), np.uint8)
    img[:, :20] = 255  # left half white
    upright = decode_image(exif_jpeg(img, 1))
    rotated = decode_image(exif_jpeg(img, 6))  # 6 = rotate 90 degrees clockwise to view
    assert upright.shape[:2] == (20, 40)
    assert rotated.shape[:2] == (40, 20)
    assert rotated[:10].mean() > 200 and rotated[-10:].mean() < 50
    halved = decode_image(exif_jpeg(img, 6), reduce=2)  # reduced decoding keeps orientation
    assert halved.shape[:2] == (20, 10) and halved[:5].mean() > 200


def test_header_size_and_reduction() -> None:
    ok, enc = cv2.imencode(".jpg", np.zeros((300, 4000, 3), np.uint8))
    assert image_size_wh(enc.tobytes()) == (4000, 300)
    ok, png = cv2.imencode(".png", np.zeros((7, 9, 3), np.uint8))
    assert image_size_wh(png.tobytes()) == (9, 7)
    assert reduction_for((4032, 3024), min_long_side=1000) == 4
    assert reduction_for((1280, 720), min_long_side=1000) == 1
    assert decode_image(enc.tobytes(), reduce=4).shape[:2] == (75, 1000)
    # a long thin strip keeps its short side: 8000x7 would shrink to 1000x0
    assert reduction_for((8000, 7), min_long_side=1000) == 1
    assert reduction_for((8000, 300), min_long_side=1000) == 4


def test_a_header_that_is_not_one_gives_no_size() -> None:
    """Damaged bytes after a PNG's or JPEG's mark had been sized as they fell (1786080875
    pixels a side) and refused as too large, where they are damaged (a review)."""
    png = cv2.imencode(".png", np.zeros((7, 9, 3), np.uint8))[1].tobytes()
    assert image_size_wh(png[:8] + b"junk" * 5) is None  # (no IHDR chunk first)
    assert image_size_wh(png[:12] + b"IHDX" + png[16:]) is None
    jpeg = cv2.imencode(".jpg", np.zeros((30, 70, 3), np.uint8))[1].tobytes()
    sof = jpeg.index(b"\xff\xc0")
    for at, bad in ((4, 0), (4, 17), (9, 0), (9, 11), (3, 99)):  # precision, parts, length
        damaged = bytearray(jpeg)
        damaged[sof + at] = bad
        assert image_size_wh(bytes(damaged)) is None, (at, bad)
    assert image_size_wh(jpeg) == (70, 30)
    with pytest.raises(ValueError) as refused:
        decode_image(png[:8] + b"junk" * 5)
    assert not isinstance(refused.value, ImageTooLarge)


def test_a_decoder_failure_is_a_one_line_error() -> None:
    ok, png = cv2.imencode(".png", np.zeros((3, 4000, 3), np.uint8))
    with pytest.raises(ValueError, match="not a readable image"):
        decode_image(png.tobytes(), reduce=8)  # OpenCV asserts on a 500x0 result


def _png(width: int, height: int) -> bytes:
    """A whole grey PNG of that size, black (OpenCV writes none over its own bound)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress((b"\x00" + bytes(width)) * height)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def test_a_damaged_or_too_wide_png_is_said_to_be_so_in_one_line(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """libpng printed its own lines on standard error ("libpng error: IDAT: CRC error";
    for a side over its bound, a warning and an error) before the one-line message."""
    png = cv2.imencode(".png", np.full((60, 80, 3), 90, np.uint8))[1].tobytes()
    idat = png.index(b"IDAT")
    damaged = png[: idat + 10] + bytes([png[idat + 10] ^ 0xFF]) + png[idat + 11 :]
    with pytest.raises(ValueError, match="the PNG is damaged: its IDAT chunk's checksum"):
        decode_image(damaged)
    wide = _png(PNG_MOST_SIDE + 1, 1)
    with pytest.raises(ImageTooLarge, match="over 1,000,000 pixels a side"):
        decode_image(wide)
    assert capfd.readouterr().err == ""
    # after its end, what a PNG carries is not looked at (an app's trailer)
    assert decode_image(png + b"trailing bytes").shape == (60, 80, 3)
    # an optional chunk's checksum (a text's, a colour profile's) libpng passes over
    text = b"tEXt" + b"Comment\x00hello"
    bad_text = struct.pack(">I", len(text) - 4) + text + b"\x00\x00\x00\x00"
    assert decode_image(png[:33] + bad_text + png[33:]).shape == (60, 80, 3)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_a_png_s_text_chunks_are_not_inflated_nor_warned_of(
    capfd: pytest.CaptureFixture[str], exif_png: Callable[..., bytes]
) -> None:
    """A security review: libpng inflated every zTXt chunk (a 1.5 MB upload of 200 held a
    photo reader 7 s, 1,500 of them 40 s) and printed a warning for each bad text chunk (a
    19 MB upload wrote 53 MB to the server's output). Only the chunks of the pixels and
    their turn are decoded; a flood of others is refused."""
    image = np.zeros((40, 60, 3), np.uint8)
    image[:, :30] = (10, 200, 90)
    turned = exif_png(image, 6)  # (eXIf before the image data: it is kept, and turns it)
    ztxt = _chunk(b"zTXt", b"big\x00\x00" + zlib.compress(bytes(4_000_000), 9))
    flood = ztxt * 3 + _chunk(b"tEXt", b"") * 40 + _chunk(b"iCCP", b"p\x00\x00" + b"junk")
    read = decode_image(turned[:33] + flood + turned[33:])
    assert np.array_equal(read, np.rot90(image, -1))
    assert capfd.readouterr().err == ""  # (libpng: "tEXt: too short", "iCCP: ...")
    png = cv2.imencode(".png", image)[1].tobytes()
    many = png[:33] + _chunk(b"tEXt", b"k\x00v") * 1_000 + png[33:]
    assert np.array_equal(decode_image(many), image)
    with pytest.raises(ValueError, match="^the PNG holds more than 1,000 optional chunks"):
        decode_image(png[:33] + _chunk(b"tEXt", b"k\x00v") * 1_001 + png[33:])


def test_native_stderr_kept_without_a_temporary_folder_keeps_nothing_and_leaks_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No temporary file: what is said goes out as it comes, and no descriptor is left
    open (the duplicate of standard error was made first, and leaked, before)."""

    def no_room() -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    monkeypatch.setattr(tempfile, "TemporaryFile", no_room)
    for _ in range(5):
        with native_stderr_kept() as said:
            pass
        assert said == []
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before


def test_a_pfm_image_is_refused_not_read_black() -> None:
    """OpenCV decodes a PFM's floating-point light (0-1) as 0-255: a black photo, no dice,
    and no word of why (a review); a float TIFF it refuses itself."""
    image = np.full((32, 48, 3), 0.5, np.float32)
    data = cv2.imencode(".pfm", image)[1].tobytes()
    assert data[:3] == b"PF\n"
    with pytest.raises(ValueError, match="a PFM image holds floating-point light"):
        decode_image(data)


def test_a_heic_photo_and_a_png_cut_off_are_said_to_be_so_before_decoding(
    capfd: pytest.CaptureFixture[str],
) -> None:
    # (found by a review: a HEIC photo was "not a readable image", and a PNG cut off made
    # libpng print its own line on standard error before the command's one line)
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(100)
    with pytest.raises(ValueError, match="a HEIC photo .* send it as a JPEG"):
        decode_image(heic)
    png = cv2.imencode(".png", np.full((60, 80, 3), 90, np.uint8))[1].tobytes()
    assert decode_image(png).shape == (60, 80, 3)
    with pytest.raises(ValueError, match="the PNG is cut off before its end"):
        decode_image(png[: len(png) * 9 // 10])
    assert capfd.readouterr().err == ""
    for avif_like in (  # (not refused as a HEIC: OpenCV reads AVIF)
        b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + bytes(100),
        b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1avifmiaf" + bytes(100),
    ):
        with pytest.raises(ValueError, match="not a readable image"):
            decode_image(avif_like)
    heic_generic = b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1heicmiaf" + bytes(100)
    with pytest.raises(ValueError, match="a HEIC photo"):
        decode_image(heic_generic)
    after_end = png + bytes(10_000)  # (bytes after the end: read, not called cut off)
    assert decode_image(after_end).shape == (60, 80, 3)


def test_a_jpeg_cut_off_is_said_to_be_so(samples_dir: Path) -> None:
    """A copy or an upload not finished, the commonest broken photo, had been "data is not
    a readable image", where a PNG so cut is said to be cut off (a review)."""
    whole = (samples_dir / "IMG_20191208_112014.jpg").read_bytes()
    for cut in (whole[:16_000], whole[:-108]):
        with pytest.raises(ValueError, match="^the JPEG is cut off before its end"):
            decode_image(cut)
    with pytest.raises(ValueError, match="^data is not a readable image"):  # (its end is there)
        decode_image(b"\xff\xd8" + bytes(100) + b"\xff\xd9")


def test_not_an_image(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a readable image"):
        decode_image(b"hello world")
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    with pytest.raises(ValueError, match="notes.jpg"):
        load_image(bad)
    with pytest.raises(OSError, match="no such file"):
        load_image(tmp_path / "missing.jpg")


def test_too_many_pixels() -> None:
    """Over the limit is its own error (the web answers it 413, not 400), by the header or,
    for a header without a size, once decoded."""
    ok, enc = cv2.imencode(".png", np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(ImageTooLarge, match="100x100 pixels, more than the 5,000 a photo may have"):
        decode_image(enc.tobytes(), max_pixels=5000)
    ok, bmp = cv2.imencode(".bmp", np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(ImageTooLarge, match="100x100 pixels, more than the 5,000 a photo may have"):
        decode_image(bmp.tobytes(), max_pixels=5000)
    with pytest.raises(ValueError) as err:
        decode_image(b"not an image", max_pixels=5000)
    assert not isinstance(err.value, ImageTooLarge)


def test_header_size_of_a_progressive_jpeg() -> None:
    """Phones and web tools save progressive JPEGs (an SOF2 header), not only baseline."""
    ok, enc = cv2.imencode(
        ".jpg", np.zeros((30, 70, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    )
    assert ok and b"\xff\xc2" in enc.tobytes() and b"\xff\xc0" not in enc.tobytes()
    assert image_size_wh(enc.tobytes()) == (70, 30)


def _segment(marker: int, payload: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", 2 + len(payload)) + payload


def test_a_jpeg_size_is_read_where_libjpeg_reads_it() -> None:
    """0xFF 0x00 is no marker (libjpeg skips it): taken for one with a length, it let a
    16x16 frame header hidden in a segment libjpeg skips stand for the image's own, and a
    30000x30000 JPEG was decoded past the size check (found by a review: 5 GB)."""
    ok, enc = cv2.imencode(".jpg", np.zeros((80, 100, 3), np.uint8))
    fake_sof = _segment(0xC0, bytes([8]) + struct.pack(">HH", 16, 16) + bytes(10))
    hidden = b"\xff\xd8\xff\x00" + struct.pack(">H", 6) + _segment(0xE1, fake_sof)
    data = hidden + enc.tobytes()[2:]
    assert image_size_wh(data) == (100, 80)
    with pytest.raises(ImageTooLarge, match="100x80 pixels, more than the 5,000"):
        decode_image(data, max_pixels=5000)
    assert image_size_wh(b"\xff\xd8" + _segment(0xDA, bytes(12)) + enc.tobytes()) is None


def test_a_jpeg_walk_takes_fill_bytes_restarts_and_a_cut_end_as_libjpeg_does() -> None:
    """Found by mutating the walk: none of these had a test."""
    ok, enc = cv2.imencode(".jpg", np.zeros((80, 100, 3), np.uint8))
    data = enc.tobytes()
    filled = data[:2] + b"\xff" + data[2:]  # (a fill byte before the first marker)
    assert image_size_wh(filled) == (100, 80)
    stray = data[:2] + b"\xff\xd0\xff\x01\xff\xd7" + data[2:]  # (no segment: stepped over)
    assert image_size_wh(stray) == (100, 80) and jpeg_scans(stray) == 1
    assert decode_image(stray).shape == (80, 100, 3)
    twice = data[:2] + b"\xff\xd8" + data[2:]  # (a second SOI: libjpeg's error)
    assert image_size_wh(twice) is None and jpeg_scans(twice) == 0
    with pytest.raises(ValueError, match="not a readable image"):
        decode_image(twice)
    for cut in (b"\xff\xe1\x00", b"\xff\xe1", b"\xff"):  # (a marker cut off at the end)
        assert image_size_wh(data[:2] + cut) is None and jpeg_scans(data[:2] + cut) == 0
    ok, restarts = cv2.imencode(
        ".jpg",
        np.random.default_rng(0).integers(0, 256, (64, 64, 3), np.uint8),
        [cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_RST_INTERVAL, 1],
    )
    assert b"\xff\xd7" in restarts.tobytes()  # (every restart marker, RST0 to RST7)
    assert jpeg_scans(restarts.tobytes()) == 10


def test_as_many_scans_as_allowed_are_decoded() -> None:
    exactly = _progressive_with_scans(MAX_SCANS - 10)
    assert jpeg_scans(exactly) == MAX_SCANS
    try:
        decode_image(exactly)
    except ValueError as exc:  # (libjpeg may call the repeated scans inconsistent)
        assert "scans" not in str(exc)


def _progressive_with_scans(extra: int) -> bytes:
    """A real progressive JPEG with its last scan repeated `extra` times before its end."""
    ok, enc = cv2.imencode(
        ".jpg", np.zeros((64, 64, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    )
    data = enc.tobytes()
    last = data[data.rindex(b"\xff\xda") : -2]
    return data[:-2] + last * extra + b"\xff\xd9"


def test_a_jpeg_of_more_scans_than_a_camera_writes_is_not_decoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each scan makes libjpeg go over the whole image again: a 2000x2000 JPEG of 52 KB
    with 2,000 scans took 10.7 s to decode (found by a review). A camera's have about 10."""
    ok, camera = cv2.imencode(
        ".jpg", np.zeros((64, 64, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    )
    assert 1 < jpeg_scans(camera.tobytes()) <= 12 < MAX_SCANS
    assert decode_image(camera.tobytes()).shape == (64, 64, 3)
    many = _progressive_with_scans(MAX_SCANS)
    assert jpeg_scans(many) > MAX_SCANS

    def never(*args: object) -> None:
        raise AssertionError("decoded")

    monkeypatch.setattr(cv2, "imdecode", never)
    with pytest.raises(ValueError, match=f"the JPEG has {jpeg_scans(many)} scans, more than"):
        decode_image(many)


def test_a_motion_photos_video_after_the_image_is_not_counted_as_scans() -> None:
    """A phone's motion photo carries a video after the JPEG's end marker, whose bytes hold
    a 0xFF 0xDA every 65 KB or so: counted, a real photo of 3.5 MB of video was refused
    (found by a review). Nor does an EXIF thumbnail's scan, inside a segment, count."""
    ok, enc = cv2.imencode(".jpg", np.zeros((64, 64, 3), np.uint8))
    video = b"\x00\x00\xff\xda\x00\x10" * (2 * MAX_SCANS)
    assert jpeg_scans(enc.tobytes() + video) == 1
    assert decode_image(enc.tobytes() + video).shape == (64, 64, 3)
    thumbnail = _segment(0xE1, b"Exif\x00\x00" + enc.tobytes())
    with_thumbnail = enc.tobytes()[:2] + thumbnail + enc.tobytes()[2:]
    assert jpeg_scans(with_thumbnail) == 1 and image_size_wh(with_thumbnail) == (64, 64)


BOMB = """
import resource, struct
import vision
from vision.io import ImageTooLarge, decode_image
def bmp(width, height):  # 1 KB, whatever its size: run-length coded, its end at once
    palette = bytes(1024)
    head = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, 2, 2835, 2835, 256, 0)
    offset = 14 + len(head) + len(palette)
    return b"BM" + struct.pack("<IHHI", offset + 2, 0, 0, offset) + head + palette + b"\\0\\1"
for size in ((30000, 30000), (2_000_000, 1)):
    try:
        decode_image(bmp(*size))
    except ImageTooLarge as exc:
        print(exc)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_an_image_of_any_format_too_big_is_refused_from_its_header() -> None:
    """The size check reads JPEG and PNG headers only; OpenCV's own limit, set to 50 MP as
    the package loads (before OpenCV), refuses the rest from theirs: a 1 KB BMP that says
    30000x30000 took 5 GB and 11 s to be refused once decoded (found by a review). A fresh
    process: OpenCV reads the setting once, as it loads."""
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_IO_MAX_IMAGE_PIXELS"}
    out = subprocess.run(
        [sys.executable, "-c", BOMB],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    message, too_wide, peak_kb = out.stdout.splitlines()
    assert message == "image is more than 50,000,000 pixels: send a smaller one", out.stderr
    assert too_wide == "image is over 1048576 pixels on a side"  # (2 MP: not too many)
    assert int(peak_kb) < 1_000_000  # (under a gigabyte: 5 GB before)


def test_reduction_keeps_sides_at_their_minimum_exactly() -> None:
    """A side may come out equal to its minimum: 2000 / 2 = 1000, 128 / 2 = 64, and
    8064 / 8 = 1008 (the largest reduction the decoder has)."""
    assert reduction_for((2000, 1500), min_long_side=1000) == 2
    assert reduction_for((4000, 128), min_long_side=1000) == 2
    assert reduction_for((8064, 6048), min_long_side=1000) == 8
    assert reduction_for((64000, 48000), min_long_side=1000) == 8
    assert reduction_for(None) == 1


def test_an_image_of_exactly_max_pixels_is_decoded() -> None:
    ok, enc = cv2.imencode(".png", np.zeros((50, 100, 3), np.uint8))
    assert decode_image(enc.tobytes(), max_pixels=5000).shape == (50, 100, 3)


def test_load_image_decodes_a_large_jpeg_at_reduced_size(tmp_path: Path) -> None:
    """2400x1600 halved keeps a long side of 1200 >= 1000; quartered, 600 would not."""
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), np.full((1600, 2400, 3), 100, np.uint8))
    assert load_image(path).shape == (1600, 2400, 3)
    assert load_image(path, min_long_side=1000).shape == (800, 1200, 3)


def test_a_folder_or_a_path_through_a_file_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="not a file"):
        load_image(tmp_path)
    note = tmp_path / "note.txt"
    note.write_text("x")
    with pytest.raises(OSError, match="note.txt/a.jpg: no such file"):
        load_image(note / "a.jpg")


def test_a_named_pipe_a_device_or_a_file_past_the_limit_is_not_read(
    tmp_path: Path, ends_or_fails: None
) -> None:
    """/dev/zero and an 8 GB file were read into memory, a pipe waited for a writer."""
    pipe = tmp_path / "pipe.jpg"
    os.mkfifo(pipe)
    for path in (pipe, Path(os.devnull)):
        with pytest.raises(OSError, match="not a file"):
            read_bytes(path)
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\0" * 2049)
    with pytest.raises(OSError, match="big.jpg: over 0 MB, too big for a photo"):
        read_bytes(big, limit=2048)
    assert len(read_bytes(big, limit=4096)) == 2049


def test_an_image_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk had deleted the file that was there (or left half a TIFF): the new image
    is written beside it and renamed over it, keeping its permissions."""
    out = tmp_path / "copy.png"
    write_image(out, np.zeros((8, 8, 3), np.uint8))
    out.chmod(0o640)
    before = out.read_bytes()

    def full_disk(source: str, target: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(os, "replace", full_disk)
        with pytest.raises(OSError, match="copy.png: cannot write the image: No space left"):
            write_image(out, np.full((8, 8, 3), 255, np.uint8))
    assert out.read_bytes() == before and sorted(tmp_path.iterdir()) == [out]
    write_image(out, np.full((8, 8, 3), 255, np.uint8))
    written = cv2.imread(str(out))
    assert written is not None and written[0, 0].tolist() == [255, 255, 255]
    assert out.stat().st_mode & 0o777 == 0o640
    with pytest.raises(OSError, match="cannot write the image as .txt"):
        write_image(tmp_path / "copy.txt", np.zeros((8, 8, 3), np.uint8))


def test_an_image_is_written_through_a_symlink_in_the_format_its_name_gives(
    tmp_path: Path,
) -> None:
    (tmp_path / "data.bin").write_bytes(b"old")
    link = tmp_path / "copy.png"
    link.symlink_to(tmp_path / "data.bin")
    write_image(link, np.zeros((8, 8, 3), np.uint8))
    assert link.is_symlink() and (tmp_path / "data.bin").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(OSError, match=r"^\S*nowhere/copy.png: cannot write the image: "):
        write_image(tmp_path / "nowhere" / "copy.png", np.zeros((8, 8, 3), np.uint8))


def test_an_opencv_error_says_its_own_description_not_the_last_errors() -> None:
    """OpenCV keeps an error's description (``err``) on the error class: a test's error
    made by hand, after another test's real one, read "Overload resolution failed"."""
    with pytest.raises(cv2.error) as real:
        cv2.resize(np.zeros((0, 0), np.uint8), (1, 1))
    assert opencv_message(real.value) == "!ssize.empty()"
    assert opencv_message(cv2.error("videoio: read failed\nmore")) == "videoio: read failed\nmore"


def test_an_orientation_stored_as_a_long_is_read(samples_dir: Path) -> None:
    """EXIF's orientation is a SHORT, but some writers store it as a LONG, which OpenCV
    honours: `eval` turned no labels for such a photo (a review)."""
    import struct

    for order, pack in ((b"MM", ">"), (b"II", "<")):
        tiff = order + struct.pack(pack + "HI", 42, 8) + struct.pack(pack + "H", 1)
        tiff += struct.pack(pack + "HHII", 0x0112, 4, 1, 6) + struct.pack(pack + "I", 0)
        app1 = b"Exif\x00\x00" + tiff
        photo = (samples_dir / "IMG_20191208_112014.jpg").read_bytes()
        data = photo[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + photo[2:]
        assert exif_orientation(data) == 6
        stored = decode_image(photo, reduce=8)
        assert decode_image(data, reduce=8).shape == (stored.shape[1], stored.shape[0], 3)
