"""The turn engine: a hand of gin rummy as explicit phases over one hand-state array.

Contract: numba functions over int64/float64 arrays that allocate nothing. A hand in
progress is the int64 hand state ``hs`` laid out in :mod:`ginsim.game.state` (the meld
scratch, then the position: fields, discard pile, deck, knocker's melds, result) plus
``rng``, uint64[3] random streams (seat a, seat b, the deck). Every driver (the hand
loop, the game schedulers, the knock chart's branches, the advisor's rollouts) plays
hands by calling these phases; a branch copies the position (:func:`copy_position_nb`)
and calls them again.

The phases, in order:

1. :func:`shuffle_deck_nb` and :func:`deal_nb` (docs/rules.md §3);
2. :func:`first_turn_nb`: upcard offers, or the eleven-card deal's first discard (§4);
3. per turn, :func:`draw_nb` (pile or stock) then :func:`discard_nb` (discard, knock or
   big gin, §4-§5); :func:`play_turn_nb` is the two, :func:`play_on_nb` loops them and
   applies the 50th-card rule (:func:`last_discard_turn_nb`);
4. :func:`showdown_nb`: the knocker's arrangement, layoffs and the score (§5.2, §6),
   left in the ``RES_*`` fields.

``params`` is float64[2, P_SIZE] (one row per seat), ``rules`` the packed rules and
``tab`` the card tables. ``trace`` is an int64[rows, TRACE_WIDTH] array that receives
one row per turn while ``hs[ST_TRACE_ROW]`` is below its length (give it 0 rows to
switch it off).
"""

import numpy as np

from ..game._jit import jit, jit_inline
from ..game.layoff_nb import defender_deadwood_nb, knocker_arrangement_nb
from ..game.rng_nb import shuffle_two_pass_nb, stream_key_nb
from ..game.rules import (
    R_ACES_MUST_GIN,
    R_DEAL,
    R_DOUBLE_SUITS,
    R_KNOCK_LIMIT,
    R_LAST_DISCARD,
    R_LAYOFF,
    R_MAHJONG,
    R_OKLAHOMA,
    R_STOCK_FLOOR,
)
from ..game.scoring_nb import OUT_DEAD, score_hand_nb
from ..game.state import (
    ENDING_BIG_GIN,
    ENDING_DEAD,
    ENDING_KNOCK,
    FULL_DECK,
    POSITION_END,
    POSITION_START,
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_MAX_PILE_TAKE,
    RES_OUTCOME,
    RES_PILE_CARDS,
    RES_POINTS,
    RES_STOCK_LEFT,
    SOURCE_DEAL,
    SOURCE_PILE,
    SOURCE_STOCK,
    ST_DEALER,
    ST_DECK,
    ST_DISCARDED,
    ST_DRAWN,
    ST_DRAWS,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_HAND_ID,
    ST_KMELDS,
    ST_KNOCK_DEADWOOD,
    ST_KNOCK_LIMIT,
    ST_KNOCKER,
    ST_MULTIPLIER,
    ST_PASSED,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_PLAN_BIG_GIN,
    ST_PLAN_DEADWOOD,
    ST_PLAN_DISCARD,
    ST_PLAN_KNOCK,
    ST_PLANNED,
    ST_POS,
    ST_SOURCE,
    ST_TAKEN,
    ST_TRACE_ROW,
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
    TRACE_ACTION,
    TRACE_DISCARD,
    TRACE_DRAWN,
    TRACE_HAND,
    TRACE_HAND_A,
    TRACE_HAND_B,
    TRACE_PILE,
    TRACE_SEAT,
    TRACE_SOURCE,
    TRACE_STOCK,
    TRACE_STOCK_LEFT,
    TRACE_TURN,
)

MAX_TURNS = 500  # a hand still running after this many draws is scored as dead


@jit
def shuffle_deck_nb(hs, rng, key, deal):
    """Put the deck of deal ``deal`` under ``key`` in ``hs``: 0..51 shuffled by the
    stream ``(key, deal, 0)``."""
    deck = hs[ST_DECK:ST_DECK + 52]
    for c in range(52):
        deck[c] = c
    rng[2] = stream_key_nb(key, deal, 0)
    shuffle_two_pass_nb(deck, rng, 2, hs[ST_DRAWS:ST_DRAWS + 52].view(np.uint64))


@jit
def seat_streams_nb(rng, key, hand_id):
    """Seed both players' random streams for hand ``hand_id`` under ``key``."""
    rng[0] = stream_key_nb(key, hand_id, 1)
    rng[1] = stream_key_nb(key, hand_id, 2)


