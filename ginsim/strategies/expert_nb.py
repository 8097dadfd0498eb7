"""The expert card play: the discard and pile decisions of ``kind=expert`` rows.

Same contract as :mod:`ginsim.strategies.policy_nb` (numba, nothing allocated, only
public information and the player's own hand). The expert sees what memory 2 sees and
weighs it differently:

- the weights of live outs and of feeding risk move with the stage of the hand
  (``outs``/``danger`` at the deal, ``outs_late``/``danger_late`` with the stock empty,
  linear in between): combinations are worth more while there are draws left, a card
  the opponent can use costs more when the opponent is near a knock;
- a discard that makes no meld with any cards the opponent could still hold is
  credited ``safe`` points (a structural safety test, exact for the cards seen);
- a discard gives up ``potential`` points per live card that would pair with it or sit
  next to it in its suit (a one-ply view of what the card could become);
- a pile card is taken when it melds and lowers the deadwood by at least ``take_meld``
  points (or makes gin), or lowers it by at least ``take_any`` points anyway; the deadwood is exact
  (:func:`ginsim.game.melds_nb.best_discard_nb`). A take shows the opponent what the
  hand collects, so a small gain may not be worth it.

Knocking is the common machinery (thresholds, charts, undercut estimate) of
:func:`ginsim.strategies.policy_nb.knock_probability_nb`.
"""

from collections import namedtuple

from ..game._jit import jit, jit_inline
from ..game.bits_nb import lowest_card_nb, popcount_nb
from ..game.card_tables import T_RANK_VALUE
from ..game.melds_nb import W_DISCARD, mask_value_nb
from ..game.rules import STOCK_AT_DEAL
from ..game.state import FULL_DECK, ST_PILE_MASK, ST_POS
from .hand_reading_nb import (
    can_join_meld_nb,
    discard_context_nb,
    feeding_risk_nb,
    kept_outs_nb,
    lowest_score_card_nb,
    near_cards_nb,
)
from .params import (
    P_DANGER_WEIGHT,
    P_MEMORY,
    P_OUTS_WEIGHT,
    P_X_CONTESTED,
    P_X_DANGER_LATE,
    P_X_LOOKAHEAD,
    P_X_OUTS_LATE,
    P_X_OUTS_VALUE,
    P_X_POTENTIAL,
    P_X_SAFE,
)

NEVER_TAKE = 100.0  # take_any at or above this: no pile card is taken unless it melds


@jit_inline
def staged_nb(params, seat, hs, early, late):
    """The weight ``params[seat, early]`` at the deal, ``params[seat, late]`` with the
    stock empty, linear in the stock left between."""
    t = min(max(52 - hs[ST_POS], 0), STOCK_AT_DEAL) / STOCK_AT_DEAL
    return params[seat, late] + (params[seat, early] - params[seat, late]) * t


@jit_inline
def top_free_values_nb(hand, forbidden, work, tab):
    """``(t1, t2, n1, least)`` for an 11-card ``hand`` after ``best_discard_nb(...,
    per_card=True)``: the highest value of a card that is unmelded in some best
    arrangement (its discard cuts the deadwood by exactly its value), the next value
    (``t1`` again when two cards have it), how many such cards have ``t1``, and the
    11 cards' least deadwood with one of them discarded unmelded."""
    best = 1 << 30
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        best = min(best, work[W_DISCARD + c] + tab[T_RANK_VALUE + c % 13])
    t1 = 0
    t2 = 0
    n1 = 0
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        v = tab[T_RANK_VALUE + c % 13]
        if work[W_DISCARD + c] + v != best:
            continue
        if v > t1:
            t2 = t1
            t1 = v
            n1 = 1
        elif v == t1:
            n1 += 1
            t2 = v
        elif v > t2:
            t2 = v
    return t1, t2, n1, best


@jit_inline
def replacement_cuts_nb(live, t1, t2, tab):
    """Expected deadwood cut of drawing a uniformly random ``live`` card that melds
    nothing, when the highest unmelded card kept is worth ``t1`` (or ``t2``): the draw
    replaces it when lower."""
    n = popcount_nb(live)
    if n == 0:
        return 0.0, 0.0
    cut1 = 0
    cut2 = 0
    rest = live
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        v = tab[T_RANK_VALUE + c % 13]
        cut1 += max(t1 - v, 0)
        cut2 += max(t2 - v, 0)
    return cut1 / n, cut2 / n


