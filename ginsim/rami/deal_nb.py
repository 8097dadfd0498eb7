"""The Rami deal machine: one deal for 2-6 players from a deck key, as a kernel.

A deal shuffles the 104 + jokers cards with the key's stream, deals each player its
hand from the starter on, turns up one card (unless the starter gets the extra card and
begins by discarding), then plays turns: draw the stock's top or take the top discard
to use it at once, lay the best lay-down if the strategy says so, discard. It ends when
a player has no card left (went out) or when a player must draw from an empty stock
(blocked: the lowest hand wins). Every array comes from the caller; nothing allocates.
"""

import numpy as np

from ..game._jit import jit
from ..game.rng_nb import shuffle_two_pass_nb, stream_key_nb
from .melds_nb import OUT_BIT, S_BEST, apply_move_nb, best_plan_nb
from .moves_nb import candidates_nb
from .policy_nb import choose_discard_nb, could_use_nb, lays_now_nb, uses_kind_nb
from .rules import R_HAND_SIZE, R_OPEN_MIN, R_STARTER_FOURTEEN
from .scoring_nb import blocked_winner_nb, counts_value_nb, deal_charges_nb
from .strategy import P_TAKE
from .tables import TB_HAND

JOKER = 52
# Per-player state columns (``pstate[p, X]``).
PS_OPENED = 0
PS_OPEN_TURN = 1
PS_OWN_TURNS = 2
PS_TAKEN = 3
PS_CHARGE = 4
PS_THROWN = 5  # bit mask of the kinds the player discarded this deal
PS_WIDTH = 6
# Deal outcome slots (``outcome[X]``).
O_WINNER = 0
O_DRY = 1
O_BLOCKED = 2
O_TURNS = 3
O_STOCK_LEFT = 4
O_STARTER = 5
O_SIZE = 6
MAX_TURNS = 1000  # a safety net: every deal ends by the stock long before
# Trace row layout: per turn after the discard.
TR_TURN = 0
TR_SEAT = 1
TR_TOOK = 2
TR_STOCK_POS = 3
TR_PILE = 4
TR_TABLE_N = 5
TR_TOP = 6  # the top discard when the turn began (-1: none)
TR_HANDS = 8
TR_PILE_COUNTS = TR_HANDS + 6 * 53
TR_STOCK_COUNTS = TR_PILE_COUNTS + 53
TR_TABLE = TR_STOCK_COUNTS + 53


@jit
def _others_opened_nb(pstate, players, p):
    for q in range(players):
        if q != p and pstate[q, PS_OPENED] != 0:
            return True
    return False


@jit
def _trace_nb(trace, row, turn, p, took, top, pos, deck, players, hands, pile, plen, table,
              n_table):
    """Snapshot where every card is (for the conservation and legality tests)."""
    r = trace[row]
    for i in range(r.shape[0]):
        r[i] = 0
    r[TR_TURN] = turn
    r[TR_SEAT] = p
    r[TR_TOOK] = took
    r[TR_STOCK_POS] = pos
    r[TR_PILE] = plen
    r[TR_TABLE_N] = n_table
    r[TR_TOP] = top
    for q in range(players):
        for k in range(53):
            r[TR_HANDS + q * 53 + k] = hands[q, k]
    for i in range(plen):
        r[TR_PILE_COUNTS + pile[i]] += 1
    for i in range(pos, deck.shape[0]):
        r[TR_STOCK_COUNTS + deck[i]] += 1
    w = table.shape[1]
    for m in range(n_table):
        for f in range(w):
            r[TR_TABLE + m * w + f] = table[m, f]


@jit
def _deal_out_nb(key, players, starter, rules, base, deck, draws, state, hands, pile):
    """Shuffle the pack with stream ``key`` and deal; returns (stock position, pile size)."""
    for i in range(base.shape[0]):
        deck[i] = base[i]
    state[0] = key
    shuffle_two_pass_nb(deck, state, 0, draws)
    for q in range(players):
        for k in range(53):
            hands[q, k] = 0
    pos = 0
    for _ in range(rules[R_HAND_SIZE]):
        for i in range(players):
            hands[(starter + i) % players, deck[pos]] += 1
            pos += 1
    plen = 0
    if rules[R_STARTER_FOURTEEN] != 0:
        hands[starter, deck[pos]] += 1
        pos += 1
    else:
        pile[0] = deck[pos]
        pos += 1
        plen = 1
    return pos, plen


