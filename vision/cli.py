"""`hotdice read` and `hotdice eval`: the vision layer's commands.

They plug into `hotdice` through the `hotdice.commands` entry point (`register`). For
development without the rules engine, `python -m vision.cli read PHOTO` runs the same
handlers with a context that has no rules engine.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import shlex
import signal
import stat
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from . import model
from .annotate import annotate
from .camera import open_given_up, settled_rolls, still_frames_at, video_frames
from .detections import ASK_BELOW, Detections
from .evaluate import ImageResult, close_ups, evaluate, failure_lines, summarize
from .io import load_image, native_stderr_kept, read_bytes, stat_path, write_image
from .model import warm_up
from .photo import PhotoReading, read_photo_data
from .reader import read


class RulesContext(Protocol):
    """What these commands ask of the rules engine (`companion.cli.CommandContext`), given
    by `hotdice` when it plugs them in: vision itself knows no rules."""

    def score_report(self, rules: str, dice: Sequence[int], target: int | None) -> dict: ...
    def advice_report(self, rules: str, dice: Sequence[int], target: int | None) -> dict: ...
    def brief(self, message: str) -> str: ...
    def score_text(self, report: dict) -> str: ...
    def advice_text(self, report: dict) -> str: ...


def _warn(message: str) -> None:
    with contextlib.suppress(OSError):  # (a full or closed stderr: the reading still counts)
        print(f"hotdice: warning: {message}", file=sys.stderr, flush=True)


def read_photo(
    path: str | os.PathLike, *, warn: Callable[[str], None] = _warn
) -> tuple[Detections, np.ndarray, float]:
    """Read a photo file: (detections in full-size pixels, decoded image, ms incl. decoding).

    Raises OSError for a missing file and ValueError for one that is not an image. A JPEG
    whose data is damaged part of the way is read as far as it decodes, and `warn` says so
    in one line (the decoder had printed its own line, and the roll went on as if whole).
    """
    t0 = time.perf_counter()
    data = read_bytes(path)
    try:
        reading = read_photo_data(data, hear_decoder=True)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    ms = (time.perf_counter() - t0) * 1000.0
    if reading.damage:
        warn(f"{path}: damaged image data, read as far as it decodes ({reading.damage})")
    return reading.detections, reading.image, ms


def _json_line(path: str, dets: Detections, ms: float, ruled: dict[str, Any]) -> str:
    """One photo's (or roll's) JSON line: the dice, and what `_ruled` gave."""
    obj: dict[str, Any] = {
        "file": str(path),
        "dice": [d.to_json() for d in dets],
        "width": dets.size_wh[0],
        "height": dets.size_wh[1],
        "ms": round(ms, 1),
        **ruled,
    }
    return json.dumps(obj)


def _ruled(args: argparse.Namespace, context: RulesContext, dets: Detections) -> dict[str, Any]:
    """What `--rules` (and `--coach`) make of the roll read, as JSON keys: `score` (None
    without dice) and with `--coach` `advice`; a roll the rules cannot score (more dice
    than they use) or advise has `score_error` / `advice_error` instead, as the web's."""
    if not args.rules:
        return {}
    none: dict[str, Any] = {"score": None, **({"advice": None} if args.coach else {})}
    if not dets.values:
        return none
    roll = sorted(dets.values)
    try:
        out: dict[str, Any] = {"score": context.score_report(args.rules, roll, args.target)}
    except ValueError as exc:
        why = context.brief(str(exc))
        return {**none, "score_error": why, **({"advice_error": why} if args.coach else {})}
    if args.coach:
        try:
            out["advice"] = context.advice_report(args.rules, roll, args.target)
        except ValueError as exc:
            out.update(advice=None, advice_error=context.brief(str(exc)))
    return out


