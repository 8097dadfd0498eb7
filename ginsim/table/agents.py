"""ginsim strategies as agents: objects fed one seat's protocol messages (docs/agents.md).

An :class:`Agent` keeps that seat's checked view of the hand
(:class:`~ginsim.table.seat_view.SeatView`: a message describing no possible position
is refused with one line, before the view moves) and answers each ``decide`` message
with the move the hand loop's policy kernel makes in that position, so agents seated
at a :class:`~ginsim.table.table.Table` (:func:`play_hand`) replay ``ginsim.simulate``'s
hands exactly: the ``hand`` message carries ``seed`` and ``hand`` and the agent seeds
its stream as the kernel seeds that seat. With a foreign referee (``seed`` null) it
seeds from its own seed and a counter.

:class:`McAgent` (what ``Agent.from_spec`` makes of an ``mc`` spec) keeps what the mc
seat of the hand loop keeps (``simulator/search/mc_nb.py``): its seat's view and the public
events its belief replays, in its search memory (``McAgent.mem``). Its offers and the
50th-card rule are its rollout strategy's; its draws and discards are the rollouts of
``mc_draw_choice_nb`` and ``mc_discard_nb`` run on that view: the rollouts overwrite the
other hand and the stock with sampled guesses before any option is played, so the
unknown cards never matter, and the answers are the hand loop's (random streams
included). The ``oracle`` diagnostic (guesses replaced by the true hand) needs the
hidden hand and is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..game.history import EV_DISCARD, EV_PASS, EV_STOCK, EV_TAKE
from ..game.inputs.specs import brief
from ..game.rng_nb import check_seed
from ..game.rules import Rules
from ..game.state import (
    A_BIG_GIN,
    A_DISCARD,
    A_KNOCK,
    A_PASS,
    A_PILE,
    A_TAKE,
    PH_LAST_DISCARD,
    ST_HAND,
    ST_MULTIPLIER,
    ST_PHASE,
    ST_PILE,
    ST_PILE_LEN,
    ST_PILE_MASK,
    ST_PLANNED,
    ST_UPCARD,
)
from ..simulator.machine.board_nb import drop_plan_nb, pile_allowed_nb
from ..simulator.machine.buffers import Search, new_mc_memory
from ..simulator.machine.deal_nb import offer_last_discard_nb, seat_streams_nb
from ..simulator.play.drive_nb import decide_discard_nb, decide_last_discard_nb, decide_take_nb
from ..simulator.play.hand_nb import hand_params
from ..simulator.search.mc_guesses_nb import prepare_nb
from ..simulator.search.mc_memory_nb import (
    from_pile_nb,
    new_game_memory_nb,
    phase_rows_nb,
    start_hand_memory_nb,
)
from ..simulator.search.mc_nb import McPlay, mc_discard_choice_nb, mc_draw_choice_nb
from ..simulator.search.win_table import game_win_table
from ..strategies.params import GRID_CELLS, P_GRID, P_MC_GAME, P_MC_ORACLE
from ..strategies.presets import Strategy, parse_strategy
from .actions import KINDS, TEXT, Action, card_of, rules_arrays
from .seat_fields import check_seat_field
from .seat_view import SeatEvent, SeatView
from .showdown_view import laid_melds
from .table import Table, view_event
from .table_args import check_rules_arg


class Agent:
    """A ginsim strategy that plays from one seat's messages (the protocol's)."""

    def __init__(self, strategy: Strategy, rules: Rules | str = "modern", seed: int = 0
                 ) -> None:
        self.strategy = strategy
        self.seed = check_seed(seed)
        self.seat = 0
        self._hands_seen = 0
        self._game: tuple | None = None  # (number, seat, rules) of the game under way
        self.view = SeatView()
        self.unlisted: dict | None = None  # the strategy's reply the last legal list left out
        self._set_rules(rules)
        self.rng = np.zeros(3, dtype=np.uint64)
        self._setup()

    def _setup(self) -> None:
        self.board = self.view.board
        self.hs = self.board.hs

    @classmethod
    def from_spec(cls, spec: str, rules: Rules | str = "modern", seed: int = 0) -> Agent:
        """An agent for a strategy spec (``simple``, ``memory2:knock=6``, ``equilibrium``,
        ``mc:rollouts=32``...); the seed and rules are checked as the CLI checks them
        (one-line ValueError naming the argument)."""
        seed = check_seed(seed)
        check_rules_arg(rules)
        strategy = parse_strategy(spec)
        if strategy.is_mc and cls is Agent:
            return McAgent(strategy, rules, seed)
        return cls(strategy, rules, seed)

    def _set_rules(self, spec: Rules | str) -> None:
        rules, packed, tab = rules_arrays(spec)
        if rules.mahjong:
            raise ValueError("agents play knocking gin; Mahjong gin has no agent protocol")
        self.rules, self._packed, self._tab = rules, packed, tab
        self.view.set_rules(rules, packed, tab)
        self._params = self._seat_rows()  # the chart follows the rules (vector_for)
        self._score_chart = self.strategy.score_chart_for(rules)
        self._hand_grid = self._params[0, P_GRID:P_GRID + GRID_CELLS].copy()

    def _seat_rows(self) -> np.ndarray:
        """Both seats' parameter rows of this agent's strategy under its rules."""
        return np.stack([self.strategy.vector_for(self.rules)] * 2)

    def handle(self, message: dict) -> dict | None:
        """Feed one protocol message; returns the reply for ``decide``, else None. A
        message the seat's view refuses (:class:`~ginsim.table.seat_view.SeatView`: a
        position the game cannot reach, a decision out of phase, a legal move the
        position does not allow) is a one-line ValueError, and the agent is as before."""
        if not isinstance(message, dict):
            raise TypeError(f"a protocol message is a JSON object (a dict), got "
                            f"{brief(message, 40)}")
        kind = message.get("type")
        if kind == "event":
            self._observe(self.view.check_event(message))
        elif kind == "decide":
            self.view.check_decide(message)
            return self._listed_reply(self.decide(message), message["phase"])
        elif kind == "hand":
            self._new_hand(message)
        elif kind == "start":
            seat = check_seat_field(message.get("seat", 0), "start")
            if message.get("rules"):
                self._set_rules(message["rules"])
            self.seat = seat
            self.view.forget()
            game = (message.get("game"), self.seat, self.rules)
            if game[0] is None or game != self._game:
                self._new_game()
            self._game = game
        return None

    def _new_game(self) -> None:
        """A game begins (a plain strategy remembers nothing across hands). A ``start``
        that repeats the game under way (its number, seat and rules: a referee that hands
        the agent back between hands sends one per hand) is not a new game."""

    def _observe(self, event: SeatEvent) -> None:
        """Move the seat's view by a checked event."""
        self.view.apply(event)

    def _new_hand(self, message: dict) -> None:
        seed = message.get("seed")
        if seed is not None:
            try:
                seed = check_seed(seed)
            except ValueError as exc:
                raise ValueError(f"hand: {exc}") from None
        self.seat, hand_id = self.view.deal(message, self.seat)
        if seed is None:
            seat_streams_nb(self.rng, np.uint64(self.seed), self._hands_seen)
        else:
            seat_streams_nb(self.rng, np.uint64(seed), hand_id)
        self._hands_seen += 1
        if self._score_chart is not None:  # game=1: knock by the cell of the scores told
            grid = self._score_chart.grid_at(self.view.scores, self.seat, self.rules.target)
            self._params[:, P_GRID:P_GRID + GRID_CELLS] = self._hand_grid if grid is None else grid

    def _listed_reply(self, reply: dict, phase: str) -> dict:
        """``reply`` when its move is in the decision's ``legal`` list, else the listed
        move nearest to it (:meth:`SeatView.nearest_listed`): an answer is always one of
        the moves the referee listed."""
        kind = KINDS.index(reply["action"])
        card = card_of(reply["card"]) if reply.get("card") is not None else -1
        listed_kind, listed_card = self.view.nearest_listed(kind, card)
        self.unlisted = None if (listed_kind, listed_card) == (kind, card) else reply
        if self.unlisted is None:
            return reply
        if listed_kind == A_KNOCK:
            return self.knock_reply(listed_card, taking=phase == "last_discard")
        if listed_kind == A_DISCARD:
            return {"action": "discard", "card": TEXT[listed_card]}
        return {"action": KINDS[listed_kind]}

    def decide(self, message: dict) -> dict:
        """The reply to a ``decide`` message: the move this strategy makes now (a pile
        draw only where ``legal`` lists one)."""
        phase = message["phase"]
        me, board, params = self.seat, self.board, self._params
        if phase in ("offer", "draw"):
            listed = self.view.listed
            if ((A_TAKE, -1) in listed or (A_PILE, -1) in listed) and decide_take_nb(
                    params, me, board, self._packed, self._tab, self.rng):
                return {"action": "take" if phase == "offer" else "pile"}
            return {"action": "pass" if phase == "offer" else "stock"}
        if phase == "discard":
            kind, card, _ = decide_discard_nb(params, me, board, self._packed, self._tab,
                                              self.rng)
            return self._reply(int(card), kind == A_KNOCK, kind == A_BIG_GIN)
        return self._last_discard_reply(params)

    def _last_discard_reply(self, params: np.ndarray) -> dict:
        """The 50th-card turn's reply: pass, or take the final discard to knock."""
        kind, card, _ = decide_last_discard_nb(params, self.seat, self.board, self._packed,
                                               self._tab)
        if kind == A_PASS:
            return {"action": "pass"}
        if kind == A_BIG_GIN:
            return {"action": "big_gin"}
        return self.knock_reply(int(card), taking=True)

    def _reply(self, card: int, knock: bool, big: bool) -> dict:
        if big:
            return {"action": "big_gin"}
        return self.knock_reply(card) if knock else {"action": "discard", "card": TEXT[card]}

    def knock_reply(self, card: int, taking: bool = False) -> dict:
        """A knock discarding ``card`` (after taking the final discard, with ``taking``),
        with the melds the showdown will lay."""
        hs = self.hs
        hand = int(hs[ST_HAND + self.seat])
        pile = int(hs[ST_PILE_MASK])
        if taking:
            top = int(hs[ST_PILE + hs[ST_PILE_LEN] - 1])
            hand |= 1 << top
            pile &= ~(1 << top)
        hand &= ~(1 << card)
        return {"action": "knock", "card": TEXT[card],
                "melds": laid_melds(hand, pile | (1 << card), self._tab)}


