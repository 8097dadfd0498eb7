"""The Monte Carlo player: spec errors, legal and reproducible play, and that it
decides by its rollouts (the oracle diagnostic, which sees the true hand, must win)."""

import numpy as np
import pytest

from ginsim.simulator.mc import parse_mc, play_mc_records, seat_a_net


@pytest.mark.parametrize("spec,match", [
    ("mc:rollouts=0", "rollouts"),
    ("mc:rollouts=x", "whole number"),
    ("mc:model=mc:rollouts=4", "cannot be mc"),
    ("mc:rollout=nosuch", "unknown strategy"),
    ("mc:speed=3", "unknown parameter"),
    ("mc:temperature=-1", "temperature"),
    ("mc:rollouts", "key=value"),
    ("memory2", "not an mc spec"),
])
def test_bad_specs_are_one_line_errors(spec, match):
    with pytest.raises(ValueError, match=match) as err:
        parse_mc(spec)
    assert "\n" not in str(err.value)


def test_nested_specs_take_semicolons():
    spec = parse_mc("mc:rollouts=8,model=memory2:knock=0;undercut=1,rollout=simple")
    assert spec.rollouts == 8 and spec.model == "memory2:knock=0,undercut=1"
    assert spec.rollout == "simple"


def test_hands_are_legal_scored_and_reproducible():
    a = play_mc_records("mc:rollouts=4,particles=8,stages=2", "memory2", 6, seed=3)
    b = play_mc_records("mc:rollouts=4,particles=8,stages=2", "memory2", 6, seed=3)
    assert (a == b).all()
    assert ((a["points_a"] == 0) | (a["points_b"] == 0)).all()
    assert (a["outcome"] >= 0).all() and (a["stock_left"] >= 2).all()
    decided = a["outcome"] != 4
    assert ((a["points_a"] + a["points_b"] > 0) == decided).all()
    # duplicate: each deal twice, the dealer swapped
    assert (a["dealer"][0::2] != a["dealer"][1::2]).all()


def test_the_oracle_diagnostic_beats_memory2():
    # Seeing the opponent's cards, rollouts must pay: a sanity check of the world layout.
    net = seat_a_net(play_mc_records("mc:rollouts=16,particles=8,stages=1,oracle=1",
                                     "memory2", 40, seed=5))
    assert np.mean(net) > 3
