"""The machine's replay for a view of a hand that lacks cards: a seat's own view (the
other hand and the stock unknown) and the belief's replay (the opponent's hand
guessed, the advised seat's unknown). Both move the view through the machine's own
moves (:mod:`ginsim.simulator.machine.step_nb`), the hidden cards laid first where a
move reads them; this module and the board are the only code that writes a view.

- :func:`observe_nb`: one public move, checked by the machine's step (a seat's view,
  :mod:`ginsim.table.seat_view`);
- :func:`replay_event_nb`: one public event of a history, unchecked (the belief's
  likelihood, :mod:`ginsim.simulator.belief.replay_nb`), with the opponent's stock draws
  from the guess;
- :func:`show_hand_nb`, :func:`lay_unarranged_knock_nb`: the showdown's facts a view
  learns at the end of a hand (a record's transcript).
"""

import numpy as np

from ...game._jit import jit
from ...game.state import (
    A_DISCARD,
    A_KNOCK,
    A_PASS,
    A_PILE,
    A_STOCK,
    ST_DECK,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KMELDS,
    ST_KNOCK_DEADWOOD,
    ST_PASSED,
    ST_POS,
    ST_TURNS,
)
from .step_nb import apply_step_nb, replay_step_nb


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


@jit
def replay_event_nb(hs, seat, kind, card, declined, top, drawn, rules):
    """One public event of a history on the belief's replayed position (seat 1 the
    opponent, its cards guessed; seat 0 unknown), unchecked: ``kind`` one of
    ``A_PASS``, ``A_PILE`` (a take), ``A_STOCK`` (``declined`` 1 where it declined the
    pile's top card ``top``; seat 1's card is the guess ``drawn``, seat 0's stays
    unknown) or a discard."""
    if kind == A_PASS:
        hs[ST_PASSED + seat] |= 1 << top
    elif kind == A_PILE:
        replay_step_nb(hs, seat, A_PILE, -1, 0, rules)
    elif kind == A_STOCK:
        if declined != 0:
            hs[ST_PASSED + seat] |= 1 << top
        if seat == 1:
            hs[ST_DECK + hs[ST_POS]] = drawn
            replay_step_nb(hs, np.int64(1), A_STOCK, -1, 0, rules)
        else:
            hs[ST_POS] += 1
            hs[ST_TURNS] += 1
    else:
        if seat == 1:
            hs[ST_FORBIDDEN] = 0
        replay_step_nb(hs, seat, A_DISCARD, card, 0, rules)  # seat 0's unknown


@jit
def show_hand_nb(hs, seat, hand):
    """The showdown shows ``seat``'s ``hand`` to a view that could not see it."""
    hs[ST_HAND + seat] = hand


@jit
def lay_unarranged_knock_nb(hs, deadwood):
    """A view's knock without the knocker's arrangement: its ``deadwood`` and no melds
    laid, for the showdown to arrange and score."""
    hs[ST_KNOCK_DEADWOOD] = deadwood
    for i in range(4):
        hs[ST_KMELDS + i] = 0
