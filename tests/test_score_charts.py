"""Knock charts by game score (docs/game-table.md): the score buckets against their
definition, the chart's choice against a brute-force valuation of the branch outcomes by
the game table, the game kernel's grid swap, ``game=0|1`` parsing and where it applies."""

from __future__ import annotations

import numpy as np
import pytest

from ginsim.analysis.knock.knock_by_score import (
    Evidence,
    bucket_values,
    choose_knocks,
    outcome_values,
)
from ginsim.game.rules import Rules
from ginsim.game.scoring.game_equity import hand_outcomes, solve_game_table
from ginsim.game.scoring.game_scoring import new_states
from ginsim.game.scoring.game_scoring_nb import S_POINTS
from ginsim.simulator.branches.best_response import MIN_CELL_POINTS
from ginsim.simulator.play.game_records import pair_games, play_hollywood
from ginsim.simulator.play.games_nb import knock_by_score_nb
from ginsim.strategies import parse_strategy
from ginsim.strategies.charts.score_charts import (
    SCORE_SHAPE,
    ScoreChart,
    distance_bucket,
    distance_edges,
    load_score_chart,
    score_cell,
    score_chart_from_dict,
)
from ginsim.strategies.charts.score_grid_nb import DISTANCE_SHARES, SCORE_BUCKETS
from ginsim.strategies.params import GRID_CELLS, P_GRID, P_MC_GAME, P_SIZE

MODERN = Rules.preset("modern")
SMALL = Rules(target=30)


def _bucket_by_definition(distance: int, target: int) -> int:
    """The bucket written out: the number of share edges the distance lies beyond."""
    return sum(distance > max(1, round(share * target)) for share in DISTANCE_SHARES)


@pytest.mark.parametrize("target", [30, 100, 150, 250])
def test_distance_buckets_follow_their_definition(target):
    for distance in range(1, target + 1):
        assert distance_bucket(distance, target) == _bucket_by_definition(distance, target)
    assert distance_bucket(target, target) == SCORE_BUCKETS - 1
    assert score_cell(85, 30, 100) == (1, 4)  # 15 to go (11-25); 70 to go (66-85)
    with pytest.raises(ValueError, match="0..99"):
        score_cell(100, 0, 100)


def _toy_table(rules: Rules):
    """A game table from a made-up hand distribution with points up to 12."""
    rng = np.random.default_rng(3)
    n = 4000
    dealer = rng.integers(0, 2, n)
    points = rng.integers(1, 13, n)
    winner = rng.integers(0, 2, n)
    dead = rng.random(n) < 0.05
    pa = np.where((winner == 0) & ~dead, points, 0)
    pb = np.where((winner == 1) & ~dead, points, 0)
    outcome = np.where(points >= 10, 1, 0)
    return solve_game_table(hand_outcomes(dealer, pa, pb, outcome, np.ones(n), rules), rules,
                            boot=0)


def test_outcome_values_are_the_tables_win_after():
    table = _toy_table(SMALL)
    mine = np.array([0, 7, 25, 29])
    theirs = np.array([29, 3, 25, 0])
    nets = np.arange(-15, 16)
    got = outcome_values(table, mine, theirs, nets)
    for k, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        for d in range(2):
            for m, net in enumerate(nets):
                winner = -1 if net == 0 else (0 if net > 0 else 1)
                assert got[k, d, m] == pytest.approx(
                    table.win_after(int(a), int(b), d, winner, abs(int(net))))


