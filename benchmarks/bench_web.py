"""Load benchmark (not a test): many simulated phones against a real ``hotdice serve``.

Each phone keeps one HTTP/1.1 keep-alive connection (connected again after a 304, which
waitress answers with ``Connection: close``), polls its game every second with
``If-None-Match`` (304 when nothing changed), fetches the sheet fragment when the version
moves, and writes a turn ("score" event) when its player is up, every few seconds. Loopback
only, bounded in time; prints requests per second, latency percentiles and every error.

    python benchmarks/bench_web.py                      # 50 games x 6 phones, 30 s
    python benchmarks/bench_web.py --games 10 --phones 4 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class Conn:
    """A minimal keep-alive HTTP/1.1 client on asyncio streams (no extra dependency)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        for k, v in (headers or {}).items():
            lines.append(f"{k}: {v}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            await self.close()
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        hdrs: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            k, _, v = line.decode("latin-1").partition(":")
            hdrs[k.strip().lower()] = v.strip()
        data = b""
        if hdrs.get("transfer-encoding") == "chunked":
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                data += chunk[:-2]
        elif "content-length" in hdrs:
            data = await self.reader.readexactly(int(hdrs["content-length"]))
        if hdrs.get("connection") == "close":
            await self.close()
        return status, hdrs, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: Counter[str] = Counter()
        self.errors: list[str] = []
        self.recording = False

    def add(self, kind: str, seconds: float, status: int) -> None:
        if self.recording:
            self.latency[kind].append(seconds)
            self.status[f"{kind} {status}"] += 1
            if status >= 400 and status != 409:
                self.errors.append(f"{kind}: HTTP {status}")


async def timed(
    stats: Stats,
    kind: str,
    conn: Conn,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes = b"",
) -> tuple[int, dict[str, str], bytes]:
    start = time.perf_counter()
    try:
        out = await conn.request(method, path, headers, body)
    except (OSError, ConnectionError, asyncio.IncompleteReadError) as exc:
        if stats.recording:
            stats.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
        await conn.close()
        raise
    stats.add(kind, time.perf_counter() - start, out[0])
    return out


async def phone(
    host: str,
    port: int,
    game: dict[str, Any],
    me: str,
    stats: Stats,
    stop: float,
    poll: float,
    write_every: float,
) -> None:
    """Poll every ``poll`` s; when my player is up, wait a few seconds and bank a turn."""
    conn = Conn(host, port)
    gid, token = game["id"], game["token"]
    etag, version, state = "", -1, None
    next_write = 0.0
    await asyncio.sleep(random.random() * poll)
    try:
        while time.monotonic() < stop:
            tick = time.monotonic()
            try:
                status, hdrs, data = await timed(
                    stats,
                    "poll",
                    conn,
                    "GET",
                    f"/api/games/{gid}",
                    {"If-None-Match": etag} if etag else {},
                )
                if status == 200:
                    etag = hdrs.get("etag", "")
                    body = json.loads(data)
                    if body["version"] != version:
                        version, state = body["version"], body["state"]
                        await timed(stats, "sheet", conn, "GET", f"/g/{gid}/sheet")
                        if state["current_player"] == me:
                            next_write = time.monotonic() + write_every * (0.5 + random.random())
                if (
                    state
                    and state["current_player"] == me
                    and next_write
                    and (time.monotonic() >= next_write)
                ):
                    next_write = 0.0
                    event = {
                        "type": "score",
                        "player": me,
                        "points": random.choice([0, 300, 350, 500, 650, 1000]),
                    }
                    payload = json.dumps({"version": version, "event": event}).encode()
                    await timed(
                        stats,
                        "write",
                        conn,
                        "POST",
                        f"/api/games/{gid}/events",
                        {"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
                        payload,
                    )
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                pass
            await asyncio.sleep(max(0.0, poll - (time.monotonic() - tick)))
    finally:
        await conn.close()


def new_game(phones: int) -> dict[str, Any]:
    """The body that creates one benchmark game: a target (the highest the server takes)
    that no run of writes of at most 1,000 points reaches, so no game ends mid-run."""
    return {
        "rules": "ten-thousand",
        "target": 1_000_000,
        "players": [f"P{i + 1}" for i in range(phones)],
    }


def create_games(url: str, n: int, phones: int) -> list[dict[str, Any]]:
    games = []
    for _ in range(n):
        req = urllib.request.Request(
            url + "/api/games",
            method="POST",
            data=json.dumps(new_game(phones)).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            games.append(json.load(resp))
    return games


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))] * 1000


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), to report the server's cost."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(
    args: argparse.Namespace, host: str, port: int, games: list[dict[str, Any]], pid: int
) -> Stats:
    stats = Stats()
    start = time.monotonic()
    stop = start + args.warmup + args.seconds
    tasks = [
        asyncio.create_task(
            phone(host, port, g, f"P{i + 1}", stats, stop, args.poll, args.write_every)
        )
        for g in games
        for i in range(args.phones)
    ]
    await asyncio.sleep(args.warmup)
    stats.recording = True
    t0, cpu0 = time.monotonic(), cpu_seconds(pid)
    await asyncio.gather(*tasks)
    stats.recording = False
    stats.elapsed = time.monotonic() - t0  # type: ignore[attr-defined]
    cpu1 = cpu_seconds(pid)
    stats.server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0  # type: ignore
    return stats


