"""Counterfactual knock decisions (the knock chart): branch the hand state at every
point where seat a may knock, and score "knock now" against "wait this turn".

Contract as in :mod:`ginsim.simulator.play.drive_nb`. The actual hand follows seat a's own
strategy; at each of seat a's turns where the best discard keeps deadwood between 1 and
the hand's knock limit, the position is copied into a second board twice
(:func:`~ginsim.simulator.machine.deal_nb.copy_position_nb`): one copy knocks now and is
scored, the other discards as the strategy would without knocking and plays on with
both strategies to the end. Both branches share the future cards (common random
numbers). Decision points on the very first turn (upcard offers) are not branched.
:func:`chart_turn_nb` is the one turn of both charts: given the mc seat (the mc chart,
:mod:`ginsim.simulator.branches.mc_chart_nb`) the branches copy what it remembers too,
and the wait branch and the discard are played as the mc hand loop plays them.
"""

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.melds_nb import best_discard_nb
from ...game.rng_nb import rotating_dealer_nb
from ...game.rules import R_BIG_GIN_BONUS
from ...game.state import (
    A_DISCARD,
    PH_DISCARD,
    PH_DRAW,
    PH_OVER,
    ST_DEALER,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PHASE,
    ST_PILE_TAKES,
    ST_PLANNED,
    ST_POS,
    ST_TURNS,
)
from ...strategies.params import P_MEMORY
from ...strategies.policy_nb import after_draw_nb, discard_without_knock_nb, drawn_nb
from ..machine.board_nb import restart_trace_nb
from ..machine.deal_nb import copy_position_nb, seat_streams_nb, shuffle_deck_nb
from ..machine.records import ACTION_BIG_GIN, ACTION_KNOCK
from ..machine.showdown_nb import net_points_nb, showdown_nb
from ..machine.step_nb import apply_step_nb
from ..play.drive_nb import (
    TO_THE_END,
    decide_discard_nb,
    discard_kind_nb,
    drive_nb,
    planned_discard_nb,
    play_step_nb,
    start_hand_nb,
)
from ..search.mc_memory_nb import copy_memory_nb, discard_event_nb
from ..search.mc_nb import McPlay, mc_discard_choice_nb, mc_discard_nb, mc_drive_nb

CHART_COLUMNS = ("hand", "turn", "deadwood", "stock_left", "dealer", "net_knock", "net_wait",
                 "knocked", "opp_taken", "knock_limit")
CHART_WIDTH = len(CHART_COLUMNS)
(CH_HAND, CH_TURN, CH_DEADWOOD, CH_STOCK_LEFT, CH_DEALER, CH_NET_KNOCK, CH_NET_WAIT,
 CH_KNOCKED, CH_OPP_TAKEN, CH_KNOCK_LIMIT) = range(CHART_WIDTH)
MAX_POINTS_PER_HAND = 80


@jit
def branch_knock_nb(deadwood, card, rules, tab, branch):
    """Seat a knocks now with ``card`` (the best discard) in the board ``branch``; returns
    a's net points."""
    apply_step_nb(branch.hs, np.int64(0), discard_kind_nb(True, False), card, deadwood, rules)
    showdown_nb(branch, rules, tab)
    return net_points_nb(branch.hs, np.int64(0))


@jit
def decision_point_nb(board, i, memory, rules, tab, rows, n):
    """After seat a's draw in hand ``i``: its best discard ``(kept deadwood, card,
    all melded)`` and whether this is a decision point (a knock other than gin or big gin
    is allowed, and row ``n`` is free), whose public columns are then written."""
    hs = board.hs
    kdw, kcard, _, all_melded = best_discard_nb(hs[ST_HAND], hs[ST_FORBIDDEN], 0, tab,
                                                board.work, memory)
    big_gin = all_melded and rules[R_BIG_GIN_BONUS] >= 0
    point = 0 < kdw <= hs[ST_KNOCK_LIMIT] and not big_gin and n < rows.shape[0]
    if point:
        rows[n, CH_HAND] = i
        rows[n, CH_TURN] = hs[ST_TURNS]
        rows[n, CH_DEADWOOD] = kdw
        rows[n, CH_STOCK_LEFT] = 52 - hs[ST_POS]
        rows[n, CH_DEALER] = hs[ST_DEALER] == 0
        rows[n, CH_OPP_TAKEN] = hs[ST_PILE_TAKES + 1]
        rows[n, CH_KNOCK_LIMIT] = hs[ST_KNOCK_LIMIT]
    return point, kdw, kcard, all_melded


