"""``hotdice serve``: the scoresheet on waitress, with the LAN URL and its QR in the terminal."""

from __future__ import annotations

import argparse
import contextlib
import io
import ipaddress
import os
import signal
import socket
import sqlite3
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from companion.errors import brief

DEFAULT_PORT = 8000
THREADS = 8
CONNECTION_LIMIT = 200
"""Connections the server holds open at once (a phone keeps one or two): past it, waitress
stops accepting until some close. It was 1,000, which with the file descriptors the
process holds of its own had let a stranger's 1,000 idle connections crash the server (a
security review: "filedescriptor out of range in select()"); waitress now polls too."""


def lan_address() -> str:
    """The address other phones on the network can reach (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def everywhere(host: str) -> bool:
    """Whether ``host`` means every interface: an unspecified address however written
    ("0.0.0.0", "::", "::0", "0", "0.0"), or "*" (as waitress reads it): no phone opens
    a link to it."""
    bare = host.strip()
    bare = bare[1:-1] if bare.startswith("[") and bare.endswith("]") else bare
    if bare in ("", "*"):
        return True
    try:
        infos = socket.getaddrinfo(bare, None, flags=socket.AI_NUMERICHOST)
    except (OSError, UnicodeError):  # (a name, not an address)
        return False
    return any(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_unspecified for info in infos)


def public_url(host: str, port: int) -> str:
    """The URL to print: the LAN address when listening on all interfaces."""
    shown = lan_address() if everywhere(host) else host
    if ":" in shown and not shown.startswith("["):  # (an IPv6 address goes in brackets)
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def check_port_free(host: str, port: int) -> None:
    """Fail early with one line if the address is taken (waitress would leak its sockets)
    or the host name does not resolve (getaddrinfo's own message does not name it)."""
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError as exc:  # (socket.gaierror)
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except UnicodeError:  # (the IDNA codec's, for a label over 63 characters)
        raise ValueError(f"cannot listen on {host}:{port}: not a valid host name") from None
    family, kind, proto, _name, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(addr)
        except OSError as exc:
            raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def print_banner(url: str, out: TextIO) -> None:
    """The URL and a terminal QR code of it, so phones can scan the laptop's screen."""
    import qrcode

    qr = qrcode.QRCode(border=2)
    qr.add_data(url)
    drawn = io.StringIO()
    qr.print_ascii(out=drawn, invert=True)
    out.write(f"hotdice scoresheet: {url}\nScan to open it on a phone:\n")
    try:
        # (checked strictly: `hotdice` writes "?" for what its output cannot encode, a QR
        # of question marks, which no phone can scan)
        drawn.getvalue().encode(getattr(out, "encoding", None) or "utf-8")
        out.write(drawn.getvalue())
    except (UnicodeEncodeError, LookupError):
        out.write("(this terminal cannot draw the QR code)\n")
    out.write("Press Ctrl+C to stop.\n")
    out.flush()


def _whole_number(what: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`, refused in one line."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a {what}: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be {low} to {high}, not {value}")
        return value

    return parse


# a TCP port; worker threads (with none, waitress queues every request and never answers)
port_number = _whole_number("port", 1, 65535)
thread_count = _whole_number("number of threads", 1, 256)


WAITRESS_BODY_LIMIT = 1 << 30  # waitress's own default


def body_limit(upload_limit: int | None) -> int:
    """The body size waitress refuses from its header, before reading a byte of it: twice
    the app's upload limit. A body a little over that limit is still read and gets the
    app's JSON 413 naming the limit; a far bigger one (a gigabyte, by default) would fill
    the server's disk with a temporary file first, for the same answer."""
    return WAITRESS_BODY_LIMIT if upload_limit is None else 2 * upload_limit


def build_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of `hotdice serve`."""
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    parser.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help="port (default 8000)"
    )
    parser.add_argument(
        "--db", metavar="PATH", help="SQLite file (default: hotdice.sqlite in the instance folder)"
    )
    parser.add_argument(
        "--threads", type=thread_count, default=THREADS, help="worker threads (default 8)"
    )
    return parser


def run_serve(args: argparse.Namespace) -> int:
    """Start waitress (a production WSGI server) on the app; returns when stopped."""
    import waitress

    from . import SecretKeyError, create_app, photos
    from .db import fold_log_in

    if not args.host.strip():
        raise ValueError("--host: the address is empty (0.0.0.0 listens on every network)")
    if args.db is not None and not args.db.strip():
        raise ValueError("--db: the database path is empty")
    check_port_free(args.host, args.port)  # (before the database or its folder is made)
    config: dict[str, Any] = {"DB_REUSE": True, "PUBLIC_URL": public_url(args.host, args.port)}
    if args.db:
        db = os.path.abspath(args.db)
        if os.path.exists(db) and not os.path.isfile(db):  # (SQLite would open /dev/full,
            # and leave its journal beside it)
            raise ValueError(f"--db: {args.db} is not a file (the database is one SQLite file)")
        folder = os.path.dirname(db)
        try:
            os.makedirs(folder, exist_ok=True)
        except FileExistsError as exc:
            raise OSError(f"--db: {folder} is a file, not a folder") from exc
        except OSError as exc:
            raise OSError(f"--db: cannot make the folder {folder}: {exc.strerror or exc}") from exc
        config["DATABASE"] = db
    try:
        app = create_app(config)
    except SecretKeyError:
        raise
    except (OSError, sqlite3.Error) as exc:
        where = config.get("DATABASE") or "in its folder"  # (HOTDICE_INSTANCE: exc names it)
        raise OSError(f"cannot open the database {where}: {exc}") from exc
    try:
        server = waitress.create_server(
            app,
            host=args.host,
            port=args.port,
            threads=args.threads,
            connection_limit=CONNECTION_LIMIT,
            asyncore_use_poll=True,  # (select() cannot take a socket numbered past 1,023)
            channel_timeout=60,
            ident="hotdice",
            max_request_body_size=body_limit(app.config.get("MAX_CONTENT_LENGTH")),
        )
    except OSError as exc:
        raise OSError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from exc
    warm_up: threading.Thread | None = None
    served = False
    try:
        try:
            print_banner(config["PUBLIC_URL"], sys.stdout)
        except BrokenPipeError:  # (`hotdice serve | head -1`: the URL was taken; serve on)
            sys.stdout = open(os.devnull, "w")  # (for the process's life)
        warm_up = photos.warm_up_in_background()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, _stop_as_ctrl_c)
        server.run()  # (waitress catches a Ctrl+C itself, and returns)
        served = True
    except KeyboardInterrupt:
        served = True
    finally:
        try:
            server.close()
            fold_log_in(app.config["DATABASE"])  # (the file whole: a copy is a backup)
        finally:
            if warm_up is not None:
                finish(warm_up, status=0 if served else 2)
    return 0  # (Ctrl+C is how a server is stopped, as `read --camera` is: as meant)


def _stop_as_ctrl_c(_signum: int, _frame: object) -> None:
    """A service manager's stop (systemd, ``docker stop``, ``kill``: SIGTERM) taken as a
    Ctrl+C: the server closes and folds its log into the file, where it had ended at once,
    the games since the log's last checkpoint in ``-wal`` alone (a review)."""
    raise KeyboardInterrupt


WARM_UP_WAIT = 30.0
"""Seconds a stopped server waits for its warm-up to end (it takes under one)."""


def finish(thread: threading.Thread, *, status: int) -> None:
    """Let `thread` end before the process does. The warm-up runs OpenCV and ONNX Runtime
    in native code, and a process that exits while it is mid-read is aborted by the C++
    runtime (exit 134, "terminate called without an active exception"), as a Ctrl+C in
    the server's first half second did. A warm-up still running after `WARM_UP_WAIT`, or
    a second Ctrl+C, ends the process at once with `status` (`os._exit`: no teardown to
    abort; every game action was committed as it was answered)."""
    try:
        thread.join(WARM_UP_WAIT)
    except KeyboardInterrupt:
        pass
    if thread.is_alive():
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(status)


def register(subparsers: argparse._SubParsersAction, context: Any = None) -> None:
    """Plug ``serve`` into the ``hotdice`` command (entry point ``web.cli:register``)."""
    p = subparsers.add_parser("serve", help="serve the shared phone scoresheet on the network")
    build_parser(p)
    p.set_defaults(handler=run_serve)


def main(argv: list[str] | None = None) -> int:
    """``python -m web.cli serve ...`` without the ``hotdice`` command."""
    parser = argparse.ArgumentParser(prog="hotdice")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    try:
        args = parser.parse_args(argv)
        return int(args.handler(args))
    except (OSError, ValueError) as exc:
        print(f"hotdice: error: {brief(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # (a Ctrl+C as it starts: quiet, as `hotdice serve`'s)
        return 130


if __name__ == "__main__":
    sys.exit(main())
