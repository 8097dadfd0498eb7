"""Analysis functions: hand-computed small tables, interval formulas against statsmodels
and scipy, records-versus-aggregates agreement on the same run, and the paired interval
of duplicate deals recomputed here deal by deal."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

import ginsim
from ginsim.analysis.api import run_simulation
from ginsim.analysis.knock.sweeps import best_thresholds, strategy_matrix
from ginsim.analysis.metrics import (
    cells_from_hands,
    expected_points,
    hand_length,
    mean_hand_length,
    outcome_mix,
    turns_from_hands,
    undercut_by_deadwood,
    undercut_by_deadwood_stock,
    win_rate,
)
from ginsim.analysis.pairs import paired_difference
from ginsim.analysis.summary import mean_interval, wilson_interval


def small_hands() -> pd.DataFrame:
    # Six hands drawn by hand: every outcome, both seats knocking, one dead hand.
    rows = [
        # outcome, knocker, dealer, K, stock, points_a, points_b, turns
        ("knock", "a", "a", 5, 20, 10, 0, 12),
        ("undercut", "a", "b", 8, 18, 0, 27, 14),
        ("gin", "b", "a", 0, 10, 0, 40, 20),
        ("knock", "b", "b", 8, 19, 0, 6, 13),
        ("dead", "", "a", -1, 2, 0, 0, 30),
        ("undercut", "b", "b", 8, 5, 30, 0, 25),
    ]
    frame = pd.DataFrame(rows, columns=["outcome", "knocker", "dealer", "knocker_deadwood",
                                        "stock_left", "points_a", "points_b", "turns"])
    frame["outcome"] = pd.Categorical(frame.outcome,
                                      ["knock", "gin", "big_gin", "undercut", "dead"])
    return frame


def test_hand_computed_small_table():
    cells = cells_from_hands(small_hands())
    mix = outcome_mix(cells).set_index("outcome")
    assert mix.loc["knock", "hands"] == 2 and mix.loc["undercut", "rate"] == pytest.approx(2 / 6)
    uc = undercut_by_deadwood(cells).set_index("deadwood")
    assert uc.loc[8, "n"] == 3 and uc.loc[8, "undercuts"] == 2 and uc.loc[5, "rate"] == 0
    ep = expected_points(cells).set_index("statistic")
    assert ep.loc["points_a", "mean"] == pytest.approx(40 / 6)
    assert ep.loc["points_b", "mean"] == pytest.approx(73 / 6)
    diff = np.array([10, -27, -40, -6, 0, 30])
    assert ep.loc["points_a_minus_b", "mean"] == pytest.approx(diff.mean())
    half = stats.norm.ppf(0.975) * diff.std(ddof=1) / np.sqrt(6)
    assert ep.loc["points_a_minus_b", "high"] == pytest.approx(diff.mean() + half)
    wins = win_rate(cells).set_index("seat")
    # a wins its own knock and the undercut of b's knock; b wins the other three.
    assert wins.loc["a", "wins"] == 2 and wins.loc["b", "wins"] == 3
    by_stock = undercut_by_deadwood_stock(cells, edges=(16, 8))
    row = by_stock[(by_stock.deadwood == 8) & (by_stock.stock == "16-31")].iloc[0]
    assert row.n == 2 and row.undercuts == 1
    turns = turns_from_hands(small_hands())
    assert hand_length(turns).set_index("turns").loc[30, "count"] == 1
    assert mean_hand_length(turns).iloc[0]["mean"] == pytest.approx(114 / 6)


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (50, 1000), (999, 1000), (7, 7)])
def test_wilson_matches_statsmodels(k, n):
    low, high = wilson_interval(k, n)
    ref_low, ref_high = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert low == pytest.approx(ref_low, abs=1e-9) and high == pytest.approx(ref_high, abs=1e-9)


def test_mean_interval_matches_scipy():
    values = np.random.default_rng(3).normal(2.0, 5.0, 400)
    mean, low, high = mean_interval(values)
    ref = stats.norm.interval(0.95, loc=values.mean(), scale=stats.sem(values))
    assert (low, high) == pytest.approx(ref)


def test_paired_difference():
    hands = pd.DataFrame({"points_a": [10, 0, 0, 4], "points_b": [0, 6, 2, 0]})
    row = paired_difference(hands).iloc[0]
    per_deal = np.array([(10 - 6) / 2, (-2 + 4) / 2])
    assert row["mean"] == pytest.approx(per_deal.mean()) and row["n"] == 2
    with pytest.raises(ValueError, match="pairs"):
        paired_difference(hands.iloc[:3])


def test_records_and_aggregates_agree():
    result = run_simulation("memory1", "simple:t=6", hands=30_000, seed=4, n_jobs=2,
                            duplicate=True)
    from_hands = cells_from_hands(result.hands)
    streamed = result.tables["cells"]
    for fn in (outcome_mix, undercut_by_deadwood, expected_points, win_rate,
               undercut_by_deadwood_stock):
        pd.testing.assert_frame_equal(fn(from_hands), fn(streamed), check_dtype=False,
                                      check_categorical=False)
    pd.testing.assert_frame_equal(hand_length(turns_from_hands(result.hands)),
                                  hand_length(result.tables["turns"]), check_dtype=False)


def test_best_response_picks_the_max():
    sweep = pd.DataFrame({"threshold": [0, 5, 10, 0, 5, 10], "opponent": ["x"] * 3 + ["y"] * 3,
                          "mean": [1.0, 2.0, 0.5, 3.0, -1.0, 0.0], "low": 0.0, "high": 0.0})
    best = best_thresholds(sweep).set_index("opponent")
    assert best.loc["x", "best_threshold"] == 5 and best.loc["x", "runner_up"] == 0
    assert best.loc["y", "best_threshold"] == 0


PAIR, DEALS, PAIR_SEED = ("memory1", "simple:t=6"), 3_000, 8


@pytest.fixture(scope="module")
def duplicate_run():
    return run_simulation(*PAIR, hands=2 * DEALS, seed=PAIR_SEED, duplicate=True, n_jobs=1)


def by_hand_per_deal(hands: pd.DataFrame) -> np.ndarray:
    """a - b per deal, averaged over the deal's two hands (deal k = hands 2k, 2k+1)."""
    net = hands.points_a.astype(float) - hands.points_b.astype(float)
    groups = net.groupby(hands.hand.to_numpy() // 2)
    assert (groups.size() == 2).all()
    return groups.mean().to_numpy()


def test_summarize_pairs_duplicate_rows_by_deal(duplicate_run):
    hands = duplicate_run.hands
    per_deal = by_hand_per_deal(hands)
    half = stats.norm.ppf(0.975) * per_deal.std(ddof=1) / np.sqrt(per_deal.size)
    summary = ginsim.summarize(hands).set_index("statistic")
    row = summary.loc["mean_points_a_minus_b_paired"]
    assert "mean_points_a_minus_b" not in summary.index
    assert row.n == 2 * DEALS  # hands, as every n; the interval is over DEALS deals
    np.testing.assert_allclose([row.value, row.low, row.high],
                               [per_deal.mean(), per_deal.mean() - half,
                                per_deal.mean() + half], rtol=1e-12)
    assert summary.attrs["design"] == "duplicate, paired by deal"
    deals = duplicate_run.tables["deals"]  # the streamed per-deal sums, checked by hand
    a = hands.points_a.astype(np.int64).to_numpy().reshape(-1, 2).sum(axis=1)
    b = hands.points_b.astype(np.int64).to_numpy().reshape(-1, 2).sum(axis=1)
    assert deals.deals.sum() == DEALS and deals.sum_points_a.sum() == a.sum()
    assert deals.sumsq_points_b.sum() == (b * b).sum()
    assert deals.sum_points_a_x_b.sum() == (a * b).sum()


def test_summary_mode_and_stores_give_the_same_paired_interval(duplicate_run, tmp_path):
    full = ginsim.summarize(duplicate_run.hands)
    streamed = run_simulation(*PAIR, hands=2 * DEALS, seed=PAIR_SEED, duplicate=True,
                              n_jobs=1, records="summary", chunk_hands=999,
                              out=tmp_path / "s")  # odd size: chunks still hold whole deals
    pd.testing.assert_frame_equal(ginsim.summarize(streamed.summary), full)
    pd.testing.assert_frame_equal(ginsim.summarize(ginsim.load(tmp_path / "s").summary), full)
    run_simulation(*PAIR, hands=2 * DEALS, seed=PAIR_SEED, duplicate=True, n_jobs=1,
                   chunk_hands=1_000, out=tmp_path / "f")
    loaded = ginsim.load(tmp_path / "f")
    pd.testing.assert_frame_equal(ginsim.summarize(loaded.hands), full)
    pd.testing.assert_frame_equal(ginsim.summarize(loaded.summary), full)


def test_paired_interval_is_the_reports(duplicate_run):
    matrix, runs = strategy_matrix([PAIR[0]], [PAIR[1]], DEALS, seed=PAIR_SEED, n_jobs=1)
    report = matrix.iloc[0]
    row = ginsim.summarize(duplicate_run.hands).set_index("statistic").loc[
        "mean_points_a_minus_b_paired"]
    np.testing.assert_allclose([row.value, row.low, row.high],
                               [report["mean"], report["low"], report["high"]], rtol=1e-12)
    # The expected-points tables of the strategies study and of a stored run agree.
    for cells in (cells_from_hands(runs.frames[0]), duplicate_run.summary):
        points = expected_points(cells).set_index("statistic").loc["points_a_minus_b"]
        np.testing.assert_allclose([points["mean"], points.low, points.high],
                                   [row.value, row.low, row.high], rtol=1e-12)
        assert points.n == 2 * DEALS
    plain = duplicate_run.hands.copy()
    plain.attrs = {}  # a DataFrame the user built: hands taken as independent
    unpaired = ginsim.summarize(plain).set_index("statistic").loc["mean_points_a_minus_b"]
    assert unpaired.n == 2 * DEALS
    assert unpaired.value == pytest.approx(row.value, abs=1e-12)
    ratio = (unpaired.high - unpaired.low) / (row.high - row.low)
    assert 1.2 < ratio < 3, ratio  # the luck of the deal, cancelled only by pairing


def test_filtered_duplicate_rows_fall_back_to_the_unpaired_interval(duplicate_run):
    seat_a_deals = duplicate_run.hands[duplicate_run.hands.dealer == "a"]
    assert seat_a_deals.attrs["design"] == "duplicate"  # attrs follow the filter
    summary = ginsim.summarize(seat_a_deals)
    assert "mean_points_a_minus_b" in set(summary.statistic)
    assert summary.attrs["design"] == "independent hands"
