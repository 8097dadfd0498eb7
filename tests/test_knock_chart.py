"""The counterfactual knock chart: branches from copied state, checked against the actual
play and against a brute-force scoring of each knock from the trace."""

import numpy as np
import pandas as pd
import pytest
from reference import (
    ref_best_discard,
    ref_layoff_deadwood,
    ref_min_deadwood_arrangements,
    ref_score,
)

from ginsim.analysis.knock.knock_chart import (
    chart_masks,
    chart_spec,
    chart_table,
    decisions_frame,
    plain_words,
)
from ginsim.game.cards import mask_to_cards
from ginsim.game.state import SOURCE_PILE
from ginsim.simulator.branches.knock_branches import knock_decisions
from ginsim.simulator.machine.records import TRACE_COLUMNS
from ginsim.simulator.play.engine import play_records
from ginsim.strategies import parse_strategy

C = {name: i for i, name in enumerate(TRACE_COLUMNS)}


@pytest.fixture(scope="module", params=[("simple:t=5", "simple"), ("memory2", "memory1")])
def run(request):
    a, b = request.param
    decisions = knock_decisions(a, b, hands=3000, seed=12)
    records, trace = play_records(a, b, stop=3000, seed=12, trace_rows=200_000)
    return decisions, records, trace


def test_branch_taken_in_play_reproduces_the_hand(run):
    decisions, records, _ = run
    assert len(decisions) > 500
    net = records["points_a"].astype(int) - records["points_b"]
    knocked = decisions["knocked"] == 1
    actual = net[decisions["hand"]]
    assert (decisions["net_knock"][knocked] == actual[knocked]).all()
    assert (decisions["net_wait"][~knocked] == actual[~knocked]).all()
    assert (~knocked).sum() > 50  # both kinds of decision occur


def test_knock_branch_matches_brute_force_scoring(run):
    decisions, records, trace = run
    rows = {(int(r[C["hand"]]), int(r[C["turn"]])): r for r in trace if r[C["seat"]] == 0}
    defender_rows = {}
    for r in trace:
        defender_rows[(int(r[C["hand"]]), int(r[C["turn"]]))] = r
    checked = 0
    for d in decisions[decisions["knocked"] == 0][:40]:
        row = rows[(int(d["hand"]), int(d["turn"]))]
        kept = mask_to_cards(row[C["hand_a"]])
        hand11 = kept + [int(row[C["discard"]])]
        forbidden = int(row[C["drawn"]]) if row[C["source"]] == SOURCE_PILE else None
        card, k = ref_best_discard(hand11, forbidden=forbidden)
        assert k == d["deadwood"]
        knocker = [c for c in hand11 if c != card]
        defender = mask_to_cards(row[C["hand_b"]])
        options = set()
        for arrangement in ref_min_deadwood_arrangements(knocker):
            dw = ref_layoff_deadwood([sorted(m) for m in arrangement], defender)
            kp, dp = ref_score(k, dw, k == 0)
            options.add(kp - dp)
        assert d["net_knock"] in options
        checked += 1
    assert checked == 40


def test_chunking_and_determinism():
    whole = knock_decisions("memory2", "simple", hands=2000, seed=3)
    parts = np.concatenate([knock_decisions("memory2", "simple", hands=700, seed=3),
                            knock_decisions("memory2", "simple", hands=1300, seed=3,
                                            start=700)])
    assert np.array_equal(whole, parts)


def test_chart_table_and_words():
    frame = decisions_frame("simple", "simple", hands=20_000, seed=1)
    chart = chart_table(frame, edges=(24, 16, 8))
    assert set(chart.columns) >= {"deadwood", "stock", "n", "gain", "low", "high", "verdict"}
    assert chart["n"].sum() == len(frame)
    few = chart["n"] < 30  # too few decisions to read: no knock or wait verdict
    assert few.any() and ((chart.verdict == "too few") == few).all()
    assert ((chart.verdict == "knock") == (~few & (chart.low > 0))).all()
    assert ((chart.verdict == "wait") == (~few & (chart.high < 0))).all()
    cell = chart.iloc[0]
    sub = frame[(frame.deadwood == cell.deadwood) & (frame.stock_left >= 24)]
    assert cell.gain == pytest.approx(sub.gain.mean())
    masks = chart_masks(chart)
    assert len(masks) == 4 and all(m & 1 for m in masks)
    spec = chart_spec("simple", masks)
    assert parse_strategy(spec).vector is not None
    words = plain_words(chart, "simple")
    assert words.startswith("Against `simple`") and "24-31" in words


def test_chart_masks_read_gains():
    chart = pd.DataFrame({"deadwood": [3, 4, 3], "bucket": [0, 0, 1], "gain": [1.0, -1.0, 2.0]})
    assert chart_masks(chart) == (1 | 1 << 3, 1 | 1 << 3)


def test_every_stock_bucket_is_one_notion():
    """The knock grid's kernel bucket, the undercut table's (counted from the shallow
    end) and the analysis' buckets of any edges are the same count of edges above."""
    from ginsim.strategies.grid_nb import (
        GRID_EDGES,
        bucket_labels,
        bucket_range,
        grid_bucket_nb,
        stock_buckets,
    )
    from ginsim.strategies.params import GRID_BUCKETS
    from ginsim.strategies.undercut_table import UNDERCUT_STOCK_STEP, UNDERCUT_TABLE

    stocks = np.arange(-3, 60)
    by_edges = stock_buckets(stocks, GRID_EDGES)
    assert [grid_bucket_nb(int(s)) for s in stocks] == by_edges.tolist()
    undercut = np.minimum(np.maximum(stocks, 0) // UNDERCUT_STOCK_STEP,
                          UNDERCUT_TABLE.shape[1] - 1)
    assert (GRID_BUCKETS - 1 - by_edges).tolist() == undercut.tolist()
    for edges in (GRID_EDGES, (24, 16, 8), (20,)):
        labels = bucket_labels(edges)
        for s in range(32):
            low, high = map(int, labels[stock_buckets([s], edges)[0]].split("-"))
            assert low <= s <= high  # each count falls in the range its bucket names
    assert bucket_range(0) == (28, 31) and bucket_range(GRID_BUCKETS - 1) == (0, 3)
