"""Mahjong gin's exact plan search (docs/rules.md §8.8): :func:`best_plan_nb`, a branch
and bound over every way to lay a hand's cards: new melds from the hand (every meld of
``candidate_melds_nb``) and extensions of the melds on the table (a set's fourth card, a
run's cards beyond either end). It maximises the value laid plus the value of the
discard, so the deadwood left in hand is the exact minimum, at any hand size.

Contract as in :mod:`ginsim.strategies.policy_nb`, on a :class:`~ginsim.game.state.Board`
``board``: the table's melds are read from ``board.hs``, the candidates go to the meld
scratch ``board.work`` as meld kernels write candidate melds (``W_MELDS``/``W_VALS``:
own melds, then extensions) and the search's own scratch is ``board.plan``
(int64[PLAN_SIZE]), read through its named views, a :class:`PlanWork`
(:func:`plan_work_nb`).
"""

from collections import namedtuple

from ..game._jit import jit, jit_inline
from ..game.bits_nb import lowest_card_nb, popcount_nb
from ..game.card_tables import KEY_VALUE, T_WRAP
from ..game.layoff_nb import layoff_reach_nb
from ..game.melds_nb import (
    MAX_MELDS,
    RANK_COLUMN,
    SUIT_MASK,
    W_MELDS,
    W_VALS,
    candidate_melds_nb,
    mask_value_nb,
    top_key_nb,
)
from ..game.state import ST_TABLE, ST_TABLE_N
from .hand_reading_nb import can_join_meld_nb

STACK = 64  # a plan lays at most 52 candidates (each holds a card)

#: The plan search's scratch: named int64 views (:func:`plan_work_nb`) of a board's
#: ``plan`` array, which the Python layer makes
#: (:func:`ginsim.simulator.machine.buffers.new_board`).
PlanWork = namedtuple("PlanWork", (
    "slot",  # [MAX_MELDS]: the table meld candidate i extends (-1: a new meld)
    "at",  # [STACK]: the search's stack: at each depth, the next candidate to try
    "used",  # [STACK]: at each depth, the cards laid so far
    "value",  # [STACK]: at each depth, their value
    "best",  # [STACK]: the best plan's candidate indices while searching
    "n",  # [1]: the chosen plan's count of candidates
    "plan",  # [STACK]: the chosen plan's candidate indices
    "suffix",  # [MAX_MELDS + 1]: suffix[i], every card of candidates i, i+1, ... (the bound)
))
PW_AT = MAX_MELDS  # where each view starts in the plan array (the slots at 0)
PW_USED = PW_AT + STACK
PW_VALUE = PW_USED + STACK
PW_BEST = PW_VALUE + STACK
PW_N = PW_BEST + STACK
PW_PLAN = PW_N + 1
PW_SUFFIX = PW_PLAN + STACK
PLAN_SIZE = PW_SUFFIX + MAX_MELDS + 1
COUNT_SCALE = 64  # a plan's score: (value laid + discard value) * 64 + cards leaving
INFEASIBLE = -1
NO_LIMIT = 1 << 30  # best_plan_nb's default ``beat``: every legal plan counts


@jit_inline
def plan_work_nb(plan):
    """The :class:`PlanWork` views of a board's plan scratch ``plan`` (int64[PLAN_SIZE])."""
    return PlanWork(plan[:PW_AT], plan[PW_AT:PW_USED], plan[PW_USED:PW_VALUE],
                    plan[PW_VALUE:PW_BEST], plan[PW_BEST:PW_N], plan[PW_N:PW_PLAN],
                    plan[PW_PLAN:PW_SUFFIX], plan[PW_SUFFIX:PLAN_SIZE])


@jit
def contiguous_nb(s):
    """Whether the non-empty 13-bit mask ``s`` is one block of consecutive ranks."""
    t = s >> lowest_card_nb(s)
    return (t & (t + 1)) == 0


