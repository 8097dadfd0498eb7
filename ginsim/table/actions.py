"""Moves at the Table: :class:`Action` (its text and the protocol's reply form),
:class:`IllegalAction`, and the card texts and rules arrays the Table and the agents
share (built once, looked up on the hot path)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..game.card_tables import card_tables
from ..game.cards import card_from_text, card_text, sort_key
from ..game.rules import Rules
from ..game.state import A_BIG_GIN, ACTION_KINDS

#: The moves' names: the machine's action kinds (one encoding, named only here).
KINDS = ACTION_KINDS[:A_BIG_GIN + 1]  # knocking gin's (the Table plays no Mahjong gin)
_SHORT = {"s": "stock", "p": "pile", "t": "take", "big": "big_gin", "big gin": "big_gin",
          "gin": "knock"}


TEXT = tuple(card_text(c) for c in range(52))  # card int -> its text
_CARD = {t: c for c, t in enumerate(TEXT)}


def card_of(text: str) -> int:
    """A card int from its text (the protocol's cards: ``KD``; any form ``card_from_text``
    reads)."""
    card = _CARD.get(text)
    return card_from_text(text) if card is None else card


@lru_cache(maxsize=64)
def _rules_of(spec: Rules | str) -> tuple[Rules, np.ndarray, np.ndarray]:
    rules = Rules.coerce(spec)
    return rules, rules.packed(), card_tables(rules)


def rules_arrays(spec: Rules | str) -> tuple[Rules, np.ndarray, np.ndarray]:
    """(rules, packed rules, card tables), built once per rules (not to be written)."""
    return _rules_of(spec)


SORTED_CARDS = sorted(range(52), key=sort_key)  # cards by suit, then rank
MOVE_TEXTS = {**{(k, c): f"{k} {TEXT[c]}" for k in ("discard", "knock") for c in range(52)},
          **{(k, -1): k for k in ("take", "pass", "stock", "pile", "knock")},
          ("big_gin", -1): "big gin"}


#: What a move may be, in the words a refusal of an unreadable move ends with (a caller
#: that knows the position may put the moves open now in its place).
ANY_MOVE = "type stock (s), pile (p), a card such as KD, knock KD, take or pass"


class IllegalAction(ValueError):
    """A move the hand does not allow now; the message is one line naming it and why."""


@dataclass(frozen=True)
class Action:
    """One move: ``kind`` (see :data:`KINDS`), the card of a discard or knock (-1 for a
    knock means: with the discard that keeps the least deadwood), and optionally the
    knocker's melds as masks (the showdown always lays an exact best arrangement)."""

    kind: str
    card: int = -1
    melds: tuple[int, ...] = ()

    def text(self) -> str:
        """"take", "pass", "stock", "pile", "discard KD", "knock KD", "knock", "big gin"."""
        if self.kind == "big_gin":
            return "big gin"
        if self.kind in ("discard", "knock") and self.card >= 0:
            return f"{self.kind} {TEXT[self.card]}"
        return self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        """An action from its text or a short form: ``s`` (stock), ``p`` (pile), ``KD``
        (discard KD), ``knock KD``, ``knock`` (the best discard), ``big gin``."""
        raw = str(text).strip().replace("_", " ").split()
        words = [w.lower() for w in raw]
        if not words:
            raise IllegalAction(f"empty action: {ANY_MOVE}")
        joined = " ".join(words)
        kind = _SHORT.get(joined, joined)
        if kind in KINDS and kind not in ("discard",):
            return cls(kind)
        head, rest = words[0], raw[1:]
        try:
            if head in ("discard", "knock", "d", "k") and len(rest) == 1:
                return cls("discard" if head in ("discard", "d") else "knock",
                           card_from_text(rest[0]))
            if len(words) == 1:
                return cls("discard", card_from_text(raw[0]))
        except ValueError as err:
            raise IllegalAction(f"{text!r}: {err}") from None
        raise IllegalAction(f"{text!r} is not an action: {ANY_MOVE}")

    @classmethod
    def from_message(cls, reply: dict) -> Action:
        """An action from a protocol reply such as ``{"action": "knock", "card": "KD"}``."""
        if not isinstance(reply, dict) or reply.get("action") not in KINDS:
            raise IllegalAction(f"bad reply {str(reply)[:80]}: expected an object with "
                                f"\"action\" one of {', '.join(KINDS)}")
        card = reply.get("card")
        try:
            number = -1 if card is None else card_of(card)
        except ValueError as err:
            raise IllegalAction(f"bad card in reply {str(reply)[:80]}: {err}") from None
        return cls(reply["action"], number)
