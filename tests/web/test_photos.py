"""Photo uploads: limits and bad input answered in JSON; real photos read when vision is here."""

from __future__ import annotations

import gc
import io
import struct
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import HARD_PHOTO, hard_photo, heavy_work_full
from web import photos

ROOT = Path(__file__).resolve().parents[2]


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims a size; only the header is valid (no need to decode)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + b"\x00" * 64
    )


def must_not_run(why: str) -> Callable[..., None]:
    """A stand-in for a step the request must be refused before."""

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError(why)

    return never


def sample_photo() -> Path:
    return sorted(
        p
        for p in (ROOT / "sample_images").rglob("*")
        if p.suffix.lower() in (".jpg", ".jpeg", ".png")
    )[0]


def test_upload_over_20_mb_is_413_json(client: FlaskClient) -> None:
    big = b"\xff\xd8" + b"\x00" * (20 * 1024 * 1024 + 10)
    resp = client.post("/api/read", data=big, content_type="image/jpeg")
    assert resp.status_code == 413 and "20 MB" in resp.get_json()["error"]
    body = (
        b'--XyZ\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\n'
        b"Content-Type: image/jpeg\r\n\r\n" + big + b"\r\n--XyZ--\r\n"
    )
    resp = client.post("/api/read", data=body, content_type="multipart/form-data; boundary=XyZ")
    assert resp.status_code == 413 and "20 MB" in resp.get_json()["error"]


def test_a_small_form_over_the_form_limits_is_said_as_such(app: Flask, client: FlaskClient) -> None:
    """A 413 under the 20 MB names the form's own limit, not the upload's size: 1,001
    parts of 100 KB in all, or one field of 600 KB."""
    parts = b"".join(
        b'--XyZ\r\nContent-Disposition: form-data; name="f%d"\r\n\r\nx\r\n' % k for k in range(1001)
    )
    resp = client.post(
        "/api/read", data=parts + b"--XyZ--\r\n", content_type="multipart/form-data; boundary=XyZ"
    )
    error = resp.get_json()["error"]
    assert resp.status_code == 413 and error == (
        "form too large: a field over 500 KB, or more than 1,000 parts; "
        "a photo goes in a file part, with a filename"
    )
    page = client.post("/new", data={"players": "A" * 600_000})
    assert page.status_code == 413 and b"a field over 500 KB" in page.data
    # a plain form is read whole, so it is held to one field's size whatever its fields
    # (Werkzeug 3.1.9 stopped applying the field limit to it: a 20 MB form was parsed)
    many = client.post(
        "/new", data=b"a=1&" * 150_000, content_type="application/x-www-form-urlencoded"
    )
    assert many.status_code == 413 and b"form too large" in many.data
    # a form limit switched off (None, as Flask allows) is left out of the words, not a 500
    app.config["MAX_FORM_PARTS"] = None
    page = client.post("/new", data={"players": "A" * 600_000})
    assert page.status_code == 413 and b'form too large: a field over 500 KB"' in page.data


def test_missing_photo_is_400(client: FlaskClient) -> None:
    resp = client.post("/api/read", json={"photo": "nope"})
    assert resp.status_code == 400 and "photo" in resp.get_json()["error"]
    resp = client.post("/api/read", data=b"", content_type="image/png")
    assert resp.status_code == 400 and "empty" in resp.get_json()["error"]
    # a photo sent as a form of another kind (curl --data-binary): not parsed as a form,
    # which called a 600 KB photo "form too large"
    resp = client.post(
        "/api/read",
        data=b"\xff\xd8" + b"\x00" * 600_000,
        content_type="application/x-www-form-urlencoded",
    )
    assert resp.status_code == 400 and "Content-Type: image/jpeg" in resp.get_json()["error"]


