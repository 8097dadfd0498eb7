"""The turn engine's phases, driven one by one from Python, give the hand loop's records;
a branch (copy the position, call the phases) replays the same future exactly."""

import numpy as np
import pytest

from ginsim.game.card_tables import card_tables
from ginsim.game.rules import Rules
from ginsim.game.state import (
    FULL_DECK,
    POSITION_END,
    POSITION_START,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_OUTCOME,
    RES_POINTS,
    RES_STOCK_LEFT,
    ST_DECK,
    ST_ENDING,
    ST_HAND,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_TURNS,
)
from ginsim.simulator.machine.buffers import new_board
from ginsim.simulator.machine.phases_nb import (
    copy_position_nb,
    deal_nb,
    first_turn_nb,
    play_on_nb,
    play_turn_nb,
    seat_streams_nb,
    showdown_nb,
    shuffle_deck_nb,
)
from ginsim.simulator.machine.records import TRACE_WIDTH
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


@pytest.mark.parametrize("a,b,rules", [("simple", "simple", "modern"),
                                       ("memory2", "random", "oklahoma"),
                                       ("memory1", "gin_hunter", "eleven")])
def test_phase_by_phase_equals_the_hand_loop(a, b, rules):
    rules = Rules.preset(rules)
    hands = 40
    records, _ = play_records(a, b, stop=hands, seed=5, rules=rules)
    params, packed, tab = seat_params(a, b), rules.packed(), card_tables(rules)
    board = new_board()
    hs = board.hs
    rng = np.zeros(3, dtype=np.uint64)
    key = np.uint64(5)
    for i in range(hands):
        shuffle_deck_nb(hs, rng, key, i)
        seat_streams_nb(rng, key, i)
        deal_nb(hs, i % 2, packed, i)
        assert_cards_conserved(hs)
        seat = first_turn_nb(board, params, packed, tab, rng, NO_TRACE)
        while hs[ST_ENDING] < 0:
            play_turn_nb(board, seat, True, params, packed, tab, rng, NO_TRACE)
            assert_cards_conserved(hs)
            seat = 1 - seat
        showdown_nb(board, packed, tab)
        rec = records[i]
        assert (hs[RES_OUTCOME], hs[RES_KNOCKER], hs[RES_KNOCKER_DEADWOOD],
                hs[RES_DEFENDER_DEADWOOD], hs[RES_POINTS], hs[RES_POINTS + 1],
                hs[RES_STOCK_LEFT], hs[ST_TURNS]) == (
            rec["outcome"], rec["knocker"], rec["knocker_deadwood"], rec["defender_deadwood"],
            rec["points_a"], rec["points_b"], rec["stock_left"], rec["turns"]), i


def test_a_branch_replays_the_same_future():
    rules = Rules()
    params, packed, tab = seat_params("memory2", "random"), rules.packed(), card_tables(rules)
    board, branch_board = new_board(), new_board()
    hs, branch = board.hs, branch_board.hs
    rng = np.zeros(3, dtype=np.uint64)
    branch_rng = np.zeros(3, dtype=np.uint64)
    for i in range(30):
        shuffle_deck_nb(hs, rng, np.uint64(9), i)
        seat_streams_nb(rng, np.uint64(9), i)
        deal_nb(hs, 0, packed, i)
        seat = first_turn_nb(board, params, packed, tab, rng, NO_TRACE)
        for _ in range(3):  # a few turns in, if the hand lasts
            if hs[ST_ENDING] >= 0:
                break
            play_turn_nb(board, seat, True, params, packed, tab, rng, NO_TRACE)
            seat = 1 - seat
        if hs[ST_ENDING] >= 0:
            continue
        copy_position_nb(hs, branch, rng, branch_rng)
        play_on_nb(board, seat, params, packed, tab, rng, NO_TRACE)
        play_on_nb(branch_board, seat, params, packed, tab, branch_rng, NO_TRACE)
        showdown_nb(board, packed, tab)
        showdown_nb(branch_board, packed, tab)
        assert np.array_equal(hs[POSITION_START:POSITION_END],
                              branch[POSITION_START:POSITION_END]), i
