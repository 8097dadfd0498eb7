"""The knock chart with mc seats: :func:`~ginsim.simulator.chart_nb.knock_chart_nb`'s
decision points and branches, played through the mc hand loop's turns.

Contract as in :mod:`ginsim.simulator.phases_nb`. Each branch is a copy of the position
and of the mc scratch the belief reads (the events, the guesses made at seat a's draw,
the phases' rows), so in the wait branch an mc seat a discards by rollouts without
knocking and both seats play on exactly as the hand loop would play them.
"""

import numpy as np

from ..game._jit import jit
from ..game.melds_nb import best_discard_nb
from ..game.rules import R_BIG_GIN_BONUS
from ..game.state import (
    ST_DEALER,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PILE_TAKES,
    ST_POS,
    ST_TRACE_ROW,
    ST_TURNS,
)
from ..strategies.params import P_MC_MARGIN, P_MEMORY
from ..strategies.policy_nb import discard_without_knock_nb
from .chart_nb import (
    CH_DEADWOOD,
    CH_DEALER,
    CH_HAND,
    CH_KNOCK_LIMIT,
    CH_KNOCKED,
    CH_NET_KNOCK,
    CH_NET_WAIT,
    CH_OPP_TAKEN,
    CH_STOCK_LEFT,
    CH_TURN,
    MAX_POINTS_PER_HAND,
    branch_knock_nb,
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
    apply_discard_nb,
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
    while i < stop and n + MAX_POINTS_PER_HAND <= rows.shape[0]:
        shuffle_deck_nb(hs, rng, seed, i)
        seat_streams_nb(rng, seed, i)
        phase_rows_nb(hs, params)
        deal_nb(hs, i % 2, rules, i)
        seat, n_ev = mc_first_turn_nb(hs, params, rules, tab, rng, trace)
        while hs[ST_ENDING] < 0:
            if seat == 1:
                n_ev = turn_nb(hs, 1, True, params, n_ev, rules, tab, rng, trace)
                seat = 0
                continue
            # key is a stream key: a plain 0 would unify it with float64
            particles, unseen, key, rollouts, exclude = 0, 0, np.uint64(0), 0, 0
            if mc:
                _, n_ev, particles, unseen, key, rollouts, exclude = mc_draw_nb(
                    hs, 0, True, params, n_ev, rules, tab, rng, trace[:0])
            else:
                _, n_ev = plain_draw_nb(hs, 0, True, rows_nb(hs, 0), n_ev, rules, tab, rng)
            kdw, kcard, _, all_melded = best_discard_nb(hs[ST_HAND], hs[ST_FORBIDDEN], 0, tab,
                                                        hs, False)
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
                copy_mc_position_nb(hs, branch, rng, branch_rng)
                rows[n, CH_NET_KNOCK] = branch_knock_nb(kdw, kcard, rules, tab, branch)
                copy_mc_position_nb(hs, branch, rng, branch_rng)
                if mc:
                    card, _ = mc_discard_nb(branch, 0, particles, unseen, exclude, key,
                                            rollouts, params[0, P_MC_MARGIN], False, rules,
                                            tab, branch_rng, trace[:0])
                else:
                    prow = rows_nb(branch, 0)
                    hand = branch[ST_HAND]
                    forbidden = branch[ST_FORBIDDEN]
                    dw, card, _, _ = best_discard_nb(hand, forbidden, 0, tab, branch,
                                                     prow[0, P_MEMORY] >= 1)
                    card, dw = discard_without_knock_nb(prow, 0, hand, forbidden, dw, card,
                                                        branch, tab, branch_rng)
                    apply_discard_nb(branch, 0, card, dw, False, False, rules)
                mc_play_on_nb(branch, 1, params, discard_event_nb(branch, 0, card, n_ev), rules,
                              tab, branch_rng, trace[:0])
                showdown_nb(branch, rules, tab)
                rows[n, CH_NET_WAIT] = net_points_nb(branch, 0)
            if mc:
                discard, action = mc_discard_nb(hs, 0, particles, unseen, exclude, key,
                                                rollouts, params[0, P_MC_MARGIN], True, rules,
                                                tab, rng, trace[:0])
            else:
                discard, action = discard_nb(hs, 0, rows_nb(hs, 0), rules, tab, rng)
            n_ev = discard_event_nb(hs, 0, discard, n_ev)
            if point:
                rows[n, CH_KNOCKED] = action == ACTION_KNOCK or action == ACTION_BIG_GIN
                n += 1
            seat = 1
        if hs[ST_ENDING] >= 0:
            mc_play_on_nb(hs, seat, params, n_ev, rules, tab, rng, trace)
        i += 1
    return n, i