@jit
def play_deal_nb(key, players, starter, rules, tabs, params, base, deck, draws, state,
                 hands, table, pile, pstate, cand, scratch, outcome, trace):
    """Play one deal; per-player results go to ``pstate`` (charge, opened, ...) and the
    deal's to ``outcome`` (``O_*``). Returns the number of trace rows written."""
    n_cards = deck.shape[0]
    pos, plen = _deal_out_nb(key, players, starter, rules, base, deck, draws, state, hands,
                             pile)
    for q in range(players):
        pstate[q, PS_OPENED] = 0
        pstate[q, PS_OPEN_TURN] = -1
        pstate[q, PS_OWN_TURNS] = 0
        pstate[q, PS_TAKEN] = 0
        pstate[q, PS_THROWN] = 0
    n_table = 0
    p = starter
    turns = 0
    winner = -1
    dry = 0
    blocked = 0
    rows = 0
    open_min = rules[R_OPEN_MIN]
    while turns < MAX_TURNS:
        others = _others_opened_nb(pstate, players, p)
        opened = pstate[p, PS_OPENED] != 0
        own = pstate[p, PS_OWN_TURNS]
        hand = hands[p]
        took = 0
        depth = 0
        score = -1
        n_cand = 0
        draw = not (turns == 0 and rules[R_STARTER_FOURTEEN] != 0)
        top_start = pile[plen - 1] if plen > 0 else -1
        if draw and plen > 0 and params[p, P_TAKE] != 0 and could_use_nb(
                hand, pile[plen - 1], table, n_table):
            top = pile[plen - 1]
            before = hand[top]
            hand[top] += 1
            n_cand = candidates_nb(hand, table, n_table, opened, tabs, cand)
            if uses_kind_nb(cand, n_cand, top):
                score, depth = best_plan_nb(hand, n_cand, cand, opened, not others, open_min,
                                            top, before, rules, tabs, scratch)
                if lays_now_nb(params[p], opened, own, n_cards - pos, others, score, depth,
                               cand, scratch):
                    took = 1
                    plen -= 1
            if took == 0:
                hand[top] -= 1
        if draw and took == 0:
            if pos >= n_cards:
                blocked = 1
                break
            hand[deck[pos]] += 1
            pos += 1
        if took == 0:
            n_cand = candidates_nb(hand, table, n_table, opened, tabs, cand)
            score, depth = best_plan_nb(hand, n_cand, cand, opened, not others, open_min,
                                        -1, 0, rules, tabs, scratch)
        if took == 1 or lays_now_nb(params[p], opened, own, n_cards - pos, others, score,
                                    depth, cand, scratch):
            for i in range(depth):
                n_table = apply_move_nb(hand, table, n_table, cand, scratch[S_BEST + i], p)
            if not opened:
                pstate[p, PS_OPENED] = 1
                pstate[p, PS_OPEN_TURN] = own
                if score >= OUT_BIT and not others:
                    dry = 1
        pstate[p, PS_TAKEN] += took
        left = 0
        for k in range(53):
            left += hand[k]
        if left > 0:
            k = choose_discard_nb(hand, cand, n_cand, table, n_table, params[p], tabs,
                                  pstate[(p + 1) % players, PS_THROWN])
            if k < JOKER:
                pstate[p, PS_THROWN] |= np.int64(1) << k
            hand[k] -= 1
            pile[plen] = k
            plen += 1
            left -= 1
        if rows < trace.shape[0]:
            _trace_nb(trace, rows, turns, p, took, top_start, pos, deck, players, hands, pile,
                      plen, table, n_table)
            rows += 1
        turns += 1
        pstate[p, PS_OWN_TURNS] = own + 1
        if left == 0:
            winner = p
            break
        p = (p + 1) % players
    values = tabs[TB_HAND:TB_HAND + 53]
    if winner < 0:
        blocked = 1
        winner = blocked_winner_nb(hands, players, p, values)
    deal_charges_nb(hands, pstate[:, PS_OPENED], players, winner, dry, rules, values,
                    pstate[:, PS_CHARGE])
    outcome[O_WINNER] = winner
    outcome[O_DRY] = dry
    outcome[O_BLOCKED] = blocked
    outcome[O_TURNS] = turns
    outcome[O_STOCK_LEFT] = n_cards - pos
    outcome[O_STARTER] = starter
    return rows



@jit
def play_deals_nb(seed, start, stop, players, rules, tabs, params, base, deck, draws, state,
                  hands, table, pile, pstate, cand, scratch, outcome, trace, out):
    """Deals ``start .. stop-1``: deal ``d`` from key ``(seed, d, 0)`` with seat
    ``d % players`` starting; one record per deal and player to ``out``. Returns the
    trace rows written (the trace covers the first deal only)."""
    traced = 0
    for d in range(start, stop):
        key = stream_key_nb(seed, d, 0)
        starter = d % players
        rows = play_deal_nb(key, players, starter, rules, tabs, params, base, deck, draws,
                            state, hands, table, pile, pstate, cand, scratch, outcome,
                            trace if d == start else trace[:0])
        traced = rows if d == start else traced
        _records_nb(out, (d - start) * players, d, players, hands, pstate, outcome, tabs)
    return traced


@jit
def _records_nb(out, first, d, players, hands, pstate, outcome, tabs):
    values = tabs[TB_HAND:TB_HAND + 53]
    for q in range(players):
        k = first + q
        out[k].deal = d
        out[k].player = q
        out[k].players = players
        out[k].starter = outcome[O_STARTER]
        out[k].winner = outcome[O_WINNER]
        out[k].charge = pstate[q, PS_CHARGE]
        out[k].opened = pstate[q, PS_OPENED] != 0
        out[k].went_out = outcome[O_WINNER] == q and outcome[O_BLOCKED] == 0
        out[k].dry = outcome[O_DRY] != 0
        out[k].blocked = outcome[O_BLOCKED] != 0
        out[k].open_turn = pstate[q, PS_OPEN_TURN]
        out[k].hand_value = counts_value_nb(hands[q], values)
        left = 0
        for i in range(53):
            left += hands[q, i]
        out[k].cards_left = left
        out[k].turns = outcome[O_TURNS]
        out[k].stock_left = outcome[O_STOCK_LEFT]
        out[k].discards_taken = pstate[q, PS_TAKEN]
