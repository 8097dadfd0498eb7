"""Mahjong gin's turn engine (docs/rules.md §8.8): the variant's phases and its hand.

Contract as in :mod:`ginsim.simulator.play.drive_nb`, whose helpers these phases call (the
deal, the stock draw, the pile top, the discard and the trace). The table's melds,
the card a multi-card take obliges its taker to lay and the hand's pile counters live
in the hand state (``ST_TABLE`` .. ``ST_MAX_PILE_TAKE``); the phases that plan or score
take the hand state with its scratch as a :class:`~ginsim.game.state.Board`.

A turn: :func:`take_pile_nb` (``depth`` cards from the top of the pile) or
``draw_stock_nb``; any number of :func:`lay_meld_nb` and :func:`extend_meld_nb`; then
:func:`mahjong_discard_nb` or, where the rules allow, :func:`go_out_nb`. Each phase checks its
move and returns ``OK`` or an ``ERR_*`` code without changing the position when the
move is illegal. :func:`mahjong_turn_nb` lets the strategies (``ginsim.strategies.
mahjong_nb``) choose the moves; :func:`mahjong_play_hand_nb` deals and plays a hand, and
:func:`mahjong_showdown_nb` scores it. A player who goes out ends the hand as a knock at 0
deadwood (the trace's action is ``ACTION_KNOCK``, or ``ACTION_BIG_GIN`` without a
final discard).
"""

from ...game._jit import jit
from ...game.melds_nb import W_MELDS, mask_value_nb, max_meld_value_any_nb
from ...game.rules import DEAL_ELEVEN, R_DEAL, R_GIN_BONUS, R_MJ_DISCARD_OUT, R_MJ_FINAL_MELD
from ...game.scoring.hand_scoring_nb import OUT_DEAD, OUT_GIN
from ...game.state import (
    ENDING_DEAD,
    ENDING_KNOCK,
    MJ_TABLE_SLOTS,
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
    ST_DEALER,
    ST_DRAWN,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_DEADWOOD,
    ST_KNOCKER,
    ST_MAX_PILE_TAKE,
    ST_MUST_LAY,
    ST_PASSED,
    ST_PILE,
    ST_PILE_CARDS,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_SOURCE,
    ST_TABLE,
    ST_TABLE_N,
    ST_TAKEN,
    ST_TURNS,
    ST_UPCARD_TAKEN,
)
from ...strategies.mahjong_plan_nb import best_plan_nb, can_lay_nb, is_meld_nb, plan_work_nb
from ...strategies.mahjong_policy_nb import plan_turn_nb, take_options_nb
from .board_nb import apply_discard_nb, draw_stock_nb, pile_top_nb, take_pile_top_nb, trace_turn_nb
from .deal_nb import deal_nb
from .records import ACTION_BIG_GIN, ACTION_DISCARD, ACTION_KNOCK

OK = 0
ERR_DEPTH = 1  # the pile holds fewer cards than the take asks for (or depth < 1)
ERR_LOWEST = 2  # the lowest card of a multi-card take cannot be laid this turn
ERR_NOT_HELD = 3  # the cards are not all in the player's hand
ERR_NOT_MELD = 4  # the cards (with the table meld they extend) are not a meld
ERR_SLOT = 5  # no such meld on the table
ERR_MUST_LAY = 6  # the lowest card of this turn's multi-card take is still in hand
ERR_FORBIDDEN = 7  # a card taken from the pile this turn cannot be discarded
ERR_NOT_OUT = 8  # going out without a discard: cards left, or the rules want a discard
ERR_STUCK = 9  # after the take no way to lay its lowest card and still discard remains
ERRORS = ("ok", "depth", "lowest", "not held", "not a meld", "slot", "must lay",
          "forbidden", "not out", "stuck")


@jit
def deal_mahjong_nb(hs, dealer, rules, hand_id):
    """Deal as :func:`deal_nb` and clear the table and the pile counters."""
    deal_nb(hs, dealer, rules, hand_id)
    for i in range(ST_TABLE, ST_MAX_PILE_TAKE + 1):
        hs[i] = 0


