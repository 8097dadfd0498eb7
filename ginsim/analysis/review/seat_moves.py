"""The decisions of one seat in a game record, each as that seat saw it.

A decision is built from the seat's own dealt cards and the hand's public events only
(the other seat's stock draws carry no card here), so nothing the seat could not see
reaches the advisor: the review of a seat is the same whatever the other seat held.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ...game.cards import format_cards, sort_key
from ...game.history import (
    EV_DISCARD,
    EV_PASS,
    EV_STOCK,
    EV_TAKE,
    History,
    history_text,
)
from ...game.rules import Rules
from ...simulator.machine.history_replay import parse_history
from ...table.actions import card_of
from ...table.records.game_record import GameRecord, RecordedHand

#: The record's action names as the history's public events.
EVENT_KINDS = {"take": EV_TAKE, "pile": EV_TAKE, "pass": EV_PASS, "stock": EV_STOCK,
               "discard": EV_DISCARD, "knock": EV_DISCARD}
DRAWS = ("take", "pile", "stock")


@dataclass(frozen=True)
class SeatDecision:
    """One move of the seat with what it knew: ``hand`` (its cards before the move, the
    card just drawn left out), ``drawn`` (that card, or None before a draw), where it
    came from, the public ``history`` (the seat as ``me``) up to the move (its draw
    included), and the move made (``action``, ``card``)."""

    hand_number: int  # the hand's number in the game, from 0
    hand: tuple[int, ...]
    drawn: int | None
    drawn_from: str
    history: str
    action: str  # the record's action: take, pass, stock, pile, discard, knock, big_gin
    card: int  # the discarded or knocked card; -1 for the others
    stock_left: int  # cards in the stock when the seat decides (after its draw)
    pile_top: int | None  # the pile's top card when the seat decides
    opponent_took: tuple[int, ...]  # pile cards the opponent took and still holds
    opponent_takes: int  # how many times the opponent has taken from the pile
    score: tuple[int, int]  # hand points toward the target: the seat's, the opponent's

    @property
    def stage(self) -> str:
        """``upcard`` (the first-turn offer), ``draw`` or ``discard`` (after a draw)."""
        if self.drawn is not None or self.action in ("discard", "knock", "big_gin"):
            return "discard"
        return "upcard" if self.action in ("take", "pass") else "draw"


def seat_decisions(record: GameRecord, seat: int) -> Iterator[SeatDecision]:
    """Every move of ``seat`` in the record's hands, in order, as the seat saw it."""
    before = (0, 0)
    for hand in record.hands:
        yield from _hand_decisions(hand, seat, record.rules, before)
        if hand.result is not None:
            before = tuple(hand.scores)


def _hand_decisions(hand: RecordedHand, seat: int, rules: Rules, before: tuple[int, int]
                    ) -> Iterator[SeatDecision]:
    held = set(hand.hands[seat])
    rows: list[tuple[int, int, int]] = []  # public events: seat (0 me), kind, card
    dealer = int(hand.dealer != seat)
    upcard = -1 if hand.upcard is None else hand.upcard
    score = (before[seat], before[1 - seat])
    drawn: int | None = None
    drawn_from = "stock"
    for event in hand.actions:
        mover, action = int(event["seat"]), event["action"]
        card = -1 if event.get("card") is None else card_of(event["card"])
        if mover == seat:
            text = history_text(dealer, upcard, np.array(rows, dtype=np.int64).reshape(-1, 3))
            mine = held - {drawn} if drawn is not None else held
            yield SeatDecision(hand.number, tuple(sorted(mine, key=sort_key)), drawn,
                               drawn_from, text, action,
                               card if action in ("discard", "knock") else -1,
                               *_public_view(parse_history(text, rules)), score)
        if action == "big_gin":
            break
        kind = EVENT_KINDS[action]
        rows.append((int(mover != seat), kind, -1 if kind == EV_STOCK else card))
        if mover == seat:
            drawn = card if action in DRAWS else None
            if action in DRAWS:
                drawn_from = "stock" if action == "stock" else "pile"
            if action in DRAWS:
                held.add(card)
            elif kind == EV_DISCARD:
                held.discard(card)


def _public_view(public: History) -> tuple[int, int | None, tuple[int, ...], int]:
    """Stock left, pile top, the opponent's kept pile cards and its pile takes."""
    took = tuple(c for c in range(52) if public.taken[1] >> c & 1)
    takes = int(sum(1 for row in public.events if row[0] == 1 and row[1] == EV_TAKE))
    return (public.stock_left, public.pile[-1] if public.pile else None,
            tuple(sorted(took, key=sort_key)), takes)


def cards_text(cards) -> list[str]:
    """Card codes (``AS``) of card ints, in the given order."""
    return [format_cards([int(c)]) for c in cards]
