"""The mc player's oracle (issue 40): refused in every spec, reachable only from
:func:`ginsim.strategies.diagnostics.with_oracle`."""

from __future__ import annotations

import pytest

import ginsim
from ginsim.runner.jobs import Job
from ginsim.strategies.diagnostics import with_oracle
from ginsim.strategies.params import P_MC_ORACLE
from ginsim.strategies.presets import Strategy, parse_strategy


def _one_line_refusal(call) -> str:
    with pytest.raises(ValueError) as info:
        call()
    text = str(info.value)
    assert "\n" not in text and "oracle" in text and "diagnostic" in text
    return text


@pytest.mark.parametrize("spec", ["mc:oracle=1,rollouts=8", "mc:oracle=0", "mc:rollouts=8,oracle=1",
                                  "simple:oracle=1", "mc:rollout=memory2:knock=3;oracle=1"])
def test_every_spec_refuses_the_oracle(spec):
    _one_line_refusal(lambda: parse_strategy(spec))


def test_simulate_refuses_the_oracle_before_playing():
    _one_line_refusal(lambda: ginsim.simulate("mc:oracle=1,rollouts=8", "simple", hands=2))
    _one_line_refusal(lambda: ginsim.simulate("simple", "mc:oracle=1", hands=2))


def test_an_overrides_dict_cannot_set_the_oracle_either():
    _one_line_refusal(lambda: Strategy("mc", "mc", {"oracle": (1.0,)}))


def test_with_oracle_is_the_one_way_in():
    plain = parse_strategy("mc:rollouts=8")
    seen = with_oracle("mc:rollouts=8")
    assert plain.vector[P_MC_ORACLE] == 0 and seen.vector[P_MC_ORACLE] == 1
    rest = [i for i in range(len(plain.vector)) if i != P_MC_ORACLE]
    assert (seen.vector[rest] == plain.vector[rest]).all()
    assert seen.spec == "mc:rollouts=8,oracle=1" and with_oracle("mc").spec == "mc:oracle=1"
    job = Job.make(seen, "simple", 2)  # a job keeps the object: the runner plays it
    assert job.a.vector[P_MC_ORACLE] == 1
    _one_line_refusal(lambda: Job.from_dict(job.to_dict()))  # its text is refused again
    with pytest.raises(ValueError, match="for the mc player"):
        with_oracle("memory2")
