"""The learned card play: the draw and the discard of ``kind=learned`` rows.

Same contract as :mod:`ginsim.strategies.policy_nb`. Each option's features
(:mod:`.card_features_nb`) are scored by the row's weights (``card_model``: a linear
score for each discard, with a weight for each product of two features when the model
is quadratic, and a logistic one for taking the pile card) with nothing allocated;
knocking stays the common machinery (the knock chart of the row).
"""

from ...game._jit import jit, jit_inline
from ...game.bits_nb import lowest_card_nb
from ...game.melds_nb import W_DISCARD
from ...game.rules import R_BIG_GIN_BONUS
from ..params import (
    N_DISCARD_FEATURES,
    N_DRAW_FEATURES,
    P_L_CANDIDATES,
    P_L_DISCARD,
    P_L_DRAW,
    P_L_PAIRS,
    P_L_QUADRATIC,
)
from .card_features_nb import discard_features_nb, discard_view_nb, draw_features_nb

assert N_DISCARD_FEATURES == 18  # pair_score_nb names each feature


@jit_inline
def learned_discard_score_nb(params, seat, view, c, work, tab):
    """The model's score of discarding ``c`` (higher is better)."""
    f = discard_features_nb(view, c, work, tab)
    score = 0.0
    for i in range(N_DISCARD_FEATURES):
        score += params[seat, P_L_DISCARD + i] * f[i]
    if params[seat, P_L_QUADRATIC] != 0.0:
        score += pair_score_nb(params, seat, f)
    return score


@jit_inline
def pair_score_nb(params, seat, f):
    """``f @ m @ f`` for the row's pair matrix ``m`` (``P_L_PAIRS``, row by row). Each
    row's product is written out over named features: indexing the feature tuple in an
    inner loop compiles to a jump per element, which made the quadratic model four times
    slower per option."""
    f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17 = f
    score = 0.0
    for i in range(N_DISCARD_FEATURES):
        k = P_L_PAIRS + i * N_DISCARD_FEATURES
        row = (params[seat, k] * f0 + params[seat, k + 1] * f1 + params[seat, k + 2] * f2
               + params[seat, k + 3] * f3 + params[seat, k + 4] * f4
               + params[seat, k + 5] * f5 + params[seat, k + 6] * f6
               + params[seat, k + 7] * f7 + params[seat, k + 8] * f8
               + params[seat, k + 9] * f9 + params[seat, k + 10] * f10
               + params[seat, k + 11] * f11 + params[seat, k + 12] * f12
               + params[seat, k + 13] * f13 + params[seat, k + 14] * f14
               + params[seat, k + 15] * f15 + params[seat, k + 16] * f16
               + params[seat, k + 17] * f17)
        score += row * f[i]
    return score


@jit
def learned_discard_nb(params, seat, hand, forbidden, board, tab):
    """The learned discard from an 11-card ``hand``: the allowed card of the highest
    score (ties to the lower index), among the ``candidates`` keeping the least deadwood
    when the row names a number. Needs ``board.work[W_DISCARD:]`` from
    ``best_discard_nb(..., per_card=True)``."""
    work = board.work
    view = discard_view_nb(seat, hand, forbidden, board.hs, work, tab)
    candidates = int(params[seat, P_L_CANDIDATES])
    best = -1
    best_score = -1e300
    for c in range(52):
        if (view.allowed >> c) & 1 == 0:
            continue
        if candidates > 0:
            below = 0
            others = view.allowed
            while others:
                d = lowest_card_nb(others)
                others &= others - 1
                if work[W_DISCARD + d] < work[W_DISCARD + c]:
                    below += 1
            if below >= candidates:
                continue
        score = learned_discard_score_nb(params, seat, view, c, work, tab)
        if score > best_score:
            best = c
            best_score = score
    return best


@jit
def learned_take_nb(params, seat, hand, top, board, rules, tab):
    """Whether the learned draw takes the pile's ``top`` card into the 10-card ``hand``:
    ``(take, kept deadwood, best discard, all melded)`` of the 11 cards (their per-card
    table left in ``board.work``). Takes when the draw model's logit is positive, and
    always for big gin under rules that score it."""
    f, after = draw_features_nb(seat, hand, top, board.hs, board.work, tab)
    dw, card, _, all_melded = after
    logit = 0.0
    for i in range(N_DRAW_FEATURES):
        logit += params[seat, P_L_DRAW + i] * f[i]
    take = logit > 0.0 or (all_melded and rules[R_BIG_GIN_BONUS] >= 0)
    return take, dw, card, all_melded