def _print_text(
    context: RulesContext, path: str, dets: Detections, ms: float, ruled: dict[str, Any]
) -> None:
    """One photo's (or settled roll's) block: the dice, then with `--rules` the roll's
    score and with `--coach` its keeps ranked, as `hotdice score` and `hotdice advise
    --roll` print them (the rules engine's words, indented under the photo)."""
    w, h = dets.size_wh
    print(f"{path}: {len(dets)} {'die' if len(dets) == 1 else 'dice'} in {ms:.0f} ms ({w}x{h})")
    if len(dets):
        print("  roll: " + " ".join(str(v) for v in sorted(dets.values)))
    for k, d in enumerate(dets, 1):
        flag = "   <- please check" if d.confidence < ASK_BELOW else ""
        print(f"  die {k}: {d.value}  confidence {d.confidence:.2f}  box {list(d.box_xywh)}{flag}")
    if ruled.get("score") is not None:
        print(textwrap.indent(context.score_text(ruled["score"]), "  "))
    elif "score_error" in ruled:
        print(f"  cannot score this roll: {ruled['score_error']}")
    elif "score" in ruled:  # (`--rules` and no die read: said, not passed over silently)
        print("  no dice read: nothing to score")
    if ruled.get("advice") is not None:
        print(textwrap.indent(context.advice_text(ruled["advice"]), "  "))
    elif "advice_error" in ruled and "score_error" not in ruled:  # (else the same words)
        print(f"  no advice for this roll: {ruled['advice_error']}")
    sys.stdout.flush()  # (a camera's roll seen as it settles, not when a pipe's buffer fills)


def _annotate_paths(out: str, photos: list[str]) -> list[Path]:
    """Where `--annotate OUT` writes each photo's copy: OUT itself for one photo, else
    OUT-<photo name> (and -2, -3... for photos of the same name in different folders).
    Checked before any photo is read: a folder that exists and may be written in, a
    format OpenCV can write a colour image in, and no folder where an image would go."""
    if out.endswith(("/", os.sep)):  # (Path drops it: "out.png/" had written out.png)
        raise ValueError(f"{out}: --annotate needs an image file name, not a folder")
    p = Path(out)
    if not stat.S_ISDIR(stat_path(p.parent, what="folder").st_mode):
        raise OSError(f"{p.parent}: no such folder for --annotate")
    try:  # (a trial file, not os.access: root passes that test even for /proc)
        with tempfile.TemporaryFile(dir=p.parent):
            pass
    except OSError:
        raise OSError(f"{p.parent}: cannot write in this folder (--annotate)") from None
    # OpenCV goes by the last dot, as Path.suffix does not in a name like ".png"
    stem, ext = p.name[: p.name.rfind(".")], p.name[p.name.rfind(".") :]
    # (only the extension goes to OpenCV: a name that is not UTF-8, its bytes kept as
    # lone surrogates, crashed OpenCV's string conversion; the file is written by Python)
    if "." not in p.name or not ext.isascii() or not cv2.haveImageWriter(f"image{ext}"):
        raise ValueError(f"{p}: --annotate needs an image file name (.png, .jpg, ...)")
    try:  # a trial colour image: OpenCV knows .pbm and .pgm, but writes only grey ones
        written = cv2.imencode(ext, np.zeros((64, 64, 3), np.uint8))[0]
    except cv2.error:
        written = False
    if not written:
        raise ValueError(f"{p}: --annotate cannot write a colour {ext} image (try .png)")
    if len(photos) == 1:
        return _writable_copies([p], photos)
    paths: list[Path] = []
    for photo in photos:
        name = p.with_name(f"{stem}-{Path(photo).stem}{ext}")
        k = 2
        while name in paths:
            name = p.with_name(f"{stem}-{Path(photo).stem}-{k}{ext}")
            k += 1
        paths.append(name)
    return _writable_copies(paths, photos)


def _writable_copies(paths: list[Path], photos: list[str]) -> list[Path]:
    """The paths, each checked not to be a folder (found only when writing, after reading),
    nor another kind of file than a plain one (writing to a named pipe waits for a reader
    for ever), nor one of the photos read, by any name or link (its copy, drawn over, would
    replace it: and read again, its labels pass for dice)."""
    inputs = {_file_id(Path(photo)) for photo in photos} - {None}
    for path in paths:
        if path.is_dir():
            raise ValueError(f"{path}: a folder, and --annotate writes an image file")
        if path.exists() and not path.is_file():
            raise ValueError(f"{path}: not a plain file, and --annotate writes an image file")
        if _file_id(path) in inputs:
            raise ValueError(f"{path}: one of the photos read: --annotate would write over it")
    return paths


