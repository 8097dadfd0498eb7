"""The policy kernel: every strategy's draw, discard and knock decisions.

Contract: numba functions over the float64 parameter rows of both seats (layout in
:mod:`ginsim.strategies.params`; ``params[seat]`` is the deciding player's), the
packed rules, the hand state ``hs`` (:mod:`ginsim.game.state`) or, where a decision
needs meld scratch, the :class:`~ginsim.game.state.Board` ``board`` (the hand state
``board.hs`` and the meld scratch ``board.work``) and int64 masks; nothing is
allocated. ``rng[seat]`` is the deciding player's random stream.

A player sees only what it may: its own hand (``hs[ST_HAND + seat]``), the pile
(``ST_PILE_MASK`` and the top card passed in), the stock size, and the public history
(``ST_TAKEN``, ``ST_DISCARDED``, ``ST_PASSED``). Nothing here reads the other hand or
the deck.
"""

from collections import namedtuple

import numpy as np

from ..game._jit import jit, jit_inline
from ..game.bits_nb import nth_card_nb, popcount_nb
from ..game.melds_nb import W_DISCARD, best_discard_nb, min_deadwood_nb
from ..game.rng_nb import GOLDEN, UNIT, below_nb, mix64_nb, unit_nb
from ..game.rules import R_BIG_GIN_BONUS
from ..game.state import (
    ST_KNOCK_LIMIT,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_POS,
    ST_TAKEN,
)
from .expert_nb import NEVER_TAKE, expert_discard_nb
from .grid_nb import grid_bucket_nb, grid_cell_nb
from .hand_reading_nb import (
    can_join_meld_nb,
    discard_context_nb,
    feeding_risk_nb,
    kept_outs_nb,
    lowest_score_card_nb,
)
from .learned.learned_nb import learned_discard_nb, learned_take_nb
from .params import (
    DRAW_IMPROVE,
    DRAW_NEVER,
    GRID_BUCKETS,
    KIND_EXPERT,
    KIND_LEARNED,
    KIND_RANDOM,
    N_BUCKETS,
    P_CHART,
    P_DANGER_WEIGHT,
    P_DRAW,
    P_EDGES,
    P_GRID,
    P_KIND,
    P_KNOCK,
    P_MEMORY,
    P_OUTS_WEIGHT,
    P_UNDERCUT,
    P_X_TAKE_ANY,
    P_X_TAKE_MELD,
)
from .undercut_table import UNDERCUT_TABLE

ALL_RANKS = (1 << 13) - 1


#: An 11-card hand after the draw: its cards, the card it may not discard (a mask: the
#: card just taken from the pile, or 0), and its best discard's kept deadwood, card and
#: whether all 11 cards meld (``best_discard_nb``).
Drawn = namedtuple("Drawn", ("hand", "forbidden", "deadwood", "card", "all_melded"))


@jit_inline
def drawn_nb(hand, forbidden, deadwood, card, all_melded):
    """A :class:`Drawn` of fixed field types."""
    return Drawn(np.int64(hand), np.int64(forbidden), np.int64(deadwood), np.int64(card),
                 np.bool_(all_melded))

@jit
def stock_bucket_nb(params, seat, hs):
    """The strategy's stock bucket now: 0 while stock >= edge 1, ..., 3 below edge 3."""
    stock_left = 52 - hs[ST_POS]
    bucket = 0
    while bucket < N_BUCKETS - 1 and stock_left < params[seat, P_EDGES + bucket]:
        bucket += 1
    return bucket


@jit
def knock_threshold_nb(params, seat, hs):
    """Highest deadwood this strategy knocks with now: its threshold for the current
    stock bucket, never above the hand's knock limit."""
    bucket = stock_bucket_nb(params, seat, hs)
    return min(int(params[seat, P_KNOCK + bucket]), hs[ST_KNOCK_LIMIT])


