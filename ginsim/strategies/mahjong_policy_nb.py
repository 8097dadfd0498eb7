"""Mahjong gin's policy kernels (docs/rules.md §8.8): how deep to take from the pile,
which melds to lay on the table, which card to discard.

Contract as in :mod:`ginsim.strategies.policy_nb`: numba functions over the parameter
rows, the packed rules, the hand state ``hs`` (or, where a decision plans, the
:class:`~ginsim.game.state.Board` ``board``) and int64 masks; nothing is allocated.
A player reads its own hand and public fields only (the pile, the table melds at
``hs[ST_TABLE:]``, the opponent's pickups, discards and passes).

Each decision plans exactly with :func:`~ginsim.strategies.mahjong_plan_nb.best_plan_nb`
(in the board's meld and plan scratch); :func:`plan_turn_nb` leaves the plan there
for the engine to lay.
"""

from ..game._jit import jit
from ..game.bits_nb import lowest_card_nb, popcount_nb
from ..game.card_tables import KEY_VALUE, T_RANK_VALUE
from ..game.melds_nb import W_MELDS, mask_value_nb, top_key_nb
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
from .hand_reading_nb import meld_completions_nb, near_cards_nb
from .mahjong_plan_nb import (
    best_plan_nb,
    can_lay_nb,
    is_meld_nb,
    plan_work_nb,
    table_cards_nb,
)
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


@jit
def take_options_nb(params, seat, board, rules, tab, rng):
    """How many pile cards ``seat`` takes (0: it draws from the stock).

    Every depth whose lowest card can be laid is planned exactly; the deepest
    improvement wins: the take whose deadwood after laying and discarding is lowest,
    if below the hand's deadwood now (ties: the shallower take). Draw policy ``meld``
    takes the top card alone only when the plan lays it; ``never`` never takes. The
    random family takes the top card on a coin flip.
    """
    hs = board.hs
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
    now, _, _ = best_plan_nb(hand, 0, 0, False, needs, board, tab)
    best_depth = 0
    best_dw = now
    taken = 0
    for depth in range(1, n_pile + 1):
        low = hs[ST_PILE + n_pile - depth]
        taken |= 1 << low
        must = 0 if depth == 1 else 1 << low
        if depth > 1 and not can_lay_nb(hand | taken, low, hs, tab):
            continue
        dw, _, used = best_plan_nb(hand | taken, hand, must, True, needs, board, tab, best_dw)
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
def plan_turn_nb(params, seat, board, rules, tab, rng):
    """After the draw: what ``seat`` lays and discards. Returns ``(discard, out)``.

    The exact best plan decides whether the player can go out; if it cannot, it lays
    every meld and extension of the plan once the opponent holds at most ``lay`` cards,
    and before that only what a multi-card take obliges (held melds give the opponent
    no places to lay off, but count against the holder if the opponent goes out). The
    discard is the plan's (highest value free card), memory's choice among the free
    cards, or for the random family a random free one. The cards to lay are left at
    views ``n[0]``/``plan`` of :func:`~ginsim.strategies.mahjong_plan_nb.plan_work_nb`.
    """
    hs, plan = board.hs, plan_work_nb(board.plan)
    hand = hs[ST_HAND + seat]
    must = hs[ST_MUST_LAY]
    allowed = hand & ~hs[ST_FORBIDDEN]
    dw, discard, used = best_plan_nb(hand, allowed, must, True,
                                     rules[R_MJ_DISCARD_OUT] != 0, board, tab)
    if dw < 0:
        raise ValueError("no legal plan: the engine let an impossible take through")
    out = popcount_nb(hand & ~used) <= 1 and (discard >= 0 or hand & ~used == 0)
    if out:
        return discard, True
    if popcount_nb(hs[ST_HAND + 1 - seat]) > params[seat, P_LAY]:
        kept = 0
        for j in range(plan.n[0]):
            i = plan.plan[j]
            if board.work[W_MELDS + i] & must:
                plan.plan[kept] = i
                kept += 1
        plan.n[0] = kept
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