def test_not_an_image_is_400(client: FlaskClient) -> None:
    resp = client.post(
        "/api/read",
        data={"photo": (io.BytesIO(b"hello, not a photo"), "a.jpg")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 400 and resp.get_json()["error"]
    resp = client.post("/api/read", data=b"GIF89a....", content_type="image/gif")
    assert resp.status_code == 400


def test_two_photo_parts_are_refused_not_one_read_without_a_word(client: FlaskClient) -> None:
    """The first of two had been read and the second dropped, where `?rules=` twice is
    refused (a review)."""
    photo = (ROOT / "sample_images" / "IMG_20191208_112014.jpg").read_bytes()
    resp = client.post(
        "/api/read",
        data={"photo": [(io.BytesIO(photo), "a.jpg"), (io.BytesIO(b"notes"), "b.txt")]},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "the multipart field 'photo' is sent 2 times: send one"


def test_a_photo_part_with_no_filename_is_told_to_be_sent_as_a_file(client: FlaskClient) -> None:
    """`curl -F 'photo=<roll.jpg'` sends the bytes as a text field: the old answer told the
    client to send the multipart field 'photo', which it had."""
    body = (
        b'--XyZ\r\nContent-Disposition: form-data; name="photo"\r\n\r\n'
        + (ROOT / "sample_images" / "IMG_20191208_112014.jpg").read_bytes()[:1000]
        + b"\r\n--XyZ--\r\n"
    )
    resp = client.post("/api/read", data=body, content_type="multipart/form-data; boundary=XyZ")
    assert resp.status_code == 400
    assert "came as text, with no filename" in resp.get_json()["error"]
    big = body.replace(b"\r\n--XyZ--", b"\0" * 600_000 + b"\r\n--XyZ--")  # (over a field's limit)
    resp = client.post("/api/read", data=big, content_type="multipart/form-data; boundary=XyZ")
    assert resp.status_code == 413
    assert resp.get_json()["error"].endswith("a photo goes in a file part, with a filename")


def test_a_multipart_upload_that_does_not_parse_is_not_called_a_missing_field(
    client: FlaskClient,
) -> None:
    """A body cut off, a boundary missing or not the body's, a file name not in UTF-8: each
    answer said to send the field 'photo', which the client had sent (a review's find; the
    last, said as a cut-off upload, another's)."""
    photo = (ROOT / "sample_images" / "IMG_20191208_112014.jpg").read_bytes()
    part = b'--XyZ\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n'
    whole, cut = part + photo + b"\r\n--XyZ--\r\n", part + photo[:5000]
    for content_type, body, said in (
        ("multipart/form-data; boundary=XyZ", cut, "could not be read (cut off, its boundary"),
        ("multipart/form-data; boundary=Other", whole, "could not be read (cut off, its"),
        (
            "multipart/form-data; boundary=XyZ",
            whole.replace(b'filename="a.jpg"', b'filename="caf\xe9.jpg"'),  # (curl, Latin-1)
            "or a part's header not UTF-8, as a file name in another encoding",
        ),
        ("multipart/form-data", whole, "has no boundary in its Content-Type"),
        (
            "multipart/form-data; boundary=XyZ",
            whole.replace(b'name="photo"', b'name="image"'),
            "no multipart field 'photo' (the upload has 'image')",
        ),
    ):
        resp = client.post("/api/read", data=body, content_type=content_type)
        assert resp.status_code == 400, content_type
        assert said in resp.get_json()["error"], resp.get_json()


def test_an_upload_cut_off_past_the_spool_size_leaves_no_file_open(client: FlaskClient) -> None:
    """Werkzeug spools a part over 500 KB to a temporary file, and drops the one it was
    writing, open, when the body ends early; the request now closes every file spooled
    (without it, collecting the request warns of an unclosed file, an error here)."""
    part = b'--XyZ\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n'
    cut = part + b"\xff\xd8\xff" + bytes(900_000)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        resp = client.post("/api/read", data=cut, content_type="multipart/form-data; boundary=XyZ")
        assert resp.status_code == 400
        assert "could not be read (cut off" in resp.get_json()["error"]
        gc.collect()


def test_a_heic_photo_is_said_to_be_one(client: FlaskClient) -> None:
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(100)
    resp = client.post("/api/read", data=heic, content_type="image/heic")
    assert resp.status_code == 400 and resp.get_json()["error"].startswith("a HEIC photo")


def test_a_photo_cut_off_after_its_size_is_called_damaged(client: FlaskClient) -> None:
    """Cut off after the header that sizes it (a dropped upload): said to be so, as one cut
    off before is, not "not a readable image"."""
    import cv2
    import numpy as np

    noisy = np.random.default_rng(1).integers(0, 256, (400, 400, 3), np.uint8)
    for ext in (".jpg", ".png"):
        whole = cv2.imencode(ext, noisy)[1].tobytes()
        resp = client.post("/api/read", data=whole[: len(whole) // 2], content_type="image/jpeg")
        assert resp.status_code == 400 and resp.get_json()["error"] == photos.UNDECODED


def test_a_photo_not_sized_by_its_header_is_refused_before_decoding(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cv2
    import numpy as np

    import vision

    monkeypatch.setattr(
        vision, "read_photo_data", must_not_run("decoded a photo its header does not size")
    )
    webp = cv2.imencode(".webp", np.full((64, 64, 3), 200, np.uint8))[1].tobytes()
    resp = client.post("/api/read", data=webp, content_type="image/webp")
    assert resp.status_code == 400 and "JPEG or PNG" in resp.get_json()["error"]
    # a JPEG cut off before its size (a dropped upload) is called that, not another format
    jpeg = cv2.imencode(".jpg", np.full((64, 64, 3), 200, np.uint8))[1].tobytes()
    resp = client.post("/api/read", data=jpeg[:20], content_type="image/jpeg")
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "the photo is cut off or damaged: take or send it again"
    # and a PNG's mark before bytes that are no header, not "too large" (a review: a 413)
    resp = client.post(
        "/api/read", data=b"\x89PNG\r\n\x1a\n" + b"junk" * 5, content_type="image/png"
    )
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "the photo is cut off or damaged: take or send it again"


def test_jpegs_that_would_cost_gigabytes_or_minutes_are_refused_undecoded(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a review: a JPEG whose size header hid behind a skipped segment went
    through as 16x16 (30000x30000 took 5 GB), and one of 20,000 scans took 87 s."""
    import cv2
    import numpy as np

    big = cv2.imencode(".jpg", np.zeros((8000, 8000, 3), np.uint8))[1].tobytes()
    fake = b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 16, 16) + bytes(10)
    hidden = b"\xff\xd8\xff\x00\x00\x06\xff\xe1" + struct.pack(">H", 2 + len(fake)) + fake
    progressive = cv2.imencode(
        ".jpg", np.zeros((64, 64, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    )[1].tobytes()
    last_scan = progressive[progressive.rindex(b"\xff\xda") : -2]
    many = progressive[:-2] + last_scan * 60 + b"\xff\xd9"
    monkeypatch.setattr(cv2, "imdecode", must_not_run("decoded a JPEG"))
    resp = client.post("/api/read", data=hidden + big[2:], content_type="image/jpeg")
    assert resp.status_code == 413 and "8000x8000" in resp.get_json()["error"]
    resp = client.post("/api/read", data=many, content_type="image/jpeg")
    assert resp.status_code == 400 and resp.get_json()["error"] == photos.UNDECODED


def test_a_long_thin_photo_is_read_not_a_500(client: FlaskClient) -> None:
    import cv2
    import numpy as np

    for shape in ((1, 4000, 3), (4000, 1, 3)):
        png = cv2.imencode(".png", np.full(shape, 200, np.uint8))[1].tobytes()
        resp = client.post("/api/read", data=png, content_type="image/png")
        assert resp.status_code == 200 and resp.get_json()["dice"] == []


def test_unknown_rules_are_refused_before_the_photo_is_read(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(photos, "_vision", must_not_run("read a photo for rules that do not exist"))
    for spec in ("nope", "farkle+nosuch-toggle"):
        resp = client.post(f"/api/read?rules={spec}", data=b"img", content_type="image/png")
        assert resp.status_code == 422
        assert spec.split("+")[-1] in resp.get_json()["error"]


def test_a_roll_the_rules_cannot_score_is_still_read(client: FlaskClient) -> None:
    photo = ROOT / "sample_images" / "IMG_20191208_111328.jpg"  # twelve dice
    resp = client.post("/api/read?rules=farkle", data=photo.read_bytes(), content_type="image/jpeg")
    body = resp.get_json()
    assert resp.status_code == 200 and len(body["dice"]) == 12
    assert body["score"] is None and "at most 6 dice" in body["score_error"]


def test_over_50_megapixels_is_refused_before_decoding(client: FlaskClient) -> None:
    resp = client.post("/api/read", data=png_header(10_000, 6_000), content_type="image/png")
    assert resp.status_code == 413
    assert "10000x6000" in resp.get_json()["error"]


def test_read_a_real_photo_and_score_it(client: FlaskClient) -> None:
    photo = sample_photo()
    data = photo.read_bytes()
    resp = client.post(
        "/api/read?rules=farkle",
        data={"photo": (io.BytesIO(data), photo.name)},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["annotated"].startswith("data:image/jpeg;base64,")
    assert len(body["dice"]) == len(body["detections"])
    assert all(1 <= d["value"] <= 6 and isinstance(d["unsure"], bool) for d in body["detections"])
    if body["dice"]:
        assert body["score"] is not None or body.get("score_error")
    raw = client.post("/api/read", data=data, content_type="image/jpeg")
    assert raw.status_code == 200 and raw.get_json()["dice"] == body["dice"]


def test_a_phones_12mp_photo_is_read_in_its_own_pixels(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 4032x3024 upload is decoded at half size (as `hotdice read` does), yet its size
    and the dice's boxes are the photo's own, and the preview stays small."""
    import base64

    import cv2
    import numpy as np

    import vision.photo

    decoded = []
    decode = vision.photo.decode_image

    def recording(data: bytes, **kwargs: int) -> np.ndarray:
        image = decode(data, **kwargs)
        decoded.append(image.shape[:2])
        return image

    monkeypatch.setattr(vision.photo, "decode_image", recording)

    sample = cv2.imread(str(ROOT / "sample_images" / "IMG_20191208_112143.jpg"))
    assert sample is not None
    big = cv2.resize(sample, (3024, 3024), interpolation=cv2.INTER_LINEAR)
    photo = cv2.copyMakeBorder(big, 0, 0, 504, 504, cv2.BORDER_REPLICATE)  # 4032x3024
    data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    resp = client.post("/api/read", data=data, content_type="image/jpeg")
    body = resp.get_json()
    assert resp.status_code == 200, body
    assert body["size_wh"] == [4032, 3024]
    assert sorted(body["dice"]) == [1, 3, 5, 6, 6, 6]
    for d in body["detections"]:
        x, y, w, h = d["box_xywh"]
        assert 504 <= x and x + w <= 3528 and 150 <= w <= 500  # dice of about 300 px, in place
    preview = base64.b64decode(body["annotated"].split(",", 1)[1])
    shown = cv2.imdecode(np.frombuffer(preview, np.uint8), cv2.IMREAD_COLOR)
    assert shown is not None and max(shown.shape[:2]) <= 960
    # drawn on the preview itself, lines thick enough to see on a phone (4 px of 960)
    k = shown.shape[1] / 4032
    for d in body["detections"]:
        x, y, w, h = (round(v * k) for v in d["box_xywh"])
        band = shown[y + h // 2, max(0, x - 3) : x + 7].astype(int)
        green = np.all(np.abs(band - (60, 200, 60)) < 70, axis=1)
        assert green.sum() >= 5, (d, band.tolist())  # (drawn at full size, then shrunk: 3)
    assert decoded == [(1512, 2016)]  # once, at half size: six dice read surely


def test_heavy_requests_past_the_cap_are_told_to_try_again(app: Flask, client: FlaskClient) -> None:
    """While ``HEAVY_AT_ONCE`` photo reads or coach solves run, one more is a 503 at once
    (it does not hold a server thread waiting); plain scoring is never held back."""
    photo = (ROOT / "sample_images" / "IMG_20191208_112014.jpg").read_bytes()
    with heavy_work_full(app) as taken:  # (every slot busy, as if others were reading)
        assert taken == app.config["HEAVY_AT_ONCE"] == 2
        resp = client.post("/api/read", data=photo, content_type="image/jpeg")
        assert resp.status_code == 503
        assert resp.get_json()["error"] == (
            "the server is busy reading photos for others; try again in a moment"
        )
        roll = {"rules": "farkle", "dice": [1, 5, 2, 3, 4, 6]}
        # (rules that do not exist are still the request's fault, busy or not)
        bad = client.post("/api/read?rules=nope", data=photo, content_type="image/jpeg")
        assert bad.status_code == 422
        coached = client.post("/api/score", json={**roll, "coach": True})
        assert coached.status_code == 503 and "ranking keeps" in coached.get_json()["error"]
        assert client.post("/api/score", json=roll).status_code == 200
    resp = client.post("/api/read", data=photo, content_type="image/jpeg")
    assert resp.status_code == 200 and sorted(resp.get_json()["dice"]) == [1, 2, 3, 4]
    assert client.post("/api/score", json={**roll, "coach": True}).status_code == 200


def test_rules_typed_with_a_plus_in_the_url_are_read_as_typed(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``?rules=farkle+greed`` arrives as "farkle greed" (a query's "+" is a space): read
    back as the "+" it was, as ``/api/rules/describe`` does, not refused as unknown."""
    asked: list[str | None] = []

    def fake_read(data: bytes, rules: str | None, *, max_pixels: int) -> dict[str, object]:
        asked.append(rules)
        return {"dice": [], "detections": [], "rules": rules, "score": None}

    monkeypatch.setattr(photos, "read_photo", fake_read)
    resp = client.post("/api/read?rules=farkle+greed", data=b"img", content_type="image/png")
    assert resp.status_code == 200, resp.get_json()
    assert asked == ["farkle+greed"]


def _fake_reading(monkeypatch: pytest.MonkeyPatch, dice: list[tuple[int, float]]) -> bytes:
    """A PNG whose reading is ``dice`` (value, confidence), left to right: what the camera
    would find, without the networks."""
    import cv2
    import numpy as np

    import vision
    from vision.detections import Detections, DieDetection
    from vision.photo import PhotoReading

    image = np.full((100, 200, 3), 200, np.uint8)
    found = Detections(
        tuple(
            DieDetection(value, confidence, (10 + 40 * k, 30, 30, 30), (25.0 + 40 * k, 45.0))
            for k, (value, confidence) in enumerate(dice)
        ),
        (200, 100),
    )
    monkeypatch.setattr(vision, "read_photo_data", lambda data, **kw: PhotoReading(found, image))
    return cv2.imencode(".png", image)[1].tobytes()


def test_a_die_read_unsurely_is_marked_for_the_player_to_confirm(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dice read under ``vision``'s confidence to ask below (0.6) are ``unsure``: the phone
    asks the player about those, and only those."""
    png = _fake_reading(monkeypatch, [(5, 0.95), (3, 0.52), (1, 0.9)])
    resp = client.post("/api/read?rules=farkle", data=png, content_type="image/png")
    body = resp.get_json()
    assert resp.status_code == 200 and body["dice"] == [5, 3, 1]
    assert [d["unsure"] for d in body["detections"]] == [False, True, False]
    assert body["detections"][1]["box_xywh"] == [50, 30, 30, 30]
    assert body["score"]["best"]["points"] == 150  # the 1 and the 5


def test_a_photo_without_dice_has_no_score_and_no_error(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No dice found is a reading (the phone says none were seen), not a roll to score."""
    png = _fake_reading(monkeypatch, [])
    body = client.post("/api/read?rules=farkle", data=png, content_type="image/png").get_json()
    assert body["dice"] == [] and body["score"] is None and "score_error" not in body


def test_a_server_that_cannot_read_photos_says_so_with_503(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing network file is the server's state, not the photo's fault: 503, why."""
    import vision

    def missing(data: bytes, **kwargs: object) -> None:
        raise FileNotFoundError("dice.onnx not found")

    monkeypatch.setattr(vision, "read_photo_data", missing)
    resp = client.post("/api/read", data=png_header(640, 480), content_type="image/png")
    assert resp.status_code == 503
    assert resp.get_json()["error"] == (
        "photo reading is not available on this server (dice.onnx not found)"
    )


def test_the_server_warms_the_reader_up_in_the_background(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hotdice serve` loads the networks as it starts, off the request threads, so the
    table's first photo does not wait for them; a server that cannot read photos leaves
    that for the first photo's 503, with nothing raised in the thread."""
    import threading

    import vision
    from vision import model

    model._session.cache_clear()
    model._net.cache_clear()
    photos.warm_up_in_background().join(timeout=60)
    loaded = model._session if model.engine() == "onnxruntime" else model._net
    assert loaded.cache_info().currsize >= 2  # (the finder and a face reader at least)

    raised: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda hook: raised.append(hook.exc_value))

    def missing() -> None:
        raise FileNotFoundError("dice_det.onnx: model file missing")

    monkeypatch.setattr(vision, "warm_up", missing)
    capsys.readouterr()
    thread = photos.warm_up_in_background()
    thread.join(timeout=60)
    assert not thread.is_alive() and raised == []
    said = "hotdice: warning: photos cannot be read: dice_det.onnx: model file missing\n"
    assert capsys.readouterr().err == said  # (to whoever started the server, once)


@pytest.mark.parametrize(("kind", "flag"), [("moved", "smeared"), ("far", "small")])
def test_a_hard_photo_s_dice_are_flagged_why(client: FlaskClient, kind: str, flag: str) -> None:
    """A photo taken as the phone moved has its dice come back unsure and smeared (the
    page then says it looks blurred); one taken from far off, its dice 12 px, unsure and
    small (the page says to take it closer). As shot, neither; each flag is its own."""
    sharp = client.post("/api/read", data=HARD_PHOTO.read_bytes(), content_type="image/jpeg")
    assert [(d["smeared"], d["small"]) for d in sharp.get_json()["detections"]] == [
        (False, False),
        (False, False),
    ]
    hard = client.post("/api/read", data=hard_photo(kind), content_type="image/png").get_json()
    other = "small" if flag == "smeared" else "smeared"
    assert len(hard["detections"]) == 2
    assert all(d[flag] and d["unsure"] and not d[other] for d in hard["detections"])
