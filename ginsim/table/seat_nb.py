"""One seat's view of a hand, for an agent that plays from the protocol's messages.

Contract as in :mod:`ginsim.simulator.play.drive_nb`. A seat keeps its own hand state (and
the scratch of its decisions, the two as a :class:`~ginsim.game.state.Board`): its
hand, the pile, the stock count and the public history, moved by the same machine as
the real hand (:func:`~ginsim.simulator.machine.step_nb.step_nb`; the seat's own knock
or big gin by the Table's checked step, which reads the deadwood kept); the other hand
and the stock stay unknown (zero). The policy reads only those fields
(:mod:`ginsim.strategies.policy_nb`), so a decision asked here
(:func:`~ginsim.simulator.play.drive_nb.decide_nb` and its phases) is the decision the
hand loop makes for that seat in that position, random draws included (``rng[me]``
seeded as the hand loop seeds the seat).
"""

from ..game._jit import jit
from ..game.state import A_DISCARD, A_KNOCK, A_STOCK, ST_DECK, ST_HAND, ST_POS
from ..simulator.machine.step_nb import apply_step_nb


@jit
def observe_nb(hs, actor, kind, card, rules):
    """Move a seat's view by one move of ``actor`` (an action kind of the machine,
    ``card`` -1 where hidden) through the machine's step, the cards the view lacks laid
    first where the step reads them: a stock draw's card on the stock's top, a discard
    or knock in the hand of the seat that makes it. The step checks the turn, the phase,
    the pile, the card just taken and big gin under the rules, not the deadwood kept
    (the other seat's is hidden from the view; the seat's own knock takes the checked
    step). The 50th-card rule's take is its knock (or big gin). Returns the machine's
    status; when it is negative the view is as it was."""
    if kind == A_STOCK:
        slot = ST_DECK + hs[ST_POS]
        was = hs[slot]
        hand = hs[ST_HAND + actor]
        hs[slot] = card if card >= 0 else 0
        status = apply_step_nb(hs, actor, kind, card, 0, rules)
        if status < 0:
            hs[slot] = was
        elif card < 0:
            hs[ST_HAND + actor] = hand  # the card drawn is not shown to this seat
        return status
    if (kind == A_DISCARD or kind == A_KNOCK) and 0 <= card <= 51:
        hand = hs[ST_HAND + actor]
        hs[ST_HAND + actor] = hand | (1 << card)
        status = apply_step_nb(hs, actor, kind, card, 0, rules)
        if status < 0:
            hs[ST_HAND + actor] = hand
        return status
    return apply_step_nb(hs, actor, kind, card, 0, rules)
