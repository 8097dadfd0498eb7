"""The hand loop kernel: deal, play and score hands into per-hand records.

Contract as in :mod:`ginsim.simulator.play.drive_nb`, whose driver plays each hand; this
module only chooses the deck and the dealer of each hand and writes its record
(:data:`~ginsim.simulator.machine.records.RECORD_DTYPE`). Its kernels write to a
:class:`~ginsim.simulator.machine.buffers.HandBuffers` ``buf`` the caller makes
(:func:`~ginsim.simulator.machine.buffers.hand_buffers`): the records, the trace, one board (the
hand state and its scratch, :class:`~ginsim.game.state.Board`), the players' random
streams (uint64[3]) and an mc seat's memory.
"""

import numpy as np
from numba.extending import overload

from ...game._jit import jit
from ...game.rng_nb import rotating_dealer_nb
from ...game.state import (
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_MAX_PILE_TAKE,
    RES_OUTCOME,
    RES_PILE_CARDS,
    RES_POINTS,
    RES_STOCK_LEFT,
    ST_KNOCK_LIMIT,
    ST_MULTIPLIER,
    ST_TRACE_ROW,
    ST_TURNS,
    ST_UPCARD,
    ST_UPCARD_TAKEN,
)
from ...strategies.params import KIND_MC, P_KIND, P_SIZE
from ..machine.board_nb import restart_trace_nb
from ..machine.deal_nb import lay_deck_nb, seat_streams_nb, shuffle_deck_nb
from ..machine.showdown_nb import showdown_nb
from ..search.mc_nb import mc_play_hand_nb
from .drive_nb import play_hand_nb


def hand_params(rows: np.ndarray) -> np.ndarray:
    """The float64[2, P_SIZE] seat rows as the hand loop takes them: when a seat is an
    mc player they travel as a non-contiguous view, whose array type compiles the
    loop's mc specialization (:func:`play_any_hand`); plain rows stay contiguous, so
    their kernels never compile the mc player."""
    rows = np.ascontiguousarray(rows, dtype=np.float64)
    if not (rows[:, P_KIND] == KIND_MC).any():
        return rows
    wide = np.zeros((rows.shape[0], P_SIZE + 1))
    wide[:, :P_SIZE] = rows
    return wide[:, :P_SIZE]


def play_any_hand(buf, dealer, params, rules, tab, hand_id):
    """Play a dealt hand: :func:`play_hand_nb`, or :func:`mc_play_hand_nb` for rows made
    by :func:`hand_params` with an mc seat (chosen at compile time by their layout)."""
    raise NotImplementedError("called from numba kernels only")


@overload(play_any_hand, inline="always",
          jit_options={"nogil": True, "error_model": "numpy", "_nrt": False})
def _play_any_hand(buf, dealer, params, rules, tab, hand_id):
    if params.layout == "C":
        def plain(buf, dealer, params, rules, tab, hand_id):
            play_hand_nb(buf.board, dealer, params, rules, tab, buf.rng, buf.trace, hand_id)
        return plain

    def with_mc(buf, dealer, params, rules, tab, hand_id):
        mc_play_hand_nb(buf, dealer, params, rules, tab, hand_id)
    return with_mc


@jit
def record_hand_nb(out, k, hand_id, dealer, hs):
    """Write the scored hand in ``hs`` as record ``k`` of ``out``."""
    out[k].hand = hand_id
    out[k].dealer = dealer
    out[k].outcome = hs[RES_OUTCOME]
    out[k].knocker = hs[RES_KNOCKER]
    out[k].knocker_deadwood = hs[RES_KNOCKER_DEADWOOD]
    out[k].defender_deadwood_before_layoff = hs[RES_DEFENDER_BEFORE]
    out[k].defender_deadwood = hs[RES_DEFENDER_DEADWOOD]
    out[k].points_a = hs[RES_POINTS]
    out[k].points_b = hs[RES_POINTS + 1]
    out[k].turns = hs[ST_TURNS]
    out[k].stock_left = hs[RES_STOCK_LEFT]
    out[k].upcard_taken = hs[ST_UPCARD_TAKEN] != 0
    out[k].upcard = hs[ST_UPCARD]
    out[k].knock_limit = hs[ST_KNOCK_LIMIT]
    out[k].multiplier = hs[ST_MULTIPLIER]
    out[k].max_pile_take = hs[RES_MAX_PILE_TAKE]
    out[k].pile_cards_taken = hs[RES_PILE_CARDS]


@jit
def play_and_record_nb(hand_id, k, dealer, key, params, rules, tab, buf):
    """Play hand ``hand_id`` from the deck already in ``buf.board.hs`` (players' streams from
    ``(key, hand_id)``), score it and write record ``k`` of ``buf.out`` (inlined: the
    buffers would cross a call as some two hundred scalars)."""
    seat_streams_nb(buf.rng, key, hand_id)
    play_any_hand(buf, dealer, params, rules, tab, hand_id)
    showdown_nb(buf.board, rules, tab)
    record_hand_nb(buf.out, k, hand_id, dealer, buf.board.hs)


@jit
def simulate_nb(seed, start, stop, duplicate, params, rules, tab, buf):
    """Play hands ``start .. stop-1`` into the record array ``buf.out``; returns trace
    rows.

    Hand ``i`` deals deal ``i`` (``i // 2`` with ``duplicate``, whose odd hands replay
    the even hand's deal with the seats swapped). Seat a deals even deals. All
    randomness comes from ``(seed, deal)`` for the deck and ``(seed, i, seat)`` for the
    players, so records do not depend on chunking.
    """
    hs = buf.board.hs
    restart_trace_nb(hs)
    for i in range(start, stop):
        deal = i // 2 if duplicate else i
        dealer = rotating_dealer_nb(deal, 2)
        if duplicate and i % 2 == 1:
            dealer = 1 - dealer
        shuffle_deck_nb(hs, buf.rng, seed, deal)
        play_and_record_nb(i, i - start, dealer, seed, params, rules, tab, buf)
    return hs[ST_TRACE_ROW]


@jit
def play_decks_nb(decks, dealers, seed, params, rules, tab, buf):
    """Play one hand per given deck order (``decks[i]``, dealt as :func:`deal_nb` does)
    with ``dealers[i]`` dealing; players' random streams come from ``(seed, i)``."""
    hs = buf.board.hs
    restart_trace_nb(hs)
    for i in range(decks.shape[0]):
        lay_deck_nb(hs, decks[i])
        play_and_record_nb(i, i, dealers[i], seed, params, rules, tab, buf)
    return hs[ST_TRACE_ROW]
