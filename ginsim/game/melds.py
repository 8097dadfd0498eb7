"""Python API for melds, deadwood, discards and layoffs (docs/rules.md §2, §5.2).

Thin, validating wrappers over :mod:`ginsim.game.melds_nb` and
:mod:`ginsim.game.layoff_nb`. Cards may be given as text (``"AS 2S 3S"``), a list of
tokens, or a list of card ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

from .card_tables import card_tables
from .cards import (
    FULL_DECK,
    cards_to_mask,
    format_cards,
    mask_to_cards,
    parse_cards,
    sort_key,
)
from .inputs.specs import brief
from .layoff_nb import defender_deadwood_nb
from .melds_nb import (
    W_MELDS,
    WORK_SIZE,
    best_discard_nb,
    candidate_melds_nb,
    mask_value_nb,
    max_meld_value_any_nb,
)
from .rules import LAYOFF_MODES, Rules

CardsLike = str | Iterable[str] | Iterable[int]


def _work() -> np.ndarray:
    return np.zeros(WORK_SIZE, dtype=np.int64)


def best_packing(cards: list[int], rules: Rules) -> tuple[int, list[list[int]]]:
    """(minimum deadwood, melds of one arrangement reaching it) for any number of cards."""
    tab = card_tables(rules)
    work = _work()
    stacks = [np.zeros(20, dtype=np.int64) for _ in range(4)]
    hand = cards_to_mask(cards)
    value, count = max_meld_value_any_nb(hand, tab, work, *stacks)
    arrangement = [sorted(mask_to_cards(work[W_MELDS + i]), key=sort_key)
                   for i in stacks[3][:count]]
    return int(mask_value_nb(hand, tab)) - int(value), arrangement


def deadwood(cards: CardsLike, rules: Rules | str | None = None) -> int:
    """Exact minimum deadwood of any number of cards (no discard)."""
    return best_packing(parse_cards(cards), Rules.coerce(rules))[0]


def best_melds(cards: CardsLike, rules: Rules | str | None = None) -> list[list[str]]:
    """The melds of one arrangement with minimum deadwood, each as card texts."""
    _, arrangement = best_packing(parse_cards(cards), Rules.coerce(rules))
    return [format_cards(m).split() for m in arrangement]


def best_discard(cards11: CardsLike, rules: Rules | str | None = None) -> tuple[str, int]:
    """(card to discard, deadwood of the 10 kept) for an 11-card hand.

    Minimum deadwood over the 11 discards; ties go to the higher-value card, then the
    higher card index. This is the choice that decides a knock.
    """
    rules = Rules.coerce(rules)
    cards = parse_cards(cards11, size=11)
    dw, card, _, _ = best_discard_nb(cards_to_mask(cards), 0, 0, card_tables(rules), _work(),
                                     False)
    return format_cards([int(card)]), int(dw)


@lru_cache(maxsize=2)
def meld_set(run_wrap: bool) -> frozenset[int]:
    """Every meld of the deck (melds depend on the run shape, not on card values)."""
    work = _work()
    n = candidate_melds_nb(FULL_DECK, card_tables(Rules(run_wrap=run_wrap)), work)
    return frozenset(int(m) for m in work[W_MELDS:W_MELDS + n])


def meld_table(rules: Rules | str | None = None) -> np.ndarray:
    """Every meld of the deck under ``rules`` as sorted bit masks, built once per run
    shape: 329 with aces low (docs/references.md), 589 when runs turn the corner."""
    return np.array(sorted(meld_set(Rules.coerce(rules).run_wrap)), dtype=np.int64)


def _check_meld(meld: list[int], rules: Rules) -> None:
    if cards_to_mask(meld) not in meld_set(rules.run_wrap):
        raise ValueError(f"{format_cards(sorted(meld, key=sort_key))} is not a meld: a meld is "
                         f"3-4 cards of one rank or 3+ consecutive cards of one suit")


def layoff_deadwood(knocker_melds: Sequence[CardsLike], defender_cards: CardsLike,
                    rules: Rules | str | None = None) -> int:
    """Defender's minimum deadwood after laying off onto the knocker's melds.

    The minimum is exact for ``layoff="optimal"`` rules (the default): it tries every
    split of the defender's hand into own melds, layoffs (chains included) and
    deadwood. Other ``Rules.layoff`` modes apply their heuristic instead.
    """
    rules = Rules.coerce(rules)
    if isinstance(knocker_melds, (str, bytes)) or not isinstance(knocker_melds, Sequence):
        raise ValueError(f"knocker_melds is a list of melds, e.g. ['7S 7H 7D', '4C 5C 6C'], "
                         f"got {brief(knocker_melds)}")
    melds = [parse_cards(m) for m in knocker_melds]
    defender = parse_cards(defender_cards)
    seen: set[int] = set()
    for meld in melds:
        _check_meld(meld, rules)
        if seen & set(meld):
            raise ValueError(f"card {format_cards(sorted(seen & set(meld)))} is in two melds")
        seen |= set(meld)
    clash = seen & set(defender)
    if clash:
        raise ValueError(f"card {format_cards(sorted(clash))} is both in the knocker's melds "
                         f"and in the defender's hand")
    if len(defender) > 11:
        raise ValueError(f"the defender holds at most 11 cards, got {len(defender)}")
    if len(melds) > 4:
        raise ValueError(f"the knocker lays down at most 4 melds, got {len(melds)}")
    kmelds = np.array([cards_to_mask(m) for m in melds] + [0] * (4 - len(melds)), dtype=np.int64)
    _, after = defender_deadwood_nb(cards_to_mask(defender), kmelds, len(melds),
                                    LAYOFF_MODES.index(rules.layoff), card_tables(rules),
                                    _work())
    return int(after)
