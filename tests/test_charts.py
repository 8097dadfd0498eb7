"""Knock charts as data: files round-trip, bad files are one-line errors, pure charts
draw nothing, mixed cells knock at their rate and give the same rows however the work
is cut."""

import subprocess
import sys

import numpy as np
import pytest

from ginsim.analysis import run_simulation
from ginsim.runner.responses import cell_evidence
from ginsim.simulator.branches.knock_branches import knock_decisions
from ginsim.simulator.play.engine import play_records
from ginsim.strategies.charts.knock_charts import SHAPE, KnockChart, load_chart, read_chart_file
from ginsim.strategies.params import GRID_CELLS, P_GRID
from ginsim.strategies.presets import parse_strategy


def _random_chart(seed: int) -> KnockChart:
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(SHAPE), 6)
    p[rng.random(SHAPE) < 0.4] = 1.0
    p[rng.random(SHAPE) < 0.2] = 0.0
    return KnockChart(p, "random", {"seed": seed})


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_chart_files_round_trip(tmp_path, suffix):
    chart = _random_chart(3)
    path = chart.save(tmp_path / f"c{suffix}")
    back = read_chart_file(path)
    assert np.array_equal(back.p, chart.p)
    # ... and a spec naming the file plays that chart.
    vec = parse_strategy(f"memory2:chart={path}").vector
    assert np.array_equal(vec[P_GRID:P_GRID + GRID_CELLS], chart.p.reshape(-1))


