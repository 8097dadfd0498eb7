"""What a deal charges each player (the source's scoring, exact), as kernels.

``hands`` is int64[players, 53] of kind counts, ``values`` the int64[53] hand values of
:meth:`RamiRules.hand_values`, ``rules`` the packed rules. Kernels allocate nothing.
"""

from ...game._jit import jit, jit_inline
from .rules import R_CAP, R_CAP_HALF_TARGET, R_DRY_CHARGE, R_SURCHARGE, R_TARGET_PER_OPP


@jit_inline
def counts_value_nb(counts, values):
    """What the cards of one count row cost left in hand."""
    total = 0
    for k in range(counts.shape[0]):
        total += counts[k] * values[k]
    return total


@jit_inline
def unopened_limit_nb(rules, players):
    """The most an unopened loser is charged: the cap, and half the target if so ruled."""
    cap = rules[R_CAP]
    if rules[R_CAP_HALF_TARGET] != 0:
        half = rules[R_TARGET_PER_OPP] * (players - 1) // 2
        if half < cap:
            cap = half
    return cap


@jit
def deal_charges_nb(hands, opened, players, winner, dry, rules, values, out):
    """Write each player's charge for the deal to ``out[:players]``.

    The winner pays 0; after a dry rami every other player pays the dry charge; else a
    loser pays the hand value, plus the surcharge up to the unopened limit if unopened.
    """
    limit = unopened_limit_nb(rules, players)
    for p in range(players):
        if p == winner:
            out[p] = 0
        elif dry:
            out[p] = rules[R_DRY_CHARGE]
        else:
            value = counts_value_nb(hands[p], values)
            if opened[p] == 0:
                value += rules[R_SURCHARGE]
                if value > limit:
                    value = limit
            out[p] = value


@jit
def blocked_winner_nb(hands, players, first, values):
    """The winner of a blocked deal: the lowest hand value; a tie goes to the tied player
    who comes first in turn order from seat ``first``."""
    best = -1
    best_value = 1 << 40
    for i in range(players):
        p = (first + i) % players
        value = counts_value_nb(hands[p], values)
        if value < best_value:
            best, best_value = p, value
    return best
