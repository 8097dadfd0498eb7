"""ginsim strategies as agents: objects fed one seat's protocol messages (docs/agents.md).

An :class:`Agent` keeps that seat's view of the hand (:mod:`ginsim.simulator.seat_nb`)
and answers each ``decide`` message with the move the hand loop's policy kernel makes
in that position, so agents seated at a :class:`~ginsim.simulator.table.Table`
(:func:`play_hand`) replay ``ginsim.simulate``'s hands exactly: the ``hand`` message
carries ``seed`` and ``hand`` and the agent seeds its stream as the kernel seeds that
seat. With a foreign referee (``seed`` null) it seeds from its own seed and a counter.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..game.cards import card_from_text, card_text
from ..game.rules import Rules
from ..game.state import (
    HS_SIZE,
    PH_DISCARD,
    PH_OFFER,
    ST_DEALER,
    ST_HAND,
    ST_KNOCK_LIMIT,
    ST_MULTIPLIER,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_POS,
    ST_TO_MOVE,
    ST_UPCARD,
)
from ..game.tables import card_tables
from ..strategies.presets import Strategy, parse_strategy
from .board_nb import clear_position_nb, seat_streams_nb
from .seat_nb import decide_discard_nb, decide_last_discard_nb, decide_take_nb, observe_nb
from .table import KINDS, Action, Table, view_event

_KIND = {kind: i for i, kind in enumerate(KINDS)}


class Agent:
    """A ginsim strategy that plays from one seat's messages (the protocol's)."""

    def __init__(self, strategy: Strategy, rules: Rules | str = "modern", seed: int = 0
                 ) -> None:
        self.strategy = strategy
        self.seed = int(seed)
        self.seat = 0
        self._hands_seen = 0
        self._set_rules(Rules.coerce(rules))
        self._params = np.stack([strategy.vector, strategy.vector])
        self.rng = np.zeros(3, dtype=np.uint64)
        self._setup()

    def _setup(self) -> None:
        self.hs = np.zeros(HS_SIZE, dtype=np.int64)

    @classmethod
    def from_spec(cls, spec: str, rules: Rules | str = "modern", seed: int = 0) -> Agent:
        """An agent for a strategy spec (``simple``, ``memory2:knock=6``, ``equilibrium``,
        ``mc:rollouts=32``...)."""
        strategy = parse_strategy(spec)
        if strategy.is_mc and cls is Agent:
            from .mc_agent import McAgent
            return McAgent(strategy, rules, seed)
        return cls(strategy, rules, seed)

    def _set_rules(self, rules: Rules) -> None:
        if rules.mahjong:
            raise ValueError("agents play knocking gin; Mahjong gin has no agent protocol")
        self.rules = rules
        self._packed = rules.packed()
        self._tab = card_tables(rules)

    def handle(self, message: dict) -> dict | None:
        """Feed one protocol message; returns the reply for ``decide``, else None."""
        kind = message.get("type")
        if kind == "event":
            self._observe(message)
        elif kind == "decide":
            return self.decide(message)
        elif kind == "hand":
            self._new_hand(message)
        elif kind == "start":
            self.seat = int(message.get("seat", 0))
            if message.get("rules"):
                self._set_rules(Rules.coerce(message["rules"]))
        return None

    def _observe(self, message: dict) -> None:
        card = message.get("card")
        observe_nb(self.hs, int(message["seat"]), _KIND[message["action"]],
                   -1 if card is None else card_from_text(card), self._packed)

    def _new_hand(self, message: dict) -> None:
        hs = self.hs
        me = self.seat = int(message.get("seat", self.seat))
        hand_id = int(message.get("hand", 0))
        clear_position_nb(hs, hand_id)
        cards = [card_from_text(c) for c in message["cards"]]
        hs[ST_HAND + me] = sum(1 << c for c in cards)
        dealer = int(message["dealer"])
        hs[ST_DEALER] = dealer
        upcard = message.get("upcard")
        hs[ST_POS] = 21  # 10 + 10 and the upcard, or the eleven-card deal's 11 + 10
        if upcard is not None:
            up = card_from_text(upcard)
            hs[ST_UPCARD] = up
            hs[ST_PILE] = up
            hs[ST_PILE_LEN] = 1
            hs[ST_PILE_MASK] = 1 << up
        hs[ST_PHASE] = PH_OFFER if upcard is not None else PH_DISCARD
        hs[ST_TO_MOVE] = 1 - dealer
        hs[ST_KNOCK_LIMIT] = int(message.get("knock_limit", self.rules.knock_limit))
        hs[ST_MULTIPLIER] = int(message.get("multiplier", 1))
        seed = message.get("seed")
        if seed is None:
            seat_streams_nb(self.rng, np.uint64(self.seed), self._hands_seen)
        else:
            seat_streams_nb(self.rng, np.uint64(seed), hand_id)
        self._hands_seen += 1

    def decide(self, message: dict) -> dict:
        """The reply to a ``decide`` message: the move this strategy makes now."""
        legal = message.get("legal", ())
        phase = message["phase"]
        me, hs, params = self.seat, self.hs, self._params
        if phase in ("offer", "draw"):
            if ("take" in legal or "pile" in legal) and decide_take_nb(
                    params, me, hs, self._packed, self._tab, self.rng):
                return {"action": "take" if phase == "offer" else "pile"}
            return {"action": "pass" if phase == "offer" else "stock"}
        if phase == "discard":
            card, knock, big = decide_discard_nb(params, me, hs, self._packed, self._tab,
                                                 self.rng)
            if big:
                return {"action": "big_gin"}
            return {"action": "knock" if knock else "discard", "card": card_text(int(card))}
        take, card, big = decide_last_discard_nb(params, me, hs, self._packed, self._tab)
        if not take:
            return {"action": "pass"}
        if big:
            return {"action": "big_gin"}
        return {"action": "knock", "card": card_text(int(card))}


def hand_message(table: Table, seat: int, game: int = 0, scores: Sequence[int] = (0, 0)
                 ) -> dict:
    """The protocol's ``hand`` message for ``seat`` at ``table``."""
    up = int(table.hs[ST_UPCARD])
    return {"type": "hand", "game": game, "hand": table.hand, "seat": seat,
            "dealer": table.dealer, "cards": [card_text(c) for c in table.hand_of(seat)],
            "upcard": card_text(up) if up >= 0 else None, "knock_limit": table.knock_limit,
            "multiplier": int(table.hs[ST_MULTIPLIER]), "scores": list(scores),
            "seed": table.seed}


def decide_message(table: Table, timeout_ms: int | None = None) -> dict:
    """The protocol's ``decide`` message for the seat to act."""
    out = {"type": "decide", "phase": table.phase,
           "legal": [a.text() for a in table.legal_actions()], "stock_left": table.stock_left}
    if timeout_ms is not None:
        out["timeout_ms"] = timeout_ms
    return out


def play_hand(table: Table, agents: Sequence[Agent], game: int = 0,
              scores: Sequence[int] = (0, 0)) -> dict:
    """Seat ``agents`` (seat a, seat b) at ``table`` and play the hand out, each agent
    fed its own view of every event; returns :meth:`Table.result`."""
    for seat, agent in enumerate(agents):
        agent.handle(hand_message(table, seat, game, scores))
    while table.to_move is not None:
        seat = table.to_move
        reply = agents[seat].handle(decide_message(table))
        for event in table.apply(Action.from_message(reply or {}), seat):
            for s, agent in enumerate(agents):
                agent.handle(view_event(event, s))
    return table.result()