@pytest.mark.parametrize("text, words", [
    ("{not json", "not valid JSON"),
    ('{"p_knock": [[1, 0]]}', "cells"),
    ('{"name": "x"}', "not a knock chart"),
    ('{"p_knock": ' + str(np.full(SHAPE, 1.5).tolist()) + "}", "probabilities"),
])
def test_bad_chart_file_is_one_line_error(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        parse_strategy(f"memory2:chart={path}")
    assert words in str(err.value) and "\n" not in str(err.value)


def test_bad_chart_csv_and_cli_exit(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("stock_low,stock_high,deadwood,opp_taken,p_knock\n0,3,1,0,0.5\n")
    with pytest.raises(ValueError, match="cells missing"):
        load_chart(str(path))
    proc = subprocess.run([sys.executable, "-m", "ginsim", "simulate", "--a",
                           f"memory2:chart={path}", "--hands", "10"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "cells missing" in proc.stderr


def test_pure_charts_play_like_thresholds():
    """A 0/1 chart draws no random numbers: knock-always and gin-only charts give the
    very records of the equivalent threshold strategies."""
    for chart, threshold in (("asap", "memory2:undercut=1"), ("gin_only", "memory2:knock=0")):
        a, _ = play_records(chart, "simple", stop=400, seed=5)
        b, _ = play_records(threshold, "simple", stop=400, seed=5)
        assert np.array_equal(a, b), chart


def test_mixed_cells_knock_at_their_rate():
    """Every cell 0.3: about 30% of seat a's decision points are knocks (binomial
    99.9% band), so the draw follows the cell."""
    chart = KnockChart(np.full(SHAPE, 0.3), "p30")
    from ginsim.simulator.branches.best_response import with_chart

    rows = knock_decisions(with_chart("memory2", chart), "memory2", hands=3000, seed=1)
    n = len(rows)
    share = rows["knocked"].mean()
    assert n > 2000
    assert abs(share - 0.3) < 3.3 * np.sqrt(0.3 * 0.7 / n)


def test_mixed_charts_same_rows_for_any_jobs_and_chunks(tmp_path):
    spec = "memory2:chart=equilibrium"
    path = KnockChart(np.full(SHAPE, 0.5), "half").save(tmp_path / "half.json")
    strategy = parse_strategy(f"memory2:chart={path}")
    runs = [run_simulation(strategy, spec, hands=3000, seed=9, n_jobs=j, chunk_hands=c,
                           progress=False).hands
            for j, c in ((1, 3000), (2, 400), (2, 1000))]
    for other in runs[1:]:
        assert runs[0].equals(other)
    whole = knock_decisions(strategy, spec, hands=1200, seed=4)
    parts = np.concatenate([knock_decisions(strategy, spec, hands=400, seed=4, start=s)
                            for s in (0, 400, 800)])
    assert np.array_equal(whole, parts)
    from ginsim.game.rules import Rules

    one = cell_evidence(strategy, parse_strategy(spec), Rules(), 4, 0, 30_000, n_jobs=1)
    two = cell_evidence(strategy, parse_strategy(spec), Rules(), 4, 0, 30_000, n_jobs=2)
    assert np.array_equal(one, two)


def test_chart_signal_counts_the_opponents_pile_takes_so_far():
    """``opp_taken`` is the opponent's pile takes before the decision, counted here from
    the per-turn trace of the same hands (upcard takes included), and it differs from the
    pile cards the opponent still holds on some rows (a taken card was discarded later)."""
    from ginsim.game.state import SOURCE_PILE
    from ginsim.simulator.machine.records import (
        TRACE_DRAWN,
        TRACE_HAND,
        TRACE_HAND_B,
        TRACE_SEAT,
        TRACE_SOURCE,
        TRACE_TURN,
    )

    rows = knock_decisions("early_knocker", "early_knocker", hands=1000, seed=8)
    _, trace = play_records("early_knocker", "early_knocker", stop=1000, seed=8,
                            trace_rows=60_000)
    assert 0 < len(trace) < 60_000 and len(rows) > 300
    takes_b = trace[(trace[:, TRACE_SEAT] == 1) & (trace[:, TRACE_SOURCE] == SOURCE_PILE)]
    held_differs = 0
    for row in rows:
        before = takes_b[(takes_b[:, TRACE_HAND] == row["hand"])
                         & (takes_b[:, TRACE_TURN] < row["turn"])]
        assert row["opp_taken"] == len(before), row
        seen = trace[(trace[:, TRACE_HAND] == row["hand"]) & (trace[:, TRACE_TURN] < row["turn"])]
        hand_b = seen[-1, TRACE_HAND_B] if len(seen) else 0
        held = sum(1 for c in before[:, TRACE_DRAWN] if (hand_b >> c) & 1)
        held_differs += held != len(before)
    assert held_differs > 0


def test_grid_reads_pile_takes_not_held_cards():
    """A chart that knocks only when the opponent has taken exactly one pile card: the
    decision follows ``ST_PILE_TAKES`` whatever pile cards the opponent still holds."""
    from ginsim.game.rules import Rules
    from ginsim.game.state import HS_SIZE, ST_KNOCK_LIMIT, ST_PILE_TAKES, ST_POS, ST_TAKEN
    from ginsim.simulator.branches.best_response import with_chart
    from ginsim.strategies.policy_nb import should_knock_nb

    p = np.zeros(SHAPE)
    p[:, :, 1] = 1.0
    vec = with_chart("memory2", KnockChart(p, "one_take")).vector
    params = np.stack([vec, vec])
    rules = Rules().packed()
    rng = np.zeros(3, dtype=np.uint64)
    for takes, held, knocks in ((1, 0, True), (0, 0, False), (2, 1 << 7, False),
                                (1, (1 << 7) | (1 << 20), True)):
        hs = np.zeros(HS_SIZE, dtype=np.int64)
        hs[ST_POS] = 30
        hs[ST_KNOCK_LIMIT] = 10
        hs[ST_PILE_TAKES + 1] = takes
        hs[ST_TAKEN + 1] = held
        assert should_knock_nb(params, 0, 5, hs, rules, rng) == knocks, (takes, held)


def test_knock_limit_classes_partition_the_evidence():
    """Oklahoma rows carry the upcard's knock limit (2..10 here, never above the
    deadwood kept), and the evidence of the knock-limit classes sums to the whole."""
    from ginsim.game.rules import Rules

    rules = Rules.preset("oklahoma")
    rows = knock_decisions("memory2", "memory2", hands=2000, seed=6, rules=rules)
    assert set(np.unique(rows["knock_limit"])) <= set(range(2, 11))
    assert (rows["deadwood"] <= rows["knock_limit"]).all()
    a = parse_strategy("memory2")
    whole = cell_evidence(a, a, rules, 6, 0, 2000)
    parts = [cell_evidence(a, a, rules, 6, 0, 2000, limits=lim)
             for lim in ((0, 4), (5, 9), (10, 10))]
    assert all(p[0].sum() > 0 for p in parts)
    assert np.array_equal(sum(parts), whole)
