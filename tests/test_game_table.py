"""The game table (docs/game-table.md): its recursion against every game a toy hand
distribution can make, scored by the game-scoring kernel, a score worked by hand, and
the table against whole games simulated from ten starting scores."""

from __future__ import annotations

import numpy as np
import pytest

from ginsim.analysis.game_stats import game_table, game_table_frame, play_games
from ginsim.game.rules import Rules
from ginsim.game.scoring.game_equity import hand_outcomes, solve_game_table
from ginsim.game.scoring.game_scoring import HandResult, score_game

KNOCK, GIN, UNDERCUT = 0, 1, 3
# A toy hand distribution, one per dealer: (winner, points, outcome, hands) and dead hands.
TOY = {0: ([(0, 1, KNOCK, 30), (0, 3, GIN, 20), (1, 2, UNDERCUT, 50)], 11),
       1: ([(0, 2, KNOCK, 25), (1, 1, KNOCK, 45), (1, 4, GIN, 30)], 25)}
TARGET = 5


def _toy_records() -> tuple[np.ndarray, ...]:
    """The toy distribution as hand records (one per hand), for hand_outcomes."""
    dealer, pa, pb, outcome = [], [], [], []
    for d, (results, dead) in TOY.items():
        for winner, points, out, count in results:
            dealer += [d] * count
            pa += [points if winner == 0 else 0] * count
            pb += [points if winner == 1 else 0] * count
            outcome += [out] * count
        dealer += [d] * dead
        pa += [0] * dead
        pb += [0] * dead
        outcome += [4] * dead
    return tuple(np.array(c) for c in (dealer, pa, pb, outcome)) + (np.ones(len(dealer)),)


def _next_dealer(mode: str, dealer: int, winner: int) -> int:
    """docs/rules.md §3, written out again."""
    return {"loser": 1 - winner, "winner": winner, "alternate": 1 - dealer}[mode]


def _enumerate(rules: Rules, dealer: int) -> dict[str, float]:
    """Every game from 0-0 with ``dealer`` dealing first, each hand drawn from TOY, scored
    by the game-scoring kernel: a's win chance, expected margin, shutout chances and
    expected hands (a dead hand is dealt again, so a hand dealt by d takes 1/(1-q_d))."""
    total = {"win": 0.0, "value": 0.0, "shut_a": 0.0, "shut_b": 0.0, "hands": 0.0}

    def walk(seq: list, prob: float, d: int, a: int, b: int, hands: float) -> None:
        results, dead = TOY[d]
        won = sum(r[3] for r in results)
        for winner, points, out, count in results:
            p = prob * count / won
            h = hands + (won + dead) / won
            na, nb = (a + points, b) if winner == 0 else (a, b + points)
            hand = seq + [HandResult(winner, points, out)]
            if max(na, nb) >= rules.target:
                game = score_game(hand, rules)
                total["win"] += p * (game.winner == 0)
                total["value"] += p * (game.scores[0] - game.scores[1])
                total["shut_a"] += p * (game.shutout and game.winner == 0)
                total["shut_b"] += p * (game.shutout and game.winner == 1)
                total["hands"] += p * h
            else:
                walk(hand, p, _next_dealer(rules.next_dealer, d, winner), na, nb, h)

    walk([], 1.0, dealer, 0, 0, 0.0)
    return total


@pytest.mark.parametrize("spec", [
    f"modern:target={TARGET}",  # shutout bonus, loser deals
    f"classic:target={TARGET},next_dealer=winner",  # shutout doubles, box 20
    f"modern:target={TARGET},shutout=none,next_dealer=alternate,oklahoma_boxes=true",
])
def test_recursion_equals_every_game_scored_by_the_kernel(spec: str) -> None:
    rules = Rules.coerce(spec)
    outcomes = hand_outcomes(*_toy_records(), rules)
    table = solve_game_table(outcomes, rules, boot=0)
    for dealer in (0, 1):
        want = _enumerate(rules, dealer)
        for name, value in want.items():
            assert getattr(table, name)[dealer, 0, 0] == pytest.approx(value, rel=1e-12), (
                spec, dealer, name)