def _file_id(path: Path) -> tuple[int, int] | None:
    """The (device, inode) a path leads to, the same through a symlink or a hard link;
    None where nothing is there yet (or it cannot be looked at: reading it will say why)."""
    try:
        st = path.stat()
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _camera_source(text: str) -> str | int:
    """`--camera SOURCE`: a camera number (ASCII digits) or a video file. Other digits,
    such as a superscript 2 (str.isdigit() says yes, int() says no), are neither."""
    if text.isascii() and text.isdigit():  # (past 100 digits: no camera, as a path)
        return int(text) if len(text) <= 100 else text
    if text.isnumeric() and not os.path.exists(text):
        raise ValueError(
            f"--camera SOURCE must be a camera number such as 0 or a video file path, not {text!r}"
        )
    return text


def _quiet_opencv() -> None:
    """No OpenCV or FFmpeg log lines (a camera index that does not open, a broken image, a
    file that is no video) before the command's own one-line error. FFmpeg's level is read
    when the first video opens; a user's own OPENCV_FFMPEG_LOGLEVEL is kept, to debug."""
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # (AV_LOG_QUIET)


def run_read(args: argparse.Namespace, context: RulesContext) -> int:
    """Handler of `hotdice read`."""
    _quiet_opencv()
    for option, value in (("--rules", args.rules), ("--annotate", args.annotate)):
        if value is not None and not value.strip():
            raise ValueError(f"{option} is empty")
    if args.coach and not args.rules:
        raise ValueError("--coach needs --rules NAME")
    if args.target is not None and not args.rules:
        raise ValueError("--target needs --rules NAME (the target is the rules')")
    if args.rules:
        context.score_report(args.rules, [1], args.target)  # a bad rule set fails up front
    if args.max_rolls < 0:
        raise ValueError(f"--max-rolls: a number of rolls, 0 for no limit, not {args.max_rolls}")
    if args.max_rolls and args.camera is None:
        raise ValueError("--max-rolls counts the rolls of --camera: photos are each read once")
    if args.camera is not None:
        if args.photos or args.annotate:
            raise ValueError("--camera reads a camera or a video: no photos, no --annotate")
        return run_camera(args, context)
    if not args.photos:
        raise ValueError("give one or more photos, or --camera SOURCE")
    if "-" in args.photos and not Path("-").exists():  # (as `hotdice score -` reads one)
        raise ValueError("photos are not read from standard input ('-'): name the photo's file")
    outs = _annotate_paths(args.annotate, args.photos) if args.annotate else []
    status = 0
    warm_up()
    many = len(args.photos) > 1
    for k, photo in enumerate(args.photos):
        try:
            dets, image, ms = read_photo(photo)
            if args.annotate:  # (first: a reader of the output that stops early, `| head
                # -1`, must not stop the copy being written; in the `try`: a copy that
                # cannot be written, too big for its format, is that photo's failure)
                _write_annotated(photo, dets, image, outs[k])
        except (OSError, ValueError) as exc:
            if not many:
                raise
            message = context.brief(str(exc))
            with contextlib.suppress(OSError):  # (a full stderr: the JSON line still says it)
                print(f"hotdice: error: {message}", file=sys.stderr, flush=True)
            if args.json:  # line N stays photo N's
                print(json.dumps({"file": str(photo), "error": message}), flush=True)
            status = 2
            continue
        ruled = _ruled(args, context, dets)
        if args.json:
            print(_json_line(photo, dets, ms, ruled), flush=True)
        else:
            _print_text(context, photo, dets, ms, ruled)
    return status


def _write_annotated(photo: str, dets: Detections, image: np.ndarray, out: Path) -> None:
    """`--annotate`'s copy of a photo read, at the photo's full size."""
    if image.shape[1] != dets.size_wh[0]:  # decoded small for speed: draw full size
        with native_stderr_kept():  # (a damaged JPEG's lines: said once, when read)
            image = load_image(photo)
    write_image(out, annotate(image, PhotoReading(dets, image).on_image()))


