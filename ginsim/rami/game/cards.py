"""Greek Rami cards: two 52-card decks and jokers, a hand as counts per card kind.

A card kind is gin's card int (``suit * 13 + rank``, rank 0 = ace, suits S H D C) or
:data:`JOKER` (52). Two decks hold every natural kind twice; the jokers (4, or 2 by a
rules option) share the one kind. A hand is an int64 array of :data:`N_KINDS` counts.
Card text is gin's (``AS``, ``TD`` or ``10D``, ``KH``) plus ``JK`` for a joker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...game.cards import card_from_text, card_text
from ...game.inputs.specs import brief
from .rules import RamiRules

JOKER = 52
N_KINDS = 53
N_NATURAL = 52
COPIES = 2  # two decks
_TOKEN = re.compile(r"[\s,]+")

#: What a card costs left in hand at the end of a deal under the default rules: joker
#: 20, ace 11, J/Q/K 10, 2-10 face value (indexed by kind).
HAND_VALUE = RamiRules().hand_values()


def kind_from_text(token: Any) -> int:
    """One card token as a kind: gin's card text or ``JK``; ValueError names a bad token."""
    if isinstance(token, str) and token.strip().upper() in ("JK", "JOKER"):
        return JOKER
    try:
        return card_from_text(token)
    except ValueError:
        raise ValueError(f"bad card {brief(token if not isinstance(token, str) else token[:20])}"
                         f": write rank then suit, e.g. AS, TD or 10D, KH, or JK for a "
                         f"joker") from None


def kind_text(kind: int) -> str:
    """The text of a kind (``52`` -> ``JK``)."""
    return "JK" if int(kind) == JOKER else card_text(int(kind))


def parse_hand(text: str | Iterable[str], jokers: int = 4) -> list[int]:
    """The kinds of cards given as text (spaces or commas) or a list of tokens.

    A natural kind may appear at most twice (two decks), ``JK`` at most ``jokers``
    times; ValueError otherwise, naming the card.
    """
    if isinstance(text, str):
        tokens: list = [t for t in _TOKEN.split(text) if t]
    elif isinstance(text, (bytes, bytearray)) or not isinstance(text, Iterable):
        raise ValueError(f"cards must be text such as 'AS 5H JK' or a list of card texts, "
                         f"got {brief(text)}")
    else:
        tokens = list(text)
    kinds = [kind_from_text(t) for t in tokens]
    counts = np.bincount(np.array(kinds, dtype=np.int64), minlength=N_KINDS)
    for kind in range(N_KINDS):
        limit = jokers if kind == JOKER else COPIES
        if counts[kind] > limit:
            raise ValueError(f"{kind_text(kind)} appears {counts[kind]} times: the two decks "
                             f"hold {limit} of it")
    return kinds


def hand_counts(kinds: Iterable[int]) -> np.ndarray:
    """The count per kind (int64[53]) of a list of kinds."""
    return np.bincount(np.asarray(list(kinds), dtype=np.int64), minlength=N_KINDS)


def format_hand(kinds: Iterable[int]) -> str:
    """Kinds as space-separated text, in the given order."""
    return " ".join(kind_text(k) for k in kinds)


def hand_value(kinds: Iterable[int]) -> int:
    """What the cards cost left in hand (joker 20, ace 11, courts 10, pips face)."""
    return int(sum(HAND_VALUE[k] for k in kinds))


def deck_kinds(jokers: int) -> np.ndarray:
    """The full deck as kinds (int64[104 + jokers]): two of each natural, then jokers."""
    return np.array(list(range(N_NATURAL)) * COPIES + [JOKER] * jokers, dtype=np.int64)
