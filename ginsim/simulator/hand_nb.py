"""The hand loop kernel: deal, play and score hands into per-hand records.

Contract as in :mod:`ginsim.simulator.phases_nb`, whose phases play each hand; this
module only chooses the deck and the dealer of each hand and writes its record
(:data:`~ginsim.simulator.records.RECORD_DTYPE`). ``hs`` is one hand-state array
(int64[HS_SIZE]) and ``rng`` uint64[3], both made by the caller.
"""

from ..game._jit import jit
from ..game.state import (
    HS_SIZE,
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_OUTCOME,
    RES_POINTS,
    RES_STOCK_LEFT,
    ST_DECK,
    ST_KNOCK_LIMIT,
    ST_MULTIPLIER,
    ST_TRACE_ROW,
    ST_TURNS,
    ST_UPCARD,
    ST_UPCARD_TAKEN,
)
from .phases_nb import (
    play_hand_nb,
    seat_streams_nb,
    showdown_nb,
    shuffle_deck_nb,
)

SCRATCH_SIZE = HS_SIZE  # the hand state a driver hands to these kernels


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


@jit
def play_and_record_nb(hand_id, k, dealer, key, params, rules, tab, out, trace, hs, rng):
    """Play hand ``hand_id`` from the deck already in ``hs`` (players' streams from
    ``(key, hand_id)``), score it and write record ``k``."""
    seat_streams_nb(rng, key, hand_id)
    play_hand_nb(hs, dealer, params, rules, tab, rng, trace, hand_id)
    showdown_nb(hs, rules, tab)
    record_hand_nb(out, k, hand_id, dealer, hs)


@jit
def simulate_nb(seed, start, stop, duplicate, params, rules, tab, out, trace, hs, rng):
    """Play hands ``start .. stop-1`` into the record array ``out``; returns trace rows.

    Hand ``i`` deals deal ``i`` (``i // 2`` with ``duplicate``, whose odd hands replay
    the even hand's deal with the seats swapped). Seat a deals even deals. All
    randomness comes from ``(seed, deal)`` for the deck and ``(seed, i, seat)`` for the
    players, so records do not depend on chunking.
    """
    hs[ST_TRACE_ROW] = 0
    for i in range(start, stop):
        deal = i // 2 if duplicate else i
        dealer = deal % 2
        if duplicate and i % 2 == 1:
            dealer = 1 - dealer
        shuffle_deck_nb(hs, rng, seed, deal)
        play_and_record_nb(i, i - start, dealer, seed, params, rules, tab, out, trace, hs, rng)
    return hs[ST_TRACE_ROW]


@jit
def play_decks_nb(decks, dealers, seed, params, rules, tab, out, trace, hs, rng):
    """Play one hand per given deck order (``decks[i]``, dealt as :func:`deal_nb` does)
    with ``dealers[i]`` dealing; players' random streams come from ``(seed, i)``."""
    hs[ST_TRACE_ROW] = 0
    for i in range(decks.shape[0]):
        for c in range(52):
            hs[ST_DECK + c] = decks[i, c]
        play_and_record_nb(i, i, dealers[i], seed, params, rules, tab, out, trace, hs, rng)
    return hs[ST_TRACE_ROW]
