"""The mc seat's recorder: what the teacher writes down of each of mc's draws and
discards, as training rows for the learned card play.

mc's own choices (:mod:`ginsim.simulator.search.mc_nb`) call these kernels with their
``lessons``: None when nothing is recorded (numba then compiles each to nothing), or the
teacher's :class:`Lessons` (:mod:`ginsim.simulator.search.teacher`); the rows carry the
hand's index from the hand state (``ST_HAND_ID``). Each
option's features are the learned card play's own
(:mod:`ginsim.strategies.learned.card_features_nb`); a decision that no longer fits is
played but not written.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import popcount_nb
from ...game.state import ST_FORBIDDEN, ST_HAND, ST_HAND_ID
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
    k = lessons.count[0]
    if k >= lessons.draw_x.shape[0]:
        return np.int64(-1)
    f, _ = draw_features_nb(seat, board.hs[ST_HAND + seat], top, board.hs, board.work, tab)
    for i in range(N_DRAW_FEATURES):
        lessons.draw_x[k, i] = f[i]
    lessons.draw_meta[k, 0] = board.hs[ST_HAND_ID]
    lessons.draw_meta[k, 1] = seat
    lessons.draw_v[k, 0] = np.nan
    lessons.draw_v[k, 1] = np.nan
    lessons.count[0] = k + 1
    return k


@jit
def note_draw_nb(lessons, row, take, default, v_take, v_stock):
    """Complete draw row ``row`` (-1: none): the take, the rollout strategy's and the
    rollout means of taking and of the stock (NaN unsearched)."""
    if lessons is None or row < 0:
        return
    lessons.draw_meta[row, 2] = 1 if take else 0
    lessons.draw_meta[row, 3] = 1 if default else 0
    lessons.draw_v[row, 0] = v_take
    lessons.draw_v[row, 1] = v_stock


@jit
def record_discard_options_nb(lessons, seat, board, tab):
    """Write a row of features for each card ``seat`` may discard from its 11 cards
    (the per-card table in ``board.work``); the first row, or -1 when full or nothing
    is recorded."""
    if lessons is None:
        return np.int64(-1)
    hs = board.hs
    view = discard_view_nb(seat, hs[ST_HAND + seat], hs[ST_FORBIDDEN], hs, board.work, tab)
    first = lessons.count[2]
    if first + popcount_nb(view.allowed) > lessons.disc_x.shape[0]:
        return np.int64(-1)
    k = first
    for c in range(52):
        if (view.allowed >> c) & 1 == 0:
            continue
        f = discard_features_nb(view, c, board.work, tab)
        for i in range(N_DISCARD_FEATURES):
            lessons.disc_x[k, i] = f[i]
        lessons.disc_meta[k, 0] = lessons.count[1]
        lessons.disc_meta[k, 1] = hs[ST_HAND_ID]
        lessons.disc_meta[k, 2] = c
        for j in range(3, 6):
            lessons.disc_meta[k, j] = 0
        lessons.disc_v[k, 0] = np.nan
        lessons.disc_v[k, 1] = np.nan
        k += 1
    lessons.count[1] += 1
    lessons.count[2] = k
    return first


@jit_inline
def option_row_nb(lessons, first, card):
    """The row of discard option ``card`` of the decision starting at row ``first``."""
    k = first
    while lessons.disc_meta[k, 2] != card:
        k += 1
    return k


@jit
def keep_value_nb(lessons, first, card, knock, mean):
    """Keep the rollout mean of discarding ``card`` (with a knock or not) in the
    decision starting at row ``first`` (-1: none)."""
    if lessons is None or first < 0:
        return
    lessons.disc_v[option_row_nb(lessons, first, card), 1 if knock else 0] = mean


@jit
def mark_choice_nb(lessons, first, default, choice):
    """Mark the teacher's ``choice`` ``(card, knock, kept)`` and its rollout strategy's
    card ``default`` among the rows of the decision starting at ``first`` (-1: none)."""
    if lessons is None or first < 0:
        return
    lessons.disc_meta[option_row_nb(lessons, first, default), 4] = 1
    k = option_row_nb(lessons, first, choice[0])
    lessons.disc_meta[k, 3] = 1
    lessons.disc_meta[k, 5] = 1 if choice[1] else 0
