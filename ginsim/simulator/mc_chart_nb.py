"""The knock chart with mc seats: :func:`~ginsim.simulator.chart_nb.knock_chart_nb`'s
decision points and branches, played through the mc hand loop's turns.

Contract as in :mod:`ginsim.simulator.phases_nb`. Each branch is a copy of the position
and of the mc scratch the belief reads (the events, the guesses made at seat a's draw,
the phases' rows), so in the wait branch an mc seat a discards by rollouts without
knocking and both seats play on exactly as the hand loop would play them.
"""

import numpy as np

from ..game._jit import jit
from ..game.state import ST_ENDING, ST_TRACE_ROW
from ..strategies.params import P_MC_MARGIN
from .chart_nb import (
    CH_KNOCKED,
    CH_NET_KNOCK,
    CH_NET_WAIT,
    MAX_POINTS_PER_HAND,
    branch_knock_nb,
    decision_point_nb,
    wait_discard_nb,
)
from .mc_nb import (
    MC_EVENTS,
    MC_VALUES,
    discard_event_nb,
    is_mc_nb,
    mc_discard_nb,
    mc_draw_nb,
    mc_first_turn_nb,
    mc_play_on_nb,
    phase_rows_nb,
    plain_draw_nb,
    rows_nb,
    turn_nb,
)
from .phases_nb import (
    copy_position_nb,
    deal_nb,
    discard_nb,
    net_points_nb,
    seat_streams_nb,
    showdown_nb,
    shuffle_deck_nb,
)
from .records import ACTION_BIG_GIN, ACTION_KNOCK


@jit
def copy_mc_position_nb(hs, branch, rng, branch_rng):
    """The position, its random streams and the mc scratch the next choices read."""
    copy_position_nb(hs, branch, rng, branch_rng)
    for i in range(MC_EVENTS, MC_VALUES):
        branch[i] = hs[i]


@jit
def mc_knock_chart_nb(seed, start, stop, params, rules, tab, rows, trace, hs, branch, rng,
                      branch_rng):
    """:func:`~ginsim.simulator.chart_nb.knock_chart_nb` for rows with an mc seat; ``hs``
    and ``branch`` hold ``MC_END`` slots. Returns ``(rows, next hand)``."""
    n = 0
    i = start
    hs[ST_TRACE_ROW] = 0
    mc = is_mc_nb(params, 0)
    # seats and flags as plain values: numba compiles a callee once per literal argument
    zero, one, yes, no = np.int64(0), np.int64(1), np.bool_(True), np.bool_(False)
    while i < stop and n + MAX_POINTS_PER_HAND <= rows.shape[0]:
        shuffle_deck_nb(hs, rng, seed, i)
        seat_streams_nb(rng, seed, i)
        phase_rows_nb(hs, params)
        deal_nb(hs, i % 2, rules, i)
        seat, n_ev = mc_first_turn_nb(hs, params, rules, tab, rng, trace)
        while hs[ST_ENDING] < 0:
            if seat == 1:
                n_ev = turn_nb(hs, one, yes, params, n_ev, rules, tab, rng, trace)
                seat = 0
                continue
            # key is a stream key: a plain 0 would unify it with float64
            particles, unseen, key, rollouts, exclude = 0, 0, np.uint64(0), 0, 0
            if mc:
                _, n_ev, particles, unseen, key, rollouts, exclude = mc_draw_nb(
                    hs, zero, yes, params, n_ev, rules, tab, rng, trace[:0])
            else:
                _, n_ev = plain_draw_nb(hs, zero, yes, rows_nb(hs, 0), n_ev, rules, tab, rng)
            point, kdw, kcard, _ = decision_point_nb(hs, i, no, rules, tab, rows, n)
            if point:
                copy_mc_position_nb(hs, branch, rng, branch_rng)
                rows[n, CH_NET_KNOCK] = branch_knock_nb(kdw, kcard, rules, tab, branch)
                copy_mc_position_nb(hs, branch, rng, branch_rng)
                if mc:
                    card, _ = mc_discard_nb(branch, zero, particles, unseen, exclude, key,
                                            rollouts, params[0, P_MC_MARGIN], no, rules,
                                            tab, branch_rng, trace[:0])
                else:
                    card = wait_discard_nb(rows_nb(branch, 0), rules, tab, branch, branch_rng)
                mc_play_on_nb(branch, one, params, discard_event_nb(branch, zero, card, n_ev),
                              rules, tab, branch_rng, trace[:0])
                showdown_nb(branch, rules, tab)
                rows[n, CH_NET_WAIT] = net_points_nb(branch, 0)
            if mc:
                discard, action = mc_discard_nb(hs, zero, particles, unseen, exclude, key,
                                                rollouts, params[0, P_MC_MARGIN], yes, rules,
                                                tab, rng, trace[:0])
            else:
                discard, action = discard_nb(hs, zero, rows_nb(hs, 0), rules, tab, rng)
            n_ev = discard_event_nb(hs, zero, discard, n_ev)
            if point:
                rows[n, CH_KNOCKED] = action == ACTION_KNOCK or action == ACTION_BIG_GIN
                n += 1
            seat = 1
        if hs[ST_ENDING] >= 0:
            mc_play_on_nb(hs, seat, params, n_ev, rules, tab, rng, trace)
        i += 1
    return n, i
