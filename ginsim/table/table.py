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
from ..simulator.machine.board_nb import (
    ERRORS,
    apply_discard_nb,
    apply_draw_nb,
    apply_last_discard_nb,
    apply_offer_nb,
    checked_discard_nb,
    legal_discards_nb,
    pile_allowed_nb,
    take_pile_top_nb,
)
from ..simulator.machine.buffers import new_board
from ..simulator.machine.deal_nb import deal_nb, seat_streams_nb, shuffle_deck_nb
from ..simulator.machine.phases_nb import showdown_nb
from ..simulator.machine.records import RECORD_DTYPE
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

PHASES = {PH_OFFER: "offer", PH_DRAW: "draw", PH_DISCARD: "discard",
          PH_LAST_DISCARD: "last_discard", PH_OVER: "over", PH_DEAD: "over"}
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
        self.rules, self._packed, self._tab = rules_arrays(rules)
        if self.rules.mahjong:
            raise ValueError("the Table plays knocking gin; Mahjong gin's multi-card takes "
                             "and table melds are played by ginsim.simulate only")
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be 0 or 1, got {dealer!r}")
        self.board = new_board()  # the hand state and its scratch
        self.hs = self.board.hs
        self.rng = np.zeros(3, dtype=np.uint64)
        self.seed, self.hand, self.dealer = seed, int(hand), int(dealer)
        if _deck is None:
            shuffle_deck_nb(self.hs, self.rng, np.uint64(seed or 0), self.hand)
        else:
            self.hs[ST_DECK:ST_DECK + 52] = _deck
        seat_streams_nb(self.rng, np.uint64(seed or 0), self.hand)
        deal_nb(self.hs, self.dealer, self._packed, self.hand)
        self._limit = int(self.hs[ST_KNOCK_LIMIT])
        self.events: list[dict] = []
        self._scored = False
        self._version = 0  # moves applied; the legal moves are kept per version
        self._legal: tuple[int, list[Action], list[str]] | None = None
        self._options: tuple[int, dict[int, int], bool] | None = None

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
        return self._limit

    def hand_of(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, sorted by suit and rank."""
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

    def _legal_now(self) -> tuple[int, list[tuple[str, int]], list[str]]:
        """The legal moves as (kind, card) pairs and texts, kept until the next move."""
        if self._legal is None or self._legal[0] != self._version:
            moves = self._list_legal()
            texts = [MOVE_TEXTS.get(m) or Action(*m).text() for m in moves]
            self._legal = (self._version, moves, texts)
        return self._legal

    def _list_legal(self) -> list[tuple[str, int]]:
        phase = int(self.hs[ST_PHASE])
        if phase == PH_OFFER:
            return [("take", -1), ("pass", -1)]
        if phase == PH_DRAW:
            return [("stock", -1)] + ([("pile", -1)] if pile_allowed_nb(self.hs) else [])
        limit = self.knock_limit
        if phase == PH_DISCARD:
            kept, big = self._options_now()
            out = [("discard", c) for c in kept]
            out += [("knock", c) for c, dw in kept.items() if dw <= limit]
            return out + ([("big_gin", -1)] if big else [])
        if phase == PH_LAST_DISCARD:
            kept, big = self._last_discard_options()
            out = [("pass", -1)] + [("knock", c) for c, dw in kept.items() if dw <= limit]
            return out + ([("big_gin", -1)] if big else [])
        return []

    def _discard_options(self, hs: np.ndarray) -> tuple[dict[int, int], bool]:
        """{card: deadwood kept after discarding it} for the seat to act, and whether
        big gin is open to it."""
        out = np.zeros(52, dtype=np.int64)
        all_melded = legal_discards_nb(self.board._replace(hs=hs), hs[ST_TO_MOVE], self._tab,
                                       out)
        values = out.tolist()
        kept = {c: values[c] for c in SORTED_CARDS if values[c] >= 0}
        return kept, bool(all_melded) and self.rules.big_gin_bonus is not None

    def _options_now(self) -> tuple[dict[int, int], bool]:
        if self._options is None or self._options[0] != self._version:
            self._options = (self._version, *self._discard_options(self.hs))
        return self._options[1], self._options[2]

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
        phase = int(self.hs[ST_PHASE])
        if phase >= PH_OVER:
            raise IllegalAction(f"{action.text()}: the hand is over")
        mover = int(self.hs[ST_TO_MOVE])
        if seat is not None and seat != mover:
            raise IllegalAction(f"{action.text()}: out of turn, seat {mover} is to act")
        before = len(self.events)
        if phase == PH_OFFER:
            self._offer(mover, action)
        elif phase == PH_DRAW:
            self._draw(mover, action)
        elif phase == PH_DISCARD:
            self._discard(mover, action)
        else:
            self._last_discard(mover, action)
        self._version += 1
        if self.hs[ST_PHASE] >= PH_OVER and not self._scored:
            showdown_nb(self.board, self._packed, self._tab)
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
        n = int(self.hs[ST_PILE_LEN])
        top = int(self.hs[ST_PILE + n - 1]) if n else -1
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
        kept, big = self._options_now()
        card = action.card
        if action.kind == "knock" and card < 0 and kept:
            card = self._knock_card(kept)
        if action.kind == "big_gin" and not big:
            self._refuse(action, 1, "big gin needs all 11 cards melded and rules with big gin")
        if action.kind == "knock" and card in kept and kept[card] > self.knock_limit:
            self._refuse(action, 1, f"deadwood {kept[card]} is above this hand's knock limit "
                         f"{self.knock_limit}")
        if action.kind == "discard" or (action.kind == "knock" and card in kept):
            # the options above already hold the kept deadwood: the board's apply checks
            # the card (held, not just taken) and the knock limit
            dw = kept.get(card, 0)
            status = apply_discard_nb(self.hs, seat, card, dw, action.kind == "knock", False,
                                      self._packed)
        else:
            status = checked_discard_nb(self.board, seat, card, action.kind == "knock",
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
