"""`hotdice read` and `hotdice eval` through the vision CLI (no rules engine needed)."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.cli import main
from vision.detections import Detections, DieDetection
from vision.evaluate import score_image

# A little under the README's figures for sample_images/ (Measured accuracy): keeps them
# from slipping.
SAMPLE_FLOOR = {"precision": 0.97, "recall": 0.97, "face_accuracy": 0.97, "roll_accuracy": 0.85}
CLOSE_UP_FLOOR = 0.9  # README, Close-ups: 95-100% of sample dice at each size


def _run(*args):
    return subprocess.run(
        [sys.executable, "-m", "vision.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_missing_and_non_image_files_fail_cleanly(tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    for target in (str(tmp_path / "nope.jpg"), str(bad)):
        r = _run("read", target)
        assert r.returncode == 2
        assert r.stderr.startswith("hotdice: error:") and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "labels, message",
    [
        ({"images": [{"dice": []}]}, 'no "file" name'),
        ({"images": [{"file": "a.jpg", "dice": [{"box": [1, 2, 3, 4]}]}]}, '"value" of 1-6'),
        ({"images": [{"file": "a.jpg", "dice": [{"value": 2, "box": [1, 2, 0, 0]}]}]}, '"box"'),
        ({"images": [{"file": "a.jpg", "dice": [{"value": 2}]}]}, "no labelled dice with boxes"),
        ({"images": "a.jpg"}, "no list of images"),
    ],
)
def test_eval_bad_labels_fail_cleanly(tmp_path, labels, message):
    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((64, 64, 3), 128, np.uint8))
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    modes = [["--close-ups"]] if "boxes" in message else [["--close-ups"], ["--json"]]
    for mode in modes:  # plain `hotdice eval` checks the labels the same way
        r = _run("eval", *mode, str(tmp_path))
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith("hotdice: error:") and message in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_read_json_many_photos_one_line_each(samples_dir, capsys, tmp_path):
    photos = sorted(samples_dir.glob("*.jpg"))[:3]
    out = tmp_path / "annotated.png"
    assert main(["read", "--json", "--annotate", str(out), *map(str, photos)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    for line, photo in zip(lines, photos, strict=True):
        obj = json.loads(line)
        assert obj["file"] == str(photo)
        img = cv2.imread(str(photo))
        assert (obj["width"], obj["height"]) == (img.shape[1], img.shape[0])
        assert obj["ms"] > 0 and obj["dice"]
        for d in obj["dice"]:
            assert 1 <= d["value"] <= 6 and 0 <= d["confidence"] <= 1 and len(d["box_xywh"]) == 4
    written = sorted(tmp_path.glob("annotated-*.png"))
    assert len(written) == 3 and cv2.imread(str(written[0])) is not None


def test_read_text_output(samples_dir, capsys):
    photo = samples_dir / "IMG_20191208_112014.jpg"
    assert main(["read", str(photo)]) == 0
    out = capsys.readouterr().out
    assert "dice in" in out and "roll:" in out


def test_eval_on_sample_images_keeps_recorded_figures(samples_dir, capsys):
    assert main(["eval", "--json", "--no-progress", str(samples_dir)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["images"] == 8 and figures["dice_labelled"] == 42
    for key, floor in SAMPLE_FLOOR.items():
        assert figures[key] >= floor, (key, figures)


def test_eval_close_ups_of_sample_images(samples_dir, capsys):
    """Each sample die blown up to fill 30-90% of a frame (README: Close-ups) reads right."""
    assert main(["eval", "--close-ups", "--json", str(samples_dir)]) == 0
    figures = json.loads(capsys.readouterr().out)["close_ups"]
    assert sorted(figures) == ["0.3", "0.5", "0.7", "0.9"]
    for fraction, fig in figures.items():
        assert fig["dice"] == 21 and fig["share"] >= CLOSE_UP_FLOOR, (fraction, fig)


def test_eval_matching_rules():
    entry = {
        "file": "x.jpg",
        "dice": [
            {"value": 2, "box": [0, 0, 10, 10]},
            {"value": 6, "box": [20, 0, 10, 10], "face": "symbol"},
            {"value": 4, "box": [40, 0, 10, 10]},
        ],
        "ignore": [[60, 0, 10, 10]],
    }

    def die(v, x):
        return DieDetection(v, 0.9, (x - 5, 0, 10, 10), (float(x), 5.0))

    ok = score_image(entry, Detections((die(2, 5), die(1, 25), die(4, 45), die(3, 65))), 1.0)
    assert ok.roll_ok and ok.matched == 3 and ok.face_scored == 2 and ok.detected == 3
    bad = score_image(entry, Detections((die(2, 5), die(2, 6), die(5, 45))), 1.0)
    assert not bad.roll_ok and bad.matched == 2 and bad.face_correct == 1 and bad.detected == 3
    with pytest.raises(KeyError):
        score_image({"dice": []}, Detections(), 1.0)


def test_camera_on_a_video_file_reads_each_settled_roll(samples_dir, tmp_path, capsys):
    first = cv2.resize(cv2.imread(str(samples_dir / "WIN_20221210_14_48_22.jpg")), (640, 360))
    second = cv2.resize(cv2.imread(str(samples_dir / "WIN_20221210_14_48_10.jpg")), (640, 360))
    video = tmp_path / "rolls.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 15, (640, 360))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    moving = [cv2.flip(second, 1) if k % 2 else first[::-1].copy() for k in range(6)]
    for frame in [first] * 12 + moving + [second] * 12:
        writer.write(frame)
    writer.release()
    assert main(["read", "--json", "--camera", str(video)]) == 0
    rolls = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert len(rolls) == 2
    assert rolls[0]["frame"] < 12 < 18 <= rolls[1]["frame"]
    assert all(len(r["dice"]) == 2 for r in rolls)
