"""Mahjong gin's policy kernels (docs/rules.md §8.8): how deep to take from the pile,
which melds to lay on the table, which card to discard.

Contract as in :mod:`ginsim.strategies.policy_nb`: numba functions over the parameter
rows, the packed rules, the hand state ``hs`` and int64 masks; nothing is allocated.
A player reads its own hand and public fields only (the pile, the table melds at
``hs[ST_TABLE:]``, the opponent's pickups, discards and passes).

The core is :func:`best_plan_nb`, an exact branch and bound over every way to lay a
hand's cards: new melds from the hand (every meld of ``candidate_melds_nb``) and
extensions of the melds on the table (a set's fourth card, a run's cards beyond either
end). It maximises the value laid plus the value of the discard, so the deadwood left
in hand is the exact minimum, at any hand size.

Scratch in the meld scratch ``hs[:WORK_SIZE]``: candidates at ``W_MELDS``/``W_VALS``
(own melds, then extensions), the table slot each extends at ``W_IDS`` (-1: a new meld),
the search's stacks at ``W_USED``, the chosen plan at ``W_VAL`` (count, then candidate
indices) and the search's bound masks after it. :func:`plan_turn_nb` leaves the plan
there for the engine to lay.
"""

from ..game._jit import jit
from ..game.layoff_nb import layoff_reach_nb
from ..game.melds_nb import (
    MAX_MELDS,
    RANK_COLUMN,
    SUIT_MASK,
    W_IDS,
    W_MELDS,
    W_USED,
    W_VAL,
    W_VALS,
    candidate_melds_nb,
    lowest_card_nb,
    mask_value_nb,
    popcount_nb,
    top_key_nb,
)
from ..game.rng_nb import below_nb
from ..game.rules import R_MJ_DISCARD_OUT
from ..game.state import (
    FULL_DECK,
    ST_DISCARDED,
    ST_FORBIDDEN,
    ST_HAND,
    ST_MUST_LAY,
    ST_PASSED,
    ST_PILE,
    ST_PILE_LEN,
    ST_TABLE,
    ST_TABLE_N,
    ST_TAKEN,
)
from ..game.tables import KEY_VALUE, T_RANK_VALUE, T_WRAP
from .hand_reading_nb import can_join_meld_nb, meld_completions_nb, near_cards_nb
from .params import (
    DRAW_MELD,
    DRAW_NEVER,
    KIND_RANDOM,
    P_DANGER_WEIGHT,
    P_DRAW,
    P_KIND,
    P_LAY,
    P_MEMORY,
    P_OUTS_WEIGHT,
)

STACK = 64  # a plan lays at most 52 candidates (each holds a card)
S_I = W_USED
S_USED = W_USED + STACK
S_VAL = W_USED + 2 * STACK
S_BEST = W_USED + 3 * STACK  # the best plan's candidate indices while searching
PLAN_N = W_VAL  # the plan: its count, then its candidate indices
PLAN = W_VAL + 1
SUFFIX = W_VAL + STACK  # SUFFIX + i: every card of candidates i, i+1, ... (the bound)
COUNT_SCALE = 64  # a plan's score: (value laid + discard value) * 64 + cards leaving
INFEASIBLE = -1
NO_LIMIT = 1 << 30  # best_plan_nb's default ``beat``: every legal plan counts


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
def _add_candidate_nb(hs, n, cards, slot, tab):
    if n < MAX_MELDS:
        hs[W_MELDS + n] = cards
        hs[W_VALS + n] = mask_value_nb(cards, tab)
        hs[W_IDS + n] = slot
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
def _extensions_nb(hs, n, cards, slot, tab):
    """Append the pieces of ``cards`` that extend table meld ``slot``; returns the count."""
    meld = hs[ST_TABLE + slot]
    low = lowest_card_nb(meld)
    column = RANK_COLUMN << (low % 13)
    if meld & ~column == 0:
        if popcount_nb(meld) == 3 and column & ~meld & cards:
            n = _add_candidate_nb(hs, n, column & ~meld & cards, slot, tab)
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
            n = _add_candidate_nb(hs, n, piece << shift, slot, tab)
    return n


@jit
def table_cards_nb(hs):
    """Every card on the table."""
    out = 0
    for slot in range(hs[ST_TABLE_N]):
        out |= hs[ST_TABLE + slot]
    return out


