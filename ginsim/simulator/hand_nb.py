"""The hand loop kernel (RULES §3-§6): deal, upcard offer, turns, knock, showdown, score.

Contract: numba functions over int64/float64 arrays that allocate nothing (the
Python layer hands :func:`simulate_nb` one scratch array per chunk). A hand in progress is three
small arrays: ``st`` (int64, laid out in :mod:`ginsim.game.state`), ``pile`` (the
discard pile, bottom first) and ``deck`` (the shuffled deck; the stock is
``deck[st[ST_POS]:]``), so a position can be copied and played on.
"""


from ..game._jit import jit
from ..game.layoff_nb import defender_deadwood_nb, knocker_arrangement_nb
from ..game.melds_nb import WORK_SIZE
from ..game.rng_nb import shuffle_nb, stream_key_nb
from ..game.rules import (
    R_ACES_MUST_GIN,
    R_DEAL,
    R_DOUBLE_SUITS,
    R_KNOCK_LIMIT,
    R_LAST_DISCARD,
    R_LAYOFF,
    R_OKLAHOMA,
    R_STOCK_FLOOR,
)
from ..game.scoring_nb import OUT_DEAD, score_hand_nb
from ..game.state import (
    ENDING_BIG_GIN,
    ENDING_DEAD,
    ENDING_KNOCK,
    FULL_DECK,
    ST_DEALER,
    ST_DISCARDED,
    ST_ENDING,
    ST_HAND,
    ST_KNOCK_DEADWOOD,
    ST_KNOCK_LIMIT,
    ST_KNOCKER,
    ST_MULTIPLIER,
    ST_PASSED,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_SIZE,
    ST_TAKEN,
    ST_TURNS,
    ST_UPCARD,
    ST_UPCARD_TAKEN,
)
from ..strategies.policy_nb import (
    choose_discard_nb,
    last_discard_decision_nb,
    pile_decision_nb,
)
from .records import (
    ACTION_BIG_GIN,
    ACTION_DEAD,
    ACTION_DISCARD,
    ACTION_KNOCK,
    ACTION_LAST_DISCARD,
    SOURCE_DEAL,
    SOURCE_PILE,
    SOURCE_STOCK,
)

MAX_TURNS = 500  # a hand still running after this many draws is scored as dead
SCRATCH_SIZE = 116 + ST_SIZE + WORK_SIZE