def test_the_chosen_knock_maximises_the_game_value_of_the_branches():
    """Brute force: for every score bucket and chart cell, the games won by knocking and
    by waiting over the decision points, each valued at every score of the bucket
    (weighted by the visits) with GameTable.win_after; the chart knocks exactly where
    knocking wins more (cells with too few points keep the hand chart)."""
    table = _toy_table(SMALL)
    rng = np.random.default_rng(7)
    target = SMALL.target
    n = 400
    cells = np.array([5, 17, 42, 100])
    ev = Evidence(cell=rng.choice(cells, n, p=[0.45, 0.45, 0.05, 0.05]),
                  dealer=rng.integers(0, 2, n), knock=rng.integers(-12, 13, n),
                  wait=rng.integers(-12, 13, n), hands=n)
    visits = rng.random((target, target)) + 0.1
    low, high = -12, 12
    gains = ev.gains(bucket_values(table, visits, np.arange(low, high + 1)), low)
    hand_p = np.full(GRID_CELLS, 0.5)
    chart = choose_knocks(gains, ev.counts, hand_p)
    bucket = [_bucket_by_definition(target - s, target) for s in range(target)]
    for i in range(SCORE_BUCKETS):
        for j in range(SCORE_BUCKETS):
            scores = [(a, b) for a in range(target) for b in range(target)
                      if bucket[a] == i and bucket[b] == j]
            w = np.array([visits[a, b] for a, b in scores])
            for cell in cells:
                rows = np.flatnonzero(ev.cell == cell)
                value = {}
                for branch in ("knock", "wait"):
                    total = 0.0
                    for r in rows:
                        net = int(getattr(ev, branch)[r])
                        winner = -1 if net == 0 else (0 if net > 0 else 1)
                        total += sum(wk * table.win_after(a, b, int(ev.dealer[r]), winner,
                                                          abs(net))
                                     for wk, (a, b) in zip(w, scores, strict=True)) / w.sum()
                    value[branch] = total
                assert gains[i, j, cell] == pytest.approx(value["knock"] - value["wait"],
                                                          abs=1e-9)
                if len(rows) < MIN_CELL_POINTS:
                    assert chart[i, j, cell] == 0.5
                else:
                    best = "knock" if chart[i, j, cell] == 1 else "wait"
                    assert value[best] >= max(value.values()) - 1e-12


def test_the_game_kernel_plays_the_grid_of_the_score():
    rng = np.random.default_rng(1)
    grids = rng.random((2, SCORE_BUCKETS, SCORE_BUCKETS, GRID_CELLS))
    grids[1, 0, 0, 0] = -1.0  # seat b knocks by its own grid
    edges = distance_edges(100)
    for a, b in [(0, 0), (95, 10), (40, 89), (99, 99), (14, 75)]:
        params = np.zeros((2, P_SIZE))
        params[1, P_GRID:P_GRID + GRID_CELLS] = 0.25
        sides = new_states(1)[0][0]
        sides[0, 0, S_POINTS] = a
        sides[0, 1, S_POINTS] = b
        knock_by_score_nb(params, (grids, edges), sides, 100)
        i, j = _bucket_by_definition(100 - a, 100), _bucket_by_definition(100 - b, 100)
        assert np.array_equal(params[0, P_GRID:P_GRID + GRID_CELLS], grids[0, i, j])
        assert (params[1, P_GRID:P_GRID + GRID_CELLS] == 0.25).all()


def test_game_parameter_parses_and_applies_to_chart_families_only():
    assert parse_strategy("expert").score_chart_for(MODERN) is not None
    assert parse_strategy("expert:game=1").score_chart_for(MODERN) is not None
    assert parse_strategy("expert:game=0").score_chart_for(MODERN) is None
    assert parse_strategy("memory2").score_chart_for(MODERN) is None
    assert parse_strategy("expert:chart=five").score_chart_for(MODERN) is None
    assert parse_strategy("expert").score_chart_for(None) is None
    assert parse_strategy("mc").score_chart_for(MODERN) is None
    assert parse_strategy("expert").score_chart_for(Rules.coerce("eaai")).name == "score_expert"
    assert parse_strategy("simple:game=0").vector[P_MC_GAME] == 0  # accepted, no effect
    for bad in ("expert:game=2", "expert:game=x", "expert:game=0.5"):
        with pytest.raises(ValueError, match="game"):
            parse_strategy(bad)


def test_score_play_changes_standard_games_only():
    """game=1 is played in standard games (the decks alike, some game goes otherwise)
    and nowhere else: Hollywood sessions are the same whatever the flag."""
    with_score = pair_games("expert", "simple", 0, 300, seed=4)
    without = pair_games("expert:game=0", "simple", 0, 300, seed=4)
    assert (with_score != without).any()
    assert np.array_equal(play_hollywood("expert", "simple", 30, seed=4),
                          play_hollywood("expert:game=0", "simple", 30, seed=4))


def test_score_chart_files_round_trip_and_refuse_bad_ones(tmp_path):
    chart = load_score_chart("score_expert")
    assert chart.p.shape == SCORE_SHAPE and chart.info["rules"] == "modern"
    path = chart.save(tmp_path / "mine.json")
    assert np.array_equal(load_score_chart(str(path)).p, np.round(chart.p, 4))
    flat = ScoreChart(np.full(SCORE_SHAPE, 0.5))
    assert flat.chart_at(85, 30).p.shape == SCORE_SHAPE[2:]
    with pytest.raises(ValueError, match="not a score knock chart"):
        score_chart_from_dict({"p_knock": []}, "x.json")
    with pytest.raises(ValueError, match="x.json"):
        score_chart_from_dict({"format": "ginsim score knock chart", "p_knock": [[1]]},
                              "x.json")
    with pytest.raises(ValueError, match="unknown score knock chart"):
        load_score_chart("no_such_chart")


