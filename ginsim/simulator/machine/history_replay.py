"""The machine's replay of a public history (the notation of :mod:`ginsim.game.history`):
each event stepped through the machine on a view that holds neither hand, as a seat's
own view is moved (:func:`~ginsim.simulator.machine.view_nb.observe_nb`). The offers,
the draw's choices, the card just taken and the stock floor are the machine's; this
module only words its refusals in the notation's terms, naming the event.

:func:`parse_history` reads a history's text; :class:`HistoryReplay` is the replay
itself, which :mod:`ginsim.analysis.positions` also feeds from a hand's trace
(:meth:`HistoryReplay.draw_turn`: a turn's draw with the upcard passes it implies).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...game.cards import format_cards
from ...game.history import (
    EV_DISCARD,
    EV_PASS,
    EV_STOCK,
    EV_TAKE,
    EXAMPLE,
    MAX_EVENTS,
    SEAT_NAMES,
    SEATS,
    History,
    event_card,
    history_header,
    history_tokens,
)
from ...game.rules import Rules
from ...game.state import (
    A_DISCARD,
    A_PASS,
    A_PILE,
    A_STOCK,
    A_TAKE,
    PH_DISCARD,
    PH_LAST_DISCARD,
    PH_OFFER,
    ST_DISCARDED,
    ST_FORBIDDEN,
    ST_PASSED,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_STOCK_ONLY,
    ST_TAKEN,
    ST_TO_MOVE,
)
from .board_nb import pile_allowed_nb, stock_at_floor_nb
from .buffers import new_board
from .deal_nb import FIRST_POS, lay_deal_nb
from .errors import ERRORS
from .step_nb import replay_step_nb
from .view_nb import observe_nb


def stock_at_floor(stock_left: int, rules: Rules) -> bool:
    """The machine's stock-floor test for Python callers
    (:func:`~ginsim.simulator.machine.board_nb.stock_at_floor_nb`): no draw remains, the
    next discard ends the hand."""
    return bool(stock_at_floor_nb(int(stock_left), int(rules.stock_floor)))


def below_stock_floor(stock_left: int, rules: Rules) -> bool:
    """Whether no hand reaches a stock this small: a seat draws only above the floor."""
    return stock_at_floor(stock_left + 1, rules)


class HistoryReplay:
    """A public history replayed through the machine on a view of the hand with both
    hands hidden; :meth:`history` is the public state it leads to."""

    def __init__(self, rules: Rules, dealer: int, upcard: int) -> None:
        self.rules, self.packed = rules, rules.packed()
        self.board = new_board()
        self.hs = self.board.hs
        self.dealer, self.upcard = dealer, upcard
        # no knock is replayed, so the knock limit is not needed
        lay_deal_nb(self.hs, np.int64(0), np.int64(dealer), (np.int64(0), np.int64(0)),
                    np.int64(upcard), np.int64(FIRST_POS), np.int64(0))
        self.events: list[tuple[int, int, int, int]] = []
        self.pile_by: list[int] = [] if upcard < 0 else [-1]
        self.draws = [0, 0]
        self.after_end = -1  # the seat named next once the stock floor ended the hand

    @property
    def to_move(self) -> int:
        seat = int(self.hs[ST_TO_MOVE])
        return seat if seat >= 0 else self.after_end

    @property
    def drawn(self) -> bool:
        return int(self.hs[ST_PHASE]) == PH_DISCARD

    @property
    def stock_left(self) -> int:
        return 52 - int(self.hs[ST_POS])

    def _step(self, seat: int, kind: int, card: int, where: str) -> None:
        status = observe_nb(self.hs, np.int64(seat), np.int64(kind), np.int64(card),
                            self.packed)
        if status < 0:
            raise ValueError(f"{where}: {ERRORS[-status]}")

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
            self.pass_upcard(seat, where)
        elif act == "stock" or act.startswith("+"):
            if self.drawn:
                raise ValueError(f"{where}: {who} already holds 11 cards and must "
                                 f"discard first")
            if act == "stock":
                self.stock(seat, where)
            else:
                self.take(seat, event_card(act[1:], where), where)
        elif act.startswith("-"):
            self.discard(seat, event_card(act[1:], where), where)
        else:
            raise ValueError(f"{where}: unknown action {act!r}; use pass, stock, +CARD or "
                             f"-CARD")

    def _top(self) -> int:
        n = int(self.hs[ST_PILE_LEN])
        return int(self.hs[ST_PILE + n - 1]) if n else -1

    def pass_upcard(self, seat: int, where: str) -> None:
        if int(self.hs[ST_PHASE]) != PH_OFFER:
            raise ValueError(f"{where}: 'pass' declines the upcard, only in the first-turn "
                             f"offers; later a player declines the pile by drawing from the "
                             f"stock")
        self.events.append((seat, EV_PASS, self._top(), 1))
        self._step(seat, A_PASS, -1, where)

    def stock(self, seat: int, where: str) -> None:
        who = SEAT_NAMES[seat]
        if int(self.hs[ST_PHASE]) == PH_OFFER:
            up = format_cards([self.upcard])
            raise ValueError(f"{where}: the upcard is offered first; use "
                             f"'{who}:pass' or '{who}:+{up}'")
        if stock_at_floor(self.stock_left, self.rules):
            raise ValueError(f"{where}: the stock is down to the floor "
                             f"({self.rules.stock_floor}); the hand is over")
        allowed = 1 if pile_allowed_nb(self.hs) else 0
        self.events.append((seat, EV_STOCK, -1, allowed))
        self._step(seat, A_STOCK, -1, where)
        self.draws[seat] += 1

    def take(self, seat: int, card: int, where: str) -> None:
        who = SEAT_NAMES[seat]
        final = int(self.hs[ST_PHASE]) == PH_LAST_DISCARD
        if stock_at_floor(self.stock_left, self.rules) and not final:
            raise ValueError(f"{where}: the stock is down to the floor "
                             f"({self.rules.stock_floor}); the hand is over (only the "
                             f"last-discard rule lets the final discard be taken)")
        if int(self.hs[ST_STOCK_ONLY]) != 0:
            raise ValueError(f"{where}: both players passed the upcard, so "
                             f"{who} must draw from the stock")
        top = self._top()
        if top != card:
            shown = format_cards([top]) if top >= 0 else "nothing (empty pile)"
            raise ValueError(f"{where}: {format_cards([card])} is not on top of the "
                             f"pile (the top is {shown})")
        if final:  # the 50th-card take; the knock it is for is not in a history
            replay_step_nb(self.hs, np.int64(seat), A_PILE, np.int64(-1), np.int64(0),
                           self.packed)
        else:
            self._step(seat, A_TAKE if int(self.hs[ST_PHASE]) == PH_OFFER else A_PILE, -1,
                       where)
        self.pile_by.pop()
        self.events.append((seat, EV_TAKE, card, 1))

    def discard(self, seat: int, card: int, where: str) -> None:
        who = SEAT_NAMES[seat]
        if not self.drawn:
            raise ValueError(f"{where}: {who} must draw before discarding")
        if (int(self.hs[ST_FORBIDDEN]) >> card) & 1:
            raise ValueError(f"{where}: {format_cards([card])} was just taken from the "
                             f"pile and cannot be discarded this turn")
        held = ("the pile" if (int(self.hs[ST_PILE_MASK]) >> card) & 1 else
                "my hand" if (int(self.hs[ST_TAKEN]) >> card) & 1 and seat != 0 else
                "the opponent's hand" if (int(self.hs[ST_TAKEN + 1]) >> card) & 1 and seat != 1
                else None)
        if held is not None:
            raise ValueError(f"{where}: {format_cards([card])} is in {held}, so "
                             f"{who} cannot discard it")
        flag = int((int(self.hs[ST_TAKEN + seat]) >> card) & 1)
        self._step(seat, A_DISCARD, card, where)
        self.events.append((seat, EV_DISCARD, card, flag))
        self.pile_by.append(seat)
        self.after_end = 1 - seat

    def draw_turn(self, seat: int, from_pile: bool, card: int) -> None:
        """``seat``'s draw as a hand's trace shows it (from the pile, the card ``card``,
        or the stock), after the upcard passes it implies: the offer passes to ``seat``
        or on to the stock draw."""
        where = f"the draw of seat {seat}"
        while int(self.hs[ST_PHASE]) == PH_OFFER and (self.to_move != seat or not from_pile):
            self.pass_upcard(self.to_move, where)
        if from_pile:
            self.take(seat, card, where)
        else:
            self.stock(seat, where)

    def pile(self) -> list[int]:
        """The discard pile, bottom first."""
        n = int(self.hs[ST_PILE_LEN])
        return [int(c) for c in self.hs[ST_PILE:ST_PILE + n]]

    def history(self) -> History:
        """The replayed history and the public state it leads to."""
        hs = self.hs
        drawn = self.drawn
        forbidden = int(hs[ST_FORBIDDEN])
        last = forbidden.bit_length() - 1 if drawn and forbidden else -1
        taken, discarded, passed = ((int(hs[f]), int(hs[f + 1]))
                                    for f in (ST_TAKEN, ST_DISCARDED, ST_PASSED))
        return History(self.dealer, self.upcard,
                       np.array(self.events, dtype=np.int64).reshape(-1, 4),
                       tuple(self.pile()), tuple(self.pile_by), taken, discarded, passed,
                       tuple(self.draws),
                       self.stock_left, self.to_move, drawn, last,
                       int(hs[ST_PHASE]) == PH_OFFER, int(hs[ST_STOCK_ONLY]) != 0)


def parse_history(history: str | Sequence[str], rules: Rules | str | None = None) -> History:
    """Parse a history and replay it through the machine; ValueError names the first
    inconsistent event."""
    rules = Rules.coerce(rules)
    tokens = history_tokens(history)
    if len(tokens) > MAX_EVENTS:
        raise ValueError(f"a history holds at most {MAX_EVENTS} events, got {len(tokens)}")
    dealer, upcard, pos = history_header(tokens, rules.deal == "eleven")
    replay = HistoryReplay(rules, dealer, upcard)
    for k, token in enumerate(tokens[pos:], start=pos + 1):
        replay.apply(token, f"event {k} {token!r}")
    return replay.history()