def _a_pipe(source: str | int) -> bool:
    """Whether a camera source is a pipe, which cannot seek back."""
    try:
        return isinstance(source, str) and stat.S_ISFIFO(os.stat(source).st_mode)
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def _on_ctrl_c(handler: Callable[[int, Any], None] | int) -> Iterator[None]:
    """Ctrl-C handled by `handler` for a while (left as it is off the main thread, where
    none is set)."""
    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _heard_once(signum: int, frame: Any) -> None:
    """Ctrl-C, once: any pressed after it is ignored while the command winds down. Two
    pressed within a few milliseconds had raised the second inside the first's clean-up:
    a threading lock's release, the video's reader, interrupted (a traceback, at worst a
    crash; session 80's review)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def run_camera(args: argparse.Namespace, context: RulesContext) -> int:
    """`hotdice read --camera SOURCE`: print each settled roll until the stream ends."""
    source = _camera_source(args.camera)
    count = 0
    last_ms = [0.0]

    def timed_read(frame: np.ndarray) -> Detections:
        t0 = time.perf_counter()
        dets = read(frame, photo=False)  # (a frame of any size: the live loop's speed)
        last_ms[0] = (time.perf_counter() - t0) * 1000.0
        return dets

    frames = [0]

    def counted(stream: Iterator[np.ndarray | None]) -> Iterator[np.ndarray | None]:
        for frame in stream:
            if not frames[0]:  # (opened: the first roll's `ms` is then its reading's alone)
                warm_up()
            frames[0] += 1
            yield frame

    empty = 0  # (still scenes with no die: the table between two rolls)
    rates: list[float] = []
    video = video_frames(source, opened=rates.append)
    stream = counted(video)
    with _on_ctrl_c(_heard_once):  # (heard once: see `_heard_once`)
        try:
            first = list(itertools.islice(stream, 1))  # (the source opened: its rate is known)
            still = still_frames_at(rates[0] if rates else 0.0)
            rolls = settled_rolls(itertools.chain(first, stream), timed_read, still_frames=still)
            for roll in rolls:
                dets = roll.detections
                if not dets:  # (remembered as the scene, so the next dice are a new roll)
                    empty += 1
                    continue
                ruled = {**_ruled(args, context, dets), "frame": roll.frame_index}
                if args.json:
                    print(_json_line(str(args.camera), dets, last_ms[0], ruled), flush=True)
                else:
                    frame = f"roll at frame {roll.frame_index}"
                    _print_text(context, frame, dets, last_ms[0], ruled)
                count += 1
                if args.max_rolls and count >= args.max_rolls:
                    break
        except KeyboardInterrupt:
            # (a second Ctrl-C while the video's reading thread is stopped had printed a
            # traceback from the generator's clean-up: the first one is enough. The video
            # itself is closed, not what reads it: where Ctrl-C came in `counted`, say while
            # the networks load, that ended it and left the video to close later, unguarded)
            with _on_ctrl_c(signal.SIG_IGN):
                video.close()
                if open_given_up():  # (Python's shutdown would abort: see there)
                    with contextlib.suppress(OSError, ValueError):
                        sys.stdout.flush()
                    os._exit(0)
            return 0
    if not frames[0]:
        if _a_pipe(source):  # (`cat roll.mp4 | hotdice read --camera /dev/stdin`)
            raise ValueError(
                f"{args.camera}: no video frames (through a pipe, an MP4 or MOV cannot be "
                "read: its index is at its end; give its path, or pipe MJPEG, AVI or MKV)"
            )
        raise ValueError(f"{args.camera}: no video frames (not a camera or a video file)")
    if not count:
        if frames[0] == 1 and _a_photo(source):  # (OpenCV opens a JPEG as a one-frame video)
            raise ValueError(
                f"{args.camera}: a photo, not a video (--camera waits for dice to settle "
                f"over many frames): read it with hotdice read {shlex.quote(args.camera)}"
            )
        seen = " (the table lay still, but with no dice seen on it)" if empty else ""
        print(f"hotdice: no roll settled in {_count(frames[0], 'frame')}{seen}", file=sys.stderr)
        return 1
    return 0


# The first bytes of the still images OpenCV opens as a video of one frame
_PHOTO_MARKS = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"BM", b"II*\x00", b"MM\x00*")


def _a_photo(source: str | int) -> bool:
    """Whether a camera source is a plain file whose first bytes are a photo's (JPEG, PNG,
    WebP, BMP or TIFF). Not opened otherwise: a named pipe whose writer has gone would
    wait for another one for ever."""
    if not isinstance(source, str):
        return False
    try:
        if not stat.S_ISREG(os.stat(source).st_mode):
            return False
        with open(source, "rb") as file:
            head = file.read(12)
    except (OSError, ValueError):
        return False
    return head.startswith(_PHOTO_MARKS) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


class _Progress:
    """A one-line progress bar on stderr for long evaluations."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.t0 = time.perf_counter()
        self.open_line = False  # a bar drawn and not yet ended

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < 10:
            return
        self.open_line = done < total
        width = 30
        fill = round(width * done / total)
        rate = done / max(1e-9, time.perf_counter() - self.t0)
        end = "\n" if done == total else ""
        print(
            f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {rate:.1f} img/s",
            end=end,
            file=sys.stderr,
            flush=True,
        )

    def close(self) -> None:
        """End a bar cut short (an unreadable image), so the error gets a line of its own."""
        if self.open_line:
            print(file=sys.stderr, flush=True)
            self.open_line = False

    def say(self, message: str) -> None:
        """A warning on a line of its own, the bar drawn again below it at the next image."""
        self.close()
        _warn(message)


