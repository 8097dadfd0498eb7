"""The search player as a teacher: mc's hands played exactly as the hand loop plays
them, with each of the mc seat's draws and discards written down as training rows.

Contract as :mod:`ginsim.simulator.search.mc_nb`, whose kernels this module calls: the
draw and the discard are mc's own (:func:`~ginsim.simulator.search.mc_nb.mc_draw_choice_nb`
and :func:`~ginsim.simulator.search.mc_nb.mc_discard_choice_nb`) written out once more,
in the same order of random draws, so that each rollout mean can be kept; the hands and
their records equal :func:`~ginsim.simulator.play.hand_nb.simulate_nb`'s (tests check).
Each option's features are the learned card play's own
(:mod:`ginsim.strategies.learned.card_features_nb`). Rows go to a :class:`Lessons` the
caller makes; a decision that no longer fits is played but not written.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.bits_nb import popcount_nb
from ...game.history import EV_STOCK, EV_TAKE
from ...game.melds_nb import W_DISCARD, best_discard_nb
from ...game.rng_nb import rotating_dealer_nb
from ...game.rules import R_BIG_GIN_BONUS
from ...game.state import (
    A_BIG_GIN,
    A_KNOCK,
    A_PILE,
    A_STOCK,
    PH_DRAW,
    PH_OVER,
    ST_DRAWN,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_TO_MOVE,
)
from ...strategies.learned.card_features_nb import (
    discard_features_nb,
    discard_view_nb,
    draw_features_nb,
)
from ...strategies.params import (
    N_DISCARD_FEATURES,
    N_DRAW_FEATURES,
    SEARCH_CARD,
    SEARCH_DRAW,
    SEARCH_KNOCK,
)
from ...strategies.policy_nb import pile_decision_nb
from ..machine.board_nb import drop_plan_nb, pile_allowed_nb, restart_trace_nb
from ..machine.buffers import Search
from ..machine.deal_nb import seat_streams_nb, shuffle_deck_nb
from ..machine.showdown_nb import showdown_nb
from ..machine.step_nb import apply_step_nb
from ..play.drive_nb import discard_kind_nb, play_step_nb
from ..play.hand_nb import record_hand_nb
from .mc_guesses_nb import prepare_nb
from .mc_memory_nb import add_event_nb
from .mc_nb import (
    CANDIDATES,
    McPlay,
    default_discard_nb,
    lowest_candidate_nb,
    mc_searches_nb,
    mc_start_hand_nb,
    no_search_nb,
    observe_nb,
    plain_step_nb,
    searched_option_nb,
)
from .rollouts_nb import OPT_DISCARD, OPT_STOCK, OPT_TAKE, gain_nb, option_nb, option_value_nb

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
def record_draw_nb(lessons, hand_id, seat, top, board, tab):
    """Write the draw features of ``seat`` facing the pile's ``top`` card; its row, or
    -1 when the buffers are full."""
    k = lessons.count[0]
    if k >= lessons.draw_x.shape[0]:
        return -1
    f, _ = draw_features_nb(seat, board.hs[ST_HAND + seat], top, board.hs, board.work, tab)
    for i in range(N_DRAW_FEATURES):
        lessons.draw_x[k, i] = f[i]
    lessons.draw_meta[k, 0] = hand_id
    lessons.draw_meta[k, 1] = seat
    lessons.draw_v[k, 0] = np.nan
    lessons.draw_v[k, 1] = np.nan
    lessons.count[0] = k + 1
    return k


@jit
def record_discard_options_nb(lessons, hand_id, seat, board, tab):
    """Write a row of features for each card ``seat`` may discard from its 11 cards
    (the per-card table in ``board.work``); the first row, or -1 when full."""
    hs = board.hs
    view = discard_view_nb(seat, hs[ST_HAND + seat], hs[ST_FORBIDDEN], hs, board.work, tab)
    first = lessons.count[2]
    if first + popcount_nb(view.allowed) > lessons.disc_x.shape[0]:
        return -1
    k = first
    for c in range(52):
        if (view.allowed >> c) & 1 == 0:
            continue
        f = discard_features_nb(view, c, board.work, tab)
        for i in range(N_DISCARD_FEATURES):
            lessons.disc_x[k, i] = f[i]
        lessons.disc_meta[k, 0] = lessons.count[1]
        lessons.disc_meta[k, 1] = hand_id
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
    """Keep the rollout mean of discarding ``card`` (with a knock or not)."""
    if first >= 0:
        lessons.disc_v[option_row_nb(lessons, first, card), 1 if knock else 0] = mean


@jit
def _teacher_options_nb(board, me, search, default, searched, rules, tab, rng, mem, at):
    """mc's rollouts over its discard options (as its ``_best_discard_option_nb``), each
    mean kept in ``at = (lessons, first row)``: ``(card, knock, kept)`` chosen."""
    lessons, first = at
    hs = board.hs
    hand = hs[ST_HAND + me]
    forbidden = hs[ST_FORBIDDEN]
    table = board.work[W_DISCARD:W_DISCARD + 52]
    mean = option_value_nb(hs, me, option_nb(OPT_DISCARD, default[0], default[1], default[2], 0),
                           search, rules, tab, rng, mem)
    keep_value_nb(lessons, first, default[0], default[1], mean)
    choice = default
    best_gain = 0.0
    for _ in range(CANDIDATES):
        c, low = lowest_candidate_nb(table, hand, forbidden)
        if c < 0:
            break
        for knock in (False, True):
            if not searched_option_nb(c, knock, low, default, searched, hs[ST_KNOCK_LIMIT]):
                continue
            mean = option_value_nb(hs, me, option_nb(OPT_DISCARD, c, knock, low, 1), search,
                                   rules, tab, rng, mem)
            keep_value_nb(lessons, first, c, knock, mean)
            gain = gain_nb(mem.values, search.rollouts, search.margin)
            if gain > best_gain:
                best_gain = gain
                choice = (c, knock, low)
    return choice


@jit
def mark_choice_nb(lessons, first, default, choice):
    """Mark the teacher's choice and its rollout strategy's among the decision's rows."""
    if first < 0:
        return
    lessons.disc_meta[option_row_nb(lessons, first, default), 4] = 1
    k = option_row_nb(lessons, first, choice[0])
    lessons.disc_meta[k, 3] = 1
    lessons.disc_meta[k, 5] = 1 if choice[1] else 0


