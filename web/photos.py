"""Photos to dice through ``vision``, and dice to points through ``companion``.

The web layer only moves bytes and JSON here: reading pips is ``vision``'s job and every
point comes from ``companion.scoring.roll_report``.
"""

from __future__ import annotations

import base64
from typing import Any

from companion import rules as crules
from companion import scoring

from . import store

PREVIEW_MAX_SIDE = 960


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


def _vision() -> Any:
    try:
        import vision
    except ImportError as exc:
        raise PhotoError(f"photo reading is not available on this server ({exc})", 503) from exc
    missing = [
        n for n in ("read_photo_data", "annotate", "image_size_wh") if not hasattr(vision, n)
    ]
    if missing:
        raise PhotoError(
            f"photo reading is not available on this server (vision lacks {', '.join(missing)})",
            503,
        )
    return vision


# The preview's outlines and labels: a phone shows the 960-px preview about 360 px wide, so
# they are drawn on the preview itself, this thick (labels about 13 px high on the screen)
PREVIEW_LINE = 4


def _preview(vision: Any, reading: Any) -> str:
    """The photo at most `PREVIEW_MAX_SIDE` on its long side, each die drawn on it with its
    value (green, or orange where the player is asked: the tray below gives the rest)."""
    import cv2

    image, dice = reading.image, reading.on_image()
    h, w = image.shape[:2]
    scale = min(1.0, PREVIEW_MAX_SIDE / max(h, w))
    if scale < 1.0:
        size = (max(1, int(w * scale)), max(1, int(h * scale)))  # a 4000x1 strip too
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        dice = dice.scaled(size[0] / w, size)
    line = max(1, round(PREVIEW_LINE * max(image.shape[:2]) / PREVIEW_MAX_SIDE))
    # (orange where the tray asks the player, `vision.ASK_BELOW`: the colour is the
    # preview's only cue)
    marked = vision.annotate(image, dice, thickness=line, confidence=False)
    return _jpeg_data_url(marked)


def _jpeg_data_url(image: Any) -> str:
    import cv2

    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:  # pragma: no cover - encoding a valid array does not fail
        raise PhotoError("could not encode the preview", 500)
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


def read_photo(data: bytes, rules_spec: str | None, *, max_pixels: int) -> dict[str, Any]:
    """Dice found in the photo, the annotated preview, and with rules the roll's scoring.
    A phone's 12 MP JPEG is decoded at a reduced size where its dice allow (as `hotdice
    read` does); the dice are given in the photo's own pixels all the same."""
    if rules_spec:
        try:  # rules that do not exist are the request's fault: refused before the reading
            crules.load_rules(rules_spec)
        except ValueError as exc:
            raise store.Rejected(str(exc)) from exc
    vision = _vision()
    if vision.image_size_wh(data) is None:  # (a WebP or TIFF is only sized by decoding it:
        # 16000x16000 of blank WebP, 455 KB, took 1.6 GB before the pixel limit could say no)
        if data.startswith((b"\xff\xd8", b"\x89PNG")):  # the format's mark, but no size
            raise PhotoError("the photo is cut off or damaged: take or send it again", 400)
        raise PhotoError("send the photo as a JPEG or PNG (a phone camera's own format)", 400)
    try:
        reading = vision.read_photo_data(data, max_pixels=max_pixels)
    except ValueError as exc:
        message = str(exc)
        too_big = "pixel" in message.lower() or "too large" in message.lower()
        raise PhotoError(message, 413 if too_big else 400) from exc
    except OSError as exc:  # e.g. the model file is missing on this install
        raise PhotoError(f"photo reading is not available on this server ({exc})", 503) from exc
    detections = reading.detections
    dice = [d.value for d in detections.dice]
    unsure = {id(d) for d in detections.uncertain()}
    w, h = detections.size_wh
    out: dict[str, Any] = {
        "dice": dice,
        "detections": [
            {
                "value": d.value,
                "confidence": round(float(d.confidence), 3),
                "box_xywh": [int(v) for v in d.box_xywh],
                "center_xy": [float(v) for v in d.center_xy],
                "unsure": id(d) in unsure,
            }
            for d in detections.dice
        ],
        "size_wh": [int(w), int(h)],
        "annotated": _preview(vision, reading),
    }
    if rules_spec:
        out["rules"] = rules_spec
        try:  # a roll these rules cannot score (seven dice for six) is a reading, not an error
            out["score"] = score_report(rules_spec, dice) if dice else None
        except store.Rejected as exc:
            out["score"] = None
            out["score_error"] = str(exc)
    return out
