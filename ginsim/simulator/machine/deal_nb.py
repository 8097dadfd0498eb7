"""The deal of a hand: the shuffled deck, the seats' random streams, the cards dealt and
the first phase (the upcard offer, or the eleven-card deal's discard), and the copy of
a position that branches a hand. Part of the board (:mod:`ginsim.simulator.machine.board_nb`);
contract as in :mod:`ginsim.simulator.play.drive_nb`. The ``lay_*`` kernels lay a position
from parts known outside a deal (a seat's own view, the belief's replay, the advisor's
and the mc seat's worlds, given decks); ``offer_*`` put a laid position in a phase."""

import numpy as np

from ...game._jit import jit
from ...game.bits_nb import popcount_nb
from ...game.rng_nb import DECK_STREAM, SEAT_STREAMS, shuffle_two_pass_nb, stream_key_nb
from ...game.rules import (
    DEAL_ELEVEN,
    DEAL_UPCARD,
    R_ACES_MUST_GIN,
    R_DEAL,
    R_DOUBLE_SUITS,
    R_KNOCK_LIMIT,
    R_OKLAHOMA,
)
from ...game.state import (
    PH_DISCARD,
    PH_LAST_DISCARD,
    PH_OFFER,
    POSITION_END,
    POSITION_START,
    ST_DEALER,
    ST_DECK,
    ST_DISCARDED,
    ST_DRAWN,
    ST_DRAWS,
    ST_ENDING,
    ST_HAND,
    ST_HAND_ID,
    ST_KNOCK_LIMIT,
    ST_KNOCKER,
    ST_MULTIPLIER,
    ST_PASSED,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_POS,
    ST_TAKEN,
    ST_TO_MOVE,
    ST_TRACE_ROW,
    ST_UPCARD,
)

#: The deck position of the stock's top after the deal: 10 + 10 and the upcard, or the
#: eleven-card deal's 11 + 10.
FIRST_POS = 21


@jit
def shuffle_deck_nb(hs, rng, key, deal):
    """Put the deck of deal ``deal`` under ``key`` in ``hs``: 0..51 shuffled by the
    stream ``(key, deal, DECK_STREAM)``."""
    deck = hs[ST_DECK:ST_DECK + 52]
    for c in range(52):
        deck[c] = c
    rng[2] = stream_key_nb(key, deal, DECK_STREAM)
    shuffle_two_pass_nb(deck, rng, 2, hs[ST_DRAWS:ST_DRAWS + 52].view(np.uint64))


@jit
def seat_streams_nb(rng, key, hand_id):
    """Seed both players' random streams for hand ``hand_id`` under ``key``."""
    rng[0] = stream_key_nb(key, hand_id, SEAT_STREAMS)
    rng[1] = stream_key_nb(key, hand_id, SEAT_STREAMS + 1)


@jit
def clear_position_nb(hs, hand_id):
    """Zero the position's fields before a hand or a constructed position; the pile
    and deck slots and the trace row counter are kept. The phase is the upcard offer
    to seat a until set otherwise."""
    row = hs[ST_TRACE_ROW]
    for i in range(POSITION_START, ST_PILE):
        hs[i] = 0
    hs[ST_TRACE_ROW] = row
    hs[ST_HAND_ID] = hand_id
    hs[ST_ENDING] = -1
    hs[ST_KNOCKER] = -1
    hs[ST_UPCARD] = -1
    hs[ST_DRAWN] = -1
    hs[ST_MULTIPLIER] = 1


@jit
def oklahoma_limit_nb(upcard, rules):
    """The knock limit an Oklahoma upcard sets: its pip value, courts 10, ace 0 (gin
    only) or 1 when aces need not go gin."""
    rank = upcard % 13
    if rank == 0:
        return 0 if rules[R_ACES_MUST_GIN] != 0 else 1
    return min(rank + 1, 10)


@jit
def lay_deal_nb(hs, hand_id, dealer, hands, upcard, pos, knock_limit):
    """Lay out a dealt position from its parts: seat a and b holding ``hands`` (two
    masks), ``dealer`` dealing, the ``upcard`` (-1: the eleven-card deal) alone on the
    pile, the stock's top at deck position ``pos`` and the hand's ``knock_limit``. The
    non-dealer acts first: the upcard offer, or the eleven-card deal's discard. The deal
    (:func:`deal_nb`) lays its hands through this; so do the positions known only from
    outside (a seat's own view in ``table/agents.py``, the belief's replay)."""
    clear_position_nb(hs, hand_id)
    hs[ST_HAND] = hands[0]
    hs[ST_HAND + 1] = hands[1]
    hs[ST_PHASE] = PH_DISCARD
    if upcard >= 0:
        hs[ST_UPCARD] = upcard
        hs[ST_PILE] = upcard
        hs[ST_PILE_LEN] = 1
        hs[ST_PILE_MASK] = 1 << upcard
        hs[ST_PHASE] = PH_OFFER
    hs[ST_TO_MOVE] = 1 - dealer
    hs[ST_POS] = pos
    hs[ST_DEALER] = dealer
    hs[ST_KNOCK_LIMIT] = knock_limit


