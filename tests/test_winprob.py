"""Two-player win probability: exact small cases, an independent value iteration (first to
the target, and with a final round), a Monte Carlo of the engine's dice under the solved
policy, monotonicity, and the command line."""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from companion import cli_strategy
from companion.errors import ParseError
from companion.rules import Finish, Rules, load_rules
from companion.scoring import Held, distinct_rolls, keep_options
from companion.strategy import bust_fraction, chance_to_make, turn_model
from companion.strategy_dp import UNIT, StateKey
from companion.tie_break import tie_break_chance
from companion.winprob import (
    _FinalRound,
    bank_ranges,
    first_player_win_probability,
    situations,
    solve_game,
    win_report,
)
from companion.winprob_turn import MarkTurn, StillNeeded, TurnValues, turn_plan
from tests.reference_turns import last_turn_chance, setting_a_mark

FARKLE = load_rules("farkle")


def farkle(target: int) -> Rules:
    """Farkle where the first to the target wins (the boxed game has a final round, below):
    the end rule of Busche and Neller, and of the hand-worked cases."""
    return load_rules({"base": "farkle", "finish": "first-to-target"}, target=target)


# --- exact small cases ---------------------------------------------------------------------


def test_target_50_first_scoring_roll_wins() -> None:
    # Any scoring roll reaches 50 and banks the win; a bust hands the dice over, so the
    # first player wins with 1 / (1 + p), p the six-dice bust chance.
    p = float(bust_fraction(FARKLE, 6))
    assert p == pytest.approx(1080 / 46656)
    game = solve_game(farkle(50))
    assert game.first_player == pytest.approx(1 / (1 + p), abs=1e-12)


def test_two_solves_of_the_same_rules_are_equal() -> None:
    """A solution is what was found, not how long the solve took: its ``seconds`` had made
    two solves of one rule set compare unequal (a review)."""
    first = solve_game(farkle(50))
    again = dataclasses.replace(first, seconds=first.seconds + 1.0)
    assert again == first and hash(again) == hash(first)
    assert dataclasses.replace(first, turn_solves=first.turn_solves + 1) != first


def test_two_players_at_the_last_step_are_complementary() -> None:
    # Both at target - 50: whoever is to roll wins unless they bust, and then the other is
    # in exactly the same spot: P = 1 - p + p (1 - P).
    game = solve_game(farkle(300))
    p = float(bust_fraction(FARKLE, 6))
    assert game.win_chance(250, 250) == pytest.approx(1 / (1 + p), abs=1e-12)


# --- an independent computation --------------------------------------------------------------


def _gauss_seidel(
    P: list[list[float]], turn: Callable[[int, int], float], sweeps: int
) -> list[list[float]]:
    """Sweep every (i, j) with ``P[i][j] = turn(i, j)`` until nothing moves by 1e-13."""
    n = len(P)
    for _ in range(sweeps):
        change = 0.0
        for i in range(n):
            for j in range(n):
                v = turn(i, j)
                change = max(change, abs(v - P[i][j]))
                P[i][j] = v
        if change < 1e-13:
            return P
    raise AssertionError("value iteration did not converge")


