"""Rule sets as data: presets, toggles, custom rules and their errors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import ParseError
from companion.game import GamePhase, GameState, new_log, replay
from companion.names import has_visible, plain_text
from companion.rules import (
    PRESETS,
    TOGGLES,
    Finish,
    Multiples,
    describe,
    load_rules,
    option_names,
    rules_to_json,
)
from companion.scoring import keep_options


def test_every_preset_of_rules_md_is_there() -> None:
    assert set(PRESETS) == {
        "hot-dice",
        "dice-10000",
        "farke",
        "minnesota",
        "exact-10000",
        "ten-thousand",
        "farkle",
        "zilch",
    }
    assert set(TOGGLES) == {
        "greed",
        "amish",
        "the-420",
        "hard-six",
        "the-5150",
        "progressive",
        "extra-combos",
        "threshold",
        "strike-out",
    }


def test_presets_match_rules_md() -> None:
    """What the table below does not hold: three 1s, and zilch's strike."""
    assert PRESETS["farkle"].triple(1) == 300 and PRESETS["hot-dice"].triple(1) == 1000
    assert PRESETS["zilch"].strike_penalty == 500


# Each preset's own lines in RULES.md: dice, entry, least bank, end of game, takeover,
# multiples, hot dice must roll again.
RULES_MD_PRESETS = {
    "hot-dice": (6, 1000, 0, Finish.FINAL_ROUND, False, Multiples.DOUBLE_TURN, False),
    "dice-10000": (5, 0, 0, Finish.FIRST_TO_TARGET, False, Multiples.DOUBLE, False),
    "farke": (6, 750, 0, Finish.FIRST_TO_TARGET, False, Multiples.DOUBLE, False),
    "minnesota": (5, 1000, 0, Finish.TIE_OR_BEAT, True, Multiples.DOUBLE, True),
    "exact-10000": (6, 1000, 0, Finish.EXACT, True, Multiples.ADD, False),
    "ten-thousand": (6, 0, 0, Finish.FINAL_ROUND, False, Multiples.NONE, False),
    "farkle": (6, 0, 0, Finish.FINAL_ROUND, False, Multiples.FLAT, False),
    "zilch": (6, 0, 300, Finish.FINAL_ROUND, False, Multiples.DOUBLE, False),
}


@pytest.mark.parametrize("name", sorted(RULES_MD_PRESETS))
def test_each_preset_plays_as_rules_md_says(name: str) -> None:
    r = PRESETS[name]
    shape = (r.dice, r.entry, r.min_bank, r.finish, r.takeover, r.multiples)
    assert (*shape, r.hot_dice_must_roll) == RULES_MD_PRESETS[name]
    assert r.target == 10_000


def test_the_least_bank_is_the_entry_until_on_the_board_and_the_minimum_always() -> None:
    """One place for the rule the engine, the advisor, the win chances and the sheet's
    "to pass" each wrote out (a review counted seven)."""
    for rules in PRESETS.values():
        assert rules.least_bank(on_board=True) == rules.min_bank
        assert rules.least_bank(on_board=False) == max(rules.min_bank, rules.entry)
    zilch, hot = load_rules("zilch"), load_rules("hot-dice")
    assert (zilch.least_bank(on_board=False), zilch.least_bank(on_board=True)) == (300, 300)
    assert (hot.least_bank(on_board=False), hot.least_bank(on_board=True)) == (1000, 0)


def test_a_target_far_too_big_is_said_to_be_too_big() -> None:
    """Not "a positive multiple of 50", though it is not one either (a review)."""
    with pytest.raises(ParseError, match="^target must be at most 1,000,000, not 99,999"):
        load_rules({"base": "farkle", "target": 99_999_999_999_999_999_999})
    with pytest.raises(ParseError, match="^target must be a positive multiple of 50, not 75$"):
        load_rules({"base": "farkle", "target": 75})


def test_toggles_combine_in_order() -> None:
    rules = load_rules("ten-thousand+progressive+strike-out")
    assert rules.multiples is Multiples.PROGRESSIVE and rules.strike_penalty == 500
    assert rules.name == "ten-thousand+progressive+strike-out"
    assert load_rules("dice-10000+greed+amish").entry == 1000
    assert load_rules("dice-10000+greed+amish").takeover