@jit
def deal_nb(hs, dealer, rules, hand_id):
    """Deal the deck in ``hs``: the non-dealer's cards first, then the dealer's, then
    the upcard (none with the eleven-card deal); the rest is the stock
    (:func:`lay_deal_nb` lays the position)."""
    first = 11 if rules[R_DEAL] == DEAL_ELEVEN else 10
    nondealer_hand = 0
    dealer_hand = 0
    for i in range(first):
        nondealer_hand |= 1 << hs[ST_DECK + i]
    for i in range(first, first + 10):
        dealer_hand |= 1 << hs[ST_DECK + i]
    pos = first + 10
    up = -1
    if rules[R_DEAL] == DEAL_UPCARD:
        up = hs[ST_DECK + pos]
        pos += 1
    limit = rules[R_KNOCK_LIMIT]
    if rules[R_OKLAHOMA] != 0 and up >= 0:
        limit = oklahoma_limit_nb(up, rules)
    hands = (nondealer_hand, dealer_hand) if dealer == 1 else (dealer_hand, nondealer_hand)
    lay_deal_nb(hs, hand_id, dealer, hands, up, pos, limit)
    if rules[R_OKLAHOMA] != 0 and up >= 0 and (rules[R_DOUBLE_SUITS] >> (up // 13)) & 1:
        hs[ST_MULTIPLIER] = 2


@jit
def lay_position_nb(hs, hand_id, hands, pile, stock, knock_limit):
    """Lay out a position that was not dealt here (the advisor's worlds): seat a and b
    holding ``hands`` (two masks), ``pile`` (cards, bottom first) on the discard pile,
    ``stock`` (cards, top first) as the deck's last cards and the hand's
    ``knock_limit``; the public history is left clear for the caller."""
    clear_position_nb(hs, hand_id)
    hs[ST_HAND] = hands[0]
    hs[ST_HAND + 1] = hands[1]
    for i in range(pile.shape[0]):
        hs[ST_PILE + i] = pile[i]
        hs[ST_PILE_MASK] |= 1 << pile[i]
    hs[ST_PILE_LEN] = pile.shape[0]
    n_stock = stock.shape[0]
    for i in range(n_stock):
        hs[ST_DECK + 52 - n_stock + i] = stock[i]
    hs[ST_POS] = 52 - n_stock
    hs[ST_KNOCK_LIMIT] = knock_limit


@jit
def copy_position_nb(src, dst, rng, dst_rng):
    """Copy the position of ``src`` and its random streams into ``dst`` (a branch's board
    keeps its own scratch)."""
    for i in range(POSITION_START, POSITION_END):
        dst[i] = src[i]
    for i in range(rng.shape[0]):
        dst_rng[i] = rng[i]


@jit
def offer_upcard_nb(hs, seat):
    """In a laid position: the upcard ``hs[ST_UPCARD]`` is offered to ``seat`` (the
    advisor's and the mc seat's worlds, where the offer is one of the options)."""
    hs[ST_PHASE] = PH_OFFER
    hs[ST_TO_MOVE] = seat


@jit
def offer_last_discard_nb(hs, seat):
    """In a laid position: the 50th-card turn in front of ``seat`` (the pile's top is
    the final discard), as the stock floor leaves it."""
    hs[ST_PHASE] = PH_LAST_DISCARD
    hs[ST_TO_MOVE] = seat


@jit
def lay_deck_nb(hs, deck):
    """Put the deck order ``deck`` (52 cards, dealing order) in ``hs``, for a deal that
    is not shuffled here (given decks, the Table's replay of a record)."""
    for c in range(52):
        hs[ST_DECK + c] = deck[c]


@jit
def lay_multiplier_nb(hs, multiplier):
    """The hand's score multiplier (Oklahoma's doubling suit), for a position laid from
    what a seat is told."""
    hs[ST_MULTIPLIER] = multiplier


@jit
def lay_upcard_nb(hs, upcard, dealer):
    """A laid position's upcard and dealer (the advisor's option to pass an upcard)."""
    hs[ST_UPCARD] = upcard
    hs[ST_DEALER] = dealer


@jit
def lay_seen_nb(hs, seat, took, passed):
    """What ``seat`` is seen to have done in a laid position: ``took`` the pile cards it
    took and holds, ``passed`` the pile tops it declined, at least one pile take per
    card taken (the signal a knock chart reads)."""
    hs[ST_TAKEN + seat] = took
    hs[ST_PASSED + seat] = passed
    hs[ST_PILE_TAKES + seat] = popcount_nb(took)


@jit
def lay_public_nb(hs, public):
    """The public history of a laid position: ``public`` = (taken a, taken b,
    discarded a, discarded b, passed a, passed b) masks, then each seat's count of pile
    takes."""
    for seat in range(2):
        hs[ST_TAKEN + seat] = public[seat]
        hs[ST_DISCARDED + seat] = public[2 + seat]
        hs[ST_PASSED + seat] = public[4 + seat]
        hs[ST_PILE_TAKES + seat] = public[6 + seat]


@jit
def lay_guess_nb(hs, seat, hand, stock, n_stock):
    """A world guessed for a seat that cannot see it: ``seat`` holds ``hand`` and the
    stock from its top is ``stock[:n_stock]`` (what fits in the deck)."""
    hs[ST_HAND + seat] = hand
    pos = hs[ST_POS]
    for i in range(n_stock):
        if pos + i < 52:
            hs[ST_DECK + pos + i] = stock[i]
