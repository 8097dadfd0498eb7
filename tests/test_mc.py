"""The Monte Carlo player as a registered strategy: spec errors, the same records for
plain seats through its hand loop and its knock chart, legal and chunking-independent
play in simulate, games and the knock chart, and that it decides by its rollouts (the
oracle diagnostic, which sees the true hand, must win)."""

import numpy as np
import pytest
from mc_helpers import play_mc_records, seat_a_net
from reference import ref_best_discard

import ginsim
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import mask_to_cards
from ginsim.game.rules import Rules
from ginsim.game.state import SOURCE_PILE
from ginsim.simulator.branches.chart_nb import CHART_COLUMNS
from ginsim.simulator.branches.knock_branches import knock_decisions
from ginsim.simulator.branches.mc_chart_nb import mc_knock_chart_nb
from ginsim.simulator.machine.buffers import chart_buffers, hand_buffers
from ginsim.simulator.machine.records import RECORD_DTYPE, TRACE_COLUMNS, TRACE_WIDTH
from ginsim.simulator.play.engine import play_records, seat_params
from ginsim.simulator.play.hand_nb import simulate_nb
from ginsim.strategies import parse_strategy
from ginsim.strategies.diagnostics import with_oracle
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
                hand_buffers(out, np.zeros((0, TRACE_WIDTH), dtype=np.int64)))
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
    net = seat_a_net(play_mc_records(with_oracle("mc:rollouts=16,particles=8,stages=1"),
                                     "memory2", 40, seed=5))
    assert np.mean(net) > 3


def test_the_mc_knock_chart_kernel_with_plain_seats_is_the_knock_chart():
    # The mc chart drives the same phases and branches: without an mc seat (rows as the
    # mc loop takes them) it must write the plain chart's rows.
    rules = Rules.coerce(None)
    plain = knock_decisions("memory2", "early_knocker", hands=60, seed=8)
    rows = seat_params("memory2", "early_knocker")
    wide = np.zeros((2, rows.shape[1] + 1))
    wide[:, :-1] = rows
    out = np.zeros((60 * 8 + 80, len(CHART_COLUMNS)), dtype=np.int64)
    n, stop = mc_knock_chart_nb(np.uint64(8), 0, 60, wide[:, :-1], rules.packed(),
                                card_tables(rules),
                                chart_buffers(out, np.zeros((0, TRACE_WIDTH), np.int64)))
    assert stop == 60 and n == len(plain) > 20
    assert (out[:n] == plain.view(np.int64).reshape(n, -1)).all()


def test_the_knock_chart_follows_an_mc_seat():
    # The chart plays each hand as the hand loop does: where the mc seat knocked with the
    # best discard (it may knock with another), the knock branch is the hand as played.
    decisions = knock_decisions(FAST, "memory2", hands=20, seed=6)
    records, trace = play_records(FAST, "memory2", stop=20, seed=6, trace_rows=4000)
    net = seat_a_net(records)
    c = {name: i for i, name in enumerate(TRACE_COLUMNS)}
    turns = {(int(r[c["hand"]]), int(r[c["turn"]])): r for r in trace if r[c["seat"]] == 0}
    checked = 0
    for d in decisions[decisions["knocked"] == 1]:
        row = turns[(int(d["hand"]), int(d["turn"]))]
        discard = int(row[c["discard"]])
        hand11 = mask_to_cards(row[c["hand_a"]]) + [discard]
        forbidden = int(row[c["drawn"]]) if row[c["source"]] == SOURCE_PILE else None
        card, kept = ref_best_discard(hand11, forbidden=forbidden)
        assert kept == d["deadwood"]
        if card == discard:
            assert d["net_knock"] == net[d["hand"]]
            checked += 1
    assert checked > 0
    assert (decisions["net_knock"] != decisions["net_wait"]).any()
    # the opponent may be the mc player too
    assert len(knock_decisions("memory2", FAST, hands=4, seed=6)) > 0


def test_a_large_margin_plays_the_rollout_strategy():
    # Another choice must beat the rollout strategy's own by `margin` standard errors of
    # the paired difference: with a huge margin the mc seat is memory2 in nearly every
    # hand (all differ only where every world agreed on the gain), and with none it is not.
    plain, _ = play_records("memory2", "simple", stop=30, seed=2)
    for margin, low, high in ((10, 0.9, 1.0), (0, 0.0, 0.8)):
        mc = play_mc_records(FAST + f",rollout=memory2,margin={margin}", "simple", 30, seed=2,
                             duplicate=False)
        same = np.mean((mc["turns"] == plain["turns"]) & (mc["points_a"] == plain["points_a"]))
        assert low <= same <= high, (margin, same)
