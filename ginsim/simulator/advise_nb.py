"""Rollouts for the position advisor: play every option in every sampled world.

Contract as in :mod:`ginsim.simulator.phases_nb`. A world fixes the opponent's hand and
the stock order; an option is a discard with or without a knock. Every option is
played in every world (common random numbers), seat a being the advised player.
"""

from ..game._jit import jit
from ..game.melds_nb import popcount_nb
from ..game.scoring_nb import OUT_BIG_GIN, OUT_GIN, OUT_UNDERCUT
from ..game.state import (
    RES_KNOCKER,
    RES_OUTCOME,
    ST_DEALER,
    ST_DECK,
    ST_DISCARDED,
    ST_ENDING,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PASSED,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PILE_TAKES,
    ST_PLANNED,
    ST_POS,
    ST_TAKEN,
    ST_UPCARD,
)
from .mc_nb import pass_on_nb
from .phases_nb import (
    apply_discard_nb,
    clear_position_nb,
    discard_nb,
    draw_stock_nb,
    net_points_nb,
    play_on_nb,
    seat_streams_nb,
    showdown_nb,
    take_pile_top_nb,
)

FLAG_UNDERCUT = 1  # the advised player's knock was undercut
FLAG_OPPONENT_GIN = 2  # the opponent went gin (or big gin)


@jit
def set_world_nb(hs, hand11, pile, opp_hand, stock, took, passed, knock_limit, world):
    """Lay out world ``world`` in ``hs``: seat a holds ``hand11`` and is to discard, seat
    b holds ``opp_hand``; ``pile`` bottom first, ``stock`` from the top."""
    clear_position_nb(hs, world)
    hs[ST_HAND] = hand11
    hs[ST_HAND + 1] = opp_hand
    for i in range(pile.shape[0]):
        hs[ST_PILE + i] = pile[i]
        hs[ST_PILE_MASK] |= 1 << pile[i]
    hs[ST_PILE_LEN] = pile.shape[0]
    n_stock = stock.shape[0]
    for i in range(n_stock):
        hs[ST_DECK + 52 - n_stock + i] = stock[i]
    hs[ST_POS] = 52 - n_stock
    hs[ST_KNOCK_LIMIT] = knock_limit
    hs[ST_TAKEN + 1] = took
    hs[ST_PASSED + 1] = passed
    hs[ST_PILE_TAKES + 1] = popcount_nb(took)  # at least one take per pile card still held


@jit
def rollouts_nb(seed, hand11, piles, took, passed, knock_limit, opp_hands, stocks, options,
                option_deadwood, params, rules, tab, net, flags, trace, hs, rng):
    """Fill ``net[world, option]`` (seat a's points minus the opponent's) and
    ``flags[world, option]`` (FLAG_UNDERCUT, FLAG_OPPONENT_GIN or 0).

    ``piles[w]`` lists world ``w``'s pile bottom first; ``opp_hands[w]`` is a mask,
    ``stocks[w]`` the stock from the top; ``options[o] = (discard, knock)``. Who threw
    which pile card is not known, so no discards are attributed.
    """
    for w in range(opp_hands.shape[0]):
        for o in range(options.shape[0]):
            set_world_nb(hs, hand11, piles[w], opp_hands[w], stocks[w], took, passed,
                         knock_limit, w)
            seat_streams_nb(rng, seed, w)
            apply_discard_nb(hs, 0, options[o, 0], option_deadwood[o], options[o, 1] != 0,
                             False, rules)
            if hs[ST_ENDING] < 0:
                play_on_nb(hs, 1, params, rules, tab, rng, trace)
            showdown_nb(hs, rules, tab)
            net[w, o] = net_points_nb(hs, 0)
            outcome = hs[RES_OUTCOME]
            flag = 0
            if hs[RES_KNOCKER] == 0 and outcome == OUT_UNDERCUT:
                flag = FLAG_UNDERCUT
            elif hs[RES_KNOCKER] == 1 and (outcome == OUT_GIN or outcome == OUT_BIG_GIN):
                flag = FLAG_OPPONENT_GIN
            flags[w, o] = flag


OPT_DISCARD = 0  # discard options[o, 1], knocking if options[o, 2]
OPT_TAKE = 1  # take the pile's top card, then discard as the strategy does
OPT_STOCK = 2  # draw from the stock, then discard as the strategy does
OPT_PASS = 3  # decline the upcard offer options[o, 1] (options[o, 2] = 1: seat a deals)


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
def play_option_nb(hs, kind, card, knock, kept, params, rules, tab, rng, trace):
    """Play option ``kind`` for seat a in the world in ``hs`` to the end and score it."""
    if kind == OPT_PASS:
        hs[ST_UPCARD] = card
        hs[ST_DEALER] = 0 if knock else 1
        pass_on_nb(hs, 0, params, rules, tab, rng, trace)
        showdown_nb(hs, rules, tab)
        return
    if kind == OPT_DISCARD:
        apply_discard_nb(hs, 0, card, kept, knock, False, rules)
    else:
        if kind == OPT_TAKE:
            take_pile_top_nb(hs, 0)
        else:
            draw_stock_nb(hs, 0)
        hs[ST_PLANNED] = 0
        discard_nb(hs, 0, params, rules, tab, rng)
    if hs[ST_ENDING] < 0:
        play_on_nb(hs, 1, params, rules, tab, rng, trace)
    showdown_nb(hs, rules, tab)


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
def option_rollouts_nb(seed, hand, pile, public, knock_limit, opp_hands, stocks, options,
                       params, rules, tab, net, flags, trace, hs, rng):
    """Fill ``net[world, option]`` and ``flags[world, option]`` for options
    ``(kind, card, knock, kept deadwood)`` (OPT_*), each world laid out with the full
    public history; ``hand`` is seat a's 11 cards (10 for the draw options)."""
    for w in range(opp_hands.shape[0]):
        for o in range(options.shape[0]):
            set_world_nb(hs, hand, pile, opp_hands[w], stocks[w], public[1], public[5],
                         knock_limit, w)
            set_public_nb(hs, public)
            seat_streams_nb(rng, seed, w)
            play_option_nb(hs, options[o, 0], options[o, 1], options[o, 2] != 0, options[o, 3],
                           params, rules, tab, rng, trace)
            net[w, o] = net_points_nb(hs, 0)
            flags[w, o] = outcome_flag_nb(hs)
