"""The showdown: a finished hand scored into the hand state's ``RES_*`` fields.

The knocker's best arrangement (exact, the unseen cards considered), the defender's
exact layoffs (docs/rules.md §5.2) and the score (§6); Mahjong gin's own
(:func:`~ginsim.simulator.machine.mahjong_nb.mahjong_showdown_nb`). Every driver scores
a hand here once the machine has ended it.
"""

from numba.extending import overload

from ...game._jit import OVERLOAD_OPTIONS, is_mahjong_layout, jit, jit_inline
from ...game.layoff_nb import defender_deadwood_nb, knocker_arrangement_nb
from ...game.rules import R_LAYOFF, R_MAHJONG
from ...game.scoring.hand_scoring_nb import OUT_DEAD, score_hand_nb
from ...game.state import (
    ENDING_DEAD,
    ENDING_KNOCK,
    FULL_DECK,
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_MAX_PILE_TAKE,
    RES_OUTCOME,
    RES_PILE_CARDS,
    RES_POINTS,
    RES_STOCK_LEFT,
    ST_ENDING,
    ST_HAND,
    ST_KMELDS,
    ST_KNOCK_DEADWOOD,
    ST_KNOCKER,
    ST_MULTIPLIER,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_POS,
)
from .mahjong_nb import mahjong_showdown_nb


@jit
def showdown_nb(board, rules, tab):
    """Score a finished hand into the ``RES_*`` fields of ``board.hs`` (scratch
    ``board.work``): outcome, knocker, K, D before and after layoffs, each seat's points,
    stock left, pile cards taken; Mahjong gin's by its own showdown."""
    score_by_rules(board, rules, tab)


def score_by_rules(board, rules, tab):
    """:func:`knocking_showdown_nb`, or Mahjong gin's showdown for its rules (chosen when
    compiling, :func:`~ginsim.game._jit.is_mahjong_layout`)."""
    raise NotImplementedError("called from numba kernels only")


@overload(score_by_rules, inline="always", jit_options=OVERLOAD_OPTIONS)
def _score_by_rules(board, rules, tab):
    if is_mahjong_layout(rules):
        return lambda board, rules, tab: mahjong_showdown_nb(board, rules, tab)
    return lambda board, rules, tab: knocking_showdown_nb(board, rules, tab)


@jit_inline
def knocking_showdown_nb(board, rules, tab):
    """Knocking gin's showdown (:func:`showdown_nb`)."""
    hs, work = board.hs, board.work
    if rules[R_MAHJONG] != 0:  # Mahjong rules packed by hand, not by Rules.packed
        hs[RES_OUTCOME] = OUT_DEAD
        hs[RES_POINTS] = 0
        hs[RES_POINTS + 1] = 0
        return
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

