"""Rami policy kernels: whether to lay the best lay-down now, and what to discard.

``params`` is one player's int64 vector of :mod:`ginsim.rami.play.strategy` (``P_*``). The
kernels read the candidate moves of :func:`ginsim.rami.game.candidates_nb.candidate_moves_nb` and
allocate nothing.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ..game.melds_nb import (
    OUT_BIT,
    S_BEST,
)
from ..game.moves_nb import (
    C_CARDS,
    C_JOKERS,
    C_MASK,
    C_NC,
    C_TYPE,
    C_VALUE,
    KIND_RUN,
    KIND_SET,
    MAX_CANDIDATES,
    MOVE_NEW_RUN,
    T_HI,
    T_JOKER,
    T_JOKER2,
    T_KIND,
    T_LO,
    T_RANK,
    T_SIZE,
    T_SUIT,
    T_SUITS,
    kind_at_nb,
)
from ..game.tables import TB_HAND
from .strategy import (
    P_DISCARD,
    P_HOLD_BACK,
    P_KEEP_JOKERS,
    P_MEMORY,
    P_OPEN_AT,
    P_WAIT_CLOSED,
    P_WAIT_STOCK,
    P_WAIT_TURNS,
)

JOKER = 52


@jit_inline
def plan_new_value_nb(cand, scratch, depth):
    """The laid value of the new melds among the plan's moves (the opening's total)."""
    total = 0
    for i in range(depth):
        c = scratch[S_BEST + i]
        if cand[c, C_TYPE] <= MOVE_NEW_RUN:
            total += cand[c, C_VALUE]
    return total


#: What the lay-down decision knows of the turn: whether the player had opened, its own
#: turn number (0 = the first), the cards left in the stock, whether an opponent opened.
TurnView = namedtuple("TurnView", ["opened", "own_turn", "stock_left", "others_opened"])


@jit
def lays_now_nb(params, view, plan, cand, scratch):
    """Whether the player lays its best lay-down (``plan``, a
    :data:`~ginsim.rami.game.melds_nb.Plan`) on the turn ``view`` (a :data:`TurnView`):
    always to go out; once opened unless it holds back; to open only past its wait and
    with an opening worth at least its ``open_at``."""
    if plan.moves == 0 or plan.score < 0:
        return False
    if plan.score >= OUT_BIT:
        return True
    if view.opened:
        return params[P_HOLD_BACK] == 0
    if view.own_turn < params[P_WAIT_TURNS] and view.stock_left > params[P_WAIT_STOCK]:
        if params[P_WAIT_CLOSED] == 0 or not view.others_opened:
            return False
    return plan_new_value_nb(cand, scratch, plan.moves) >= params[P_OPEN_AT]


@jit_inline
def uses_kind_nb(cand, n_cand, kind):
    """Whether any candidate move uses a card of ``kind``."""
    for c in range(min(n_cand, MAX_CANDIDATES)):
        for i in range(cand[c, C_NC]):
            if cand[c, C_CARDS + i] == kind:
                return True
    return False


@jit_inline
def _extends_run_nb(kind, row):
    """Whether a natural card extends table run ``row`` at one end (never both aces)."""
    suit = kind // 13
    lo = row[T_LO]
    hi = row[T_HI]
    if row[T_SUIT] != suit:
        return False
    below = lo > 1 and kind_at_nb(suit, lo - 1) == kind and not (lo - 1 == 1 and hi == 14)
    above = hi < 14 and kind_at_nb(suit, hi + 1) == kind and not (hi + 1 == 14 and lo == 1)
    return below or above


@jit_inline
def _fits_table_nb(kind, table, n_table):
    """Whether a natural card extends any table meld (an opened opponent could lay it off)."""
    for m in range(n_table):
        if table[m, T_KIND] == KIND_SET:
            if table[m, T_RANK] == kind % 13 and table[m, T_SIZE] < 4 and not (
                    table[m, T_SUITS] >> (kind // 13) & 1):
                return True
        elif table[m, T_KIND] == KIND_RUN and _extends_run_nb(kind, table[m]):
            return True
    return False


@jit_inline
def _partners_nb(counts, kind):
    """Cards held that could meld with ``kind``: its rank in other suits, its suit at
    one or two ranks' distance."""
    suit = kind // 13
    rank = kind % 13
    n = 0
    for s in range(4):
        if s != suit and counts[s * 13 + rank] > 0:
            n += 1
    for d in (-2, -1, 1, 2):
        r = rank + d
        if r == 13:
            r = 0  # the ace above the king
        if 0 <= r < 13 and counts[suit * 13 + r] > 0:
            n += 1
    return n