@jit
def undercut_estimate_nb(params, seat, deadwood, hs):
    """Estimated chance that a knock at ``deadwood`` is undercut (see undercut_table).

    Memory level 2 counts each card the opponent took from the pile as two extra draws
    of progress for the opponent.
    """
    stock = 52 - hs[ST_POS]
    if params[seat, P_MEMORY] >= 2:
        stock -= 2 * popcount_nb(hs[ST_TAKEN + 1 - seat])
    bucket = GRID_BUCKETS - 1 - grid_bucket_nb(stock)  # the table counts from the shallow end
    return UNDERCUT_TABLE[min(deadwood, UNDERCUT_TABLE.shape[0] - 1), bucket]


@jit_inline
def knock_probability_nb(params, seat, deadwood, hs, rules):
    """Probability of knocking (or going gin) with ``deadwood`` kept: 1 for gin; 0 above
    the threshold of the current stock bucket; a knock grid's cell when the strategy has
    one; else 0 or 1 by the bit chart and the undercut estimate."""
    if deadwood > knock_threshold_nb(params, seat, hs):
        return 0.0
    if deadwood == 0:
        return 1.0
    if params[seat, P_GRID] >= 0:
        takes = hs[ST_PILE_TAKES + 1 - seat]  # the opponent's pile takes so far
        return params[seat, P_GRID + grid_cell_nb(deadwood, 52 - hs[ST_POS], takes)]
    chart = int(params[seat, P_CHART + stock_bucket_nb(params, seat, hs)])
    if chart != 0 and deadwood < 31 and (chart >> deadwood) & 1 == 0:
        return 0.0
    if params[seat, P_UNDERCUT] >= 1.0:
        return 1.0
    return 1.0 if undercut_estimate_nb(params, seat, deadwood, hs) <= params[seat,
                                                                             P_UNDERCUT] else 0.0


@jit_inline
def should_knock_nb(params, seat, deadwood, hs, rules, rng):
    """Knock (or go gin) with ``deadwood`` kept? A mixed grid cell draws one number from
    the seat's stream ``rng[seat]``; every other decision draws nothing."""
    p = knock_probability_nb(params, seat, deadwood, hs, rules)
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return unit_nb(rng, seat) < p


@jit
def random_card_nb(mask, rng, stream):
    """A uniformly random card of a non-empty mask."""
    return nth_card_nb(mask, below_nb(rng, stream, popcount_nb(mask)))


@jit
def memory_discard_nb(params, seat, hand, forbidden, board, tab):
    """Discard by kept deadwood minus the worth of live outs, plus feeding risk.

    The card with the lowest :func:`memory_discard_score_nb` wins; ties go to the
    higher-value card, then the higher index. Needs ``board.work[W_DISCARD:]`` from
    ``best_discard_nb(..., per_card=True)``.
    """
    context = (params, seat, hand, discard_context_nb(params, seat, hand, board.hs, tab),
               board.work, tab)
    return lowest_score_card_nb(hand & ~forbidden, memory_card_score_nb, context, tab)


@jit_inline
def memory_card_score_nb(context, c):
    """:func:`memory_discard_score_nb` of card ``c``, ``context`` being ``(params, seat,
    hand, discard context, work, tab)`` (the score kernel of :func:`memory_discard_nb`)."""
    params, seat, hand, masks, work, tab = context
    return memory_discard_score_nb(params, seat, hand, c, masks, work, tab)


@jit_inline
def memory_discard_score_nb(params, seat, hand, c, context, work, tab):
    """Score of discarding ``c`` with memory (lower is better).

    Deadwood kept - ``outs`` x live cards that would make or extend a meld with the kept
    cards (memory >= 1: every card that went through the pile and every card the
    opponent is known to hold is dead) + ``danger`` x :func:`feeding_risk_nb` (memory
    2). ``context`` is the masks ``(live, fits, near, shunned, sets, runs)`` of
    :func:`discard_context_nb`; ``work`` the meld scratch holding the per-card table.
    """
    live, fits, near, shunned, sets, runs = context
    outs = kept_outs_nb(hand, c, sets, runs, tab)
    score = work[W_DISCARD + c] - params[seat, P_OUTS_WEIGHT] * popcount_nb(outs & live)
    if params[seat, P_MEMORY] >= 2:
        score += params[seat, P_DANGER_WEIGHT] * feeding_risk_nb(c, fits, near, shunned)
    return score


