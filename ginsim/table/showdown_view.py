"""The showdown's cards for display: the knocker's melds and the defender's layoffs.

The kernel's showdown (``showdown_nb``) scores the hand; these helpers only say which
cards went where, for :meth:`ginsim.table.table.Table.result` and ``ginsim play``.
"""

from __future__ import annotations

import numpy as np

from ..game.cards import FULL_DECK, card_text, cards_to_mask, mask_to_cards, sort_key
from ..game.layoff_nb import knocker_arrangement_nb
from ..game.melds import best_packing, meld_set
from ..game.melds_nb import WORK_SIZE
from ..game.rules import Rules
from ..game.state import RES_KNOCKER_DEADWOOD, ST_HAND, ST_KMELDS


def knocker_melds(hs: np.ndarray, knocker: int, rules: Rules) -> list[int]:
    """The knocker's melds as masks: the arrangement the showdown laid (a knock), or a
    best arrangement of its hand (gin, big gin)."""
    laid = [int(m) for m in hs[ST_KMELDS:ST_KMELDS + 4] if m]
    if laid and hs[RES_KNOCKER_DEADWOOD] > 0:
        return laid
    _, melds = best_packing(mask_to_cards(int(hs[ST_HAND + knocker])), rules)
    return [cards_to_mask(m) for m in melds]


def layoffs(melds: list[int], defender: int, rules: Rules) -> list[int]:
    """Per knocker meld, the defender's cards laid off on it (a mask each): the
    defender's own best melds are kept and its other cards extend the knocker's melds
    while they can (a display of the kernel's exact count, not a second count)."""
    out = [0] * len(melds)
    if not melds:
        return out
    _, own = best_packing(mask_to_cards(defender), rules)
    rest = defender & ~sum(cards_to_mask(m) for m in own)
    table = meld_set(rules.run_wrap)
    grown = list(melds)
    changed = True
    while changed and rest:
        changed = False
        for card in mask_to_cards(rest):
            for i, meld in enumerate(grown):
                if meld | (1 << card) in table:
                    grown[i] |= 1 << card
                    out[i] |= 1 << card
                    rest &= ~(1 << card)
                    changed = True
                    break
    return out


def laid_melds(hand: int, pile: int, tab: np.ndarray) -> list[list[str]]:
    """The melds the showdown lays for a knocker holding ``hand`` (a mask, after its
    discard) with ``pile`` the pile's cards: least deadwood, then the fewest unseen cards
    able to lay off (``knocker_arrangement_nb``); card texts. The protocol's knock reply
    carries them for referees that lay the knocker's melds themselves."""
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    _, count = knocker_arrangement_nb(hand, FULL_DECK & ~hand & ~pile, tab, work, out)
    return [[card_text(c) for c in sorted(mask_to_cards(int(m)), key=sort_key)]
            for m in out[:count]]
