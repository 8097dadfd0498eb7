"""The Rami deal machine: one deal for 2-6 players from a deck key, as a kernel.

A deal shuffles the 104 + jokers cards with the key's stream, deals each player its
hand from the starter on, turns up one card (unless the starter gets the extra card and
begins by discarding), then plays turns: draw the stock's top or take the top discard
to use it at once, lay the best lay-down if the strategy says so, discard. It ends when
a player has no card left (went out) or when a player must draw from an empty stock
(blocked: the lowest hand wins). Every array comes from the caller; nothing allocates.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.rng_nb import RAMI_DEAL_STREAM, rotating_dealer_nb, shuffle_two_pass_nb, stream_key_nb
from ..game.candidates_nb import candidate_moves_nb
from ..game.melds_nb import OUT_BIT, S_BEST, Plan, PlanTurn, apply_move_nb, best_lay_down_nb
from ..game.rules import R_HAND_SIZE, R_OPEN_MIN, R_STARTER_FOURTEEN
from ..game.scoring_nb import blocked_winner_nb, counts_value_nb, deal_charges_nb
from ..game.tables import TB_HAND
from .policy_nb import TurnView, could_use_nb, lays_now_nb, rami_discard_nb, uses_kind_nb
from .strategy import P_TAKE

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
NO = np.int64(0)  # int64 zero and one, so that every TurnEnd field keeps one type
YES = np.int64(1)
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


#: What a run of deals reads and never writes: the packed rules, the lookup tables
#: (:func:`~ginsim.rami.game.tables.rami_tables`), one parameter row per seat
#: (int64[players, P_SIZE]; the player count is its length) and the pack as kinds.
DealSetup = namedtuple("DealSetup", ["rules", "tabs", "params", "base"])
#: The arrays a deal works in: the shuffled pack and its stream, the hands
#: (int64[players, 53]), the table melds, the discard pile, per-player state
#: (``PS_*``), candidate moves, search scratch, the deal's outcome (``O_*``) and the
#: games' running totals (int64[players, 2]: total, dry ramis).
DealWork = namedtuple("DealWork", ["deck", "draws", "state", "hands", "table", "pile",
                                   "pstate", "cand", "scratch", "outcome", "totals"])
#: Where a turn left the deal: stock position, pile size, table melds, whether the top
#: discard was taken, cards left in the mover's hand, a dry rami made, the stock empty
#: when the mover had to draw (the deal is blocked).
TurnEnd = namedtuple("TurnEnd", ["pos", "plen", "n_table", "took", "left", "dry", "blocked"])


@jit_inline
def _others_opened_nb(pstate, players, p):
    for q in range(players):
        if q != p and pstate[q, PS_OPENED] != 0:
            return True
    return False


@jit
def _trace_nb(trace, row, turn, p, top, end, work):
    """Snapshot where every card is (for the conservation and legality tests)."""
    r = trace[row]
    for i in range(r.shape[0]):
        r[i] = 0
    r[TR_TURN] = turn
    r[TR_SEAT] = p
    r[TR_TOOK] = end.took
    r[TR_STOCK_POS] = end.pos
    r[TR_PILE] = end.plen
    r[TR_TABLE_N] = end.n_table
    r[TR_TOP] = top
    hands = work.hands
    for q in range(hands.shape[0]):
        for k in range(53):
            r[TR_HANDS + q * 53 + k] = hands[q, k]
    for i in range(end.plen):
        r[TR_PILE_COUNTS + work.pile[i]] += 1
    for i in range(end.pos, work.deck.shape[0]):
        r[TR_STOCK_COUNTS + work.deck[i]] += 1
    w = work.table.shape[1]
    for m in range(end.n_table):
        for f in range(w):
            r[TR_TABLE + m * w + f] = work.table[m, f]


@jit
def _deal_out_nb(key, starter, setup, work):
    """Shuffle the pack with stream ``key``, deal, and clear every player's state;
    returns (stock position, pile size)."""
    base, deck, hands, rules = setup.base, work.deck, work.hands, setup.rules
    players = hands.shape[0]
    for i in range(base.shape[0]):
        deck[i] = base[i]
    work.state[0] = key
    shuffle_two_pass_nb(deck, work.state, 0, work.draws)
    for q in range(players):
        for k in range(53):
            hands[q, k] = 0
        work.pstate[q, PS_OPENED] = 0
        work.pstate[q, PS_OPEN_TURN] = -1
        work.pstate[q, PS_OWN_TURNS] = 0
        work.pstate[q, PS_TAKEN] = 0
        work.pstate[q, PS_THROWN] = 0
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
        work.pile[0] = deck[pos]
        pos += 1
        plen = 1
    return pos, plen


@jit_inline
def _best_nb(hand, n_cand, view, must_kind, must_max, setup, work):
    """The best lay-down of ``hand`` over its ``n_cand`` candidate moves this turn."""
    turn = PlanTurn(view.opened, not view.others_opened, setup.rules[R_OPEN_MIN], must_kind,
                    must_max)
    return best_lay_down_nb(hand, n_cand, work.cand, turn, setup.rules, setup.tabs,
                            work.scratch)


@jit_inline
def _take_top_nb(p, view, plen, n_table, setup, work):
    """Whether player ``p`` takes the top discard: only to lay it at once, in the
    lay-down its strategy would make this turn. Returns (took, candidates, plan); when
    taken the card is in hand and the plan is the one to lay."""
    hand = work.hands[p]
    top = work.pile[plen - 1]
    if setup.params[p, P_TAKE] == 0 or not could_use_nb(hand, top, work.table, n_table):
        return False, np.int64(0), Plan(np.int64(-1), np.int64(0))
    before = hand[top]
    hand[top] += 1
    n_cand = candidate_moves_nb(hand, work.table, n_table, view.opened, setup.tabs, work.cand)
    plan = Plan(np.int64(-1), np.int64(0))
    if uses_kind_nb(work.cand, n_cand, top):
        plan = _best_nb(hand, n_cand, view, top, before, setup, work)
        if lays_now_nb(setup.params[p], view, plan, work.cand, work.scratch):
            return True, n_cand, plan
    hand[top] -= 1
    return False, n_cand, plan


@jit_inline
def _lay_nb(p, view, plan, n_table, work):
    """Lay the plan's moves; the first lay-down opens. Returns (table melds, dry rami)."""
    hand = work.hands[p]
    for i in range(plan.moves):
        n_table = apply_move_nb(hand, work.table, n_table, work.cand, work.scratch[S_BEST + i],
                                p)
    dry = NO
    if not view.opened:
        work.pstate[p, PS_OPENED] = 1
        work.pstate[p, PS_OPEN_TURN] = view.own_turn
        if plan.score >= OUT_BIT and not view.others_opened:
            dry = YES
    return n_table, dry


