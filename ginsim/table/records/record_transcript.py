"""A protocol transcript of one seat read as a game record (docs/records.md).

A transcript is what one seat saw and answered (``scripts/protocol_transcript.py``
writes one: ``-> `` before each referee line, ``<- `` before each answer; bare
referee lines are read too). The other seat's cards and the stock are unknown, so it
is replayed through the seat's checked view (:class:`~ginsim.table.seat_view.SeatView`,
moved by the hand machine as the agents' views are): every message must be one the
game can produce, every answer one of its decision's legal moves and the move the
referee then made, and the showdown is scored again by the machine's showdown from the
hands it shows.
"""

from __future__ import annotations

from typing import Any

from ...game.cards import mask_to_cards
from ...game.melds import deadwood
from ...game.scoring.game_scoring import GameTally
from ...game.scoring.hand_scoring_nb import OUTCOMES
from ...game.state import (
    PH_LAST_DISCARD,
    PH_OVER,
    RES_DEFENDER_BEFORE,
    RES_DEFENDER_DEADWOOD,
    RES_KNOCKER,
    RES_KNOCKER_DEADWOOD,
    RES_OUTCOME,
    RES_POINTS,
    ST_HAND,
    ST_KNOCKER,
    ST_PHASE,
    ST_PILE_MASK,
)
from ...simulator.machine.showdown_nb import showdown_nb
from ...simulator.machine.view_nb import lay_unarranged_knock_nb, show_hand_nb
from ..actions import TEXT, Action, IllegalAction, rules_arrays
from ..protocol import PROTOCOL_VERSION, ProtocolError, answer_text
from ..seat_fields import ViewError, check_seat_field
from ..seat_view import SeatView
from .game_record import (
    GameRecord,
    RecordedHand,
    RecordError,
    card,
    decode_line,
    field,
    hand_result,
)


def replay_transcript(lines: list[tuple[int, str]]) -> GameRecord:
    """A one-seat transcript (numbered lines) replayed through the seat's view."""
    replay = _Transcript()
    for n, text in lines:
        text = text.strip()
        answer = text.startswith("<-")
        if text.startswith(("->", "<-")):
            text = text[2:]
        message = decode_line(n, text)
        if answer or ("type" not in message and "action" in message):
            replay.answer(n, message)
        else:
            replay.message(n, message)
    if replay.start is None:
        raise RecordError(lines[-1][0], "a transcript without its start message")
    return GameRecord(replay.start, replay.view.rules, replay.seats(), replay.hands,
                      replay.end, replay.seat,
                      replay.tally.score() if replay.tally.over else None)


