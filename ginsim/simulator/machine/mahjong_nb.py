"""Mahjong gin's moves, its step and its hand (docs/rules.md §8.8), on the machine of
:mod:`ginsim.simulator.machine.step_nb`.

Contract as in :mod:`ginsim.simulator.play.drive_nb`, whose board moves these call (the
deal, the stock draw, the pile top, the discard and the trace). The table's melds,
the card a multi-card take obliges its taker to lay and the hand's pile counters live
in the hand state (``ST_TABLE`` .. ``ST_MAX_PILE_TAKE``); the moves that plan or score
take the hand state with its scratch as a :class:`~ginsim.game.state.Board`.

The moves: :func:`take_pile_nb` (``depth`` cards from the top of the pile) or
``draw_stock_nb``; any number of :func:`lay_meld_nb` and :func:`extend_meld_nb`; then
:func:`mahjong_discard_nb` or, where the rules allow, :func:`go_out_nb`. Each checks its
move and returns ``OK`` or an ``ERR_*`` code without changing the position when the
move is illegal. :func:`mahjong_step_nb` is the machine's step for them: an action
``(kind, card, kept)`` of :data:`~ginsim.game.state.ACTION_KINDS` applied in the phase
in front of the seat to move, ``card`` and ``kept`` carrying what the kind needs:

==============  ==========  ======  ==================================================
kind            phase       card    kept
==============  ==========  ======  ==================================================
``A_PILE``      PH_DRAW     -1      the depth: how many cards from the pile's top
``A_STOCK``     PH_DRAW     -1      0 (the pile's top, if any, is declined: passed)
``A_MELD``      PH_DISCARD  -1      the meld laid from the hand, a card mask
``A_EXTEND``    PH_DISCARD  slot    the cards laid onto table meld ``slot``, a mask
``A_DISCARD``   PH_DISCARD  card    0 (with the hand then empty, the seat goes out)
``A_BIG_GIN``   PH_DISCARD  -1      0 (going out without a discard, every card laid)
==============  ==========  ======  ==================================================

The phases move as in knocking gin (:mod:`ginsim.simulator.machine.board_nb`): the deal
leaves the non-dealer in ``PH_DRAW`` (the upcard alone on the pile: no offer, a take of
it is a draw) or, with the eleven-card deal, in ``PH_DISCARD``; a draw leaves its seat
in ``PH_DISCARD``, where melds and extensions keep it; the discard passes ``PH_DRAW`` to
the other seat or ends the hand dead at the stock floor (``PH_DEAD``); going out ends
it (``PH_OVER``). :func:`mahjong_decide_nb` is the strategies' policy (decisions of
:mod:`ginsim.strategies.mahjong_policy_nb`): the draw, then the turn's plan one lay a
step, then the discard or going out. :func:`mahjong_play_hand_nb` deals and plays a hand
as the loop ``while not over: step(board, policy(...))``; :func:`mahjong_showdown_nb`
scores it. A player who goes out ends the hand as a knock at 0 deadwood (the trace's action is
``ACTION_KNOCK``, or ``ACTION_BIG_GIN`` without a final discard).
"""

from ...game._jit import jit
from ...game.melds_nb import W_MELDS, mask_value_nb, max_meld_value_any_nb
from ...game.rules import R_GIN_BONUS, R_MJ_DISCARD_OUT, R_MJ_FINAL_MELD
from ...game.scoring.hand_scoring_nb import OUT_DEAD, OUT_GIN
from ...game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_EXTEND,
    A_MELD,
    A_PILE,
    A_STOCK,
    ENDING_DEAD,
    ENDING_KNOCK,
    MJ_TABLE_SLOTS,
    PH_DISCARD,
    PH_DRAW,
    PH_OFFER,
    PH_OVER,
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_MAX_PILE_TAKE,
    RES_OUTCOME,
    RES_PILE_CARDS,
    RES_POINTS,
    RES_STOCK_LEFT,
    SOURCE_DEAL,
    ST_DRAWN,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_DEADWOOD,
    ST_KNOCKER,
    ST_MAX_PILE_TAKE,
    ST_MUST_LAY,
    ST_PASSED,
    ST_PHASE,
    ST_PILE,
    ST_PILE_CARDS,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PLAN_DEADWOOD,
    ST_PLAN_DISCARD,
    ST_PLANNED,
    ST_POS,
    ST_SOURCE,
    ST_TABLE,
    ST_TABLE_N,
    ST_TAKEN,
    ST_TO_MOVE,
    ST_TURNS,
    ST_UPCARD_TAKEN,
)
from ...strategies.mahjong_plan_nb import is_meld_nb, plan_work_nb
from ...strategies.mahjong_policy_nb import plan_turn_nb, take_options_nb
from .board_nb import apply_discard_nb, draw_stock_nb, pile_top_nb, take_pile_top_nb, trace_turn_nb
from .deal_nb import deal_nb
from .errors import (
    ERR_DEPTH,
    ERR_FORBIDDEN,
    ERR_MUST_LAY,
    ERR_NOT_HELD,
    ERR_NOT_MELD,
    ERR_NOT_OUT,
    ERR_PHASE,
    ERR_SLOT,
    ERR_TURN,
    OK,
)
from .mahjong_legal_nb import take_error_nb
from .records import ACTION_BIG_GIN, ACTION_DISCARD, ACTION_KNOCK