@jit_inline
def _discard_nb(p, plen, n_table, n_cand, setup, work):
    """Discard (unless the hand is empty); returns (cards left, pile size)."""
    hand = work.hands[p]
    left = 0
    for k in range(53):
        left += hand[k]
    if left > 0:
        nxt = (p + 1) % work.hands.shape[0]
        k = rami_discard_nb(hand, work.cand, n_cand, work.table, n_table, setup.params[p],
                            setup.tabs, work.pstate[nxt, PS_THROWN])
        if k < JOKER:
            work.pstate[p, PS_THROWN] |= np.int64(1) << k
        hand[k] -= 1
        work.pile[plen] = k
        plen += 1
        left -= 1
    return left, plen


@jit
def _turn_nb(p, turns, pos, plen, n_table, setup, work):
    """Player ``p``'s turn: take the top discard to lay it at once, or draw from the
    stock (none on the fourteen-card starter's first turn); lay the best lay-down if the
    strategy says so; discard. Returns a :data:`TurnEnd`."""
    pstate = work.pstate
    hand = work.hands[p]
    n_cards = work.deck.shape[0]
    own = pstate[p, PS_OWN_TURNS]
    opened = pstate[p, PS_OPENED] != 0
    others = _others_opened_nb(pstate, work.hands.shape[0], p)
    draw = not (turns == 0 and setup.rules[R_STARTER_FOURTEEN] != 0)
    took = False
    n_cand = np.int64(0)
    plan = Plan(np.int64(-1), np.int64(0))
    if draw and plen > 0:
        took, n_cand, plan = _take_top_nb(p, TurnView(opened, own, n_cards - pos, others), plen,
                                          n_table, setup, work)
    if took:
        plen -= 1
    elif draw:
        if pos >= n_cards:
            return TurnEnd(pos, plen, n_table, NO, YES, NO, YES)
        hand[work.deck[pos]] += 1
        pos += 1
    view = TurnView(opened, own, n_cards - pos, others)
    if not took:
        n_cand = candidate_moves_nb(hand, work.table, n_table, opened, setup.tabs, work.cand)
        plan = _best_nb(hand, n_cand, view, np.int64(-1), np.int64(0), setup, work)
    dry = NO
    if took or lays_now_nb(setup.params[p], view, plan, work.cand, work.scratch):
        n_table, dry = _lay_nb(p, view, plan, n_table, work)
    pstate[p, PS_TAKEN] += 1 if took else 0
    left, plen = _discard_nb(p, plen, n_table, n_cand, setup, work)
    pstate[p, PS_OWN_TURNS] = own + 1
    return TurnEnd(pos, plen, n_table, YES if took else NO, left, dry, NO)


