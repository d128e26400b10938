"""Time the strategy advisor: the full expected-score policy of every preset, from cold.

Run: ``python benchmarks/bench_strategy.py``. Each figure is the best of ``--repeat`` cold
runs (every cache cleared, the engine's scoring tables included), in CPU seconds of this
single-threaded process (``time.process_time``, so other load on the machine does not count).
"""

from __future__ import annotations

import argparse
import functools
import platform
import time
from collections.abc import Callable

from companion import scoring, strategy
from companion.advice import advise_roll, advise_state
from companion.rules import PRESETS, load_rules


def _clear() -> None:
    """Forget every memoised result, the engine's scoring tables included."""
    for module in (scoring, strategy):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def _best(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        _clear()
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--rules",
        nargs="*",
        default=[*PRESETS, "ten-thousand+progressive", "ten-thousand+strike-out"],
    )
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, best of {args.repeat}")
    print(f"{'rules':<26}{'states':>7}{'policy s':>10}{'summary s':>11}{'advice ms':>11}")
    print("  policy: every state's value, cold; summary: all of `hotdice strategy` (incl. the")
    print("  streak-aware long run), cold; advice: one advise_state or advise_roll, warm")
    for name in args.rules:
        rules = load_rules(name)
        policy = _best(functools.partial(strategy.solve, rules), args.repeat)
        summary = _best(functools.partial(strategy.strategy_summary, rules), args.repeat)
        strategy.strategy_summary(rules)
        start = time.process_time()
        for _ in range(100):
            advise_state(rules, turn_total=350, dice=3)
            advise_roll(rules, [1, 2, 3, 4, 4, 6][: rules.dice - 1])
        advice = (time.process_time() - start) * 1000 / 200
        states = len(strategy.turn_model(rules).classes) * (strategy.CAP // 50 + 1)
        print(f"{name:<26}{states:>7}{policy:>10.3f}{summary:>11.3f}{advice:>11.3f}")


if __name__ == "__main__":
    main()