@jit
def clear_position_nb(hs, hand_id):
    """Zero the position's fields before a hand or a constructed position; the pile
    and deck slots and the trace row counter are kept."""
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
def deal_nb(hs, dealer, rules, hand_id):
    """Deal the deck in ``hs``: the non-dealer's cards first, then the dealer's, then
    the upcard (none with the eleven-card deal); the rest is the stock."""
    clear_position_nb(hs, hand_id)
    nondealer = 1 - dealer
    first = 11 if rules[R_DEAL] == 1 else 10
    for i in range(first):
        hs[ST_HAND + nondealer] |= 1 << hs[ST_DECK + i]
    for i in range(first, first + 10):
        hs[ST_HAND + dealer] |= 1 << hs[ST_DECK + i]
    pos = first + 10
    if rules[R_DEAL] == 0:
        up = hs[ST_DECK + pos]
        hs[ST_UPCARD] = up
        hs[ST_PILE] = up
        hs[ST_PILE_LEN] = 1
        hs[ST_PILE_MASK] = 1 << up
        pos += 1
    hs[ST_POS] = pos
    hs[ST_DEALER] = dealer
    hs[ST_KNOCK_LIMIT] = rules[R_KNOCK_LIMIT]
    if rules[R_OKLAHOMA] != 0 and hs[ST_UPCARD] >= 0:
        hs[ST_KNOCK_LIMIT] = oklahoma_limit_nb(hs[ST_UPCARD], rules)
        if (rules[R_DOUBLE_SUITS] >> (hs[ST_UPCARD] // 13)) & 1:
            hs[ST_MULTIPLIER] = 2


@jit
def copy_position_nb(src, dst, rng, dst_rng):
    """Copy the position of ``src`` (not the meld scratch) and its random streams."""
    for i in range(POSITION_START, POSITION_END):
        dst[i] = src[i]
    for i in range(rng.shape[0]):
        dst_rng[i] = rng[i]


@jit
def pile_top_nb(hs):
    """The discard pile's top card, -1 when the pile is empty."""
    n = hs[ST_PILE_LEN]
    return hs[ST_PILE + n - 1] if n > 0 else -1


@jit
def take_pile_top_nb(hs, seat):
    """``seat`` takes the pile's top card (a draw); returns the card."""
    hs[ST_PILE_LEN] -= 1
    card = hs[ST_PILE + hs[ST_PILE_LEN]]
    hs[ST_PILE_MASK] &= ~(1 << card)
    hs[ST_HAND + seat] |= 1 << card
    hs[ST_TAKEN + seat] |= 1 << card
    hs[ST_PILE_TAKES + seat] += 1
    hs[ST_TURNS] += 1
    hs[ST_DRAWN] = card
    hs[ST_SOURCE] = SOURCE_PILE
    hs[ST_FORBIDDEN] = 1 << card
    return card


@jit
def draw_stock_nb(hs, seat):
    """``seat`` draws the stock's top card; returns the card."""
    card = hs[ST_DECK + hs[ST_POS]]
    hs[ST_POS] += 1
    hs[ST_HAND + seat] |= 1 << card
    hs[ST_TURNS] += 1
    hs[ST_DRAWN] = card
    hs[ST_SOURCE] = SOURCE_STOCK
    hs[ST_FORBIDDEN] = 0
    return card


@jit
def plan_nb(hs, discard, deadwood, knock, big_gin):
    """Keep the discard a draw decision already chose, for :func:`discard_nb`."""
    hs[ST_PLANNED] = 1
    hs[ST_PLAN_DISCARD] = discard
    hs[ST_PLAN_DEADWOOD] = deadwood
    hs[ST_PLAN_KNOCK] = knock
    hs[ST_PLAN_BIG_GIN] = big_gin


@jit_inline
def draw_nb(hs, seat, pile_allowed, params, rules, tab, rng):
    """The draw phase: ``seat`` takes the pile's top card if allowed and its strategy
    wants it (the decision also fixes the discard, kept for :func:`discard_nb`), else
    draws from the stock. Returns the card drawn."""
    hs[ST_PLANNED] = 0
    if pile_allowed and hs[ST_PILE_LEN] > 0:
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        take, discard, dw, knock, big = pile_decision_nb(params, seat, hs[ST_HAND + seat], top,
                                                         hs, rules, tab, rng)
        if take:
            plan_nb(hs, discard, dw, knock, big)
            return take_pile_top_nb(hs, seat)
        hs[ST_PASSED + seat] |= 1 << top
    return draw_stock_nb(hs, seat)


@jit_inline
def apply_discard_nb(hs, seat, discard, kept_deadwood, knock, big_gin, rules):
    """Apply a discard, a knock (discard, then lay down) or big gin (no discard); end
    the hand at the stock floor. Returns the ACTION_* code."""
    if big_gin:
        hs[ST_ENDING] = ENDING_BIG_GIN
        hs[ST_KNOCKER] = seat
        hs[ST_KNOCK_DEADWOOD] = 0
        return ACTION_BIG_GIN
    bit = 1 << discard
    hs[ST_HAND + seat] &= ~bit
    hs[ST_DISCARDED + seat] |= bit
    hs[ST_TAKEN + seat] &= ~bit
    hs[ST_PILE + hs[ST_PILE_LEN]] = discard
    hs[ST_PILE_LEN] += 1
    hs[ST_PILE_MASK] |= bit
    if knock:
        hs[ST_ENDING] = ENDING_KNOCK
        hs[ST_KNOCKER] = seat
        hs[ST_KNOCK_DEADWOOD] = kept_deadwood
        return ACTION_KNOCK
    if 52 - hs[ST_POS] <= rules[R_STOCK_FLOOR] or hs[ST_TURNS] >= MAX_TURNS:
        hs[ST_ENDING] = ENDING_DEAD
        return ACTION_DEAD
    return ACTION_DISCARD


@jit_inline
def discard_nb(hs, seat, params, rules, tab, rng):
    """The discard phase: discard, knock or big gin from ``seat``'s 11 cards, as its
    strategy decides (or as the draw decision already planned). Returns ``(discard,
    action)``."""
    if hs[ST_PLANNED] != 0:
        discard = hs[ST_PLAN_DISCARD]
        dw = hs[ST_PLAN_DEADWOOD]
        knock = hs[ST_PLAN_KNOCK] != 0
        big = hs[ST_PLAN_BIG_GIN] != 0
        hs[ST_PLANNED] = 0
    else:
        discard, dw, knock, big = choose_discard_nb(params, seat, hs[ST_HAND + seat],
                                                    hs[ST_FORBIDDEN], hs, rules, tab, rng)
    return discard, apply_discard_nb(hs, seat, discard, dw, knock, big, rules)


@jit_inline
def trace_turn_nb(trace, hs, seat, source, drawn, discard, action):
    """Write one trace row (see TRACE_COLUMNS) if the trace has room."""
    row = hs[ST_TRACE_ROW]
    if row < trace.shape[0]:
        stock = 0
        for i in range(hs[ST_POS], 52):
            stock |= 1 << hs[ST_DECK + i]
        trace[row, TRACE_HAND] = hs[ST_HAND_ID]
        trace[row, TRACE_TURN] = hs[ST_TURNS]
        trace[row, TRACE_SEAT] = seat
        trace[row, TRACE_SOURCE] = source
        trace[row, TRACE_DRAWN] = drawn
        trace[row, TRACE_DISCARD] = discard
        trace[row, TRACE_ACTION] = action
        trace[row, TRACE_HAND_A] = hs[ST_HAND]
        trace[row, TRACE_HAND_B] = hs[ST_HAND + 1]
        trace[row, TRACE_PILE] = hs[ST_PILE_MASK]
        trace[row, TRACE_STOCK] = stock
        trace[row, TRACE_STOCK_LEFT] = 52 - hs[ST_POS]
    hs[ST_TRACE_ROW] = row + 1


@jit_inline
def play_turn_nb(hs, seat, pile_allowed, params, rules, tab, rng, trace):
    """One turn of ``seat``: the draw phase, then the discard phase."""
    drawn = draw_nb(hs, seat, pile_allowed, params, rules, tab, rng)
    discard, action = discard_nb(hs, seat, params, rules, tab, rng)
    trace_turn_nb(trace, hs, seat, hs[ST_SOURCE], drawn, discard, action)


@jit
def first_turn_nb(hs, params, rules, tab, rng, trace):
    """After the deal: the upcard offers (non-dealer, then dealer; if both pass the
    non-dealer draws from the stock), or the eleven-card deal's first discard.
    Returns the seat to move next."""
    trace_turn_nb(trace, hs, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD)
    dealer = hs[ST_DEALER]
    nondealer = 1 - dealer
    if rules[R_DEAL] == 1:
        hs[ST_FORBIDDEN] = 0
        hs[ST_PLANNED] = 0
        discard, action = discard_nb(hs, nondealer, params, rules, tab, rng)
        trace_turn_nb(trace, hs, nondealer, SOURCE_DEAL, -1, discard, action)
        return dealer
    up = hs[ST_UPCARD]
    for offer in range(2):
        s = nondealer if offer == 0 else dealer
        take, discard, dw, knock, big = pile_decision_nb(params, s, hs[ST_HAND + s], up, hs,
                                                         rules, tab, rng)
        if take:
            take_pile_top_nb(hs, s)
            hs[ST_UPCARD_TAKEN] = 1
            action = apply_discard_nb(hs, s, discard, dw, knock, big, rules)
            trace_turn_nb(trace, hs, s, SOURCE_PILE, up, discard, action)
            return 1 - s
        hs[ST_PASSED + s] |= 1 << up
    play_turn_nb(hs, nondealer, False, params, rules, tab, rng, trace)
    return dealer


@jit
def play_on_nb(hs, seat, params, rules, tab, rng, trace):
    """Play from a position with ``seat`` to move until the hand ends (the 50th-card
    rule included)."""
    while hs[ST_ENDING] < 0:
        play_turn_nb(hs, seat, True, params, rules, tab, rng, trace)
        seat = 1 - seat
    if (hs[ST_ENDING] == ENDING_DEAD and rules[R_LAST_DISCARD] != 0 and hs[ST_PILE_LEN] > 0
            and hs[ST_TURNS] < MAX_TURNS):
        last_discard_turn_nb(hs, seat, params, rules, tab, trace)


@jit
def last_discard_turn_nb(hs, seat, params, rules, tab, trace):
    """The 50th-card rule: ``seat`` may take the final discard, only to knock with it."""
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    take, discard, dw, knock, big = last_discard_decision_nb(params, seat, hs[ST_HAND + seat],
                                                             top, hs, rules, tab)
    if not take:
        return
    hs[ST_ENDING] = -1
    take_pile_top_nb(hs, seat)
    apply_discard_nb(hs, seat, discard, dw, knock, big, rules)
    trace_turn_nb(trace, hs, seat, SOURCE_PILE, top, discard, ACTION_LAST_DISCARD)


@jit
def play_hand_nb(hs, dealer, params, rules, tab, rng, trace, hand_id):
    """Deal the deck in ``hs`` and play the hand to its end (not scored)."""
    if rules[R_MAHJONG] != 0:
        mahjong_nb.play_hand_nb(hs, dealer, params, rules, tab, rng, trace, hand_id)
        return
    deal_nb(hs, dealer, rules, hand_id)
    seat = first_turn_nb(hs, params, rules, tab, rng, trace)
    play_on_nb(hs, seat, params, rules, tab, rng, trace)


@jit
def showdown_nb(hs, rules, tab):
    """Score a finished hand into the ``RES_*`` fields of ``hs``: outcome, knocker, K,
    D before and after layoffs, each seat's points, stock left, pile cards taken."""
    if rules[R_MAHJONG] != 0:
        mahjong_nb.showdown_nb(hs, rules, tab)
        return
    ending = hs[ST_ENDING]
    hs[RES_STOCK_LEFT] = 52 - hs[ST_POS]
    hs[RES_PILE_CARDS] = hs[ST_PILE_TAKES] + hs[ST_PILE_TAKES + 1]  # a take is one card
    hs[RES_MAX_PILE_TAKE] = min(hs[RES_PILE_CARDS], 1)
    if ending == ENDING_DEAD:
        hs[RES_OUTCOME] = OUT_DEAD
        hs[RES_KNOCKER] = -1
        hs[RES_KNOCKER_DEADWOOD] = -1
        hs[RES_DEFENDER_BEFORE] = -1
        hs[RES_DEFENDER_DEADWOOD] = -1
        hs[RES_POINTS] = 0
        hs[RES_POINTS + 1] = 0
        return
    knocker = hs[ST_KNOCKER]
    defender = 1 - knocker
    hand = hs[ST_HAND + knocker]
    kdw = hs[ST_KNOCK_DEADWOOD]
    kmelds = hs[ST_KMELDS:ST_KMELDS + 4]
    nk = 0
    if ending == ENDING_KNOCK and kdw > 0:
        unseen = FULL_DECK & ~hand & ~hs[ST_PILE_MASK]
        kdw, nk = knocker_arrangement_nb(hand, unseen, tab, hs, kmelds)
    before, after = defender_deadwood_nb(hs[ST_HAND + defender], kmelds, nk, rules[R_LAYOFF],
                                         tab, hs)
    outcome, kpts, dpts = score_hand_nb(ending, kdw, after, rules)
    hs[RES_OUTCOME] = outcome
    hs[RES_KNOCKER] = knocker
    hs[RES_KNOCKER_DEADWOOD] = kdw
    hs[RES_DEFENDER_BEFORE] = before
    hs[RES_DEFENDER_DEADWOOD] = after
    hs[RES_POINTS + knocker] = kpts * hs[ST_MULTIPLIER]
    hs[RES_POINTS + defender] = dpts * hs[ST_MULTIPLIER]


@jit
def net_points_nb(hs, seat):
    """``seat``'s points minus the other seat's in a scored hand."""
    return hs[RES_POINTS + seat] - hs[RES_POINTS + 1 - seat]


# Mahjong gin's phases build on the ones above, so its module is imported last.
from . import mahjong_nb  # noqa: E402
