"""The turn engine: a hand of gin rummy as explicit phases over one hand-state array.

Contract: numba functions over int64/float64 arrays that allocate nothing. A hand in
progress is the int64 hand state ``hs`` laid out in :mod:`ginsim.game.state` (the
position: fields, discard pile, deck, knocker's melds, result) plus ``rng``, uint64[3]
random streams (seat a, seat b, the deck). The phases that ask a strategy or score take
the hand state as a :class:`~ginsim.game.state.Board` ``board``: ``board.hs`` with its
own meld scratch (``board.work``) and plan search scratch (``board.plan``). Every
driver (the hand loop, the game schedulers, the knock chart's branches, the advisor's
rollouts) plays hands by calling these phases; a branch copies the position
(:func:`copy_position_nb`) into a board of its own and calls them again.

The board (the deal, the moves and the phase each leaves the hand in) is
:mod:`ginsim.simulator.machine.board_nb`; these phases ask the strategies for each move and
apply it through the board's per-phase ``apply`` functions, the ones the Python
``Table`` (:mod:`ginsim.table.table`) applies a player's moves with.

The phases, in order:

1. :func:`shuffle_deck_nb` and :func:`deal_nb` (docs/rules.md §3);
2. :func:`first_turn_nb`: upcard offers, or the eleven-card deal's first discard (§4);
3. per turn, :func:`draw_nb` (pile or stock) then :func:`discard_nb` (discard, knock or
   big gin, §4-§5); :func:`play_turn_nb` is the two, :func:`play_on_nb` loops them and
   applies the 50th-card rule (:func:`last_discard_turn_nb`);
4. :func:`showdown_nb`: the knocker's arrangement, layoffs and the score (§5.2, §6),
   left in the ``RES_*`` fields.

``params`` is float64[2, P_SIZE] (one row per seat), ``rules`` the packed rules and
``tab`` the card tables. ``trace`` is an int64[rows, TRACE_WIDTH] array that receives
one row per turn while ``hs[ST_TRACE_ROW]`` is below its length (give it 0 rows to
switch it off).
"""

from ...game._jit import jit, jit_inline
from ...game.layoff_nb import defender_deadwood_nb, knocker_arrangement_nb
from ...game.rules import DEAL_ELEVEN, R_DEAL, R_LAYOFF, R_MAHJONG
from ...game.scoring.hand_scoring_nb import OUT_DEAD, score_hand_nb
from ...game.state import (
    ENDING_DEAD,
    ENDING_KNOCK,
    FULL_DECK,
    PH_DEAD,
    PH_LAST_DISCARD,
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
    SOURCE_PILE,
    ST_DEALER,
    ST_DRAWN,
    ST_ENDING,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KMELDS,
    ST_KNOCK_DEADWOOD,
    ST_KNOCKER,
    ST_MULTIPLIER,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_PLAN_BIG_GIN,
    ST_PLAN_DEADWOOD,
    ST_PLAN_DISCARD,
    ST_PLAN_KNOCK,
    ST_PLANNED,
    ST_POS,
    ST_SOURCE,
    ST_TO_MOVE,
    ST_UPCARD,
)
from ...strategies.policy_nb import (
    choose_discard_nb,
    last_discard_decision_nb,
    pile_decision_nb,
)
from . import mahjong_nb
from .board_nb import (
    OK,
    apply_discard_nb,
    apply_draw_nb,
    apply_last_discard_nb,
    apply_offer_nb,
    pile_allowed_nb,
    trace_turn_nb,
)
from .deal_nb import (
    deal_nb,
)
from .records import ACTION_DISCARD, ACTION_LAST_DISCARD


@jit
def refused_nb(hs):
    """A strategy chose a move the phase refuses (a bug): end the hand dead rather than
    loop, so the records show it."""
    hs[ST_ENDING] = ENDING_DEAD
    hs[ST_PHASE] = PH_DEAD
    hs[ST_TO_MOVE] = -1


@jit
def plan_nb(hs, discard, deadwood, knock, big_gin):
    """Keep the discard a draw decision already chose, for :func:`discard_nb`."""
    hs[ST_PLANNED] = 1
    hs[ST_PLAN_DISCARD] = discard
    hs[ST_PLAN_DEADWOOD] = deadwood
    hs[ST_PLAN_KNOCK] = knock
    hs[ST_PLAN_BIG_GIN] = big_gin


