"""A hand of gin rummy step by step: the hand machine's Python face (docs/table.md).

:class:`Table` holds one hand state (:mod:`ginsim.game.state`) and moves it with the
same per-phase ``apply`` kernels the hand loop uses (:mod:`ginsim.simulator.machine.board_nb`),
so a hand played here by ginsim's strategies is the hand ``ginsim.simulate`` plays
for the same seed and hand index; the showdown is the kernel's (``showdown_nb``) and
:meth:`Table.record` writes the kernel's record row. Every move is checked: an illegal
one raises :class:`IllegalAction`, one line naming the move and why, and changes
nothing. Events are the agent protocol's ``event`` messages (docs/agents.md).
"""

from __future__ import annotations

import numpy as np

from ..game.cards import card_text, mask_to_cards, sort_key
from ..game.history import SEAT_NAMES
from ..game.rules import Rules
from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..game.state import (
    PH_DEAD,
    PH_DISCARD,
    PH_DRAW,
    PH_LAST_DISCARD,
    PH_OFFER,
    PH_OVER,
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_OUTCOME,
    RES_POINTS,
    ST_DEALER,
    ST_DRAWN,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_MULTIPLIER,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_POS,
    ST_TO_MOVE,
    ST_UPCARD,
)
from ..simulator.machine.buffers import new_board
from ..simulator.machine.deal_nb import deal_nb, lay_deck_nb, seat_streams_nb, shuffle_deck_nb
from ..simulator.machine.errors import (
    ERR_KNOCK_LIMIT,
    ERR_MUST_KNOCK,
    ERR_PHASE,
    ERR_PILE,
    ERRORS,
)
from ..simulator.machine.records import RECORD_DTYPE
from ..simulator.machine.showdown_nb import showdown_nb
from ..simulator.machine.step_nb import MAX_LEGAL, checked_step_nb, legal_nb
from ..simulator.play.hand_nb import record_hand_nb
from .actions import (  # noqa: F401  (Action, IllegalAction: ginsim.Table's API)
    KINDS,
    MOVE_TEXTS,
    SORTED_CARDS,
    TEXT,
    Action,
    IllegalAction,
    card_of,
    rules_arrays,
)
from .showdown_view import defender_split, knocker_melds
from .table_args import check_action, check_seat, check_table_args

PHASES = {PH_OFFER: "offer", PH_DRAW: "draw", PH_DISCARD: "discard",
          PH_LAST_DISCARD: "last_discard", PH_OVER: "over", PH_DEAD: "over"}
#: Why a move is not one of the phase's, by phase.
WRONG_PHASE = {PH_OFFER: "the upcard is offered: take or pass",
               PH_DRAW: "draw first: stock or pile",
               PH_DISCARD: "already drew this turn: discard, knock or big gin",
               PH_LAST_DISCARD: "the final discard may be taken only to knock: knock CARD or "
                                "pass"}
SORT_POSITION = {c: i for i, c in enumerate(SORTED_CARDS)}  # a card's place in suit order
def _text(card: int) -> str | None:
    return None if card < 0 else TEXT[card]


def _cards(mask: int) -> list[str]:
    return [TEXT[c] for c in sorted(mask_to_cards(int(mask)), key=sort_key)]


