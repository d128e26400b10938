"""scripts/stress_battery.py, which docs/vision.md's and the log's battery figures come from:
it runs scripts/stress_vision.py once per folder and change, and compares with an earlier
output. Run here on a small stand-in for the dev folders (one sample photo each)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest


@pytest.fixture
def shared(tmp_path: Path, samples_dir: Path) -> Path:
    """The three dev folders, each one sample photo of six dice with its labels."""
    entry = next(
        e
        for e in json.loads((samples_dir / "labels.json").read_text())["images"]
        if e["file"] == "IMG_20191208_112143.jpg"
    )
    for folder in ("skovy_catan", "fudw_tray", "byler_d6"):
        (tmp_path / folder).mkdir()
        shutil.copy(samples_dir / entry["file"], tmp_path / folder / entry["file"])
        labels = {"images": [entry]}
        (tmp_path / folder / "labels.json").write_text(json.dumps(labels))
    return tmp_path


RunBattery = Callable[..., list[str]]


@pytest.fixture
def run_battery(
    battery: ModuleType,
    shared: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> RunBattery:
    """The script's `base` battery cut to one change, run on `shared` with `args`: the
    lines it printed (it must succeed)."""
    monkeypatch.setattr(battery, "BATTERIES", {"base": ["--scale 0.5"]})

    def run(*args: str) -> list[str]:
        assert battery.main([str(shared), *args]) == 0
        return capsys.readouterr().out.splitlines()

    return run


def test_each_run_prints_its_figures_and_a_comparison_sums_the_changes(
    battery: ModuleType, run_battery: RunBattery, tmp_path: Path
) -> None:
    lines = run_battery()
    assert [line.split(" [")[0] for line in lines] == [
        "skovy_catan --scale 0.5",
        "fudw_tray --scale 0.5",
        "byler_d6 --images 60 --scale 0.5",
    ]
    # the same photo in each folder, read the same: six dice of 20 px, all found
    runs = battery.read_output(_saved(tmp_path / "before.txt", lines))
    assert len({tuple(figures) for figures in runs.values()}) == 1
    precision, recall, face, rolls = runs["fudw_tray --scale 0.5"]
    assert precision == recall == 100.0 and rolls in (0.0, 100.0)

    worse = dict(runs, **{"fudw_tray --scale 0.5": [precision, recall - 10, face, rolls]})
    earlier = [f"{name} {figures}" for name, figures in worse.items()]
    out = run_battery("--compare", str(_saved(tmp_path / "w.txt", earlier)))
    assert out[1].endswith("change [0.0, 10.0, 0.0, 0.0]")
    assert out[0].endswith("change [0.0, 0.0, 0.0, 0.0]")
    assert out[-1] == "sum of changes [0.0, 10.0, 0.0, 0.0]: 1 better, 0 worse"
    assert battery.read_output(_saved(tmp_path / "after.txt", out)) == runs  # (its own output)


def _saved(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def test_bad_arguments_get_one_line(
    battery: ModuleType, shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken.txt").write_text("skovy_catan --scale 0.5 [1.0, oops]\n")
    (tmp_path / "three.txt").write_text("skovy_catan --scale 0.5 [1.0, 2.0, 3.0]\n")
    (tmp_path / "other.txt").write_text("skovy_catan --blur 9 [1.0, 2.0, 3.0, 4.0]\n")
    for args, message in [
        (["--compare", str(tmp_path / "broken.txt")], "--compare: cannot read"),
        (["--compare", str(tmp_path / "three.txt")], "line 1 is not a run's four figures"),
        (["--compare", str(tmp_path / "none.txt")], "--compare: cannot read"),
        (["--compare", str(tmp_path / "other.txt")], "holds no run of the battery 'base'"),
        (["--jobs", "0"], "--jobs: at least 1"),
    ]:
        with pytest.raises(SystemExit) as exit_info:
            battery.main([str(shared), *args])
        assert exit_info.value.code == 2
        assert message in capsys.readouterr().err
    shutil.rmtree(shared / "fudw_tray")
    with pytest.raises(SystemExit):
        battery.main([str(shared)])
    assert "no labelled folder fudw_tray" in capsys.readouterr().err


def test_a_run_that_scores_no_face_compares_the_rest(
    run_battery: RunBattery, shared: Path, tmp_path: Path
) -> None:
    """A blank table labelled with a die: nothing is found, so no face is scored and no
    find is right or wrong (None in `hotdice eval --json`: precision too, since session
    84), which the script's arithmetic met with a traceback."""
    blank = np.full((640, 640, 3), 200, np.uint8)
    for folder in ("skovy_catan", "fudw_tray", "byler_d6"):
        cv2.imwrite(str(shared / folder / "IMG_20191208_112143.jpg"), blank)
    out = run_battery()
    assert out[0] == "skovy_catan --scale 0.5 [None, 0.0, None, 0.0]"
    earlier = _saved(tmp_path / "e.txt", [line.replace("0.0, None", "0.0, 50.0") for line in out])
    compared = run_battery("--compare", str(earlier))
    assert compared[0].endswith("change [None, 0.0, None, 0.0]")
    assert compared[-1] == "sum of changes [0.0, 0.0, 0.0, 0.0]: 0 better, 0 worse"


def test_every_battery_run_is_one_the_stress_tool_takes(
    battery: ModuleType, stress: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each change of each battery passes stress_vision.py's checks of its options (a
    battery's run given a mistyped or out-of-range option would print no figures). The
    tool stops where it would first read the folder."""

    class Parsed(Exception):
        pass

    def stop(directory: Path) -> None:
        raise Parsed(directory)

    monkeypatch.setattr(stress, "iter_dataset", stop)
    assert {"base", "big", "close", "tables", "light"} <= set(battery.BATTERIES)
    for changes in battery.BATTERIES.values():
        for change in changes:
            with pytest.raises(Parsed, match="folder"):
                stress.main(["folder", *change.split(), *battery.FOLDERS["byler_d6"]])
    with pytest.raises(SystemExit):  # (and a run it would not take fails before that)
        stress.main(["folder", "--exposure", "0"])