@jit
def take_pile_nb(board, seat, depth, rules, tab):
    """``seat`` takes the top ``depth`` cards of the pile (a draw). With two or more,
    the lowest must be laid this turn, so a take whose lowest card cannot be laid
    from the hand and the cards taken (or onto the table) is refused, and so is one
    that leaves no legal way to finish the turn (laying it, then discarding a card not
    taken, or going out)."""
    hs = board.hs
    n = hs[ST_PILE_LEN]
    if depth < 1 or depth > n:
        return ERR_DEPTH
    low = hs[ST_PILE + n - depth]
    cards = 0
    for i in range(n - depth, n):
        cards |= 1 << hs[ST_PILE + i]
    hand = hs[ST_HAND + seat]
    if depth > 1 and not can_lay_nb(hand | cards, low, hs, tab):
        return ERR_LOWEST
    must = (1 << low) if depth > 1 else 0
    if best_plan_nb(hand | cards, hand, must, True, rules[R_MJ_DISCARD_OUT] != 0, board,
                    tab)[0] < 0:
        return ERR_STUCK
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
def mahjong_turn_nb(board, seat, draw, params, rules, tab, rng, trace):
    """One turn of ``seat`` as its strategy plays it: the draw (none on the eleven-card
    deal's first turn), the plan's melds and extensions, the discard or going out."""
    hs, work, plan = board.hs, board.work, plan_work_nb(board.plan)
    hs[ST_MUST_LAY] = 0
    source = SOURCE_DEAL
    drawn = -1
    if draw:
        depth = take_options_nb(params, seat, board, rules, tab, rng)
        if depth > 0:
            if hs[ST_TURNS] == 0:
                hs[ST_UPCARD_TAKEN] = 1
            if take_pile_nb(board, seat, depth, rules, tab) != OK:
                raise ValueError("a strategy chose an illegal pile take")
        else:
            top = pile_top_nb(hs)
            if top >= 0:
                hs[ST_PASSED + seat] |= 1 << top
            draw_stock_nb(hs, seat)
        source = hs[ST_SOURCE]
        drawn = hs[ST_DRAWN]
    else:
        hs[ST_FORBIDDEN] = 0
    discard, out = plan_turn_nb(params, seat, board, rules, tab, rng)
    for j in range(plan.n[0]):
        i = plan.plan[j]
        slot = plan.slot[i]
        if slot < 0:
            err = lay_meld_nb(hs, seat, work[W_MELDS + i], tab)
        else:
            err = extend_meld_nb(hs, seat, slot, work[W_MELDS + i], tab)
        if err != OK:
            raise ValueError("a strategy planned an illegal meld")
    if discard < 0:
        action = go_out_nb(hs, seat, rules)
    else:
        action = mahjong_discard_nb(hs, seat, discard, rules)
    if action < 0:
        raise ValueError("a strategy chose an illegal discard")
    trace_turn_nb(trace, hs, seat, source, drawn, discard, action)


@jit
def mahjong_play_hand_nb(board, dealer, params, rules, tab, rng, trace, hand_id):
    """Deal the deck in ``board.hs`` and play a hand of Mahjong gin to its end (not
    scored). The non-dealer moves first: it may take the upcard (or, with the
    eleven-card deal, discards without drawing)."""
    hs = board.hs
    deal_mahjong_nb(hs, dealer, rules, hand_id)
    trace_turn_nb(trace, hs, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD)
    seat = 1 - hs[ST_DEALER]
    if rules[R_DEAL] == DEAL_ELEVEN:
        mahjong_turn_nb(board, seat, False, params, rules, tab, rng, trace)
        seat = 1 - seat
    while hs[ST_ENDING] < 0:
        mahjong_turn_nb(board, seat, True, params, rules, tab, rng, trace)
        seat = 1 - seat


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