def test_target_override_and_interning() -> None:
    assert load_rules("minnesota", target=5000).target == 5000
    assert load_rules("farkle") is load_rules("farkle")


def test_custom_rules_from_a_mapping() -> None:
    rules = load_rules(
        {
            "base": "farkle",
            "toggles": ["strike-out"],
            "entry": 500,
            "multiples": "double",
            "name": "Grandma's",
        }
    )
    assert (rules.entry, rules.multiples, rules.strike_penalty, rules.name) == (
        500,
        Multiples.DOUBLE,
        500,
        "Grandma's",
    )
    assert rules_to_json(rules)["multiples"] == "double"
    assert set(rules_to_json(rules)) == {"name", *option_names()}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("yahtzee", "unknown rule set 'yahtzee'; presets"),  # (nothing close to suggest)
        ("farkle+cheating", "unknown house rule"),
        ("Farkle", r"unknown rule set 'Farkle' \(did you mean 'farkle'\?\)"),
        ("farkel", r"\(did you mean 'farke' or 'farkle'\?\)"),  # (both presets are close)
        ({"base": "farkle", "nothing_scores_first": True}, "'nothing_scores_first_roll_only'"),
        ({"entry": 500}, "a custom rule set needs 'base', the name of a preset"),
        ({"base": 5}, "'base' must be the name of a preset, in quotes, not 5"),
        ("ten-thousand+gred", r"unknown house rule 'gred' \(did you mean 'greed'\?\)"),
        ("hot-dice+The-5150", r"\(did you mean 'the-5150'\?\)"),
        ("farkle+greed+greed", "named twice"),
        ("farkle+zilch", "'zilch' is a preset, not a house rule"),
        # either order would pick another entry threshold
        (
            "ten-thousand+threshold+greed",
            r"'threshold' and 'greed' set the entry threshold two ways \(500 and 1,000\)",
        ),
        (
            "ten-thousand+greed+threshold",
            r"'greed' and 'threshold' set the entry threshold two ways \(1,000 and 500\)",
        ),
        ({"base": "farkle", "name": "zilch"}, "names the preset zilch, but the base is farkle"),
        ({"base": "farkle", "name": "Zilch+Greed"}, "names the preset zilch, but the base"),
        # (found by a review: named as house rules the file does not tick, or blank)
        ({"base": "farkle", "name": "farkle+greed"}, r"other house rules than the file ticks"),
        ({"base": "farkle", "name": "   "}, "'name' must not be blank"),
        ({"base": "farkle", "name": "ours\nand theirs"}, "one line of plain text"),
        ({"base": "farkle", "name": "ours\u202esrieht"}, "one line of plain text"),  # (reversed)
        ({"base": "farkle", "name": "ours\u2028theirs"}, "one line of plain text"),  # (a break)
        ({"base": "farkle", "target": 2_000_000}, "at most 1,000,000"),
        ({"base": "farkle", "straight": 9 * 10**18}, "straight must be at most 1,000,000"),
        ({"base": "zilch", "strike_after": 10**12}, "strike_after must be 1 to 10"),
        ("", "empty"),
        ({"toggles": []}, "base"),
        ({"base": "farkle", "colour": "red"}, "unknown rule option 'colour'; every option"),
        ({"base": "farkle", 5: 1}, "^unknown rule option 5; every option"),  # (a TypeError)
        ({"base": "farkle", "full_hous": 250}, r"\(did you mean 'full_house_bonus'\?\)"),
        ({"base": "farkle", "entry": "lots"}, "entry must be a whole number"),
        ({"base": "farkle", "entry": 333}, "multiple of 50"),
        ({"base": "farkle", "dice": 4}, "dice must be 5 or 6"),
        ({"base": "farkle", "takeover": 1}, "true or false"),
        ({"base": "farkle", "finish": "whenever"}, "finish must be one of"),
        ({"base": "farkle", "toggles": "greed"}, "list"),
        (42, "rules must be"),
    ],
)
def test_bad_rules_are_one_clear_error(spec: object, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        load_rules(spec)  # type: ignore[arg-type]  # (42 is no spec at all: refused too)


@pytest.mark.parametrize("blank", ["\u200b", "\u0301", "\ufeff", "\u200d\u200c", " \u3000\u00ad"])
def test_a_rule_name_of_only_invisible_characters_is_blank_as_a_players_is(blank: str) -> None:
    """A zero-width space or a lone accent printed as a blank name (exit status 0): rule
    sets and players share one notion of something to see (`has_visible`)."""
    with pytest.raises(ParseError, match="^'name' must not be blank: name the table's rules$"):
        load_rules({"base": "farkle", "name": blank})
    assert not has_visible(blank) and not plain_text(blank)
    # a recorded game's rules still load, named as recorded
    assert load_rules({"base": "farkle", "name": blank}, strict=False).name == blank
    # and the same characters beside something to see are fine
    assert load_rules({"base": "farkle", "name": f"Zo\u00eb{blank}"}).name == f"Zo\u00eb{blank}"


def test_bad_target() -> None:
    with pytest.raises(ParseError, match="target"):
        load_rules("farkle", target=-50)
    with pytest.raises(ParseError, match="target"):
        load_rules("farkle", target=1234)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_describe_says_how_the_game_ends(name: str) -> None:
    text = describe(load_rules(name))
    assert text.startswith(name) and "Winning:" in text and "10,000" in text


def test_describe_mentions_house_rules() -> None:
    text = describe(load_rules("minnesota+the-420+hard-six+the-5150"))
    assert "the 420" in text and "hard six" in text and "5,150" in text
    assert text.count("may be rolled again (or the turn banked") == 2  # (RULES.md's "may")
    assert "1,000" in text  # the entry threshold


def _quick_scores(rules: str, scores: list[tuple[str, int]]) -> GameState:
    log = new_log(rules, ["Ann", "Bob"])
    log["events"] = [{"type": "score", "player": p, "points": n} for p, n in scores]
    return replay(log)


def test_describe_says_when_the_5150_bonus_comes_as_the_engine_plays_it() -> None:
    # (found by a review: "wins at once" was said where a bonus roll can still take the win,
    # and a bonus roll promised where an exact finish ends the game before it)
    scores = [("Ann", 5150), ("Bob", 9000), ("Ann", 4650), ("Bob", 1000)]
    first = _quick_scores("dice-10000+the-5150", scores)
    assert first.phase is GamePhase.BONUS  # Bob is at 10,000, Ann's bonus may pass him
    text = describe(load_rules("dice-10000+the-5150"))
    assert "unless a player who ever stood at exactly 5,150 still has the 5150's" in text
    assert "after such rolls the highest score wins" in text
    assert "wins at once\n" in describe(load_rules("dice-10000")) + "\n"
    exact = _quick_scores("exact-10000+the-5150", [*scores[:2], ("Ann", 0), ("Bob", 1000)])
    assert exact.phase is GamePhase.OVER and exact.winner_name == "Bob"
    text = describe(load_rules("exact-10000+the-5150"))
    assert "the 5150 never comes into play" in text and "once more at the end" not in text


@pytest.mark.parametrize("name", ["ten-thousand+progressive", "farkle+progressive"])
def test_describe_gives_progressive_six_1s_as_the_engine_scores_them(name: str) -> None:
    """The words were written for ten-thousand's three 1s (1,000): farkle's are 300."""
    rules = load_rules(name)
    six = max(keep.points for keep in keep_options(rules, (1,) * 6))
    assert f"three 1s then three more: {six:,})" in describe(rules)


@pytest.mark.parametrize(
    ("name", "grows"),
    [("hot-dice", True), ("ten-thousand+progressive", True), ("farkle", False), ("zilch", False)],
)
def test_describe_heads_scoring_as_one_roll_only_where_no_set_grows(name: str, grows: bool) -> None:
    """A review (session 80): "dice of one roll only" headed hot-dice's held set, which
    grows with the dice of later rolls, as the line below it said."""
    heading = describe(load_rules(name)).splitlines()[2]
    assert heading == (
        "Scoring (dice of one roll, but for a set that grows):"
        if grows
        else "Scoring (dice of one roll only):"
    )


def test_describe_says_what_a_house_rule_replaces_of_the_preset() -> None:
    # extra-combos is ten-thousand's: on farkle it lowers two of farkle's own combinations
    text = describe(load_rules("farkle+extra-combos"))
    assert "House rules that replace the preset's own:" in text
    assert "extra-combos: straight 1,000, not farkle's 1,500" in text
    assert "extra-combos: three pairs 500, not farkle's 1,500" in text
    zilch = describe(load_rules("zilch+extra-combos"))
    assert "a scoreless roll of all dice scores only as the first (not so in zilch)" in zilch
    assert "progressive, not hot-dice's double-turn" in describe(load_rules("hot-dice+progressive"))
    # a house rule that only adds to its preset, or agrees with it, replaces nothing
    for spec in ("ten-thousand+extra-combos", "hot-dice+greed", "zilch+strike-out", "farkle"):
        assert "replace the preset's own" not in describe(load_rules(spec))


def test_a_recorded_game_still_loads_rules_that_are_now_refused() -> None:
    # two house rules setting the entry both ways: refused for new rules, read as earlier
    # versions recorded them (the later one wins) so that a stored game still replays
    with pytest.raises(ParseError, match="tick one of them"):
        load_rules("ten-thousand+threshold+greed")
    assert load_rules("ten-thousand+threshold+greed", strict=False).entry == 1000
    named = {"base": "farkle", "name": "zilch"}
    assert load_rules(named, strict=False).name == "zilch"
    # but not a lone surrogate (JSON's "\ud800"), which no output can encode: printing the
    # game's standings failed with a codec error (session 37)
    with pytest.raises(ParseError, match="one line of plain text"):
        load_rules({"base": "farkle", "name": "\ud800x"}, strict=False)
    # a name of the table's own that only starts with a preset's name is fine, and so are
    # the marks a player's name may hold (a no-break space, an emoji joiner)
    assert load_rules({"base": "farkle", "name": "zilch night"}).name == "zilch night"
    assert load_rules({"base": "farkle", "name": "10\u202f000 \U0001f468\u200d\U0001f469"})


def test_describe_lists_only_what_is_in_force() -> None:
    # a rule file that turns extra-combos' straight back to farkle's own
    rules = load_rules({"base": "farkle", "toggles": ["extra-combos"], "straight": 1500})
    text = describe(replace(rules, name="farkle+extra-combos"))
    assert "three pairs 500, not farkle's 1,500" in text and "straight 1,000" not in text


def test_describe_leaves_out_what_the_dice_cannot_roll() -> None:
    """farkle played with five dice keeps its options, but three pairs, two triplets, six
    of a kind and six 1s cannot be rolled: not listed (a fuzzing review's find)."""
    text = describe(load_rules({"base": "farkle", "dice": 5, "instant_win": "six-ones"}))
    for absent in ("three pairs", "plus a pair", "two triplets", "six 3,000", "six 1s"):
        assert absent not in text, absent
    assert "four of a kind 1,000; five 2,000, whatever the face" in text
    six = describe(load_rules("farkle"))
    assert "three pairs" in six and "six 3,000" in six and "two triplets" in six


def test_describe_says_a_least_bank_without_any_turn_total_bankable() -> None:
    text = describe(load_rules("zilch"))
    assert "  no entry threshold\n  every bank needs at least 300" in text
    assert "no entry threshold: any turn total may be banked" in describe(load_rules("farkle"))


def test_a_rule_file_named_as_its_preset_with_values_changed_says_custom() -> None:
    # ("farkle" with no straight printed "123456 under farkle": farkle scores it 1,500)
    assert load_rules({"base": "farkle", "name": "farkle", "straight": 0}).name == "farkle (custom)"
    assert load_rules({"base": "zilch", "name": "Zilch"}).name == "Zilch"  # (the preset as is)
    named = {"base": "farkle", "toggles": ["greed"], "name": "Farkle+Greed"}
    assert load_rules(named).name == "Farkle+Greed"
    # a preset's bare name on house rules it leaves out: custom too, not an error
    assert load_rules({**named, "name": "Farkle"}).name == "Farkle (custom)"
    said = {"base": "farkle", "name": "Farkle (Custom)", "straight": 0}
    assert load_rules(said).name == "Farkle (Custom)"  # (said already, in any case)
    # a name that only looks like the preset's (a zero-width space, a soft hyphen, full
    # width) is the preset's name: its changes are said too, in a dispute above all
    for looks in ("farkle\u200b", "far\u00adkle", "\uff26arkle"):
        changed = load_rules({"base": "farkle", "name": looks, "straight": 0})
        assert changed.name == f"{looks} (custom)"
    with pytest.raises(ParseError, match="names the preset zilch"):
        load_rules({"base": "farkle", "name": "zil\u200bch", "straight": 0})