@jit
def teacher_discard_nb(board, me, search, rules, tab, rng, mem, at):
    """mc's discard from 11 cards (as :func:`mc_discard_choice_nb` with a knock allowed),
    its options written down (``at = (lessons, hand)``): ``(kind, card, kept)``."""
    lessons, hand_id = at
    hs = board.hs
    hand = hs[ST_HAND + me]
    dw, best, _, all_melded = best_discard_nb(hand, hs[ST_FORBIDDEN], 0, tab, board.work, True)
    if all_melded and rules[R_BIG_GIN_BONUS] >= 0:
        return A_BIG_GIN, np.int64(-1), np.int64(0)
    if dw == 0:
        return A_KNOCK, best, np.int64(0)
    first = record_discard_options_nb(lessons, hand_id, me, board, tab)
    default, kept, knock = default_discard_nb(board, me, (dw, best), np.bool_(True), rules, tab,
                                              rng, mem)
    cards = search.searched & SEARCH_CARD != 0
    knocks = search.searched & SEARCH_KNOCK != 0
    choice = (default, knock, kept)
    if cards or (knocks and (knock or kept <= hs[ST_KNOCK_LIMIT])):
        choice = _teacher_options_nb(board, me, search, choice, (cards, knocks), rules, tab,
                                    rng, mem, (lessons, first))
    mark_choice_nb(lessons, first, default, choice)
    return discard_kind_nb(choice[1], False), choice[0], choice[2]


