"""The public history of a hand in a compact notation: its words and its result.

A history is a list of events separated by spaces or commas, seen by the advised
player (``me``, seat a); the other player is ``op``::

    dealer:op up:7H me:pass op:pass me:stock me:-KH op:+KH op:-2D me:stock me:-5C op:stock

==================  ================================================================
``dealer:me|op``    who dealt (first event)
``up:CARD``         the first upcard (not with the eleven-card deal)
``WHO:pass``        declines the upcard (the first-turn offers only)
``WHO:+CARD``       takes CARD, the top of the discard pile
``WHO:stock``       draws from the stock (declining the pile's top card, if any)
``WHO:-CARD``       discards CARD
==================  ================================================================

The API also takes the same events as a list of strings. This module reads the text
(:func:`history_tokens`, :func:`history_header`, :func:`event_card`) and holds the
:class:`History` a replay leads to; the replay itself is the machine's
(:func:`ginsim.simulator.machine.history_replay.parse_history`), which rejects any event
that breaks the rules (a card in two places, taking a card that is not on top, a move by
the wrong player, a hand above 11 cards) with a one-line error naming the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .cards import format_cards, parse_cards
from .inputs.specs import brief
from .state import A_DISCARD, A_PASS, A_PILE, A_STOCK

# The public events are the machine's action kinds (:data:`~ginsim.game.state.ACTION_KINDS`):
# a take from the pile (the upcard offer's included), a pass of the upcard, a stock draw,
# a discard (a knock's included).
EV_PASS = A_PASS
EV_TAKE = A_PILE
EV_STOCK = A_STOCK
EV_DISCARD = A_DISCARD
SEATS = {"me": 0, "op": 1}
SEAT_NAMES = ("me", "op")
MAX_EVENTS = 400
DEFAULT_TEMPERATURE = 0.25  # the belief's softening of the opponent model (deadwood points)
DEFAULT_WAIT = 0.2  # the belief's chance that the opponent plays on where its model knocks
EXAMPLE = ("dealer:op up:7H me:pass op:pass me:stock me:-KH op:+KH op:-2D me:stock me:-5C "
           "op:stock")


@dataclass(frozen=True)
class History:
    """A validated public history and the public state it leads to.

    ``events`` is int64[n, 4]: seat (0 me, 1 op), kind (EV_*), card (-1 for a stock
    draw) and a flag: for a draw, 1 when the pile's top could have been taken (a stock
    draw then declines it); for a discard, 1 when the card was taken from the pile.
    """

    dealer: int
    upcard: int
    events: np.ndarray
    pile: tuple[int, ...]  # bottom first
    pile_by: tuple[int, ...]  # who discarded each pile card (-1: the upcard)
    taken: tuple[int, int]  # masks: pile cards each seat took and still holds
    discarded: tuple[int, int]  # masks: every card each seat discarded
    passed: tuple[int, int]  # masks: pile tops each seat declined
    stock_draws: tuple[int, int]
    stock_left: int
    to_move: int  # the seat to act next
    drawn: bool  # whether that seat has drawn and must now discard
    last_drawn: int  # the card to_move took from the pile this turn, else -1
    first_turn: bool  # still in the upcard offers
    stock_only: bool = False  # both passed the upcard: the non-dealer's draw is the stock's

    @property
    def pile_mask(self) -> int:
        return sum(1 << c for c in self.pile)

    def text(self) -> str:
        """The history in the compact notation."""
        return history_text(self.dealer, self.upcard, self.events)


def history_text(dealer: int, upcard: int, events: np.ndarray) -> str:
    """Write events (rows of seat, kind, card[, flag]) in the compact notation."""
    words = [f"dealer:{SEAT_NAMES[dealer]}"]
    if upcard >= 0:
        words.append(f"up:{format_cards([upcard])}")
    for row in events:
        seat, kind, card = int(row[0]), int(row[1]), int(row[2])
        who = SEAT_NAMES[seat]
        if kind == EV_PASS:
            words.append(f"{who}:pass")
        elif kind == EV_TAKE:
            words.append(f"{who}:+{format_cards([card])}")
        elif kind == EV_STOCK:
            words.append(f"{who}:stock")
        else:
            words.append(f"{who}:-{format_cards([card])}")
    return " ".join(words)


def history_tokens(history: str | Sequence[str]) -> list[str]:
    """The events of a history given as one string (spaces or commas) or a list."""
    if isinstance(history, str):
        return history.replace(",", " ").split()
    if isinstance(history, (list, tuple)) and all(isinstance(t, str) for t in history):
        return [t.strip() for t in history if t.strip()]
    raise ValueError(f"a history is a string like {EXAMPLE[:40]!r}... or a list of such "
                     f"events, got {brief(history)}")


def event_card(text: str, where: str) -> int:
    """The one card an event names; ValueError starting with ``where`` otherwise."""
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if len(cards) != 1:
        raise ValueError(f"{where}: expected one card, got {brief(text)}")
    return cards[0]


def history_header(tokens: list[str], eleven: bool) -> tuple[int, int, int]:
    """The dealer, the upcard (-1 with the eleven-card deal) and how many tokens they
    take."""
    if not tokens or not tokens[0].startswith("dealer:"):
        raise ValueError(f"a history starts with the dealer, e.g. 'dealer:op', got "
                         f"{brief(tokens[0] if tokens else '')} (example: {EXAMPLE})")
    dealer_name = tokens[0].split(":", 1)[1]
    if dealer_name not in SEATS:
        raise ValueError(f"event 1 {tokens[0]!r}: the dealer is 'me' or 'op'")
    if eleven:
        return SEATS[dealer_name], -1, 1
    if len(tokens) < 2 or not tokens[1].startswith("up:"):
        raise ValueError(f"event 2: after the dealer comes the upcard, e.g. 'up:7H', got "
                         f"{brief(tokens[1] if len(tokens) > 1 else '')}")
    upcard = event_card(tokens[1].split(":", 1)[1], f"event 2 {tokens[1]!r}")
    return SEATS[dealer_name], upcard, 2
