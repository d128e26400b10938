"""Decoding image files and bytes: the only place the vision layer touches files.

OpenCV's decoders honour the EXIF orientation tag unless told otherwise, so photos taken
with a phone held upright come out upright. Large JPEGs are decoded at a reduced size
(the JPEG decoder scales by 1/2, 1/4 or 1/8 almost for free), because dice in a
12-megapixel photo are far larger than the reader needs.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import struct
import sys
import tempfile
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .limits import MAX_PIXELS


def _decoded_pixels() -> int:
    """OpenCV's limit as it reads its setting (`vision/__init__.py` sets it to 50 MP where
    not set already), for the message that names it."""
    try:
        return int(os.environ.get("OPENCV_IO_MAX_IMAGE_PIXELS", ""))
    except ValueError:
        return 1 << 30  # (OpenCV's own default)


DECODED_PIXELS = _decoded_pixels()
"""The most pixels OpenCV decodes an image to, whatever its format says of its size: a
`max_pixels` over it is held to it. (Where OpenCV was loaded before `vision`, its own
default holds, a gigapixel, whatever this says.)"""

_REDUCED = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


_SOF_MARKERS = frozenset(
    {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
)


def _jpeg_markers(data: bytes) -> Iterator[tuple[int, int]]:
    """A JPEG's markers that carry a segment, as (marker, offset), up to its image's end
    marker, walked as libjpeg walks them (jdmarker.c, `next_marker`): a segment is skipped
    by its length, bytes that are not 0xFF are skipped (a scan's coded data among them),
    so are 0xFF fill bytes, and 0xFF 0x00 is no marker but two bytes skipped, as are the
    markers without a segment (restarts); a second SOI ends it (libjpeg's error, "two SOI
    markers"). Taking 0xFF 0x00 for a marker with a length (until session 43) let a 16x16
    frame header hidden in a segment libjpeg skips stand for the 30000x30000 one libjpeg
    decodes (5 GB). What follows the end marker (the video of a phone's motion photo) is
    not walked."""
    i, n = 2, len(data)
    while (found := _MARKER.search(data, i)) and (i := found.start()) + 3 < n:
        marker = data[i + 1]
        if marker in (0xD8, 0xD9):  # (its end; a second SOI is libjpeg's error, "two SOI")
            return
        yield marker, i
        i += 2 + max(2, struct.unpack(">H", data[i + 2 : i + 4])[0])


# 0xFF before a byte that is neither 0x00 (a coded 0xFF) nor 0xFF (a fill byte, the last of
# which is taken), nor a marker without a segment that libjpeg steps over (TEM 0x01, the
# restarts 0xD0-0xD7): searched in C, as a scan's coded data holds a 0xFF 0x00 every 100
# bytes or so (walked in Python, 8.6 ms of the benchmark 12 MP JPEG's read; 1.2 ms so),
# and a file may hold millions of restarts (18 MB of them took 2.4 s walked one by one)
_MARKER = re.compile(b"\xff(?=[^\x00\xff\x01\xd0-\xd7])")


def image_size_wh(data: bytes) -> tuple[int, int] | None:
    """Width and height from a JPEG or PNG header without decoding, or None if unknown
    (as where the header is not one: damaged bytes had been sized as 1786080875 pixels a
    side, and refused as too large where they are damaged)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        if len(data) < 24 or data[8:16] != b"\x00\x00\x00\x0dIHDR":  # (its first chunk)
            return None
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if data[:2] != b"\xff\xd8":
        return None
    for marker, i in _jpeg_markers(data):
        if marker == 0xDA or i + 10 > len(data):  # (a scan before any frame header: none)
            return None
        if marker in _SOF_MARKERS:
            length, precision, h, w, parts = struct.unpack(">HBHHB", data[i + 2 : i + 10])
            if not 2 <= precision <= 16 or not 1 <= parts <= 10 or length != 8 + 3 * parts:
                return None  # (as libjpeg's `get_sof` refuses it: no frame header)
            return int(w), int(h)
    return None


def exif_orientation(data: bytes) -> int:
    """The EXIF orientation (1-8) of a JPEG's first EXIF segment or a PNG's eXIf chunk: how
    the decoder turns its stored pixels to show them upright (OpenCV does, `decode_image`);
    1 where it has none or an unreadable one."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        i = 8  # (every chunk, to IEND: libpng takes an eXIf after the image data too)
        while i + 8 <= len(data) and data[i + 4 : i + 8] != b"IEND":
            size = struct.unpack(">I", data[i : i + 4])[0]
            if data[i + 4 : i + 8] == b"eXIf":
                return _tiff_orientation(data[i + 8 : i + 8 + size])
            i += 12 + size
        return 1
    if data[:2] != b"\xff\xd8":
        return 1
    for marker, i in _jpeg_markers(data):
        if marker == 0xDA:
            break
        if marker == 0xE1 and data[i + 4 : i + 10] == b"Exif\x00\x00":
            return _tiff_orientation(
                data[i + 10 : i + 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]]
            )
    return 1


def _tiff_orientation(tiff: bytes) -> int:
    """The orientation tag of EXIF's TIFF structure (its first directory), 1 if none."""
    order = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if order is None or len(tiff) < 8:
        return 1
    ifd = struct.unpack(order + "I", tiff[4:8])[0]
    if ifd + 2 > len(tiff):
        return 1
    count = struct.unpack(order + "H", tiff[ifd : ifd + 2])[0]
    for k in range(count):
        entry = tiff[ifd + 2 + 12 * k : ifd + 14 + 12 * k]
        if len(entry) < 12:
            break
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag == 0x0112 and kind in (3, 4):  # (a SHORT, or a LONG, which OpenCV reads too)
            short = kind == 3
            value = struct.unpack(order + ("H" if short else "I"), entry[8 : 10 if short else 12])
            return value[0] if 1 <= value[0] <= 8 else 1
    return 1


def box_upright(box: list[float], orientation: int, stored_wh: tuple[int, int]) -> list[float]:
    """A box [x, y, w, h] in a photo's stored pixels (`stored_wh`), in the pixels of the
    photo turned upright by its EXIF `orientation` (as OpenCV turns it)."""
    x, y, w, h = box
    sw, sh = stored_wh
    turned = {
        2: (sw - x - w, y, w, h),
        3: (sw - x - w, sh - y - h, w, h),
        4: (x, sh - y - h, w, h),
        5: (y, x, h, w),
        6: (sh - y - h, x, h, w),
        7: (sh - y - h, sw - x - w, h, w),
        8: (y, sw - x - w, h, w),
    }.get(orientation, (x, y, w, h))
    return list(turned)


MAX_SCANS = 50
"""The most scans a JPEG may have to be decoded. A camera's progressive JPEG has about 10
(libjpeg's own progression: 10 in colour, 6 in grey), a baseline one 1; each scan makes
libjpeg go over the whole image again, so a 2000x2000 JPEG of 52 KB with its last scan
repeated 2,000 times took 10.7 s to decode, and one of 20,000 scans (304 KB) 87 s,
holding one of the server's two photo-reading turns."""


def jpeg_scans(data: bytes) -> int:
    """How many scans a JPEG's image has (`_jpeg_markers`: not an EXIF thumbnail's, in a
    segment, nor a motion photo's video after the image's end, whose bytes would count
    about one 0xFF 0xDA every 65 KB)."""
    return sum(marker == 0xDA for marker, _ in _jpeg_markers(data))


def reduction_for(
    size_wh: tuple[int, int] | None, *, min_long_side: int = 1000, min_short_side: int = 64
) -> int:
    """The largest JPEG reduction (1, 2, 4 or 8) that keeps the long side >= min_long_side
    and the short side >= min_short_side (a long thin strip is not shrunk to nothing)."""
    if size_wh is None:
        return 1
    long_side, short_side = max(size_wh), min(size_wh)
    factor = 1
    while (
        factor < 8
        and long_side // (factor * 2) >= min_long_side
        and short_side // (factor * 2) >= min_short_side
    ):
        factor *= 2
    return factor


# The brands of an ISO media file (its "ftyp" box: a major brand, then compatible ones)
# that mark a HEIC still, an iPhone's own photo format, which OpenCV's decoders do not read.
# AVIF, its cousin, they do read: a file that names an AVIF brand too is left to them (both
# may carry the generic HEIF brands "mif1" and "msf1", which say nothing either way).
HEIC_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis"})
AVIF_BRANDS = frozenset({b"avif", b"avis"})


def _ftyp_brands(data: bytes) -> set[bytes]:
    """The brands an ISO media file's leading "ftyp" box names (none: not such a file)."""
    if data[4:8] != b"ftyp" or len(data) < 12:
        return set()
    size = min(struct.unpack(">I", data[:4])[0], len(data), 4096)
    brands = {data[8:12]}
    brands.update(data[k : k + 4] for k in range(16, size - 3, 4))
    return brands


HEIC_REFUSED = (
    "a HEIC photo (an iPhone's own format), which cannot be read here: send it as a JPEG "
    "(on the iPhone, Settings > Camera > Formats > Most Compatible takes JPEGs)"
)


def format_problem(data: bytes) -> str | None:
    """Why these bytes, of a kind a camera makes, cannot be decoded, said before trying: a
    HEIC photo, or a PNG cut off before its end (libpng said so on standard error, past the
    one-line message, which was all a user should see)."""
    brands = _ftyp_brands(data)
    if brands & HEIC_BRANDS and not brands & AVIF_BRANDS:
        return HEIC_REFUSED
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return _png_problem(data)
    if data[:3] in (b"PF\n", b"Pf\n"):  # (decoded, its 0-1 values taken as 0-255: all
        # black, no dice and no word of why; a float TIFF OpenCV refuses itself)
        return "a PFM image holds floating-point light, not a photo: send a JPEG or PNG"
    return None


# optional chunks a PNG may hold (a photo's: a few, of text and colour)
PNG_MOST_CHUNKS = 1_000

# libpng's own bound on a side (`png_set_user_limits`' default), under OpenCV's 1,048,576
PNG_MOST_SIDE = 1_000_000


def _png_problem(data: bytes) -> str | None:
    """What libpng would find wrong in a PNG, found first: each chunk's checksum (libpng
    printed "libpng error: IDAT: CRC error" on standard error, before the one-line message
    a user should see alone), its end, and a flood of optional chunks."""
    view = memoryview(data)  # (each chunk checked where it lies, not copied)
    at, others = 8, 0
    while at + 12 <= len(data):
        (length,) = struct.unpack_from(">I", data, at)
        end = at + 12 + length
        if end > len(data):
            break
        kind = bytes(view[at + 4 : at + 8])
        (crc,) = struct.unpack_from(">I", data, end - 4)
        # (a critical chunk's, its name's first letter upper case: an optional one's, a
        # text or a colour profile, libpng passes over, and so the image decodes)
        if not kind[0] & 0x20 and zlib.crc32(view[at + 4 : end - 4]) != crc:
            name = kind.decode("latin-1") if kind.isalpha() else "a"
            return f"the PNG is damaged: its {name} chunk's checksum does not match"
        if kind == b"IEND":
            return None
        others += bool(kind[0] & 0x20)
        if others > PNG_MOST_CHUNKS:
            return (
                f"the PNG holds more than {PNG_MOST_CHUNKS:,} optional chunks (text and "
                "the like), more than a camera or an editor writes"
            )
        at = end
    return "the PNG is cut off before its end (damaged, or not sent whole)"


# The chunks that make a PNG's pixels and their turn: libpng also inflates every text chunk
# (zTXt, iTXt) and colour profile, and warns on standard error of each bad one, so a file
# of 1.5 MB, 200 text chunks, held a reader 7 s. OpenCV uses none of the others.
PNG_PIXEL_CHUNKS = frozenset({b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND", b"eXIf"})


def png_pixels_only(data: bytes) -> bytes:
    """A PNG (checked whole by `format_problem`) with only the chunks its pixels and their
    turn need, `PNG_PIXEL_CHUNKS`; the bytes as they are when that is all they hold."""
    kept = [data[:8]]
    at, dropped = 8, False
    while at + 12 <= len(data):
        (length,) = struct.unpack_from(">I", data, at)
        end = at + 12 + length
        if data[at + 4 : at + 8] in PNG_PIXEL_CHUNKS:
            kept.append(data[at:end])
        else:
            dropped = True
        if data[at + 4 : at + 8] == b"IEND":
            break
        at = end
    return b"".join(kept) if dropped else data


class ImageTooLarge(ValueError):
    """An image over the caller's pixel limit: the upload's size is the fault (a 413 on the
    web), not its bytes."""


def decode_image(data: bytes, *, max_pixels: int = MAX_PIXELS, reduce: int = 1) -> np.ndarray:
    """Decode image bytes to a BGR uint8 array, honouring EXIF orientation.

    `reduce` (1, 2, 4, 8) asks the JPEG decoder for a smaller image. Raises ValueError with a
    one-line message for bytes that are not an image, `ImageTooLarge` for one over
    `max_pixels`.
    """
    if not data:
        raise ValueError("empty data is not an image")
    size = image_size_wh(data)
    if size is not None and size[0] * size[1] > max_pixels:
        raise ImageTooLarge(too_many_pixels(size[0], size[1], max_pixels))
    if size is not None and data[:4] == b"\x89PNG" and max(size) > PNG_MOST_SIDE:
        # (libpng said so first, in two lines of its own on standard error)
        raise ImageTooLarge(f"image is {size[0]}x{size[1]}, over {PNG_MOST_SIDE:,} pixels a side")
    problem = format_problem(data)
    if problem:
        raise ValueError(problem)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        data = png_pixels_only(data)
    scans = jpeg_scans(data) if data[:2] == b"\xff\xd8" else 0
    if scans > MAX_SCANS:
        raise ValueError(
            f"the JPEG has {scans} scans, more than a camera writes (at most about 10; "
            f"{MAX_SCANS} are read)"
        )
    buf = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(buf, _REDUCED.get(reduce, cv2.IMREAD_COLOR))
    except cv2.error as exc:  # a decoder's own assertion, e.g. a reduced size of zero pixels
        if "CV_IO_MAX_IMAGE_PIXELS" in str(exc):  # (OpenCV's own limit, `DECODED_PIXELS`)
            raise ImageTooLarge(
                f"image is more than {DECODED_PIXELS:,} pixels: send a smaller one"
            ) from None
        if "CV_IO_MAX_IMAGE_" in str(exc):  # (its width's and height's: 1,048,576)
            raise ImageTooLarge("image is over 1048576 pixels on a side") from None
        image = None
    if image is None or image.size == 0:
        if data[:2] == b"\xff\xd8" and not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
            # (the commonest broken photo: a copy or an upload not finished)
            raise ValueError("the JPEG is cut off before its end: copy or send it again")
        raise ValueError("data is not a readable image")
    if image.shape[0] * image.shape[1] > max_pixels:
        raise ImageTooLarge(too_many_pixels(image.shape[1], image.shape[0], max_pixels))
    return image


def too_many_pixels(width: int, height: int, max_pixels: int) -> str:
    """Why a photo too big is refused, in words a player can act on."""
    return (
        f"image is {width}x{height} pixels, more than the {max_pixels:,} a photo may have: "
        "send a smaller one"
    )


# What libjpeg says of data it reads past: a JPEG damaged part of the way decodes grey or
# garbled there, and the decoder only warns (with C's fprintf, on standard error)
JPEG_DAMAGE = ("Corrupt JPEG data", "Premature end of JPEG file")
# ... but for bytes outside the picture's data, between the file's parts (before a table,
# 0xdb, or after the last scan, before the end mark, 0xd9): padding some cameras and
# editors write, the picture decoded whole, if they are one byte over and over
# (`_padding`). Lost or overwritten bytes in the data end a scan early ("premature end
# of data segment"), or leave the rest of its data skipped before the next marker, or
# come before a restart marker (0xd0-0xd7)
JPEG_PADDING = re.compile(
    r"Corrupt JPEG data: (\d+) extraneous bytes before marker 0x((?!d[0-7])[0-9a-f]{2})"
)
# Descriptor 2 is the process's: one thread swaps it at a time (`native_stderr_kept`)
_STDERR_SWAP = threading.RLock()


def decode_heard(data: bytes, **options: Any) -> tuple[np.ndarray, str | None]:
    """`decode_image`, and what the JPEG decoder said of damaged data it read past (its
    first such line), or None; padding between the file's parts is no damage.
    Whatever else was written on standard error meanwhile is written out again. For a
    command line: the swap is the process's, so a server's other threads' log lines would
    be held back, and its decodes taken one at a time (the web does not hear the decoder)."""
    with native_stderr_kept() as said:  # (a decode that fails: its one-line error says it)
        image = decode_image(data, **options)
    said = [line for line in said if not _padding(line, data)]
    damage = [line for line in said if line.startswith(JPEG_DAMAGE)]
    for line in said:
        if line not in damage:  # (as it was said)
            with contextlib.suppress(OSError, ValueError):
                print(line, file=sys.stderr, flush=True)
    return image, (damage[0] if damage else None)


def _padding(line: str, data: bytes) -> bool:
    """Whether the decoder's line is of bytes skipped between a JPEG's parts that are one
    byte over and over before their marker, or any before the first scan (its header's
    parts: no picture data there): a camera's or an editor's padding. A damaged
    scan whose data the decoder left early is skipped as "extraneous bytes" too, but
    those are the rest of its data (195 such bytes before the end mark had been taken
    for padding, and the photo, garbled from there, read with no warning)."""
    found = JPEG_PADDING.fullmatch(line)
    if found is None:
        return False
    count, marker = int(found[1]), bytes((0xFF, int(found[2], 16)))
    first_scan = data.find(b"\xff\xda")
    at = data.find(marker)
    while at != -1:
        if at >= count and (at < first_scan or len(set(data[at - count : at])) == 1):
            return True  # (before the first scan, between the header's parts: no data)
        at = data.find(marker, at + 1)
    return False


@contextlib.contextmanager
def native_stderr_kept() -> Iterator[list[str]]:
    """What C code writes on standard error meanwhile, kept in the list given (filled at
    the end) instead of shown: libjpeg's "Corrupt JPEG data: ..." and OpenCV's AVI
    reader's complaints are printed with C's fprintf, past OpenCV's log level, beside the
    command's own one line. Best effort (nothing kept where there is no descriptor 2 to
    swap); the descriptor is the process's, so one thread swaps it at a time, and what
    other threads write meanwhile is kept too."""
    with _STDERR_SWAP:
        kept: list[str] = []
        try:
            sink = tempfile.TemporaryFile()
        except OSError:  # (no temporary folder to write in: said as it comes)
            yield kept
            return
        with sink:
            try:
                if sys.stderr is not None:
                    sys.stderr.flush()
                saved = os.dup(2)
            except (OSError, ValueError):  # (no standard error at all: nothing to keep)
                yield kept
                return
            try:
                os.dup2(sink.fileno(), 2)
                yield kept
            finally:
                if sys.stderr is not None:
                    with contextlib.suppress(OSError, ValueError):
                        sys.stderr.flush()
                os.dup2(saved, 2)
                os.close(saved)
                sink.seek(0)
                text = sink.read(64 * 1024).decode("utf-8", "replace")  # (a decoder's lines)
                kept.extend(line for line in text.splitlines() if line.strip())


def opencv_message(exc: cv2.error) -> str:
    """An OpenCV error's own description (its ``err``), else its whole text. OpenCV sets
    ``err`` on the error class, not on the error raised: an error raised without one (an
    argument of the wrong type, another thread's) read the last error's description."""
    err = getattr(exc, "err", None)
    return err if isinstance(err, str) and err and err in str(exc) else str(exc)


def path_problem(path: str | os.PathLike, exc: OSError, *, what: str = "file") -> str:
    """Why `path` could not be looked at or read, in one line, from the OSError raised.

    Path.exists() calls a symlink loop missing, and a folder without permission makes it
    raise a bare "[Errno 13] Permission denied: ...": each is said as what it is.
    """
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return f"{path}: no such {what}"
    if exc.errno == errno.ELOOP:
        return f"{path}: a symlink loop (the link leads back to itself)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"cannot read {path}: permission denied"
    return f"cannot read {path}: {exc.strerror or exc}"


def stat_path(path: str | os.PathLike, *, what: str = "file") -> os.stat_result:
    """os.stat(path), with a one-line OSError (`path_problem`) of the same class when it
    fails, so a caller may still tell a missing file (FileNotFoundError) from the rest."""
    try:
        return os.stat(path)
    except OSError as exc:
        raise type(exc)(path_problem(path, exc, what=what)) from None
    except ValueError:  # (a NUL in the name: no file has it)
        raise FileNotFoundError(f"{path}: no such {what}") from None


MAX_FILE_BYTES = 256 * 1024 * 1024
"""The most of a file read whole: a 50-megapixel photo is 10-150 MB even uncompressed,
and an 8 GB file was read into memory before anything looked at it."""


def read_bytes(
    path: str | os.PathLike, *, limit: int = MAX_FILE_BYTES, what: str = "photo"
) -> bytes:
    """The bytes of a plain file of at most `limit` bytes, with a one-line OSError for a
    missing, unreadable or bigger file, and for anything but a plain file (a device such
    as /dev/zero, or a named pipe, would be read until memory ran out, or wait forever)."""
    if os.fspath(path) == "":  # (Path("") is the current folder)
        raise OSError(f"the {what} path is empty")
    p = Path(path)
    if not stat.S_ISREG(stat_path(p).st_mode):
        raise OSError(f"{p}: not a file")
    try:
        with p.open("rb") as file:
            data = file.read(limit + 1)  # (what it holds now: it may have grown)
    except OSError as exc:
        raise OSError(path_problem(p, exc)) from None
    if len(data) > limit:
        raise OSError(f"{p}: over {limit // (1024 * 1024):,} MB, too big for a {what}")
    return data


def load_image(
    path: str | os.PathLike, *, max_pixels: int = MAX_PIXELS, min_long_side: int | None = None
) -> np.ndarray:
    """Read an image file to BGR, honouring EXIF orientation.

    With `min_long_side`, a large JPEG is decoded at 1/2, 1/4 or 1/8 size as long as its long
    side stays at least that many pixels. Raises OSError (missing file) or ValueError (not an
    image), each with a one-line message naming the file.
    """
    data = read_bytes(path)
    reduce = 1
    if min_long_side is not None:
        reduce = reduction_for(image_size_wh(data), min_long_side=min_long_side)
    try:
        return decode_image(data, max_pixels=max_pixels, reduce=reduce)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


MOST_PIXELS_A_SIDE = {".webp": 16383, ".jpg": 65500, ".jpeg": 65500, ".jpe": 65500}
"""The formats' own limits, which OpenCV's encoders meet with a bare failure."""


def write_image(path: str | os.PathLike, image: np.ndarray) -> None:
    """Write `image` to `path` in the format its name's extension gives, whole or not at
    all: it is encoded in memory, written beside the file (through a symlink, beside the
    file it names) and renamed over it, so a full disk leaves the file that was there
    (OpenCV's own writer had deleted it, or left half a TIFF) and no partial file. Like
    `mv`, the new file takes the old one's place: a hard link to the old one keeps the
    old image. A file this user may not write is not replaced. A one-line OSError when
    it cannot."""
    name = Path(path).name
    ext = name[name.rfind(".") :] if "." in name else ""
    try:  # (by the last dot, as OpenCV goes: Path.suffix of ".png" is "")
        ok, encoded = cv2.imencode(ext, image)
    except cv2.error:
        ok = False
    if not ok:
        h, w = image.shape[:2]
        most = MOST_PIXELS_A_SIDE.get(ext.lower())
        if most is not None and max(w, h) > most:
            raise OSError(f"{path}: a {ext} image is at most {most} pixels a side, not {w}x{h}")
        raise OSError(f"{path}: cannot write the image as {ext or 'a file with no extension'}")
    target = Path(os.path.realpath(path))
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:  # (a new file: as the umask allows)
        mode = None
    if mode is not None and not os.access(target, os.W_OK):
        raise OSError(f"{path}: cannot write the image: permission denied")
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{_cut(target.name, 64)}.", suffix=".part"
        )
        with os.fdopen(fd, "wb") as file:
            file.write(encoded.tobytes())
            file.flush()
            os.fsync(file.fileno())  # (on disk before it takes the old file's name)
        with contextlib.suppress(OSError):  # (a FAT stick's fixed modes refuse a change)
            os.chmod(temporary, 0o666 & ~_umask() if mode is None else mode)
        os.replace(temporary, target)
    except BaseException as exc:  # (Ctrl-C too: no partial file is left)
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        if isinstance(exc, OSError):
            raise OSError(f"{path}: cannot write the image: {exc.strerror or exc}") from None
        raise


def _cut(name: str, most: int) -> str:
    """The start of a file name, at most `most` bytes on the file system: a temporary
    name beside a name near the 255 bytes one may have was longer, so the image was read
    and then not written."""
    while len(os.fsencode(name)) > most:
        name = name[:-1]
    return name


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
