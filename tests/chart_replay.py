"""The replay of a shipped equilibrium chart's recorded exploitability, shared by the
memory2 charts' tests (test_equilibrium.py) and the expert charts' (test_expert_charts.py).

The chart file records the last best response, the fresh deals its gain was measured on
and exact integer sums of the per-deal paired differences for each block of deals. The
first and last blocks are played again with the shipped chart and must give those very
sums, and the recorded mean and 95% CI must follow from the recorded sums.
"""

import json

import numpy as np

from ginsim.game.rules import Rules
from ginsim.runner.responses import paired_diff
from ginsim.simulator.branches.best_response import block_sums, gain_from_blocks, with_chart
from ginsim.strategies.charts.equilibria import equilibrium_chart_name, hand_key
from ginsim.strategies.charts.knock_charts import CHART_DIR, KnockChart
from ginsim.strategies.presets import Strategy, parse_strategy


def replay_recorded_exploitability(preset: str, base: str
                                   ) -> tuple[dict, Rules, Strategy, object]:
    """Check ``preset``'s shipped chart for ``base`` card play (provenance, the bound,
    the replayed block sums and the recorded CI); returns ``(info, rules, eq, whole)``,
    ``whole`` the gain recomputed from the recorded blocks."""
    name = equilibrium_chart_name(preset, base)
    info = json.loads((CHART_DIR / f"{name}.json").read_text())["info"]
    assert info["converged"] and info["exploitability"][2] <= 0.10
    assert info["command"].startswith("python scripts/make_equilibrium.py")
    assert info["seed"] == 2026 and info["hands"] >= 100_000
    assert hand_key(Rules(**info["rules_fields"])) == hand_key(Rules.preset(preset))
    rules = Rules.coerce(info["rules"])
    eq = parse_strategy(f"{base}:chart={name}")
    replay = info["exploitability_replay"]
    response = with_chart(base, KnockChart(np.array(replay["response"], float), "br"))
    blocks, size = replay["blocks"], replay["block"]
    assert sum(b[0] for b in blocks) == replay["deals"] == info["hands"]
    for i in (0, len(blocks) - 1):
        diff = paired_diff(response, eq, eq, eq, rules, replay["seed"], blocks[i][0],
                           start=replay["start"] + i * size)
        assert block_sums(diff, size) == [blocks[i]], i
    whole = gain_from_blocks(blocks)
    assert np.allclose((whole.mean, whole.low, whole.high), info["exploitability"],
                       rtol=0, atol=1e-9)
    return info, rules, eq, whole
