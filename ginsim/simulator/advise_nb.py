"""Rollouts for the position advisor: play every option in every sampled world.

Contract as in :mod:`ginsim.simulator.hand_nb`. A world fixes the opponent's hand and
the stock order; an option is a discard with or without a knock. Every option is
played in every world (common random numbers), seat a being the advised player.
"""

from ..game._jit import jit
from ..game.rng_nb import stream_key_nb
from ..game.scoring_nb import OUT_BIG_GIN, OUT_GIN, OUT_UNDERCUT
from ..game.state import (
    ST_ENDING,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_MULTIPLIER,
    ST_PASSED,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_SIZE,
    ST_TAKEN,
    ST_UPCARD,
)
from .hand_nb import _finish_turn_nb, play_on_nb, scratch_views_nb, showdown_nb


@jit
def rollouts_nb(seed, hand11, piles, took, passed, knock_limit, opp_hands, stocks, options,
                option_deadwood, params, rules, tab, net, flags, trace, scratch, rng):
    """Fill ``net[world, option]`` (seat a's points minus the opponent's) and
    ``flags[world, option]`` (1: a's knock was undercut, 2: the opponent went gin).

    ``piles[w]`` lists world ``w``'s pile bottom first; ``opp_hands[w]`` is a mask,
    ``stocks[w]`` the stock from the top; ``options[o] = (discard, knock)``. Who threw
    which pile card is not known, so no discards are attributed.
    """
    deck, pile, st, kmelds, result, work = scratch_views_nb(scratch)
    n_stock = stocks.shape[1]
    for w in range(opp_hands.shape[0]):
        for o in range(options.shape[0]):
            for i in range(ST_SIZE):
                st[i] = 0
            st[ST_HAND] = hand11
            st[ST_HAND + 1] = opp_hands[w]
            for i in range(piles.shape[1]):
                pile[i] = piles[w, i]
                st[ST_PILE_MASK] |= 1 << piles[w, i]
            st[ST_PILE_LEN] = piles.shape[1]
            for i in range(n_stock):
                deck[52 - n_stock + i] = stocks[w, i]
            st[ST_POS] = 52 - n_stock
            st[ST_ENDING] = -1
            st[ST_UPCARD] = -1
            st[ST_KNOCK_LIMIT] = knock_limit
            st[ST_MULTIPLIER] = 1
            st[ST_TAKEN + 1] = took
            st[ST_PASSED + 1] = passed
            rng[0] = stream_key_nb(seed, w, 1)
            rng[1] = stream_key_nb(seed, w, 2)
            discard = options[o, 0]
            knock = options[o, 1] != 0
            _finish_turn_nb(0, discard, option_deadwood[o], knock, False, rules, st, pile)
            if st[ST_ENDING] < 0:
                play_on_nb(1, params, rules, tab, work, st, pile, deck, rng, trace, 0, w)
            showdown_nb(st, rules, tab, work, kmelds, result)
            net[w, o] = result[5] - result[7]
            flag = 0
            if result[1] == 0 and result[0] == OUT_UNDERCUT:
                flag = 1
            elif result[1] == 1 and (result[0] == OUT_GIN or result[0] == OUT_BIG_GIN):
                flag = 2
            flags[w, o] = flag
