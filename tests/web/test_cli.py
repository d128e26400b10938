"""``hotdice serve`` wiring, and the exported log read back by ``hotdice replay``."""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import free_port
from web import cli, photos

if TYPE_CHECKING:
    from tests.web.conftest import GameActions, Server

ROOT = Path(__file__).resolve().parents[2]


def test_serve_is_registered_with_its_options() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    cli.register(sub, None)
    args = parser.parse_args(["serve", "--port", "9001", "--db", "x.sqlite"])
    assert (args.host, args.port, args.db) == ("0.0.0.0", 9001, "x.sqlite")
    assert args.handler is cli.run_serve
    defaults = parser.parse_args(["serve"])
    assert defaults.port == 8000 and defaults.db is None


def test_banner_prints_url_and_qr() -> None:
    out = io.StringIO()
    cli.print_banner("http://192.168.1.20:8000/", out)
    text = out.getvalue()
    assert "http://192.168.1.20:8000/" in text and "█" in text


def test_public_url_uses_the_lan_address_for_all_interfaces() -> None:
    assert cli.public_url("127.0.0.1", 8123) == "http://127.0.0.1:8123/"
    assert cli.public_url("::1", 8123) == "http://[::1]:8123/"  # (a link a phone can open)
    assert cli.public_url("[::1]", 8123) == "http://[::1]:8123/"
    assert cli.public_url("0.0.0.0", 8000).startswith("http://")
    assert ":8000/" in cli.public_url("0.0.0.0", 8000)


def test_bad_port_fails_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ["notaport", "99999", "0"]:
        with pytest.raises(SystemExit):
            cli.main(["serve", "--port", bad])
    assert "1 to 65535" in capsys.readouterr().err


def test_an_empty_db_path_is_an_error_not_the_default_database(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["serve", "--db", " "]) == 2
    assert capsys.readouterr().err.strip() == "hotdice: error: --db: the database path is empty"


def test_a_db_path_that_is_no_file_is_refused_before_sqlite_opens_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """SQLite opened /dev/full, and left /dev/full-journal behind."""
    for path in (os.devnull, str(tmp_path)):
        port = str(free_port())
        assert cli.main(["serve", "--host", "127.0.0.1", "--port", port, "--db", path]) == 2
        err = capsys.readouterr().err
        assert (
            err == f"hotdice: error: --db: {path} is not a file (the database is one SQLite file)\n"
        )
    assert not os.path.exists(os.devnull + "-journal") and list(tmp_path.iterdir()) == []


def test_a_db_folder_that_cannot_be_made_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--db under a file: the error says which folder and why, not a bare errno line."""
    a_file = tmp_path / "a.sqlite"
    a_file.write_bytes(b"")
    for db, said in (
        (a_file / "x.sqlite", f"--db: {a_file} is a file, not a folder"),
        (a_file / "sub" / "x.sqlite", f"--db: cannot make the folder {a_file / 'sub'}: "),
    ):
        port = str(free_port())
        assert cli.main(["serve", "--host", "127.0.0.1", "--port", port, "--db", str(db)]) == 2
        assert capsys.readouterr().err.startswith(f"hotdice: error: {said}")


def test_a_relative_instance_folder_is_the_working_directorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HOTDICE_INSTANCE=data works as --db data/x.sqlite does (Flask refused it: "must be
    absolute")."""
    from web import create_app

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOTDICE_INSTANCE", "data")
    assert create_app({"TESTING": True}).instance_path == str(tmp_path / "data")
    assert (tmp_path / "data").is_dir()


