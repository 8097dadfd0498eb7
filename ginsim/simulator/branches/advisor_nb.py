"""Rollouts for the position advisor: play every option in every sampled world.

Contract as in :mod:`ginsim.simulator.play.drive_nb`. A world fixes the opponent's hand and
the stock order; an option is a discard with or without a knock. Every option is
played in every world (common random numbers), seat a being the advised player.
"""

from collections import namedtuple

import numpy as np

from ...game._jit import jit
from ...game.bits_nb import popcount_nb
from ...game.melds_nb import best_discard_nb
from ...game.scoring.hand_scoring_nb import OUT_BIG_GIN, OUT_GIN, OUT_UNDERCUT
from ...game.state import (
    A_DISCARD,
    A_KNOCK,
    A_PILE,
    A_STOCK,
    RES_KNOCKER,
    RES_OUTCOME,
    RES_POINTS,
    ST_DEALER,
    ST_DISCARDED,
    ST_PASSED,
    ST_PILE_TAKES,
    ST_PLANNED,
    ST_TAKEN,
    ST_UPCARD,
)
from ..machine.deal_nb import lay_position_nb, seat_streams_nb
from ..machine.showdown_nb import net_points_nb, showdown_nb
from ..machine.step_nb import replay_step_nb
from ..play.drive_nb import TO_THE_END, decide_discard_nb, drive_nb, play_step_nb
from ..search.rollouts_nb import (
    OPT_DISCARD,
    OPT_PASS,
    OPT_STOCK,  # noqa: F401 (the advisor's option codes, with the others)
    OPT_TAKE,
    pass_on_nb,
)

NO_STOP = np.int64(TO_THE_END)

FLAG_UNDERCUT = 1  # the advised player's knock was undercut
FLAG_OPPONENT_GIN = 2  # the opponent went gin (or big gin)


#: Seat a's cards (a mask: 11 to discard from, 10 before a draw), the opponent's pile
#: takes it still holds and the pile cards it passed (masks), and the hand's knock limit.
AdvisedHand = namedtuple("AdvisedHand", ("hand", "took", "passed", "knock_limit"))
#: What the rollouts write and work in: ``net[world, option]`` (seat a's points minus the
#: opponent's), ``flags[world, option]`` (FLAG_*), ``points[world, option]`` (the hand's
#: points, both seats' added: with the sign of ``net`` they say who won how much, what a
#: game table values), the trace, a board (a hand state with its scratch,
#: :class:`~ginsim.game.state.Board`) and streams.
Outcomes = namedtuple("Outcomes", ("net", "flags", "points", "trace", "board", "rng"))


@jit
def set_world_nb(hs, advised, pile, opp_hand, stock, world):
    """Lay out world ``world`` in ``hs`` (the board's :func:`lay_position_nb`): seat a
    holds ``advised.hand`` and is to discard, seat b holds ``opp_hand``; ``pile`` bottom
    first, ``stock`` from the top; then what the opponent is seen to hold and pass."""
    lay_position_nb(hs, world, (advised.hand, opp_hand), pile, stock, advised.knock_limit)
    hs[ST_TAKEN + 1] = advised.took
    hs[ST_PASSED + 1] = advised.passed
    # at least one take per pile card still held
    hs[ST_PILE_TAKES + 1] = popcount_nb(advised.took)


@jit
def rollouts_nb(seed, advised, worlds, choices, params, rules, tab, out):
    """Fill ``out.net[world, option]`` (seat a's points minus the opponent's),
    ``out.flags[world, option]`` (FLAG_UNDERCUT, FLAG_OPPONENT_GIN or 0) and
    ``out.points[world, option]`` (the hand's points) for seat a's
    11 cards ``advised`` (an :class:`AdvisedHand`).

    ``worlds`` is ``(piles, opp_hands, stocks)``: ``piles[w]`` lists world ``w``'s pile
    bottom first, ``opp_hands[w]`` is a mask, ``stocks[w]`` the stock from the top;
    ``choices`` is ``(options, option_deadwood)`` with ``options[o] = (discard, knock)``.
    Who threw which pile card is not known, so no discards are attributed.
    """
    piles, opp_hands, stocks = worlds
    options, option_deadwood = choices
    trace, board, rng = out.trace, out.board, out.rng
    hs = board.hs
    for w in range(opp_hands.shape[0]):
        for o in range(options.shape[0]):
            set_world_nb(hs, advised, piles[w], opp_hands[w], stocks[w], w)
            seat_streams_nb(rng, seed, w)
            replay_step_nb(hs, np.int64(0), A_KNOCK if options[o, 1] != 0 else A_DISCARD,
                           options[o, 0], option_deadwood[o], rules)
            drive_nb(board, NO_STOP, np.int64(-1), params, rules, tab, rng, trace)
            showdown_nb(board, rules, tab)
            record_outcome_nb(out, hs, w, o)


# An option row (kind, card, flag, kept) by its kind, the mc rollouts' OPT_* codes:
# OPT_DISCARD: discard options[o, 1], knocking if options[o, 2]; OPT_TAKE: take the
# pile's top card, then discard as the strategy does; OPT_STOCK: draw from the stock,
# then discard as the strategy does; OPT_PASS: decline the upcard offer options[o, 1]
# (options[o, 2] = 1: seat a deals).


