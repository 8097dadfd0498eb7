"""A game at the Table: hands to the rules' target with the game scoring kernel.

:class:`TableGame` deals hand after hand (:class:`~ginsim.simulator.table.Table`), enters
each in the same game scoring kernel as the game schedulers (``game_hand_nb``), and moves
the deal as the rules say (``next_dealer``; a dead hand is dealt again by the same
dealer). Seat 1 is a ginsim :class:`~ginsim.simulator.agents.Agent`; seat 0 plays through
:meth:`TableGame.apply`. ``ginsim play`` is this game in the terminal.
"""

from __future__ import annotations

from dataclasses import replace

from ..game.game_scoring import GameScore, game_score, new_states, pack_game_rules
from ..game.game_scoring_nb import GR_NEXT_DEALER, S_POINTS, STANDARD, game_hand_nb
from ..game.rules import NEXT_DEALER_MODES, Rules
from ..game.state import RES_OUTCOME, RES_POINTS, ST_MULTIPLIER
from .agents import Agent, decide_message, hand_message
from .table import Action, Table, view_event

MAX_HANDS = 200  # a game still undecided after this many hands stops (dead hands redeal)


class TableGame:
    """A standard game between a player (seat 0) and a bot (seat 1) to the rules' target."""

    def __init__(self, bot: str, rules: Rules | str = "modern", seed: int = 0,
                 target: int | None = None) -> None:
        self.rules = Rules.coerce(rules)
        if target is not None:
            self.rules = replace(self.rules, target=int(target))
        self.rules.check_games()
        self.bot = Agent.from_spec(bot, self.rules, seed)
        self.bot_spec = bot
        self.seed = int(seed)
        self._gr = pack_game_rules(self.rules)
        self._sides, self._games = new_states(1)
        self.hands_played = 0
        self.dealer = self.seed % 2
        self.table: Table | None = None
        self.over = False

    @property
    def points(self) -> tuple[int, int]:
        """Each seat's hand points so far toward the target."""
        s = self._sides[0, 0]
        return int(s[0, S_POINTS]), int(s[1, S_POINTS])

    def deal(self) -> Table:
        """Deal the next hand and tell the bot its cards."""
        self.table = Table(self.rules, self.seed, self.hands_played, self.dealer)
        self.bot.handle(hand_message(self.table, 1, 0, self.points))
        return self.table

    def bot_move(self) -> list[dict]:
        """The bot's move, applied; returns its events."""
        table = self.table
        reply = self.bot.handle(decide_message(table))
        return self._apply(Action.from_message(reply or {}), 1)

    def apply(self, action: Action | str) -> list[dict]:
        """The player's move (raises IllegalAction, changing nothing, when illegal)."""
        return self._apply(action, 0)

    def _apply(self, action: Action | str, seat: int) -> list[dict]:
        events = self.table.apply(action, seat)
        for event in events:
            self.bot.handle(view_event(event, 1))
        return events

    def finish_hand(self) -> None:
        """Enter the finished hand in the game's scoring and move the deal."""
        hs = self.table.hs
        a, b = int(hs[RES_POINTS]), int(hs[RES_POINTS + 1])
        winner = 0 if a > 0 else 1 if b > 0 else -1
        self.over = bool(game_hand_nb(STANDARD, self._sides[0], self._games[0], winner, a + b,
                                      int(hs[RES_OUTCOME]), int(hs[ST_MULTIPLIER]), self._gr, 1))
        self.hands_played += 1
        mode = NEXT_DEALER_MODES[int(self._gr[GR_NEXT_DEALER])] if winner >= 0 else "same"
        self.dealer = {"loser": 1 - winner, "winner": winner, "alternate": 1 - self.dealer,
                       "same": self.dealer}[mode]
        if self.hands_played >= MAX_HANDS:
            self.over = True

    def score(self) -> GameScore:
        """The finished game: winner, points, boxes and totals with every bonus."""
        return game_score(self._sides[0], self._games[0])
