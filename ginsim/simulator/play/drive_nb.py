"""The plain driver: a hand played by the seats' strategies, one machine step at a time.

Contract: numba functions over the hand state (:mod:`ginsim.game.state`) that allocate
nothing. :func:`decide_nb` is the policy of plain strategy rows (``params``,
float64[2, P_SIZE], :mod:`ginsim.strategies.policy_nb`): the action of the seat to move
in the phase in front of it. :func:`drive_nb` is the loop every plain driver runs (the
hand loop, the games, the knock chart and its branches, the advisor's and the mc seat's
rollouts): ``while the hand is not over: step(board, decide(...))``, stopping early at a
phase a driver wants to branch at. The turn order is the machine's
(:func:`~ginsim.simulator.machine.step_nb.step_nb`), not this module's.

A pile take decides the discard too (:func:`pile_decision_nb` sees the 11 cards); the
decision keeps it in the hand state's plan fields for the discard phase. ``trace`` is
an int64[rows, TRACE_WIDTH] array that receives one row per turn while
``hs[ST_TRACE_ROW]`` is below its length (give it 0 rows to switch it off).
"""

import numpy as np
from numba.extending import overload

from ...game._jit import OVERLOAD_OPTIONS, is_mahjong_layout, jit, jit_inline
from ...game.rules import R_MAHJONG
from ...game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_KNOCK,
    A_PASS,
    A_PILE,
    A_STOCK,
    A_TAKE,
    PH_DISCARD,
    PH_DRAW,
    PH_LAST_DISCARD,
    PH_OFFER,
    PH_OVER,
    SOURCE_DEAL,
    SOURCE_PILE,
    ST_DRAWN,
    ST_FORBIDDEN,
    ST_HAND,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PLAN_BIG_GIN,
    ST_PLAN_DEADWOOD,
    ST_PLAN_DISCARD,
    ST_PLAN_KNOCK,
    ST_PLANNED,
    ST_SOURCE,
    ST_STOCK_ONLY,
    ST_TO_MOVE,
    ST_UPCARD,
)
from ...strategies.policy_nb import (
    choose_discard_nb,
    last_discard_decision_nb,
    pile_decision_nb,
)
from ..machine.board_nb import (
    drop_plan_nb,
    end_dead_nb,
    keep_plan_nb,
    pile_allowed_nb,
    trace_turn_nb,
)
from ..machine.deal_nb import deal_nb, offer_upcard_nb
from ..machine.mahjong_nb import mahjong_play_hand_nb
from ..machine.records import ACTION_DISCARD, ACTION_LAST_DISCARD
from ..machine.step_nb import apply_step_nb, step_nb

#: :func:`drive_nb`'s ``stop_phase`` that plays to the end of the hand.
TO_THE_END = -1


@jit_inline
def discard_kind_nb(knock, big_gin):
    """The action kind of a discard phase's choice."""
    if big_gin:
        return A_BIG_GIN
    return A_KNOCK if knock else A_DISCARD


@jit_inline
def decide_take_nb(params, seat, board, rules, tab, rng):
    """The upcard offer or a draw: whether ``seat``'s strategy takes the pile's top card
    (a take plans the discard the same decision chose). Returns whether it takes."""
    hs = board.hs
    drop_plan_nb(hs)
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    take, discard, dw, knock, big = pile_decision_nb(params, seat, hs[ST_HAND + seat], top,
                                                     board, rules, tab, rng)
    if take:
        keep_plan_nb(hs, discard, dw, knock, big)
    return take


@jit_inline
def planned_discard_nb(hs):
    """The discard phase after a pile take: ``(kind, card, kept)`` as the take planned
    it (:func:`~ginsim.simulator.machine.board_nb.keep_plan_nb`); the plan is used up."""
    drop_plan_nb(hs)
    return (discard_kind_nb(hs[ST_PLAN_KNOCK] != 0, hs[ST_PLAN_BIG_GIN] != 0),
            hs[ST_PLAN_DISCARD], hs[ST_PLAN_DEADWOOD])


@jit_inline
def decide_discard_nb(params, seat, board, rules, tab, rng):
    """The discard phase: ``(kind, card, kept)`` as planned by a pile take, else as
    ``seat``'s strategy chooses from its 11 cards."""
    hs = board.hs
    if hs[ST_PLANNED] != 0:
        return planned_discard_nb(hs)
    discard, dw, knock, big = choose_discard_nb(params, seat, hs[ST_HAND + seat],
                                                hs[ST_FORBIDDEN], board, rules, tab, rng)
    return discard_kind_nb(knock, big), discard, dw


@jit
def decide_last_discard_nb(params, seat, board, rules, tab):
    """The 50th-card turn: pass, or take the final discard to knock or go big gin."""
    hs = board.hs
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    take, discard, dw, knock, big = last_discard_decision_nb(params, seat, hs[ST_HAND + seat],
                                                             top, board, rules, tab)
    if not take:
        return A_PASS, -1, 0
    if big:
        return A_BIG_GIN, -1, 0
    return (A_KNOCK if knock else A_DISCARD), discard, dw