@jit
def set_public_nb(hs, public):
    """The public history fields: ``public`` = (taken a, taken b, discarded a,
    discarded b, passed a, passed b) masks, then each seat's count of pile takes (the
    signal a knock chart reads)."""
    for seat in range(2):
        hs[ST_TAKEN + seat] = public[seat]
        hs[ST_DISCARDED + seat] = public[2 + seat]
        hs[ST_PASSED + seat] = public[4 + seat]
        hs[ST_PILE_TAKES + seat] = public[6 + seat]


@jit
def play_option_nb(board, option, params, rules, tab, rng, trace):
    """Play ``option``, a row ``(kind, card, knock, kept deadwood)``, for seat a in the
    world in ``board`` to the end and score it."""
    hs = board.hs
    kind, card, knock, kept = option
    if kind == OPT_PASS:
        hs[ST_UPCARD] = card
        hs[ST_DEALER] = 0 if knock else 1
        pass_on_nb(board, np.int64(0), params, rules, tab, rng, trace)
        showdown_nb(board, rules, tab)
        return
    zero = np.int64(0)
    if kind == OPT_DISCARD:
        replay_step_nb(hs, zero, A_KNOCK if knock else A_DISCARD, card, kept, rules)
    else:
        # the world's draw in replay mode (the pile card is not marked as declined)
        replay_step_nb(hs, zero, A_PILE if kind == OPT_TAKE else A_STOCK, -1, 0, rules)
        hs[ST_PLANNED] = 0
        action, discard, kept = decide_discard_nb(params, zero, board, rules, tab, rng)
        play_step_nb(board, action, discard, kept, rules, trace)
    drive_nb(board, NO_STOP, np.int64(-1), params, rules, tab, rng, trace)
    showdown_nb(board, rules, tab)


@jit
def record_outcome_nb(out, hs, w, o):
    """Write the scored hand in ``hs`` as world ``w``'s outcome of option ``o``."""
    out.net[w, o] = net_points_nb(hs, np.int64(0))
    out.flags[w, o] = outcome_flag_nb(hs)
    out.points[w, o] = hs[RES_POINTS] + hs[RES_POINTS + 1]


@jit
def outcome_flag_nb(hs):
    """FLAG_UNDERCUT, FLAG_OPPONENT_GIN or 0 for the scored hand in ``hs``."""
    outcome = hs[RES_OUTCOME]
    if hs[RES_KNOCKER] == 0 and outcome == OUT_UNDERCUT:
        return FLAG_UNDERCUT
    if hs[RES_KNOCKER] == 1 and (outcome == OUT_GIN or outcome == OUT_BIG_GIN):
        return FLAG_OPPONENT_GIN
    return 0


@jit
def option_rollouts_nb(seed, advised, worlds, options, params, rules, tab, out):
    """Fill ``out.net``, ``out.flags`` and ``out.points`` ``[world, option]`` for options
    ``(kind, card, knock, kept deadwood)`` (OPT_*); ``worlds`` is ``(pile, public,
    opp_hands, stocks)``: each world is laid out with the full pile and the ``public``
    history (:func:`set_public_nb`), the opponent holding ``opp_hands[w]`` and the stock
    ``stocks[w]``. Seat a's cards ``advised.hand`` are 11 (10 for the draw options)."""
    pile, public, opp_hands, stocks = worlds
    trace, board, rng = out.trace, out.board, out.rng
    hs = board.hs
    for w in range(opp_hands.shape[0]):
        for o in range(options.shape[0]):
            set_world_nb(hs, advised, pile, opp_hands[w], stocks[w], w)
            set_public_nb(hs, public)
            seat_streams_nb(rng, seed, w)
            option = (options[o, 0], options[o, 1], options[o, 2] != 0, options[o, 3])
            play_option_nb(board, option, params, rules, tab, rng, trace)
            record_outcome_nb(out, hs, w, o)


@jit
def kept_hands_nb(order, need, draws, took, tab, work, out):
    """The opponent's hand in each world as a player keeps it over its draws: world
    ``w`` deals it ``order[w, :need]`` (with the pile takes ``took``, a mask it keeps),
    then it draws ``order[w, need + i]`` for ``i < draws`` and discards the card that
    leaves the least deadwood (:func:`~ginsim.game.melds_nb.best_discard_nb`). Writes to
    ``out = (hands, discards, lowest)`` the hands (masks) ``hands[w]``, the discards
    ``discards[w, :draws]`` and the least deadwood it kept after any of its discards
    ``lowest[w]`` (where it could have knocked instead)."""
    hands, discards, lowest = out
    for w in range(order.shape[0]):
        hand = took
        for i in range(need):
            hand |= np.int64(1) << order[w, i]
        low = np.int64(1 << 30)
        for i in range(draws):
            hand |= np.int64(1) << order[w, need + i]
            deadwood, card, _, _ = best_discard_nb(hand, took, np.int64(-1), tab, work, False)
            hand &= ~(np.int64(1) << card)
            discards[w, i] = card
            low = min(low, deadwood)
        hands[w] = hand
        lowest[w] = low