@jit_inline
def _near_in_hand_nb(counts, kind):
    """Whether the hand holds another natural of ``kind``'s rank, or one of its suit
    within two positions (the ace low or high)."""
    suit = kind // 13
    rank = kind % 13
    for s in range(4):
        if s != suit and counts[s * 13 + rank] > 0:
            return True
    for pos in (rank + 1, 14 if rank == 0 else rank + 1):
        for d in (-2, -1, 1, 2):
            q = pos + d
            if 1 <= q <= 14 and counts[kind_at_nb(suit, q)] > 0 and kind_at_nb(suit, q) != kind:
                return True
    return False


@jit_inline
def _table_could_take_nb(kind, row, joker):
    """Whether table meld ``row`` could take a natural ``kind`` this turn: added to a
    set or exchanged for its joker; at a run's end (two away with a joker held for a
    jokerless run) or in its joker's place."""
    suit = kind // 13
    rank = kind % 13
    if row[T_KIND] == KIND_SET:
        return row[T_RANK] == rank and not (row[T_SUITS] >> suit & 1) and (
            row[T_SIZE] < 4 or row[T_JOKER] != 0)
    if row[T_KIND] != KIND_RUN or row[T_SUIT] != suit:
        return False
    reach = 2 if joker and row[T_JOKER] == 0 else 1
    for pos in (rank + 1, 14 if rank == 0 else rank + 1):
        if row[T_LO] - reach <= pos < row[T_LO] or row[T_HI] < pos <= row[T_HI] + reach or (
                pos == row[T_JOKER] or pos == row[T_JOKER2]):
            return True
    return False


@jit
def could_use_nb(counts, kind, table, n_table):
    """A quick test before the search, never False for a card that could be laid this
    turn: a joker could; a natural needs another natural of its rank, or one of its suit
    within two positions (ace low or high), or a table meld it (with a joker before it,
    if one is held) extends."""
    if kind == JOKER or _near_in_hand_nb(counts, kind):
        return True
    joker = counts[JOKER] > 0
    for m in range(n_table):
        if _table_could_take_nb(kind, table[m], joker):
            return True
    return False


@jit_inline
def _careful_penalty_nb(counts, k, table, n_table):
    """What the careful discard holds against throwing natural ``k``: its partners in
    hand, a pair, and fitting a table meld."""
    penalty = 64 * _partners_nb(counts, k)
    if counts[k] > 1:
        penalty += 64
    if _fits_table_nb(k, table, n_table):
        penalty += 1 << 10
    return penalty


@jit_inline
def _thrown_rank_nb(k, thrown):
    """Whether the next player threw a card of ``k``'s rank this deal."""
    rank = k % 13
    for s in range(4):
        if thrown >> (s * 13 + rank) & 1:
            return True
    return False


@jit
def rami_discard_nb(counts, cand, n_cand, table, n_table, params, tabs, thrown):
    """The card to discard: the highest by hand value, sparing cards of a jokerless
    candidate meld and, if the strategy keeps them, jokers; the careful discard also
    spares pairs and near-runs and avoids cards that fit a table meld; with memory it
    prefers ranks the next player has thrown (``thrown``: the bit mask of kinds it
    discarded this deal). Ties go to the lowest kind."""
    melded = np.int64(0)
    for c in range(min(n_cand, MAX_CANDIDATES)):
        if cand[c, C_TYPE] <= MOVE_NEW_RUN and cand[c, C_JOKERS] == 0:
            melded |= cand[c, C_MASK]
    careful = params[P_DISCARD] == 1
    memory = params[P_MEMORY] == 1
    best = -1
    best_score = -(1 << 40)
    for k in range(53):
        if counts[k] == 0:
            continue
        score = tabs[TB_HAND + k] * 16
        if k == JOKER:
            if params[P_KEEP_JOKERS] == 1:
                score -= 1 << 20
        else:
            if melded >> k & 1:
                score -= 1 << 12
            if careful:
                score -= _careful_penalty_nb(counts, k, table, n_table)
            if memory and _thrown_rank_nb(k, thrown):
                score += 48
        if score > best_score:
            best, best_score = k, score
    return best
