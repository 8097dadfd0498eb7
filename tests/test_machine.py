"""The machine: a hand stepped from Python one action at a time (the plain policy's
``decide_nb``, the machine's ``step_nb``) gives the hand loop's records with the 52 cards
conserved after every step; ``legal_nb`` lists exactly the actions ``checked_step_nb``
accepts; a refused action changes nothing; a branch (copy the position, drive on)
replays the same future exactly."""

import numpy as np
import pytest

from ginsim.game.card_tables import card_tables
from ginsim.game.rules import Rules
from ginsim.game.state import (
    ACTION_KINDS,
    FULL_DECK,
    PH_DISCARD,
    PH_OVER,
    POSITION_END,
    POSITION_START,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_OUTCOME,
    RES_POINTS,
    RES_STOCK_LEFT,
    ST_DECK,
    ST_HAND,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_TO_MOVE,
    ST_TURNS,
)
from ginsim.simulator.machine.buffers import new_board
from ginsim.simulator.machine.deal_nb import copy_position_nb, seat_streams_nb, shuffle_deck_nb
from ginsim.simulator.machine.records import TRACE_WIDTH
from ginsim.simulator.machine.showdown_nb import showdown_nb
from ginsim.simulator.machine.step_nb import (
    LEGAL_CARD,
    LEGAL_KIND,
    MAX_LEGAL,
    checked_step_nb,
    legal_nb,
    step_nb,
)
from ginsim.simulator.play.drive_nb import TO_THE_END, decide_nb, drive_nb, start_hand_nb
from ginsim.simulator.play.engine import play_records, seat_params

NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)


def assert_cards_conserved(hs):
    """Both hands, the pile and the stock hold each of the 52 cards exactly once."""
    pile = [int(c) for c in hs[ST_PILE:ST_PILE + hs[ST_PILE_LEN]]]
    stock = [int(c) for c in hs[ST_DECK + hs[ST_POS]:ST_DECK + 52]]
    masks = [int(hs[ST_HAND]), int(hs[ST_HAND + 1])]
    cards = [c for m in masks for c in range(52) if (m >> c) & 1] + pile + stock
    assert sorted(cards) == list(range(52))
    assert int(hs[ST_PILE_MASK]) == sum(1 << c for c in pile)
    assert masks[0] & masks[1] == 0 and (masks[0] | masks[1]) & ~FULL_DECK == 0


def deal(board, rng, key, i, packed):
    shuffle_deck_nb(board.hs, rng, np.uint64(key), i)
    seat_streams_nb(rng, np.uint64(key), i)
    start_hand_nb(board, i % 2, packed, NO_TRACE, i)


@pytest.mark.parametrize("a,b,rules", [("simple", "simple", "modern"),
                                       ("memory2", "random", "oklahoma"),
                                       ("memory1", "gin_hunter", "eleven"),
                                       ("memory2", "simple", "last_discard")])
def test_step_by_step_equals_the_hand_loop(a, b, rules):
    rules = Rules.preset(rules)
    hands = 40
    records, _ = play_records(a, b, stop=hands, seed=5, rules=rules)
    params, packed, tab = seat_params(a, b), rules.packed(), card_tables(rules)
    board = new_board()
    hs = board.hs
    rng = np.zeros(3, dtype=np.uint64)
    for i in range(hands):
        deal(board, rng, 5, i, packed)
        assert_cards_conserved(hs)
        while hs[ST_PHASE] < PH_OVER:
            seat = hs[ST_TO_MOVE]
            kind, card, kept = decide_nb(params, seat, board, packed, tab, rng)
            assert step_nb(hs, seat, kind, card, kept, packed) >= 0
            assert_cards_conserved(hs)
        showdown_nb(board, packed, tab)
        rec = records[i]
        assert (hs[RES_OUTCOME], hs[RES_KNOCKER], hs[RES_KNOCKER_DEADWOOD],
                hs[RES_DEFENDER_DEADWOOD], hs[RES_POINTS], hs[RES_POINTS + 1],
                hs[RES_STOCK_LEFT], hs[ST_TURNS]) == (
            rec["outcome"], rec["knocker"], rec["knocker_deadwood"], rec["defender_deadwood"],
            rec["points_a"], rec["points_b"], rec["stock_left"], rec["turns"]), i


