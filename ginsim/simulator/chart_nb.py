"""Counterfactual knock decisions (the knock chart): branch the hand state at every
point where seat a may knock, and score "knock now" against "wait this turn".

Contract as in :mod:`ginsim.simulator.hand_nb`. The actual hand follows seat a's own
strategy; at each of seat a's turns where the best discard keeps deadwood between 1 and
the hand's knock limit, the small state arrays (``st``, ``pile``, ``deck``, the random
streams) are copied into a second scratch area twice: one copy knocks now and is scored,
the other discards as the strategy would without knocking and plays on with both
strategies to the end. Both branches share the future cards (common random numbers).
Decision points on the very first turn (upcard offers) are not branched.
"""

from ..game._jit import jit
from ..game.melds_nb import best_discard_nb
from ..game.rng_nb import shuffle_nb, stream_key_nb
from ..game.rules import R_BIG_GIN_BONUS
from ..game.state import (
    ST_DEALER,
    ST_ENDING,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PASSED,
    ST_PILE_LEN,
    ST_POS,
    ST_SIZE,
    ST_TURNS,
)
from ..strategies.params import P_MEMORY
from ..strategies.policy_nb import after_draw_nb, pile_decision_nb, wait_discard_nb
from .hand_nb import (
    _finish_turn_nb,
    _take_pile_top_nb,
    open_hand_nb,
    play_on_nb,
    play_turn_nb,
    scratch_views_nb,
    showdown_nb,
)

CHART_COLUMNS = ("hand", "turn", "deadwood", "stock_left", "dealer", "net_knock", "net_wait",
                 "knocked")
CHART_WIDTH = len(CHART_COLUMNS)
MAX_POINTS_PER_HAND = 80


@jit
def _copy_position_nb(scratch, branch, rng, branch_rng):
    deck, pile, st, _, _, _ = scratch_views_nb(scratch)
    bdeck, bpile, bst, _, _, _ = scratch_views_nb(branch)
    for i in range(52):
        bdeck[i] = deck[i]
        bpile[i] = pile[i]
    for i in range(ST_SIZE):
        bst[i] = st[i]
    for i in range(rng.shape[0]):
        branch_rng[i] = rng[i]


@jit
def _net_for_a_nb(branch, rules, tab):
    """Score the finished position in ``branch``: seat a's points minus seat b's."""
    _, _, bst, bkmelds, bresult, bwork = scratch_views_nb(branch)
    showdown_nb(bst, rules, tab, bwork, bkmelds, bresult)
    return bresult[5] - bresult[7]


@jit
def branch_knock_nb(deadwood, card, rules, tab, branch):
    """Knock now with ``card`` (the best discard) in the branch; returns a's net points."""
    _, bpile, bst, _, _, _ = scratch_views_nb(branch)
    _finish_turn_nb(0, card, deadwood, True, False, rules, bst, bpile)
    return _net_for_a_nb(branch, rules, tab)


@jit
def branch_wait_nb(forbidden, params, rules, tab, branch, branch_rng, trace, hand_id):
    """Discard without knocking, play on to the end of the hand; returns a's net points."""
    bdeck, bpile, bst, _, _, bwork = scratch_views_nb(branch)
    card, dw = wait_discard_nb(params, 0, bst[ST_HAND], forbidden, bst, tab, bwork, branch_rng)
    _finish_turn_nb(0, card, dw, False, False, rules, bst, bpile)
    play_on_nb(1, params, rules, tab, bwork, bst, bpile, bdeck, branch_rng, trace, 0, hand_id)
    return _net_for_a_nb(branch, rules, tab)


@jit
def knock_chart_nb(seed, start, stop, params, rules, tab, rows, trace, scratch, branch, rng,
                   branch_rng):
    """Play hands ``start .. stop-1`` (as :func:`simulate_nb` deals them) and write one row
    per decision point of seat a (see ``CHART_COLUMNS``). Returns ``(rows, next hand)``;
    stops early when ``rows`` might overflow."""
    deck, pile, st, kmelds, result, work = scratch_views_nb(scratch)
    n = 0
    i = start
    while i < stop and n + MAX_POINTS_PER_HAND <= rows.shape[0]:
        for c in range(52):
            deck[c] = c
        rng[2] = stream_key_nb(seed, i, 0)
        shuffle_nb(deck, rng, 2)
        rng[0] = stream_key_nb(seed, i, 1)
        rng[1] = stream_key_nb(seed, i, 2)
        seat, _ = open_hand_nb(deck, i % 2, params, rules, tab, work, st, pile, rng, trace, 0, i)
        first_row = n
        while st[ST_ENDING] < 0:
            if seat == 1:
                play_turn_nb(1, True, params, rules, tab, work, st, pile, deck, rng, trace, 0, i)
                seat = 0
                continue
            take = False
            if st[ST_PILE_LEN] > 0:
                top = pile[st[ST_PILE_LEN] - 1]
                take, discard, dw, knock, big = pile_decision_nb(params, 0, st[ST_HAND], top, st,
                                                                 rules, tab, work, rng)
                if not take:
                    st[ST_PASSED] |= 1 << top
            forbidden = 0
            if take:
                forbidden = 1 << _take_pile_top_nb(0, st, pile)
            else:
                st[ST_HAND] |= 1 << deck[st[ST_POS]]
                st[ST_POS] += 1
                st[ST_TURNS] += 1
            kdw, kcard, _, all_melded = best_discard_nb(st[ST_HAND], forbidden, 0, tab, work,
                                                        params[0, P_MEMORY] >= 1)
            big_gin = all_melded and rules[R_BIG_GIN_BONUS] >= 0
            if 0 < kdw <= st[ST_KNOCK_LIMIT] and not big_gin and n < rows.shape[0]:
                rows[n, 0] = i
                rows[n, 1] = st[ST_TURNS]
                rows[n, 2] = kdw
                rows[n, 3] = 52 - st[ST_POS]
                rows[n, 4] = st[ST_DEALER] == 0
                _copy_position_nb(scratch, branch, rng, branch_rng)
                rows[n, 5] = branch_knock_nb(kdw, kcard, rules, tab, branch)
                _copy_position_nb(scratch, branch, rng, branch_rng)
                rows[n, 6] = branch_wait_nb(forbidden, params, rules, tab, branch, branch_rng,
                                            trace, i)
                n += 1
            if not take:  # the same pass decides the actual discard (branches use `branch`)
                discard, dw, knock, big = after_draw_nb(params, 0, st[ST_HAND], 0, kdw, kcard,
                                                        all_melded, st, rules, tab, work, rng)
            if n > first_row and rows[n - 1, 0] == i and rows[n - 1, 1] == st[ST_TURNS]:
                rows[n - 1, 7] = knock
            _finish_turn_nb(0, discard, dw, knock, big, rules, st, pile)
            seat = 1
        if st[ST_ENDING] >= 0:
            play_on_nb(seat, params, rules, tab, work, st, pile, deck, rng, trace, 0, i)
        i += 1
    return n, i