@jit_inline
def discard_without_knock_nb(params, seat, hand, forbidden, lowest, board, tab, rng):
    """The discard this strategy makes from 11 cards when it does not knock.

    ``lowest`` is ``(kept deadwood, card)`` of the best-deadwood discard
    (``best_discard_nb``, with ``per_card`` when the strategy has memory). Returns
    ``(discard, kept deadwood)``: a random legal card for the random family, the
    memory-weighted choice with memory, else the best-deadwood discard.
    """
    dw, card = lowest
    if int(params[seat, P_KIND]) == KIND_RANDOM:
        card = random_card_nb(hand & ~forbidden, rng, seat)
        return card, min_deadwood_nb(hand & ~(1 << card), tab, board.work)
    if params[seat, P_MEMORY] >= 1:
        if int(params[seat, P_KIND]) == KIND_EXPERT:
            card = expert_discard_nb(params, seat, hand, forbidden, board, tab)
        elif int(params[seat, P_KIND]) == KIND_LEARNED:
            card = learned_discard_nb(params, seat, hand, forbidden, board, tab)
        else:
            card = memory_discard_nb(params, seat, hand, forbidden, board, tab)
        return card, board.work[W_DISCARD + card]
    return card, dw


@jit_inline
def after_draw_nb(params, seat, drawn, board, rules, tab, rng):
    """Discard, knock or big gin from 11 cards once the best discard is known
    (``drawn``, a :class:`Drawn`).

    Returns ``(discard, kept deadwood, knock, big_gin)``. Big gin is declared whenever
    the rules allow it. The random family knocks whenever the best discard allows it
    and otherwise discards a uniformly random legal card.
    """
    dw, card = drawn.deadwood, drawn.card
    knock, big = knock_choice_nb(params, seat, dw, drawn.all_melded, board.hs, rules, rng)
    if big:
        return -1, 0, True, True
    if knock:
        return card, dw, True, False
    card, dw = discard_without_knock_nb(params, seat, drawn.hand, drawn.forbidden, (dw, card),
                                        board, tab, rng)
    return card, dw, False, False


@jit_inline
def knock_choice_nb(params, seat, dw, all_melded, hs, rules, rng):
    """From 11 cards whose best discard keeps ``dw`` (``all_melded``: no discard at all):
    ``(knock, big_gin)``. Big gin whenever the rules allow it, else
    :func:`should_knock_nb`."""
    if all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        return True, True
    return should_knock_nb(params, seat, dw, hs, rules, rng), False


@jit_inline
def choose_discard_nb(params, seat, hand, forbidden, board, rules, tab, rng):
    """Discard from an 11-card hand: ``(discard, kept deadwood, knock, big_gin)``.

    ``forbidden`` is a mask of the card just taken from the pile (0 after a stock draw).
    """
    dw, card, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, board.work,
                                              params[seat, P_MEMORY] >= 1)
    return after_draw_nb(params, seat, drawn_nb(hand, forbidden, dw, card, all_melded), board,
                         rules, tab, rng)


