"""`hotdice read` and `hotdice eval` through the vision CLI (no rules engine needed)."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import pytest

from companion.cli import main as hotdice_main
from vision import cli, model
from vision.annotate import SURE, annotate
from vision.cli import _NoRules, _print_text, _Progress, main, read_photo
from vision.detections import Detections, DieDetection
from vision.evaluate import score_image

if TYPE_CHECKING:
    from tests.vision.conftest import Drawn

# The README's figures for sample_images/ (Measured accuracy: 100% each, on both engines),
# as the issue asks: one die read wrong, missed or asked about fails (a floor a little
# under them, until session 75, let one misread die pass).
SAMPLE_FLOOR = dict.fromkeys(
    ["precision", "recall", "face_accuracy", "roll_accuracy", "roll_accuracy_once_asked"], 1.0
)
CLOSE_UP_FLOOR = 0.95  # docs/vision.md, Close-ups: 95-100% of sample dice at each size


def _imread(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    assert image is not None, path
    return image


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vision.cli", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("config", "why"),
    [("{", "Expecting property name"), ('{"classifiers": 5}', "'int' object is not iterable")],
)
def test_a_broken_model_config_is_named_in_one_line(tmp_path: Path, config: str, why: str) -> None:
    """HOTDICE_MODEL_DIR (retrained networks to compare) with a config.json the training
    did not write: `read` says which file, once, not "invalid choice: 'read'"."""
    (tmp_path / "config.json").write_text(config)
    env = {**os.environ, "HOTDICE_MODEL_DIR": str(tmp_path)}

    def hotdice(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "companion.cli", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)

    said = f"{tmp_path / 'config.json'}: not a model config: {why}"
    r = hotdice("read", "photo.jpg")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"hotdice: error: hotdice read is unavailable: {said}")
    assert len(r.stderr.splitlines()) == 1
    r = hotdice("--help")  # (every command listed, the broken ones named once)
    assert r.returncode == 0 and "score" in r.stdout
    warned = [line for line in r.stderr.splitlines() if "unavailable" in line]
    assert len(warned) == 1
    assert warned[0].startswith(
        f"hotdice: warning: the eval and read commands are unavailable: {said}"
    )
    assert hotdice("score", "--rules", "farkle", "1", "5").returncode == 0


def test_missing_and_non_image_files_fail_cleanly(tmp_path: Path) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    for target in (str(tmp_path / "nope.jpg"), str(bad)):
        r = _run("read", target)
        assert r.returncode == 2
        assert r.stderr.startswith("hotdice: error:") and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_eval_reads_labels_saved_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As Notepad saves UTF-8 (rule files were taken so already): not a JSON error."""
    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((64, 64, 3), 128, np.uint8))
    labels = json.dumps({"images": [{"file": "a.jpg", "dice": []}]})
    (tmp_path / "labels.json").write_text("\ufeff" + labels, encoding="utf-8")
    assert main(["eval", "--json", str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["images"] == 1 and figures["roll_accuracy"] == 1.0


@pytest.mark.parametrize(
    "labels, message",
    [
        ({"images": [{"dice": []}]}, 'no "file" name'),
        ({"images": [{"file": "a.jpg", "dice": [{"box": [1, 2, 3, 4]}]}]}, '"value" of 1-6'),
        ({"images": [{"file": "a.jpg", "dice": [{"value": 2, "box": [1, 2, 0, 0]}]}]}, '"box"'),
        # (a close-up of it scaled the photo past a float, with two lines of NumPy warning)
        (
            {"images": [{"file": "a.jpg", "dice": [{"value": 2, "box": [0, 0, 1e-300, 1e-300]}]}]},
            "w and h 1 or more)",
        ),
        (
            {"images": [{"file": "a.jpg", "dice": [{"value": 2, "box": [0, 0, 1e9, 1e9]}]}]},
            "four numbers under a billion",
        ),
        # (found by a review: each was taken without a word, or read from outside the folder)
        ({"images": [{"file": "/etc/passwd", "dice": []}]}, "/etc/passwd: not in the folder"),
        ({"images": [{"file": "../a.jpg", "dice": []}]}, "../a.jpg: not in the folder"),
        ({"images": [{"file": "a.jpg", "width": "x", "dice": []}]}, 'a "width" that is not'),
        ({"images": [{"file": "a.jpg", "height": -1, "dice": []}]}, 'a "height" that is not'),
        ({"images": [{"file": "a.jpg", "width": 0, "dice": []}]}, 'a "width" that is not'),
        ({"images": [{"file": "a.jpg", "width": True, "dice": []}]}, 'a "width" that is not'),
        (
            {"images": [{"file": "a.jpg", "dice": [{"value": 2, "face": "symbl"}]}]},
            'a "face" other than "symbol"',
        ),
        ({"images": [{"file": "a.jpg", "dice": [{"value": 2}]}]}, "no labelled dice with boxes"),
        ({"images": "a.jpg"}, "no list of images"),
        ({"images": []}, "no images listed"),
        ({"images": [{"file": " ", "dice": []}]}, 'an empty "file" name'),
        ({"images": [{"file": "a.jpg", "dice": 5}]}, '"dice" is not a list'),
        ({"images": [{"file": "a.jpg"}]}, 'a.jpg: no "dice" (a photo of none says "dice": [])'),
        ({"images": [{"file": "a.jpg", "dice": [{"value": True}]}]}, '"value" of 1-6'),
        ({"images": [{"file": "a.jpg", "dice": [], "ignore": [[1, 2]]}]}, '"ignore"'),
        ({"images": [{"file": "a.jpg", "dice": [], "ignore": 5}]}, '"ignore"'),
    ],
)
def test_eval_bad_labels_fail_cleanly(
    tmp_path: Path, labels: dict[str, object], message: str
) -> None:
    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((64, 64, 3), 128, np.uint8))
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    modes = [["--close-ups"]] if "boxes" in message else [["--close-ups"], ["--json"]]
    for mode in modes:  # plain `hotdice eval` checks the labels the same way
        r = _run("eval", *mode, str(tmp_path))
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith("hotdice: error:") and message in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_eval_of_labels_with_a_number_too_long_for_python_names_the_file(
    tmp_path: Path,
) -> None:
    """Python will not read an integer of over 4,300 digits: its own message named no file
    and told the user to call sys.set_int_max_str_digits()."""
    huge = '{"images": [{"file": "a.jpg", "dice": [{"value": ' + "9" * 5000 + "}]}]}"
    (tmp_path / "labels.json").write_text(huge)
    r = _run("eval", str(tmp_path))
    assert r.returncode == 2 and r.stderr.strip() == (
        f"hotdice: error: {tmp_path / 'labels.json'}: not a labels file: a number in it is too long"
    )


def test_eval_and_camera_arguments_are_checked_up_front(tmp_path: Path) -> None:
    photo = tmp_path / "a.jpg"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 128, np.uint8))
    for args, message in (
        (["eval", str(tmp_path / "nope")], "nope: no such folder"),
        (["eval", str(photo)], "a.jpg: not a folder (give the folder holding labels.json)"),
        (["read", "--camera", str(photo), "--max-rolls", "-1"], "--max-rolls: a number of"),
    ):
        r = _run(*args)
        assert r.returncode == 2 and r.stdout == "", r.stderr
        assert r.stderr.startswith("hotdice: error:") and message in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_a_camera_number_in_other_digits_is_refused_plainly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A superscript 2 passes str.isdigit() but not int(): int()'s own message was printed."""
    for source in ("²", "¹⁰", "½"):
        assert main(["read", "--camera", source]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == (
            "hotdice: error: --camera SOURCE must be a camera number such as 0 or a video "
            f"file path, not {source!r}\n"
        )


class _ClosedPipe:
    """Standard output whose reader has gone (`| head -1` after its line)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("entry", [main, hotdice_main], ids=["vision.cli", "hotdice"])
def test_a_reader_that_stops_early_is_no_error(
    entry: Callable[[list[str]], int],
    samples_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`eval ... | head -1`: the pipe closes and the command ends quietly (exit 0), as a
    shell pipeline expects; `python -m vision.cli` printed "error: [Errno 32]"."""
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert entry(["eval", "--no-progress", str(samples_dir)]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("json_flag", [["--json"], []], ids=["json", "text"])
@pytest.mark.parametrize("module", ["companion", "vision.cli"])
def test_a_real_pipe_closed_early_ends_quietly(
    samples_dir: Path, json_flag: list[str], module: str
) -> None:
    """`read --json *.jpg | head -c 10` with Python's own buffered output: what it still
    held failed again as it exited, "Exception ignored ... BrokenPipeError", exit 120 (a
    review; a stand-in standard output cannot show it)."""
    photos = [str(p) for p in sorted(samples_dir.glob("*.jpg"))] * 2
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    command = [sys.executable, "-m", module, "read", *json_flag, *photos]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.read(10)
        proc.stdout.close()  # (the reader gone, photos still to read)
        said = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 0 and said == ""


def test_camera_text_is_flushed_roll_by_roll(
    samples_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Into a pipe or a file the rolls had waited in Python's buffer until the end (all at
    once, or none where the command was killed); `--json` flushed each (a review)."""
    video = _two_rolls_video(samples_dir, tmp_path)

    class Recorded(io.StringIO):
        flushed: list[str] = []

        def flush(self) -> None:
            self.flushed.append(self.getvalue())

    out = Recorded()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["read", "--camera", str(video)]) == 0
    rolls_seen = [text.count("roll at frame") for text in out.flushed]
    assert 1 in rolls_seen and rolls_seen[-1] == 2


def test_a_broken_video_file_is_one_line(tmp_path: Path) -> None:
    """OpenCV's AVI reader prints its complaint with C's fprintf, past its log level: the
    command's own error is the one line a user sees."""
    video = tmp_path / "roll.avi"
    video.write_bytes(b"RIFF\x00\x10\x00\x00AVI LIST\x00\x01\x00\x00junk" + bytes(range(256)) * 8)
    r = _run("read", "--camera", str(video))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"hotdice: error: cannot open camera or video {str(video)!r}\n"


def test_a_file_name_that_is_not_utf8_is_no_crash(samples_dir: Path, tmp_path: Path) -> None:
    """Such a name reaches Python as lone surrogates, and OpenCV's string conversion crashed
    on them (exit 139, nothing said): the copy is written under that name, and a video by
    such a name is refused in one line."""
    photo = str(sorted(samples_dir.glob("*.jpg"))[0])
    out = os.fsdecode(bytes(tmp_path) + b"/copy\xfe.png")
    r = _run("read", photo, "--annotate", out)
    assert r.returncode == 0, r.stderr
    copy = cv2.imdecode(np.fromfile(out, np.uint8), cv2.IMREAD_COLOR)
    assert copy is not None and copy.shape[2] == 3
    r = _run("read", "--camera", os.fsdecode(bytes(tmp_path) + b"/roll\xff.avi"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("hotdice: error: cannot open camera or video")
    assert "needs a UTF-8 file name" in r.stderr and len(r.stderr.splitlines()) == 1


def _damaged_jpeg(samples_dir: Path) -> bytes:
    """A sample JPEG with 40 bytes halfway through its scan overwritten with 0xFF: libjpeg
    decodes it to the end, warning on standard error (a grey band where the bytes were)."""
    data = (samples_dir / "IMG_20191208_112014.jpg").read_bytes()
    scan = data.index(b"\xff\xda")
    middle = scan + (len(data) - scan) // 2
    return data[:middle] + b"\xff" * 40 + data[middle + 40 :]


def test_a_damaged_jpeg_is_read_as_far_as_it_decodes_and_said_so(
    samples_dir: Path, tmp_path: Path
) -> None:
    """libjpeg printed "Corrupt JPEG data: premature end of data segment" beside the roll,
    read as if whole: now one warning line of the command's own, for `read` and `eval`."""
    photo = tmp_path / "roll.jpg"
    photo.write_bytes(_damaged_jpeg(samples_dir))
    r = _run("read", str(photo))
    assert r.returncode == 0 and r.stdout.startswith(f"{photo}: ")
    assert r.stderr == (
        f"hotdice: warning: {photo}: damaged image data, read as far as it decodes "
        "(Corrupt JPEG data: premature end of data segment)\n"
    )
    (tmp_path / "labels.json").write_text(
        json.dumps({"images": [{"file": "roll.jpg", "dice": []}]})
    )
    r = _run("eval", "--no-progress", str(tmp_path))
    assert r.returncode == 0 and r.stdout.startswith(f"{tmp_path}: 1 image\n")
    assert r.stderr.splitlines() == [
        f"hotdice: warning: {photo}: damaged image data, read as far as it decodes "
        "(Corrupt JPEG data: premature end of data segment)"
    ]


def test_eval_of_a_folder_with_no_readable_image_claims_no_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It printed precision 100.00% of no die found and 0.0 ms: said not to apply, and
    null in the JSON (a review: 1.0 and 0.0 there). A photo that cannot be measured is a
    bad input, as to `hotdice read`: said on stderr, exit 2 (it had been 0, and nothing
    said beside the JSON)."""
    (tmp_path / "a.jpg").write_bytes(b"\xff\xd8 not a photo")
    labels = {"images": [{"file": "a.jpg", "dice": [{"value": 3, "box": [0, 0, 9, 9]}]}]}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert main(["eval", "--no-progress", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out.startswith(f"{tmp_path}: 1 image\n")
    assert "  precision n/a (no die found)  recall 0.00%\n" in out
    assert "  ms per image: n/a (no image could be read)\n" in out
    assert "  failures (1 image):\n    a.jpg: not read: " in out
    assert err.startswith(f"hotdice: error: {tmp_path / 'a.jpg'}: not read: ")
    assert err.count("\n") == 1
    assert main(["eval", "--no-progress", "--json", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    figures = json.loads(out)
    assert [figures[k] for k in ("precision", "recall", "ms_median", "ms_p95")] == [
        None,
        0.0,
        None,
        None,
    ]
    assert err.startswith(f"hotdice: error: {tmp_path / 'a.jpg'}: not read: ")


def test_a_camera_number_past_a_c_int_is_no_camera(capsys: pytest.CaptureFixture[str]) -> None:
    """OpenCV's own error (and a traceback) for a number it cannot take: no such camera."""
    assert main(["read", "--camera", "9" * 23]) == 2
    assert capsys.readouterr().err == f"hotdice: error: cannot open camera or video {'9' * 23}\n"
    assert main(["read", "--camera", "9" * 5001]) == 2  # (past what int() reads from text)
    err = capsys.readouterr().err
    assert (
        err.startswith("hotdice: error: cannot open camera or video '999") and err.count("\n") == 1
    )
    assert err.endswith("… (5,001 characters): file name too long\n")  # (taken as a path)


def test_an_empty_path_is_an_error_not_the_current_folder(
    samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = str(sorted(samples_dir.glob("*.jpg"))[0])
    for args, message in (
        (["read", ""], "the photo path is empty"),
        (["eval", ""], "the folder path is empty"),
        (["eval", "--close-ups", ""], "the folder path is empty"),
    ):
        assert main(args) == 2, args
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err == f"hotdice: error: {message}\n", args
    assert main(["read", "--json", photo, ""]) == 2  # in a batch, one photo's error
    captured = capsys.readouterr()
    assert captured.err == "hotdice: error: the photo path is empty\n"
    assert [json.loads(line).get("error") for line in captured.out.splitlines()] == [
        None,
        "the photo path is empty",
    ]


def test_a_batch_cuts_a_long_echo_as_the_core_does(
    samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main as hotdice

    photo = str(sorted(samples_dir.glob("*.jpg"))[0])
    long = "x/" * 1500 + "a.jpg"  # (a path under PATH_MAX can still fill a screen)
    assert hotdice(["read", "--json", photo, long]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out.splitlines()[1])["error"]
    assert captured.err == f"hotdice: error: {error}\n" and len(error) < 400
    assert error.startswith("x/x/") and error.endswith("a.jpg: no such file")


def test_a_symlink_loop_is_called_one_not_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loop = tmp_path / "loop.jpg"
    loop.symlink_to(loop)
    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((64, 64, 3), 128, np.uint8))
    labelled = tmp_path / "labelled"
    labelled.mkdir()
    (labelled / "loop.jpg").symlink_to(labelled / "loop.jpg")
    (labelled / "labels.json").write_text(
        json.dumps({"images": [{"file": "loop.jpg", "dice": []}]})
    )
    for args, path in (
        (["read", str(loop)], loop),
        (["read", str(tmp_path / "a.jpg"), str(loop)], loop),  # a batch goes on past it
        (["read", str(tmp_path / "a.jpg"), "--annotate", str(loop / "a.png")], loop),
        (["eval", str(loop)], loop),
        (["eval", str(labelled)], labelled / "loop.jpg"),
    ):
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert f"hotdice: error: {path}: a symlink loop (the link leads back to itself)\n" in err
        assert err.count("\n") == 1, err


def test_a_path_refused_by_the_system_is_said_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # (as root nothing is refused for want of permission, so the refusal is made here)
    photo = tmp_path / "locked.jpg"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 128, np.uint8))
    real_stat = os.stat

    def refusing(
        path: str | os.PathLike[str], *, dir_fd: int | None = None, follow_symlinks: bool = True
    ) -> os.stat_result:
        if Path(path).name.startswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(os, "stat", refusing)
    for args, path in (
        (["read", str(photo)], photo),
        (["eval", str(tmp_path / "locked")], tmp_path / "locked"),
    ):
        assert main(args) == 2, args
        assert capsys.readouterr().err == f"hotdice: error: cannot read {path}: permission denied\n"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads without permission")
def test_a_path_without_permission_is_said_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "locked" / "a.jpg"
    photo.parent.mkdir()
    cv2.imwrite(str(photo), np.full((64, 64, 3), 128, np.uint8))
    (tmp_path / "labels.json").write_text(
        json.dumps({"images": [{"file": "locked/a.jpg", "dice": []}]})
    )
    (tmp_path / "locked" / "labels.json").write_text(
        json.dumps({"images": [{"file": "a.jpg", "dice": []}]})
    )
    try:
        photo.parent.chmod(0)
        for args, path in (
            (["read", str(photo)], photo),
            (["eval", str(photo.parent)], photo.parent / "labels.json"),
            (["eval", str(tmp_path)], photo),
            (["eval", str(photo.parent / "more")], photo.parent / "more"),
        ):
            assert main(args) == 2, args
            err = capsys.readouterr().err
            assert err == f"hotdice: error: cannot read {path}: permission denied\n", args
        photo.parent.chmod(0o700)
        photo.chmod(0)
        (tmp_path / "labels.json").chmod(0)
        for args, path in (
            (["read", str(photo)], photo),
            (["eval", str(tmp_path)], tmp_path / "labels.json"),
        ):
            assert main(args) == 2, args
            err = capsys.readouterr().err
            assert err == f"hotdice: error: cannot read {path}: permission denied\n", args
    finally:
        photo.parent.chmod(0o700)


def test_eval_labels_that_are_not_utf8_fail_cleanly(tmp_path: Path) -> None:
    (tmp_path / "labels.json").write_bytes(b'{"images": [{"file": "\xff.jpg"}]}')
    r = _run("eval", str(tmp_path))
    assert r.returncode == 2 and r.stderr.startswith("hotdice: error:")
    assert "labels.json: not UTF-8" in r.stderr and "Traceback" not in r.stderr


def test_a_long_thin_png_is_read_not_crashed_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    strip = tmp_path / "strip.png"
    cv2.imwrite(str(strip), np.full((7, 8000, 3), 200, np.uint8))
    assert main(["read", "--json", str(strip)]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert (obj["width"], obj["height"], obj["dice"]) == (8000, 7, [])


def test_annotate_target_is_checked_before_reading(samples_dir: Path, tmp_path: Path) -> None:
    photo = str(sorted(samples_dir.glob("*.jpg"))[0])
    for out, message in (
        (tmp_path / "out.xyz", "needs an image file name"),
        (tmp_path / "out", "needs an image file name"),
        (f"{tmp_path / 'out.png'}/", "needs an image file name, not a folder"),  # (a review:
        # Path drops the slash, and out.png had been written)
        (tmp_path / "no" / "out.png", "no such folder"),
        *(
            [(Path("/proc/out.png"), "cannot write in this folder")]
            if Path("/proc").is_dir()
            else []
        ),
    ):
        r = _run("read", photo, "--annotate", str(out))
        assert r.returncode == 2 and message in r.stderr, r.stderr
        assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.png").exists()


def test_annotate_into_a_folder_or_a_grey_only_format_fails_before_reading(
    samples_dir: Path, tmp_path: Path
) -> None:
    """OpenCV writes .pbm and .pgm for grey images only, and no file over a folder: said
    only after reading the photos (all of them, in a batch), now before the first."""
    photos = [str(p) for p in sorted(samples_dir.glob("*.jpg"))[:2]]
    (tmp_path / "folder.png").mkdir()
    (tmp_path / f"ann-{Path(photos[1]).stem}.png").mkdir()
    os.mkfifo(tmp_path / "pipe.png")  # (written to, it waited for a reader for ever)
    for out, photos_read, message in (
        (tmp_path / "folder.png", photos[:1], "folder.png: a folder, and --annotate writes"),
        (tmp_path / "pipe.png", photos[:1], "pipe.png: not a plain file, and --annotate"),
        (tmp_path / "ann.png", photos, f"ann-{Path(photos[1]).stem}.png: a folder"),
        (tmp_path / "out.pbm", photos[:1], "--annotate cannot write a colour .pbm image"),
        (tmp_path / "out.pgm", photos, "--annotate cannot write a colour .pgm image"),
    ):
        r = _run("read", *photos_read, "--annotate", str(out))
        assert r.returncode == 2 and message in r.stderr, r.stderr
        assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"ann-{Path(photos[1]).stem}.png",
        "folder.png",
        "pipe.png",
    ]


def test_annotate_never_writes_over_a_photo_it_reads(samples_dir: Path, tmp_path: Path) -> None:
    """A fuzzing review's find: `--annotate` named as the photo itself (or, in a batch, as
    another photo's copy name) replaced the photo, which then read labels as dice; and
    another's, a hard link to the photo (session 37)."""
    shutil.copy(samples_dir / "IMG_20191208_112014.jpg", tmp_path / "a.jpg")
    shutil.copy(samples_dir / "IMG_20191208_112014.jpg", tmp_path / "o-a.jpg")
    os.link(tmp_path / "a.jpg", tmp_path / "hard.png")
    os.symlink(tmp_path / "a.jpg", tmp_path / "soft.png")
    before = (tmp_path / "a.jpg").read_bytes(), (tmp_path / "o-a.jpg").read_bytes()
    for photos, out in (
        (["a.jpg"], "a.jpg"),
        (["a.jpg"], "./sub/../a.jpg"),
        (["o-a.jpg", "a.jpg"], "o.jpg"),  # (a.jpg's copy would be o-a.jpg)
        (["a.jpg"], "hard.png"),
        (["hard.png"], "a.jpg"),
        (["a.jpg"], "soft.png"),
    ):
        (tmp_path / "sub").mkdir(exist_ok=True)
        r = subprocess.run(
            [sys.executable, "-m", "vision.cli", "read", *photos, "--annotate", out],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert r.returncode == 2 and "--annotate would write over it" in r.stderr, r.stderr
        assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert ((tmp_path / "a.jpg").read_bytes(), (tmp_path / "o-a.jpg").read_bytes()) == before


def test_annotate_in_other_formats_opencv_writes_is_unchanged(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = str(samples_dir / "IMG_20191208_112014.jpg")
    for name in ("out.ppm", "out.jpg", "out.webp", ".png"):  # (".png" has no Path.suffix)
        assert main(["read", "--json", photo, "--annotate", str(tmp_path / name)]) == 0
        written = cv2.imread(str(tmp_path / name), cv2.IMREAD_UNCHANGED)
        assert written is not None and written.shape[2] == 3
    assert main(["read", "--json", photo, photo, "--annotate", str(tmp_path / ".jpg")]) == 0
    assert (tmp_path / "-IMG_20191208_112014-2.jpg").is_file()
    capsys.readouterr()


def test_a_bad_photo_in_a_json_batch_keeps_its_line(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = str(sorted(samples_dir.glob("*.jpg"))[0])
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    assert main(["read", "--json", good, str(bad), good]) == 2
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.strip().splitlines()]
    assert [line["file"] for line in lines] == [good, str(bad), good]
    assert "error" in lines[1] and "dice" not in lines[1] and lines[0]["dice"] == lines[2]["dice"]
    assert captured.err.count("hotdice: error:") == 1


def test_a_copy_that_cannot_be_written_is_that_photos_failure(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A photo too wide for a WebP copy had ended the batch after reading it, the photos
    after it unread and its own line missing (a review); now it is that photo's error
    line, saying why, and the photos after it are read and drawn."""
    first, last = (str(p) for p in sorted(samples_dir.glob("*.jpg"))[:2])
    wide = tmp_path / "wide.png"
    cv2.imwrite(str(wide), np.full((200, 17000, 3), 128, np.uint8))
    out = tmp_path / "o.webp"
    assert main(["read", "--json", first, str(wide), last, "--annotate", str(out)]) == 2
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.strip().splitlines()]
    assert [line["file"] for line in lines] == [first, str(wide), last]
    assert lines[1]["error"] == (
        f"{tmp_path / 'o-wide.webp'}: a .webp image is at most 16383 pixels a side, not 17000x200"
    )
    assert "dice" in lines[2] and (tmp_path / f"o-{Path(last).stem}.webp").is_file()
    assert not (tmp_path / "o-wide.webp").exists()


def test_annotate_writes_a_name_as_long_as_a_file_system_allows(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its temporary name, the whole name and more, was too long: the photo was read,
    then no copy written (a review)."""
    photo = str(sorted(samples_dir.glob("*.jpg"))[0])
    for name in ("a" * 245, "\U0001f600" * 62):  # (252 bytes: cut by bytes, not letters)
        out = tmp_path / f"{name}.png"
        assert main(["read", photo, "--annotate", str(out)]) == 0
        assert out.stat().st_size > 0
    capsys.readouterr()


def test_annotate_names_photos_of_the_same_name_apart(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = sorted(samples_dir.glob("*.jpg"))[0]
    other = tmp_path / "b" / photo.name
    other.parent.mkdir()
    other.write_bytes(photo.read_bytes())
    out = tmp_path / "ann.png"
    assert main(["read", "--annotate", str(out), str(photo), str(other)]) == 0
    assert sorted(p.name for p in tmp_path.glob("ann-*.png")) == [
        f"ann-{photo.stem}-2.png",
        f"ann-{photo.stem}.png",
    ]


def test_camera_arguments_are_checked_before_reading(samples_dir: Path, tmp_path: Path) -> None:
    photo = str(sorted(samples_dir.glob("*.jpg"))[0])
    text = tmp_path / "notes.jpg"  # OpenCV opens it as an image sequence, with no frames
    text.write_text("not a video")
    for args, message in (
        (["--camera", photo, photo], "no photos"),
        (["--camera", photo, "--annotate", str(tmp_path / "a.png")], "no --annotate"),
        (["--camera", photo, "--coach"], "--coach needs --rules"),
        ([photo, "--max-rolls", "2"], "--max-rolls counts the rolls of --camera"),
        (["--camera", str(text)], "no video frames"),
        (["--camera", photo, "--rules", " "], "--rules is empty"),
        ([photo, "--annotate", ""], "--annotate is empty"),
        ([photo, "--target", "5000"], "--target needs --rules"),
    ):
        r = subprocess.run(
            [sys.executable, "-m", "vision.cli", "read", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.returncode == 2 and "hotdice: error:" in r.stderr and message in r.stderr, (
            args,
            r.stderr,
        )
        # the error alone: no Traceback, and no FFmpeg "[mjpeg @ 0x...] No JPEG data" lines
        assert r.stderr.count("\n") == 1, r.stderr


def test_read_json_many_photos_one_line_each(
    samples_dir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    photos = sorted(samples_dir.glob("*.jpg"))[:3]
    out = tmp_path / "annotated.png"
    assert main(["read", "--json", "--annotate", str(out), *map(str, photos)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    for line, photo in zip(lines, photos, strict=True):
        obj = json.loads(line)
        assert obj["file"] == str(photo)
        img = _imread(photo)
        assert (obj["width"], obj["height"]) == (img.shape[1], img.shape[0])
        assert obj["ms"] > 0 and obj["dice"]
        for d in obj["dice"]:
            assert 1 <= d["value"] <= 6 and 0 <= d["confidence"] <= 1 and len(d["box_xywh"]) == 4
    written = sorted(tmp_path.glob("annotated-*.png"))
    assert len(written) == 3 and cv2.imread(str(written[0])) is not None


def test_a_wide_12mp_jpeg_is_read_at_a_photos_look(
    wide_shot: Callable[..., np.ndarray], tmp_path: Path
) -> None:
    """A 12 MP JPEG of a whole table, dice 1% of its long side (40 px): `hotdice read`
    decodes it at half size (2000 px, the least a photo is decoded at) and looks as at a
    photo, not a camera frame, finds dice under 24 px, so decodes it again at twice the
    size (the full size), and reads them all, in full-size pixels."""
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), wide_shot("IMG_20191208_112143.jpg"))
    dets, image, ms = read_photo(photo)
    assert sorted(dets.values) == [1, 3, 5, 6, 6, 6]
    assert dets.size_wh == (4000, 3000) and image.shape[:2] == (3000, 4000) and ms > 0
    assert all(1700 <= d.center_xy[0] <= 2300 and 1200 <= d.center_xy[1] <= 1800 for d in dets)


def test_annotate_draws_on_the_full_size_photo(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A big photo of big dice is read decoded at half size; its annotated copy is still
    the whole photo, with the boxes where `--json` puts them."""
    big = cv2.resize(_imread(samples_dir / "IMG_20191208_112014.jpg"), (4000, 4000))
    photo, out = tmp_path / "big.jpg", tmp_path / "big-annotated.png"
    cv2.imwrite(str(photo), big)
    assert main(["read", "--json", str(photo), "--annotate", str(out)]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    drawn, photo_pixels = _imread(out), _imread(photo)
    assert drawn.shape == photo_pixels.shape and len(dice) == 4
    for d in dice:  # each box's outline is drawn, green, where the box is in full size
        x, y, w, h = d["box_xywh"]
        for px, py in ((x, y + h // 2), (x + w, y + h // 2), (x + w // 2, y), (x + w // 2, y + h)):
            assert tuple(drawn[py, px]) == SURE, (d, px, py)
            assert tuple(photo_pixels[py, px]) != SURE


def test_eval_labels_that_list_an_image_twice_fail_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A photo listed twice would be read and counted twice: a label problem, like others."""
    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((64, 64, 3), 128, np.uint8))
    cv2.imwrite(str(tmp_path / "b.jpg"), np.full((64, 64, 3), 128, np.uint8))
    labels = tmp_path / "labels.json"
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.jpg").symlink_to(tmp_path / "a.jpg")
    for second in ("a.jpg", "./a.jpg", "sub/../a.jpg", "link.jpg"):  # (the last two: 37)
        images = [
            {"file": "a.jpg", "dice": []},
            {"file": "b.jpg", "dice": []},
            {"file": second, "dice": []},
        ]
        labels.write_text(json.dumps({"images": images}))
        for mode in ([], ["--json"], ["--close-ups"]):
            assert main(["eval", "--no-progress", *mode, str(tmp_path)]) == 2
            captured = capsys.readouterr()
            assert captured.out == "" and captured.err == (
                f"hotdice: error: {labels}: image 3: {second}: listed twice (image 1 too)\n"
            )


def test_eval_labels_that_no_parser_can_nest_fail_cleanly(tmp_path: Path) -> None:
    (tmp_path / "labels.json").write_text('{"images": ' + "[" * 100_000 + "]" * 100_000 + "}")
    r = _run("eval", str(tmp_path))
    assert r.returncode == 2 and "nested too deeply" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_eval_says_which_labelled_photos_are_missing_before_reading(
    samples_dir: Path, tmp_path: Path
) -> None:
    labels = json.loads((samples_dir / "labels.json").read_text())
    for entry in labels["images"]:  # (linked: labels name the photos beside them)
        (tmp_path / entry["file"]).symlink_to(samples_dir / entry["file"])
    labels["images"].append({"file": "gone.jpg", "dice": []})
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    r = _run("eval", str(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert (
        r.stderr.strip() == f"hotdice: error: {tmp_path / 'gone.jpg'}: labelled, but no such file"
    )


def test_a_progress_bar_cut_short_ends_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A photo that cannot be opened midway (gone, or its permission taken) stops `hotdice
    eval`: its error must not be glued to the bar."""
    bar = _Progress(True)
    bar(5, 12)
    bar.close()
    assert capsys.readouterr().err.endswith(" img/s\n")
    done = _Progress(True)
    done(12, 12)
    done.close()
    assert capsys.readouterr().err.count("\n") == 1


def test_read_text_output(samples_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = samples_dir / "IMG_20191208_112014.jpg"
    assert main(["read", str(photo)]) == 0
    out = capsys.readouterr().out
    assert "dice in" in out and "roll:" in out


def test_read_text_asks_about_the_dice_the_phone_asks_about(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ "please check" on every die under `vision.ASK_BELOW` (0.6), as the phone asks: a die
    read at 0.55 too, not only one under the 0.5 of a die the readers cannot read."""
    dice = [
        DieDetection(v, c, (10 * v, 0, 8, 8), (10 * v + 4, 4.0)) for v, c in ((2, 0.55), (4, 0.61))
    ]
    _print_text(_NoRules(), "roll.jpg", Detections(tuple(dice), (100, 50)), 12.0, {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("  die 1: 2") and lines[2].endswith("<- please check")
    assert lines[3].startswith("  die 2: 4") and "please check" not in lines[3]


def test_eval_on_sample_images_keeps_recorded_figures(
    samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--json", "--no-progress", str(samples_dir)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["images"] == 8 and figures["dice_labelled"] == 42
    for key, floor in SAMPLE_FLOOR.items():
        assert figures[key] >= floor, (key, figures)
    assert figures["dice_asked"] == figures["dice_wrong_unasked"] == 0, figures


def test_eval_close_ups_of_sample_images(
    samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each sample die blown up to fill 30-90% of a frame reads right (docs/vision.md)."""
    assert main(["eval", "--close-ups", "--json", str(samples_dir)]) == 0
    figures = json.loads(capsys.readouterr().out)["close_ups"]
    assert sorted(figures) == ["0.3", "0.5", "0.7", "0.9"]
    for fraction, fig in figures.items():
        assert fig["dice"] == 21 and fig["share"] >= CLOSE_UP_FLOOR, (fraction, fig)


def test_eval_close_ups_warn_of_a_photo_that_does_not_decode(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = json.loads((samples_dir / "labels.json").read_text())
    first = labels["images"][0]
    shutil.copy(samples_dir / first["file"], tmp_path / first["file"])
    (tmp_path / "bad.jpg").write_text("not a photo")
    labels["images"] = [{**first, "file": "bad.jpg"}, first]
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert main(["eval", "--close-ups", "--json", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    counted = min(3, len([d for d in first["dice"] if d.get("face") != "symbol"]))
    assert json.loads(captured.out)["close_ups"]["0.5"]["dice"] == counted
    assert captured.err.startswith(
        f"hotdice: warning: {tmp_path / 'bad.jpg'}: no close-ups made of it: not read: "
    )
    assert len(captured.err.splitlines()) == 1


def test_eval_matching_rules() -> None:
    entry = {
        "file": "x.jpg",
        "dice": [
            {"value": 2, "box": [0, 0, 10, 10]},
            {"value": 6, "box": [20, 0, 10, 10], "face": "symbol"},
            {"value": 4, "box": [40, 0, 10, 10]},
        ],
        "ignore": [[60, 0, 10, 10]],
    }

    def die(v: int, x: int) -> DieDetection:
        return DieDetection(v, 0.9, (x - 5, 0, 10, 10), (float(x), 5.0))

    ok = score_image(entry, Detections((die(2, 5), die(1, 25), die(4, 45), die(3, 65))), 1.0)
    assert ok.roll_ok and ok.matched == 3 and ok.face_scored == 2 and ok.detected == 3
    bad = score_image(entry, Detections((die(2, 5), die(2, 6), die(5, 45))), 1.0)
    assert not bad.roll_ok and bad.matched == 2 and bad.face_correct == 1 and bad.detected == 3
    with pytest.raises(KeyError):
        score_image({"dice": []}, Detections(), 1.0)


def _two_rolls_video(samples_dir: Path, tmp_path: Path) -> Path:
    """A video of two rolls: 12 still frames of one, 6 shaken, 12 still of another."""
    first = cv2.resize(_imread(samples_dir / "WIN_20221210_14_48_22.jpg"), (640, 360))
    second = cv2.resize(_imread(samples_dir / "WIN_20221210_14_48_10.jpg"), (640, 360))
    video = tmp_path / "rolls.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 15, (640, 360))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    moving = [cv2.flip(second, 1) if k % 2 else first[::-1].copy() for k in range(6)]
    for frame in [first] * 12 + moving + [second] * 12:
        writer.write(frame)
    writer.release()
    return video


def test_camera_on_a_video_file_reads_each_settled_roll(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video = _two_rolls_video(samples_dir, tmp_path)
    assert main(["read", "--json", "--camera", str(video)]) == 0
    rolls = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert len(rolls) == 2
    assert rolls[0]["frame"] < 12 < 18 <= rolls[1]["frame"]
    assert all(len(r["dice"]) == 2 for r in rolls)
    # with --rules and --coach each roll is scored and its keeps ranked, as a photo's are
    # (the rules engine is the hotdice command's: vision alone knows no rules)
    from companion.cli import main as hotdice

    args = ["read", "--json", "--camera", str(video), "--rules", "farkle", "--coach"]
    assert hotdice(args) == 0
    coached = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert [r["dice"] for r in coached] == [r["dice"] for r in rolls]
    assert all("score" in r and "advice" in r for r in coached)


def test_camera_waits_as_long_for_stillness_at_any_frame_rate(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same frames: a roll that lies still for 12 frames, is picked up (6 frames), and
    another that settles for good. At 15 frames a second the first lay still 0.8 s and is
    a roll; at 60, a die paused for 0.2 s, no roll (counted in frames, both had been)."""
    first = cv2.resize(_imread(samples_dir / "WIN_20221210_14_48_22.jpg"), (640, 360))
    second = cv2.resize(_imread(samples_dir / "WIN_20221210_14_48_10.jpg"), (640, 360))
    moving = [cv2.flip(second, 1) if k % 2 else first[::-1].copy() for k in range(6)]
    reads = {}
    for rate in (15, 60):
        video = tmp_path / f"at_{rate}.avi"
        writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), rate, (640, 360))
        if not writer.isOpened():
            pytest.skip("this OpenCV build cannot write MJPG video")
        for frame in [first] * 12 + moving + [second] * 30:
            writer.write(frame)
        writer.release()
        assert main(["read", "--json", "--camera", str(video)]) == 0
        reads[rate] = [json.loads(line)["frame"] for line in capsys.readouterr().out.splitlines()]
    assert reads[15] == [3, 21]  # (4 frames still: 0.27 s)
    assert reads[60] == [33]  # (16 frames still)


def test_a_damaged_frame_does_not_end_the_video(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenCV fails one read for a frame it cannot decode and goes on with the next: the
    second roll, after such a frame, had never been read (found by a review). The lost
    frame keeps its number: each roll is said at the frame it is in the video."""
    video = _two_rolls_video(samples_dir, tmp_path)
    assert main(["read", "--json", "--camera", str(video)]) == 0
    whole = [json.loads(line)["frame"] for line in capsys.readouterr().out.splitlines()]
    for lost in ([14], list(range(12, 22))):  # (session 71: ten in a row had ended it)
        _damage_frames(video, lost)
        capture = cv2.VideoCapture(str(video))
        reads = [capture.read()[0] for _ in range(30)]
        capture.release()
        assert reads.count(False) == len(lost) and reads[-1]  # (frames lost, then the rest)
        assert main(["read", "--json", "--camera", str(video)]) == 0
        rolls = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
        assert len(rolls) == 2 and all(len(r["dice"]) == 2 for r in rolls)
        assert rolls[0]["frame"] == whole[0] and rolls[1]["frame"] >= whole[1]


def test_a_video_none_of_whose_frames_decodes_is_said_so(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It had been called "no video frames (not a camera or a video file)"."""
    video = _two_rolls_video(samples_dir, tmp_path)
    _damage_frames(video, list(range(30)))
    assert main(["read", "--camera", str(video)]) == 2
    assert capsys.readouterr().err == (
        f"hotdice: error: cannot read video {str(video)!r}: none of its frames decodes\n"
    )


def _damage_frames(video: Path, frames: list[int]) -> None:
    """The MJPG video's `frames` made undecodable: each JPEG's height and width set to 0."""
    data = bytearray(video.read_bytes())
    starts = [k for k in range(len(data)) if data[k : k + 3] == b"\xff\xd8\xff"]
    for frame in frames:
        header = data.index(b"\xff\xc0", starts[frame])
        data[header + 5 : header + 9] = bytes(4)
    video.write_bytes(bytes(data))


def test_an_mp4_through_a_pipe_is_said_to_need_its_path(samples_dir: Path, tmp_path: Path) -> None:
    """An MP4 keeps its index at its end, which a pipe cannot seek to once it is past
    FFmpeg's first look (some tens of KB): it is a video all the same, and was called none."""
    frame = cv2.resize(_imread(samples_dir / "WIN_20221210_14_48_22.jpg"), (640, 360))
    video = tmp_path / "roll.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"mp4v"), 15, (640, 360))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MP4 video")
    noise = np.random.default_rng(0).integers(0, 40, (120, *frame.shape), dtype=np.uint8)
    for k in range(120):  # (noisy, so that the file outgrows FFmpeg's first look)
        writer.write(cv2.add(frame, noise[k]))
    writer.release()
    assert video.stat().st_size > 5_000_000
    command = [sys.executable, "-m", "companion.cli", "read", "--camera", "/dev/stdin"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    r = subprocess.run(command, input=video.read_bytes(), capture_output=True, env=env)
    assert r.returncode == 2 and r.stderr.decode() == (
        "hotdice: error: /dev/stdin: no video frames (through a pipe, an MP4 or MOV cannot be "
        "read: its index is at its end; give its path, or pipe MJPEG, AVI or MKV)\n"
    )


def test_camera_on_a_video_where_no_roll_settles_says_so(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = cv2.resize(_imread(samples_dir / "WIN_20221210_14_48_22.jpg"), (640, 360))
    video = tmp_path / "short.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 15, (640, 360))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for k in range(6):  # shaken all the time: never still
        writer.write(frame if k % 2 else frame[::-1].copy())
    writer.release()
    assert main(["read", "--camera", str(video)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "no roll settled in 6 frames" in captured.err


def test_camera_prints_no_roll_for_a_still_empty_table(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table lies empty while the dice are shaken: a review's video of a roll, the empty
    table and the next roll printed a roll of no dice between them. The empty table is
    still the scene last read: the same dice thrown again (elsewhere: back where they
    lay, they are the roll a hand rested over, `camera._back`) are a new roll."""
    first = cv2.resize(_imread(samples_dir / "WIN_20221210_14_48_22.jpg"), (640, 360))
    table = np.full_like(first, int(np.median(first)))
    video = tmp_path / "empty_between.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 15, (640, 360))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    shaken = [first[::-1].copy(), cv2.flip(first, -1)] * 3
    for frame in [first] * 12 + shaken + [table] * 12 + shaken + [cv2.flip(first, 1)] * 12:
        writer.write(frame)
    writer.release()
    assert main(["read", "--json", "--camera", str(video)]) == 0
    rolls = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [len(r["dice"]) for r in rolls] == [2, 2]
    assert rolls[0]["frame"] < 12 and rolls[1]["frame"] > 36
    empty = tmp_path / "empty.avi"
    writer = cv2.VideoWriter(str(empty), cv2.VideoWriter.fourcc(*"MJPG"), 15, (640, 360))
    for frame in [table] * 12:
        writer.write(frame)
    writer.release()
    assert main(["read", "--camera", str(empty)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        "hotdice: no roll settled in 12 frames (the table lay still, but with no dice seen on it)\n"
    )


@pytest.mark.parametrize("where", ["_ruled", "warm_up"])
def test_a_second_ctrl_c_in_camera_mode_is_ignored_while_the_video_closes(
    monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A review's Ctrl-C pressed twice printed a traceback from the video's clean-up, half
    the time: the first ends the command, and Ctrl-C is ignored while the stream closes
    (then set back as it was). So too where the first comes while the networks load
    (session 80's review: the video then closed later, unguarded)."""
    import signal

    seen: list[object] = []

    def frames(source: str | int, opened: Callable[[float], None]) -> Iterator[np.ndarray]:
        opened(0.0)
        try:
            while True:
                yield np.full((90, 120, 3), 100, np.uint8)
        finally:
            seen.append(signal.getsignal(signal.SIGINT))

    def pressed(*_: object) -> dict:
        raise KeyboardInterrupt

    die = DieDetection(3, 0.9, (10, 10, 20, 20), (20.0, 20.0))
    monkeypatch.setattr(cli, "video_frames", frames)
    monkeypatch.setattr(cli, "read", lambda frame, photo: Detections((die,), (120, 90)))
    monkeypatch.setattr(cli, where, pressed)
    before = signal.getsignal(signal.SIGINT)
    assert main(["read", "--camera", "0"]) == 0
    assert seen == [signal.SIG_IGN] and signal.getsignal(signal.SIGINT) is before


def test_ctrl_c_pressed_twice_is_heard_once_in_camera_mode() -> None:
    """Two Ctrl-C within milliseconds had raised the second inside the first's clean-up
    (a traceback, at worst a crash; session 80's review): the first is heard, the second
    ignored, and Ctrl-C is as it was once the command is done."""
    import signal

    before = signal.getsignal(signal.SIGINT)
    heard = 0
    with cli._on_ctrl_c(cli._heard_once):
        for _ in range(2):
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # (the handler runs between two bytecodes of this thread)
            except KeyboardInterrupt:
                heard += 1
    assert heard == 1 and signal.getsignal(signal.SIGINT) is before


def test_a_missing_or_empty_video_file_is_said_so(tmp_path: Path) -> None:
    """Each had been only "cannot open camera or video" (a review)."""
    missing, empty = tmp_path / "nope.avi", tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    for video, why in ((missing, "no such file"), (empty, "the file is empty")):
        r = _run("read", "--camera", str(video))
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr == f"hotdice: error: cannot open camera or video {str(video)!r}: {why}\n"


def test_a_still_photo_as_the_camera_is_said_to_be_a_photo(
    samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenCV opens a JPEG as a video of one frame: "no roll settled in 1 frame" left the
    user to guess why (a review's find)."""
    photo = str(samples_dir / "WIN_20221210_14_48_22.jpg")
    assert main(["read", "--camera", photo]) == 2
    assert capsys.readouterr().err == (
        f"hotdice: error: {photo}: a photo, not a video (--camera waits for dice to settle "
        f"over many frames): read it with hotdice read {photo}\n"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_photo_through_a_named_pipe_as_the_camera_ends(samples_dir: Path, tmp_path: Path) -> None:
    """Its one frame read, the pipe's writer gone: the test for a photo opened the pipe
    again, which waits for a writer for ever (a review's find). Only a plain file is
    looked at."""
    pipe = tmp_path / "roll"  # (named so, OpenCV reads its one frame)
    os.mkfifo(pipe)
    photo = (samples_dir / "WIN_20221210_14_48_22.jpg").read_bytes()

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), open(pipe, "wb") as file:
            file.write(photo)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    r = _run("read", "--camera", str(pipe))
    writer.join(timeout=10)
    assert r.returncode == 1, r.stderr
    assert r.stderr == "hotdice: no roll settled in 1 frame\n"


def test_photos_listed_after_an_option_are_read_as_photos(
    samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hotdice read a.jpg --rules farkle b.jpg`: b.jpg is a photo too (argparse alone
    called it an unrecognized argument); an unknown option is still refused."""
    from companion.cli import main as hotdice

    a, b = map(str, sorted(samples_dir.glob("*.jpg"))[:2])
    assert hotdice(["read", a, "--rules", "farkle", b, "--json"]) == 0
    files = [json.loads(line)["file"] for line in capsys.readouterr().out.splitlines()]
    assert files == [a, b]
    with pytest.raises(SystemExit) as stop:
        hotdice(["read", a, "--bogus"])
    assert stop.value.code == 2 and "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_a_photo_named_like_an_option_after_a_double_dash(
    samples_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After `--`, even after an option, a name starting with "-" is a photo."""
    from companion.cli import main as hotdice

    a = sorted(samples_dir.glob("*.jpg"))[0]
    (tmp_path / "-b.jpg").write_bytes(a.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert hotdice(["read", str(a), "--rules", "farkle", "--json", "--", "-b.jpg"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["file"] for line in lines] == [str(a), "-b.jpg"]


def test_camera_stops_after_max_rolls(
    samples_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--max-rolls 1` prints the first settled roll and stops: the eighth still frame
    (frame 7, counted from 0) is the one read, and its `ms` is that read's time, the
    networks loaded before (as for photos: the first roll had said 200-940 ms)."""
    video = _two_rolls_video(samples_dir, tmp_path)
    warmed: list[bool] = []
    monkeypatch.setattr(cli, "warm_up", lambda: warmed.append(True))
    assert main(["read", "--json", "--camera", str(video), "--max-rolls", "1"]) == 0
    assert warmed == [True]
    rolls = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert len(rolls) == 1 and rolls[0]["frame"] == 3 and rolls[0]["file"] == str(video)
    assert len(rolls[0]["dice"]) == 2 and rolls[0]["ms"] > 0


def test_one_missing_photo_with_json_is_the_commands_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Alone, a missing photo is an error of the command (exit 2, one line on stderr), with
    no JSON line: only in a batch does the bad photo keep a line of its own."""
    missing = tmp_path / "nope.jpg"
    assert main(["read", "--json", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"hotdice: error: {missing}: no such file\n"


def test_a_photo_from_standard_input_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`hotdice read -` said "-: no such file", as if a file named "-" were meant."""
    monkeypatch.chdir(tmp_path)
    assert main(["read", "-"]) == 2
    assert capsys.readouterr().err == (
        "hotdice: error: photos are not read from standard input ('-'): name the photo's file\n"
    )


def test_a_batch_with_standard_error_full_still_prints_each_photos_line(
    samples_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bad photo's error could not be said, and the failure to say it lost the rest."""

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sys, "stderr", Full())
    photo = samples_dir / "IMG_20191208_112014.jpg"
    assert main(["read", "--json", str(tmp_path / "nope.jpg"), str(photo)]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == [str(tmp_path / "nope.jpg"), str(photo)]
    assert "error" in lines[0] and len(lines[1]["dice"]) == 4


def test_annotate_outlines_and_labels_each_die_of_a_wide_photo(
    samples_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1280x720 photo's copy has each die outlined where `--json` puts its box, and
    labelled "value confidence" as `vision.annotate` draws it, not with the value alone."""
    photo = samples_dir / "WIN_20221210_14_48_10.jpg"
    out = tmp_path / "wide.png"
    assert main(["read", "--json", str(photo), "--annotate", str(out)]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    drawn, pixels = _imread(out), _imread(photo)
    assert drawn.shape == pixels.shape == (720, 1280, 3) and len(dice) == 2
    for d in dice:
        x, y, w, h = d["box_xywh"]
        for px, py in ((x, y + h // 2), (x + w, y + h // 2), (x + w // 2, y), (x + w // 2, y + h)):
            assert tuple(drawn[py, px]) == SURE, (d, px, py)
    dets = read_photo(photo)[0]
    assert np.array_equal(drawn, annotate(pixels, dets))
    assert not np.array_equal(drawn, annotate(pixels, dets, confidence=False))


def test_annotate_names_three_photos_of_the_same_name_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = []
    for folder in "abc":
        (tmp_path / folder).mkdir()
        photos.append(str(tmp_path / folder / "x.png"))
        cv2.imwrite(photos[-1], np.full((64, 64, 3), 128, np.uint8))
    assert main(["read", "--annotate", str(tmp_path / "ann.png"), *photos]) == 0
    assert sorted(p.name for p in tmp_path.glob("ann-*.png")) == [
        "ann-x-2.png",
        "ann-x-3.png",
        "ann-x.png",
    ]


def test_rules_on_a_photo_without_dice_give_a_null_score_and_advice(
    drawn: Drawn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/vision.md: `score` is null without dice (and `advice` with `--coach`), not left out."""
    from companion.cli import main as hotdice

    _, table = drawn
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), table((60, 110, 40)))
    assert hotdice(["read", "--json", "--rules", "farkle", "--coach", str(blank)]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["dice"] == [] and obj["score"] is None and obj["advice"] is None
    assert "score_error" not in obj and "advice_error" not in obj
    # in text it is said, where the photo's line had been all (a review)
    assert hotdice(["read", "--rules", "farkle", "--coach", str(blank)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert ": 0 dice in " in said[0]
    assert said[1:] == ["  no dice read: nothing to score"]
    assert hotdice(["read", str(blank)]) == 0  # (and without --rules, nothing to score)
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_coach_plays_to_the_target_given(
    samples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--target` is the rules' for `--coach` too: under an exact finish at 300 the roll
    1 3 5 6 6 6 is advised as `hotdice advise --target 300 --roll` advises it (a bust:
    its scoring dice pass 300), not as under the preset's own target of 10,000."""
    from companion.cli import main as hotdice

    rules = ["--rules", "exact-10000", "--target", "300"]
    photo = str(samples_dir / "IMG_20191208_112143.jpg")
    assert hotdice(["read", "--json", "--coach", *rules, photo]) == 0
    advice = json.loads(capsys.readouterr().out)["advice"]
    assert hotdice(["advise", "--json", *rules, "--roll", "1", "3", "5", "6", "6", "6"]) == 0
    assert advice == json.loads(capsys.readouterr().out)
    assert advice["bust"] and advice["options"] == []


def _blank_eval_folder(folder: Path, n: int) -> None:
    """`n` small grey images, labelled with no dice."""
    for k in range(n):
        cv2.imwrite(str(folder / f"{k}.png"), np.full((64, 64, 3), 128, np.uint8))
    images = [{"file": f"{k}.png", "dice": []} for k in range(n)]
    (folder / "labels.json").write_text(json.dumps({"images": images}))


def test_eval_draws_its_progress_bar_on_a_terminal_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No bar (and its \\r) in a log file; on a terminal, one for 10 images or more."""
    _blank_eval_folder(tmp_path, 12)
    assert main(["eval", "--json", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and json.loads(captured.out)["images"] == 12
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["eval", "--json", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("\r[") and err.endswith(" img/s\n") and " 12/12 " in err
    assert main(["eval", "--json", "--no-progress", str(tmp_path)]) == 0
    assert capsys.readouterr().err == ""


def test_a_progress_bar_waits_for_ten_images(capsys: pytest.CaptureFixture[str]) -> None:
    short = _Progress(True)
    for done in range(1, 10):
        short(done, 9)
    short.close()
    assert capsys.readouterr().err == ""
    _Progress(True)(1, 10)
    assert capsys.readouterr().err.startswith("\r[###...")


def test_eval_text_gives_its_figures_as_percentages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four images of two labelled dice each, read so: two right; one die misread, unsure;
    one die missed and two extras, sure. Detected 9, labelled 8, matched 7: precision 7/9,
    recall 7/8, faces 6/7, rolls 2/4; one die asked about, two wrong without asking, and
    3/4 rolls right once the unsure die is checked (a missed die is never asked about);
    ms 10, 20, 30, 100: median 25, 95th percentile 89.5 (between the 3rd and 4th, 0.85 of
    the way). The two images not read right are listed."""
    boxes = [[0, 0, 20, 20], [30, 30, 20, 20]]
    for name in "abcd":
        cv2.imwrite(str(tmp_path / f"{name}.png"), np.full((64, 64, 3), 128, np.uint8))
    images = [
        {"file": f"{n}.png", "dice": [{"value": 2, "box": boxes[0]}, {"value": 5, "box": boxes[1]}]}
        for n in "abcd"
    ]
    (tmp_path / "labels.json").write_text(json.dumps({"images": images}))

    def die(value: int, x: int, confidence: float = 0.9) -> DieDetection:
        return DieDetection(value, confidence, (x - 5, x - 5, 10, 10), (float(x), float(x)))

    reads = {
        "a.png": ([die(2, 10), die(5, 40)], 10.0),
        "b.png": ([die(2, 10), die(5, 40)], 20.0),
        "c.png": ([die(2, 10), die(3, 40, confidence=0.4)], 30.0),
        "d.png": ([die(2, 10), die(4, 58), die(6, 58)], 100.0),
    }

    def fake_read_photo(
        path: str | os.PathLike[str], **_: object
    ) -> tuple[Detections, None, float]:
        dice, ms = reads[Path(path).name]
        return Detections(tuple(dice), (64, 64)), None, ms

    monkeypatch.setattr(cli, "read_photo", fake_read_photo)
    assert main(["eval", "--no-progress", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:8] == [
        f"{tmp_path}: 4 images",
        "  dice labelled 8, detected 9, matched 7",
        "  precision 77.78%  recall 87.50%",
        "  face accuracy 85.71% (matched dice, printed symbols left out)",
        "  roll accuracy 50.00% (whole roll's values exactly right)",
        "  asked to check 1 die (read under 0.6); 2 read wrong without asking",
        "  roll accuracy once the dice asked about are checked 75.00%",
        "  ms per image: median 25.0, 95th percentile 89.5"
        f" (networks run by {model.describe_engine()})",
    ]
    assert lines[8] == "  failures (2 images):" and len(lines) == 11
    assert lines[9] == "    c.png: read 3 (0.40) for 5 at [30, 30, 20, 20]"
    assert lines[10].startswith("    d.png: ")
    assert main(["eval", "--json", "--no-progress", str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["precision"], figures["recall"], figures["roll_accuracy"]) == (
        0.7778,
        0.875,
        0.5,
    )
    assert (figures["ms_median"], figures["ms_p95"]) == (25.0, 89.5)
    asked = (figures["dice_asked"], figures["dice_wrong_unasked"])
    assert asked == (1, 2) and figures["roll_accuracy_once_asked"] == 0.75