@pytest.mark.parametrize("rules", ["modern", "oklahoma", "last_discard", "big_gin"])
def test_legal_lists_exactly_what_the_machine_accepts(rules):
    """At every position of 12 hands, every (kind, card) the machine could be asked is
    tried on a copy: ``checked_step_nb`` accepts it exactly when ``legal_nb`` lists it,
    and a refusal leaves the position byte for byte as it was."""
    rules = Rules.preset(rules)
    params, packed, tab = seat_params("memory2", "simple"), rules.packed(), card_tables(rules)
    board, trial = new_board(), new_board()
    hs = board.hs
    rng = np.zeros(3, dtype=np.uint64)
    out = np.zeros((MAX_LEGAL, 3), dtype=np.int64)
    kept = np.zeros(52, dtype=np.int64)
    positions = 0
    for i in range(12):
        deal(board, rng, 11, i, packed)
        while hs[ST_PHASE] < PH_OVER:
            n = legal_nb(board, packed, tab, kept, out)
            legal = {(int(k), int(c)) for k, c in out[:n, [LEGAL_KIND, LEGAL_CARD]]}
            assert legal and len(legal) == n
            seat = int(hs[ST_TO_MOVE])
            for kind in range(len(ACTION_KINDS)):
                for card in ([-1] if kind < 4 or kind == 6 else range(52)):
                    trial.hs[:] = hs
                    status = checked_step_nb(trial, seat, kind, card, packed, tab)
                    assert (status >= 0) == ((kind, card) in legal), (kind, card, status)
                    if status < 0:
                        assert np.array_equal(trial.hs, hs)
                    else:
                        assert_cards_conserved(trial.hs)
                # the other seat may never act
                trial.hs[:] = hs
                assert checked_step_nb(trial, 1 - seat, kind, -1, packed, tab) < 0
            positions += 1
            kind, card, kept_dw = decide_nb(params, seat, board, packed, tab, rng)
            assert (kind, card) in legal
            step_nb(hs, seat, kind, card, kept_dw, packed)
    assert positions > 200


def test_a_branch_replays_the_same_future():
    rules = Rules()
    params, packed, tab = seat_params("memory2", "random"), rules.packed(), card_tables(rules)
    board, branch_board = new_board(), new_board()
    hs, branch = board.hs, branch_board.hs
    rng = np.zeros(3, dtype=np.uint64)
    branch_rng = np.zeros(3, dtype=np.uint64)
    branched = 0
    for i in range(30):
        deal(board, rng, 9, i, packed)
        for _ in range(3):  # a few of seat a's discards in, if the hand lasts
            drive_nb(board, np.int64(PH_DISCARD), 0, params, packed, tab, rng, NO_TRACE)
            if hs[ST_PHASE] >= PH_OVER:
                break
            seat = hs[ST_TO_MOVE]
            step_nb(hs, seat, *decide_nb(params, seat, board, packed, tab, rng), packed)
        if hs[ST_PHASE] >= PH_OVER:
            continue
        copy_position_nb(hs, branch, rng, branch_rng)
        drive_nb(board, np.int64(TO_THE_END), -1, params, packed, tab, rng, NO_TRACE)
        drive_nb(branch_board, np.int64(TO_THE_END), -1, params, packed, tab, branch_rng,
                 NO_TRACE)
        showdown_nb(board, packed, tab)
        showdown_nb(branch_board, packed, tab)
        assert np.array_equal(hs[POSITION_START:POSITION_END],
                              branch[POSITION_START:POSITION_END]), i
        branched += 1
    assert branched > 10