@jit_inline
def pile_decision_nb(params, seat, hand, top, board, rules, tab, rng):
    """Whether to take the pile's top card into the 10-card ``hand``, and what then.

    Returns ``(take, discard, kept deadwood, knock, big_gin)``; the last four are
    meaningful only when ``take``. Draw policy ``meld`` takes the card only if it is
    melded in some best arrangement of the 11 cards after the best legal discard (a
    cheap bit test skips hopeless cards, and the same pass yields the discard);
    ``improve`` takes it if the deadwood kept after the best discard is lower than the
    hand's deadwood now; ``never`` never does. The random family flips a coin.
    """
    taken = hand | (1 << top)
    big_gin_on = rules[R_BIG_GIN_BONUS] >= 0
    memory = params[seat, P_MEMORY] >= 1
    if int(params[seat, P_KIND]) == KIND_EXPERT:
        return expert_pile_decision_nb(params, seat, hand, top, board, rules, tab, rng)
    if int(params[seat, P_KIND]) == KIND_RANDOM:
        if below_nb(rng, seat, 2) == 0:
            return False, -1, 0, False, False
        dw, card, _, all_melded = best_discard_nb(taken, 1 << top, 0, tab, board.work, memory)
    elif int(params[seat, P_KIND]) == KIND_LEARNED:
        take, dw, card, all_melded = learned_take_nb(params, seat, hand, top, board, rules, tab)
        if not take:
            return False, -1, 0, False, False
    else:
        draw = int(params[seat, P_DRAW])
        if draw == DRAW_NEVER:
            return False, -1, 0, False, False
        if draw != DRAW_IMPROVE and not can_join_meld_nb(hand, top, tab):
            return False, -1, 0, False, False
        now = min_deadwood_nb(hand, tab, board.work) if draw == DRAW_IMPROVE else 0
        dw, card, melded, all_melded = best_discard_nb(taken, 1 << top, 1 << top, tab,
                                                       board.work, memory)
        take = dw < now if draw == DRAW_IMPROVE else melded
        if not (take or (all_melded and big_gin_on)):
            return False, -1, 0, False, False
    # One call site for what follows the take: each inlined copy costs compile time.
    card, dw, knock, big = after_draw_nb(params, seat, drawn_nb(taken, 1 << top, dw, card,
                                                                all_melded), board, rules, tab, rng)
    return True, card, dw, knock, big


@jit
def last_discard_decision_nb(params, seat, hand, top, board, rules, tab):
    """The 50th-card rule (§5.3): take the final discard only to knock or go gin.

    Returns ``(take, discard, kept deadwood, knock, big_gin)``.
    """
    taken = hand | (1 << top)
    hs = board.hs
    dw, card, _, all_melded = best_discard_nb(taken, 1 << top, 0, tab, board.work, False)
    if all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        return True, -1, 0, True, True
    if card < 0:
        return False, -1, 0, False, False
    p = knock_probability_nb(params, seat, dw, hs, rules)
    if p > 0.0 and p < 1.0:
        # No stream is passed here: a mixed cell draws from a hash of the position,
        # itself a function of (seed, hand).
        z = mix64_nb(np.uint64(taken) ^ (np.uint64(hs[ST_PILE_MASK]) * GOLDEN))
        p = 1.0 if (z >> np.uint64(11)) * UNIT < p else 0.0
    if p >= 1.0:
        return True, card, dw, True, False
    return False, -1, 0, False, False


# The expert card play builds on the kernels above, so its module is imported last.


@jit
def expert_pile_decision_nb(params, seat, hand, top, board, rules, tab, rng):
    """Whether the expert takes the pile's top card into the 10-card ``hand``, and what
    then: ``(take, discard, kept deadwood, knock, big_gin)`` as
    :func:`ginsim.strategies.policy_nb.pile_decision_nb`.

    Takes it when it is melded in a best arrangement after the best discard and the
    deadwood falls by at least ``take_meld`` (or to gin), or when the deadwood falls by
    at least ``take_any``; always when the 11 cards make big gin under rules that score
    it.
    """
    take_any = params[seat, P_X_TAKE_ANY]
    if take_any >= NEVER_TAKE and not can_join_meld_nb(hand, top, tab):
        return False, -1, 0, False, False
    now = min_deadwood_nb(hand, tab, board.work)
    taken = hand | (1 << top)
    dw, card, melded, all_melded = best_discard_nb(taken, 1 << top, 1 << top, tab, board.work,
                                                   params[seat, P_MEMORY] >= 1)
    gain = now - dw
    take = (melded and (gain >= params[seat, P_X_TAKE_MELD] or dw == 0)) or gain >= take_any
    if not (take or (all_melded and rules[R_BIG_GIN_BONUS] >= 0)):
        return False, -1, 0, False, False
    card, dw, knock, big = after_draw_nb(params, seat, drawn_nb(taken, 1 << top, dw, card,
                                                                all_melded), board, rules, tab, rng)
    return True, card, dw, knock, big