def _value_iteration(rules: Rules, sweeps: int = 3000) -> list[list[float]]:
    """Plain Gauss-Seidel value iteration over every (i, j), each turn by straightforward
    memoised recursion over the roll classes (no layers, no Newton, no flattened plan)."""
    model = turn_model(rules)
    n = rules.target // UNIT
    exact = rules.finish is Finish.EXACT
    P = [[0.5] * n for _ in range(n)]

    def turn(i: int, j: int) -> float:
        goal = n - i
        least = max(rules.min_bank, rules.entry if i == 0 else 0, UNIT)
        bust = 1.0 - P[j][i]

        @functools.cache
        def arrive(t: int, key: StateKey) -> float:
            if exact and t > goal:
                return bust
            can_bank = t * UNIT >= least
            if can_bank and t >= goal:
                return 1.0
            bank = 1.0 - P[j][i + t] if can_bank else -1.0
            must = key == model.hot and rules.hot_dice_must_roll
            r = roll(t, key)
            return r if must else max(bank, r)

        @functools.cache
        def roll(t: int, key: StateKey) -> float:
            total = 6 ** key[0]
            acc = 0.0
            weight_seen = 0
            for c in model.classes[key]:
                weight_seen += c.weight
                if not c.outcomes or (exact and c.forced_mul * t + c.forced_add // UNIT > goal):
                    acc += c.weight * bust
                    continue
                acc += c.weight * max(
                    arrive(
                        o.mul * t + o.add // UNIT, model.hot if o.dice == 0 else (o.dice, o.held)
                    )
                    for o in c.outcomes
                )
            return (acc + (total - weight_seen) * bust) / total

        return roll(0, model.start)

    return _gauss_seidel(P, turn, sweeps)


@pytest.mark.parametrize(
    "spec, target",
    [
        ({"base": "farkle", "finish": "first-to-target"}, 300),
        ({"base": "hot-dice", "finish": "first-to-target"}, 150),
        ({"base": "exact-10000", "entry": 0}, 200),
        ({"base": "hot-dice", "finish": "exact", "entry": 0}, 600),  # (forced keeps doubling)
    ],
)
def test_layers_and_newton_match_plain_value_iteration(
    spec: dict[str, object], target: int
) -> None:
    rules = load_rules(spec, target=target)
    game = solve_game(rules)
    P = _value_iteration(rules)
    n = target // UNIT
    worst = max(abs(P[i][j] - game.P[i][j]) for i in range(n) for j in range(n))
    assert worst < 1e-10


def test_monte_carlo_of_the_engine_under_the_solved_policy() -> None:
    """Play 20,000 games with random dice scored by the engine (``keep_options``), both
    players following the solved policy; the first player's win rate matches P(0, 0)."""
    rules = farkle(500)
    game = solve_game(rules)
    model = turn_model(rules)
    turns: dict[tuple[int, int], tuple[TurnValues, dict[StateKey, int]]] = {}

    def values(i: int, j: int) -> tuple[TurnValues, dict[StateKey, int]]:
        if (i, j) not in turns:
            v = game.turn(i, j)
            turns[(i, j)] = (v, {k: n for n, k in enumerate(v.keys)})
        return turns[(i, j)]

    def play_turn(rng: random.Random, score: int, opponent: int) -> int:
        v, index = values(score, opponent)
        goal = (game.target - score) // UNIT
        total, dice = 0, rules.dice
        while True:
            roll = tuple(rng.randint(1, 6) for _ in range(dice))
            options = keep_options(
                rules, roll, Held(turn_total=total * UNIT, first_roll=total == 0)
            )
            if not options:
                return 0
            best = None
            for keep in options:
                t = total + keep.points // UNIT
                left = dice - len(keep.dice)
                slot = len(v.keys) if left == 0 else index[(left, model.hot[1])]
                worth = 1.0 if t >= goal else v.after[slot][t]
                if best is None or worth > best[0]:
                    best = (worth, t, left)
            assert best is not None  # (options is not empty)
            _, total, left = best
            dice = left or rules.dice
            if total >= goal:
                return total * UNIT
            key = index[(dice, model.hot[1])]
            if (bank := v.bank[total]) is not None and bank >= v.roll[key][total]:
                return total * UNIT

    rng = random.Random(20170701)
    games, first_wins = 20_000, 0
    for _ in range(games):
        scores = [0, 0]
        player = 0
        while True:
            scores[player] += play_turn(rng, scores[player], scores[1 - player])
            if scores[player] >= game.target:
                first_wins += player == 0
                break
            player = 1 - player
    rate = first_wins / games
    sigma = (game.first_player * (1 - game.first_player) / games) ** 0.5
    assert abs(rate - game.first_player) < 4 * sigma


# --- a final round ---------------------------------------------------------------------------


def _final_round_value_iteration(rules: Rules, least: float = 1e-11) -> list[list[float]]:
    """Gauss-Seidel as above, under a final round: the last turn's chance by recursion over
    the points still needed to pass (a tie worth the chaser's tie-break chance, as solved by
    ``tie_break_chance``, checked on its own in ``test_tie_break``), the leader's turn by
    recursion over its totals."""
    n = rules.target // UNIT
    P = [[0.5] * n for _ in range(n)]
    chance = last_turn_chance(rules, tie_break_chance(rules))

    def turn(i: int, j: int) -> float:
        return setting_a_mark(
            rules,
            n - i,
            lambda t: 1.0 - P[j][i + t],
            lambda t: chance(i + t - j + 1),
            1.0 - P[j][i],
            least,
        )

    return _gauss_seidel(P, turn, 200)


def test_a_final_round_matches_plain_value_iteration() -> None:
    # Farkle's own end rule at 50: every scoring roll reaches the target, and the player
    # then rolls on to set a mark the opponent must pass in one last turn.
    rules = load_rules("farkle", target=50)
    assert rules.finish is Finish.FINAL_ROUND
    game = solve_game(rules)
    assert game.first_player == pytest.approx(_final_round_value_iteration(rules)[0][0], abs=1e-10)
    assert 0.5 < game.first_player < first_player_win_probability(farkle(50))


def test_the_last_turn_plays_to_pass_and_values_a_tie_by_the_tie_break() -> None:
    final = _FinalRound(FARKLE, turn_plan(FARKLE))
    w = tie_break_chance(FARKLE)
    for need in (1, 2, 5, 6, 12, 30):
        chance = final.chance(3, need)
        to_pass = chance_to_make(FARKLE, need * UNIT)
        to_tie = chance_to_make(FARKLE, (need - 1) * UNIT) if need > 1 else 1.0
        # w of at least tying plus the rest of passing, under one play: between these
        assert to_pass - 1e-12 <= chance <= w * to_tie + (1 - w) * to_pass + 1e-12
        # a tie is worth banking with few dice left: from a need of 250 on, it pays a little
        # (300 when a tie was counted as even)
        assert (chance > to_pass + 1e-6) == (need >= 5)


def test_with_ties_worth_nothing_the_last_turn_is_the_chance_to_make(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion import winprob

    monkeypatch.setattr(winprob, "tie_break_chance", lambda rules: 0.0)
    greed = load_rules("farkle+greed")
    final = _FinalRound(greed, turn_plan(greed))
    for need in (3, 10, 25):
        assert final.chance(4, need) == pytest.approx(chance_to_make(greed, need * UNIT), abs=1e-12)
        # at 0 points the last turn must also reach the entry threshold to count
        assert final.chance(0, need) == pytest.approx(
            chance_to_make(greed, need * UNIT, on_board=False), abs=1e-12
        )


def test_solving_further_past_the_target_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # From ``end`` on the player banks (the bound in _FinalRound.past): solving 40 totals
    # further must give the same game to the last digit.
    rules = load_rules("farkle", target=500)
    game = solve_game(rules)
    plain = _FinalRound.past

    def further(self: _FinalRound, i: int, j: int, bust: float) -> MarkTurn:
        past = plain(self, i, j, bust)
        return type(past)(past.bank, past.end + 40)

    monkeypatch.setattr(_FinalRound, "past", further)
    again = solve_game(rules, lambda share: None)
    n = rules.target // UNIT
    assert max(abs(game.P[i][j] - again.P[i][j]) for i in range(n) for j in range(n)) < 1e-12


@pytest.mark.parametrize("target", [300, 500, 1000])
def test_a_final_round_narrows_the_first_players_edge(target: int) -> None:
    final = first_player_win_probability(load_rules("farkle", target=target))
    assert 0.5 < final < first_player_win_probability(farkle(target))


def test_past_the_target_the_leader_rolls_on_only_while_the_opponent_is_close() -> None:
    game = solve_game(load_rules("farkle", target=1000))
    model = turn_model(FARKLE)
    # at 900 against 950, a turn total of 100 reaches 1,000: the opponent would need just
    # 100 to pass, so with 3 dice in hand the leader rolls on
    turn = game.turn(900, 950)
    three = turn.keys.index((3, model.hot[1]))
    assert turn.bank[2] is not None and turn.bank[2] < turn.roll[three][2]
    # against 0 the opponent would need 1,050 in one turn: bank the same 100 with 1 die
    turn = game.turn(900, 0)
    one = turn.keys.index((1, model.hot[1]))
    assert turn.bank[2] is not None and turn.bank[2] > turn.roll[one][2]


# --- properties ------------------------------------------------------------------------------


def test_win_chance_grows_with_my_score_and_falls_with_the_opponents() -> None:
    game = solve_game(farkle(750))
    n = len(game.P)
    for i in range(n):
        for j in range(n):
            assert 0.0 < game.P[i][j] < 1.0
            if i + 1 < n:
                assert game.P[i + 1][j] >= game.P[i][j] - 1e-12
            if j + 1 < n:
                assert game.P[i][j + 1] <= game.P[i][j] + 1e-12


def test_fixed_points_each_turn_reproduces_the_table() -> None:
    # A player's turn with a bust worth 1 - P(j, i) and banks worth 1 - P(j, i + t) is worth
    # exactly P(i, j): the opponent's chance is the complement at every score pair.
    game = solve_game(farkle(600))
    for score, opponent in [(0, 0), (100, 450), (450, 100), (300, 300), (550, 0)]:
        assert game.turn(score, opponent).value == pytest.approx(
            game.win_chance(score, opponent), abs=1e-11
        )


def test_only_the_points_still_needed_matter() -> None:
    # With no entry threshold, first to the target is a game of the points still needed:
    # level at 500 in a game to 1,000 is a fresh game to 500 (and so on along the table).
    small, large = solve_game(farkle(500)), solve_game(farkle(1000))
    for i in range(10):
        for j in range(10):
            assert large.P[i + 10][j + 10] == pytest.approx(small.P[i][j], abs=1e-11)


@pytest.mark.parametrize("target", [300, 500, 1000])
def test_the_first_player_is_favoured_at_small_targets(target: int) -> None:
    assert 0.5 < first_player_win_probability(farkle(target)) < 1.0


def test_first_player_chance_shrinks_towards_even_as_the_target_grows() -> None:
    chances = [first_player_win_probability(farkle(t)) for t in (100, 300, 500, 1000)]
    assert chances == sorted(chances, reverse=True)


def test_playing_to_win_rolls_on_when_behind_where_points_would_bank() -> None:
    game = solve_game(farkle(1000))
    # The opponent is 50 short of the target: a bank short of it is all but a loss.
    turn = game.turn(0, 950)
    two_dice = turn.keys.index((2, turn_model(FARKLE).hot[1]))
    assert turn.bank[6] is not None and turn.bank[6] < turn.roll[two_dice][6]  # 300, 2 dice
    assert bank_ranges(game, 0, 950)[2] == []  # never bank 2 dice short of the target
    # ... where the expected-score play banks 2 dice from 250 on.
    report = win_report(farkle(1000))
    rows = [r for r in report["differences"] if r["score"] == 0 and r["opponent"] == 0]
    assert {r["dice"] for r in rows} >= {2, 3}


def test_exact_finish_and_unsupported_rules() -> None:
    game = solve_game(load_rules("exact-10000", target=1250))
    assert 0.5 < game.first_player < 1.0
    with pytest.raises(ParseError, match="strike"):
        solve_game(load_rules("zilch", target=500))
    with pytest.raises(ParseError, match="nobody can win"):
        solve_game(load_rules("exact-10000", target=500))
    with pytest.raises(ParseError, match="multiple of 50"):
        solve_game(farkle(300)).win_chance(120, 0)


def test_exact_finish_at_50_by_hand() -> None:
    # Exact finish at 50 (entry 0): every scoring die must be kept, so only a roll whose
    # scoring dice are a lone 5 wins; any other roll busts (past the target, or nothing
    # scores) and hands the same position over: P = q + (1 - q)(1 - P) = 1 / (2 - q).
    rules = load_rules({"base": "exact-10000", "entry": 0}, target=50)
    wins = 0
    for roll, weight in distinct_rolls(6):
        options = keep_options(rules, roll, Held())
        if options:
            most = max(options, key=lambda k: (len(k.dice), k.points))
            wins += weight * (most.points == 50)
    # one 5 anywhere, the other five from 2, 3, 4, 6 with no face thrice: 5!/(2!2!) for
    # 12 patterns (2, 2, 1) and 5!/2! for 4 patterns (2, 1, 1, 1): 600
    assert wins == 6 * (12 * 30 + 4 * 60)
    q = wins / 6**6
    assert solve_game(rules).first_player == pytest.approx(1 / (2 - q), abs=1e-12)


# --- command line ----------------------------------------------------------------------------


def test_a_solve_that_does_not_converge_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`winprob` raises ArithmeticError where its iteration does not settle (no preset has
    met it): `hotdice` said ValueError and OSError only, so it would have been a traceback."""
    import companion.winprob
    from companion.cli import main

    def unsettled(*args: object) -> None:
        raise ArithmeticError("the win probability did not converge")

    monkeypatch.setattr(companion.winprob, "win_report", unsettled)
    args = ["strategy", "--rules", "farkle", "--win-probability", "--target", "500"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == "hotdice: error: the win probability did not converge\n"


def test_cli_win_probability(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from companion.cli import main

    assert main(["strategy", "--rules", "farkle", "--win-probability", "--target", "500"]) == 0
    text = capsys.readouterr().out
    final = solve_game(load_rules("farkle", target=500)).first_player
    assert f"first player's chance to win under optimal play: {final:.2%}" in text
    assert "(final round: the other player has a last turn to pass; a tie goes to tie-break" in text
    assert "for points" in text
    assert (
        main(["strategy", "--rules", "farkle", "--win-probability", "--target", "500", "--json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["first_player_win_probability"] == final
    assert data["end_rule"] == "final round"
    assert data["expected_turn_score"] == pytest.approx(542.0632, abs=1e-3)
    assert data["differences"]
    # a table whose first to the target wins says so, from a rule file
    table = tmp_path / "first.toml"
    table.write_text('base = "farkle"\nfinish = "first-to-target"\n')
    assert main(["strategy", "--rules", str(table), "--win-probability", "--target", "500"]) == 0
    text = capsys.readouterr().out
    assert "(first to the target wins)" in text
    chance = first_player_win_probability(farkle(500))
    assert f"first player's chance to win under optimal play: {chance:.2%}" in text
    assert main(["strategy", "--rules", "zilch", "--win-probability", "--target", "500"]) == 2
    assert "strike" in capsys.readouterr().err
    # what the model leaves out of a rule set is said, not passed over
    assert "not modelled" not in text and data["left_out"] == []
    spec = "minnesota+the-5150"
    assert main(["strategy", "--rules", spec, "--win-probability", "--target", "300"]) == 0
    assert (
        "  not modelled: tie-or-beat (solved as first to the target); takeovers (every turn "
        "starts fresh); the 5150 bonus roll\n"
    ) in capsys.readouterr().out
    # a target the solver would take days over is refused before it starts
    assert main(["strategy", "--rules", "farkle", "--win-probability", "--target", "1000000"]) == 2
    assert "at most 20,000 points, not 1,000,000" in capsys.readouterr().err
    # the plain summary is unchanged
    assert main(["strategy", "--rules", "farkle", "--json"]) == 0
    assert "first_player_win_probability" not in json.loads(capsys.readouterr().out)


def test_with_an_entry_threshold_the_report_compares_like_with_like() -> None:
    # under greed nobody has 1-999 points, and at 0 the expected-score play cannot bank
    # under 1,000 either, so no difference at 0 may show a bank below it
    rules = load_rules(
        {"base": "farkle", "toggles": ["greed"], "finish": "first-to-target"}, target=2000
    )
    report = win_report(rules)
    assert all(not 0 < int(v) < 1000 for pair in report["win_chance"] for v in pair.split("-"))
    for diff in report["differences"]:
        if diff["score"] == 0:
            banks = [r[0] for r in diff["bank_when_playing_for_points"]]
            assert all(b >= 1000 for b in banks), diff


# --- progress of a long solve --------------------------------------------------------------


def test_progress_is_told_the_share_done_and_changes_nothing() -> None:
    shares: list[float] = []
    rules = farkle(400)  # (a target no other test caches)
    game = solve_game(rules, shares.append)
    assert len(shares) == 2 * (400 // UNIT) - 1  # once per score sum
    assert shares == sorted(shares) and shares[-1] == pytest.approx(1.0)
    assert 0 < shares[0] < 0.05  # the sums near the target are short turns: little work
    assert game.P == solve_game(rules).P


class _Terminal(io.StringIO):
    """An output that keeps what is written and says whether it is a terminal."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _progress_run(tty: bool, times: list[float], shares: list[float]) -> str:
    clock = iter(times)
    out = _Terminal(tty)
    line = cli_strategy.ProgressLine("solving", out, lambda: next(clock))
    for share in shares:
        line(share)
    line.close()
    return out.getvalue()


def test_the_progress_line_is_silent_for_quick_solves_and_estimates_the_rest() -> None:
    assert _progress_run(True, [0, 0.5, 1.5], [0.3, 0.9]) == ""
    # on a terminal one redrawn line, at most a second apart, wiped at the end
    text = _progress_run(True, [0, 3, 3.5, 6, 600], [0.1, 0.2, 0.4, 0.5])
    assert text == (
        "\rsolving: 10% done, about 27 s left"
        "\rsolving: 40% done, about 9 s left "
        "\rsolving: 50% done, about 10 min left"
        "\r" + " " * len("solving: 50% done, about 10 min left") + "\r"
    )
    # in a log, whole lines a minute apart
    text = _progress_run(False, [0, 30, 60, 80, 3600], [0.01, 0.02, 0.05, 0.5])
    # (under a tenth done, no time left is said: the first pairs cost more than their share)
    assert text == "solving: 1% done\nsolving: 50% done, about 60 min left\n"


def test_a_step_with_no_progress_line_is_said_once_it_runs_long() -> None:
    """`hot-dice`'s tie-break turns are solved before the game's progress line can start
    (40 s): past the quiet seconds the silence is explained, once; a quick step says
    nothing."""
    import threading

    quick = io.StringIO()
    with cli_strategy.said_if_slow("note\n", quick, after=0.5):
        pass
    slow, said = io.StringIO(), threading.Event()
    written = slow.write

    def write(text: str) -> int:
        n = written(text)
        said.set()
        return n

    slow.write = write  # type: ignore[method-assign]
    with cli_strategy.said_if_slow("note\n", slow, after=0.01):
        assert said.wait(10)
    assert quick.getvalue() == "" and slow.getvalue() == "note\n"


def test_a_game_the_solver_refuses_is_refused_before_the_tie_break_is_solved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Strike penalties are not modelled: `zilch` is refused at once, not after its
    tie-break turns are solved (4 s; 28 s under `hot-dice+strike-out`)."""
    from companion import tie_break

    def solved(rules: Rules) -> float:
        raise AssertionError("the tie-break was solved first")

    monkeypatch.setattr(tie_break, "tie_break_chance", solved)
    with pytest.raises(ParseError, match="does not model strike penalties"):
        cli_strategy.run_win_probability(load_rules("zilch", target=1000), as_json=False)


# --- from the session-30 mutation review: each fails on a plausible bug the others missed


def test_target_50_with_hot_dice_that_must_be_rolled() -> None:
    # Every scoring roll reaches 50, but hot dice (three pairs, six of a kind...: no keep
    # leaves a die) must be rolled again until a roll leaves dice in hand or busts; a bust
    # hands the same spot over, so P = 1 / (1 + p), p the bust chance of rolling until then
    rules = load_rules(
        {"base": "farkle", "hot_dice_must_roll": True, "finish": "first-to-target"}, target=50
    )
    again = 0
    for roll, weight in distinct_rolls(6):
        options = keep_options(rules, roll, Held(turn_total=50, first_roll=False))
        if options and all(len(k.dice) == 6 for k in options):
            again += weight
    assert again > 0
    p = float(bust_fraction(rules, 6)) * 6**6 / (6**6 - again)
    assert solve_game(rules).first_player == pytest.approx(1 / (1 + p), abs=1e-12)


def test_bank_ranges_are_maximal_runs_of_the_totals_to_bank() -> None:
    game = solve_game(farkle(1000))
    values = game.turn(0, 0)
    index = {k: n for n, k in enumerate(values.keys)}
    from companion.strategy import turn_model

    plain = turn_model(game.rules).hot[1]
    for dice, ranges in bank_ranges(game, 0, 0).items():
        for (_, hi), (lo, _) in zip(ranges, ranges[1:], strict=False):
            assert lo > hi + UNIT  # adjacent runs are one range
        k = index[(dice, plain)]
        banked = [
            t * UNIT
            for t in range(1, values.goal)
            if (bank := values.bank[t]) is not None and bank >= values.roll[k][t]
        ]
        assert [t for lo, hi in ranges for t in range(lo, hi + 1, UNIT)] == banked
    assert bank_ranges(game, 0, 0)[2] == [(300, 900)]


def test_situations_keep_0_0_under_an_entry_threshold() -> None:
    assert situations(2000, 1000) == [(0, 0), (1000, 1000)]
    assert situations(2000) == [(0, 0), (1000, 1000), (600, 1700), (1700, 600)]


def test_a_score_at_the_target_is_refused() -> None:
    game = solve_game(farkle(300))
    with pytest.raises(ParseError, match="below the target"):
        game.win_chance(300, 0)
    with pytest.raises(ParseError, match="below the target"):
        game.turn(0, 300)


def test_the_last_turn_under_free_rerolls_tells_the_entry_threshold_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a rule set the one pass over points still needed does not fit (hard-six) takes a
    # turn solve per (least bank, total to pass): on the board and not are not the same
    from companion import winprob

    monkeypatch.setattr(winprob, "tie_break_chance", lambda rules: 0.0)
    rules = load_rules("farkle+greed+hard-six")
    plan = turn_plan(rules)
    assert not StillNeeded.fits(plan)
    final = _FinalRound(rules, plan)
    for need in (3, 10, 25):
        on = final.chance(4, need)
        off = final.chance(0, need)
        assert on == pytest.approx(chance_to_make(rules, need * UNIT), abs=1e-12)
        assert off == pytest.approx(chance_to_make(rules, need * UNIT, on_board=False), abs=1e-12)


def test_report_ranges_run_forwards_below_the_target() -> None:
    # at 250 of 500 the points play banks 2 dice from 250: that reaches the target, so
    # it is no bank below it to compare
    for rules in (farkle(500), load_rules("farkle", target=500)):
        for diff in win_report(rules)["differences"]:
            reach = rules.target - diff["score"]
            for key in ("bank_when_playing_to_win", "bank_when_playing_for_points"):
                assert all(lo <= hi < reach for lo, hi in diff[key]), diff


def test_newton_starts_close_enough_to_settle_a_pair_in_few_solves() -> None:
    game = solve_game(load_rules("farkle", target=1000))
    assert game.turn_solves < 3 * (1000 // UNIT) ** 2  # about 2.5 a state


def test_cli_win_probability_limits_and_note(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """20,000 itself is allowed and 3,000 is not yet slow: the refusal and the note on
    standard error (not in the answer) start just past them. (The solve is stubbed: it
    is interrupted, which is exit status 130.)"""
    from companion.cli import main

    def interrupted(*args: object) -> dict:
        raise KeyboardInterrupt

    monkeypatch.setattr("companion.winprob.win_report", interrupted)
    monkeypatch.setattr("companion.tie_break.tie_break_chance", lambda rules: 0.5)
    argv = ["strategy", "--rules", "farkle", "--win-probability", "--target"]
    assert main([*argv, "20000"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and "takes minutes to hours" in err and "at most" not in err
    assert main([*argv, "3000"]) == 130
    assert capsys.readouterr() == ("", "")
    assert main([*argv, "3050"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("hotdice: note: solving a game to 3,050 takes")
    # a first bank far past the target makes every turn's solve span up to it: a minimum
    # bank of a million was solved for ever, 10,000 to a target of 1,000 for over a minute
    for min_bank in (1_000_000, 10_000):
        (tmp_path / f"big{min_bank}.toml").write_text(f'base = "farkle"\nmin_bank = {min_bank}\n')
    big = ["strategy", "--win-probability", "--target", "1000", "--rules"]
    assert main([*big, str(tmp_path / "big1000000.toml")]) == 2
    assert "first bank needs at most 20,000 points, not 1,000,000" in capsys.readouterr().err
    assert main([*big, str(tmp_path / "big10000.toml")]) == 130
    err = capsys.readouterr().err
    assert "solving a game to 1,000 whose first bank needs 10,000 takes" in err
    assert "(a first bank near 2,000 takes seconds" in err and "--target 2000" not in err
    assert main([*big[:3], "500", "--rules", "farkle+greed"]) == 130
    assert capsys.readouterr() == ("", "")  # (an entry of 1,000 past the target is quick)


def test_cli_win_probability_text_layout(capsys: pytest.CaptureFixture[str]) -> None:
    """What the model leaves out comes right under the heading; a single bank total is
    one number, not "450 to 450"."""
    from companion.cli import main

    assert (
        main(["strategy", "--rules", "minnesota+the-5150", "--win-probability", "--target", "300"])
        == 0
    )
    assert capsys.readouterr().out.splitlines()[1].startswith("  not modelled: tie-or-beat")
    assert main(["strategy", "--rules", "farkle", "--win-probability", "--target", "500"]) == 0
    assert (
        "\n       4 dice in hand: 450  (for points: never (roll on))\n" in capsys.readouterr().out
    )


def test_the_progress_line_gives_minutes_from_90_seconds() -> None:
    """From 90 seconds left the estimate is in minutes ("2 min", not "90 s")."""
    assert _progress_run(False, [0, 10], [0.1]) == "solving: 10% done, about 2 min left\n"