#: The expert's discard weights at this stage of the hand (see :func:`expert_weights_nb`).
ExpertWeights = namedtuple("ExpertWeights", "outs danger safe potential look value contested")
#: What the expert reads of the hand and the pile before scoring its discards: the masks
#: of :func:`~ginsim.strategies.hand_reading_nb.discard_context_nb`, the cards the opponent
#: may hold, and the draw lookahead (:func:`top_free_values_nb`, :func:`replacement_cuts_nb`).
ExpertView = namedtuple("ExpertView",
                        "hand live fits near shunned sets runs may_hold t1 n1 least cut1 cut2")


@jit_inline
def expert_weights_nb(params, seat, hs):
    """The discard weights of ``seat``'s expert row, staged by the stock left."""
    outs_w = staged_nb(params, seat, hs, P_OUTS_WEIGHT, P_X_OUTS_LATE)
    danger_w = staged_nb(params, seat, hs, P_DANGER_WEIGHT, P_X_DANGER_LATE)
    if params[seat, P_MEMORY] < 2:
        danger_w = 0.0
    return ExpertWeights(outs_w, danger_w, params[seat, P_X_SAFE], params[seat, P_X_POTENTIAL],
                         params[seat, P_X_LOOKAHEAD], params[seat, P_X_OUTS_VALUE] * outs_w / 10.0,
                         params[seat, P_X_CONTESTED] * outs_w)


@jit_inline
def expert_view_nb(params, seat, hand, forbidden, look, board, tab):
    """The :class:`ExpertView` of an 11-card ``hand`` (the lookahead only when ``look``
    weighs it)."""
    live, fits, near, shunned, sets, runs = discard_context_nb(params, seat, hand, board.hs,
                                                                 tab)
    t1, n1, least, cut1, cut2 = 0, 0, 0, 0.0, 0.0
    if look != 0.0:
        t1, t2, n1, least = top_free_values_nb(hand, forbidden, board.work, tab)
        cut1, cut2 = replacement_cuts_nb(live, t1, t2, tab)
    may_hold = FULL_DECK & ~hand & ~board.hs[ST_PILE_MASK]
    return ExpertView(hand, live, fits, near, shunned, sets, runs, may_hold, t1, n1, least,
                      cut1, cut2)


@jit_inline
def expert_card_score_nb(w, view, c, work, tab):
    """The expert's score of discarding ``c`` (lower is better): see
    :func:`expert_discard_nb`."""
    value = tab[T_RANK_VALUE + c % 13]
    outs = kept_outs_nb(view.hand, c, view.sets, view.runs, tab) & view.live
    score = work[W_DISCARD + c] - w.outs * popcount_nb(outs)
    if w.value != 0.0:
        score -= w.value * mask_value_nb(outs, tab)
    if w.contested != 0.0:
        score += w.contested * popcount_nb(outs & view.fits)
    if w.danger != 0.0:
        score += w.danger * feeding_risk_nb(c, view.fits, view.near, view.shunned)
    if w.safe != 0.0 and not can_join_meld_nb(view.may_hold, c, tab):
        score -= w.safe
    if w.potential != 0.0:
        score += w.potential * popcount_nb(near_cards_nb(1 << c, 2) & view.live)
    if w.look != 0.0:
        # Discarding the only free card of the top value leaves the next one on top.
        alone = view.n1 == 1 and value == view.t1 and work[W_DISCARD + c] + value == view.least
        score -= w.look * (view.cut2 if alone else view.cut1)
    return score


@jit
def expert_discard_nb(params, seat, hand, forbidden, board, tab):
    """The expert's discard from an 11-card ``hand`` (lowest score; ties to the higher
    value, then the higher index).

    Score = deadwood kept - staged outs weight x (live outs kept + ``outs_value`` x their
    value / 10 - ``contested`` x those that would meld with the opponent's known cards)
    + staged danger weight x feeding risk (memory 2) - ``safe`` if the card melds with
    nothing the opponent could hold + ``potential`` x live cards of its rank or within
    two of it in its suit - ``lookahead`` x the expected cut of a draw that melds nothing
    (:func:`replacement_cuts_nb`). Needs ``board.work[W_DISCARD:]`` from
    ``best_discard_nb(..., per_card=True)``.
    """
    w = expert_weights_nb(params, seat, board.hs)
    view = expert_view_nb(params, seat, hand, forbidden, w.look, board, tab)
    return lowest_score_card_nb(hand & ~forbidden, expert_context_score_nb,
                                (w, view, board.work, tab), tab)


@jit_inline
def expert_context_score_nb(context, c):
    """:func:`expert_card_score_nb` of card ``c``, ``context`` being ``(weights, view,
    work, tab)`` (the score kernel of :func:`expert_discard_nb`)."""
    w, view, work, tab = context
    return expert_card_score_nb(w, view, c, work, tab)