class _Transcript:
    """One seat's messages replayed through its view."""

    def __init__(self) -> None:
        self.view = SeatView()
        self.start: dict | None = None
        self.seat = 0
        self.tally: GameTally | None = None
        self.hands: list[RecordedHand] = []
        self.end: dict | None = None
        self.legal: list[str] | None = None  # the decision waiting for its answer
        self.expect: Action | None = None  # the move answered, until the referee makes it

    def seats(self) -> list[dict]:
        return [{"name": "this seat" if s == self.seat else "the other seat", "spec": None}
                for s in (0, 1)]

    def message(self, n: int, message: dict) -> None:
        kind = message.get("type")
        if self.end is not None:
            raise RecordError(n, "a message after bye")
        if kind == "start":
            return self._start(n, message)
        if self.start is None:
            raise RecordError(n, f"a {str(kind)[:20]!r} message before the start message")
        try:
            if kind == "hand":
                return self._hand(n, message)
            if kind == "event":
                return self._event(n, message)
            if kind == "decide":
                self.view.check_decide(message)
                self.legal = list(message["legal"])
                return None
        except ViewError as exc:
            raise RecordError(n, str(exc)) from None
        if kind == "showdown":
            return self._showdown(n, message)
        if kind == "game_over":
            return self._game_over(n, message)
        if kind == "bye":
            self.end = {"type": "end", "over": bool(self.tally and self.tally.over)}
            return None
        raise RecordError(n, f"a message of type {str(kind)[:20]!r}, which the protocol "
                             f"does not have")

    def _start(self, n: int, message: dict) -> None:
        version = message.get("protocol", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            raise RecordError(n, f"a transcript of protocol version {str(version)[:20]}; "
                                 f"this ginsim reads version {PROTOCOL_VERSION}")
        try:
            rules, packed, tab = rules_arrays(field(n, message, "rules", str))
            if rules.mahjong:
                raise ValueError("Mahjong gin has no agent protocol")
            self.seat = check_seat_field(message.get("seat", 0), "start")
        except ValueError as exc:
            raise RecordError(n, str(exc)) from None
        if self.start is None or message.get("game") != self.start.get("game"):
            self.tally = GameTally(rules)
            self.hands = []
        self.view.set_rules(rules, packed, tab)
        self.packed, self.tab = packed, tab
        self.view.forget()
        self.start = message

    def _hand(self, n: int, message: dict) -> None:
        if self.hands and self.hands[-1].result is None:
            raise RecordError(n, f"a new hand before hand {self.hands[-1].number}'s showdown")
        if "scores" in message and message["scores"] != list(self.tally.points):
            raise RecordError(n, f"the scores before this hand are "
                                 f"{str(message['scores'])[:40]}, but the hands before add "
                                 f"up to {list(self.tally.points)} (scores that do not follow)")
        me, number = self.view.deal(message, self.seat)
        hands: tuple[list[int], list[int]] = ([], [])
        hands[me].extend(card(n, c, "hand: cards") for c in message["cards"])
        up = message.get("upcard")
        self.hands.append(RecordedHand(number, message["dealer"], hands,
                                       None if up is None else card(n, up, "upcard"), []))
        self.legal = self.expect = None

    def _event(self, n: int, message: dict) -> None:
        event = self.view.check_event(message)
        if event.seat == self.seat and self.expect is not None:
            self._check_answered(n, event.action, event.card)
        self.view.apply(event)
        self.hands[-1].actions.append({"type": "event", "seat": event.seat,
                                       "action": event.action,
                                       "card": None if event.card < 0 else TEXT[event.card]})

    def _check_answered(self, n: int, action: str, number: int) -> None:
        """The seat's event is the move it answered (the final discard taken to knock:
        a pile draw, then the knock)."""
        expect = self.expect
        if self.view.hs[ST_PHASE] == PH_LAST_DISCARD and expect.kind in ("knock", "big_gin"):
            if action == "pile":
                return
        if action != expect.kind or (expect.card >= 0 and number != expect.card):
            raise RecordError(n, f"the seat answered {expect.text()!r}, but the referee "
                                 f"made it {action} {TEXT[number] if number >= 0 else ''}"
                                 .rstrip())
        self.expect = None

    def answer(self, n: int, message: dict) -> None:
        """The seat's answer to the decision before it: one of its legal moves."""
        if self.legal is None:
            raise RecordError(n, "an answer with no decision to answer")
        try:
            self.expect = Action.parse(answer_text(message, self.legal))
        except (ProtocolError, IllegalAction) as exc:
            raise RecordError(n, str(exc)) from None
        self.legal = None

    def _showdown(self, n: int, message: dict) -> None:
        """The hand's showdown scored again by the machine from the hands it shows."""
        hs, me = self.view.hs, self.seat
        if not self.hands or self.hands[-1].result is not None or hs[ST_PHASE] < PH_OVER:
            raise RecordError(n, f"a showdown while the hand is not over "
                                 f"({self.view.position()})")
        shown = field(n, message, "hands", list)
        if len(shown) != 2 or not all(isinstance(h, list) for h in shown):
            raise RecordError(n, "hands: a list of two lists of cards")
        cards = [{card(n, c, "hands") for c in h} for h in shown]
        mine = set(mask_to_cards(int(hs[ST_HAND + me])))
        if cards[me] != mine:
            raise RecordError(n, f"the showdown shows seat {me} holding "
                                 f"{' '.join(TEXT[c] for c in sorted(cards[me]))}, but it holds "
                                 f"{' '.join(TEXT[c] for c in sorted(mine))}")
        self._other_hand(n, cards[1 - me])
        self._score(n, message)

    def _other_hand(self, n: int, cards: set[int]) -> None:
        """Lay the other seat's shown hand in the view, if it can be that seat's."""
        hs, other = self.view.hs, 1 - self.seat
        placed = int(hs[ST_HAND + self.seat]) | int(hs[ST_PILE_MASK])
        for c in cards:
            if placed >> c & 1:
                raise RecordError(n, f"the showdown gives seat {other} {TEXT[c]}, but "
                                     f"{self.view.whereabouts(c)}")
        held = set(mask_to_cards(int(hs[ST_HAND + other])))
        if not held <= cards:
            missing = TEXT[min(held - cards)]
            raise RecordError(n, f"seat {other} took {missing} from the pile and kept it, "
                                 f"but the showdown's hand lacks it")
        show_hand_nb(hs, other, sum(1 << c for c in cards))

    def _score(self, n: int, message: dict) -> None:
        hs, view = self.view.hs, self.view
        knocker = int(hs[ST_KNOCKER])
        if hs[ST_PHASE] == PH_OVER and knocker >= 0:  # the view laid no arrangement
            lay_unarranged_knock_nb(hs, deadwood(mask_to_cards(int(hs[ST_HAND + knocker])),
                                                 view.rules))
        showdown_nb(view.board, self.packed, self.tab)
        mine = _result(hs)
        for key, value in mine.items():
            if message.get(key) != value:
                raise RecordError(n, f"the showdown's {key} is {str(message.get(key))[:40]}, "
                                     f"but the hand replays to {value}")
        self.tally.enter(hand_result(hs))
        if "scores" in message and message["scores"] != list(self.tally.points):
            raise RecordError(n, f"the scores after this hand are "
                                 f"{str(message['scores'])[:40]}, but the hands add up to "
                                 f"{list(self.tally.points)} (scores that do not follow)")
        hand = self.hands[-1]
        hand.result = {k: v for k, v in message.items() if k != "type"}
        hand.scores = self.tally.points

    def _game_over(self, n: int, message: dict) -> None:
        if message.get("forfeit") is None and message.get("scores") != list(self.tally.points):
            raise RecordError(n, f"the game's scores are {str(message.get('scores'))[:40]}, "
                                 f"but its hands add up to {list(self.tally.points)}")
        if message.get("forfeit") is None and not self.tally.over:
            raise RecordError(n, f"game over at {list(self.tally.points)}, short of the "
                                 f"target {self.view.rules.target}")


def _result(hs: Any) -> dict:
    """The showdown fields the machine scored, as the protocol's showdown names them."""
    knocker = int(hs[RES_KNOCKER])
    return {"outcome": OUTCOMES[int(hs[RES_OUTCOME])], "knocker": knocker,
            "points": [int(hs[RES_POINTS]), int(hs[RES_POINTS + 1])],
            "knocker_deadwood": int(hs[RES_KNOCKER_DEADWOOD]),
            "defender_deadwood_before_layoff": int(hs[RES_DEFENDER_BEFORE]),
            "defender_deadwood": int(hs[RES_DEFENDER_DEADWOOD])}
