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

from ..game._jit import jit_inline
from ..game.melds_nb import (
    W_DISCARD,
    lowest_card_nb,
    mask_value_nb,
    popcount_nb,
)
from ..game.rules import STOCK_AT_DEAL
from ..game.state import FULL_DECK, ST_PILE_MASK, ST_POS
from ..game.tables import T_RANK_VALUE
from .hand_reading_nb import (
    can_join_meld_nb,
    discard_context_nb,
    feeding_risk_nb,
    kept_outs_nb,
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
def top_free_values_nb(hand, forbidden, hs, tab):
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
        best = min(best, hs[W_DISCARD + c] + tab[T_RANK_VALUE + c % 13])
    t1 = 0
    t2 = 0
    n1 = 0
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        v = tab[T_RANK_VALUE + c % 13]
        if hs[W_DISCARD + c] + v != best:
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


@jit_inline
def expert_discard_nb(params, seat, hand, forbidden, hs, tab):
    """The expert's discard from an 11-card ``hand`` (lowest score; ties to the higher
    value, then the higher index).

    Score = deadwood kept - staged outs weight x (live outs kept + ``outs_value`` x their
    value / 10 - ``contested`` x those that would meld with the opponent's known cards)
    + staged danger weight x feeding risk (memory 2) - ``safe`` if the card melds with
    nothing the opponent could hold + ``potential`` x live cards of its rank or within
    two of it in its suit - ``lookahead`` x the expected cut of a draw that melds nothing
    (:func:`replacement_cuts_nb`). Needs ``hs[W_DISCARD:]`` from
    ``best_discard_nb(..., per_card=True)``.
    """
    live, fits, near, shunned, sets, runs = discard_context_nb(params, seat, hand, hs, tab)
    outs_w = staged_nb(params, seat, hs, P_OUTS_WEIGHT, P_X_OUTS_LATE)
    danger_w = staged_nb(params, seat, hs, P_DANGER_WEIGHT, P_X_DANGER_LATE)
    if params[seat, P_MEMORY] < 2:
        danger_w = 0.0
    safe_w = params[seat, P_X_SAFE]
    potential_w = params[seat, P_X_POTENTIAL]
    look_w = params[seat, P_X_LOOKAHEAD]
    value_w = params[seat, P_X_OUTS_VALUE] * outs_w / 10.0
    contested_w = params[seat, P_X_CONTESTED] * outs_w
    t1, n1, least, cut1, cut2 = 0, 0, 0, 0.0, 0.0
    if look_w != 0.0:
        t1, t2, n1, least = top_free_values_nb(hand, forbidden, hs, tab)
        cut1, cut2 = replacement_cuts_nb(live, t1, t2, tab)
    opponent_may_hold = FULL_DECK & ~hand & ~hs[ST_PILE_MASK]
    best = -1
    best_score = 1e18
    best_value = -1
    rest = hand & ~forbidden
    while rest != 0:
        c = lowest_card_nb(rest)
        rest &= rest - 1
        value = tab[T_RANK_VALUE + c % 13]
        outs = kept_outs_nb(hand, c, sets, runs, tab)
        score = hs[W_DISCARD + c] - outs_w * popcount_nb(outs & live)
        if value_w != 0.0:
            score -= value_w * mask_value_nb(outs & live, tab)
        if contested_w != 0.0:
            score += contested_w * popcount_nb(outs & live & fits)
        if danger_w != 0.0:
            score += danger_w * feeding_risk_nb(c, fits, near, shunned)
        if safe_w != 0.0 and not can_join_meld_nb(opponent_may_hold, c, tab):
            score -= safe_w
        if potential_w != 0.0:
            score += potential_w * popcount_nb(near_cards_nb(1 << c, 2) & live)
        if look_w != 0.0:
            # Discarding the only free card of the top value leaves the next one on top.
            alone = n1 == 1 and value == t1 and hs[W_DISCARD + c] + value == least
            score -= look_w * (cut2 if alone else cut1)
        if score < best_score or (score == best_score and value >= best_value):
            best = c
            best_score = score
            best_value = value
    return best
