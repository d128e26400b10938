"""``hotdice serve``: the scoresheet on waitress, with the LAN URL and its QR in the terminal."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import Any, TextIO

DEFAULT_PORT = 8000
THREADS = 8
CONNECTION_LIMIT = 1000


def lan_address() -> str:
    """The address other phones on the network can reach (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def public_url(host: str, port: int) -> str:
    """The URL to print: the LAN address when listening on all interfaces."""
    shown = lan_address() if host in ("0.0.0.0", "", "::") else host
    return f"http://{shown}:{port}/"


def print_banner(url: str, out: TextIO) -> None:
    """The URL and a terminal QR code of it, so phones can scan the laptop's screen."""
    import qrcode

    qr = qrcode.QRCode(border=2)
    qr.add_data(url)
    out.write(f"hotdice scoresheet: {url}\nScan to open it on a phone:\n")
    try:
        qr.print_ascii(out=out, invert=True)
    except UnicodeEncodeError:
        out.write("(this terminal cannot draw the QR code)\n")
    out.write("Press Ctrl+C to stop.\n")
    out.flush()


def build_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8000)")
    parser.add_argument("--db", metavar="PATH",
                        help="SQLite file (default: hotdice.sqlite in the instance folder)")
    parser.add_argument("--threads", type=int, default=THREADS, help="worker threads (default 8)")
    return parser


def run_serve(args: argparse.Namespace) -> int:
    """Start waitress (a production WSGI server) on the app; returns when stopped."""
    import waitress

    from . import create_app

    config: dict[str, Any] | None = None
    if args.db:
        db = os.path.abspath(args.db)
        if os.path.dirname(db):
            os.makedirs(os.path.dirname(db), exist_ok=True)
        config = {"DATABASE": db}
    try:
        app = create_app(config)
    except OSError as exc:
        raise OSError(f"cannot open the database: {exc}") from exc
    print_banner(public_url(args.host, args.port), sys.stdout)
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                   connection_limit=CONNECTION_LIMIT, channel_timeout=60,
                   ident="hotdice", _quiet=False)
    return 0


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
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except (OSError, ValueError) as exc:
        print(f"hotdice: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