def _print_close_ups(directory: Path, as_json: bool) -> int:
    """`hotdice eval DIR --close-ups`: dice of the folder's photos blown up to fill a frame."""
    figures = close_ups(
        directory,
        load_image,
        read,
        not_read=lambda path, why: _warn(f"{path}: no close-ups made of it: {why}"),
    )
    if as_json:
        print(json.dumps({"close_ups": {str(f): fig for f, fig in figures.items()}}))
        return 0
    print(f"{directory}: close-ups, one labelled die at the centre of a 640x480 frame")
    for fraction, fig in figures.items():
        print(
            f"  die {fraction:.0%} of the frame's height: {fig['read_right']}/{fig['dice']} "
            f"read right ({fig['share']:.1%}), {fig['other_finds']} other finds"
        )
    return 0


def run_eval(args: argparse.Namespace, context: RulesContext) -> int:
    """Handler of `hotdice eval`."""
    _quiet_opencv()
    if args.directory == "":  # (Path("") is the current folder)
        raise ValueError("the folder path is empty")
    directory = Path(args.directory)
    if not stat.S_ISDIR(stat_path(directory, what="folder").st_mode):
        raise OSError(f"{directory}: not a folder (give the folder holding labels.json)")

    progress = _Progress(not args.no_progress and sys.stderr.isatty())  # (no \r in a log file)

    def read_file(path: Path) -> tuple[Detections, float]:
        dets, _, ms = read_photo(path, warn=progress.say)
        return dets, ms

    warm_up()
    if args.close_ups:
        return _print_close_ups(directory, args.json)
    try:
        results = evaluate(directory, read_file, progress=progress)
    finally:
        progress.close()
    summary = summarize(results)
    _print_eval(directory, summary, results, as_json=args.json)
    # (the figures stand for the rest; a photo that could not be measured is a bad input,
    # as it is to `hotdice read`: said on stderr, exit 2)
    for r in results:
        if r.unmeasured:
            print(f"hotdice: error: {directory / r.file}: {r.unmeasured}", file=sys.stderr)
    return 2 if any(r.unmeasured for r in results) else 0