_EVENT = {"take": EV_TAKE, "pile": EV_TAKE, "pass": EV_PASS, "stock": EV_STOCK,
          "discard": EV_DISCARD, "knock": EV_DISCARD}


def _search_of(search: Search, exclude: int) -> Search:
    """A search numba returned (its fields boxed as Python numbers), typed as the mc
    kernels compile it, excluding the card mask ``exclude``."""
    return Search(np.int64(search.particles), np.int64(search.unseen), np.uint64(search.key),
                  np.int64(search.rollouts), float(search.margin), np.int64(exclude),
                  np.int64(search.searched), np.int64(search.game))


class McAgent(Agent):
    """An ``mc`` strategy spec playing one seat from the protocol's messages."""

    def _seat_rows(self) -> np.ndarray:
        # The rows as the hand loop passes an mc seat's (a strided view, hand_params), so
        # mc_draw_choice_nb and prepare_nb reuse the hand loop's compiled specialization
        # instead of compiling a C-contiguous twin (some 35 s of compiling, cold).
        return hand_params(super()._seat_rows())

    def _setup(self) -> None:
        if self._params[0, P_MC_ORACLE] != 0:
            raise ValueError("mc:oracle=1 reads the opponent's hidden hand; an agent sees "
                             "only its seat's cards: leave oracle out")
        self.board = self.view.board
        self.hs = self.board.hs
        self.mem = new_mc_memory()
        self._win_rules: Rules | None = None  # the rules mem.win_table was made for
        new_game_memory_nb(self.mem)  # a referee that sends no "start": one game
        self._phase_rows = self.mem.rows
        self._belief: Search | None = None
        self._drawn = None

    def _play(self) -> McPlay:
        """The view's board, the seat's streams and memory as mc's choices take them
        (no trace, nothing recorded)."""
        return McPlay(self.board, self.rng, self.mem.empty_trace, self.mem, None)

    def _new_hand(self, message: dict) -> None:
        super()._new_hand(message)
        phase_rows_nb(self.mem, self._params)
        start_hand_memory_nb(self.mem)
        self._game_scores(self.view.scores)
        self._belief = None

    def _game_scores(self, scores: tuple[int, int] | None) -> None:
        """Play for the game from the ``hand`` message's scores (points toward the rules'
        target, per seat; checked by the view, :func:`check_scores`) when the strategy
        does (``game=1``); scores the target cannot hold are ignored."""
        target = self.rules.target
        known = (self._params[0, P_MC_GAME] != 0 and scores is not None
                 and all(0 <= s < target for s in scores))
        if known and self._win_rules != self.rules:  # a start may have changed the rules
            self.mem = self.mem._replace(win_table=np.array(game_win_table(self.rules)))
            self._win_rules = self.rules
        self.mem.scores[:] = (1, int(scores[0]), int(scores[1])) if known else (0, 0, 0)

    def _new_game(self) -> None:
        """A game begins: what the mixture learned of the last game's opponent goes."""
        new_game_memory_nb(self.mem)

    def _observe(self, event: SeatEvent) -> None:
        seat, kind, card = event.seat, event.action, event.card
        row = None  # the public event the belief replays (none in the 50th-card turn)
        if kind in _EVENT and self.hs[ST_PHASE] != PH_LAST_DISCARD:
            flag = 1
            if kind == "stock":
                flag = int(pile_allowed_nb(self.hs))
                card = -1
            elif kind in ("discard", "knock"):
                flag = from_pile_nb(self.mem.events, self.mem.n_events[0], seat, card)
            row = (seat, _EVENT[kind], card, flag)
        super()._observe(event)
        if row is not None:
            self.mem.events[self.mem.n_events[0]] = row
            self.mem.n_events[0] += 1
        if seat == self.seat and kind in ("stock", "pile"):
            self._drawn = (kind, event.card)

    def decide(self, message: dict) -> dict:
        phase = message["phase"]
        me, hs, rules, tab = self.seat, self.hs, self._packed, self._tab
        board = self.board
        if phase == "offer":
            take = decide_take_nb(self._phase_rows, me, board, rules, tab, self.rng)
            return {"action": "take" if take else "pass"}
        if phase == "last_discard":
            return self._last_discard_reply(self._phase_rows)
        if phase == "draw":
            take, self._belief = mc_draw_choice_nb(self._play(), me,
                                                   (A_PILE, -1) in self.view.listed,
                                                   self._params, rules, tab)
            drop_plan_nb(hs)
            return {"action": "pile" if take else "stock"}
        return self._discard()

    def _discard(self) -> dict:
        me, hs, rules, tab = self.seat, self.hs, self._packed, self._tab
        board = self.board
        if hs[ST_PLANNED] != 0:  # the upcard taken: the rollout strategy's discard
            kind, card, _ = decide_discard_nb(self._phase_rows, me, board, rules, tab,
                                              self.rng)
            return self._reply(int(card), kind == A_KNOCK, kind == A_BIG_GIN)
        if self._belief is None:  # the eleven-card deal's first discard
            self._belief = prepare_nb(hs, me, self._params, rules, tab, self.rng, self.mem)
            self._drawn = None
        exclude = 0
        if self._drawn is not None and self._drawn[0] == "stock":
            exclude = 1 << self._drawn[1]
        search = _search_of(self._belief, exclude)
        kind, card, _ = mc_discard_choice_nb(self._play(), me, search, True, rules, tab)
        self._belief = None
        self._drawn = None
        return self._reply(int(card), kind == A_KNOCK, kind == A_BIG_GIN)