@jit
def candidates_nb(cards, hs, tab):
    """Write every way to lay some of ``cards``: new melds, then extensions of each
    table meld (see the module doc). Returns the count."""
    n = candidate_melds_nb(cards, tab, hs)
    for i in range(min(n, MAX_MELDS)):
        hs[W_IDS + i] = -1
    for slot in range(hs[ST_TABLE_N]):
        n = _extensions_nb(hs, n, cards, slot, tab)
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
def _score_nb(cards, used, value, allowed, must, shed, out_needs_discard, tab):
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
def best_plan_nb(cards, allowed, must, shed, out_needs_discard, hs, tab, beat=NO_LIMIT):
    """The exact best way to lay ``cards`` (see the module doc).

    ``must`` is a mask of cards that have to be laid, ``allowed`` the cards that may be
    discarded; with ``shed`` False nothing is discarded (the deadwood of the hand as it
    stands). Only plans leaving less deadwood than ``beat`` are searched (a bound that
    prunes the search). Returns ``(deadwood, discard, used)``: the value left in hand
    after laying and discarding (-1 when no legal plan beats ``beat``), the discard (-1:
    none) and the cards laid; the plan goes to ``hs[PLAN_N]``/``hs[PLAN:]``.
    """
    n = candidates_nb(cards, hs, tab)
    total = mask_value_nb(cards, tab)
    meldable = 0
    hs[SUFFIX + n] = 0
    for i in range(n - 1, -1, -1):
        meldable |= hs[W_MELDS + i]
        hs[SUFFIX + i] = meldable
    top = top_key_nb(cards & allowed, tab) // KEY_VALUE if shed and cards & allowed else 0
    best = (total - beat + 1) * COUNT_SCALE - 1  # a plan must score above this
    found = False
    discard = -1
    best_used = 0
    score, card = _score_nb(cards, 0, 0, allowed, must, shed, out_needs_discard, tab)
    if score != INFEASIBLE and score > best:
        best = score
        discard = card
        found = True
    hs[PLAN_N] = 0
    depth = 0
    hs[S_I] = 0
    hs[S_USED] = 0
    hs[S_VAL] = 0
    while depth >= 0:
        i = hs[S_I + depth]
        used = hs[S_USED + depth]
        value = hs[S_VAL + depth]
        if i >= n:
            depth -= 1
            continue
        bound = (value + mask_value_nb(hs[SUFFIX + i] & ~used, tab) + top) * COUNT_SCALE + 63
        if bound <= best:
            depth -= 1
            continue
        hs[S_I + depth] = i + 1
        meld = hs[W_MELDS + i]
        if meld & used:
            continue
        depth += 1
        used |= meld
        value += hs[W_VALS + i]
        hs[S_I + depth] = i + 1
        hs[S_USED + depth] = used
        hs[S_VAL + depth] = value
        score, card = _score_nb(cards, used, value, allowed, must, shed, out_needs_discard, tab)
        if score != INFEASIBLE and score > best:
            best = score
            discard = card
            found = True
            best_used = used
            for d in range(depth):
                hs[S_BEST + d] = hs[S_I + d] - 1
            hs[PLAN_N] = depth
    if not found:
        hs[PLAN_N] = 0
        return -1, -1, 0
    for d in range(hs[PLAN_N]):
        hs[PLAN + d] = hs[S_BEST + d]
    return total - best // COUNT_SCALE, discard, best_used


@jit
def take_options_nb(params, seat, hs, rules, tab, rng):
    """How many pile cards ``seat`` takes (0: it draws from the stock).

    Every depth whose lowest card can be laid is planned exactly; the deepest
    improvement wins: the take whose deadwood after laying and discarding is lowest,
    if below the hand's deadwood now (ties: the shallower take). Draw policy ``meld``
    takes the top card alone only when the plan lays it; ``never`` never takes. The
    random family takes the top card on a coin flip.
    """
    n_pile = hs[ST_PILE_LEN]
    if n_pile == 0:
        return 0
    if int(params[seat, P_KIND]) == KIND_RANDOM:
        return 1 if below_nb(rng, seat, 2) == 1 else 0
    draw = int(params[seat, P_DRAW])
    if draw == DRAW_NEVER:
        return 0
    hand = hs[ST_HAND + seat]
    needs = rules[R_MJ_DISCARD_OUT] != 0
    now, _, _ = best_plan_nb(hand, 0, 0, False, needs, hs, tab)
    best_depth = 0
    best_dw = now
    taken = 0
    for depth in range(1, n_pile + 1):
        low = hs[ST_PILE + n_pile - depth]
        taken |= 1 << low
        must = 0 if depth == 1 else 1 << low
        if depth > 1 and not can_lay_nb(hand | taken, low, hs, tab):
            continue
        dw, _, used = best_plan_nb(hand | taken, hand, must, True, needs, hs, tab, best_dw)
        if dw < 0:
            continue
        if depth == 1 and draw == DRAW_MELD and (used >> low) & 1 == 0:
            continue
        if dw < best_dw:
            best_dw = dw
            best_depth = depth
    return best_depth


