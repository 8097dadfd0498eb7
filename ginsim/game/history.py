"""The public history of a hand in a compact notation, its parser and its validator.

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

The API also takes the same events as a list of strings. :func:`parse_history`
replays them and rejects any that breaks the rules (a card in two places, taking a card
that is not on top, a move by the wrong player, a hand above 11 cards) with a one-line
error naming the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .cards import format_cards, parse_cards
from .inputs.specs import brief
from .rules import Rules
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


def _tokens(history: str | Sequence[str]) -> list[str]:
    if isinstance(history, str):
        return history.replace(",", " ").split()
    if isinstance(history, (list, tuple)) and all(isinstance(t, str) for t in history):
        return [t.strip() for t in history if t.strip()]
    raise ValueError(f"a history is a string like {EXAMPLE[:40]!r}... or a list of such "
                     f"events, got {brief(history)}")


def _card(text: str, where: str) -> int:
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if len(cards) != 1:
        raise ValueError(f"{where}: expected one card, got {brief(text)}")
    return cards[0]


def parse_history(history: str | Sequence[str], rules: Rules | str | None = None) -> History:
    """Parse and replay a history; ValueError names the first inconsistent event."""
    rules = Rules.coerce(rules)
    tokens = _tokens(history)
    if len(tokens) > MAX_EVENTS:
        raise ValueError(f"a history holds at most {MAX_EVENTS} events, got {len(tokens)}")
    dealer, upcard, pos = _header(tokens, rules.deal == "eleven")
    replay = _Replay.start(rules, dealer, upcard)
    for k, token in enumerate(tokens[pos:], start=pos + 1):
        replay.apply(token, f"event {k} {token!r}")
    return replay.history()


def _header(tokens: list[str], eleven: bool) -> tuple[int, int, int]:
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
    return SEATS[dealer_name], _card(tokens[1].split(":", 1)[1], f"event 2 {tokens[1]!r}"), 2


@dataclass
class _Replay:
    """The public state of a hand while its history is replayed, event by event."""

    rules: Rules
    dealer: int
    upcard: int
    pile: list[int]
    pile_by: list[int]  # who discarded each pile card (-1: the upcard)
    #: 0/1: the upcard is offered to the non-dealer/dealer; 2: play; 3: both passed the
    #: upcard, the non-dealer must draw from the stock
    offers: int
    to_move: int
    drawn: bool
    #: place of each card known to be somewhere: 'pile', or the seat name holding it
    place: dict[int, str]
    taken: list[int] = field(default_factory=lambda: [0, 0])
    discarded: list[int] = field(default_factory=lambda: [0, 0])
    passed: list[int] = field(default_factory=lambda: [0, 0])
    draws: list[int] = field(default_factory=lambda: [0, 0])
    stock: int = 31
    from_pile: list[set[int]] = field(default_factory=lambda: [set(), set()])
    events: list[tuple[int, int, int, int]] = field(default_factory=list)
    last_drawn: int = -1

    @classmethod
    def start(cls, rules: Rules, dealer: int, upcard: int) -> _Replay:
        """The hand after the deal: the upcard offered to the non-dealer, or (eleven-card
        deal) the non-dealer to discard first."""
        eleven = upcard < 0
        return cls(rules, dealer, upcard, [] if eleven else [upcard],
                   [] if eleven else [-1], 2 if eleven else 0, 1 - dealer, eleven,
                   {} if eleven else {upcard: "pile"})

    def apply(self, token: str, where: str) -> None:
        """Replay one ``WHO:ACTION`` event; ValueError (starting with ``where``) when it
        is not the player's turn or breaks the rules."""
        who, sep, act = token.partition(":")
        if not sep or who not in SEATS:
            raise ValueError(f"{where}: an event is WHO:ACTION with WHO 'me' or 'op' (see the "
                             f"notation, e.g. {EXAMPLE})")
        seat = SEATS[who]
        if seat != self.to_move:
            raise ValueError(f"{where}: it is {SEAT_NAMES[self.to_move]}'s turn to "
                             f"{'discard' if self.drawn else 'draw'}")
        if act == "pass":
            self._pass(seat, where)
        elif act == "stock" or act.startswith("+"):
            if self.drawn:
                raise ValueError(f"{where}: {who} already holds 11 cards and must "
                                 f"discard first")
            if act == "stock":
                self._stock(seat, who, where)
            else:
                self._take(seat, who, _card(act[1:], where), where)
            self.offers, self.drawn = 2, True
        elif act.startswith("-"):
            self._discard(seat, who, _card(act[1:], where), where)
        else:
            raise ValueError(f"{where}: unknown action {act!r}; use pass, stock, +CARD or "
                             f"-CARD")

    def _pass(self, seat: int, where: str) -> None:
        if self.offers >= 2 or self.drawn:
            raise ValueError(f"{where}: 'pass' declines the upcard, only in the first-turn "
                             f"offers; later a player declines the pile by drawing from the "
                             f"stock")
        self.events.append((seat, EV_PASS, self.pile[-1], 1))
        self.passed[seat] |= 1 << self.pile[-1]
        self.offers += 1
        if self.offers == 1:
            self.to_move = self.dealer
        else:  # both passed: the non-dealer draws from the stock
            self.to_move, self.offers = 1 - self.dealer, 3

    def _stock(self, seat: int, who: str, where: str) -> None:
        if self.offers < 2:
            up = format_cards([self.upcard])
            raise ValueError(f"{where}: the upcard is offered first; use "
                             f"'{who}:pass' or '{who}:+{up}'")
        if self.stock <= self.rules.stock_floor:
            raise ValueError(f"{where}: the stock is down to the floor "
                             f"({self.rules.stock_floor}); the hand is over")
        allowed = 1 if self.pile and self.offers == 2 else 0
        if allowed:
            self.passed[seat] |= 1 << self.pile[-1]
        self.events.append((seat, EV_STOCK, -1, allowed))
        self.stock -= 1
        self.draws[seat] += 1
        self.last_drawn = -1

    def _take(self, seat: int, who: str, card: int, where: str) -> None:
        if self.stock <= self.rules.stock_floor and not self.rules.last_discard_rule:
            raise ValueError(f"{where}: the stock is down to the floor "
                             f"({self.rules.stock_floor}); the hand is over (only the "
                             f"last-discard rule lets the final discard be taken)")
        if self.offers == 3:
            raise ValueError(f"{where}: both players passed the upcard, so "
                             f"{who} must draw from the stock")
        if not self.pile or self.pile[-1] != card:
            top = format_cards([self.pile[-1]]) if self.pile else "nothing (empty pile)"
            raise ValueError(f"{where}: {format_cards([card])} is not on top of the "
                             f"pile (the top is {top})")
        self.pile.pop()
        self.pile_by.pop()
        self.taken[seat] |= 1 << card
        self.from_pile[seat].add(card)
        self.place[card] = who
        self.events.append((seat, EV_TAKE, card, 1))
        self.last_drawn = card

    def _discard(self, seat: int, who: str, card: int, where: str) -> None:
        if not self.drawn:
            raise ValueError(f"{where}: {who} must draw before discarding")
        if card == self.last_drawn:
            raise ValueError(f"{where}: {format_cards([card])} was just taken from the "
                             f"pile and cannot be discarded this turn")
        held = self.place.get(card, who)
        if held != who:
            held = ("the pile" if held == "pile" else "my hand" if held == "me"
                    else "the opponent's hand")
            raise ValueError(f"{where}: {format_cards([card])} is in {held}, so "
                             f"{who} cannot discard it")
        flag = 1 if card in self.from_pile[seat] else 0
        self.from_pile[seat].discard(card)
        self.taken[seat] &= ~(1 << card)
        self.discarded[seat] |= 1 << card
        self.place[card] = "pile"
        self.pile.append(card)
        self.pile_by.append(seat)
        self.events.append((seat, EV_DISCARD, card, flag))
        self.drawn = False
        self.last_drawn = -1
        self.to_move = 1 - seat

    def history(self) -> History:
        """The replayed history and the public state it leads to."""
        return History(self.dealer, self.upcard,
                       np.array(self.events, dtype=np.int64).reshape(-1, 4),
                       tuple(self.pile), tuple(self.pile_by), tuple(self.taken),
                       tuple(self.discarded), tuple(self.passed), tuple(self.draws),
                       self.stock, self.to_move, self.drawn, self.last_drawn,
                       self.offers < 2)
