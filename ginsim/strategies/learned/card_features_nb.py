"""Features of each card play option, one kernel for training rows and for play.

Contract as :mod:`ginsim.strategies.policy_nb` (numba, nothing allocated, only what the
deciding seat may see). A discard option is a card of the 11-card hand (not the card
just taken); the draw option is taking the pile's top card rather than the stock. The
data maker (:mod:`ginsim.simulator.search.lessons_nb`) writes these same tuples into its
training rows, and the learned policy (:mod:`.learned_nb`) scores them with its weights,
so training and play see identical features. Counts are scaled (tenths of cards or
points) so that weights of one size fit every feature.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import popcount_nb
from ...game.card_tables import T_RANK_VALUE, T_WRAP
from ...game.melds_nb import (
    RANK_COLUMN,
    W_DISCARD,
    best_discard_nb,
    mask_value_nb,
    min_deadwood_nb,
)
from ...game.rules import STOCK_AT_DEAL
from ...game.state import (
    FULL_DECK,
    ST_DISCARDED,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PASSED,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_POS,
    ST_TAKEN,
)
from ..hand_reading_nb import (
    can_join_meld_nb,
    hand_run_completions_nb,
    kept_outs_nb,
    meld_completions_nb,
    near_cards_nb,
    set_completions_nb,
)
from ..params import N_DISCARD_FEATURES, N_DRAW_FEATURES

#: Names of the discard features, in the order of :func:`discard_features_nb`.
DISCARD_FEATURES = (
    "kept_deadwood", "excess_deadwood", "card_value", "live_outs", "live_outs_value",
    "dead_outs", "fits_opponent", "near_opponent", "near_opponent_discard", "safe",
    "potential", "contested_outs", "outs_x_stock", "danger_x_late", "deadwood_x_stock",
    "knockable", "rank_mates", "danger_x_takes",
)
#: Names of the draw features, in the order of :func:`draw_features_nb`.
DRAW_FEATURES = (
    "bias", "gain", "melded", "deadwood_after", "knockable_after", "gin_after", "top_value",
    "stock", "gain_x_stock", "can_meld", "live_outs_change", "deadwood_now",
)
assert len(DISCARD_FEATURES) == N_DISCARD_FEATURES
assert len(DRAW_FEATURES) == N_DRAW_FEATURES

#: What a discard decision reads once, before its options: the 11-card hand, the cards
#: that may be discarded, the unseen cards not known to be the opponent's (``live``), the
#: opponent's known cards' meld completions (``fits``), the cards near them (``near``), near
#: its discards and passes (``shunned``), the hand's completions (``sets``, ``runs``), the
#: cards the opponent may hold, the stock left as a share of the deal's, the least
#: deadwood kept, the knock limit and the opponent's pile takes.
DiscardView = namedtuple("DiscardView", (
    "hand", "allowed", "live", "fits", "near", "shunned", "sets", "runs", "may_hold", "stock",
    "best", "limit", "takes"))


@jit_inline
def stock_share_nb(hs):
    """The stock left as a share of the deal's (1 at the deal, 0 when empty)."""
    return min(max(52 - hs[ST_POS], 0), STOCK_AT_DEAL) / STOCK_AT_DEAL


@jit_inline
def live_cards_nb(seat, hand, hs):
    """Cards ``seat`` has not seen and does not know the opponent holds."""
    return FULL_DECK & ~hand & ~hs[ST_PILE_MASK] & ~hs[ST_TAKEN + 1 - seat]


@jit
def discard_view_nb(seat, hand, forbidden, hs, work, tab):
    """The :class:`DiscardView` of ``seat``'s 11-card ``hand``; needs ``work[W_DISCARD:]``
    from ``best_discard_nb(..., per_card=True)``."""
    opp = 1 - seat
    known = hs[ST_TAKEN + opp]
    allowed = hand & ~forbidden
    best = 1 << 30
    for c in range(52):
        if (allowed >> c) & 1:
            best = min(best, work[W_DISCARD + c])
    shunned = near_cards_nb(hs[ST_DISCARDED + opp] | hs[ST_PASSED + opp], 1)
    runs = hand_run_completions_nb(hand, tab[T_WRAP] != 0)
    return DiscardView(hand, allowed, live_cards_nb(seat, hand, hs),
                       meld_completions_nb(known, tab), near_cards_nb(known, 2), shunned,
                       set_completions_nb(hand), runs, FULL_DECK & ~hand & ~hs[ST_PILE_MASK],
                       stock_share_nb(hs), best, hs[ST_KNOCK_LIMIT], hs[ST_PILE_TAKES + opp])