def hand_message(table: Table, seat: int, game: int = 0, scores: Sequence[int] = (0, 0)
                 ) -> dict:
    """The protocol's ``hand`` message for ``seat`` at ``table``."""
    up = int(table.hs[ST_UPCARD])
    return {"type": "hand", "game": game, "hand": table.hand, "seat": seat,
            "dealer": table.dealer, "cards": [TEXT[c] for c in table.hand_of(seat)],
            "upcard": TEXT[up] if up >= 0 else None, "knock_limit": table.knock_limit,
            "multiplier": int(table.hs[ST_MULTIPLIER]), "scores": list(scores),
            "seed": table.seed}


def compile_last_discard(spec: str, rules: Rules | str | None = None, seed: int = 0) -> None:
    """Compile the 50th-card decision of ``spec``'s agent, a kernel of its own that only a
    hand at the stock floor calls, by asking it once: an agent is dealt hand 0 of
    ``seed`` and asked, as at the floor, whether to take the final discard (the upcard
    on its view's pile). A hand seldom reaches the floor (about one in a thousand for
    simple against itself), so warming cannot wait for one."""
    table = Table(Rules.coerce(rules), seed, 0, 0)
    agent = Agent.from_spec(spec, table.rules, seed)
    agent.handle(hand_message(table, 1))
    offer_last_discard_nb(agent.hs, 1)
    agent.handle({"type": "decide", "phase": "last_discard", "legal": ["pass"],
                  "stock_left": table.stock_left})


def decide_message(table: Table, timeout_ms: int | None = None) -> dict:
    """The protocol's ``decide`` message for the seat to act."""
    out = {"type": "decide", "phase": table.phase, "legal": table.legal_texts(),
           "stock_left": table.stock_left}
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
