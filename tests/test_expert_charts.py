"""The shipped knock charts made for expert card play (issue 24, item 3): provenance,
exploitability re-measured from the recorded replay, the lookup by rules, and the
report's answer reading them."""


import numpy as np
import pytest
from chart_replay import replay_recorded_exploitability

from ginsim.analysis.equilibrium import ANSWER_BASE, equilibrium_advice
from ginsim.game.rules import Rules
from ginsim.runner.responses import best_response, paired_gain
from ginsim.simulator.response import with_chart
from ginsim.strategies.charts import CHART_DIR, load_chart
from ginsim.strategies.equilibria import (
    KNOCKING_PRESETS,
    equilibrium_chart_name,
    shipped_equilibrium,
)
from ginsim.strategies.params import GRID_CELLS, P_GRID
from ginsim.strategies.presets import parse_strategy

SHIPPED = [p for p in KNOCKING_PRESETS
           if (CHART_DIR / f"{equilibrium_chart_name(p, 'expert')}.json").exists()]
COMPUTED = [p for p in SHIPPED
            if "same_hand_rules_as" not in load_chart(equilibrium_chart_name(p, "expert")).info]


def test_names_and_lookup():
    """memory2 keeps its names; expert's are equilibrium_expert[_PRESET]; the lookup
    answers rules whose hands play alike, per card play, and refuses other card plays."""
    assert equilibrium_chart_name("modern") == "equilibrium"
    assert equilibrium_chart_name("modern", "expert") == "equilibrium_expert"
    assert equilibrium_chart_name("classic", "expert") == "equilibrium_expert_classic"
    with pytest.raises(ValueError, match="no shipped equilibrium charts for 'simple'"):
        equilibrium_chart_name("modern", "simple")
    assert "modern" in SHIPPED and "competitive" in SHIPPED
    assert shipped_equilibrium(Rules.coerce("modern:target=500"), "expert")[0] == \
        "equilibrium_expert"
    assert shipped_equilibrium(Rules.coerce("modern:undercut_bonus=10"), "expert") is None
    for preset in SHIPPED:
        assert shipped_equilibrium(Rules.preset(preset), "expert")[1].info["base"] == "expert"
    copy = load_chart(equilibrium_chart_name("competitive", "expert"))
    assert np.array_equal(copy.p, load_chart("equilibrium_expert").p)
    assert copy.info["same_hand_rules_as"] == "modern"


def test_expert_preset_knocks_by_its_own_chart():
    vec = parse_strategy("expert").vector
    assert np.array_equal(vec[P_GRID:P_GRID + GRID_CELLS],
                          load_chart("equilibrium_expert").p.reshape(-1))
    # the memory2 equilibrium preset is unchanged
    vec = parse_strategy("equilibrium").vector
    assert np.array_equal(vec[P_GRID:P_GRID + GRID_CELLS], load_chart("equilibrium").p.reshape(-1))


@pytest.mark.parametrize("preset", COMPUTED)
def test_recorded_exploitability_replays(preset):
    """Each computed chart's recorded exploitability is played again, not trusted: the
    first and last recorded blocks of 1,000 fresh deals (the last best response, with
    expert card play, against the shipped chart) give the recorded integer sums, and the
    recorded mean and 95% CI, whose upper bound is at most 0.10, follow from the sums."""
    info, _, _, _ = replay_recorded_exploitability(preset, "expert")
    assert info["base"] == "expert"
    assert info["command"].startswith("python scripts/make_equilibrium.py --base expert")


def test_fresh_adversary_does_not_beat_the_modern_bound():
    """A best response with expert card play trained on 20,000 other hands, measured on
    20,000 other deals, shows no more exploitability at 95% than the recorded bound."""
    eq = parse_strategy("expert")
    high = load_chart("equilibrium_expert").info["exploitability"][2]
    fresh = best_response("expert", eq, "modern", seed=11, hands=20_000, passes=2,
                          start_chart=load_chart("equilibrium_expert"))
    gain = paired_gain(with_chart("expert", fresh.chart), eq, eq, eq, "modern", seed=11,
                       deals=20_000, start=5 * 10**9)
    assert gain.low <= high, (gain, high)


def test_the_answer_reads_the_expert_chart():
    """The report's answer for modern (and competitive) rules is the expert chart, and
    says which card play it assumes; memory2's stays the answer where expert has none."""
    assert ANSWER_BASE == "expert"
    advice = equilibrium_advice("competitive")
    assert advice.card_play == "expert" and advice.player == "expert:chart=equilibrium_expert"
    assert np.array_equal(advice.chart.p, load_chart("equilibrium_expert").p)
    assert "expert card play for both players" in advice.source
    for preset in KNOCKING_PRESETS:
        expert = shipped_equilibrium(Rules.preset(preset), "expert") is not None
        want = "expert" if expert else "memory2"
        assert equilibrium_advice(preset).card_play == want, preset