@jit_inline
def discard_features_nb(view, c, work, tab):
    """The features of discarding card ``c`` (:data:`DISCARD_FEATURES`), a tuple of
    floats: the deadwood kept and its excess over the least, the card's value, the live
    and dead outs the kept cards keep (cards that would make or extend a meld), their
    value, the card's danger (it melds with the opponent's known cards, is near them, is
    near what the opponent threw away; safe when it melds with nothing the opponent may
    hold), what it could become (live cards of its rank or within two in its suit), the
    outs the opponent also wants, stage interactions, whether the kept deadwood may
    knock, the cards of its rank kept and danger times the opponent's pile takes."""
    kept = work[W_DISCARD + c]
    outs = kept_outs_nb(view.hand, c, view.sets, view.runs, tab)
    live_outs = outs & view.live
    fits = float((view.fits >> c) & 1)
    near = float((view.near >> c) & 1)
    danger = fits + near
    n_live = popcount_nb(live_outs) / 10.0
    column = RANK_COLUMN << (c % 13)
    return (
        kept / 10.0,
        (kept - view.best) / 10.0,
        tab[T_RANK_VALUE + c % 13] / 10.0,
        n_live,
        mask_value_nb(live_outs, tab) / 100.0,
        popcount_nb(outs & ~view.live) / 10.0,
        fits,
        near,
        float((view.shunned >> c) & 1),
        0.0 if can_join_meld_nb(view.may_hold, c, tab) else 1.0,
        popcount_nb(near_cards_nb(np.int64(1) << c, 2) & view.live) / 10.0,
        popcount_nb(live_outs & view.fits) / 10.0,
        view.stock * n_live,
        (1.0 - view.stock) * danger,
        view.stock * kept / 10.0,
        1.0 if kept <= view.limit else 0.0,
        popcount_nb(view.hand & column & ~(np.int64(1) << c)) / 3.0,
        min(view.takes, 4) / 4.0 * danger,
    )


@jit_inline
def draw_features_nb(seat, hand, top, hs, work, tab):
    """The features of taking the pile's ``top`` card into the 10-card ``hand`` rather
    than drawing from the stock (:data:`DRAW_FEATURES`), and what the take leaves:
    ``(features, (kept deadwood, best discard, top melded, all melded))``. Leaves the
    11 cards' per-card table in ``work`` for the discard that follows a take."""
    now = min_deadwood_nb(hand, tab, work)
    taken = hand | (np.int64(1) << top)
    forbidden = np.int64(1) << top
    dw, card, melded, all_melded = best_discard_nb(taken, forbidden, forbidden, tab, work, True)
    live = live_cards_nb(seat, hand, hs)
    outs_now = popcount_nb(meld_completions_nb(hand, tab) & live)
    kept = taken & ~(np.int64(1) << card) if card >= 0 else hand
    outs_after = popcount_nb(meld_completions_nb(kept, tab) & live)
    gain = (now - dw) / 10.0
    stock = stock_share_nb(hs)
    features = (
        1.0,
        gain,
        1.0 if melded else 0.0,
        dw / 10.0,
        1.0 if dw <= hs[ST_KNOCK_LIMIT] else 0.0,
        1.0 if dw == 0 else 0.0,
        tab[T_RANK_VALUE + top % 13] / 10.0,
        stock,
        stock * gain,
        1.0 if can_join_meld_nb(hand, top, tab) else 0.0,
        (outs_after - outs_now) / 10.0,
        now / 10.0,
    )
    return features, (dw, card, melded, all_melded)



@jit
def discard_feature_table_nb(seat, board, tab, out):
    """The features of each discard ``seat`` may make from its 11 cards into ``out``
    (float64[52, N_DISCARD_FEATURES], NaN for the cards it may not discard): the
    kernel's face for tests and tools."""
    hs = board.hs
    hand = hs[ST_HAND + seat]
    best_discard_nb(hand, hs[ST_FORBIDDEN], 0, tab, board.work, True)
    view = discard_view_nb(seat, hand, hs[ST_FORBIDDEN], hs, board.work, tab)
    for c in range(52):
        if (view.allowed >> c) & 1 == 0:
            for i in range(N_DISCARD_FEATURES):
                out[c, i] = np.nan
            continue
        f = discard_features_nb(view, c, board.work, tab)
        for i in range(N_DISCARD_FEATURES):
            out[c, i] = f[i]


@jit
def draw_feature_row_nb(seat, top, board, tab, out):
    """The features of ``seat`` taking ``top`` into its 10 cards, into ``out``
    (float64[N_DRAW_FEATURES])."""
    hs = board.hs
    f, _ = draw_features_nb(seat, hs[ST_HAND + seat], top, hs, board.work, tab)
    for i in range(N_DRAW_FEATURES):
        out[i] = f[i]
