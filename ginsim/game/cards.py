"""Cards as ints and hands as 64-bit masks (RULES §1).

A card is ``suit * 13 + rank`` with suits in the order S H D C and rank 0 = ace,
12 = king. A hand is the bit mask ``sum(1 << card)``. Card text is two or three
characters, rank then suit: ``AS``, ``TD`` or ``10D``, ``KH``, case-insensitive.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SUITS = "SHDC"
RANKS = "A23456789TJQK"
N_CARDS = 52
N_RANKS = 13
FULL_DECK = (1 << N_CARDS) - 1

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
_RANK_OF["10"] = 9
_TOKEN = re.compile(r"[\s,]+")


def card_from_text(token: str) -> int:
    """Parse one card token such as ``QS``, ``TD``, ``10d``; raise ValueError if bad."""
    t = token.strip().upper()
    rank_text, suit_text = t[:-1], t[-1:]
    if rank_text not in _RANK_OF or suit_text not in SUITS or not suit_text:
        raise ValueError(
            f"bad card {token!r}: write rank then suit, e.g. AS, TD or 10D, KH "
            f"(ranks {RANKS}, suits {SUITS})"
        )
    return SUITS.index(suit_text) * N_RANKS + _RANK_OF[rank_text]


def card_text(card: int) -> str:
    """The two-character text of a card int (``0`` -> ``AS``)."""
    if not 0 <= int(card) < N_CARDS:
        raise ValueError(f"bad card {card!r}: a card is an int 0..51")
    suit, rank = divmod(int(card), N_RANKS)
    return RANKS[rank] + SUITS[suit]


def parse_cards(text: str | Iterable[str] | Iterable[int], size: int | None = None) -> list[int]:
    """Parse cards separated by spaces or commas; reject bad tokens and duplicates.

    ``text`` may also be a list of tokens or of card ints. With ``size`` the number of
    cards must match it.
    """
    if isinstance(text, str):
        tokens: list = [t for t in _TOKEN.split(text) if t]
    else:
        tokens = list(text)
    cards = []
    for token in tokens:
        if isinstance(token, str):
            cards.append(card_from_text(token))
        else:
            card_text(int(token))  # validates the range
            cards.append(int(token))
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise ValueError(f"duplicate card {card_text(c)}: each card exists once in the deck")
        seen.add(c)
    if size is not None and len(cards) != size:
        raise ValueError(f"expected {size} cards, got {len(cards)}")
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """Card ints as space-separated text, in the given order."""
    return " ".join(card_text(c) for c in cards)


def cards_to_mask(cards: Iterable[int]) -> int:
    """The bit mask of a collection of card ints."""
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def mask_to_cards(mask: int) -> list[int]:
    """Card ints of a bit mask, ascending."""
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def sort_key(card: int) -> tuple[int, int]:
    """Display order: by suit, then rank."""
    return divmod(card, N_RANKS)