@jit
def wait_discard_nb(params, rules, tab, branch, branch_rng, lowest):
    """Seat a discards as its strategy would without knocking in the board ``branch``
    (``lowest``: the position's best discard ``(kept deadwood, card)``, or a card -1 to
    find it); returns the card."""
    hand = branch.hs[ST_HAND]
    forbidden = branch.hs[ST_FORBIDDEN]
    dw, card = lowest
    memory = params[0, P_MEMORY] >= 1
    if memory or card < 0:
        # Again in the branch's own scratch: a memory discard reads the per-card table.
        dw, card, _, _ = best_discard_nb(hand, forbidden, 0, tab, branch.work, memory)
    card, dw = discard_without_knock_nb(params, np.int64(0), hand, forbidden, (dw, card),
                                        branch, tab, branch_rng)
    apply_step_nb(branch.hs, np.int64(0), A_DISCARD, card, dw, rules)
    return card


@jit
def branch_wait_nb(params, rules, tab, branch, branch_rng, trace, lowest):
    """Seat a discards as its strategy would without knocking, then both play on to the
    end of the hand in the board ``branch``; returns a's net points."""
    wait_discard_nb(params, rules, tab, branch, branch_rng, lowest)
    drive_nb(branch, np.int64(TO_THE_END), np.int64(-1), params, rules, tab, branch_rng, trace)
    showdown_nb(branch, rules, tab)
    return net_points_nb(branch.hs, np.int64(0))


@jit
def mc_branch_wait_nb(buf, mc, search, params, rules, tab):
    """:func:`branch_wait_nb` with an mc seat, on ``buf.branch`` and what the branch
    remembers: seat a discards without knocking (by rollouts if it is the mc seat), both
    play on as the mc hand loop plays them; returns a's net points."""
    branch, branch_rng, mem = buf.branch, buf.branch_rng, buf.branch_mem
    play = McPlay(branch, branch_rng, mem.empty_trace, mem, None)
    zero = np.int64(0)
    if mc:
        card, _ = mc_discard_nb(play, zero, search, np.bool_(False), rules, tab)
    else:
        card = wait_discard_nb(mem.rows, rules, tab, branch, branch_rng, (0, -1))
    discard_event_nb(zero, card, mem)
    mc_drive_nb(play, np.int64(TO_THE_END), np.int64(-1), search, params, rules, tab)
    showdown_nb(branch, rules, tab)
    return net_points_nb(branch.hs, np.int64(0))


@jit
def knock_chart_nb(seed, start, stop, params, rules, tab, buf):
    """Play hands ``start .. stop-1`` (as :func:`simulate_nb` deals them) and write one row
    per decision point of seat a (see ``CHART_COLUMNS``) into ``buf.rows``, the branches
    played on ``buf.branch`` (:class:`~ginsim.simulator.machine.buffers.ChartBuffers`). Returns
    ``(rows, next hand)``; stops early when the rows might overflow."""
    rows, trace, board, rng = buf.rows, buf.trace, buf.board, buf.rng
    hs = board.hs
    n = 0
    i = start
    restart_trace_nb(hs)
    while i < stop and n + MAX_POINTS_PER_HAND <= rows.shape[0]:
        shuffle_deck_nb(hs, rng, seed, i)
        seat_streams_nb(rng, seed, i)
        start_hand_nb(board, rotating_dealer_nb(i, 2), rules, trace, i)
        # the first turn (the upcard offers, or the eleven-card deal's discard) is not
        # branched: play to the first free draw, then branch at each of seat a's discards.
        drive_nb(board, np.int64(PH_DRAW), np.int64(-1), params, rules, tab, rng, trace)
        while hs[ST_PHASE] < PH_OVER:
            drive_nb(board, np.int64(PH_DISCARD), np.int64(0), params, rules, tab, rng, trace)
            if hs[ST_PHASE] < PH_OVER:
                n = chart_turn_nb(buf, i, n, params, None, params, rules, tab)
        i += 1
    return n, i