def _serve(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`hotdice serve` started on a free loopback port, its output and errors piped, and
    its banner's first line read (printed and flushed just before the warm-up starts)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOTDICE_INSTANCE=str(tmp_path / "instance"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1"]
        + ["--port", str(port), "--db", str(tmp_path / "x.sqlite")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    banner = proc.stdout.readline()
    if not banner.startswith(b"hotdice scoresheet: "):
        _stopped(proc)
        raise AssertionError(f"no banner: {banner!r}")
    return proc, port


def _stopped(proc: subprocess.Popen[bytes], *, ctrl_c: bool = False) -> tuple[int, bytes]:
    """`proc` ended (by a Ctrl+C first, if asked; killed if it has not ended within a
    minute) and its pipes closed: its exit status and what it wrote to standard error."""
    try:
        if ctrl_c:
            proc.send_signal(signal.SIGINT)
        if proc.stdout is not None and proc.stdout.closed:
            proc.stdout = None  # (closed by the test: nothing left to read from it)
        _, err = proc.communicate(timeout=60)
        return proc.returncode, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("wait", [0.0, 0.3])
def test_ctrl_c_as_the_server_warms_up_stops_it_quietly(tmp_path: Path, wait: float) -> None:
    """A Ctrl+C in the server's first half second, while the warm-up thread is reading
    in OpenCV's and ONNX Runtime's native code, aborted the process (exit 134, "terminate
    called without an active exception"). Now it stops the server as any Ctrl+C does:
    status 0, as meant, nothing on standard error."""
    proc, _ = _serve(tmp_path)
    time.sleep(wait)
    assert _stopped(proc, ctrl_c=True) == (0, b"")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_server_leaves_its_games_in_the_database_file_alone(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """A phone keeps its connection open between polls, and a server stopped so had left
    every game in the write-ahead log beside the file: a copy of the file alone held no
    games, and a backup put back beside that log was damaged by it. The log is folded into
    the file as the server stops, by a Ctrl+C or a service manager's SIGTERM (which had
    ended it at once). (Held open here by a connection of the test's own, idle,
    which keeps SQLite from folding the log in as the server's last connection closes.)"""
    proc, port = _serve(tmp_path)
    phone = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    held = sqlite3.connect(tmp_path / "x.sqlite")
    held.execute("SELECT COUNT(*) FROM games").fetchone()  # (its log opened: SQLite's lazy)
    try:
        made = []
        for k in range(8):  # (each from a connection of its own, as several phones)
            body = json.dumps({"rules": "farkle", "players": ["Ann", f"Bob{k}"]}).encode()
            ask = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/games",
                data=body,
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(ask, timeout=30) as answer:
                made.append(json.loads(answer.read())["id"])
        phone.request("GET", f"/api/games/{made[0]}")  # (and left open, as a phone's is)
        assert phone.getresponse().read()
    finally:
        proc.send_signal(stop)
        status = _stopped(proc)
        phone.close()
        alone = tmp_path / "copy" / "x.sqlite"
        alone.parent.mkdir()
        alone.write_bytes((tmp_path / "x.sqlite").read_bytes())  # (no -wal copied beside it)
        held.close()
    assert status == (0, b"")
    conn = sqlite3.connect(alone)
    try:
        assert sorted(row[0] for row in conn.execute("SELECT id FROM games")) == sorted(made)
    finally:
        conn.close()


def _wait_for_an_answer(proc: subprocess.Popen[bytes], port: int, *, within: float) -> None:
    """Wait until the server at `port` answers a request, `proc` still running."""
    deadline = time.monotonic() + within
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules", timeout=2) as answer:
                assert answer.status == 200
            return
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)


def test_a_thousand_idle_connections_do_not_bring_the_server_down(tmp_path: Path) -> None:
    """A stranger on the Wi-Fi opening 1,000 connections and sending nothing had crashed
    the server ("filedescriptor out of range in select()": a security review); it holds at
    most `CONNECTION_LIMIT` and polls, and answers again once they close."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this machine lets a process open only {hard} files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    proc, port = _serve(tmp_path)
    idle: list[socket.socket] = []
    try:
        for _ in range(1100):
            conn = socket.socket()
            conn.setblocking(False)
            conn.connect_ex(("127.0.0.1", port))
            idle.append(conn)
        time.sleep(2)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else b""
        for conn in idle:
            conn.close()
        idle.clear()
        _wait_for_an_answer(proc, port, within=30)
    finally:
        for conn in idle:
            conn.close()
        code, err = _stopped(proc, ctrl_c=True)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    # (waitress's own line, "total open connections reached the connection limit", said)
    assert code == 0 and b"Traceback" not in err and b"select()" not in err, err


def test_a_server_whose_output_is_closed_serves_on(tmp_path: Path) -> None:
    """`hotdice serve | head -1` takes the URL and closes the pipe: the rest of the banner
    (the QR code) meets a broken pipe, which quietly ended the server with status 0."""
    proc, port = _serve(tmp_path)
    try:
        assert proc.stdout is not None
        proc.stdout.close()
        _wait_for_an_answer(proc, port, within=20)
    finally:
        status = _stopped(proc, ctrl_c=True)
    assert status == (0, b"")


def test_bad_thread_count_fails_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ["0", "-3", "many", "100000"]:
        with pytest.raises(SystemExit):
            cli.main(["serve", "--threads", bad])
    lines = capsys.readouterr().err.strip().splitlines()
    errors = [line for line in lines if "error:" in line]
    assert len(errors) == 4 and "Traceback" not in "".join(lines)
    assert "threads must be 1 to 256" in errors[0] and "not a number of threads" in errors[2]


def test_port_in_use_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOTDICE_INSTANCE", str(tmp_path / "instance"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status = cli.main(
            [
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "x.sqlite"),
            ]
        )
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("hotdice: error: cannot listen on") and err.count("\n") == 1


def test_a_host_that_does_not_resolve_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """getaddrinfo's own message ("[Errno -2] Name or service not known") named no host."""
    monkeypatch.setenv("HOTDICE_INSTANCE", str(tmp_path / "instance"))
    db = str(tmp_path / "new" / "x.sqlite")
    for host, reason in (("bogus.invalid", ""), ("a" * 64 + ".example", "not a valid host name")):
        assert cli.main(["serve", "--host", host, "--port", "8123", "--db", db]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"hotdice: error: cannot listen on {host}:8123: {reason}"), err
        assert err.count("\n") == 1 and "Errno" not in err and "idna" not in err
    assert cli.main(["serve", "--host", "", "--db", db]) == 2
    assert capsys.readouterr().err.startswith("hotdice: error: --host: the address is empty")
    assert not (tmp_path / "new").exists()  # refused before the database or its folder is made


def test_an_instance_folder_that_cannot_be_made_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --db the database goes in HOTDICE_INSTANCE: the error said "the database :"."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("HOTDICE_INSTANCE", str(blocker / "instance"))
    with socket.socket() as probe:  # (a free port: the address is checked first)
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hotdice: error: cannot open the database in its folder: ")
    assert str(blocker / "instance") in err and err.count("\n") == 1


def test_exported_log_replays_with_hotdice_replay(tmp_path: Path, game: GameActions) -> None:
    game.create("minnesota+the-420", ["Ann", "Bob"], target=5000)
    game.score("Ann", 1000)
    game.event({"type": "roll", "dice": [1, 5, 2, 2, 3]})
    game.event({"type": "keep", "dice": [1, 5]})
    log = game.client.get(f"/api/games/{game.id}/log?download=1").get_data()
    path = tmp_path / "game.json"
    path.write_bytes(log)
    out = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", "--json", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == game.get()["state"]


def test_serve_option_bounds_and_defaults() -> None:
    """The ends of each range are allowed and just past them refused; threads default to 8."""
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers(dest="command"), None)
    args = parser.parse_args(["serve", "--port", "1", "--threads", "1"])
    assert (args.port, args.threads) == (1, 1)
    args = parser.parse_args(["serve", "--port", "65535", "--threads", "256"])
    assert (args.port, args.threads) == (65535, 256)
    assert parser.parse_args(["serve"]).threads == 8
    with pytest.raises(argparse.ArgumentTypeError, match="port must be 1 to 65535, not 65536"):
        cli.port_number("65536")


def test_a_blank_host_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Spaces are no address either (getaddrinfo would give its own, unnamed error)."""
    assert cli.main(["serve", "--host", "  "]) == 2
    assert capsys.readouterr().err.startswith("hotdice: error: --host: the address is empty")


def test_public_url_and_lan_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """IPv6's any-address is shown as the LAN address too; without a route the LAN address
    falls back to the loopback one."""
    assert not cli.public_url("::", 8000).startswith("http://::")
    monkeypatch.setattr(socket.socket, "connect", lambda self, addr: None)
    monkeypatch.setattr(socket.socket, "getsockname", lambda self: ("192.0.2.7", 5000))
    assert cli.lan_address() == "192.0.2.7"

    def unreachable(self: socket.socket, addr: object) -> None:
        raise OSError("Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", unreachable)
    assert cli.lan_address() == "127.0.0.1"


@pytest.mark.parametrize("host", ["0", "*", "::0", "[::0]", "0:0:0:0:0:0:0:0", "0.0", " 0.0.0.0 "])
def test_every_spelling_of_all_interfaces_prints_the_lan_address(
    host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--host 0` (and "*", "::0") printed http://0:8000/ and a QR of it: no phone opens it."""
    monkeypatch.setattr(cli, "lan_address", lambda: "192.0.2.7")
    assert cli.public_url(host, 8000) == "http://192.0.2.7:8000/"
    for named in ("127.0.0.1", "10.0.0.5", "localhost", "::1"):
        assert not cli.everywhere(named)


def test_banner_to_an_output_that_replaces_what_it_cannot_encode_says_so() -> None:
    """`hotdice` sets its output to write "?" for a character it cannot encode
    (`PYTHONIOENCODING=ascii`): the QR came out as blocks of question marks."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", errors="replace")
    cli.print_banner("http://10.0.0.2:8000/", out)
    text = raw.getvalue().decode("ascii")
    assert "(this terminal cannot draw the QR code)\n" in text and "?" not in text
    assert text.startswith("hotdice scoresheet: http://10.0.0.2:8000/\n")
    assert text.endswith("Press Ctrl+C to stop.\n")


def test_ctrl_c_as_python_m_web_serve_starts_is_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m web serve` printed a KeyboardInterrupt traceback for a Ctrl+C during its
    start-up, where `hotdice serve` ends with status 130 and nothing said."""

    def interrupted(host: str, port: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "check_port_free", interrupted)
    assert cli.main(["serve", "--host", "127.0.0.1"]) == 130
    assert capsys.readouterr() == ("", "")


def test_banner_without_unicode_says_so() -> None:
    """A terminal that cannot encode the QR's blocks gets a line saying so, then the rest."""

    class Ascii(io.StringIO):
        def write(self, text: str) -> int:
            text.encode("ascii")
            return super().write(text)

    out = Ascii()
    cli.print_banner("http://10.0.0.2:8000/", out)
    text = out.getvalue()
    assert "(this terminal cannot draw the QR code)\n" in text
    assert text.endswith("Press Ctrl+C to stop.\n")


def test_serve_passes_its_options_to_waitress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--threads reaches waitress, a relative --db becomes an absolute path in a folder
    made for it, the banner goes to standard output and the reader is warmed up.
    (waitress and the warm-up are stubbed.)"""
    import waitress

    seen: dict = {}

    class Server:
        def run(self) -> None:
            seen["ran"] = True

        def close(self) -> None:
            seen["closed"] = True

    def create_server(app: object, **options: object) -> Server:
        seen["app"], seen["options"] = app, options
        return Server()

    monkeypatch.setattr(waitress, "create_server", create_server)

    def warm_up() -> threading.Thread:
        seen["warmed"] = True
        done = threading.Thread(target=lambda: None)
        done.start()
        return done

    monkeypatch.setattr(photos, "warm_up_in_background", warm_up)
    monkeypatch.chdir(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = ["serve", "--host", "127.0.0.1", "--port", str(port), "--threads", "3"]
    assert cli.main([*argv, "--db", "new/x.sqlite"]) == 0
    out, err = capsys.readouterr()
    assert seen["options"]["threads"] == 3 and seen["ran"] and seen["closed"] and seen["warmed"]
    # (select() cannot take a socket numbered past 1,023: idle connections had crashed it)
    assert seen["options"]["asyncore_use_poll"] is True
    assert seen["options"]["connection_limit"] <= 200
    assert seen["app"].config["DATABASE"] == str(tmp_path / "new" / "x.sqlite")
    assert (tmp_path / "new").is_dir() and err == ""
    assert out.startswith(f"hotdice scoresheet: http://127.0.0.1:{port}/\n")


def _post_head(server: Server, length: int, body: bytes = b"") -> bytes:
    """What the server answers to a photo upload announcing ``length`` bytes and sending
    only ``body`` of them (the answer's status line and headers)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as conn:
        conn.sendall(
            b"POST /api/read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + f"Content-Length: {length}\r\n\r\n".encode()
            + body
        )
        answer = b""
        while b"\r\n\r\n" not in answer and (more := conn.recv(4096)):
            answer += more
        return answer


def test_a_huge_upload_is_refused_from_its_header(server: Server) -> None:
    """A body far over the upload limit is refused before a byte of it is read (waitress's
    own limit, twice the app's): waitress would otherwise spool up to a gigabyte to disk
    for the same 413. One a little over the app's limit still gets the app's JSON."""
    limit = cli.body_limit(20 * 1024 * 1024)
    assert limit == 40 * 1024 * 1024
    assert _post_head(server, 900_000_000).startswith(b"HTTP/1.1 413")  # (no body sent)
    just_over = 20 * 1024 * 1024 + 1
    answer = _post_head(server, just_over, b"\0" * just_over)
    assert answer.startswith(b"HTTP/1.1 413") and b"application/json" in answer


def test_a_json_body_sent_in_chunks_is_held_to_its_limit(server: Server) -> None:
    """A body with no declared length (chunked) is cut off at the JSON limit as it is read,
    not parsed whole: the game it was sent to is untouched and still answers."""
    made = json.loads(
        _request(server, "POST", "/api/games", b'{"rules": "farkle", "players": ["Ann", "Bob"]}')
    )
    filler = b",".join([b"[[[[[1]]]]]"] * 200_000)  # (2.4 MB, within the depth limit)
    body = b'{"version": 0, "event": {"type": "bank"}, "x": [' + filler + b"]}"
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    chunks = (body[i : i + 65536] for i in range(0, len(body), 65536))
    conn.request(
        "POST",
        f"/api/games/{made['id']}/events",
        body=chunks,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {made['token']}"},
        encode_chunked=True,
    )
    resp = conn.getresponse()
    assert resp.status == 413
    assert json.loads(resp.read())["error"] == "JSON body too large: at most 64 KB"
    conn.close()
    assert json.loads(_request(server, "GET", f"/api/games/{made['id']}"))["version"] == 0


def _request(server: Server, method: str, path: str, body: bytes | None = None) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
    data = conn.getresponse().read()
    conn.close()
    return data


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('DB_SYNCHRONOUS = "FULL', "config.py line 1: unterminated string literal"),
        ("DB_SYNCHRONOUS = FULL", "config.py line 1: NameError: name 'FULL' is not defined"),
        ('HEAVY_AT_ONCE = "2"', "config.py: HEAVY_AT_ONCE = '2': must be a whole number"),
        ("HEAVY_AT_ONCE = 0", "config.py: HEAVY_AT_ONCE = 0: must be a whole number"),
        ('MAX_CONTENT_LENGTH = "20MB"', "config.py: MAX_CONTENT_LENGTH = '20MB': must be a whole"),
        ("POLL_MS = 0.5", "config.py: POLL_MS = 0.5: must be a whole number of milliseconds"),
        ('DB_SYNCHRONOUS = "FUL"', "config.py: DB_SYNCHRONOUS = 'FUL': must be one of \"OFF\""),
        ("DB_SYNCHRONOUS = 2", "config.py: DB_SYNCHRONOUS = 2: must be one of"),
    ],
)
def test_a_mistake_in_config_py_is_one_line_naming_it(
    line: str,
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README has users edit instance/config.py: a syntax error there was a 26-line
    traceback (exit 1), a setting of the wrong type a TypeError's, "20MB" a message that
    named neither the file nor the setting, and "FUL" was taken, SQLite staying NORMAL."""
    import waitress

    def create_server(app: object, **options: object) -> object:
        raise AssertionError("served despite config.py")

    monkeypatch.setattr(waitress, "create_server", create_server)
    (tmp_path / "config.py").write_text(line + "\n", encoding="utf-8")
    monkeypatch.setenv("HOTDICE_INSTANCE", str(tmp_path))
    port = str(free_port())
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hotdice: error: {tmp_path / said}") and err.count("\n") == 1
    assert not (tmp_path / "hotdice.sqlite").exists()  # (refused before the database)


def test_config_py_synchronous_is_read_in_any_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from web import create_app
    from web.db import get_db

    (tmp_path / "config.py").write_text('DB_SYNCHRONOUS = "full"\nMAX_JSON_SIZE = None\n')
    monkeypatch.setenv("HOTDICE_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SECRET_KEY": "test"})
    assert app.config["DB_SYNCHRONOUS"] == "FULL" and app.config["MAX_JSON_SIZE"] is None
    with app.app_context():
        assert get_db().execute("PRAGMA synchronous").fetchone()[0] == 2  # (FULL)
