"""A ``pyspiel.Bot`` that plays ginsim strategies in OpenSpiel's ``gin_rummy``.

    import pyspiel
    from ginsim_bot import GinsimBot          # adapters/openspiel on sys.path
    game = pyspiel.load_game("gin_rummy")
    bot = GinsimBot(game, player_id=0, strategy="memory2")

The bot keeps a shadow copy of the OpenSpiel state, replays every action of the real
state's history into it, and turns what the seat may see into ginsim's agent protocol
(docs/agents.md) for a :class:`ginsim.Agent`: the deal (its own ten cards and the
upcard), the upcard offers, draws (a stock card shown only to the seat that drew it),
discards and knocks. The agent decides the offers, draws, discards and knocks; the
showdown's bookkeeping (the melds a knocker lays one action at a time, the defender's
layoffs and melds) is mechanical and done here exactly: the knocker lays a least-deadwood
arrangement (the agent's own when its knock names melds), the defender lays off a card
only when some split of its hand with the least final deadwood lays that card off
(``ginsim.layoff_deadwood``).

OpenSpiel's rules as ginsim rules: :func:`openspiel_rules`. Needs ``pip install
ginsim[openspiel]``. OpenSpiel is Apache-2.0; nothing of its code is used here beyond
its Python API.
"""

from __future__ import annotations

import pyspiel

from ginsim import Agent, Rules, best_melds, deadwood, layoff_deadwood
from ginsim.game.cards import card_text

Phase = pyspiel.gin_rummy.Phase
DRAW_UPCARD = pyspiel.gin_rummy.DRAW_UPCARD_ACTION
DRAW_STOCK = pyspiel.gin_rummy.DRAW_STOCK_ACTION
PASS = pyspiel.gin_rummy.PASS_ACTION
KNOCK = pyspiel.gin_rummy.KNOCK_ACTION
MELD_BASE = pyspiel.gin_rummy.MELD_ACTION_BASE
#: OpenSpiel's suits in card-id order (s, c, d, h) -> ginsim's suit index (S H D C).
SUIT_TO_GINSIM = (0, 3, 2, 1)
WALL_STOCK = 2  # OpenSpiel's wall: the stock size at which the hand can only end


