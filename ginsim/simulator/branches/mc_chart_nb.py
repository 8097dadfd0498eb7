"""The knock chart with mc seats: :func:`~ginsim.simulator.branches.chart_nb.knock_chart_nb`'s
decision points and branches, played through the mc hand loop's turns.

Contract as in :mod:`ginsim.simulator.play.drive_nb`. Each branch is a copy of the position
and of what the mc seat remembers (:func:`~ginsim.simulator.search.mc_memory_nb.copy_memory_nb`:
the events, the guesses made at seat a's draw, the phases' rows), so in the wait branch
an mc seat a discards by rollouts without knocking and both seats play on exactly as the
hand loop would play them.
"""

import numpy as np

from ...game._jit import jit, jit_inline
from ...game.rng_nb import rotating_dealer_nb
from ...game.state import PH_DISCARD, PH_DRAW, PH_OVER, ST_PHASE, ST_PLANNED
from ..machine.board_nb import restart_trace_nb
from ..machine.deal_nb import copy_position_nb, seat_streams_nb, shuffle_deck_nb
from ..machine.records import ACTION_BIG_GIN, ACTION_KNOCK
from ..machine.showdown_nb import net_points_nb, showdown_nb
from ..play.drive_nb import TO_THE_END, decide_discard_nb, play_step_nb
from ..search.mc_memory_nb import copy_memory_nb, discard_event_nb, is_mc_nb
from ..search.mc_nb import (
    McPlay,
    mc_discard_choice_nb,
    mc_discard_nb,
    mc_drive_nb,
    mc_start_hand_nb,
    no_search_nb,
)
from .chart_nb import (
    CH_KNOCKED,
    CH_NET_KNOCK,
    CH_NET_WAIT,
    MAX_POINTS_PER_HAND,
    branch_knock_nb,
    decision_point_nb,
    wait_discard_nb,
)


@jit
def copy_mc_position_nb(buf):
    """The position, its random streams and what the mc seats remember, into the
    branch."""
    copy_position_nb(buf.board.hs, buf.branch.hs, buf.rng, buf.branch_rng)
    copy_memory_nb(buf.mem, buf.branch_mem)


@jit_inline
def wait_branch_nb(buf, mc, search, params, rules, tab):
    """The wait branch of a decision point (seat a drew, its events recorded): a
    discards without knocking (by rollouts if it is the mc seat), both play on; returns
    a's net points."""
    copy_mc_position_nb(buf)
    branch, branch_rng, mem = buf.branch, buf.branch_rng, buf.branch_mem
    zero = np.int64(0)
    if mc:
        card, _ = mc_discard_nb(branch, zero, search, np.bool_(False), rules, tab, branch_rng,
                                mem)
    else:
        card = wait_discard_nb(mem.rows, rules, tab, branch, branch_rng, (0, -1))
    discard_event_nb(zero, card, mem)
    mc_drive_nb(McPlay(branch, branch_rng, mem.empty_trace, mem), np.int64(TO_THE_END),
                np.int64(-1), search, params, rules, tab)
    showdown_nb(branch, rules, tab)
    return net_points_nb(branch.hs, np.int64(0))


@jit_inline
def chart_turn_nb(buf, i, n, mc, search, params, rules, tab):
    """Seat a's discard in hand ``i``, its draw made (by rollouts when it is the mc seat,
    whose ``search`` stays for the discard): at a decision point both branches into chart
    row ``n``, then the discard. Returns the next free row."""
    board, rng, mem, rows, trace = buf.board, buf.rng, buf.mem, buf.rows, buf.trace
    zero, yes, no = np.int64(0), np.bool_(True), np.bool_(False)
    point, kdw, kcard, _ = decision_point_nb(board, i, no, rules, tab, rows, n)
    if point:
        copy_mc_position_nb(buf)
        rows[n, CH_NET_KNOCK] = branch_knock_nb(kdw, kcard, rules, tab, buf.branch)
        rows[n, CH_NET_WAIT] = wait_branch_nb(buf, mc, search, params, rules, tab)
    if mc and board.hs[ST_PLANNED] == 0:
        kind, discard, kept = mc_discard_choice_nb(board, zero, search, yes, rules, tab, rng, mem)
    else:
        kind, discard, kept = decide_discard_nb(mem.rows, zero, board, rules, tab, rng)
    action = play_step_nb(board, kind, discard, kept, rules, trace)
    discard_event_nb(zero, discard, mem)
    if point:
        rows[n, CH_KNOCKED] = action == ACTION_KNOCK or action == ACTION_BIG_GIN
        return n + 1
    return n


@jit
def mc_knock_chart_nb(seed, start, stop, params, rules, tab, buf):
    """:func:`~ginsim.simulator.branches.chart_nb.knock_chart_nb` for rows with an mc
    seat, on :class:`~ginsim.simulator.machine.buffers.ChartBuffers`. Returns ``(rows,
    next hand)``."""
    board, rng, trace, mem = buf.board, buf.rng, buf.trace, buf.mem
    hs = board.hs
    n = 0
    i = start
    restart_trace_nb(hs)
    mc = is_mc_nb(params, np.int64(0))
    while i < stop and n + MAX_POINTS_PER_HAND <= buf.rows.shape[0]:
        shuffle_deck_nb(hs, rng, seed, i)
        seat_streams_nb(rng, seed, i)
        mc_start_hand_nb(board, rotating_dealer_nb(i, 2), params, rules, trace, mem, i)
        # the first turn is not branched (as knock_chart_nb)
        play = McPlay(board, rng, trace, mem)
        search = mc_drive_nb(play, np.int64(PH_DRAW), np.int64(-1), no_search_nb(), params,
                             rules, tab)
        while hs[ST_PHASE] < PH_OVER:
            search = mc_drive_nb(play, np.int64(PH_DISCARD), np.int64(0), search, params,
                                 rules, tab)
            if hs[ST_PHASE] >= PH_OVER:
                break
            n = chart_turn_nb(buf, i, n, mc, search, params, rules, tab)
        i += 1
    return n, i
