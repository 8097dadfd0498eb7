"""A hand of gin rummy step by step: the hand machine's Python face (docs/table.md).

:class:`Table` holds one hand state (:mod:`ginsim.game.state`) and moves it with the
same per-phase ``apply`` kernels the hand loop uses (:mod:`ginsim.simulator.board_nb`),
so a hand played here by ginsim's strategies is the hand ``ginsim.simulate`` plays
for the same seed and hand index; the showdown is the kernel's (``showdown_nb``) and
:meth:`Table.record` writes the kernel's record row. Every move is checked: an illegal
one raises :class:`IllegalAction`, one line naming the move and why, and changes
nothing. Events are the agent protocol's ``event`` messages (docs/agents.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.cards import card_from_text, card_text, mask_to_cards, sort_key
from ..game.history import SEAT_NAMES
from ..game.rules import Rules
from ..game.scoring_nb import OUTCOMES
from ..game.state import (
    HS_SIZE,
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
    ST_DECK,
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
from ..game.tables import card_tables
from .board_nb import (
    ERRORS,
    apply_draw_nb,
    apply_last_discard_nb,
    apply_offer_nb,
    checked_discard_nb,
    deal_nb,
    legal_discards_nb,
    pile_allowed_nb,
    seat_streams_nb,
    shuffle_deck_nb,
    take_pile_top_nb,
)
from .hand_nb import record_hand_nb
from .phases_nb import showdown_nb
from .records import RECORD_DTYPE

PHASES = {PH_OFFER: "offer", PH_DRAW: "draw", PH_DISCARD: "discard",
          PH_LAST_DISCARD: "last_discard", PH_OVER: "over", PH_DEAD: "over"}
KINDS = ("take", "pass", "stock", "pile", "discard", "knock", "big_gin")
_SHORT = {"s": "stock", "p": "pile", "t": "take", "big": "big_gin", "big gin": "big_gin",
          "gin": "knock"}


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
            return f"{self.kind} {card_text(self.card)}"
        return self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        """An action from its text or a short form: ``s`` (stock), ``p`` (pile), ``KD``
        (discard KD), ``knock KD``, ``knock`` (the best discard), ``big gin``."""
        raw = str(text).strip().replace("_", " ").split()
        words = [w.lower() for w in raw]
        if not words:
            raise IllegalAction("empty action: type stock (s), pile (p), a card such as KD, "
                                "knock KD, take or pass")
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
        raise IllegalAction(f"{text!r} is not an action: type stock (s), pile (p), a card "
                            "such as KD, knock KD, take or pass")

    @classmethod
    def from_message(cls, reply: dict) -> Action:
        """An action from a protocol reply such as ``{"action": "knock", "card": "KD"}``."""
        if not isinstance(reply, dict) or reply.get("action") not in KINDS:
            raise IllegalAction(f"bad reply {str(reply)[:80]}: expected an object with "
                                f"\"action\" one of {', '.join(KINDS)}")
        card = reply.get("card")
        try:
            number = -1 if card is None else card_from_text(card)
        except ValueError as err:
            raise IllegalAction(f"bad card in reply {str(reply)[:80]}: {err}") from None
        return cls(reply["action"], number)


def _text(card: int) -> str | None:
    return None if card < 0 else card_text(card)


def _cards(mask: int) -> list[str]:
    return [card_text(c) for c in sorted(mask_to_cards(int(mask)), key=sort_key)]


class Table:
    """One hand step by step. ``Table(rules, seed, hand, dealer)`` deals hand ``hand`` of
    ``seed`` as ``ginsim.simulate`` deals it (simulate's dealer of hand ``i`` is
    ``i % 2``); :meth:`from_deal` takes a deal made elsewhere."""

    def __init__(self, rules: Rules | str = "modern", seed: int | None = 0, hand: int = 0,
                 dealer: int = 0, *, _deck: list[int] | None = None) -> None:
        self.rules = Rules.coerce(rules)
        if self.rules.mahjong:
            raise ValueError("the Table plays knocking gin; Mahjong gin's multi-card takes "
                             "and table melds are played by ginsim.simulate only")
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be 0 or 1, got {dealer!r}")
        self._packed = self.rules.packed()
        self._tab = card_tables(self.rules)
        self.hs = np.zeros(HS_SIZE, dtype=np.int64)
        self.rng = np.zeros(3, dtype=np.uint64)
        self.seed, self.hand, self.dealer = seed, int(hand), int(dealer)
        if _deck is None:
            shuffle_deck_nb(self.hs, self.rng, np.uint64(seed or 0), self.hand)
        else:
            self.hs[ST_DECK:ST_DECK + 52] = _deck
        seat_streams_nb(self.rng, np.uint64(seed or 0), self.hand)
        deal_nb(self.hs, self.dealer, self._packed, self.hand)
        self.events: list[dict] = []
        self._scored = False

    @classmethod
    def from_deal(cls, rules: Rules | str, hands: tuple[list[int], list[int]],
                  upcard: int | None, stock: list[int], dealer: int) -> Table:
        """A hand dealt elsewhere (the EAAI referee, OpenSpiel): each seat's cards, the
        upcard (None with the eleven-card deal) and the stock, ``stock[0]`` drawn first."""
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
        return cls(rules, None, 0, dealer, _deck=deck)

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
        return int(self.hs[ST_KNOCK_LIMIT])

    def hand_of(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, sorted by suit and rank."""
        return sorted(mask_to_cards(int(self.hs[ST_HAND + seat])), key=sort_key)

    def pile(self) -> list[int]:
        """The discard pile, bottom first."""
        return [int(c) for c in self.hs[ST_PILE:ST_PILE + self.hs[ST_PILE_LEN]]]

    def legal_actions(self) -> list[Action]:
        """Every move the seat to act may make now (none once the hand is over)."""
        phase = int(self.hs[ST_PHASE])
        if phase == PH_OFFER:
            return [Action("take"), Action("pass")]
        if phase == PH_DRAW:
            return [Action("stock")] + ([Action("pile")] if pile_allowed_nb(self.hs) else [])
        if phase == PH_DISCARD:
            kept, big = self._discard_options(self.hs)
            out = [Action("discard", c) for c in kept]
            out += [Action("knock", c) for c, dw in kept.items() if dw <= self.knock_limit]
            return out + ([Action("big_gin")] if big else [])
        if phase == PH_LAST_DISCARD:
            kept, big = self._last_discard_options()
            out = [Action("pass")] + [Action("knock", c) for c, dw in kept.items()
                                      if dw <= self.knock_limit]
            return out + ([Action("big_gin")] if big else [])
        return []

    def _discard_options(self, hs: np.ndarray) -> tuple[dict[int, int], bool]:
        """{card: deadwood kept after discarding it} for the seat to act, and whether
        big gin is open to it."""
        out = np.zeros(52, dtype=np.int64)
        all_melded = legal_discards_nb(hs, hs[ST_TO_MOVE], self._tab, out)
        kept = {c: int(out[c]) for c in sorted(np.flatnonzero(out >= 0).tolist(), key=sort_key)}
        return kept, bool(all_melded) and self.rules.big_gin_bonus is not None

    def _last_discard_options(self) -> tuple[dict[int, int], bool]:
        trial = self.hs.copy()
        take_pile_top_nb(trial, trial[ST_TO_MOVE])
        return self._discard_options(trial)

    # --- moves ----------------------------------------------------------------------
    def apply(self, action: Action | str, seat: int | None = None) -> list[dict]:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat);
        returns the events it produced. Raises :class:`IllegalAction` and changes
        nothing when the move is not allowed."""
        if not isinstance(action, Action):
            action = Action.parse(action)
        if self.phase == "over":
            raise IllegalAction(f"{action.text()}: the hand is over")
        mover = int(self.hs[ST_TO_MOVE])
        if seat is not None and seat != mover:
            raise IllegalAction(f"{action.text()}: out of turn, seat {mover} is to act")
        before = len(self.events)
        phase = int(self.hs[ST_PHASE])
        if phase == PH_OFFER:
            self._offer(mover, action)
        elif phase == PH_DRAW:
            self._draw(mover, action)
        elif phase == PH_DISCARD:
            self._discard(mover, action)
        else:
            self._last_discard(mover, action)
        if self.phase == "over" and not self._scored:
            showdown_nb(self.hs, self._packed, self._tab)
            self._scored = True
        return self.events[before:]

    def _refuse(self, action: Action, status: int, why: str = "") -> None:
        reason = why or ERRORS[-status]
        raise IllegalAction(f"{action.text()}: {reason}")

    def _event(self, seat: int, kind: str, card: int) -> None:
        self.events.append({"type": "event", "seat": seat, "action": kind, "card": _text(card)})

    def _offer(self, seat: int, action: Action) -> None:
        if action.kind not in ("take", "pass"):
            self._refuse(action, 1, "the upcard is offered: take or pass")
        up = int(self.hs[ST_UPCARD])
        status = apply_offer_nb(self.hs, seat, action.kind == "take")
        if status < 0:
            self._refuse(action, status)
        self._event(seat, action.kind, up)

    def _draw(self, seat: int, action: Action) -> None:
        if action.kind not in ("stock", "pile"):
            self._refuse(action, 1, "draw first: stock or pile")
        top = self.pile()[-1] if self.hs[ST_PILE_LEN] else -1
        status = apply_draw_nb(self.hs, seat, action.kind == "pile")
        if status < 0:
            self._refuse(action, status, "both passed the upcard: this draw is from the stock"
                         if self.hs[ST_PILE_LEN] else "the pile is empty")
        drawn = top if action.kind == "pile" else int(self.hs[ST_DECK + self.hs[ST_POS] - 1])
        self._event(seat, action.kind, drawn)

    def _knock_card(self, kept: dict[int, int]) -> int:
        """The discard keeping the least deadwood (ties: the higher value, then index)."""
        return min(kept, key=lambda c: (kept[c], -self._tab_value(c), -c))

    def _tab_value(self, card: int) -> int:
        return int(self.rules.rank_values()[card % 13])

    def _discard(self, seat: int, action: Action) -> None:
        if action.kind in ("stock", "pile", "take", "pass"):
            self._refuse(action, 1, "already drew this turn: discard, knock or big gin")
        kept, big = self._discard_options(self.hs)
        card = action.card
        if action.kind == "knock" and card < 0 and kept:
            card = self._knock_card(kept)
        if action.kind == "big_gin" and not big:
            self._refuse(action, 1, "big gin needs all 11 cards melded and rules with big gin")
        if action.kind == "knock" and card in kept and kept[card] > self.knock_limit:
            self._refuse(action, 1, f"deadwood {kept[card]} is above this hand's knock limit "
                         f"{self.knock_limit}")
        status = checked_discard_nb(self.hs, seat, card, action.kind == "knock",
                                    action.kind == "big_gin", self._packed, self._tab)
        if status < 0:
            self._refuse(Action(action.kind, card), status)
        self._event(seat, action.kind, card if action.kind != "big_gin" else -1)

    def _last_discard(self, seat: int, action: Action) -> None:
        if action.kind == "pass":
            apply_last_discard_nb(self.hs, seat, False, -1, 0, False, False, self._packed)
            self._event(seat, "pass", self.pile()[-1])
            return
        if action.kind not in ("knock", "big_gin"):
            self._refuse(action, 1, "the final discard may be taken only to knock: knock "
                         "CARD or pass")
        kept, big = self._last_discard_options()
        card = action.card
        if action.kind == "knock" and card < 0 and kept:
            card = self._knock_card(kept)
        if action.kind == "big_gin" and not big:
            self._refuse(action, 1, "big gin needs all 11 cards melded and rules with big gin")
        top = self.pile()[-1]
        dw = kept.get(card, 99)
        if action.kind == "knock" and card in kept and dw > self.knock_limit:
            self._refuse(action, 1, f"deadwood {dw} is above this hand's knock limit "
                         f"{self.knock_limit}")
        status = apply_last_discard_nb(self.hs, seat, True, card, dw, action.kind == "knock",
                                       action.kind == "big_gin", self._packed)
        if status < 0:
            self._refuse(Action(action.kind, card), status)
        self._event(seat, "pile", top)
        self._event(seat, action.kind, card if action.kind != "big_gin" else -1)

    # --- views ----------------------------------------------------------------------
    def events_for(self, seat: int) -> list[dict]:
        """The event log as ``seat`` sees it: the other seat's stock draws hide their card."""
        return [view_event(e, seat) for e in self.events]

    def history(self, seat: int) -> str:
        """The public history in the notation ``ginsim.advise`` reads, ``seat`` as "me"."""
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
        seat, the knocker's melds, the defender's layoffs, both hands."""
        if not self._scored:
            raise ValueError("the hand is not over yet: result() comes after the last move")
        hs = self.hs
        knocker = int(hs[RES_KNOCKER])
        out = {"outcome": OUTCOMES[int(hs[RES_OUTCOME])], "knocker": knocker,
               "hands": [_cards(hs[ST_HAND]), _cards(hs[ST_HAND + 1])],
               "points": [int(hs[RES_POINTS]), int(hs[RES_POINTS + 1])],
               "knocker_deadwood": int(hs[RES_KNOCKER_DEADWOOD]),
               "defender_deadwood_before_layoff": int(hs[RES_DEFENDER_BEFORE]),
               "defender_deadwood": int(hs[RES_DEFENDER_DEADWOOD]),
               "melds": [], "layoffs": [], "deadwood": [-1, -1]}
        if knocker >= 0:
            out["melds"], out["layoffs"] = self._showdown_melds(knocker)
            out["deadwood"][knocker] = out["knocker_deadwood"]
            out["deadwood"][1 - knocker] = out["defender_deadwood"]
        return out

    def _showdown_melds(self, knocker: int) -> tuple[list[list[str]], list[list[str]]]:
        from .showdown_view import knocker_melds, layoffs
        melds = knocker_melds(self.hs, knocker, self.rules)
        return ([_cards(m) for m in melds],
                [_cards(m) for m in layoffs(melds, int(self.hs[ST_HAND + 1 - knocker]),
                                            self.rules)])

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
