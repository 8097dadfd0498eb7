"""The shipped knock charts made for expert card play (issue 24, item 3) and for the
learned card play (issue 42): provenance, exploitability re-measured from the recorded
replay, the lookup by rules, and the report's answer reading expert's."""


import numpy as np
import pytest
from chart_replay import replay_recorded_exploitability

from ginsim.analysis.knock.equilibrium import ANSWER_BASE, equilibrium_advice
from ginsim.game.rules import Rules
from ginsim.runner.responses import best_response, paired_gain
from ginsim.simulator.branches.best_response import with_chart
from ginsim.strategies.charts.equilibria import (
    KNOCKING_PRESETS,
    equilibrium_chart_name,
    shipped_equilibrium,
)
from ginsim.strategies.charts.knock_charts import CHART_DIR, load_chart
from ginsim.strategies.params import GRID_CELLS, P_GRID
from ginsim.strategies.presets import parse_strategy

SHIPPED = [p for p in KNOCKING_PRESETS
           if (CHART_DIR / f"{equilibrium_chart_name(p, 'expert')}.json").exists()]
#: (rules preset, card play) of every chart computed rather than copied from another's
COMPUTED = [(p, base) for base in ("expert", "learned") for p in KNOCKING_PRESETS
            if (CHART_DIR / f"{equilibrium_chart_name(p, base)}.json").exists()
            and "same_hand_rules_as" not in load_chart(equilibrium_chart_name(p, base)).info]


def test_names_and_lookup():
    """memory2 keeps its names; expert's are equilibrium_expert[_PRESET]; the lookup
    answers rules whose hands play alike, per card play, and refuses other card plays."""
    assert equilibrium_chart_name("modern") == "equilibrium"
    assert equilibrium_chart_name("modern", "expert") == "equilibrium_expert"
    assert equilibrium_chart_name("classic", "expert") == "equilibrium_expert_classic"
    assert equilibrium_chart_name("classic", "learned") == "equilibrium_learned_classic"
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


def test_expert_and_learned_knock_by_their_own_charts():
    vec = parse_strategy("expert").vector
    assert np.array_equal(vec[P_GRID:P_GRID + GRID_CELLS],
                          load_chart("equilibrium_expert").p.reshape(-1))
    vec = parse_strategy("learned").vector
    assert np.array_equal(vec[P_GRID:P_GRID + GRID_CELLS],
                          load_chart("equilibrium_learned").p.reshape(-1))
    vec = parse_strategy("learned").vector_for(Rules.preset("tedesco"))
    assert np.array_equal(vec[P_GRID:P_GRID + GRID_CELLS],
                          load_chart("equilibrium_learned_tedesco").p.reshape(-1))
    # the memory2 equilibrium preset is unchanged
    vec = parse_strategy("equilibrium").vector
    assert np.array_equal(vec[P_GRID:P_GRID + GRID_CELLS], load_chart("equilibrium").p.reshape(-1))


@pytest.mark.parametrize(("preset", "base"), COMPUTED)
def test_recorded_exploitability_replays(preset, base):
    """Each computed chart's recorded exploitability is played again, not trusted: the
    first and last recorded blocks of 1,000 fresh deals (the last best response, with
    the chart's card play, against the shipped chart) give the recorded integer sums, and
    the recorded mean and 95% CI, whose upper bound is at most 0.10, follow from the sums."""
    info, _, _, _ = replay_recorded_exploitability(preset, base)
    assert info["base"] == base
    assert info["command"].startswith(f"python scripts/make_equilibrium.py --base {base}")
    if base == "learned":  # warm-started from the chart it knocked by before
        assert info["start_chart"] == equilibrium_chart_name(preset, "expert")


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


def _grid(vec: np.ndarray, first: int = 0) -> np.ndarray:
    return vec[first + P_GRID:first + P_GRID + GRID_CELLS]


@pytest.mark.parametrize("base", ["memory2", "expert", "learned"])
def test_family_charts_follow_the_rules(base):
    """A chart family's name (the equilibrium, expert and learned presets' charts) plays
    the chart made under the rules played; rules with modern's hands, and rules no chart
    was made for, keep modern's; a suffixed name is that chart whatever the rules."""
    preset = "equilibrium" if base == "memory2" else base
    strategy = parse_strategy(preset)
    modern = load_chart(equilibrium_chart_name("modern", base)).p.reshape(-1)
    moved = 0
    for rules in KNOCKING_PRESETS:
        found = shipped_equilibrium(Rules.preset(rules), base)
        want = modern if found is None else found[1].p.reshape(-1)
        assert np.array_equal(_grid(strategy.vector_for(Rules.preset(rules))), want), rules
        moved += not np.array_equal(want, modern)
    assert moved >= 3  # the check above tells charts apart
    for rules in ("eaai", "modern:undercut_bonus=10"):
        assert np.array_equal(_grid(strategy.vector_for(Rules.coerce(rules))), modern)
    stem = equilibrium_chart_name("modern", base)
    with pytest.raises(ValueError, match="unknown knock chart"):
        parse_strategy(f"{preset}:chart={stem}_classic_modern")  # _modern is a family's
    pinned = parse_strategy(f"{preset}:chart={stem}_modern")
    assert np.array_equal(_grid(pinned.vector_for(Rules.preset("classic"))), modern)
    classic = load_chart(equilibrium_chart_name("classic", base)).p.reshape(-1)
    assert not np.array_equal(classic, modern)
    other = parse_strategy(f"{preset}:chart={stem}_classic")
    assert np.array_equal(_grid(other.vector_for(Rules.preset("modern"))), classic)
    # a chart set over the family's by an overrides dict (best responses) is kept
    five = with_chart(preset, load_chart("five"))
    assert np.array_equal(_grid(five.vector_for(Rules.preset("classic"))),
                          load_chart("five").p.reshape(-1))


def test_mc_rollout_and_models_follow_the_rules():
    """The mc preset's rollouts and its expert model knock by the rules' expert chart."""
    from ginsim.strategies.params import PARAMETERS
    classic = load_chart("equilibrium_expert_classic").p.reshape(-1)
    vec = parse_strategy("mc").vector_for(Rules.preset("classic"))
    for name in ("rollout", "model"):
        assert np.array_equal(_grid(vec, PARAMETERS[name].index), classic), name
    assert np.array_equal(_grid(vec, PARAMETERS["model3"].index),
                          _grid(parse_strategy("mc").vector, PARAMETERS["model3"].index))


def test_play_follows_the_rules_chart():
    """Under classic rules `expert` plays hand for hand as `expert` with the classic chart
    named, and unlike it with modern's chart pinned; so does an agent, also when the
    table's start message names the rules."""
    from ginsim.simulator.play.engine import play_records
    from ginsim.table.agents import Agent

    def rows(spec):
        return play_records(spec, "simple", stop=3000, seed=5, rules="classic")[0]

    follow = rows("expert")
    assert np.array_equal(follow, rows("expert:chart=equilibrium_expert_classic"))
    assert not np.array_equal(follow, rows("expert:chart=equilibrium_expert_modern"))
    classic = load_chart("equilibrium_expert_classic").p.reshape(-1)
    agent = Agent.from_spec("expert", "classic")
    assert np.array_equal(_grid(agent._params[0]), classic)
    agent = Agent.from_spec("expert", "modern")
    agent.handle({"type": "start", "seat": 1, "rules": "classic"})
    assert np.array_equal(_grid(agent._params[1]), classic)