def _print_eval(directory: Path, s: dict, results: list[ImageResult], *, as_json: bool) -> None:
    """`hotdice eval`'s figures on stdout: one JSON object, or lines for a person."""
    if as_json:
        print(json.dumps(s))
        return
    print(f"{directory}: {_count(s['images'], 'image')}")
    print(
        f"  dice labelled {s['dice_labelled']}, detected {s['dice_detected']}, "
        f"matched {s['dice_matched']}"
    )
    # (a share of none, null in the JSON: said so, not as a perfect score)
    precision = f"{s['precision']:.2%}" if s["dice_detected"] else "n/a (no die found)"
    recall = f"{s['recall']:.2%}" if s["dice_labelled"] else "n/a (no die labelled)"
    print(f"  precision {precision}  recall {recall}")
    if s["face_accuracy"] is None:
        print(
            "  face accuracy n/a (no die scored for its face: labels without boxes, or none found)"
        )
    else:
        print(f"  face accuracy {s['face_accuracy']:.2%} (matched dice, printed symbols left out)")
    print(f"  roll accuracy {s['roll_accuracy']:.2%} (whole roll's values exactly right)")
    asked = s["dice_asked"]
    print(
        f"  asked to check {asked} {'die' if asked == 1 else 'dice'} (read under {ASK_BELOW}); "
        f"{s['dice_wrong_unasked']} read wrong without asking"
    )
    print(
        f"  roll accuracy once the dice asked about are checked {s['roll_accuracy_once_asked']:.2%}"
    )
    if any(r.read for r in results):
        print(
            f"  ms per image: median {s['ms_median']:.1f}, 95th percentile {s['ms_p95']:.1f}"
            f" (networks run by {model.describe_engine()})"
        )
    else:
        print("  ms per image: n/a (no image could be read)")
    lines = list(failure_lines(results))
    if lines:
        print(f"  failures ({_count(len(lines), 'image')}):")
        for line in lines:
            print("    " + line)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def register(subparsers: argparse._SubParsersAction, context: RulesContext) -> None:
    """Add `read` and `eval` to the `hotdice` command line."""
    p = subparsers.add_parser(
        "read",
        help="read the dice in photos or a live camera",
        description="Read the top faces of the dice in photos or a camera.",
    )
    p.add_argument("photos", nargs="*", metavar="PHOTO", help="image files (JPEG, PNG, ...)")
    p.add_argument("--json", action="store_true", help="one JSON object per photo and line")
    p.add_argument("--annotate", metavar="OUT.png", help="write a copy with each die outlined")
    p.add_argument("--rules", metavar="NAME", help="also score the roll under these rules")
    p.add_argument("--target", type=int, help="target score for --rules")
    p.add_argument(
        "--coach",
        action="store_true",
        help="with --rules: rank the keeps by expected final turn score",
    )
    p.add_argument(
        "--camera",
        metavar="SOURCE",
        help="camera index (0) or video file: read each roll once it settles",
    )
    p.add_argument(
        "--max-rolls", type=int, default=0, help="with --camera: stop after N rolls (0: no limit)"
    )
    p.set_defaults(handler=lambda args: run_read(args, context))

    e = subparsers.add_parser(
        "eval",
        help="measure the dice reader on labelled photos",
        description="Measure the dice reader on a folder with labels.json.",
    )
    e.add_argument("directory", metavar="DIR", help="folder with images and labels.json")
    e.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    e.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    e.add_argument(
        "--close-ups",
        action="store_true",
        help="instead, read dice of the photos blown up to 30-90%% of a frame's height",
    )
    e.set_defaults(handler=lambda args: run_eval(args, context))


class _NoRules:
    """Context for running without the rules engine (development)."""

    NEEDED = "--rules needs the rules engine: run it as hotdice read"

    def score_report(self, rules: str, dice: Sequence[int], target: int | None) -> dict:
        raise ValueError(self.NEEDED)

    advice_report = score_report

    def score_text(self, report: dict) -> str:
        raise ValueError(self.NEEDED)

    advice_text = score_text

    def brief(self, message: str) -> str:
        return message


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m vision.cli read|eval ...`, with the same errors as `hotdice`."""
    parser = argparse.ArgumentParser(prog="hotdice")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub, _NoRules())
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except BrokenPipeError:  # (`| head`: the reader has what it wanted, as under `hotdice`)
        # (what Python still holds for the closed pipe goes to /dev/null, as `hotdice`'s
        # `_pipe_closed` does: flushed at exit it had said "Exception ignored", exit 120)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        return 0
    except (OSError, ValueError) as exc:
        print(f"hotdice: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
