"""One turn's solve for the chance to win: the chaser's last turn by the points still needed
against a turn solve per total, and the bound on rolling on past the target."""

from __future__ import annotations

import pytest

from companion.rules import load_rules
from companion.winprob_turn import StillNeeded, solve_win_turn, turn_plan

FARKLE = load_rules("farkle")


@pytest.mark.parametrize(
    "spec, least",
    [
        ("farkle", 1),
        ("ten-thousand+extra-combos", 1),
        ("farke", 1),
        ("zilch", 6),  # its least bank of 300
        ("farkle+greed", 20),  # at 0 points: entry 1,000
    ],
)
def test_the_last_turn_by_points_still_needed_matches_a_turn_solve_per_total(
    spec: str, least: int
) -> None:
    # one pass over the points still needed (and the total up to the least bank), where
    # the rules allow it, against the turn solve per total to pass that every rule set can use
    plan = turn_plan(load_rules(spec))
    assert StillNeeded.fits(plan)
    still = StillNeeded(plan, 0.6, least)
    for need in range(1, 60):
        tie = need - 1

        def bank(t: int, tie: int = tie) -> float:
            return 0.6 * (t == tie)

        by_total = solve_win_turn(plan, need, least, bank, 0.0)
        assert still.chance(need) == pytest.approx(by_total[0], abs=1e-14)
    # doublings and free re-rolls make the total matter: those take the turn solves
    assert not StillNeeded.fits(turn_plan(load_rules("hot-dice")))
    assert not StillNeeded.fits(turn_plan(load_rules("minnesota+hard-six")))


def test_the_bound_past_the_target_counts_only_rolls_made_past_it() -> None:
    # extra-combos' first roll never busts (six dice that score nothing are 500), but it is
    # rolled only at 0: the least bust chance past the target is still six dice's
    assert turn_plan(load_rules("farkle+extra-combos")).least_bust == pytest.approx(1080 / 46656)
    assert turn_plan(FARKLE).least_bust == pytest.approx(1080 / 46656)
