"""Best responses and equilibria over knock charts (issue 11)."""

import json
import subprocess
import sys

import numpy as np
import pytest
from chart_replay import replay_recorded_exploitability

from ginsim.analysis.knock.equilibrium import equilibrium, summary_text
from ginsim.game.rules import Rules
from ginsim.runner.responses import best_response, paired_gain
from ginsim.simulator.branches.best_response import with_chart
from ginsim.simulator.branches.knock_branches import knock_decisions
from ginsim.strategies.charts.equilibria import (
    KNOCKING_PRESETS,
    equilibrium_chart_name,
    shipped_equilibrium,
)
from ginsim.strategies.charts.knock_charts import CHART_DIR, load_chart
from ginsim.strategies.params import GRID_CELLS, P_GRID
from ginsim.strategies.presets import parse_strategy


def test_best_response_recovers_planted_optimum():
    """Construction: both players never take the pile (draw=never) and the hand is dead
    once the stock is down to 29 cards. The only branched decision is the dealer's first
    discard, at 29 cards left: waiting ends the hand dead (exactly 0 points), knocking
    scores D - K against a hand one draw from the deal (about +40). So the best response
    knocks in every cell it meets, starting from a chart that never knocks."""
    rules = Rules(stock_floor=29)
    base = "memory2:draw=never"
    gin_only = load_chart("gin_only")
    rows = knock_decisions(with_chart(base, gin_only), with_chart(base, gin_only),
                           hands=300_000, seed=3, rules=rules)
    assert len(rows) > 200
    assert (rows["net_wait"] == 0).all() and (rows["stock_left"] == 29).all()
    assert rows["net_knock"].mean() > 20
    response = best_response(base, with_chart(base, gin_only), rules, seed=3, hands=300_000,
                             passes=2, start_chart=gin_only)
    met = response.evidence[0].reshape(gin_only.p.shape) >= 30
    assert met.sum() >= 3 and met[0, :, 0].sum() == met.sum()  # bucket 28-31, no pile takes
    assert (response.chart.p[met] == 1).all()
    assert (response.chart.p[~met] == 0).all()  # cells never met keep the start chart


def test_small_equilibrium_is_deterministic_and_round_trips(tmp_path):
    one = equilibrium(hands=3000, iterations=2, seed=5, n_jobs=1)
    two = equilibrium(hands=3000, iterations=2, seed=5, n_jobs=2)
    assert np.array_equal(one.average.p, two.average.p)
    assert one.exploitability == two.exploitability
    assert len(one.history) == one.iterations <= 2
    assert abs(sum(w for _, w in one.mixture) - 1) < 1e-12
    chart = one.chart
    assert len(chart) == 240 and chart.p_knock.between(0, 1).all()
    assert list(chart.stock.cat.categories)[0] == "28-31"
    files = one.save(tmp_path)
    data = json.loads(files["json"].read_text())
    assert data["spec"] == one.spec and data["info"]["seed"] == 5
    vec = parse_strategy(one.spec).vector
    assert np.allclose(vec[P_GRID:P_GRID + GRID_CELLS], one.average.p.reshape(-1), atol=1e-6)


COMPUTED_CHARTS = ("modern", "classic", "palace", "oklahoma", "tedesco", "big_gin", "eleven",
                   "last_discard")


@pytest.mark.parametrize("preset", COMPUTED_CHARTS)
def test_shipped_preset_exploitability_within_recorded_ci(preset):
    """Each shipped chart's recorded exploitability is re-measured, not trusted.

    Replay: the file records the last best response, the fresh deals its gain was
    measured on, and exact integer sums of the per-deal paired differences for each
    block of 1,000 deals. The first and last blocks are played again here with the
    shipped chart and must give those very sums (play is deterministic and independent
    of chunking), and the recorded mean and 95% CI must follow from the recorded sums.
    This fails if the chart file, the engine's play, the signal the chart reads or the
    recorded figures change; nothing here is computed from the file's own summary.
    Fresh adversary: a best response trained on 20,000 other hands, measured on 20,000
    other deals, must not show at 95% more exploitability than the recorded upper bound.
    """
    info, rules, eq, whole = replay_recorded_exploitability(preset, "memory2")
    name = equilibrium_chart_name(preset)
    low, high = info["exploitability"][1:]
    assert low <= whole.mean <= high
    fresh = best_response("memory2", eq, rules, seed=11, hands=20_000, passes=2,
                          start_chart=load_chart(name))
    gain = paired_gain(with_chart("memory2", fresh.chart), eq, eq, eq, rules, seed=11,
                       deals=20_000, start=5 * 10**9)
    assert gain.low <= high, (gain, low, high)


def test_every_knocking_preset_has_a_dated_chart_and_shared_hands_share_one():
    """One shipped chart per knocking preset, each with its date; competitive (modern
    scored to 250) carries modern's chart and says so; the lookup answers any rules
    whose hands play alike and no others."""
    for preset in KNOCKING_PRESETS:
        info = json.loads((CHART_DIR / f"{equilibrium_chart_name(preset)}.json"
                           ).read_text())["info"]
        assert info["date"] >= "2026-11-30" and info["rules"] == preset, preset
    copy = load_chart("equilibrium_competitive")
    assert np.array_equal(copy.p, load_chart("equilibrium").p)
    assert copy.info["same_hand_rules_as"] == "modern"
    assert shipped_equilibrium(Rules.coerce("modern:target=500"))[0] == "equilibrium"
    assert shipped_equilibrium(Rules.coerce("oklahoma:target=300"))[0] == "equilibrium_oklahoma"
    assert shipped_equilibrium(Rules.coerce("modern:undercut_bonus=10")) is None
    assert shipped_equilibrium(Rules.coerce("straight")) is None


def test_a_run_whose_response_cannot_move_is_not_measured():
    """With too few hands no cell has the evidence to change, every deal's gain is 0
    and the interval has no width: that is "not measured", never "reached"."""
    result = equilibrium(hands=1000, iterations=1, seed=5, n_jobs=1)
    assert result.exploitability[1] == result.exploitability[2]
    assert not result.measured and not result.converged
    assert "not measured" in summary_text(result) and "reached" not in summary_text(result)


def test_equilibrium_command(tmp_path):
    out = tmp_path / "eq"
    proc = subprocess.run([sys.executable, "-m", "ginsim", "equilibrium", "--hands", "2000",
                           "--iterations", "1", "--out", str(out), "--quiet"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "exploitability" in proc.stdout and "spec for --a" in proc.stdout
    for name in ("equilibrium.json", "equilibrium.csv", "history.csv", "equilibrium.png"):
        assert (out / name).stat().st_size > 0
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = subprocess.run([sys.executable, "-m", "ginsim", "equilibrium", "--out",
                           str(blocker)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("hands", [10])
def test_equilibrium_rejects_tiny_samples(hands):
    with pytest.raises(ValueError, match="hands must be a whole number in 1000..10,000,000"):
        equilibrium(hands=hands)