@jit_inline
def copy_branch_nb(buf, mc_seat):
    """The position and its random streams into the branch, and what the mc seats
    remember when there is one (``mc_seat`` not None)."""
    copy_position_nb(buf.board.hs, buf.branch.hs, buf.rng, buf.branch_rng)
    if mc_seat is not None:
        copy_memory_nb(buf.mem, buf.branch_mem)


@jit_inline
def chart_discard_nb(buf, policy, mc_seat, best, rules, tab):
    """Seat a's discard in the actual hand, not applied: ``(kind, card, kept)``, as the
    ``policy`` rows choose (``best``: the position's best discard ``(kept deadwood, card,
    all melded)``, which they reuse), or with an mc seat by rollouts when it is seat a.
    Of ``policy`` and ``mc_seat`` one is None, so numba compiles only the other's code."""
    board, rng = buf.board, buf.rng
    hs = board.hs
    zero = np.int64(0)
    kind, discard, kept = zero, zero, zero
    if policy is not None:
        if hs[ST_PLANNED] != 0:
            kind, discard, kept = planned_discard_nb(hs)
        else:
            # The best discard also decides the actual turn (as the discard phase's
            # decision would, from the same pass).
            drawn = drawn_nb(hs[ST_HAND], 0, best[0], best[1], best[2])
            discard, kept, knock, big = after_draw_nb(policy, zero, drawn, board, rules, tab,
                                                      rng)
            kind = discard_kind_nb(knock, big)
    if mc_seat is not None:
        kind, discard, kept = mc_chart_discard_nb(buf, mc_seat, rules, tab)
    return kind, discard, kept


@jit
def mc_chart_discard_nb(buf, mc_seat, rules, tab):
    """:func:`chart_discard_nb` with an mc seat (not inlined, so that the plain chart
    never carries its code): by rollouts when seat a is the mc seat."""
    board, rng = buf.board, buf.rng
    zero = np.int64(0)
    mc, search = mc_seat
    if mc and board.hs[ST_PLANNED] == 0:
        return mc_discard_choice_nb(McPlay(board, rng, buf.trace, buf.mem, None), zero, search,
                                    np.bool_(True), rules, tab)
    return decide_discard_nb(buf.mem.rows, zero, board, rules, tab, rng)


@jit_inline
def chart_turn_nb(buf, i, n, policy, mc_seat, params, rules, tab):
    """Seat a's discard in hand ``i``, its draw made: at a decision point both branches
    into chart row ``n``, then the discard. ``policy``: the seats' rows when neither is
    an mc seat, else None; ``mc_seat``: None then, else ``(whether seat a is the mc seat,
    its search)``, the draw's search staying for the discard. numba compiles only the
    code of the one not None. Returns the next free row."""
    board, rows = buf.board, buf.rows
    memory = np.bool_(False)
    if policy is not None:
        memory = policy[0, P_MEMORY] >= 1
    point, kdw, kcard, all_melded = decision_point_nb(board, i, memory, rules, tab, rows, n)
    if point:
        copy_branch_nb(buf, mc_seat)
        rows[n, CH_NET_KNOCK] = branch_knock_nb(kdw, kcard, rules, tab, buf.branch)
        copy_branch_nb(buf, mc_seat)
        if policy is not None:
            rows[n, CH_NET_WAIT] = branch_wait_nb(policy, rules, tab, buf.branch,
                                                  buf.branch_rng, buf.trace, (kdw, kcard))
        if mc_seat is not None:
            rows[n, CH_NET_WAIT] = mc_branch_wait_nb(buf, mc_seat[0], mc_seat[1], params,
                                                     rules, tab)
    kind, discard, kept = chart_discard_nb(buf, policy, mc_seat, (kdw, kcard, all_melded),
                                           rules, tab)
    action = play_step_nb(board, kind, discard, kept, rules, buf.trace)
    if mc_seat is not None:
        discard_event_nb(np.int64(0), discard, buf.mem)
    if point:
        rows[n, CH_KNOCKED] = action == ACTION_KNOCK or action == ACTION_BIG_GIN
        return n + 1
    return n
