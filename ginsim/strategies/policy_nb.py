"""The policy kernel: every strategy's draw, discard and knock decisions.

Contract: numba functions over the float64 parameter rows of both seats (layout in
:mod:`ginsim.strategies.params`; ``params[seat]`` is the deciding player's), the
packed rules, int64 hand masks and scratch arrays; nothing is allocated. ``rng[seat]``
is the deciding player's random stream. A player sees only its own hand, the pile and the public
history, so nothing else is passed in.
"""

from ..game._jit import jit
from ..game.melds_nb import (
    RANK_COLUMN,
    SUIT_MASK,
    best_discard_nb,
    min_deadwood_nb,
    popcount_nb,
)
from ..game.rng_nb import below_nb
from ..game.rules import R_BIG_GIN_BONUS, R_KNOCK_LIMIT
from .params import KIND_RANDOM, P_KIND, P_KNOCK


@jit
def can_join_meld_nb(hand, card):
    """Cheap test: could ``card`` form a meld with cards of ``hand`` at all?"""
    rank = card % 13
    if popcount_nb(hand & (RANK_COLUMN << rank)) >= 2:
        return True
    shift = 13 * (card // 13)
    s = ((hand >> shift) & SUIT_MASK) | (1 << rank)
    window = s >> max(rank - 2, 0)
    window &= (1 << (rank - max(rank - 2, 0) + 3)) - 1
    return (window & (window >> 1) & (window >> 2)) != 0


@jit
def knock_threshold_nb(params, seat, rules):
    """Highest deadwood this strategy knocks with (never above the rules' limit)."""
    return min(int(params[seat, P_KNOCK]), rules[R_KNOCK_LIMIT])


@jit
def random_card_nb(mask, rng, stream):
    """A uniformly random card of a non-empty mask."""
    k = below_nb(rng, stream, popcount_nb(mask))
    for c in range(52):
        if (mask >> c) & 1:
            if k == 0:
                return c
            k -= 1
    return -1


@jit
def choose_discard_nb(params, seat, hand, forbidden, rules, tab, work, rng):
    """Discard from an 11-card hand: ``(discard, kept deadwood, knock, big_gin)``.

    ``forbidden`` is a mask of the card just taken from the pile. Big gin is declared
    whenever the rules allow it; a knock happens when the kept deadwood is within
    :func:`knock_threshold_nb`. The random family knocks whenever some discard allows
    it (with the best such discard) and otherwise discards a uniformly random card.
    """
    dw, card, _, all_melded = best_discard_nb(hand, forbidden, 0, tab, work)
    return _decide_discard_nb(params, seat, hand, forbidden, dw, card, all_melded, rules, tab,
                              work, rng)


@jit
def _decide_discard_nb(params, seat, hand, forbidden, dw, card, all_melded, rules, tab, work,
                       rng):
    if all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        return -1, 0, True, True
    if dw <= knock_threshold_nb(params, seat, rules):
        return card, dw, True, False
    if int(params[seat, P_KIND]) == KIND_RANDOM:
        card = random_card_nb(hand & ~forbidden, rng, seat)
        dw = min_deadwood_nb(hand & ~(1 << card), tab, work)
    return card, dw, False, False


@jit
def pile_decision_nb(params, seat, hand, top, rules, tab, work, rng):
    """Whether to take the pile's top card into the 10-card ``hand``, and what then.

    Returns ``(take, discard, kept deadwood, knock, big_gin)``; the last four are
    meaningful only when ``take``. The deadwood family takes the card only if it is
    melded in some best arrangement of the 11 cards after the best legal discard (a
    cheap bit test skips hopeless cards, and the same pass yields the discard); the
    random family takes it with probability one half.
    """
    taken = hand | (1 << top)
    if int(params[seat, P_KIND]) == KIND_RANDOM:
        if below_nb(rng, seat, 2) == 0:
            return False, -1, 0, False, False
        card, dw, knock, big = choose_discard_nb(params, seat, taken, 1 << top, rules, tab,
                                                 work, rng)
        return True, card, dw, knock, big
    if not can_join_meld_nb(hand, top):
        return False, -1, 0, False, False
    dw, card, melded, all_melded = best_discard_nb(taken, 1 << top, 1 << top, tab, work)
    big_gin_on = rules[R_BIG_GIN_BONUS] >= 0
    if not (melded or (all_melded and big_gin_on)):
        return False, -1, 0, False, False
    card, dw, knock, big = _decide_discard_nb(params, seat, taken, 1 << top, dw, card,
                                              all_melded, rules, tab, work, rng)
    return True, card, dw, knock, big