# The turn's plan between its steps (:func:`mahjong_decide_nb`), kept in the hand state's
# plan fields, which knocking gin uses between a pile take and its discard: the plan's
# candidates themselves stay in the board's meld and plan scratch (``W_MELDS``, the
# ``PlanWork`` views ``n``, ``plan`` and ``slot``), which no step touches.
ST_MJ_PLANNED = ST_PLANNED  # 1 once this turn's plan is made, until its discard
ST_MJ_DISCARD = ST_PLAN_DISCARD  # the plan's discard (-1: go out without one)
ST_MJ_NEXT = ST_PLAN_DEADWOOD  # the plan's next entry to lay (an index into ``plan``)


@jit
def deal_mahjong_nb(hs, dealer, rules, hand_id):
    """Deal as :func:`deal_nb` and clear the table and the pile counters. Mahjong gin
    offers no upcard: the non-dealer's first move is a draw (the upcard, alone on the
    pile, is a take like any other), or with the eleven-card deal its discard."""
    deal_nb(hs, dealer, rules, hand_id)
    for i in range(ST_TABLE, ST_MAX_PILE_TAKE + 1):
        hs[i] = 0
    if hs[ST_PHASE] == PH_OFFER:
        hs[ST_PHASE] = PH_DRAW


@jit
def take_pile_nb(board, seat, depth, rules, tab):
    """``seat`` takes the top ``depth`` cards of the pile (a draw). With two or more,
    the lowest must be laid this turn, so a take whose lowest card cannot be laid
    from the hand and the cards taken (or onto the table) is refused, and so is one
    that leaves no legal way to finish the turn (laying it, then discarding a card not
    taken, or going out): :func:`~ginsim.simulator.machine.mahjong_legal_nb.take_error_nb`."""
    err = take_error_nb(board, seat, depth, rules, tab)
    if err != OK:
        return err
    hs = board.hs
    n = hs[ST_PILE_LEN]
    low = hs[ST_PILE + n - depth]
    cards = 0
    for i in range(n - depth, n):
        cards |= 1 << hs[ST_PILE + i]
    must = (1 << low) if depth > 1 else 0
    take_pile_top_nb(hs, seat)  # the top card: a draw and a take
    for _ in range(depth - 1):
        hs[ST_PILE_LEN] -= 1
    hs[ST_PILE_MASK] &= ~cards
    hs[ST_HAND + seat] |= cards
    hs[ST_TAKEN + seat] |= cards
    hs[ST_FORBIDDEN] = cards
    hs[ST_MUST_LAY] = must
    hs[ST_PILE_CARDS] += depth
    hs[ST_MAX_PILE_TAKE] = max(hs[ST_MAX_PILE_TAKE], depth)
    return OK


@jit
def _lay_cards_nb(hs, seat, cards):
    hs[ST_HAND + seat] &= ~cards
    hs[ST_TAKEN + seat] &= ~cards
    hs[ST_MUST_LAY] &= ~cards


@jit
def lay_meld_nb(hs, seat, meld, tab):
    """``seat`` lays the meld ``meld`` from its hand face up on the table."""
    if meld == 0 or meld & ~hs[ST_HAND + seat]:
        return ERR_NOT_HELD
    if not is_meld_nb(meld, tab):
        return ERR_NOT_MELD
    if hs[ST_TABLE_N] >= MJ_TABLE_SLOTS:
        return ERR_SLOT
    hs[ST_TABLE + hs[ST_TABLE_N]] = meld
    hs[ST_TABLE_N] += 1
    _lay_cards_nb(hs, seat, meld)
    return OK


@jit
def extend_meld_nb(hs, seat, slot, cards, tab):
    """``seat`` lays ``cards`` from its hand onto table meld ``slot`` (either player's)."""
    if slot < 0 or slot >= hs[ST_TABLE_N]:
        return ERR_SLOT
    if cards == 0 or cards & ~hs[ST_HAND + seat]:
        return ERR_NOT_HELD
    if not is_meld_nb(hs[ST_TABLE + slot] | cards, tab):
        return ERR_NOT_MELD
    hs[ST_TABLE + slot] |= cards
    _lay_cards_nb(hs, seat, cards)
    return OK


