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


@jit_inline
def learned_discard_score_nb(params, seat, view, c, work, tab):
    """The model's score of discarding ``c`` (higher is better)."""
    f = discard_features_nb(view, c, work, tab)
    score = 0.0
    for i in range(N_DISCARD_FEATURES):
        score += params[seat, P_L_DISCARD + i] * f[i]
    if params[seat, P_L_QUADRATIC] != 0.0:
        k = P_L_PAIRS
        for i in range(N_DISCARD_FEATURES):
            inner = 0.0
            for j in range(i, N_DISCARD_FEATURES):
                inner += params[seat, k] * f[j]
                k += 1
            score += inner * f[i]
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

