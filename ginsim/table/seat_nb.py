"""One seat's view of a hand, for an agent that plays from the protocol's messages.

Contract as in :mod:`ginsim.simulator.play.drive_nb`. A seat keeps its own hand state (and
the scratch of its decisions, the two as a :class:`~ginsim.game.state.Board`): its
hand, the pile, the stock count and the public history, moved by the same machine as
the real hand (:func:`~ginsim.simulator.machine.step_nb.step_nb`; the other seat's
discards, whose cards the view never held, in its replay mode); the other hand and the
stock stay unknown (zero). The policy reads only those fields
(:mod:`ginsim.strategies.policy_nb`), so a decision asked here
(:func:`~ginsim.simulator.play.drive_nb.decide_nb` and its phases) is the decision the
hand loop makes for that seat in that position, random draws included (``rng[me]``
seeded as the hand loop seeds the seat).
"""

from ..game._jit import jit
from ..game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_KNOCK,
    A_PASS,
    A_PILE,
    A_STOCK,
    A_TAKE,
    PH_LAST_DISCARD,
    ST_DECK,
    ST_ENDING,
    ST_HAND,
    ST_PHASE,
    ST_POS,
)
from ..simulator.machine.step_nb import apply_step_nb, replay_step_nb


@jit
def observe_nb(hs, actor, kind, card, rules):
    """Move the seat's view by one event of ``actor``: an action kind of the machine
    (``card`` -1 where hidden). The 50th-card take arrives as a pile draw, then the
    knock; a discard is replayed (the view does not hold the other seat's cards).
    Returns the machine's status."""
    if kind == A_TAKE or kind == A_PASS:
        return apply_step_nb(hs, actor, kind, card, 0, rules)
    if kind == A_PILE and hs[ST_PHASE] == PH_LAST_DISCARD:
        hs[ST_ENDING] = -1
        return replay_step_nb(hs, actor, kind, card, 0, rules)
    if kind == A_PILE or kind == A_STOCK:
        hand = hs[ST_HAND + actor]
        hs[ST_DECK + hs[ST_POS]] = card if card >= 0 else 0
        status = apply_step_nb(hs, actor, kind, card, 0, rules)
        if card < 0:
            hs[ST_HAND + actor] = hand
        return status
    if kind == A_DISCARD or kind == A_KNOCK or kind == A_BIG_GIN:
        return replay_step_nb(hs, actor, kind, card, 0, rules)
    return -1
