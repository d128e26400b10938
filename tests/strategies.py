"""Hypothesis strategies shared by the rules-engine tests."""

from __future__ import annotations

from hypothesis import strategies as st

from companion.rules import PRESETS, TOGGLES, Rules, load_rules

PRESET_NAMES = sorted(PRESETS)
TOGGLE_NAMES = sorted(TOGGLES)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """Any preset with any combination of house rules that do not set one option two ways
    (``greed`` and ``threshold``: entry 1,000 and 500)."""
    base = draw(st.sampled_from(PRESET_NAMES))
    toggles = draw(st.lists(st.sampled_from(TOGGLE_NAMES), unique=True, max_size=3))
    if {"greed", "threshold"} <= set(toggles):
        toggles.remove("threshold")
    return load_rules("+".join([base, *toggles]))


def rolls(max_dice: int = 6) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(1, 6), min_size=1, max_size=max_dice).map(tuple)
