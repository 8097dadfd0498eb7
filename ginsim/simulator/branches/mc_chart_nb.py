"""The knock chart with mc seats: :func:`~ginsim.simulator.branches.chart_nb.knock_chart_nb`'s
hands played through the mc hand loop's turns, each of seat a's discards by the chart's
one turn (:func:`~ginsim.simulator.branches.chart_nb.chart_turn_nb`) given the mc seat.

Contract as in :mod:`ginsim.simulator.play.drive_nb`. Each branch is a copy of the position
and of what the mc seat remembers (:func:`~ginsim.simulator.search.mc_memory_nb.copy_memory_nb`:
the events, the guesses made at seat a's draw, the phases' rows), so in the wait branch
an mc seat a discards by rollouts without knocking and both seats play on exactly as the
hand loop would play them.
"""

import numpy as np

from ...game._jit import jit
from ...game.rng_nb import rotating_dealer_nb
from ...game.state import PH_DISCARD, PH_DRAW, PH_OVER, ST_PHASE
from ..machine.board_nb import restart_trace_nb
from ..machine.deal_nb import seat_streams_nb, shuffle_deck_nb
from ..search.mc_memory_nb import is_mc_nb
from ..search.mc_nb import McPlay, mc_drive_nb, mc_start_hand_nb, no_search_nb
from .chart_nb import MAX_POINTS_PER_HAND, chart_turn_nb


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
        play = McPlay(board, rng, trace, mem, None)
        search = mc_drive_nb(play, np.int64(PH_DRAW), np.int64(-1), no_search_nb(), params,
                             rules, tab)
        while hs[ST_PHASE] < PH_OVER:
            search = mc_drive_nb(play, np.int64(PH_DISCARD), np.int64(0), search, params,
                                 rules, tab)
            if hs[ST_PHASE] >= PH_OVER:
                break
            n = chart_turn_nb(buf, i, n, None, (mc, search), params, rules, tab)
        i += 1
    return n, i