Started = tuple[subprocess.Popen[bytes], str, int, tempfile.TemporaryDirectory[str]]


def start_server(threads: int) -> Started:
    tmp = tempfile.TemporaryDirectory(prefix="hotdice-bench-")
    # (its games all come from this one address: the server's limit of games made a
    # minute, 30, had ended the default run at its 31st with a 429)
    Path(tmp.name, "config.py").write_text("GAMES_PER_MINUTE = None\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOTDICE_INSTANCE=tmp.name)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "web.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            os.path.join(tmp.name, "bench.sqlite"),
            "--threads",
            str(threads),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(url + "/api/rules", timeout=1) as resp:
                resp.read()
            return proc, "127.0.0.1", port, tmp
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--phones", type=int, default=6, help="phones per game")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--poll", type=float, default=1.0, help="poll interval of each phone (s)")
    ap.add_argument(
        "--write-every",
        type=float,
        default=3.0,
        help="mean seconds a phone waits before banking its turn",
    )
    ap.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    args = ap.parse_args()
    args.seconds = min(args.seconds, 300.0)
    proc, host, port, tmp = start_server(args.threads)
    try:
        games = create_games(f"http://{host}:{port}", args.games, args.phones)
        stats = asyncio.run(run(args, host, port, games, proc.pid))
    finally:
        proc.terminate()
        proc.wait(10)
        tmp.cleanup()
    every = [v for vals in stats.latency.values() for v in vals]
    elapsed = stats.elapsed  # type: ignore[attr-defined]
    print(
        f"{args.games} games x {args.phones} phones, poll {args.poll:g} s, "
        f"{elapsed:.1f} s measured, waitress threads {args.threads}"
    )
    print(f"requests: {len(every)}  ({len(every) / elapsed:.0f} req/s)")
    cpu = stats.server_cpu  # type: ignore[attr-defined]
    if cpu is not None and every:
        print(
            f"server CPU: {cpu / elapsed * 100:.0f}% of one core, "
            f"{cpu / len(every) * 1000:.2f} ms per request; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    print(f"{'kind':8} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, vals in [("all", every), *sorted(stats.latency.items())]:
        print(
            f"{kind:8} {len(vals):7d} {pct(vals, 50):8.1f} {pct(vals, 95):8.1f} "
            f"{pct(vals, 99):8.1f} {max(vals) * 1000 if vals else float('nan'):8.1f}"
        )
    print("statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(stats.status.items())))
    print(f"errors: {len(stats.errors)}")
    for line in Counter(stats.errors).most_common(10):
        print(f"  {line[1]} x {line[0]}")
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