@jit
def _went_out_nb(hs, seat):
    hs[ST_ENDING] = ENDING_KNOCK
    hs[ST_KNOCKER] = seat
    hs[ST_KNOCK_DEADWOOD] = 0
    hs[ST_PHASE] = PH_OVER
    hs[ST_TO_MOVE] = -1


@jit
def mahjong_discard_nb(hs, seat, card, rules):
    """``seat`` discards ``card``; with its hand then empty it goes out. Returns an
    ``ACTION_*`` code (``ACTION_KNOCK`` for going out), or ``-ERR_*`` if refused."""
    if hs[ST_MUST_LAY] != 0:
        return -ERR_MUST_LAY
    if card < 0 or card > 51 or (hs[ST_HAND + seat] >> card) & 1 == 0:
        return -ERR_NOT_HELD
    if (hs[ST_FORBIDDEN] >> card) & 1:
        return -ERR_FORBIDDEN
    action = apply_discard_nb(hs, seat, card, 0, False, False, rules)
    if hs[ST_HAND + seat] == 0:
        _went_out_nb(hs, seat)
        return ACTION_KNOCK
    return action


@jit
def go_out_nb(hs, seat, rules):
    """``seat``, with every card laid, goes out without a discard (when the rules
    allow it). Returns ``ACTION_BIG_GIN`` or ``-ERR_*``."""
    if hs[ST_MUST_LAY] != 0:
        return -ERR_MUST_LAY
    if hs[ST_HAND + seat] != 0 or rules[R_MJ_DISCARD_OUT] != 0:
        return -ERR_NOT_OUT
    _went_out_nb(hs, seat)
    return ACTION_BIG_GIN


@jit
def _draw_nb(board, seat, kind, depth, rules, tab):
    """The draw phase's move: a take of ``depth`` pile cards (the first of the hand's
    draws marks the upcard taken) or the stock's top card (declining the pile's top)."""
    hs = board.hs
    if kind == A_PILE:
        first = hs[ST_TURNS] == 0
        err = take_pile_nb(board, seat, depth, rules, tab)
        if err != OK:
            return -err
        if first:
            hs[ST_UPCARD_TAKEN] = 1
        return OK
    if kind != A_STOCK:
        return -ERR_PHASE
    if hs[ST_POS] >= 52:
        return -ERR_DEPTH
    top = pile_top_nb(hs)
    if top >= 0:
        hs[ST_PASSED + seat] |= 1 << top
    hs[ST_MUST_LAY] = 0
    draw_stock_nb(hs, seat)
    return OK


@jit
def mahjong_step_nb(board, seat, kind, card, kept, rules, tab):
    """Apply ``seat``'s action ``(kind, card, kept)`` (the table in the module doc) and
    move the phase on. Returns ``OK`` (a draw or a lay) or the ``ACTION_*`` code of the
    discard or going out (>= 0), or ``-ERR_*`` with the position unchanged when the
    action is not one of this phase's, out of turn or illegal."""
    hs = board.hs
    phase = hs[ST_PHASE]
    if phase != PH_DRAW and phase != PH_DISCARD:
        return -ERR_PHASE
    if seat != hs[ST_TO_MOVE]:
        return -ERR_TURN
    if phase == PH_DRAW:
        return _draw_nb(board, seat, kind, kept, rules, tab)
    if kind == A_MELD:
        return -lay_meld_nb(hs, seat, kept, tab)
    if kind == A_EXTEND:
        return -extend_meld_nb(hs, seat, card, kept, tab)
    if kind == A_DISCARD:
        return mahjong_discard_nb(hs, seat, card, rules)
    if kind == A_BIG_GIN:
        return go_out_nb(hs, seat, rules)
    return -ERR_PHASE


@jit
def _plan_step_nb(params, seat, board, rules, tab, rng):
    """The discard phase's next action of ``seat``'s plan: the plan is made once, on the
    phase's first step (:func:`~ginsim.strategies.mahjong_policy_nb.plan_turn_nb`); then
    its melds and extensions one a step, in its order, then its discard or going out."""
    hs, plan = board.hs, plan_work_nb(board.plan)
    if hs[ST_MJ_PLANNED] == 0:
        discard, _ = plan_turn_nb(params, seat, board, rules, tab, rng)
        hs[ST_MJ_PLANNED] = 1
        hs[ST_MJ_DISCARD] = discard
        hs[ST_MJ_NEXT] = 0
    j = hs[ST_MJ_NEXT]
    if j < plan.n[0]:
        hs[ST_MJ_NEXT] = j + 1
        i = plan.plan[j]
        slot = plan.slot[i]
        if slot < 0:
            return A_MELD, -1, board.work[W_MELDS + i]
        return A_EXTEND, slot, board.work[W_MELDS + i]
    hs[ST_MJ_PLANNED] = 0
    discard = hs[ST_MJ_DISCARD]
    if discard < 0:
        return A_BIG_GIN, -1, 0
    return A_DISCARD, discard, 0