@jit_inline
def draw_nb(board, seat, pile_allowed, params, rules, tab, rng):
    """The draw phase: ``seat`` takes the pile's top card if allowed and its strategy
    wants it (the decision also fixes the discard, kept for :func:`discard_nb`), else
    draws from the stock. Returns the card drawn."""
    hs = board.hs
    hs[ST_PLANNED] = 0
    from_pile = False
    if pile_allowed and pile_allowed_nb(hs):
        top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
        take, discard, dw, knock, big = pile_decision_nb(params, seat, hs[ST_HAND + seat], top,
                                                         board, rules, tab, rng)
        if take:
            plan_nb(hs, discard, dw, knock, big)
            from_pile = True
    if apply_draw_nb(hs, seat, from_pile) != OK:
        refused_nb(hs)
    return hs[ST_DRAWN]


@jit_inline
def discard_nb(board, seat, params, rules, tab, rng):
    """The discard phase: discard, knock or big gin from ``seat``'s 11 cards, as its
    strategy decides (or as the draw decision already planned). Returns ``(discard,
    action)``."""
    hs = board.hs
    if hs[ST_PLANNED] != 0:
        discard = hs[ST_PLAN_DISCARD]
        dw = hs[ST_PLAN_DEADWOOD]
        knock = hs[ST_PLAN_KNOCK] != 0
        big = hs[ST_PLAN_BIG_GIN] != 0
        hs[ST_PLANNED] = 0
    else:
        discard, dw, knock, big = choose_discard_nb(params, seat, hs[ST_HAND + seat],
                                                    hs[ST_FORBIDDEN], board, rules, tab, rng)
    action = apply_discard_nb(hs, seat, discard, dw, knock, big, rules)
    if action < 0:
        refused_nb(hs)
    return discard, action


@jit_inline
def play_turn_nb(board, seat, pile_allowed, params, rules, tab, rng, trace):
    """One turn of ``seat``: the draw phase, then the discard phase."""
    drawn = draw_nb(board, seat, pile_allowed, params, rules, tab, rng)
    discard, action = discard_nb(board, seat, params, rules, tab, rng)
    hs = board.hs
    trace_turn_nb(trace, hs, seat, hs[ST_SOURCE], drawn, discard, action)


@jit
def first_turn_nb(board, params, rules, tab, rng, trace):
    """After the deal: the upcard offers (non-dealer, then dealer; if both pass the
    non-dealer draws from the stock), or the eleven-card deal's first discard.
    Returns the seat to move next."""
    hs = board.hs
    trace_turn_nb(trace, hs, -1, SOURCE_DEAL, -1, -1, ACTION_DISCARD)
    dealer = hs[ST_DEALER]
    nondealer = 1 - dealer
    if rules[R_DEAL] == DEAL_ELEVEN:
        hs[ST_FORBIDDEN] = 0
        hs[ST_PLANNED] = 0
        discard, action = discard_nb(board, nondealer, params, rules, tab, rng)
        trace_turn_nb(trace, hs, nondealer, SOURCE_DEAL, -1, discard, action)
        return dealer
    up = hs[ST_UPCARD]
    for offer in range(2):
        s = nondealer if offer == 0 else dealer
        take, discard, dw, knock, big = pile_decision_nb(params, s, hs[ST_HAND + s], up, board,
                                                         rules, tab, rng)
        apply_offer_nb(hs, s, take)
        if take:
            action = apply_discard_nb(hs, s, discard, dw, knock, big, rules)
            if action < 0:
                refused_nb(hs)
            trace_turn_nb(trace, hs, s, SOURCE_PILE, up, discard, action)
            return 1 - s
    play_turn_nb(board, nondealer, False, params, rules, tab, rng, trace)
    return dealer


@jit
def play_on_nb(board, seat, params, rules, tab, rng, trace):
    """Play from a position with ``seat`` to move until the hand ends (the 50th-card
    rule included)."""
    hs = board.hs
    while hs[ST_ENDING] < 0:
        play_turn_nb(board, seat, True, params, rules, tab, rng, trace)
        seat = 1 - seat
    if hs[ST_PHASE] == PH_LAST_DISCARD:
        last_discard_turn_nb(board, seat, params, rules, tab, trace)


