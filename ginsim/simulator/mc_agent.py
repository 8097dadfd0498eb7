"""The Monte Carlo player as an agent: the mc seat's choices from its own view of the hand.

:class:`McAgent` keeps what the mc seat of the hand loop keeps (``simulator/mc_nb.py``):
the position as its seat sees it and the public events its belief replays, in the mc
scratch past ``HS_SIZE``. Its offers and the 50th-card rule are its rollout strategy's;
its draws and discards are the rollouts of ``mc_draw_choice_nb`` and ``mc_discard_nb``,
run on that view: the rollouts overwrite the other hand and the stock with sampled guesses
before any option is played, so the unknown cards never matter, and the answers are the
hand loop's (random streams included). The ``oracle`` diagnostic (guesses replaced by the
true hand) needs the hidden hand and is refused.
"""

from __future__ import annotations

import numpy as np

from ..game.cards import card_from_text, card_text
from ..game.history import EV_DISCARD, EV_PASS, EV_STOCK, EV_TAKE
from ..game.state import PH_LAST_DISCARD, POSITION_END, POSITION_START, ST_PHASE, ST_PLANNED
from ..strategies.params import P_BASE, P_MC_MARGIN, P_MC_ORACLE
from .agents import Agent
from .board_nb import pile_allowed_nb
from .hand_nb import SCRATCH_SIZE
from .mc_nb import (
    MC_EVENTS,
    MC_ROWS,
    from_pile_nb,
    mc_discard_nb,
    mc_draw_choice_nb,
    phase_rows_nb,
    prepare_nb,
)
from .records import ACTION_BIG_GIN, ACTION_KNOCK, TRACE_WIDTH
from .seat_nb import decide_discard_nb, decide_last_discard_nb, decide_take_nb

_EVENT = {"take": EV_TAKE, "pile": EV_TAKE, "pass": EV_PASS, "stock": EV_STOCK,
          "discard": EV_DISCARD, "knock": EV_DISCARD}


class McAgent(Agent):
    """An ``mc`` strategy spec playing one seat from the protocol's messages."""

    def _setup(self) -> None:
        if self._params[0, P_MC_ORACLE] != 0:
            raise ValueError("mc:oracle=1 reads the opponent's hidden hand; an agent sees "
                             "only its seat's cards: leave oracle out")
        self.hs = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        self._events = self.hs[MC_EVENTS:MC_EVENTS + 4 * 1200].reshape(1200, 4)
        rows = self.hs[MC_ROWS:MC_ROWS + 2 * P_BASE].view(np.float64)
        self._phase_rows = rows.reshape(2, P_BASE)
        self._empty = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
        self._n_ev = 0
        self._belief = None
        self._drawn = None

    def _new_hand(self, message: dict) -> None:
        super()._new_hand(message)
        phase_rows_nb(self.hs, self._params)
        self._n_ev = 0
        self._belief = None

    def _observe(self, message: dict) -> None:
        kind, seat = message["action"], int(message["seat"])
        card = -1 if message.get("card") is None else card_from_text(message["card"])
        last = self.hs[ST_PHASE] == PH_LAST_DISCARD
        if kind in _EVENT and not last:
            flag = 1
            if kind == "stock":
                flag = int(pile_allowed_nb(self.hs))
                card = -1
            elif kind in ("discard", "knock"):
                flag = from_pile_nb(self._events, self._n_ev, seat, card)
            self._events[self._n_ev] = (seat, _EVENT[kind], card, flag)
            self._n_ev += 1
        if seat == self.seat and kind in ("stock", "pile"):
            self._drawn = (kind, message.get("card"))
        super()._observe(message)

    def decide(self, message: dict) -> dict:
        phase, legal = message["phase"], message.get("legal", ())
        me, hs, rules, tab = self.seat, self.hs, self._packed, self._tab
        if phase == "offer":
            take = decide_take_nb(self._phase_rows, me, hs, rules, tab, self.rng)
            return {"action": "take" if take else "pass"}
        if phase == "last_discard":
            take, card, big = decide_last_discard_nb(self._phase_rows, me, hs, rules, tab)
            if not take:
                return {"action": "pass"}
            return {"action": "big_gin"} if big else {"action": "knock",
                                                      "card": card_text(int(card))}
        if phase == "draw":
            take, *belief = mc_draw_choice_nb(hs, me, "pile" in legal, self._params,
                                              self._n_ev, rules, tab, self.rng, self._empty)
            hs[ST_PLANNED] = 0
            self._belief = [belief[0], belief[1], np.uint64(belief[2]), belief[3]]
            return {"action": "pile" if take else "stock"}
        return self._discard()

    def _discard(self) -> dict:
        me, hs, rules, tab = self.seat, self.hs, self._packed, self._tab
        if hs[ST_PLANNED] != 0:  # the upcard taken: the rollout strategy's discard
            card, knock, big = decide_discard_nb(self._phase_rows, me, hs, rules, tab, self.rng)
            return _reply(int(card), bool(knock), bool(big))
        if self._belief is None:  # the eleven-card deal's first discard
            n, unseen, key, rollouts = prepare_nb(hs, me, self._params, self._n_ev, rules,
                                                  tab, self.rng)
            self._belief = [n, unseen, np.uint64(key), rollouts]
            self._drawn = None
        n, unseen, key, rollouts = self._belief
        exclude = 0
        if self._drawn is not None and self._drawn[0] == "stock":
            exclude = 1 << card_from_text(self._drawn[1])
        position = hs[POSITION_START:POSITION_END].copy()
        card, action = mc_discard_nb(hs, me, n, unseen, exclude, key, rollouts,
                                     self._params[me, P_MC_MARGIN], True, rules, tab, self.rng,
                                     self._empty)
        hs[POSITION_START:POSITION_END] = position  # the referee's event applies it
        self._belief = None
        self._drawn = None
        return _reply(int(card), action == ACTION_KNOCK, action == ACTION_BIG_GIN)


def _reply(card: int, knock: bool, big: bool) -> dict:
    if big:
        return {"action": "big_gin"}
    return {"action": "knock" if knock else "discard", "card": card_text(card)}