@jit
def is_meld_nb(mask, tab):
    """Whether ``mask`` is one meld: 3-4 cards of a rank, or 3+ consecutive cards of a
    suit (around the corner when the rules' runs wrap)."""
    if popcount_nb(mask) < 3:
        return False
    low = lowest_card_nb(mask)
    if mask & ~(RANK_COLUMN << (low % 13)) == 0:
        return True
    shift = 13 * (low // 13)
    s = (mask >> shift) & SUIT_MASK
    if s << shift != mask:
        return False
    if contiguous_nb(s):
        return True
    return tab[T_WRAP] != 0 and contiguous_nb(~s & SUIT_MASK)


@jit
def _add_candidate_nb(work, plan, n, cards, slot, tab):
    if n < MAX_MELDS:
        work[W_MELDS + n] = cards
        work[W_VALS + n] = mask_value_nb(cards, tab)
        plan.slot[n] = slot
    return n + 1


@jit
def _run_end_nb(s, rank, step, wrap):
    """The last rank of the block of ``s`` holding ``rank``, walking by ``step``."""
    while True:
        nxt = rank + step
        if wrap:
            nxt %= 13
        elif nxt < 0 or nxt > 12:
            return rank
        if (s >> nxt) & 1 == 0:
            return rank
        rank = nxt


@jit
def _extensions_nb(board, n, cards, slot, tab):
    """Append the pieces of ``cards`` that extend table meld ``slot``; returns the count."""
    work, plan = board.work, plan_work_nb(board.plan)
    meld = board.hs[ST_TABLE + slot]
    low = lowest_card_nb(meld)
    column = RANK_COLUMN << (low % 13)
    if meld & ~column == 0:
        if popcount_nb(meld) == 3 and column & ~meld & cards:
            n = _add_candidate_nb(work, plan, n, column & ~meld & cards, slot, tab)
        return n
    shift = 13 * (low // 13)
    s = (meld >> shift) & SUIT_MASK
    if s == SUIT_MASK:
        return n
    avail = (cards >> shift) & SUIT_MASK
    wrap = tab[T_WRAP] != 0
    for step in (-1, 1):
        rank = _run_end_nb(s, low % 13, step, wrap)
        piece = 0
        while True:
            rank += step
            if wrap:
                rank %= 13
            elif rank < 0 or rank > 12:
                break
            if (avail >> rank) & 1 == 0 or (s >> rank) & 1:
                break
            piece |= 1 << rank
            n = _add_candidate_nb(work, plan, n, piece << shift, slot, tab)
    return n


@jit
def table_cards_nb(hs):
    """Every card on the table."""
    out = 0
    for slot in range(hs[ST_TABLE_N]):
        out |= hs[ST_TABLE + slot]
    return out


@jit
def candidates_nb(cards, board, tab):
    """Write every way to lay some of ``cards``: new melds, then extensions of each
    table meld (see the module doc). Returns the count."""
    n = candidate_melds_nb(cards, tab, board.work)
    slots = plan_work_nb(board.plan).slot
    for i in range(min(n, MAX_MELDS)):
        slots[i] = -1
    for slot in range(board.hs[ST_TABLE_N]):
        n = _extensions_nb(board, n, cards, slot, tab)
    if n > MAX_MELDS:
        raise ValueError("meld scratch buffers too small")
    return n


@jit
def can_lay_nb(cards, card, hs, tab):
    """Whether ``card`` can be laid from ``cards`` this turn: in a new meld with other
    cards of ``cards``, or onto a table meld (directly or through a chain of them)."""
    if can_join_meld_nb(cards & ~(1 << card), card, tab):
        return True
    n = hs[ST_TABLE_N]
    return (layoff_reach_nb(hs[ST_TABLE:ST_TABLE + n], n, cards, tab) >> card) & 1 != 0


@jit
def _plan_score_nb(cards, used, value, allowed, must, shed, out_needs_discard, tab):
    """``(score, discard)`` of laying ``used`` (worth ``value``), or INFEASIBLE.

    With ``shed`` the player then discards its highest allowed free card; a plan that
    lays every card goes out without a discard only when the rules allow it.
    """
    if used & must != must:
        return INFEASIBLE, -1
    laid = popcount_nb(used)
    if not shed:
        return value * COUNT_SCALE + laid, -1
    free = cards & ~used
    if free & allowed:
        key = top_key_nb(free & allowed, tab)
        return (value + key // KEY_VALUE) * COUNT_SCALE + laid + 1, key % KEY_VALUE
    if free == 0 and not out_needs_discard:
        return value * COUNT_SCALE + laid, -1
    return INFEASIBLE, -1


@jit
def _start_search_nb(n, work, plan):
    """An empty plan and the search's first frame; ``plan.suffix[i]``: every card of
    candidate melds ``i..n-1`` (the bound on what the rest of the list can still lay)."""
    plan.n[0] = 0
    plan.at[0] = 0
    plan.used[0] = 0
    plan.value[0] = 0
    meldable = 0
    plan.suffix[n] = 0
    for i in range(n - 1, -1, -1):
        meldable |= work[W_MELDS + i]
        plan.suffix[i] = meldable


@jit
def _keep_plan_nb(plan, depth):
    """The search's path now (``depth`` melds) is the best plan so far."""
    for d in range(depth):
        plan.best[d] = plan.at[d] - 1
    plan.n[0] = depth


@jit
def best_plan_nb(cards, allowed, must, shed, out_needs_discard, board, tab, beat=NO_LIMIT):
    """The exact best way to lay ``cards`` (see the module doc).

    ``must`` is a mask of cards that have to be laid, ``allowed`` the cards that may be
    discarded; with ``shed`` False nothing is discarded (the deadwood of the hand as it
    stands). Only plans leaving less deadwood than ``beat`` are searched (a bound that
    prunes the search). Returns ``(deadwood, discard, used)``: the value left in hand
    after laying and discarding (-1 when no legal plan beats ``beat``), the discard (-1:
    none) and the cards laid; the plan goes to the views ``n[0]``/``plan`` of
    :func:`plan_work_nb` (candidate indices into ``board.work[W_MELDS:]`` and ``slot``).
    """
    n = candidates_nb(cards, board, tab)
    work, plan = board.work, plan_work_nb(board.plan)
    total = mask_value_nb(cards, tab)
    _start_search_nb(n, work, plan)
    top = top_key_nb(cards & allowed, tab) // KEY_VALUE if shed and cards & allowed else 0
    best = (total - beat + 1) * COUNT_SCALE - 1  # a plan must score above this
    best_used = 0
    score, card = _plan_score_nb(cards, 0, 0, allowed, must, shed, out_needs_discard, tab)
    found = score != INFEASIBLE and score > best  # laying nothing
    best = score if found else best
    discard = card if found else -1
    depth = 0
    while depth >= 0:
        i = plan.at[depth]
        used = plan.used[depth]
        value = plan.value[depth]
        if i >= n:
            depth -= 1
            continue
        bound = (value + mask_value_nb(plan.suffix[i] & ~used, tab) + top) * COUNT_SCALE + 63
        if bound <= best:
            depth -= 1
            continue
        plan.at[depth] = i + 1
        meld = work[W_MELDS + i]
        if meld & used:
            continue
        depth += 1
        used |= meld
        value += work[W_VALS + i]
        plan.at[depth] = i + 1
        plan.used[depth] = used
        plan.value[depth] = value
        score, card = _plan_score_nb(cards, used, value, allowed, must, shed,
                                     out_needs_discard, tab)
        if score != INFEASIBLE and score > best:
            best = score
            discard = card
            found = True
            best_used = used
            _keep_plan_nb(plan, depth)
    if not found:
        plan.n[0] = 0
        return -1, -1, 0
    for d in range(plan.n[0]):
        plan.plan[d] = plan.best[d]
    return total - best // COUNT_SCALE, discard, best_used