@jit
def last_discard_turn_nb(board, seat, params, rules, tab, trace):
    """The 50th-card rule: ``seat`` may take the final discard, only to knock with it."""
    hs = board.hs
    top = hs[ST_PILE + hs[ST_PILE_LEN] - 1]
    take, discard, dw, knock, big = last_discard_decision_nb(params, seat, hs[ST_HAND + seat],
                                                             top, board, rules, tab)
    if apply_last_discard_nb(hs, seat, take, discard, dw, knock, big, rules) < 0:
        refused_nb(hs)
    if not take:
        return
    trace_turn_nb(trace, hs, seat, SOURCE_PILE, top, discard, ACTION_LAST_DISCARD)


@jit
def play_hand_nb(board, dealer, params, rules, tab, rng, trace, hand_id):
    """Deal the deck in ``board.hs`` and play the hand to its end (not scored)."""
    if rules[R_MAHJONG] != 0:
        mahjong_nb.mahjong_play_hand_nb(board, dealer, params, rules, tab, rng, trace, hand_id)
        return
    deal_nb(board.hs, dealer, rules, hand_id)
    seat = first_turn_nb(board, params, rules, tab, rng, trace)
    play_on_nb(board, seat, params, rules, tab, rng, trace)


@jit
def showdown_nb(board, rules, tab):
    """Score a finished hand into the ``RES_*`` fields of ``board.hs`` (scratch
    ``board.work``): outcome, knocker, K, D before and after layoffs, each seat's points,
    stock left, pile cards taken."""
    if rules[R_MAHJONG] != 0:
        mahjong_nb.mahjong_showdown_nb(board, rules, tab)
        return
    hs, work = board.hs, board.work
    ending = hs[ST_ENDING]
    hs[RES_STOCK_LEFT] = 52 - hs[ST_POS]
    hs[RES_PILE_CARDS] = hs[ST_PILE_TAKES] + hs[ST_PILE_TAKES + 1]  # a take is one card
    hs[RES_MAX_PILE_TAKE] = min(hs[RES_PILE_CARDS], 1)
    if ending == ENDING_DEAD:
        hs[RES_OUTCOME] = OUT_DEAD
        hs[RES_KNOCKER] = -1
        hs[RES_KNOCKER_DEADWOOD] = -1
        hs[RES_DEFENDER_BEFORE] = -1
        hs[RES_DEFENDER_DEADWOOD] = -1
        hs[RES_POINTS] = 0
        hs[RES_POINTS + 1] = 0
        return
    knocker = hs[ST_KNOCKER]
    defender = 1 - knocker
    hand = hs[ST_HAND + knocker]
    kdw = hs[ST_KNOCK_DEADWOOD]
    kmelds = hs[ST_KMELDS:ST_KMELDS + 4]
    nk = 0
    if ending == ENDING_KNOCK and kdw > 0:
        unseen = FULL_DECK & ~hand & ~hs[ST_PILE_MASK]
        kdw, nk = knocker_arrangement_nb(hand, unseen, tab, work, kmelds)
    before, after = defender_deadwood_nb(hs[ST_HAND + defender], kmelds, nk, rules[R_LAYOFF],
                                         tab, work)
    outcome, kpts, dpts = score_hand_nb(ending, kdw, after, rules)
    hs[RES_OUTCOME] = outcome
    hs[RES_KNOCKER] = knocker
    hs[RES_KNOCKER_DEADWOOD] = kdw
    hs[RES_DEFENDER_BEFORE] = before
    hs[RES_DEFENDER_DEADWOOD] = after
    hs[RES_POINTS + knocker] = kpts * hs[ST_MULTIPLIER]
    hs[RES_POINTS + defender] = dpts * hs[ST_MULTIPLIER]


@jit
def net_points_nb(hs, seat):
    """``seat``'s points minus the other seat's in a scored hand."""
    return hs[RES_POINTS + seat] - hs[RES_POINTS + 1 - seat]

