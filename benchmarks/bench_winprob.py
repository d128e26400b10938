"""Time the two-player win-probability solve: the first player's chance under optimal play.

Run: ``nice -n 19 python benchmarks/bench_winprob.py [--targets 500 1000 2000]
[--finish first-to-target]`` (the presets' own end rule by default: farkle's final round). Each
figure is one cold solve (the game table is memoised; the turn model, and the tie-break
race a final round values ties by, are solved first and not counted: they are shared by
every target) in CPU seconds of this single-threaded process (``time.process_time``). The time
grows with the cube of the target: (target/50)^2 score pairs, about 2-2.5 turn solves each,
each over up to target/50 turn totals.
"""

from __future__ import annotations

import argparse
import platform
import time

from companion.rules import Finish, load_rules
from companion.strategy import turn_model
from companion.tie_break import tie_break_chance
from companion.winprob import solve_game


def _cold(share_done: float) -> None:
    """A progress callback: with one, ``solve_game`` solves afresh instead of memoising."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=["farkle"])
    parser.add_argument("--targets", nargs="*", type=int, default=[500, 1000, 2000])
    parser.add_argument("--finish", help="another end rule, e.g. first-to-target")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, one cold solve each")
    print("end rule:", args.finish or "each preset's own")
    print(
        f"{'rules':<16}{'target':>8}{'pairs':>8}{'turn solves':>13}{'CPU s':>9}{'first player':>14}"
    )
    for name in args.rules:
        for target in args.targets:
            spec = {"base": name, "finish": args.finish} if args.finish else name
            rules = load_rules(spec, target=target)
            turn_model(rules)
            if rules.finish is Finish.FINAL_ROUND:
                tie_break_chance(rules)
            start = time.process_time()
            game = solve_game(rules, progress=_cold)
            seconds = time.process_time() - start
            print(
                f"{name:<16}{target:>8,}{(target // 50) ** 2:>8,}{game.turn_solves:>13,}"
                f"{seconds:>9.2f}{game.first_player:>14.6f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
