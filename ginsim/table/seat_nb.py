"""One seat's view of a hand, for an agent that plays from the protocol's messages.

Contract as in :mod:`ginsim.simulator.machine.phases_nb`. A seat keeps its own hand state (and
the scratch of its decisions, the two as a :class:`~ginsim.game.state.Board`): its
hand, the pile, the stock count and the public history, moved by the same board
functions as the real hand (:mod:`ginsim.simulator.machine.board_nb`); the other hand and the
stock stay unknown (zero). The policy reads only those fields
(:mod:`ginsim.strategies.policy_nb`), so a decision asked here is the decision the
hand loop makes for that seat in that position, random draws included (``rng[me]``
seeded as the hand loop seeds the seat).
"""

from ..game._jit import jit
from ..game.state import (
    PH_DEAD,
    PH_LAST_DISCARD,
    ST_DECK,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PLAN_BIG_GIN,
    ST_PLAN_DISCARD,
    ST_PLAN_KNOCK,
    ST_PLANNED,
    ST_POS,
    ST_TO_MOVE,
)
from ..simulator.machine.board_nb import (
    apply_draw_nb,
    apply_offer_nb,
    put_discard_nb,
    take_pile_top_nb,
)
from ..simulator.machine.phases_nb import plan_nb
from ..strategies.policy_nb import choose_discard_nb, last_discard_decision_nb, pile_decision_nb

# Event kinds, in the order of ginsim.table.table.KINDS.
K_TAKE, K_PASS, K_STOCK, K_PILE, K_DISCARD, K_KNOCK, K_BIG_GIN = range(7)


@jit
def observe_nb(hs, actor, kind, card, rules):
    """Move the seat's hand state by one event of ``actor`` (``card`` -1 where hidden)."""
    if kind == K_TAKE or (kind == K_PASS and hs[ST_PHASE] != PH_LAST_DISCARD):
        apply_offer_nb(hs, actor, kind == K_TAKE)
    elif kind == K_PASS:
        hs[ST_PHASE] = PH_DEAD
        hs[ST_TO_MOVE] = -1
    elif kind == K_PILE and hs[ST_PHASE] == PH_LAST_DISCARD:
        hs[ST_ENDING] = -1
        take_pile_top_nb(hs, actor)
    elif kind == K_PILE or kind == K_STOCK:
        hand = hs[ST_HAND + actor]
        hs[ST_DECK + hs[ST_POS]] = card if card >= 0 else 0
        apply_draw_nb(hs, actor, kind == K_PILE)
        if card < 0:
            hs[ST_HAND + actor] = hand
    else:
        put_discard_nb(hs, actor, card, 0, kind == K_KNOCK, kind == K_BIG_GIN, rules)


@jit
def decide_take_nb(params, me, board, rules, tab, rng):
    """Take the pile's top card (the upcard offer or a draw)? A take keeps the discard
    the same decision chose, for :func:`decide_discard_nb`."""
    hs = board.hs
    hs[ST_PLANNED] = 0
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    take, discard, dw, knock, big = pile_decision_nb(params, me, hs[ST_HAND + me], top, board,
                                                     rules, tab, rng)
    if take:
        plan_nb(hs, discard, dw, knock, big)
    return take


@jit
def decide_discard_nb(params, me, board, rules, tab, rng):
    """From 11 cards: ``(discard, knock, big_gin)`` as the hand loop's discard phase."""
    hs = board.hs
    if hs[ST_PLANNED] != 0:
        hs[ST_PLANNED] = 0
        return hs[ST_PLAN_DISCARD], hs[ST_PLAN_KNOCK] != 0, hs[ST_PLAN_BIG_GIN] != 0
    discard, _, knock, big = choose_discard_nb(params, me, hs[ST_HAND + me], hs[ST_FORBIDDEN],
                                               board, rules, tab, rng)
    return discard, knock, big


@jit
def decide_last_discard_nb(params, me, board, rules, tab):
    """The 50th-card rule: ``(take, discard, big_gin)``; a take is to knock."""
    hs = board.hs
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    take, discard, _, _, big = last_discard_decision_nb(params, me, hs[ST_HAND + me], top,
                                                        board, rules, tab)
    return take, discard, big