@jit
def deal_nb(deck, dealer, rules, st, pile):
    """Deal from a shuffled deck: the non-dealer's cards first, then the dealer's."""
    st[:] = 0
    nondealer = 1 - dealer
    first = 11 if rules[R_DEAL] == 1 else 10
    for i in range(first):
        st[ST_HAND + nondealer] |= 1 << deck[i]
    for i in range(first, first + 10):
        st[ST_HAND + dealer] |= 1 << deck[i]
    pos = first + 10
    st[ST_UPCARD] = -1
    if rules[R_DEAL] == 0:
        st[ST_UPCARD] = deck[pos]
        pile[0] = deck[pos]
        st[ST_PILE_LEN] = 1
        st[ST_PILE_MASK] = 1 << deck[pos]
        pos += 1
    st[ST_POS] = pos
    st[ST_ENDING] = -1
    st[ST_KNOCKER] = -1
    st[ST_DEALER] = dealer
    st[ST_KNOCK_LIMIT] = rules[R_KNOCK_LIMIT]
    st[ST_MULTIPLIER] = 1
    if rules[R_OKLAHOMA] != 0 and st[ST_UPCARD] >= 0:
        st[ST_KNOCK_LIMIT] = oklahoma_limit_nb(st[ST_UPCARD], rules)
        if (rules[R_DOUBLE_SUITS] >> (st[ST_UPCARD] // 13)) & 1:
            st[ST_MULTIPLIER] = 2


@jit
def oklahoma_limit_nb(upcard, rules):
    """The knock limit an Oklahoma upcard sets: its pip value, courts 10, ace 0 (gin
    only) or 1 when aces need not go gin."""
    rank = upcard % 13
    if rank == 0:
        return 0 if rules[R_ACES_MUST_GIN] != 0 else 1
    return min(rank + 1, 10)


@jit
def _finish_turn_nb(seat, discard, kept_deadwood, knock, big_gin, rules, st, pile):
    """Apply a discard, knock or big gin; end the hand at the stock floor. Returns action."""
    if big_gin:
        st[ST_ENDING] = ENDING_BIG_GIN
        st[ST_KNOCKER] = seat
        st[ST_KNOCK_DEADWOOD] = 0
        return ACTION_BIG_GIN
    st[ST_HAND + seat] &= ~(1 << discard)
    st[ST_DISCARDED + seat] |= 1 << discard
    st[ST_TAKEN + seat] &= ~(1 << discard)
    pile[st[ST_PILE_LEN]] = discard
    st[ST_PILE_LEN] += 1
    st[ST_PILE_MASK] |= 1 << discard
    if knock:
        st[ST_ENDING] = ENDING_KNOCK
        st[ST_KNOCKER] = seat
        st[ST_KNOCK_DEADWOOD] = kept_deadwood
        return ACTION_KNOCK
    if 52 - st[ST_POS] <= rules[R_STOCK_FLOOR] or st[ST_TURNS] >= MAX_TURNS:
        st[ST_ENDING] = ENDING_DEAD
        return ACTION_DEAD
    return ACTION_DISCARD


@jit
def _take_pile_top_nb(seat, st, pile):
    st[ST_PILE_LEN] -= 1
    card = pile[st[ST_PILE_LEN]]
    st[ST_PILE_MASK] &= ~(1 << card)
    st[ST_HAND + seat] |= 1 << card
    st[ST_TAKEN + seat] |= 1 << card
    st[ST_TURNS] += 1
    return card


@jit
def _trace_nb(trace, row, hand_id, seat, source, drawn, discard, action, st, deck):
    if row < trace.shape[0]:
        stock = 0
        for i in range(st[ST_POS], 52):
            stock |= 1 << deck[i]
        trace[row, 0] = hand_id
        trace[row, 1] = st[ST_TURNS]
        trace[row, 2] = seat
        trace[row, 3] = source
        trace[row, 4] = drawn
        trace[row, 5] = discard
        trace[row, 6] = action
        trace[row, 7] = st[ST_HAND]
        trace[row, 8] = st[ST_HAND + 1]
        trace[row, 9] = st[ST_PILE_MASK]
        trace[row, 10] = stock
        trace[row, 11] = 52 - st[ST_POS]
    return row + 1


@jit
def play_turn_nb(seat, pile_allowed, params, rules, tab, work, st, pile, deck, rng, trace,
                 trace_row, hand_id):
    """One turn of ``seat``: draw (pile if allowed and chosen, else stock), then discard,
    knock or big gin. Returns the next trace row."""
    take = False
    if pile_allowed and st[ST_PILE_LEN] > 0:
        top = pile[st[ST_PILE_LEN] - 1]
        take, discard, dw, knock, big = pile_decision_nb(params, seat, st[ST_HAND + seat],
                                                         top, st, rules, tab, work, rng)
        if not take:
            st[ST_PASSED + seat] |= 1 << top
    if take:
        drawn = _take_pile_top_nb(seat, st, pile)
        source = SOURCE_PILE
    else:
        drawn = deck[st[ST_POS]]
        st[ST_POS] += 1
        st[ST_HAND + seat] |= 1 << drawn
        st[ST_TURNS] += 1
        source = SOURCE_STOCK
        discard, dw, knock, big = choose_discard_nb(params, seat, st[ST_HAND + seat], 0, st,
                                                    rules, tab, work, rng)
    action = _finish_turn_nb(seat, discard, dw, knock, big, rules, st, pile)
    return _trace_nb(trace, trace_row, hand_id, seat, source, drawn, discard, action, st, deck)


@jit
def play_hand_nb(deck, dealer, params, rules, tab, work, st, pile, rng, trace, trace_row,
                 hand_id):
    """Deal ``deck`` and play the hand to its end; returns the next trace row.

    ``params`` is float64[2, P_SIZE] (one row per seat), ``rng`` uint64[2+] (one
    stream per seat). The result is left in ``st``; :func:`showdown_nb` scores it.
    """
    seat, trace_row = open_hand_nb(deck, dealer, params, rules, tab, work, st, pile, rng,
                                   trace, trace_row, hand_id)
    return play_on_nb(seat, params, rules, tab, work, st, pile, deck, rng, trace, trace_row,
                      hand_id)


@jit
def open_hand_nb(deck, dealer, params, rules, tab, work, st, pile, rng, trace, trace_row,
                 hand_id):
    """Deal and play the first turn (upcard offers, or the eleventh card's discard).

    Returns ``(seat to move next, next trace row)``.
    """
    deal_nb(deck, dealer, rules, st, pile)
    trace_row = _trace_nb(trace, trace_row, hand_id, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD,
                          st, deck)
    nondealer = 1 - dealer
    seat = nondealer
    if rules[R_DEAL] == 1:
        # Eleven-card deal: the non-dealer's first turn is only a discard.
        discard, dw, knock, big = choose_discard_nb(params, seat, st[ST_HAND + seat], 0, st,
                                                    rules, tab, work, rng)
        action = _finish_turn_nb(seat, discard, dw, knock, big, rules, st, pile)
        trace_row = _trace_nb(trace, trace_row, hand_id, seat, SOURCE_DEAL, -1, discard,
                              action, st, deck)
        return dealer, trace_row
    up = st[ST_UPCARD]
    taken_by = -1
    for offer in range(2):
        s = nondealer if offer == 0 else dealer
        take, discard, dw, knock, big = pile_decision_nb(params, s, st[ST_HAND + s], up,
                                                         st, rules, tab, work, rng)
        if take:
            taken_by = s
            break
        st[ST_PASSED + s] |= 1 << up
    if taken_by >= 0:
        _take_pile_top_nb(taken_by, st, pile)
        st[ST_UPCARD_TAKEN] = 1
        action = _finish_turn_nb(taken_by, discard, dw, knock, big, rules, st, pile)
        trace_row = _trace_nb(trace, trace_row, hand_id, taken_by, SOURCE_PILE, up,
                              discard, action, st, deck)
        return 1 - taken_by, trace_row
    trace_row = play_turn_nb(nondealer, False, params, rules, tab, work, st, pile,
                             deck, rng, trace, trace_row, hand_id)
    return dealer, trace_row


@jit
def play_on_nb(seat, params, rules, tab, work, st, pile, deck, rng, trace, trace_row,
               hand_id):
    """Play from a position with ``seat`` to move until the hand ends (the 50th-card
    rule included); returns the next trace row."""
    while st[ST_ENDING] < 0:
        trace_row = play_turn_nb(seat, True, params, rules, tab, work, st, pile, deck, rng,
                                 trace, trace_row, hand_id)
        seat = 1 - seat
    if (st[ST_ENDING] == ENDING_DEAD and rules[R_LAST_DISCARD] != 0 and st[ST_PILE_LEN] > 0
            and st[ST_TURNS] < MAX_TURNS):
        trace_row = last_discard_turn_nb(seat, params, rules, tab, work, st, pile, deck,
                                         trace, trace_row, hand_id)
    return trace_row


@jit
def last_discard_turn_nb(seat, params, rules, tab, work, st, pile, deck, trace, trace_row,
                         hand_id):
    """The 50th-card rule: ``seat`` may take the final discard, only to knock with it."""
    top = pile[st[ST_PILE_LEN] - 1]
    take, discard, dw, knock, big = last_discard_decision_nb(params, seat, st[ST_HAND + seat],
                                                             top, st, rules, tab, work)
    if not take:
        return trace_row
    st[ST_ENDING] = -1
    _take_pile_top_nb(seat, st, pile)
    _finish_turn_nb(seat, discard, dw, knock, big, rules, st, pile)
    return _trace_nb(trace, trace_row, hand_id, seat, SOURCE_PILE, top, discard,
                     ACTION_LAST_DISCARD, st, deck)


@jit
def showdown_nb(st, rules, tab, work, kmelds, result):
    """Score a finished hand into ``result`` (int64[8]): outcome, knocker, K, D before and
    after layoffs, points of seat a and seat b, stock left."""
    ending = st[ST_ENDING]
    result[6] = 52 - st[ST_POS]
    if ending == ENDING_DEAD:
        result[0] = OUT_DEAD
        result[1] = -1
        result[2] = -1
        result[3] = -1
        result[4] = -1
        result[5] = 0
        result[7] = 0
        return
    knocker = st[ST_KNOCKER]
    defender = 1 - knocker
    hand = st[ST_HAND + knocker]
    kdw = st[ST_KNOCK_DEADWOOD]
    nk = 0
    if ending == ENDING_KNOCK and kdw > 0:
        unseen = FULL_DECK & ~hand & ~st[ST_PILE_MASK]
        kdw, nk = knocker_arrangement_nb(hand, unseen, tab, work, kmelds)
    before, after = defender_deadwood_nb(st[ST_HAND + defender], kmelds, nk, rules[R_LAYOFF],
                                         tab, work)
    outcome, kpts, dpts = score_hand_nb(ending, kdw, after, rules)
    kpts *= st[ST_MULTIPLIER]
    dpts *= st[ST_MULTIPLIER]
    result[0] = outcome
    result[1] = knocker
    result[2] = kdw
    result[3] = before
    result[4] = after
    result[5] = kpts if knocker == 0 else dpts
    result[7] = dpts if knocker == 0 else kpts


@jit
def scratch_views_nb(scratch):
    """Cut the caller's int64 scratch array into (deck, pile, st, kmelds, result, work)."""
    return (scratch[0:52], scratch[52:104], scratch[104:104 + ST_SIZE],
            scratch[104 + ST_SIZE:108 + ST_SIZE], scratch[108 + ST_SIZE:116 + ST_SIZE],
            scratch[116 + ST_SIZE:])


@jit
def play_and_record_nb(i, k, dealer, seed, params, rules, tab, out, trace, trace_row, scratch,
                       rng):
    """Play hand ``i`` from the deck already in the scratch array; write record ``k``."""
    deck, pile, st, kmelds, result, work = scratch_views_nb(scratch)
    rng[0] = stream_key_nb(seed, i, 1)
    rng[1] = stream_key_nb(seed, i, 2)
    trace_row = play_hand_nb(deck, dealer, params, rules, tab, work, st, pile, rng, trace,
                             trace_row, i)
    showdown_nb(st, rules, tab, work, kmelds, result)
    out[k].hand = i
    out[k].dealer = dealer
    out[k].outcome = result[0]
    out[k].knocker = result[1]
    out[k].knocker_deadwood = result[2]
    out[k].defender_deadwood_before_layoff = result[3]
    out[k].defender_deadwood = result[4]
    out[k].points_a = result[5]
    out[k].points_b = result[7]
    out[k].turns = st[ST_TURNS]
    out[k].stock_left = result[6]
    out[k].upcard_taken = st[ST_UPCARD_TAKEN] != 0
    out[k].upcard = st[ST_UPCARD]
    out[k].knock_limit = st[ST_KNOCK_LIMIT]
    out[k].multiplier = st[ST_MULTIPLIER]
    return trace_row


@jit
def simulate_nb(seed, start, stop, duplicate, params, rules, tab, out, trace, scratch, rng):
    """Play hands ``start .. stop-1`` into the record array ``out``; returns trace rows.

    Hand ``i`` deals deal ``i`` (``i // 2`` with ``duplicate``, whose odd hands replay
    the even hand's deal with the seats swapped). Seat a deals even deals. All
    randomness comes from ``(seed, deal)`` for the deck and ``(seed, i, seat)`` for the
    players, so records do not depend on chunking. ``scratch`` is int64[SCRATCH_SIZE]
    and ``rng`` uint64[3] (seat a, seat b, the deck), both made by the caller.
    """
    deck = scratch[0:52]
    trace_row = 0
    for i in range(start, stop):
        deal = i // 2 if duplicate else i
        dealer = deal % 2
        if duplicate and i % 2 == 1:
            dealer = 1 - dealer
        for c in range(52):
            deck[c] = c
        rng[2] = stream_key_nb(seed, deal, 0)
        shuffle_nb(deck, rng, 2)
        trace_row = play_and_record_nb(i, i - start, dealer, seed, params, rules, tab, out,
                                       trace, trace_row, scratch, rng)
    return trace_row


@jit
def play_decks_nb(decks, dealers, seed, params, rules, tab, out, trace, scratch, rng):
    """Play one hand per given deck order (``decks[i]``, dealt as :func:`deal_nb` does)
    with ``dealers[i]`` dealing; players' random streams come from ``(seed, i)``."""
    deck = scratch[0:52]
    trace_row = 0
    for i in range(decks.shape[0]):
        for c in range(52):
            deck[c] = decks[i, c]
        trace_row = play_and_record_nb(i, i, dealers[i], seed, params, rules, tab, out, trace,
                                       trace_row, scratch, rng)
    return trace_row