@jit
def _fits_table_nb(card, hs, tab):
    """Whether ``card`` extends some meld on the table by itself."""
    for slot in range(hs[ST_TABLE_N]):
        meld = hs[ST_TABLE + slot]
        if is_meld_nb(meld | (1 << card), tab):
            return True
    return False


@jit
def mahjong_memory_discard_nb(params, seat, free, allowed, hs, tab):
    """Discard among the plan's free allowed cards by kept deadwood minus the worth of
    live outs, plus feeding risk (as :func:`ginsim.strategies.policy_nb.memory_discard_nb`).

    Outs are cards not in hand, not on the table and not known to be held by the
    opponent (pile cards stay live: they can be bought) that make a meld with two kept
    free cards. Memory 2 adds risk: 2 if the card extends a table meld or melds with
    two of the opponent's known cards, 1 if near one of them, minus 1 if near a card
    the opponent discarded or passed.
    """
    opp = 1 - seat
    known = hs[ST_TAKEN + opp]
    live = FULL_DECK & ~hs[ST_HAND + seat] & ~table_cards_nb(hs) & ~known
    level2 = params[seat, P_MEMORY] >= 2
    fits = meld_completions_nb(known, tab) if level2 else 0
    near = near_cards_nb(known, 2) if level2 else 0
    shunned = near_cards_nb(hs[ST_DISCARDED + opp] | hs[ST_PASSED + opp], 1) if level2 else 0
    total = mask_value_nb(free, tab)
    best = -1
    best_score = 1e18
    best_value = -1
    rest = free & allowed
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        value = tab[T_RANK_VALUE + c % 13]
        kept = free & ~(1 << c)
        score = total - value - params[seat, P_OUTS_WEIGHT] * popcount_nb(
            meld_completions_nb(kept, tab) & live)
        if level2:
            risk = 2 if (fits >> c) & 1 or _fits_table_nb(c, hs, tab) else (near >> c) & 1
            score += params[seat, P_DANGER_WEIGHT] * (risk - ((shunned >> c) & 1))
        if score < best_score or (score == best_score and value >= best_value):
            best = c
            best_score = score
            best_value = value
    return best


@jit
def plan_turn_nb(params, seat, hs, rules, tab, rng):
    """After the draw: what ``seat`` lays and discards. Returns ``(discard, out)``.

    The exact best plan decides whether the player can go out; if it cannot, it lays
    every meld and extension of the plan once the opponent holds at most ``lay`` cards,
    and before that only what a multi-card take obliges (held melds give the opponent
    no places to lay off, but count against the holder if the opponent goes out). The
    discard is the plan's (highest value free card), memory's choice among the free
    cards, or for the random family a random free one. The cards to lay are left at
    ``hs[PLAN_N]``/``hs[PLAN:]``.
    """
    hand = hs[ST_HAND + seat]
    must = hs[ST_MUST_LAY]
    allowed = hand & ~hs[ST_FORBIDDEN]
    dw, discard, used = best_plan_nb(hand, allowed, must, True,
                                     rules[R_MJ_DISCARD_OUT] != 0, hs, tab)
    if dw < 0:
        raise ValueError("no legal plan: the engine let an impossible take through")
    out = popcount_nb(hand & ~used) <= 1 and (discard >= 0 or hand & ~used == 0)
    if out:
        return discard, True
    if popcount_nb(hs[ST_HAND + 1 - seat]) > params[seat, P_LAY]:
        kept = 0
        for j in range(hs[PLAN_N]):
            i = hs[PLAN + j]
            if hs[W_MELDS + i] & must:
                hs[PLAN + kept] = i
                kept += 1
        hs[PLAN_N] = kept
    free = hand & ~used  # melds held back stay out of the discard's choice
    if int(params[seat, P_KIND]) == KIND_RANDOM:
        rest = free & allowed
        k = below_nb(rng, seat, popcount_nb(rest))
        for _ in range(k):
            rest &= rest - 1
        return lowest_card_nb(rest), False
    if params[seat, P_MEMORY] >= 1:
        return mahjong_memory_discard_nb(params, seat, free, allowed, hs, tab), False
    if free & allowed:
        return top_key_nb(free & allowed, tab) % KEY_VALUE, False
    return discard, False
