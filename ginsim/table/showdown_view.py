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


def _value(mask: int, values: np.ndarray) -> int:
    return int(sum(values[c % 13] for c in mask_to_cards(mask)))


def _own_packings(hand: int, table: frozenset[int]) -> list[tuple[int, ...]]:
    """Every set of disjoint melds within ``hand`` (the empty one first)."""
    inside = sorted(m for m in table if m & ~hand == 0)
    out: list[tuple[int, ...]] = []

    def extend(start: int, used: int, chosen: tuple[int, ...]) -> None:
        out.append(chosen)
        for i in range(start, len(inside)):
            if not inside[i] & used:
                extend(i + 1, used | inside[i], (*chosen, inside[i]))

    extend(0, 0, ())
    return out


def _lay_off(melds: list[int], cards: int, table: frozenset[int]) -> tuple[list[int], int]:
    """``cards`` laid off onto ``melds`` while any fits, chains included, runs before sets
    (a card that fits both goes on the run, which may take the next card of the chain):
    per meld the cards laid on it, and the cards left."""
    out = [0] * len(melds)
    grown = list(melds)
    order = sorted(range(len(melds)), key=lambda i: len({c % 13 for c in
                                                        mask_to_cards(melds[i])}) == 1)
    changed = True
    while changed and cards:
        changed = False
        for card in mask_to_cards(cards):
            for i in order:
                if grown[i] | (1 << card) in table:
                    grown[i] |= 1 << card
                    out[i] |= 1 << card
                    cards &= ~(1 << card)
                    changed = True
                    break
    return out, cards


def defender_split(melds: list[int], defender: int, rules: Rules
                   ) -> tuple[list[int], list[int], int]:
    """How the defender's hand ``defender`` (a mask) meets the knocker's ``melds`` (none
    against gin): its own melds, per knocker meld the cards it lays off there, and its
    deadwood cards, a split whose deadwood is the showdown kernel's D under the rules'
    ``layoff`` mode (docs/rules.md §5.2; ``optimal`` tries every packing of its own
    melds, as the kernel does)."""
    table, values = meld_set(rules.run_wrap), rules.rank_values()
    packings = _own_packings(defender, table)
    best_own = max(_value(sum(p), values) for p in packings)

    def split(own: tuple[int, ...]) -> tuple[int, int, list[int], list[int], int]:
        laid, rest = _lay_off(melds, defender & ~sum(own), table)
        return _value(rest, values), -_value(sum(own), values), list(own), laid, rest

    def melds_first() -> tuple:
        return min(split(p) for p in packings if _value(sum(p), values) == best_own)

    def layoffs_first() -> tuple:
        laid, rest = _lay_off(melds, defender, table)
        _, own = best_packing(mask_to_cards(rest), rules)
        own_masks = [cards_to_mask(m) for m in own]
        left = rest & ~sum(own_masks)
        return _value(left, values), -_value(sum(own_masks), values), own_masks, laid, left

    if not melds or not any(_lay_off(melds, defender, table)[0]):
        chosen = min(split(p) for p in packings if _value(sum(p), values) == best_own)
    elif rules.layoff == "optimal":
        chosen = min(split(p) for p in packings)
    elif rules.layoff == "melds_first":
        chosen = melds_first()
    elif rules.layoff == "layoffs_first":
        chosen = layoffs_first()
    else:  # two_orders: layoffs first only where it leaves strictly less
        first, other = melds_first(), layoffs_first()
        chosen = other if other[0] < first[0] else first
    _, _, own, laid, rest = chosen
    return own, laid, rest


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
