"""Photos to dice through ``vision``, and dice to points through ``companion``.

The web layer only moves bytes and JSON here: reading pips and drawing the preview are
``vision``'s job and every point comes from ``companion.scoring.roll_report``.
"""

from __future__ import annotations

import base64
import contextlib
import sys
import threading
from typing import Any

from companion import rules as crules
from companion import scoring

from . import store

PREVIEW_MAX_SIDE = 960
DAMAGED = "the photo is cut off or damaged: take or send it again"
UNDECODED = (
    "the photo cannot be decoded (cut off or damaged, or a JPEG or PNG of a kind a camera "
    "does not make): take or send it again"
)


class PhotoError(ValueError):
    """An upload we cannot use; ``status`` is 400 (not an image) or 413 (too big)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def score_report(rules_spec: str, dice: list[int], target: int | None = None) -> dict[str, Any]:
    """The engine's report for one roll; its ValueError becomes a 422 with its reason."""
    try:
        rules = crules.load_rules(rules_spec, target=target)
        report = scoring.roll_report(rules, scoring.parse_dice(dice, max_dice=rules.dice))
    except ValueError as exc:
        raise store.Rejected(str(exc)) from exc
    return report


def check_rules(rules_spec: str | None) -> None:
    """Rules that do not exist are the request's fault: refused (422) before any reading,
    and before it waits for its turn to read (`api.heavy_work`)."""
    if rules_spec:
        try:
            crules.load_rules(rules_spec)
        except ValueError as exc:
            raise store.Rejected(str(exc)) from exc


def _vision() -> Any:
    """The vision package, imported when first needed: by `hotdice serve`'s warm-up as it
    starts (`warm_up_in_background`), or, in an app made otherwise (the tests'), on the
    first photo, so an app that reads none never loads OpenCV."""
    try:
        import vision
    except ImportError as exc:
        raise PhotoError(f"photo reading is not available on this server ({exc})", 503) from exc
    return vision


def warm_up_in_background() -> threading.Thread:
    """Load the networks in a thread as the server starts (`hotdice serve`), so the table's
    first photo reads as fast as the rest: cold, importing OpenCV, loading the networks and
    probing the int8 readers (`vision.model.int8_saturates`) took 0.6 s more than a warm
    read of a sample photo. A photo sent meanwhile waits for the loads under way, not for a
    second run of them. A server that cannot read photos says why on each photo (503),
    and once here, on standard error, to whoever started it."""

    def run() -> None:
        try:
            _vision().warm_up()
        except (PhotoError, OSError, RuntimeError) as exc:
            with contextlib.suppress(OSError, ValueError):  # (nowhere to say it)
                print(f"hotdice: warning: photos cannot be read: {exc}", file=sys.stderr)

    thread = threading.Thread(target=run, name="hotdice-vision-warm-up", daemon=True)
    thread.start()
    return thread


def read_photo(data: bytes, rules_spec: str | None, *, max_pixels: int) -> dict[str, Any]:
    """Dice found in the photo, the annotated preview, and with rules the roll's scoring.
    A phone's 12 MP JPEG is decoded at a reduced size where its dice allow (as `hotdice
    read` does); the dice are given in the photo's own pixels all the same. The rules are
    the caller's to check first (`check_rules`: before waiting its turn to read)."""
    vision = _vision()
    if vision.image_size_wh(data) is None:  # (a WebP or TIFF is only sized by decoding it:
        # 16000x16000 of blank WebP, 455 KB, took 1.6 GB before the pixel limit could say no)
        if data.startswith((b"\xff\xd8", b"\x89PNG")):  # the format's mark, but no size
            raise PhotoError(DAMAGED, 400)
        # (an iPhone's HEIC photo is said to be one: "a JPEG or PNG" alone read oddly to it)
        raise PhotoError(
            vision.format_problem(data)
            or "send the photo as a JPEG or PNG (a phone camera's own format)",
            400,
        )
    try:
        reading = vision.read_photo_data(data, max_pixels=max_pixels)
    except vision.ImageTooLarge as exc:
        raise PhotoError(str(exc), 413) from exc
    except ValueError as exc:  # (a JPEG or PNG its header sizes, that does not decode)
        raise PhotoError(UNDECODED, 400) from exc
    except OSError as exc:  # e.g. the model file is missing on this install
        raise PhotoError(f"photo reading is not available on this server ({exc})", 503) from exc
    detections = reading.detections
    dice = [d.value for d in detections.dice]
    unsure = {id(d) for d in detections.uncertain()}
    # (which dice are smeared, a moving phone or out of focus: the page then says the
    # photo looks blurred, and to take it again, not only to check the orange dice), and
    # which are too small to read surely (the page then says to take it closer)
    read_as = reading.on_image().dice  # (in the pixels read: a photo decoded small too)
    smeared = [vision.smeared(reading.image, d.box_xywh) for d in read_as]
    small = [vision.too_small(d.box_xywh) for d in read_as]
    w, h = detections.size_wh
    out: dict[str, Any] = {
        "dice": dice,
        "detections": [
            {
                **d.to_json(),  # (value, confidence and box, as `hotdice read --json`)
                "center_xy": [float(v) for v in d.center_xy],
                "unsure": id(d) in unsure,
                "smeared": blurred,
                "small": tiny,
            }
            for d, blurred, tiny in zip(detections.dice, smeared, small, strict=True)
        ],
        "size_wh": [int(w), int(h)],
        "annotated": "data:image/jpeg;base64,"
        + base64.b64encode(reading.preview_jpeg(PREVIEW_MAX_SIDE)).decode("ascii"),
    }
    if rules_spec:
        out["rules"] = rules_spec
        try:  # a roll these rules cannot score (seven dice for six) is a reading, not an error
            out["score"] = score_report(rules_spec, dice) if dice else None
        except store.Rejected as exc:
            out["score"] = None
            out["score_error"] = str(exc)
    return out