@jit
def teacher_take_nb(board, me, search, rules, tab, rng, mem):
    """mc's pile-or-stock choice (as :func:`mc_draw_choice_nb`): ``(take, its rollout
    strategy's take, mean of taking, mean of the stock)``, the means NaN unsearched."""
    hs = board.hs
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    default = pile_decision_nb(mem.pairs[0], me, hs[ST_HAND + me], top, board, rules, tab,
                               rng)[0]
    if search.searched & SEARCH_DRAW == 0:
        return default, default, np.nan, np.nan
    first = option_value_nb(hs, me, option_nb(OPT_TAKE if default else OPT_STOCK, -1, False, 0,
                                              0), search, rules, tab, rng, mem)
    other = option_value_nb(hs, me, option_nb(OPT_STOCK if default else OPT_TAKE, -1, False, 0,
                                              1), search, rules, tab, rng, mem)
    take = default
    if gain_nb(mem.values, search.rollouts, search.margin) > 0:
        take = not default
    if default:
        return take, default, first, other
    return take, default, other, first


@jit
def teacher_draw_nb(board, me, params, rules, tab, rng, mem, at):
    """mc's draw (as :func:`mc_draw_nb`), applied and remembered, written down (``at =
    (lessons, hand)``) when the pile's card may be taken. Returns the search."""
    lessons, hand_id = at
    hs = board.hs
    flag = 1 if pile_allowed_nb(hs) and hs[ST_PILE_LEN] > 0 else 0
    search = prepare_nb(hs, me, params, rules, tab, rng, mem)
    take = False
    if flag:
        row = record_draw_nb(lessons, hand_id, me, hs[ST_PILE + hs[ST_PILE_LEN] - 1], board,
                             tab)
        take, default, v_take, v_stock = teacher_take_nb(board, me, search, rules, tab, rng,
                                                         mem)
        if row >= 0:
            lessons.draw_meta[row, 2] = 1 if take else 0
            lessons.draw_meta[row, 3] = 1 if default else 0
            lessons.draw_v[row, 0] = v_take
            lessons.draw_v[row, 1] = v_stock
    drop_plan_nb(hs)
    apply_step_nb(hs, me, A_PILE if take else A_STOCK, -1, 0, rules)
    card = hs[ST_DRAWN]
    if take:
        add_event_nb(mem, me, EV_TAKE, card, 1)
        return search
    add_event_nb(mem, me, EV_STOCK, -1, flag)
    return Search(search.particles, search.unseen, search.key, search.rollouts, search.margin,
                  np.int64(1) << card, search.searched, search.game)


@jit
def teacher_step_nb(play, me, search, params, rules, tab, at):
    """One action of the mc seat ``me`` (its draw or its discard), applied, traced,
    remembered and written down; returns the search (the draw's stays for the discard)."""
    board, rng, mem = play.board, play.rng, play.mem
    hs = board.hs
    if hs[ST_PHASE] == PH_DRAW:
        return teacher_draw_nb(board, me, params, rules, tab, rng, mem, at)
    if hs[ST_DRAWN] < 0:  # the eleven-card deal's first discard
        search = prepare_nb(hs, me, params, rules, tab, rng, mem)
    kind, card, kept = teacher_discard_nb(board, me, search, rules, tab, rng, mem, at)
    play_step_nb(board, kind, card, kept, rules, play.trace)
    observe_nb(mem, me, kind, card, 0)
    return search


@jit
def teacher_hands_nb(seed, start, stop, params, rules, tab, buf, lessons):
    """Play hands ``start .. stop-1`` as :func:`simulate_nb` does (not duplicate), mc's
    choices written to ``lessons``, the records to ``buf.out``."""
    hs = buf.board.hs
    restart_trace_nb(hs)
    for i in range(start, stop):
        dealer = rotating_dealer_nb(i, 2)
        shuffle_deck_nb(hs, buf.rng, seed, i)
        seat_streams_nb(buf.rng, seed, i)
        mc_start_hand_nb(buf.board, dealer, params, rules, buf.trace, buf.mem, i)
        play = McPlay(buf.board, buf.rng, buf.trace, buf.mem)
        search = no_search_nb()
        while hs[ST_PHASE] < PH_OVER:
            seat = hs[ST_TO_MOVE]
            if mc_searches_nb(hs, params, seat):
                search = teacher_step_nb(play, seat, search, params, rules, tab,
                                         (lessons, np.int64(i)))
            else:
                plain_step_nb(play, seat, buf.mem.rows, rules, tab)
        showdown_nb(buf.board, rules, tab)
        record_hand_nb(buf.out, i - start, i, dealer, hs)
