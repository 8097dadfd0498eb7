"""The Monte Carlo player as a registered strategy: spec errors, the same records for
plain seats through its hand loop, legal and chunking-independent play in simulate and
games, and that it decides by its rollouts (the oracle diagnostic, which sees the true
hand, must win)."""

import numpy as np
import pytest

import ginsim
from ginsim.game.rules import Rules
from ginsim.game.tables import card_tables
from ginsim.simulator.engine import play_records, seat_params
from ginsim.simulator.hand_nb import SCRATCH_SIZE, simulate_nb
from ginsim.simulator.mc import play_mc_records, seat_a_net
from ginsim.simulator.records import RECORD_DTYPE, TRACE_WIDTH
from ginsim.strategies import parse_strategy
from ginsim.strategies.params import P_BASE, P_MC_MODEL, P_MC_ROLLOUT, P_MC_ROLLOUTS

FAST = "mc:rollouts=4,particles=8,stages=2"


@pytest.mark.parametrize("spec,match", [
    ("mc:rollouts=0", "rollouts"),
    ("mc:rollouts=x", "whole number"),
    ("mc:model=mc:rollouts=4", "cannot be mc"),
    ("mc:rollout=nosuch", "unknown strategy"),
    ("mc:speed=3", "unknown parameter"),
    ("mc:temperature=-1", "temperature"),
    ("mc:rollouts", "key=value"),
    ("mc:knock=5", "card play goes in rollout="),
    ("memory2:rollouts=8", "applies only to the mc strategy"),
    ("simple:kind=mc", "the mc preset"),
])
def test_bad_specs_are_one_line_errors(spec, match):
    with pytest.raises(ValueError, match=match) as err:
        parse_strategy(spec)
    assert "\n" not in str(err.value)


def test_nested_specs_fill_the_row():
    vec = parse_strategy("mc:rollouts=8,model=memory2:knock=0;undercut=1,rollout=simple").vector
    assert vec[P_MC_ROLLOUTS] == 8
    model = parse_strategy("memory2:knock=0,undercut=1").vector[:P_BASE]
    assert (vec[P_MC_MODEL:P_MC_MODEL + P_BASE] == model).all()
    assert (vec[P_MC_ROLLOUT:P_MC_ROLLOUT + P_BASE] == parse_strategy("simple").vector[:P_BASE]
            ).all()


@pytest.mark.parametrize("rules", [None, "oklahoma", "eleven"])
def test_plain_seats_through_the_mc_hand_loop_match_the_hand_loop(rules):
    # The mc loop drives the same phases: with no mc seat it must play the same hands.
    rules = Rules.coerce(rules)
    plain, _ = play_records("memory2", "early_knocker", stop=40, seed=9, rules=rules)
    rows = seat_params("memory2", "early_knocker")
    wide = np.zeros((2, rows.shape[1] + 1))
    wide[:, :-1] = rows
    out = np.zeros(40, dtype=RECORD_DTYPE)
    simulate_nb(np.uint64(9), 0, 40, False, wide[:, :-1], rules.packed(), card_tables(rules),
                out, np.zeros((0, TRACE_WIDTH), dtype=np.int64),
                np.zeros(SCRATCH_SIZE, dtype=np.int64), np.zeros(3, dtype=np.uint64))
    assert (out == plain).all()


def test_hands_are_legal_reproducible_and_independent_of_chunking():
    whole = play_mc_records(FAST, "memory2", 8, seed=3)
    again = np.concatenate([play_mc_records(FAST, "memory2", 3, seed=3),
                            play_mc_records(FAST, "memory2", 5, seed=3, start=3)])
    assert (whole == again).all()
    frame = ginsim.simulate(FAST, "memory2", hands=8, seed=3, duplicate=True, n_jobs=2,
                            chunk_hands=3, progress=False)
    assert (frame["points_a"].to_numpy() == whole["points_a"]).all()
    assert (frame["turns"].to_numpy() == whole["turns"]).all()
    assert ((whole["points_a"] == 0) | (whole["points_b"] == 0)).all()
    decided = whole["outcome"] != 4
    assert ((whole["points_a"] + whole["points_b"] > 0) == decided).all()
    assert (whole["dealer"][0::2] != whole["dealer"][1::2]).all()
    # either seat may be the mc player, and both may be
    both, _ = play_records(FAST, FAST, stop=2, seed=3)
    assert ((both["points_a"] == 0) | (both["points_b"] == 0)).all()


def test_games_play_the_mc_seat():
    games = ginsim.play_games(FAST, "simple", games=2, seed=4)
    assert (games[["score_a", "score_b"]].max(axis=1) >= 100).all()
    again = ginsim.play_games(FAST, "simple", games=2, seed=4)
    assert games.equals(again)


def test_the_oracle_diagnostic_beats_memory2():
    # Seeing the opponent's cards, rollouts must pay: a sanity check of the world layout.
    net = seat_a_net(play_mc_records("mc:rollouts=16,particles=8,stages=1,oracle=1",
                                     "memory2", 40, seed=5))
    assert np.mean(net) > 3