def test_one_hand_from_the_target_worked_by_hand() -> None:
    """At 4-4 (target 5) the next won hand ends the game, and nobody can be shut out:
    with b dealing, a wins 25 / 100 (2 points, then 4 + 2 + 25 box + 100 game = 131
    against 4: +127), b wins 45 / 100 (by 4 + 1 + 125 - 4 = +126) or 30 / 100 (+129)."""
    rules = Rules.coerce(f"modern:target={TARGET}")
    table = solve_game_table(hand_outcomes(*_toy_records(), rules), rules, boot=0)
    assert table.at("win", 4, 4, dealer=1) == pytest.approx(0.25)
    assert table.at("value", 4, 4, dealer=1) == pytest.approx(
        0.25 * 127 - 0.45 * 126 - 0.30 * 129)
    assert table.at("hands", 4, 4, dealer=1) == pytest.approx(125 / 100)
    # a at 0 against 4: a shutout when b wins (bonus 100 more), the a win is plain
    assert table.at("value", 0, 4, dealer=1) == pytest.approx(
        0.25 * table.at("value", 2, 4, dealer=1) + 25 * 0.25
        - 0.45 * (4 + 1 + 25 + 100 + 100) - 0.30 * (4 + 4 + 25 + 100 + 100))


@pytest.mark.parametrize("mode", ["loser", "winner", "alternate"])
def test_win_after_each_result_averages_to_the_table(mode: str) -> None:
    """W(d, a, b) is the chance-weighted mean of the win chance after each won hand."""
    rules = Rules.coerce(f"modern:target={TARGET},next_dealer={mode}")
    table = solve_game_table(hand_outcomes(*_toy_records(), rules), rules, boot=0)
    for d, (results, _) in TOY.items():
        won = sum(r[3] for r in results)
        for a, b in ((0, 0), (3, 1), (4, 4), (2, 4)):
            mean = sum(count / won * table.win_after(a, b, d, w, k)
                       for w, k, _, count in results)
            assert mean == pytest.approx(table.at("win", a, b, d), rel=1e-12)
            assert table.win_after(a, b, d, -1, 0) == table.at("win", a, b, d)


def test_bootstrap_intervals_cover_the_true_table() -> None:
    """Tables from 200 independent samples of 400 hands of a known distribution (target
    20): their 95% intervals hold the exact table's chance and value at 0-0 in about 95%
    of samples (binomial tolerance: 88% to 99.5%), and the mean bootstrap error matches
    the spread of the estimates within 20% (the spread's own error is 5%)."""
    from ginsim.game.scoring.game_equity import HandOutcomes

    rules = Rules.coerce("modern:target=20")
    exact = hand_outcomes(*_toy_records(), rules)
    truth = solve_game_table(exact, rules, boot=0)
    rng = np.random.default_rng(2026)
    cells = np.append(exact.counts, exact.dead).astype(float)
    dealers = np.append(exact.outcomes[:, 0], [0, 1])
    estimates, errors, covered = [], [], {"win": 0, "value": 0}
    for i in range(200):
        counts = np.zeros(len(cells), dtype=np.int64)
        for d in (0, 1):
            mine = dealers == d
            counts[mine] = rng.multinomial(200, cells[mine] / cells[mine].sum())
        sample = HandOutcomes(exact.outcomes, counts[:-2], counts[-2:])
        table = solve_game_table(sample, rules, boot=60, seed=i)
        estimates.append(table.at("win", 0, 0))
        errors.append(table.at("win_se", 0, 0))
        for name in covered:
            low, high = table.interval(name, 0, 0)
            covered[name] += low <= truth.at(name, 0, 0) <= high
    for name, hits in covered.items():
        assert 176 <= hits <= 199, (name, hits)
    assert np.mean(errors) == pytest.approx(np.std(estimates, ddof=1), rel=0.2)


@pytest.mark.parametrize("spec", [f"modern:target={TARGET}",
                                  f"classic:target={TARGET},next_dealer=alternate"])