@jit_inline
def decide_nb(params, seat, board, rules, tab, rng):
    """The policy of plain strategy rows: ``(kind, card, kept)``, the action of
    ``seat`` (the seat to move) in the phase in front of it."""
    hs = board.hs
    phase = hs[ST_PHASE]
    if phase == PH_DISCARD:
        return decide_discard_nb(params, seat, board, rules, tab, rng)
    if phase == PH_DRAW or phase == PH_OFFER:
        # One call site for the pile decision: each inlined copy costs compile time.
        offer = phase == PH_OFFER
        if (offer or pile_allowed_nb(hs)) and decide_take_nb(params, seat, board, rules, tab,
                                                             rng):
            return (A_TAKE if offer else A_PILE), -1, 0
        drop_plan_nb(hs)
        return (A_PASS if offer else A_STOCK), -1, 0
    return decide_last_discard_nb(params, seat, board, rules, tab)


@jit_inline
def trace_step_nb(trace, hs, seat, phase, kind, card, status):
    """The trace row of a turn, once its discard phase (or the 50th-card take) is
    played: who, the draw's source and card, the discard and the action code."""
    if phase == PH_DISCARD:
        drawn = hs[ST_DRAWN]
        source = hs[ST_SOURCE] if drawn >= 0 else SOURCE_DEAL
        trace_turn_nb(trace, hs, seat, source, drawn, card, status)
    elif phase == PH_LAST_DISCARD and kind != A_PASS:
        trace_turn_nb(trace, hs, seat, SOURCE_PILE, hs[ST_DRAWN], card, ACTION_LAST_DISCARD)


@jit_inline
def at_stop_nb(hs, stop_phase, stop_seat):
    """Whether a driver asked to stop here: the phase ``stop_phase`` in front of
    ``stop_seat`` (any seat when negative), a choice (not the forced stock draw)."""
    return (hs[ST_PHASE] == stop_phase and (stop_seat < 0 or hs[ST_TO_MOVE] == stop_seat)
            and hs[ST_STOCK_ONLY] == 0)


@jit_inline
def play_step_nb(board, kind, card, kept, rules, trace):
    """Apply the seat to move's action and trace it; a refused action ends the hand
    dead. Returns the machine's status."""
    hs = board.hs
    seat = hs[ST_TO_MOVE]
    phase = hs[ST_PHASE]
    status = step_nb(hs, seat, kind, card, kept, rules)
    trace_step_nb(trace, hs, seat, phase, kind, card, status)
    if status < 0:  # a strategy's bug: the hand ends dead rather than loop
        end_dead_nb(hs)
    return status


@jit
def drive_nb(board, stop_phase, stop_seat, params, rules, tab, rng, trace):
    """Play the hand on ``board`` by the strategies' decisions until it ends, or until
    the phase ``stop_phase`` is in front of ``stop_seat`` (:func:`at_stop_nb`;
    ``TO_THE_END`` never stops)."""
    hs = board.hs
    while hs[ST_PHASE] < PH_OVER and not at_stop_nb(hs, stop_phase, stop_seat):
        seat = hs[ST_TO_MOVE]
        kind, card, kept = decide_nb(params, seat, board, rules, tab, rng)
        play_step_nb(board, kind, card, kept, rules, trace)


@jit
def start_hand_nb(board, dealer, rules, trace, hand_id):
    """Deal the deck in ``board.hs`` and trace the deal."""
    hs = board.hs
    deal_nb(hs, dealer, rules, hand_id)
    trace_turn_nb(trace, hs, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD)


@jit
def play_hand_nb(board, dealer, params, rules, tab, rng, trace, hand_id):
    """Deal the deck in ``board.hs`` and play the hand to its end (not scored); Mahjong
    gin's rules play Mahjong gin's hand."""
    play_by_rules(board, dealer, params, rules, tab, rng, trace, hand_id)


def play_by_rules(board, dealer, params, rules, tab, rng, trace, hand_id):
    """Knocking gin's hand by the plain driver, or Mahjong gin's for its rules (chosen
    when compiling, :func:`~ginsim.game._jit.is_mahjong_layout`)."""
    raise NotImplementedError("called from numba kernels only")


@overload(play_by_rules, inline="always", jit_options=OVERLOAD_OPTIONS)
def _play_by_rules(board, dealer, params, rules, tab, rng, trace, hand_id):
    if is_mahjong_layout(rules):
        def mahjong(board, dealer, params, rules, tab, rng, trace, hand_id):
            mahjong_play_hand_nb(board, dealer, params, rules, tab, rng, trace, hand_id)
        return mahjong

    def knocking(board, dealer, params, rules, tab, rng, trace, hand_id):
        start_hand_nb(board, dealer, rules, trace, hand_id)
        if rules[R_MAHJONG] != 0:  # Mahjong rules packed by hand, not by Rules.packed
            end_dead_nb(board.hs)
            return
        drive_nb(board, np.int64(TO_THE_END), np.int64(-1), params, rules, tab, rng, trace)
    return knocking


@jit
def pass_upcard_nb(board, seat, rules):
    """In a constructed position (a world of the advisor or the mc seat's rollouts):
    the upcard ``hs[ST_UPCARD]`` is offered to ``seat``, who declines it."""
    hs = board.hs
    offer_upcard_nb(hs, seat)
    return apply_step_nb(hs, seat, A_PASS, hs[ST_UPCARD], 0, rules)
