"""One seat's checked view of a hand: what an agent is told, held to what it has seen.

Every agent (:class:`~ginsim.table.agents.Agent`: ``ginsim agent``, the in-process sides
of ``ginsim match``, the bridges) plays from a :class:`SeatView`. The view is the seat's
own hand state, moved by the hand machine's step as the real hand moves (the machine's
replay for a view, :func:`~ginsim.simulator.machine.view_nb.observe_nb`, the cards the
seat has not seen laid where the step reads them; the seat's own knock by the Table's
checked step). Each ``hand``, ``event`` and ``decide`` message is checked before the
view moves; one that describes no possible position is refused with a
:class:`ViewError`, one line naming the message and what is wrong, and the view is left
as it was. The refusals
(docs/agents.md, "What an agent refuses"):

- a hand of the wrong size for the rules and the seat, a card dealt twice, the upcard
  in the seat's own hand, an upcard where the rules deal none or none where they do,
  and the fields :mod:`ginsim.table.seat_fields` refuses (hand terms, scores, legal);
- any move the machine's step refuses: the card just taken thrown back (either seat),
  this seat's knock above the limit or big gin with cards unmelded;
- an event before any hand, out of turn or out of phase (a discard before the draw, a
  draw after the hand ended, a pile draw when the pile may not be drawn);
- a card seen in two places: the seat's hand, the pile (upcard and discards) and the
  cards the other seat took from the pile. A stock draw of a card seen, a take of a
  card that is not the pile's top, the seat's own discard of a card it does not hold,
  the other seat's discard of a card the seat holds or that lies in the pile;
- a decision before any hand or out of phase (``discard`` while the seat holds ten
  cards), and a ``legal`` move the position does not allow (a discard of a card not
  held, a pile draw after both passed the upcard). An agent answers one of the moves
  listed (:meth:`SeatView.nearest_listed`).

A refused message is one the game cannot produce, so streams of real hands are never
refused (tests/test_agent_view.py) and the agent's decisions on them are unchanged.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..game.inputs.specs import brief
from ..game.rules import R_BIG_GIN_BONUS, Rules
from ..game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_KNOCK,
    A_PASS,
    A_PILE,
    A_STOCK,
    A_TAKE,
    PH_DISCARD,
    PH_DRAW,
    PH_LAST_DISCARD,
    PH_OFFER,
    PH_OVER,
    PHASE_NAMES,
    ST_FORBIDDEN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_STOCK_ONLY,
    ST_TO_MOVE,
)
from ..simulator.machine.buffers import new_board
from ..simulator.machine.deal_nb import lay_deal_nb, lay_multiplier_nb
from ..simulator.machine.errors import (
    ERR_FORBIDDEN,
    ERR_KNOCK_LIMIT,
    ERR_NOT_HELD,
    ERRORS,
)
from ..simulator.machine.step_nb import (
    LEGAL_CARD,
    LEGAL_KEPT,
    LEGAL_KIND,
    MAX_LEGAL,
    checked_step_nb,
    kept_deadwood_nb,
    legal_nb,
)
from ..simulator.machine.view_nb import observe_nb
from .actions import KINDS, TEXT
from .seat_fields import (
    HAND_CARDS,
    ViewError,
    card_field,
    check_seat_field,
    dealt_cards,
    hand_numbers,
    hand_terms,
    listed_moves,
)

#: The phases a ``decide`` message names (the machine's phases before the end).
DECIDE_PHASES = PHASE_NAMES[:PH_OVER]
#: The events each phase allows its seat to act (the 50th-card take arrives as a pile
#: draw, then the knock), and the moves a decision in it may offer.
PHASE_EVENTS = {PH_OFFER: (A_TAKE, A_PASS), PH_DRAW: (A_STOCK, A_PILE),
                PH_DISCARD: (A_DISCARD, A_KNOCK, A_BIG_GIN),
                PH_LAST_DISCARD: (A_PASS, A_PILE)}
PHASE_MOVES = {**PHASE_EVENTS, PH_LAST_DISCARD: (A_PASS, A_KNOCK, A_BIG_GIN)}


class SeatEvent(NamedTuple):
    """A checked ``event`` message: who moved, the action (its name and machine kind)
    and the card as the message gave it (-1 where it gave none)."""

    seat: int
    action: str
    kind: int
    card: int


class SeatView:
    """One seat's view of the hand under way, moved only by messages it has checked.

    ``board`` (and its ``hs``) is the position the agent's kernels read: the seat's own
    cards, the pile, the stock count and the public history; the other hand holds only
    the cards that seat took from the pile, the stock is unknown."""

    def __init__(self) -> None:
        self.board = new_board()
        self.hs = self.board.hs
        self.seat = 0
        self.dealt = False
        self.rules: Rules | None = None
        self._packed = self._tab = None
        self._final_take = False  # the 50th-card take: the next move is the knock
        self._options = np.zeros(52, dtype=np.int64)  # legal_nb's scratch
        self._rows = np.zeros((MAX_LEGAL, 3), dtype=np.int64)
        self._scratch = np.zeros_like(self.hs)  # the deal that derives a hand's terms
        self.scores: tuple[int, int] | None = None  # the hand message's, checked
        self.listed: list[tuple[int, int]] = []  # the last decision's legal moves

    def set_rules(self, rules: Rules, packed: np.ndarray, tab: np.ndarray) -> None:
        """The rules the hands are played under (packed and their card tables)."""
        self.rules, self._packed, self._tab = rules, packed, tab

    def forget(self) -> None:
        """A game begins: no hand is dealt until the next ``hand`` message."""
        self.dealt = False

    # --- hand -------------------------------------------------------------------------
    def deal(self, message: dict, seat: int) -> tuple[int, int]:
        """Lay the hand of a ``hand`` message (``seat`` where it names none) once every
        field is checked; returns (the seat, the hand's number)."""
        me = check_seat_field(message.get("seat", seat), "hand")
        if "dealer" not in message or "cards" not in message:
            missing = "dealer" if "dealer" not in message else "cards"
            raise ViewError(f"hand: the field {missing!r} is missing")
        dealer = check_seat_field(message["dealer"], "hand", "dealer")
        hand_id, given, scores = hand_numbers(message)
        upcard = self._upcard(message.get("upcard"))
        cards = self._dealt(message["cards"], me, dealer, upcard)
        knock_limit, multiplier = hand_terms(self.rules, self._packed, self._scratch, dealer,
                                             upcard, given)
        # the stock's top: 10 + 10 and the upcard, or the eleven-card deal's 11 + 10
        hands = [0, 0]
        hands[me] = sum(1 << c for c in cards)  # the other hand is unknown
        lay_deal_nb(self.hs, hand_id, dealer, (hands[0], hands[1]), upcard,
                    2 * HAND_CARDS + 1, knock_limit)
        lay_multiplier_nb(self.hs, multiplier)
        self.seat, self.dealt, self._final_take = me, True, False
        self.scores = scores
        return me, hand_id

    def _upcard(self, value: Any) -> int:
        """The hand's upcard (-1: none), as the rules' deal has one or not."""
        eleven = self.rules.deal == "eleven"
        if value is None:
            if not eleven:
                raise ViewError("hand: no upcard, but these rules turn one up (only the "
                                "eleven-card deal has none)")
            return -1
        if eleven:
            raise ViewError(f"hand: upcard {brief(value, 20)}, but the eleven-card deal "
                            f"turns none up")
        return card_field(value, "hand: upcard")

    def _dealt(self, value: Any, me: int, dealer: int, upcard: int) -> list[int]:
        """The seat's dealt cards: as many as the rules deal it, each once, no upcard."""
        if not isinstance(value, list):
            raise ViewError(f"hand: cards is a list of card texts, got {brief(value, 40)}")
        size = dealt_cards(self.rules, me, dealer)
        if len(value) != size:
            role = "the non-dealer" if me != dealer else "the dealer"
            raise ViewError(f"hand: {len(value)} cards, but seat {me} ({role}) is dealt "
                            f"{size} under these rules")
        cards = [card_field(text, "hand: cards") for text in value]
        for card in set(cards):
            if cards.count(card) > 1:
                raise ViewError(f"hand: {TEXT[card]} is dealt {cards.count(card)} times "
                                f"(a deck holds each card once)")
        if upcard in cards:
            raise ViewError(f"hand: the upcard {TEXT[upcard]} is also in the seat's cards")
        return cards

    # --- events -------------------------------------------------------------------------
    def check_event(self, message: dict) -> SeatEvent:
        """An ``event`` message checked against the view (which it does not move)."""
        seat = check_seat_field(message.get("seat"), "event")
        action = message.get("action")
        if not isinstance(action, str) or action not in KINDS:
            raise ViewError(f"event: the action is one of {', '.join(KINDS)}, got "
                            f"{brief(action, 40)}")
        value = message.get("card")
        shown = value if isinstance(value, str) and len(value) <= 3 else brief(value, 20)
        what = f"event seat {seat} {action}" + ("" if value is None else f" {shown}")
        card = -1 if value is None else card_field(value, what)
        if not self.dealt:
            raise ViewError(f"{what}: no hand has been dealt (an event follows a hand "
                            f"message)")
        hs = self.hs
        phase, mover, kind = int(hs[ST_PHASE]), int(hs[ST_TO_MOVE]), KINDS.index(action)
        if phase >= PH_OVER:
            raise ViewError(f"{what}: the hand is over")
        if self._final_take and seat == mover and kind == A_DISCARD:
            raise ViewError(f"{what}: the final discard is taken only to knock")
        allowed = (A_KNOCK, A_BIG_GIN) if self._final_take else PHASE_EVENTS[phase]
        if seat != mover or kind not in allowed:
            raise ViewError(f"{what}: out of {'turn' if seat != mover else 'phase'}, "
                            f"{self.position()}")
        self._check_event_card(what, seat, kind, card)
        return SeatEvent(seat, action, kind, card)

    def _check_event_card(self, what: str, seat: int, kind: int, card: int) -> None:
        """The event's card against the cards seen: a draw of a card seen elsewhere, a
        discard of a card the mover cannot hold."""
        if kind in (A_TAKE, A_PILE, A_PASS):
            self._check_pile_card(what, kind, card)
        elif kind == A_STOCK:
            if card < 0 and seat == self.seat:
                raise ViewError(f"{what}: this seat's own stock draw names the card drawn")
            if card >= 0 and self.seen(card):
                raise ViewError(f"{what}: {TEXT[card]} cannot come from the stock, "
                                f"{self.whereabouts(card)}")
        elif kind == A_BIG_GIN:
            if self._packed[R_BIG_GIN_BONUS] < 0:
                raise ViewError(f"{what}: big gin is off under these rules")
        else:
            self._check_discarded_card(what, seat, kind, card)

    def _check_pile_card(self, what: str, kind: int, card: int) -> None:
        """A take, pile draw or pass: the pile may be drawn now; a card named is its top."""
        hs, top = self.hs, self.pile_top()
        if kind == A_PILE and hs[ST_PHASE] == PH_DRAW and not self.pile_allowed():
            raise ViewError(f"{what}: no pile draw now ("
                            + ("both passed the upcard: this draw is from the stock"
                               if hs[ST_PILE_LEN] else "the pile is empty") + ")")
        if card >= 0 and card != top:
            raise ViewError(f"{what}: {TEXT[card]} is not the pile's top card "
                            f"({TEXT[top]})")

    def _check_discarded_card(self, what: str, seat: int, kind: int, card: int) -> None:
        """A discard or knock: it names a card its mover can hold (seen nowhere else)."""
        hs, me = self.hs, self.seat
        if card < 0:
            raise ViewError(f"{what}: a {KINDS[kind]} names its card")
        if seat == me and not (int(hs[ST_HAND + me]) >> card) & 1:
            raise ViewError(f"{what}: this seat does not hold {TEXT[card]} "
                            f"({self.whereabouts(card)})")
        if seat != me and (int(hs[ST_HAND + me]) | int(hs[ST_PILE_MASK])) >> card & 1:
            raise ViewError(f"{what}: seat {seat} cannot hold {TEXT[card]}, "
                            f"{self.whereabouts(card)}")

    def apply(self, event: SeatEvent) -> None:
        """Move the view by an event :meth:`check_event` passed, through the machine's
        step (:func:`~ginsim.simulator.machine.view_nb.observe_nb`); a move the machine
        refuses (the card just taken thrown back, this seat's knock above the limit, its big
        gin with cards unmelded) is a ViewError and the view is as it was. The 50th-card rule's
        take is held until the knock that completes the machine's move."""
        if event.kind == A_PILE and self.hs[ST_PHASE] == PH_LAST_DISCARD:
            self._final_take = True
            return
        if event.seat == self.seat and event.kind in (A_KNOCK, A_BIG_GIN):
            status = checked_step_nb(self.board, self.seat, event.kind, event.card,
                                     self._packed, self._tab)  # reads deadwood, melds
        else:
            status = observe_nb(self.hs, event.seat, event.kind, event.card, self._packed)
        if status < 0:
            raise ViewError(f"event seat {event.seat} {event.action}"
                            + ("" if event.card < 0 else f" {TEXT[event.card]}")
                            + f": {self._refusal(event, -status)}")
        self._final_take = False

    def _refusal(self, event: SeatEvent, error: int) -> str:
        """Why the machine refused an event, in words (``error``: its ERR_* code)."""
        card, limit = event.card, int(self.hs[ST_KNOCK_LIMIT])
        if error == ERR_FORBIDDEN:
            return f"{TEXT[card]} was just taken from the pile and may not go back at once"
        if error == ERR_KNOCK_LIMIT:
            kept, _ = kept_deadwood_nb(self.board, event.seat, card, self._tab)
            return (f"this seat keeps {int(kept)} deadwood, above the hand's knock limit "
                    f"{limit}")
        if error == ERR_NOT_HELD and event.kind == A_BIG_GIN:
            return "big gin needs all 11 cards melded, and this seat's are not"
        return ERRORS[error]

    # --- decisions ------------------------------------------------------------------------
    def check_decide(self, message: dict) -> None:
        """A ``decide`` message checked against the view: the seat is to act in the phase
        it names, and every move of its ``legal`` list is one the position allows."""
        phase = message.get("phase")
        if phase not in DECIDE_PHASES:
            raise ViewError(f"a decide message's phase is one of {', '.join(DECIDE_PHASES)}, "
                            f"got {brief(phase, 40)}")
        what = f"decide {phase}"
        if not self.dealt:
            raise ViewError(f"{what}: no hand has been dealt (a decision follows a hand "
                            f"message)")
        hs, me = self.hs, self.seat
        if (PHASE_NAMES[int(hs[ST_PHASE])] != phase or hs[ST_TO_MOVE] != me
                or self._final_take):
            held = bin(int(hs[ST_HAND + me])).count("1")
            raise ViewError(f"{what}: out of phase, {self.position()} (this seat, seat "
                            f"{me}, holds {held} cards)")
        self.listed = listed_moves(message.get("legal"), self.legal_moves(), what,
                                   self._why_not)

    def legal_moves(self) -> dict[tuple[int, int], int]:
        """The moves (kind, card; -1 for none) the seat to act may make in the view, each
        with the deadwood it keeps (0 for a draw, an offer or a pass)."""
        n = legal_nb(self.board, self._packed, self._tab, self._options, self._rows)
        return {(row[LEGAL_KIND], row[LEGAL_CARD]): row[LEGAL_KEPT]
                for row in self._rows[:n].tolist()}

    def nearest_listed(self, kind: int, card: int) -> tuple[int, int]:
        """The move of the last decision's ``legal`` list (:meth:`check_decide`) to answer
        for the policy's ``(kind, card)``: that move when listed, else the listed move with
        the same card, then of the same kind, then keeping the least deadwood, then the
        first (a referee may list fewer moves than the position allows)."""
        if (kind, card) in self.listed:
            return kind, card
        kept = self.legal_moves()
        return min(self.listed, key=lambda m: (m[1] != card, m[0] != kind, kept[m],
                                               self.listed.index(m)))

    def _why_not(self, kind: int, card: int) -> str:
        """Why the view's position does not allow the move."""
        hs, me = self.hs, self.seat
        if kind not in PHASE_MOVES[int(hs[ST_PHASE])]:
            return f"not a move of the {PHASE_NAMES[int(hs[ST_PHASE])]} phase"
        if kind == A_PILE:
            return "both passed the upcard: this draw is from the stock"
        if kind == A_BIG_GIN:
            return "big gin needs all 11 cards melded and rules with big gin"
        if not (int(hs[ST_HAND + me]) >> card) & 1:
            return f"this seat does not hold {TEXT[card]}, {self.whereabouts(card)}"
        if (int(hs[ST_FORBIDDEN]) >> card) & 1 or (
                hs[ST_PHASE] == PH_LAST_DISCARD and card == self.pile_top()):
            return f"{TEXT[card]} was just taken from the pile"
        return f"the deadwood kept is above the knock limit {int(hs[ST_KNOCK_LIMIT])}"

    # --- what the view knows ----------------------------------------------------------------
    def pile_top(self) -> int:
        """The pile's top card, -1 when the pile is empty."""
        n = int(self.hs[ST_PILE_LEN])
        return int(self.hs[ST_PILE + n - 1]) if n else -1

    def pile_allowed(self) -> bool:
        """Whether the seat to draw may take the pile's top card."""
        return bool(self.hs[ST_PILE_LEN] > 0 and self.hs[ST_STOCK_ONLY] == 0)

    def seen(self, card: int) -> bool:
        """Whether ``card`` is placed in the view: the seat's hand, the pile, or the cards
        the other seat took from the pile."""
        hs = self.hs
        return bool((int(hs[ST_HAND]) | int(hs[ST_HAND + 1]) | int(hs[ST_PILE_MASK]))
                    >> card & 1)

    def whereabouts(self, card: int) -> str:
        """Where the view places ``card``, in words."""
        hs, me = self.hs, self.seat
        if (int(hs[ST_HAND + me]) >> card) & 1:
            return "this seat holds it"
        if (int(hs[ST_PILE_MASK]) >> card) & 1:
            return "it is in the discard pile" + (" (the upcard)" if self.pile_top() == card
                                                   and hs[ST_PHASE] == PH_OFFER else "")
        if (int(hs[ST_HAND + 1 - me]) >> card) & 1:
            return f"seat {1 - me} took it from the pile"
        return "it has not been seen"

    def position(self) -> str:
        """Who is to act in the view, and how, in words."""
        hs = self.hs
        phase, mover, top = int(hs[ST_PHASE]), int(hs[ST_TO_MOVE]), self.pile_top()
        if phase == PH_OFFER:
            return f"the upcard {TEXT[top]} is offered to seat {mover}"
        if phase == PH_DRAW:
            return f"seat {mover} is to draw" + ("" if self.pile_allowed()
                                                 else " from the stock")
        if phase == PH_DISCARD:
            return f"seat {mover} is to discard"
        if phase == PH_LAST_DISCARD:
            if self._final_take:
                return f"seat {mover} took the final discard {TEXT[top]} and is to knock"
            return f"seat {mover} may take the final discard {TEXT[top]} only to knock"
        return "the hand is over"