def test_an_agent_told_the_scores_knocks_by_their_cell():
    from ginsim.table.agents import Agent, hand_message
    from ginsim.table.table import Table

    chart = load_score_chart("score_expert")
    agent = Agent.from_spec("expert", "modern", 0)
    plain = Agent.from_spec("expert:game=0", "modern", 0)
    hand_grid = plain._params[0, P_GRID:P_GRID + GRID_CELLS].copy()
    table = Table(MODERN, 0, 0)
    for scores in [(85, 30), (0, 97), (50, 50)]:
        for a in (agent, plain):
            a.handle(hand_message(table, 1, 0, scores))
        mine, theirs = scores[1], scores[0]  # the agents sit in seat 1
        assert np.array_equal(agent._params[:, P_GRID:P_GRID + GRID_CELLS],
                              np.stack([chart.chart_at(mine, theirs).p.reshape(-1)] * 2))
        assert np.array_equal(plain._params[0, P_GRID:P_GRID + GRID_CELLS], hand_grid)


def test_knock_chart_at_a_score_values_each_branch_by_the_game_table(capsys, tmp_path):
    """``ginsim knock-chart --score 85-30``: each cell is the mean over its decision
    points of the game-win chance after knocking minus after waiting, at 85-30, as
    GameTable.win_after gives it (recomputed here point by point)."""
    import pandas as pd

    from ginsim.analysis.game_stats import game_table
    from ginsim.analysis.knock.knock_chart import decisions_frame, stock_bucket
    from ginsim.cli import main

    argv = ["knock-chart", "--strategy", "expert", "--opponent", "simple", "--hands", "3000",
            "--score", "85-30", "--table-hands", "20000", "--out", str(tmp_path / "kc")]
    assert main(argv) == 0
    assert "game-win chance at 85-30" in capsys.readouterr().out
    chart = pd.read_csv(tmp_path / "kc" / "knock_chart.csv")
    table = game_table("expert", "simple", MODERN, hands=20000, seed=0, boot=0)
    frame = decisions_frame("expert", "simple", 3000, 0, MODERN)

    def win(net: int, dealer: int) -> float:
        winner = -1 if net == 0 else (0 if net > 0 else 1)
        return table.win_after(85, 30, dealer, winner, abs(net))

    gain = [100 * (win(k, 1 - d) - win(w, 1 - d)) for k, w, d in
            zip(frame["net_knock"], frame["net_wait"], frame["dealer"], strict=True)]
    frame = frame.assign(gain=gain, bucket=stock_bucket(frame["stock_left"].to_numpy(),
                                                        (28, 24, 20, 16, 12, 8, 4)))
    expected = frame.groupby(["deadwood", "bucket"])["gain"].mean()
    for row in chart.itertuples():
        assert row.gain == pytest.approx(expected[row.deadwood, row.bucket], abs=1e-9)
    assert main(["knock-chart", "--score", "100-3", "--out", str(tmp_path / "x")]) == 2
    assert "--score 100-3" in capsys.readouterr().err


def test_a_refereed_match_plays_the_games_of_the_game_kernel_by_the_score():
    """The agents (told the scores in each hand message) and the game kernel (which
    reads them from the game's state) knock by the same cells: a match between in-process
    agents is the kernel's games hand for hand."""
    from ginsim.simulator.play.game_records import play_game_hands
    from ginsim.table.referee import play_match

    result = play_match("expert", "learned", 25, "modern", seed=12)
    assert not result.faults
    records, meta = play_game_hands("expert", "learned", 25, 12, "modern")
    refereed = [(h["game"], h["hand"], h["points_a"], h["points_b"]) for h in result.hands]
    kernel = list(zip(meta[:, 0].tolist(), meta[:, 1].tolist(),
                      records["points_a"].tolist(), records["points_b"].tolist(), strict=True))
    assert refereed == kernel
    plain, _ = play_game_hands("expert:game=0", "learned:game=0", 25, 12, "modern")
    assert not np.array_equal(plain["points_a"], records["points_a"])  # the score mattered
