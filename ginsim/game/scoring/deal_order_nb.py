"""Who deals the next hand of a two-player game (docs/rules.md §3): the one rule the game
schedulers and the game table share."""

from .._jit import jit
from ..rules import NEXT_LOSER, NEXT_WINNER


@jit
def next_dealer_code_nb(dealer, winner, mode):
    """Who deals after side ``winner`` won a hand ``dealer`` dealt, under ``mode`` (a
    ``NEXT_*`` code, the rules' ``next_dealer``)."""
    if mode == NEXT_LOSER:
        return 1 - winner
    if mode == NEXT_WINNER:
        return winner
    return 1 - dealer
