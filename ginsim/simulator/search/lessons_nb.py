"""The mc seat's recorder: what the teacher writes down of each of mc's draws and
discards, as training rows for the learned card play.

mc's own choices (:mod:`ginsim.simulator.search.mc_nb`) call these kernels with their
``lessons``: None when nothing is recorded (numba then compiles each to nothing), or
``(Lessons, hand)`` for the teacher (:mod:`ginsim.simulator.search.teacher_nb`). Each
option's features are the learned card play's own
(:mod:`ginsim.strategies.learned.card_features_nb`); a decision that no longer fits is
played but not written.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import popcount_nb
from ...game.state import ST_FORBIDDEN, ST_HAND
from ...strategies.learned.card_features_nb import (
    discard_features_nb,
    discard_view_nb,
    draw_features_nb,
)
from ...strategies.params import N_DISCARD_FEATURES, N_DRAW_FEATURES

DRAW_META = ("hand", "seat", "take", "default_take")
DISCARD_META = ("decision", "hand", "card", "chosen", "default", "knock")
#: Training rows: each draw decision's features (``draw_x``), its hand, seat, the
#: teacher's take and its rollout strategy's (``draw_meta``, :data:`DRAW_META`) and the
#: rollout means of taking and of drawing from the stock (``draw_v``, NaN when not
#: searched); each discard option's features (``disc_x``), :data:`DISCARD_META`
#: (``disc_meta``: its decision, hand, card, whether the teacher chose it, whether its
#: rollout strategy did, whether the teacher knocked with it) and its rollout means
#: without and with a knock (``disc_v``, NaN when not tried); ``count``: draws, discard
#: decisions and discard rows written.
Lessons = namedtuple("Lessons", ("draw_x", "draw_meta", "draw_v", "disc_x", "disc_meta",
                                 "disc_v", "count"))


@jit
def record_draw_nb(lessons, seat, top, board, tab):
    """Write the draw features of ``seat`` facing the pile's ``top`` card; its row, or
    -1 when the buffers are full or nothing is recorded."""
    if lessons is None:
        return np.int64(-1)
    rows, hand_id = lessons
    k = rows.count[0]
    if k >= rows.draw_x.shape[0]:
        return np.int64(-1)
    f, _ = draw_features_nb(seat, board.hs[ST_HAND + seat], top, board.hs, board.work, tab)
    for i in range(N_DRAW_FEATURES):
        rows.draw_x[k, i] = f[i]
    rows.draw_meta[k, 0] = hand_id
    rows.draw_meta[k, 1] = seat
    rows.draw_v[k, 0] = np.nan
    rows.draw_v[k, 1] = np.nan
    rows.count[0] = k + 1
    return k


@jit
def note_draw_nb(lessons, row, take, default, v_take, v_stock):
    """Complete draw row ``row`` (-1: none): the take, the rollout strategy's and the
    rollout means of taking and of the stock (NaN unsearched)."""
    if lessons is None or row < 0:
        return
    rows = lessons[0]
    rows.draw_meta[row, 2] = 1 if take else 0
    rows.draw_meta[row, 3] = 1 if default else 0
    rows.draw_v[row, 0] = v_take
    rows.draw_v[row, 1] = v_stock


@jit
def record_discard_options_nb(lessons, seat, board, tab):
    """Write a row of features for each card ``seat`` may discard from its 11 cards
    (the per-card table in ``board.work``); the first row, or -1 when full or nothing
    is recorded."""
    if lessons is None:
        return np.int64(-1)
    rows, hand_id = lessons
    hs = board.hs
    view = discard_view_nb(seat, hs[ST_HAND + seat], hs[ST_FORBIDDEN], hs, board.work, tab)
    first = rows.count[2]
    if first + popcount_nb(view.allowed) > rows.disc_x.shape[0]:
        return np.int64(-1)
    k = first
    for c in range(52):
        if (view.allowed >> c) & 1 == 0:
            continue
        f = discard_features_nb(view, c, board.work, tab)
        for i in range(N_DISCARD_FEATURES):
            rows.disc_x[k, i] = f[i]
        rows.disc_meta[k, 0] = rows.count[1]
        rows.disc_meta[k, 1] = hand_id
        rows.disc_meta[k, 2] = c
        for j in range(3, 6):
            rows.disc_meta[k, j] = 0
        rows.disc_v[k, 0] = np.nan
        rows.disc_v[k, 1] = np.nan
        k += 1
    rows.count[1] += 1
    rows.count[2] = k
    return first


@jit_inline
def option_row_nb(rows, first, card):
    """The row of discard option ``card`` of the decision starting at row ``first``."""
    k = first
    while rows.disc_meta[k, 2] != card:
        k += 1
    return k


@jit
def keep_value_nb(lessons, first, card, knock, mean):
    """Keep the rollout mean of discarding ``card`` (with a knock or not) in the
    decision starting at row ``first`` (-1: none)."""
    if lessons is None or first < 0:
        return
    rows = lessons[0]
    rows.disc_v[option_row_nb(rows, first, card), 1 if knock else 0] = mean


@jit
def mark_choice_nb(lessons, first, default, choice):
    """Mark the teacher's ``choice`` ``(card, knock, kept)`` and its rollout strategy's
    card ``default`` among the rows of the decision starting at ``first`` (-1: none)."""
    if lessons is None or first < 0:
        return
    rows = lessons[0]
    rows.disc_meta[option_row_nb(rows, first, default), 4] = 1
    k = option_row_nb(rows, first, choice[0])
    rows.disc_meta[k, 3] = 1
    rows.disc_meta[k, 5] = 1 if choice[1] else 0
