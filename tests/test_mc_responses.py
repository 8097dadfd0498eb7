"""The mc player's responses: in a rollout world whose opponent plays as model k, its own
play is ``response k`` where set (the preset: the learned card play knocking by the chart
that best answers simple, memory2 and the gin waiter), else its ``rollout`` strategy; the response
charts are best responses measured on deals they were not trained on."""

import numpy as np
import pytest

from ginsim.game.rules import Rules
from ginsim.runner.responses import paired_gain
from ginsim.simulator.branches.best_response import with_chart
from ginsim.simulator.machine.buffers import new_mc_memory
from ginsim.simulator.play.engine import play_records, seat_params
from ginsim.simulator.search.mc_memory_nb import set_models_nb
from ginsim.strategies.charts.knock_charts import load_chart
from ginsim.strategies.params import P_BASE, P_MC_ROLLOUT, PARAMETERS
from ginsim.strategies.presets import MC_ROLLOUT, parse_strategy

OFF = "response2=rollout,response3=rollout,response4=rollout"
CHARTS = {"simple": "expert_vs_simple", "memory2": "expert_vs_memory2",
          "memory2:knock=0": "expert_vs_gin_waiter"}
ROLLOUT = MC_ROLLOUT  # learned_linear: the learned card play's linear model


def _own_rows(spec: str, rules: str = "modern") -> np.ndarray:
    """The mc seat's own row in each model's rollout pair (seat a)."""
    params = seat_params(spec, "simple", Rules.coerce(rules))
    mem = new_mc_memory()
    set_models_nb(mem, 0, params)
    return mem.pairs[:mem.n_models[0], 0].copy()


def test_each_model_gets_its_response():
    """The preset's models are expert, simple, memory2 and the gin waiter: against expert
    it plays its rollout strategy (the learned card play's linear model), against the
    others that card play with their response chart."""
    rows = _own_rows("mc")
    rollout = parse_strategy(ROLLOUT).vector_for(Rules())[:P_BASE]
    np.testing.assert_array_equal(rows[0], rollout)
    for k, model in enumerate(("simple", "memory2", "memory2:knock=0"), start=1):
        want = parse_strategy(f"{ROLLOUT}:chart={CHARTS[model]}").vector[:P_BASE]
        np.testing.assert_array_equal(rows[k], want)
        assert not np.array_equal(rows[k], rollout)


def test_rollout_unsets_a_response():
    rows = _own_rows(f"mc:{OFF}")
    assert all(np.array_equal(r, rows[0]) for r in rows)
    vec = parse_strategy("mc:response2=rollout").vector
    first = PARAMETERS["response2"].index
    assert not vec[first:first + P_BASE].any()


@pytest.mark.parametrize("rules,kept", [("modern", True), ("competitive", True),
                                        ("eaai", True), ("classic", False),
                                        ("oklahoma", False)])
def test_responses_follow_the_rules(rules, kept):
    """A response chart was made under modern hand rules: rules with shipped charts of
    their own (classic, oklahoma) play the rollout strategy, which follows them;
    rules that play modern's charts (competitive's hands are modern's, eaai has none of
    its own) keep the responses."""
    rows = _own_rows("mc", rules)
    vec = parse_strategy("mc").vector_for(Rules.coerce(rules))
    rollout = vec[P_MC_ROLLOUT:P_MC_ROLLOUT + P_BASE]
    assert np.array_equal(rows[1], rollout) != kept


@pytest.mark.parametrize("card_play", ["expert", ROLLOUT])
@pytest.mark.parametrize("model", list(CHARTS))
def test_a_response_chart_answers_its_model(model, card_play):
    """On 6,000 duplicate deals of another seed than its training, expert knocking by the
    response chart scores more against its model than by the equilibrium chart (paired
    95% interval above 0); so does the learned card play's linear model, which the mc
    preset's rollouts play with these charts."""
    chart = load_chart(CHARTS[model])
    assert chart.info["against"] == model and chart.info["rules"] == "modern"
    opponent = parse_strategy(model)
    gain = paired_gain(with_chart(card_play, chart), opponent, parse_strategy(card_play),
                       opponent, Rules(), seed=77, deals=6000)
    assert gain.low > 0, gain


def test_responses_change_the_play():
    a = play_records("mc:rollouts=8,particles=16,stages=3", "simple", stop=30, seed=8)[0]
    b = play_records(f"mc:rollouts=8,particles=16,stages=3,{OFF}", "simple", stop=30,
                     seed=8)[0]
    assert not np.array_equal(a, b)
