"""Cards as ints and hands as 64-bit masks (docs/rules.md §1).

A card is ``suit * 13 + rank`` with suits in the order S H D C and rank 0 = ace,
12 = king. A hand is the bit mask ``sum(1 << card)``. Card text is two or three
characters, rank then suit: ``AS``, ``TD`` or ``10D``, ``KH``, case-insensitive; the
suit may also be a symbol (``A♠ 10♥ K♦ 2♣``, outlined ones too). Card ints must be
ints (floats, bools and bytes are refused rather than coerced).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice
from typing import Any

import numpy as np

from .inputs.checks import check_int
from .inputs.specs import brief

SUITS = "SHDC"
RANKS = "A23456789TJQK"
N_CARDS = 52
N_RANKS = 13
FULL_DECK = (1 << N_CARDS) - 1

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
_RANK_OF["10"] = 9
_TOKEN = re.compile(r"[\s,]+")
#: Suit symbols (filled and outlined) as suit letters; U+FE0F (emoji style) is dropped.
_SUIT_SYMBOLS = str.maketrans({"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D",
                               "♢": "D", "♣": "C", "♧": "C", "\ufe0f": None})


def card_from_text(token: str) -> int:
    """Parse one card token such as ``QS``, ``TD``, ``10d``; raise ValueError if bad."""
    if not isinstance(token, str):
        raise ValueError(f"bad card {brief(token)}: card text is a string such as AS or 10D")
    t = token.strip().translate(_SUIT_SYMBOLS).upper()
    rank_text, suit_text = t[:-1], t[-1:]
    if rank_text not in _RANK_OF or suit_text not in SUITS or not suit_text:
        raise ValueError(
            f"bad card {brief(token[:20])}: write rank then suit, e.g. AS, TD or 10D, KH, A♠ "
            f"(ranks {RANKS}, suits {SUITS} or ♠♥♦♣)"
        )
    return SUITS.index(suit_text) * N_RANKS + _RANK_OF[rank_text]


def card_int(card: Any) -> int:
    """A card int 0..51 as a Python int; ValueError for anything else (no coercion of
    floats, bools, bytes or strings)."""
    if not isinstance(card, (int, np.integer)) or isinstance(card, (bool, np.bool_)) or not (
            0 <= int(card) < N_CARDS):
        raise ValueError(f"bad card {brief(card)}: a card is an int 0..51 or text such as AS")
    return int(card)


def card_text(card: int) -> str:
    """The two-character text of a card int (``0`` -> ``AS``)."""
    card = card_int(card)
    suit, rank = divmod(int(card), N_RANKS)
    return RANKS[rank] + SUITS[suit]


def parse_cards(text: str | Iterable[str] | Iterable[int], size: int | None = None) -> list[int]:
    """Parse cards separated by spaces or commas; reject bad tokens and duplicates.

    ``text`` may also be a list of tokens or of card ints. With ``size`` the number of
    cards must match it.
    """
    if size is not None:
        size = check_int(size, "size", 0, N_CARDS)
    if isinstance(text, str):
        tokens: list = [t for t in _TOKEN.split(text) if t]
    elif isinstance(text, (bytes, bytearray, memoryview)):
        raise ValueError("cards must be text (str) or a list of cards, not bytes; decode "
                         "them first, e.g. data.decode()")
    else:
        try:
            tokens = list(islice(iter(text), N_CARDS + 1))
        except TypeError:
            raise ValueError(f"cards must be text such as 'AS 2S 3S' or a list of cards, "
                             f"got {brief(text)}") from None
    if len(tokens) > N_CARDS:
        raise ValueError(f"more than {N_CARDS} cards given: the deck holds {N_CARDS}")
    cards = [card_from_text(t) if isinstance(t, str) else card_int(t) for t in tokens]
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
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise ValueError(f"format_cards takes a list of card ints 0..51, got {brief(cards)}")
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