def to_ginsim(card: int) -> int:
    """A ginsim card (suit*13 + rank, suits S H D C) from an OpenSpiel card id (s c d h)."""
    return SUIT_TO_GINSIM[card // 13] * 13 + card % 13


def openspiel_rules(params: dict) -> Rules:
    """ginsim rules for OpenSpiel ``gin_rummy`` game parameters.

    OpenSpiel plays one hand (returns are its points, zero-sum), player 0 acts first, a
    tie is not an undercut (the knocker scores 0), the undercut pays ``undercut_bonus``
    plus the difference, there is no big gin, and at the wall (2 stock cards) the next
    player may only take the final discard to knock, or end the hand (ginsim's
    last-discard rule). Its Oklahoma sets the knock card from the upcard (an ace: gin
    only) without doubling any suit.
    """
    unsupported = {k: v for k, v in params.items() if k in ("hand_size", "num_ranks",
                                                            "num_suits")
                   and v != {"hand_size": 10, "num_ranks": 13, "num_suits": 4}[k]}
    if unsupported:
        raise ValueError(f"ginsim plays the full game (10 cards, 13 ranks, 4 suits); these "
                         f"OpenSpiel parameters differ: {unsupported}")
    fields = {"undercut_on_tie": False, "last_discard_rule": True,
              "gin_bonus": int(params.get("gin_bonus", 25)),
              "undercut_bonus": int(params.get("undercut_bonus", 25))}
    if params.get("oklahoma"):
        fields.update(oklahoma=True, double_suits="")
    else:
        fields["knock_limit"] = int(params.get("knock_card", 10))
    return Rules.preset("single_hand").with_(**fields)


class GinsimBot(pyspiel.Bot):
    """Plays seat ``player_id`` of an OpenSpiel ``gin_rummy`` hand with a ginsim strategy."""

    def __init__(self, game: pyspiel.Game, player_id: int, strategy: str = "memory2",
                 seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.game, self.me = game, player_id
        self.knocks_refused = 0  # knocks OpenSpiel's rule refused (see _decide)
        self.rules = openspiel_rules(game.get_parameters())
        self.agent = Agent.from_spec(strategy, self.rules, seed)
        self.episodes = 0
        self.restart()

    def restart(self) -> None:
        """Forget the hand: the next step starts from the deal, a game of its own (an
        OpenSpiel episode is one hand: nothing learned of the opponent carries over)."""
        self.agent.handle({"type": "start", "protocol": 1, "rules": self.rules.spec(),
                           "seat": self.me, "game": self.episodes})
        self.episodes += 1
        self.shadow = self.game.new_initial_state()
        self.seen = 0
        self.dealt = False
        self.stock_drawer: int | None = None
        self.knock_card: int | None = None  # the discard the agent knocks with
        self.knocker_melds: list[list[int]] = []
        self.taken: int | None = None  # the pile card this seat took this turn
        self.laid: list[list[str]] | None = None

    def restart_at(self, state: pyspiel.State) -> None:
        self.restart()
        self._catch_up(state)

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to do: :meth:`step` replays the history it has not seen."""

    def step(self, state: pyspiel.State) -> int:
        """The action for this seat in ``state`` (one of its legal actions)."""
        if len(state.history()) < self.seen:  # a new hand with the same bot
            self.restart()
        self._catch_up(state)
        legal = state.legal_actions()
        phase = state.current_phase()
        if phase == Phase.FIRST_UPCARD:
            if legal == [DRAW_STOCK]:
                self._decide("draw", ["stock"])
                return DRAW_STOCK
            take = self._decide("offer", ["take", "pass"]) == "take"
            return DRAW_UPCARD if take else PASS
        if phase == Phase.DRAW:
            options = ["stock"] + (["pile"] if DRAW_UPCARD in legal else [])
            return DRAW_UPCARD if self._decide("draw", options) == "pile" else DRAW_STOCK
        if phase == Phase.DISCARD:
            return self._discard(state, legal)
        if phase == Phase.KNOCK:
            return self._lay_knock(state, legal)
        if phase == Phase.LAYOFF:
            return self._lay_defence(state, legal)
        if phase == Phase.WALL:
            return self._wall(state, legal)
        raise ValueError(f"GinsimBot has no move in phase {phase}")

    # --- what the seat sees -------------------------------------------------------
    def _catch_up(self, state: pyspiel.State) -> None:
        history = state.history()
        for action in history[self.seen:]:
            self._observe(action)
            self.shadow.apply_action(action)
        self.seen = len(history)
        if not self.dealt and not self.shadow.is_chance_node():
            self._deal(self.shadow)

    def _observe(self, action: int) -> None:
        """Tell the agent what ``action`` (about to be applied to the shadow) shows."""
        s = self.shadow
        if s.is_chance_node():
            if self.stock_drawer is not None:  # the card drawn from the stock
                who, self.stock_drawer = self.stock_drawer, None
                self._event(who, "stock", action if who == self.me else None)
            return
        if not self.dealt:
            self._deal(s)
        who, phase = s.current_player(), s.current_phase()
        up = s.upcard()
        if phase == Phase.FIRST_UPCARD:
            if action == DRAW_STOCK:
                self.stock_drawer = who
            else:
                self._event(who, "take" if action == DRAW_UPCARD else "pass", up)
                if who == self.me:
                    self.taken = up if action == DRAW_UPCARD else None
        elif phase == Phase.DRAW:
            if who == self.me:
                self.taken = up if action == DRAW_UPCARD else None
            if action == DRAW_UPCARD:
                self._event(who, "pile", up)
            else:
                self.stock_drawer = who
        elif phase == Phase.DISCARD and action < 52:
            self._event(who, "discard", action)
        elif phase == Phase.KNOCK and action < 52:
            self._event(who, "knock", action)
        elif phase == Phase.KNOCK and action >= MELD_BASE:
            self.knocker_melds.append(self._meld_cards(s, who, action))
        elif phase == Phase.WALL:
            if action == KNOCK:
                self._event(who, "pile", up)
            else:
                self._event(who, "pass", up)

    def _deal(self, s: pyspiel.State) -> None:
        self.dealt = True
        cards = [card_text(to_ginsim(c)) for c in s.hands()[self.me]]
        self.agent.handle({"type": "hand", "game": 0, "hand": 0, "seat": self.me,
                           "dealer": 1, "cards": cards,
                           "upcard": card_text(to_ginsim(s.upcard())),
                           "knock_limit": s.knock_card(), "multiplier": 1,
                           "scores": [0, 0], "seed": None})

    def _event(self, seat: int, action: str, card: int | None) -> None:
        text = None if card is None else card_text(to_ginsim(card))
        self.agent.handle({"type": "event", "seat": seat, "action": action, "card": text})

    def _decide(self, phase: str, legal: list[str]) -> str:
        answer = self.agent.handle({"type": "decide", "phase": phase, "legal": legal,
                                    "stock_left": self.shadow.stock_size()})
        self.laid = answer.get("melds")  # a knock's arrangement, when the agent names it
        text = " ".join(w for w in (answer["action"].replace("_", " "), answer.get("card"))
                        if w)
        wanted = self.agent.unlisted  # the agent's own move, when legal left it out
        if wanted is not None and wanted["action"] == "knock" and answer == {
                "action": "discard", "card": wanted["card"]}:
            # OpenSpiel allows a knock only when its deadwood count of the 11 cards (their
            # best arrangement less the highest unmelded card) is within the knock card,
            # which is now and then above the exact minimum: the agent answered the
            # listed discard of the card it meant to knock with.
            self.knocks_refused += 1
        if text not in legal:
            raise ValueError(f"ginsim agent answered {text!r}, not among {legal}")
        return text

    # --- decisions ----------------------------------------------------------------
    def _hand(self, state: pyspiel.State) -> list[int]:
        return list(state.hands()[self.me])

    def _discard(self, state: pyspiel.State, legal: list[int]) -> int:
        if self.knock_card is not None and KNOCK in legal:  # the wall knock, continued
            return KNOCK
        hand = self._hand(state)
        names = {card_text(to_ginsim(c)): c for c in legal if c < 52 and c != self.taken}
        options = [f"discard {n}" for n in names]
        if KNOCK in legal:
            limit = state.knock_card()
            options += [f"knock {n}" for n, c in names.items()
                        if deadwood([to_ginsim(x) for x in hand if x != c]) <= limit]
        kind, name = self._decide("discard", options).split()
        if kind == "knock":
            self.knock_card = names[name]
            return KNOCK
        return names[name]

    def _wall(self, state: pyspiel.State, legal: list[int]) -> int:
        hand, up = self._hand(state), state.upcard()
        options = ["pass"]
        if KNOCK in legal:
            cards = hand + [up]
            options += [f"knock {card_text(to_ginsim(c))}" for c in hand
                        if deadwood([to_ginsim(x) for x in cards if x != c])
                        <= state.knock_card()]
        choice = self._decide("last_discard", options)
        if choice == "pass":
            return PASS
        name = choice.split()[1]
        self.knock_card = next(c for c in hand if card_text(to_ginsim(c)) == name)
        return KNOCK

    def _lay_knock(self, state: pyspiel.State, legal: list[int]) -> int:
        if self.knock_card is not None and self.knock_card in legal:
            card, self.knock_card = self.knock_card, None
            return card
        if all(a < 52 for a in legal):  # a discard the agent did not name (never expected)
            return legal[0]
        return self._next_meld(state, legal, self._hand(state), self.laid)

    def _next_meld(self, state: pyspiel.State, legal: list[int], hand: list[int],
                   melds: list[list[str]] | None = None) -> int:
        """The next meld of ``melds`` (the agent's, when it named them) or of a
        least-deadwood arrangement of ``hand``, or PASS."""
        if not melds:
            melds = best_melds([to_ginsim(c) for c in hand], self.rules)
        wanted = {frozenset(m) for m in melds}
        for action in legal:
            if action >= MELD_BASE:
                cards = frozenset(card_text(to_ginsim(c))
                                  for c in self._meld_cards(state, self.me, action))
                if cards in wanted:
                    return action
        return PASS

    def _lay_defence(self, state: pyspiel.State, legal: list[int]) -> int:
        hand = self._hand(state)
        layoffs = [a for a in legal if a < 52]
        if not state.finished_layoffs():
            if not layoffs:
                return PASS
            melds = [[to_ginsim(c) for c in m] for m in self.knocker_melds]
            best = layoff_deadwood(melds, [to_ginsim(c) for c in hand], self.rules)
            for card in layoffs:
                rest = [to_ginsim(c) for c in hand if c != card]
                extended = self._extend(melds, to_ginsim(card))
                if extended is not None and (
                        (layoff_deadwood(extended, rest, self.rules) if rest else 0) == best):
                    self.knocker_melds = [[_openspiel(c) for c in m] for m in extended]
                    return card
            return PASS
        return self._next_meld(state, legal, hand)

    @staticmethod
    def _extend(melds: list[list[int]], card: int) -> list[list[int]] | None:
        """The knocker's melds with ``card`` laid off onto the first meld it extends."""
        for i, meld in enumerate(melds):
            if deadwood(meld + [card]) == 0:
                return melds[:i] + [meld + [card]] + melds[i + 1:]
        return None

    @staticmethod
    def _meld_cards(state: pyspiel.State, player: int, action: int) -> list[int]:
        text = state.action_to_string(player, action).split("Action: ")[1]
        ranks, suits = "A23456789TJQK", "scdh"
        return [suits.index(text[i + 1]) * 13 + ranks.index(text[i])
                for i in range(0, len(text), 2)]


def _openspiel(card: int) -> int:
    """The OpenSpiel card id of a ginsim card (the inverse of :func:`to_ginsim`)."""
    return SUIT_TO_GINSIM.index(card // 13) * 13 + card % 13


def play_hands(strategy: str, opponent: str = "openspiel_simple", hands: int = 100,
               seed: int = 0, game: pyspiel.Game | None = None) -> list[dict]:
    """Play ``hands`` OpenSpiel hands of ``strategy`` (a GinsimBot) against ``opponent``
    (``openspiel_simple``, OpenSpiel's simple gin rummy bot, or another ginsim strategy),
    the ginsim bot in seat 0 of the even hands and seat 1 of the odd ones; per hand its
    ``seat``, its ``points``, the ``outcome`` (:func:`hand_outcome`) and the knocks
    OpenSpiel refused it (``knocks_refused``). Every action is checked against the
    state's legal actions."""
    import numpy as np

    game = game or pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(seed)
    out = []
    for h in range(hands):
        me = h % 2
        other = (pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - me)
                 if opponent == "openspiel_simple"
                 else GinsimBot(game, 1 - me, opponent, seed=seed + 2 * h + 1))
        bots = {me: GinsimBot(game, me, strategy, seed=seed + 2 * h), 1 - me: other}
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(outcomes)))
                continue
            player = state.current_player()
            action = bots[player].step(state)
            if action not in state.legal_actions():
                raise ValueError(f"hand {h}: seat {player} chose the illegal action "
                                 f"{state.action_to_string(player, action)}")
            state.apply_action(action)
        out.append({"seat": me, "points": float(state.returns()[me]),
                    "outcome": hand_outcome(state),
                    "knocks_refused": bots[me].knocks_refused})
    return out


def hand_outcome(state: pyspiel.State) -> str:
    """How a finished OpenSpiel hand ended, in ginsim's words: knock, gin, undercut or
    dead (nobody knocked: the wall, or OpenSpiel's repeated-move and draw limits)."""
    knocked = list(state.knocked())
    if True not in knocked:
        return "dead"
    knocker = knocked.index(True)
    if state.deadwood()[knocker] == 0:
        return "gin"
    return "undercut" if state.returns()[knocker] < 0 else "knock"