@jit
def mahjong_decide_nb(params, seat, board, rules, tab, rng):
    """The policy of plain strategy rows under Mahjong gin: ``(kind, card, kept)``, the
    action of ``seat`` (the seat to move) in the phase in front of it. The draw is the
    depth :func:`~ginsim.strategies.mahjong_policy_nb.take_options_nb` chooses (0: the
    stock); the discard phase follows the turn's plan (:func:`_plan_step_nb`)."""
    hs = board.hs
    if hs[ST_PHASE] == PH_DRAW:
        hs[ST_MJ_PLANNED] = 0
        depth = take_options_nb(params, seat, board, rules, tab, rng)
        if depth > 0:
            return A_PILE, -1, depth
        return A_STOCK, -1, 0
    return _plan_step_nb(params, seat, board, rules, tab, rng)


@jit
def trace_mahjong_nb(trace, hs, seat, kind, card, status):
    """The trace row of a turn, once its discard or going out is played: who, the draw's
    source and card (none on the eleven-card deal's first turn), the discard and the
    action code."""
    if status >= 0 and (kind == A_DISCARD or kind == A_BIG_GIN):
        drawn = hs[ST_DRAWN]
        source = hs[ST_SOURCE] if drawn >= 0 else SOURCE_DEAL
        trace_turn_nb(trace, hs, seat, source, drawn, card, status)


@jit
def mahjong_play_hand_nb(board, dealer, params, rules, tab, rng, trace, hand_id):
    """Deal the deck in ``board.hs`` and play a hand of Mahjong gin to its end (not
    scored): ``while not over: step(board, policy(...))``, the turn order being the
    phases the steps leave. A refused action is a strategy's bug, raised."""
    hs = board.hs
    deal_mahjong_nb(hs, dealer, rules, hand_id)
    trace_turn_nb(trace, hs, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD)
    while hs[ST_PHASE] < PH_OVER:
        seat = hs[ST_TO_MOVE]
        kind, card, kept = mahjong_decide_nb(params, seat, board, rules, tab, rng)
        status = mahjong_step_nb(board, seat, kind, card, kept, rules, tab)
        if status < 0:
            raise ValueError("a Mahjong gin strategy chose an illegal action")
        trace_mahjong_nb(trace, hs, seat, kind, card, status)


@jit
def mahjong_showdown_nb(board, rules, tab):
    """Score a finished hand of Mahjong gin into the ``RES_*`` fields: the player who
    went out scores ``gin_bonus`` plus the value of every card left in the other hand
    (with ``mahjong_final_meld``, its exact deadwood); melds on the table count for
    nobody. ``RES_DEFENDER_BEFORE`` is that hand's exact deadwood in either case."""
    hs, work = board.hs, board.work
    hs[RES_STOCK_LEFT] = 52 - hs[ST_POS]
    hs[RES_PILE_CARDS] = hs[ST_PILE_CARDS]
    hs[RES_MAX_PILE_TAKE] = hs[ST_MAX_PILE_TAKE]
    if hs[ST_ENDING] == ENDING_DEAD:
        hs[RES_OUTCOME] = OUT_DEAD
        hs[RES_KNOCKER] = -1
        hs[RES_KNOCKER_DEADWOOD] = -1
        hs[RES_DEFENDER_BEFORE] = -1
        hs[RES_DEFENDER_DEADWOOD] = -1
        hs[RES_POINTS] = 0
        hs[RES_POINTS + 1] = 0
        return
    winner = hs[ST_KNOCKER]
    hand = hs[ST_HAND + 1 - winner]
    total = mask_value_nb(hand, tab)
    plan = plan_work_nb(board.plan)  # its search stacks, free at the showdown
    melded, _ = max_meld_value_any_nb(hand, tab, work, plan.at, plan.used, plan.value,
                                      plan.best)
    charged = total - melded if rules[R_MJ_FINAL_MELD] != 0 else total
    hs[RES_OUTCOME] = OUT_GIN
    hs[RES_KNOCKER] = winner
    hs[RES_KNOCKER_DEADWOOD] = 0
    hs[RES_DEFENDER_BEFORE] = total - melded
    hs[RES_DEFENDER_DEADWOOD] = charged
    hs[RES_POINTS + winner] = rules[R_GIN_BONUS] + charged
    hs[RES_POINTS + 1 - winner] = 0

