"""Benchmark: build every preset's scoring tables, then score every distinct roll.

Prints the one-off table-build time per preset and for all of them, and the time per roll
for scoring every distinct roll of 1 to 6 dice under every preset (a look-up after the
build). Run: ``python benchmarks/bench_scoring.py``.
"""

from __future__ import annotations

import argparse
import itertools
import time

from companion import scoring
from companion.rules import PRESETS
from companion.scoring import build_tables, score_roll


def cold_build_ms() -> float:
    """Build every preset's tables from nothing (caches cleared first)."""
    scoring._tables.cache_clear()
    scoring._sub_counts.cache_clear()
    scoring._multisets.cache_clear()
    start = time.perf_counter()
    for rules in PRESETS.values():
        build_tables(rules)
    return (time.perf_counter() - start) * 1000


def main(repeats: int = 20) -> None:
    build_ms = min(cold_build_ms() for _ in range(5))
    rolls = [
        roll
        for n in range(1, 7)
        for roll in itertools.combinations_with_replacement(range(1, 7), n)
    ]
    timings: dict[str, float] = {}
    for name, rules in PRESETS.items():
        mine = [r for r in rolls if len(r) <= rules.dice]
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            for roll in mine:
                score_roll(rules, roll)
            best = min(best, (time.perf_counter() - start) / len(mine))
        timings[name] = best * 1e6
    print(f"table build, all {len(PRESETS)} presets (best of 5, from cold): {build_ms:.1f} ms")
    print(f"distinct rolls of 1-6 dice: {len(rolls)}")
    for name, micros in timings.items():
        print(f"  {name:<14} {micros:5.2f} us per roll")
    print(f"mean over presets: {sum(timings.values()) / len(timings):.2f} us per roll")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])

    def passes(text: str) -> int:
        value = int(text)
        if value < 1:
            raise argparse.ArgumentTypeError(f"at least one pass, not {value}")
        return value

    parser.add_argument(
        "--repeat", type=passes, default=20, help="timed passes per preset, best kept (default 20)"
    )
    main(parser.parse_args().repeat)
