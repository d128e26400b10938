"""A photo's file bytes to the dice in it, in the photo's own pixels.

`hotdice read` (a file) and the web page (an upload) both get a phone's photo, often
12 megapixels, whose dice are far bigger than the reader needs. The JPEG decoder scales
by 1/2, 1/4 or 1/8 almost for free, so the photo is decoded at the smallest of those that
keeps its dice readable, read, and its dice reported where they lie in the full photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .annotate import annotate
from .detections import Detections
from .io import decode_heard, decode_image, image_size_wh, reduction_for
from .limits import MAX_PIXELS
from .reader import FRAME_SIDE, PHOTO_LOOK, read
from .smear import held

# A JPEG is decoded at 1/2, 1/4 or 1/8 size while its long side stays at least this long:
# twice a photo's first look, so that its look at twice the scale, for dice too small,
# has the pixels to look at (decoding a 12 MP JPEG at 1000 px saved 10 ms but read 6-13
# points fewer of its dice of 1% of the long side). If the dice then come out smaller
# than MIN_DIE_PX (or as one die read less surely: `_may_miss_small_dice`), it is
# decoded again at twice the size. A photo over FRAME_SIDE pixels is read as a photo
# (`read`'s `photo`) at any reduction.
MIN_LONG_SIDE = 2 * PHOTO_LOOK
MIN_DIE_PX = 24.0
LONE_SURE = 0.7  # (the reader's own level for a die it need not read again)


@dataclass(frozen=True, eq=False)
class PhotoReading:
    """The dice of a photo, in its full-size pixels, and the image as decoded (smaller
    than the photo where its dice allowed: draw on it with `on_image()`). `damage`: what
    the JPEG decoder said of damaged data it read past (the photo then grey or garbled
    there, its dice to be checked), or None (or not heard: `read_photo_data`)."""

    detections: Detections
    image: np.ndarray
    damage: str | None = None

    def on_image(self) -> Detections:
        """The dice in the decoded image's pixels, to draw on `image`."""
        h, w = self.image.shape[:2]
        return self.detections.scaled(w / max(1, self.detections.size_wh[0]), (w, h))

    def preview_jpeg(self, max_side: int = 960, line: int = 4, quality: int = 80) -> bytes:
        """The photo at most `max_side` on its long side as a JPEG, each die drawn on it
        with its value alone (green, or orange where the player is asked): a phone shows a
        960-px preview about 360 px wide, so the outlines are drawn on the preview itself,
        `line` thick at 960 px (labels about 13 px high on the screen)."""
        image, dice = self.image, self.on_image()
        h, w = image.shape[:2]
        scale = min(1.0, max_side / max(h, w))
        if scale < 1.0:
            size = (max(1, int(w * scale)), max(1, int(h * scale)))  # a 4000x1 strip too
            image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
            dice = dice.scaled(size[0] / w, size)
        thickness = max(1, round(line * max(image.shape[:2]) / max_side))
        marked = annotate(image, dice, thickness=thickness, confidence=False)
        ok, buf = cv2.imencode(".jpg", marked, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:  # pragma: no cover - encoding a valid array does not fail
            raise ValueError("could not encode the preview")
        return buf.tobytes()


def _may_miss_small_dice(dets: Detections) -> bool:
    """Whether a reading of a photo decoded small may have missed dice too small for that
    decode: its dice come out under `MIN_DIE_PX`, or it is a single die read less surely
    than `LONE_SURE` (a group of dice of 1% of the photo's side can pass for one die: the
    groups seen read at 0.36-0.68). A lone die read surely is taken as read, and so are
    the unsure dice of a roll of several (a crowded photo read again at full size gained
    extras and lost rolls)."""
    sides = [d.box_xywh[2] for d in dets]
    if not sides:
        return False  # a bare table: no die to be too small
    lone_doubt = len(dets) == 1 and dets.dice[0].confidence < LONE_SURE
    return float(np.median(sides)) < MIN_DIE_PX or lone_doubt


def read_photo_data(
    data: bytes, *, max_pixels: int = MAX_PIXELS, hear_decoder: bool = False
) -> PhotoReading:
    """Decode a photo's bytes and read its dice: a JPEG is decoded at a reduced size (its
    long side not under `MIN_LONG_SIDE`) and again at twice that size while the reading
    may have missed dice too small for it (`_may_miss_small_dice`), unless the larger
    decode finds fewer dice. A JPEG damaged part of the way is read as far as it decodes;
    with `hear_decoder` (`io.decode_heard`: a command line's), `PhotoReading.damage` says
    so. Raises ValueError with a one-line message for bytes that are
    not an image or are over `max_pixels`, and OSError for a missing or damaged network
    file."""
    header = image_size_wh(data)
    reduce = reduction_for(header, min_long_side=MIN_LONG_SIDE)
    photo = max(header) > FRAME_SIDE if header else None  # (None: judged on the decoded size)

    def decode(reduce: int) -> tuple[np.ndarray, str | None]:
        if hear_decoder:
            return decode_heard(data, max_pixels=max_pixels, reduce=reduce)
        return decode_image(data, max_pixels=max_pixels, reduce=reduce), None

    image, damage = decode(reduce)
    # (smeared dice held under the asking level once, at the end: a lone die held so
    # would pass for a die in doubt, and the photo be decoded again, larger, for nothing)
    dets = read(image, photo=photo, doubt_smears=False)
    while reduce > 1 and _may_miss_small_dice(dets):
        larger, heard = decode(reduce // 2)
        again = read(larger, photo=photo, doubt_smears=False)
        if len(again) < len(dets):
            break
        image, dets, reduce, damage = larger, again, reduce // 2, heard
    dets = held(image, dets)
    h, w = image.shape[:2]
    full = (w * reduce, h * reduce)
    if header is not None and reduce > 1:
        # the header's own size, turned as the EXIF orientation turned the decoded image
        hw, hh = header
        full = (hw, hh) if (hw >= hh) == (w >= h) else (hh, hw)
    return PhotoReading(dets.scaled(full[0] / w, full), image, damage)
