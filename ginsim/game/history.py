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
from dataclasses import dataclass

import numpy as np

from .cards import format_cards, parse_cards
from .rules import Rules, brief

EV_PASS = 0
EV_TAKE = 1
EV_STOCK = 2
EV_DISCARD = 3
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
    if not tokens or not tokens[0].startswith("dealer:"):
        raise ValueError(f"a history starts with the dealer, e.g. 'dealer:op', got "
                         f"{brief(tokens[0] if tokens else '')} (example: {EXAMPLE})")
    dealer_name = tokens[0].split(":", 1)[1]
    if dealer_name not in SEATS:
        raise ValueError(f"event 1 {tokens[0]!r}: the dealer is 'me' or 'op'")
    dealer = SEATS[dealer_name]
    eleven = rules.deal == "eleven"
    pos = 1
    upcard = -1
    pile: list[int] = []
    pile_by: list[int] = []
    if not eleven:
        if len(tokens) < 2 or not tokens[1].startswith("up:"):
            raise ValueError(f"event 2: after the dealer comes the upcard, e.g. 'up:7H', got "
                             f"{brief(tokens[1] if len(tokens) > 1 else '')}")
        upcard = _card(tokens[1].split(":", 1)[1], f"event 2 {tokens[1]!r}")
        pile, pile_by = [upcard], [-1]
        pos = 2
    nondealer = 1 - dealer
    taken, discarded, passed = [0, 0], [0, 0], [0, 0]
    draws = [0, 0]
    stock = 31
    # place of each card known to be somewhere: 'pile', or held by a seat after a pickup
    place: dict[int, str] = {upcard: "pile"} if upcard >= 0 else {}
    from_pile: list[set[int]] = [set(), set()]  # pile pickups each seat still holds
    events: list[tuple[int, int, int, int]] = []
    offers = 0 if not eleven else 2  # 0/1: upcard offer to nondealer/dealer; 2: play;
    # 3: both passed the upcard, the non-dealer must draw from the stock
    to_move = nondealer
    drawn = eleven  # the eleven-card deal's non-dealer starts by discarding
    last_drawn = -1
    for k, token in enumerate(tokens[pos:], start=pos + 1):
        where = f"event {k} {token!r}"
        who_text, sep, act = token.partition(":")
        if not sep or who_text not in SEATS:
            raise ValueError(f"{where}: an event is WHO:ACTION with WHO 'me' or 'op' (see the "
                             f"notation, e.g. {EXAMPLE})")
        seat = SEATS[who_text]
        if seat != to_move:
            raise ValueError(f"{where}: it is {SEAT_NAMES[to_move]}'s turn to "
                             f"{'discard' if drawn else 'draw'}")
        first = offers < 2
        if act == "pass":
            if not first or drawn:
                raise ValueError(f"{where}: 'pass' declines the upcard, only in the first-turn "
                                 f"offers; later a player declines the pile by drawing from the "
                                 f"stock")
            events.append((seat, EV_PASS, pile[-1], 1))
            passed[seat] |= 1 << pile[-1]
            offers += 1
            if offers == 1:
                to_move = dealer
            else:
                to_move, offers = nondealer, 3  # both passed: the non-dealer draws stock
            continue
        if act == "stock" or act.startswith("+"):
            if drawn:
                raise ValueError(f"{where}: {who_text} already holds 11 cards and must "
                                 f"discard first")
            if act == "stock":
                if offers < 2:
                    up = format_cards([upcard])
                    raise ValueError(f"{where}: the upcard is offered first; use "
                                     f"'{who_text}:pass' or '{who_text}:+{up}'")
                if stock <= rules.stock_floor:
                    raise ValueError(f"{where}: the stock is down to the floor "
                                     f"({rules.stock_floor}); the hand is over")
                allowed = 1 if pile and offers == 2 else 0
                if allowed:
                    passed[seat] |= 1 << pile[-1]
                events.append((seat, EV_STOCK, -1, allowed))
                stock -= 1
                draws[seat] += 1
                last_drawn = -1
            else:
                card = _card(act[1:], where)
                if stock <= rules.stock_floor and not rules.last_discard_rule:
                    raise ValueError(f"{where}: the stock is down to the floor "
                                     f"({rules.stock_floor}); the hand is over (only the "
                                     f"last-discard rule lets the final discard be taken)")
                if offers == 3:
                    raise ValueError(f"{where}: both players passed the upcard, so "
                                     f"{who_text} must draw from the stock")
                if not pile or pile[-1] != card:
                    top = format_cards([pile[-1]]) if pile else "nothing (empty pile)"
                    raise ValueError(f"{where}: {format_cards([card])} is not on top of the "
                                     f"pile (the top is {top})")
                pile.pop()
                pile_by.pop()
                taken[seat] |= 1 << card
                from_pile[seat].add(card)
                place[card] = who_text
                events.append((seat, EV_TAKE, card, 1))
                last_drawn = card
            offers = 2
            drawn = True
            continue
        if act.startswith("-"):
            card = _card(act[1:], where)
            if not drawn:
                raise ValueError(f"{where}: {who_text} must draw before discarding")
            if card == last_drawn:
                raise ValueError(f"{where}: {format_cards([card])} was just taken from the "
                                 f"pile and cannot be discarded this turn")
            if card in place and place[card] != who_text:
                held = ("the pile" if place[card] == "pile" else "my hand"
                        if place[card] == "me" else "the opponent's hand")
                raise ValueError(f"{where}: {format_cards([card])} is in {held}, so "
                                 f"{who_text} cannot discard it")
            flag = 1 if card in from_pile[seat] else 0
            from_pile[seat].discard(card)
            taken[seat] &= ~(1 << card)
            discarded[seat] |= 1 << card
            place[card] = "pile"
            pile.append(card)
            pile_by.append(seat)
            events.append((seat, EV_DISCARD, card, flag))
            drawn = False
            last_drawn = -1
            to_move = 1 - seat
            continue
        raise ValueError(f"{where}: unknown action {act!r}; use pass, stock, +CARD or -CARD")
    return History(dealer, upcard, np.array(events, dtype=np.int64).reshape(-1, 4),
                   tuple(pile), tuple(pile_by), (taken[0], taken[1]),
                   (discarded[0], discarded[1]), (passed[0], passed[1]),
                   (draws[0], draws[1]), stock, to_move, drawn, last_drawn, offers < 2)