@jit
def play_deal_nb(key, starter, setup, work, trace):
    """Play one deal (a :data:`DealSetup` and :data:`DealWork`); per-player results go
    to ``work.pstate`` (charge, opened, ...) and the deal's to ``work.outcome``
    (``O_*``); the first ``len(trace)`` turns are snapshot into ``trace``. Returns the
    number of trace rows written."""
    players = setup.params.shape[0]
    pos, plen = _deal_out_nb(key, starter, setup, work)
    n_table = 0
    p = starter
    turns = 0
    winner = -1
    dry = 0
    rows = 0
    while turns < MAX_TURNS:
        top = work.pile[plen - 1] if plen > 0 else -1
        end = _turn_nb(p, turns, pos, plen, n_table, setup, work)
        if end.blocked != 0:
            break
        pos, plen, n_table = end.pos, end.plen, end.n_table
        dry |= end.dry
        if rows < trace.shape[0]:
            _trace_nb(trace, rows, turns, p, top, end, work)
            rows += 1
        turns += 1
        if end.left == 0:
            winner = p
            break
        p = (p + 1) % players
    _settle_nb(winner, p, dry, turns, pos, starter, setup, work)
    return rows


@jit
def _settle_nb(winner, last, dry, turns, pos, starter, setup, work):
    """Charge the deal and write its outcome; no winner (``-1``) means blocked: the
    lowest hand from seat ``last`` on wins."""
    players = setup.params.shape[0]
    values = setup.tabs[TB_HAND:TB_HAND + 53]
    blocked = 1 if winner < 0 else 0
    if winner < 0:
        winner = blocked_winner_nb(work.hands, players, last, values)
    deal_charges_nb(work.hands, work.pstate[:, PS_OPENED], players, winner, dry, setup.rules,
                    values, work.pstate[:, PS_CHARGE])
    outcome = work.outcome
    outcome[O_WINNER] = winner
    outcome[O_DRY] = dry
    outcome[O_BLOCKED] = blocked
    outcome[O_TURNS] = turns
    outcome[O_STOCK_LEFT] = work.deck.shape[0] - pos
    outcome[O_STARTER] = starter


@jit
def play_deals_nb(seed, start, stop, setup, work, trace, out):
    """Deals ``start .. stop-1``: deal ``d`` from key ``(seed, d, 0)`` with seat
    ``d % players`` starting; one record per deal and player to ``out``. Returns the
    trace rows written (the trace covers the first deal only)."""
    players = setup.params.shape[0]
    traced = 0
    for d in range(start, stop):
        key = stream_key_nb(seed, d, RAMI_DEAL_STREAM)
        first = rotating_dealer_nb(d, players)
        rows = play_deal_nb(key, first, setup, work, trace if d == start else trace[:0])
        traced = rows if d == start else traced
        _records_nb(out, (d - start) * players, d, setup, work)
    return traced


@jit
def _records_nb(out, first, d, setup, work):
    values = setup.tabs[TB_HAND:TB_HAND + 53]
    hands, pstate, outcome = work.hands, work.pstate, work.outcome
    players = hands.shape[0]
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