def test_hollywood_games_equal_sessions_scored_by_the_kernel(spec: str) -> None:
    """Each Hollywood game's value at the session's start against 4,000 sessions of toy
    hands (dealer cut, dead hands dealt again) scored by the Hollywood kernel: within 4
    standard errors of the sessions' means (win chance, margin, hands)."""
    from ginsim.game.scoring.game_equity import solve_hollywood
    from ginsim.game.scoring.game_scoring import score_hollywood

    rules = Rules.coerce(spec)
    table = solve_hollywood(hand_outcomes(*_toy_records(), rules), rules, boot=0)
    rng = np.random.default_rng(7)
    sessions, length = 4000, 60
    # each dealer's results, dead hands last: winner (-1 dead), points, outcome, hands
    kinds = {d: [r[:3] for r in results] + [(-1, 0, 4)] for d, (results, _) in TOY.items()}
    weights = {d: np.array([r[3] for r in results] + [dead], dtype=float)
               for d, (results, dead) in TOY.items()}
    dealer = rng.integers(2, size=sessions)
    hands = np.zeros((sessions, length, 3), dtype=np.int64)
    for h in range(length):
        u = rng.random(sessions)
        for d in (0, 1):
            mine = dealer == d
            cum = np.cumsum(weights[d]) / weights[d].sum()
            hands[mine, h] = np.array(kinds[d])[np.searchsorted(cum, u[mine], side="right")]
        won = hands[:, h, 0]
        after = np.array([[_next_dealer(rules.next_dealer, d, w) for w in (0, 1)]
                          for d in (0, 1)])
        dealer = np.where(won < 0, dealer, after[dealer, np.maximum(won, 0)])
    games: list[list] = [[], [], []]
    for seq in hands:
        for c, game in enumerate(score_hollywood([HandResult(*map(int, r)) for r in seq],
                                                 rules)[0]):
            games[c].append((game.winner == 0, game.scores[0] - game.scores[1], game.hands))
    for c in range(3):
        seen = np.array(games[c], dtype=float)
        want = table.game(c + 1)
        for j, name in enumerate(("win", "value", "hands")):
            err = seen[:, j].std(ddof=1) / np.sqrt(len(seen))
            assert abs(want[name] - seen[:, j].mean()) <= 4 * err, (spec, c + 1, name)
    assert table.session == pytest.approx(sum(table.game(c)["value"] for c in (1, 2, 3)))


def test_table_refuses_what_it_cannot_value() -> None:
    rules = Rules.coerce(f"modern:target={TARGET}")
    dealer, pa, pb, outcome, mult = _toy_records()
    only_a = dealer == 0
    with pytest.raises(ValueError, match="won hands dealt by seat b"):
        solve_game_table(hand_outcomes(dealer[only_a], pa[only_a], pb[only_a],
                                       outcome[only_a], mult[only_a], rules), rules, boot=0)
    table = solve_game_table(hand_outcomes(dealer, pa, pb, outcome, mult, rules), rules,
                             boot=0)
    with pytest.raises(ValueError, match="score a must be 0..4"):
        table.at("win", 5, 0)
    with pytest.raises(ValueError, match="standard or hollywood scoring"):
        game_table(system="multimatch")


# The table against games: ten starting scores, fixed seeds; each gap within the
# combined 99.9% interval (z = 3.29, so ten checks fail together by chance < 1%).
STARTS = [(0, 0), (0, 50), (50, 0), (20, 80), (80, 20), (90, 90), (60, 60), (95, 10),
          (10, 95), (40, 70)]
Z_CHECK = 3.29


@pytest.fixture(scope="module")
def table():
    return game_table("expert", "simple", "modern", hands=40_000, seed=11, boot=40)


@pytest.mark.parametrize("start", STARTS)
def test_table_agrees_with_games_from_a_score(table, start: tuple[int, int]) -> None:
    # game=0: the table values hands played as in simulate, whatever the score
    games = play_games("expert:game=0", "simple", 800, seed=100 + start[0] * 100 + start[1],
                       rules="modern", start=start)
    n = len(games)
    rate = float((games["winner"] == "a").mean())
    margin = np.where(games["winner"] == "a", games["margin"], -games["margin"])
    win, win_se = table.at("win", *start), table.at("win_se", *start)
    gap = abs(win - rate)
    assert gap <= Z_CHECK * np.hypot(win_se, np.sqrt(max(rate * (1 - rate), 1e-4) / n)), (
        start, win, rate)
    value, value_se = table.at("value", *start), table.at("value_se", *start)
    assert abs(value - margin.mean()) <= Z_CHECK * np.hypot(
        value_se, margin.std(ddof=1) / np.sqrt(n)), (start, value, margin.mean())
    hands, hands_se = table.at("hands", *start), table.at("hands_se", *start)
    assert abs(hands - games["hands"].mean()) <= Z_CHECK * np.hypot(
        hands_se, games["hands"].std(ddof=1) / np.sqrt(n)), start