class Table:
    """One hand step by step. ``Table(rules, seed, hand, dealer)`` deals hand ``hand`` of
    ``seed`` as ``ginsim.simulate`` deals it (simulate's dealer of hand ``i`` is
    ``i % 2``); :meth:`from_deal` takes a deal made elsewhere."""

    def __init__(self, rules: Rules | str = "modern", seed: int | None = 0, hand: int = 0,
                 dealer: int = 0, *, _deck: list[int] | None = None) -> None:
        seed, hand, dealer = check_table_args(rules, seed, hand, dealer)
        self.rules, self._packed, self._tab = rules_arrays(rules)
        if self.rules.mahjong:
            raise ValueError("the Table plays knocking gin; Mahjong gin's multi-card takes "
                             "and table melds are played by ginsim.simulate only")
        self.board = new_board()  # the hand state and its scratch
        self.hs = self.board.hs
        self.rng = np.zeros(3, dtype=np.uint64)
        self.seed, self.hand, self.dealer = seed, int(hand), int(dealer)
        if _deck is None:
            shuffle_deck_nb(self.hs, self.rng, np.uint64(seed or 0), self.hand)
        else:
            lay_deck_nb(self.hs, np.asarray(_deck, dtype=np.int64))
        seat_streams_nb(self.rng, np.uint64(seed or 0), self.hand)
        deal_nb(self.hs, self.dealer, self._packed, self.hand)
        self._limit = int(self.hs[ST_KNOCK_LIMIT])
        self.events: list[dict] = []
        self._scored = False
        self._version = 0  # moves applied; the legal moves are kept per version
        self._legal: tuple[int, list[tuple[str, int]], list[str], dict[int, int]] | None = None
        self._kept = np.zeros(52, dtype=np.int64)  # legal_nb's scratch: deadwood kept
        self._rows = np.zeros((MAX_LEGAL, 3), dtype=np.int64)  # legal_nb's rows

    @classmethod
    def from_deal(cls, rules: Rules | str, hands: tuple[list[int], list[int]],
                  upcard: int | None, stock: list[int], dealer: int, *,
                  seed: int | None = None, hand: int = 0) -> Table:
        """A hand dealt elsewhere (the EAAI referee, OpenSpiel, a game record): each seat's
        cards, the upcard (None with the eleven-card deal) and the stock, ``stock[0]``
        drawn first; ``seed`` and ``hand`` only label it (its :meth:`record` row)."""
        rules = Rules.coerce(rules)
        nondealer = 1 - dealer
        deck = [*hands[nondealer], *hands[dealer], *([] if upcard is None else [upcard]),
                *stock]
        first = 11 if rules.deal == "eleven" else 10
        if (len(hands[nondealer]), len(hands[dealer])) != (first, 10) or (
                (upcard is None) != (rules.deal == "eleven")):
            raise ValueError(f"a deal under these rules gives the non-dealer {first} cards, "
                             "the dealer 10, and an upcard unless the deal is eleven-card")
        if sorted(deck) != list(range(52)):
            raise ValueError("hands, upcard and stock must hold every card 0..51 exactly once")
        return cls(rules, seed, hand, dealer, _deck=deck)

    # --- what the hand looks like -----------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASES[int(self.hs[ST_PHASE])]

    @property
    def to_move(self) -> int | None:
        return None if self.phase == "over" else int(self.hs[ST_TO_MOVE])

    @property
    def stock_left(self) -> int:
        return 52 - int(self.hs[ST_POS])

    @property
    def knock_limit(self) -> int:
        return self._limit

    def hand_of(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, sorted by suit and rank."""
        seat = check_seat(seat)
        return sorted(mask_to_cards(int(self.hs[ST_HAND + seat])), key=sort_key)

    def pile(self) -> list[int]:
        """The discard pile, bottom first."""
        return [int(c) for c in self.hs[ST_PILE:ST_PILE + self.hs[ST_PILE_LEN]]]

    def legal_actions(self) -> list[Action]:
        """Every move the seat to act may make now (none once the hand is over)."""
        return [Action(kind, card) for kind, card in self._legal_now()[1]]

    def legal_texts(self) -> list[str]:
        """:meth:`legal_actions` as their texts (the ``decide`` message's ``legal``)."""
        return list(self._legal_now()[2])

    def _legal_now(self) -> tuple[int, list[tuple[str, int]], list[str], dict[int, int]]:
        """The machine's legal moves (:func:`legal_nb`) as (kind, card) pairs, each kind's
        cards in suit order, their texts, and the deadwood each discard keeps; kept until
        the next move."""
        if self._legal is None or self._legal[0] != self._version:
            n = legal_nb(self.board, self._packed, self._tab, self._kept, self._rows)
            rows = self._rows[:n].tolist()
            order = {kind: i for i, kind in enumerate(dict.fromkeys(r[0] for r in rows))}
            rows.sort(key=lambda r: (order[r[0]], SORT_POSITION[r[1]] if r[1] >= 0 else -1))
            moves = [(KINDS[kind], card) for kind, card, _ in rows]
            texts = [MOVE_TEXTS.get(m) or Action(*m).text() for m in moves]
            kept = ({c: int(self._kept[c]) for c in SORTED_CARDS if self._kept[c] >= 0}
                    if self.hs[ST_PHASE] in (PH_DISCARD, PH_LAST_DISCARD) else {})
            self._legal = (self._version, moves, texts, kept)
        return self._legal

    # --- moves ----------------------------------------------------------------------
    def apply(self, action: Action | str, seat: int | None = None) -> list[dict]:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat)
        through the machine (:func:`checked_step_nb`); returns the events it produced.
        Raises :class:`IllegalAction` and changes nothing when the move is not allowed."""
        action = check_action(action)
        seat = None if seat is None else check_seat(seat)
        phase = int(self.hs[ST_PHASE])
        if phase >= PH_OVER:
            raise IllegalAction(f"{action.text()}: the hand is over")
        mover = int(self.hs[ST_TO_MOVE])
        if seat is not None and seat != mover:
            raise IllegalAction(f"{action.text()}: out of turn, seat {mover} is to act")
        card = action.card
        kept = self._legal_now()[3]
        if action.kind == "knock" and card < 0 and kept:
            card = self._knock_card(kept)
        pile = self.pile()
        top = pile[-1] if pile else -1
        status = checked_step_nb(self.board, mover, KINDS.index(action.kind), card,
                                 self._packed, self._tab)
        if status < 0:
            self._refuse(Action(action.kind, card), status, phase, kept)
        before = len(self.events)
        self._record(mover, phase, action.kind, card, top)
        self._version += 1
        if self.hs[ST_PHASE] >= PH_OVER and not self._scored:
            showdown_nb(self.board, self._packed, self._tab)
            self._scored = True
        return self.events[before:]

    def _refuse(self, action: Action, status: int, phase: int, kept: dict[int, int]) -> None:
        """One line naming the move and why the machine refused it."""
        error = -status
        if error == ERR_PHASE or error == ERR_MUST_KNOCK:
            reason = WRONG_PHASE[phase]
        elif error == ERR_PILE:
            reason = ("both passed the upcard: this draw is from the stock"
                      if self.hs[ST_PILE_LEN] else "the pile is empty")
        elif action.kind == "big_gin":
            reason = "big gin needs all 11 cards melded and rules with big gin"
        elif error == ERR_KNOCK_LIMIT:
            reason = (f"deadwood {kept[action.card]} is above this hand's knock limit "
                      f"{self.knock_limit}")
        else:
            reason = ERRORS[error]
        raise IllegalAction(f"{action.text()}: {reason}")

    def _record(self, seat: int, phase: int, kind: str, card: int, top: int) -> None:
        """The events of an applied move: the card taken, passed, drawn or discarded (a
        stock draw's card is hidden from the other seat by :meth:`events_for`)."""
        if phase == PH_OFFER:
            self._event(seat, kind, top)
        elif phase == PH_DRAW:
            self._event(seat, kind, top if kind == "pile" else int(self.hs[ST_DRAWN]))
        elif phase == PH_LAST_DISCARD and kind == "pass":
            self._event(seat, "pass", top)
        else:
            if phase == PH_LAST_DISCARD:
                self._event(seat, "pile", top)
            self._event(seat, kind, card if kind != "big_gin" else -1)

    def _event(self, seat: int, kind: str, card: int) -> None:
        self.events.append({"type": "event", "seat": seat, "action": kind, "card": _text(card)})

    def _knock_card(self, kept: dict[int, int]) -> int:
        """The discard keeping the least deadwood (ties: the higher value, then index)."""
        return min(kept, key=lambda c: (kept[c], -self._tab_value(c), -c))

    def _tab_value(self, card: int) -> int:
        return int(self.rules.rank_values()[card % 13])

    # --- views ----------------------------------------------------------------------
    def events_for(self, seat: int) -> list[dict]:
        """The event log as ``seat`` sees it: the other seat's stock draws hide their card."""
        seat = check_seat(seat)
        return [view_event(e, seat) for e in self.events]

    def history(self, seat: int) -> str:
        """The public history in the notation ``ginsim.advise`` reads, ``seat`` as "me"."""
        seat = check_seat(seat)
        words = [f"dealer:{SEAT_NAMES[self.dealer != seat]}"]
        if self.hs[ST_UPCARD] >= 0:
            words.append(f"up:{card_text(int(self.hs[ST_UPCARD]))}")
        marks = {"take": "+", "pile": "+", "discard": "-", "knock": "-"}
        for e in self.events:
            who = SEAT_NAMES[e["seat"] != seat]
            if e["action"] in marks:
                words.append(f"{who}:{marks[e['action']]}{e['card']}")
            elif e["action"] in ("pass", "stock"):
                words.append(f"{who}:{e['action']}")
        return " ".join(words)

    def observation(self, seat: int) -> dict:
        """What ``seat`` may see now, JSON-able: its hand, the pile, the stock count, the
        public history, and its legal moves when it is to act."""
        seat = check_seat(seat)
        pile = self.pile()
        return {"seat": seat, "phase": self.phase, "to_move": self.to_move,
                "hand": _cards(self.hs[ST_HAND + seat]), "pile": [card_text(c) for c in pile],
                "pile_top": _text(pile[-1]) if pile else None, "stock_left": self.stock_left,
                "dealer": self.dealer, "upcard": _text(int(self.hs[ST_UPCARD])),
                "knock_limit": self.knock_limit, "multiplier": int(self.hs[ST_MULTIPLIER]),
                "history": self.history(seat),
                "legal": [a.text() for a in self.legal_actions()] if self.to_move == seat
                else []}

    def result(self) -> dict:
        """The showdown once the hand is over: outcome, knocker, deadwoods, points per
        seat (the multiplier, Oklahoma's doubling, included), the knocker's melds, the
        defender's own melds and layoffs (none against gin or big gin), both hands."""
        if not self._scored:
            raise ValueError("the hand is not over yet: result() comes after the last move")
        hs = self.hs
        knocker = int(hs[RES_KNOCKER])
        out = {"outcome": OUTCOMES[int(hs[RES_OUTCOME])], "knocker": knocker,
               "hands": [_cards(hs[ST_HAND]), _cards(hs[ST_HAND + 1])],
               "points": [int(hs[RES_POINTS]), int(hs[RES_POINTS + 1])],
               "multiplier": int(hs[ST_MULTIPLIER]),
               "knocker_deadwood": int(hs[RES_KNOCKER_DEADWOOD]),
               "defender_deadwood_before_layoff": int(hs[RES_DEFENDER_BEFORE]),
               "defender_deadwood": int(hs[RES_DEFENDER_DEADWOOD]),
               "melds": [], "layoffs": [], "defender_melds": [], "deadwood": [-1, -1]}
        if knocker >= 0:
            out["melds"], out["layoffs"], out["defender_melds"] = self._showdown_melds(
                knocker, out["outcome"] in ("gin", "big_gin"))
            out["deadwood"][knocker] = out["knocker_deadwood"]
            out["deadwood"][1 - knocker] = out["defender_deadwood"]
        return out

    def _showdown_melds(self, knocker: int, gin: bool
                        ) -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
        """The knocker's melds, the defender's layoffs per meld (none against gin) and
        the defender's own melds, as card texts."""
        melds = knocker_melds(self.hs, knocker, self.rules)
        own, laid, _ = defender_split([] if gin else melds,
                                      int(self.hs[ST_HAND + 1 - knocker]), self.rules)
        laid = laid or [0] * len(melds)
        return [_cards(m) for m in melds], [_cards(m) for m in laid], [_cards(m) for m in own]

    def record(self) -> dict:
        """The hand's record row, the columns and values of ``ginsim.simulate``'s row."""
        if not self._scored:
            raise ValueError("the hand is not over yet: record() comes after the last move")
        out = np.zeros(1, dtype=RECORD_DTYPE)
        record_hand_nb(out, 0, self.hand, int(self.hs[ST_DEALER]), self.hs)
        return {name: out[0][name].item() for name in RECORD_DTYPE.names}


def view_event(event: dict, seat: int) -> dict:
    """``event`` as ``seat`` sees it: another seat's stock draw shows no card."""
    if event["action"] == "stock" and event["seat"] != seat:
        return {**event, "card": None}
    return event