def test_hollywood_table_agrees_with_sessions() -> None:
    """Each Hollywood game at the session's start against 1,500 sessions played (expert vs
    simple), within the combined 99.9% interval, as the standard check above."""
    from ginsim.simulator.play.game_records import play_hollywood

    holly = game_table("expert", "simple", "modern", hands=40_000, seed=12, boot=40,
                       system="hollywood")
    rows = play_hollywood("expert", "simple", 1500, seed=13, rules="modern")
    for c in (1, 2, 3):
        col = rows[rows["column"] == c]
        n = len(col)
        rate = float((col["winner"] == 0).mean())
        margin = np.where(col["winner"] == 0, col["margin"], -col["margin"])
        want = holly.game(c)
        assert abs(want["win"] - rate) <= Z_CHECK * np.hypot(
            holly.se[c - 1, 0], np.sqrt(rate * (1 - rate) / n)), (c, want["win"], rate)
        assert abs(want["value"] - margin.mean()) <= Z_CHECK * np.hypot(
            holly.se[c - 1, 1], margin.std(ddof=1) / np.sqrt(n)), (c, want["value"])


def test_frame_rows_and_intervals(table) -> None:
    frame = game_table_frame(table, 10)
    assert len(frame) == 3 * 10 * 10 and set(frame["dealer"]) == {"a", "b", "cut"}
    cut = frame[frame["dealer"] == "cut"].set_index(["score_a", "score_b"])
    assert cut.loc[(0, 0), "win"] == pytest.approx(table.at("win", 0, 0))
    assert (frame["win_low"] <= frame["win"]).all() and (frame["win"] <= frame["win_high"]).all()
    # more points never lower a's chance, nor b's raise it: the same hands reach the
    # target no later (true of the recursion for any hand distribution)
    assert (np.diff(table.win, axis=1) >= -1e-12).all()
    assert (np.diff(table.win, axis=2) <= 1e-12).all()


def test_games_start_from_the_given_score() -> None:
    """From 99-0 every game ends with a at 99 or more; only b, still at 0, can be shut out;
    boxes count the hands won from the start."""
    games = play_games("expert", "simple", 300, seed=5, rules="modern", start=(99, 0))
    assert (games["points_a"] >= 99).all()
    assert (games.loc[games["winner"] == "b", "points_b"] >= 100).all()
    shut = games[games["shutout"]]
    assert len(shut) and (shut["winner"] == "a").all() and (shut["points_b"] == 0).all()
    a_won = games[games["winner"] == "a"]
    assert (a_won["boxes_a"] >= 1).all() and (a_won["boxes_a"] <= a_won["hands"]).all()


def test_games_command_start_and_json(capsys) -> None:
    import json

    from ginsim.cli import main

    assert main(["games", "--a", "expert", "--b", "simple", "--games", "300", "--start",
                 "85-30", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert set(got) >= {"games", "won_a", "rate_a", "ci_a", "hands_per_game"}
    assert got["games"] == 300 and got["won_a"] == round(got["rate_a"] * 300)
    assert got["ci_a"][0] <= got["rate_a"] <= got["ci_a"][1] and got["hands_per_game"] >= 1
    for bad, says in (("100-0", "each score must be 0..99"), ("5", "two scores as A-B"),
                      ("-3-4", "two scores as A-B")):
        assert main(["games", "--games", "10", f"--start={bad}"]) == 2
        err = capsys.readouterr().err.strip()
        assert says in err and "\n" not in err
    assert main(["games", "--games", "10", "--start", "1-2", "--system", "hollywood"]) == 2
    assert "standard games" in capsys.readouterr().err


def test_game_table_command(capsys, tmp_path) -> None:
    import json

    from ginsim.cli import main

    csv = tmp_path / "t.csv"
    assert main(["game-table", "--rules", "modern:target=30", "--hands", "4000", "--boot",
                 "5", "--step", "5", "--csv", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "a \\ b" in out and str(csv) in out and "4,000 hands" in out
    assert len(csv.read_text().splitlines()) == 1 + 3 * 30 * 30
    assert main(["game-table", "--rules", "modern:target=30", "--hands", "4000", "--boot",
                 "5", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["target"] == 30 and np.array(got["win"]).shape == (2, 30, 30)
    assert main(["game-table", "--rules", "modern:target=30", "--hands", "4000", "--boot",
                 "5", "--system", "hollywood", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert [g["game"] for g in got["games"]] == [1, 2, 3]
    assert got["session_value"] == pytest.approx(sum(g["value"] for g in got["games"]))
    assert main(["game-table", "--a", "mc"]) == 2
    assert "mc player" in capsys.readouterr().err
