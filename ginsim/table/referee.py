"""The referee of ``ginsim match``: whole games between two agents over the agent protocol.

Each side is a ginsim strategy spec (an :class:`~ginsim.table.agents.Agent` called in
this process) or ``exec:COMMAND`` (a program speaking the protocol on stdin/stdout,
:class:`~ginsim.table.external.ExternalAgent`). Side a sits in seat 0, side b in seat 1;
side a starts the first hand of the even games, side b of the odd ones, and later hands
follow the rules' ``next_dealer``. Every hand is a :class:`~ginsim.table.table.Table`
(hand ``k`` of the match deals as ``ginsim.simulate`` deals hand ``k`` of the seed), every
game is scored by the game kernel (:class:`~ginsim.game.scoring.game_scoring.GameTally`).

A side that answers late, illegally, with bad JSON, or crashes forfeits the game: one
line names it and the decision (``on_fault``), the game is recorded as lost by that side
(the winner's total raised to the target), the program is killed, and the next game
starts it afresh. Nothing waits without a deadline.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..game.inputs.checks import check_int
from ..game.rules import Rules
from ..game.scoring.game_scoring import GameTally
from ..simulator.limits import (
    MAX_GAME_HANDS,
    MAX_HAND_INDEX,
    check_decision_ms,
    check_games,
)
from ..simulator.play.drive_nb import decide_last_discard_nb
from .actions import Action
from .agents import Agent, compile_last_discard, decide_message, hand_message
from .external import AgentFault, ExternalAgent, LocalAgent
from .game_table import GameDeals
from .protocol import PROTOCOL_VERSION, ProtocolError, answer_text
from .records.game_record import end_line, forfeit_score, hand_lines, header_line
from .table import Table, view_event

EXEC_PREFIX = "exec:"
SIDES = ("a", "b")
DEFAULT_TIMEOUT_MS = 1000


@dataclass
class MatchResult:
    """What a match produced: one row per game, one per hand, and the faults' lines."""

    games: list[dict[str, Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    wall_s: float = 0.0


#: ``NAME=exec:COMMAND``: a program shown as NAME (a tournament's tables)
LABELLED = re.compile(r"([A-Za-z0-9_.+-]{1,40})=(exec:.*)", re.DOTALL)


def is_program(player: str) -> bool:
    """Whether a player is an ``exec:`` program, labelled (``NAME=exec:...``) or not."""
    return player.startswith(EXEC_PREFIX) or LABELLED.fullmatch(player) is not None


def program(player: str) -> str:
    """A program player's ``exec:COMMAND``, its label dropped."""
    found = LABELLED.fullmatch(player)
    return found[2] if found else player


def display_name(player: str) -> str:
    """How tables show a player: a program's label, else the player as given."""
    found = LABELLED.fullmatch(player)
    return found[1] if found else player


def make_side(spec: str, name: str, rules: Rules, seed: int) -> LocalAgent | ExternalAgent:
    """A side from ``SPEC`` (a ginsim strategy, in process) or ``exec:COMMAND``."""
    if spec.startswith(EXEC_PREFIX):
        return ExternalAgent(spec[len(EXEC_PREFIX):], f"{name} ({spec})")
    return LocalAgent(Agent.from_spec(spec, rules, seed), f"{name} ({spec})")


def warm_agent(spec: str, rules: Rules | str | None = None, seed: int = 0) -> float:
    """Compile what ``ginsim agent --strategy SPEC`` runs, by a game of ``spec`` against
    itself in this process (numba caches the kernels for later processes) and, under the
    50th-card rule, its last-discard decision asked once (:func:`compile_last_discard`).
    Returns the seconds taken. On a fresh install an mc agent's first answer otherwise
    takes minutes, far past a referee's start-up grace. A fault in the game (an illegal
    answer, an error) is a ValueError naming it: the agent is not ready."""
    if spec.startswith(EXEC_PREFIX):
        raise ValueError(f"warming (ginsim agent --warm) compiles a ginsim strategy, got "
                         f"{spec!r}: give a strategy spec such as mc or memory2")
    rules = Rules.coerce(rules)
    result = play_match(spec, spec, 1, rules, seed)
    if result.faults:
        raise ValueError(f"warming {spec}: {result.faults[0]}")
    wall_s = result.wall_s
    if rules.last_discard_rule and not last_discard_compiled():
        start = time.perf_counter()
        compile_last_discard(spec, rules, seed)
        wall_s += time.perf_counter() - start
    return wall_s


def last_discard_compiled() -> bool:
    """Whether this process has compiled (or loaded) the last-discard decision, a
    kernel of its own that only a hand reaching the stock floor calls."""
    return bool(decide_last_discard_nb.signatures)


def play_match(a: str, b: str, games: int, rules: Rules | str | None = None, seed: int = 0,
               timeout_ms: int = DEFAULT_TIMEOUT_MS,
               on_fault: Callable[[str], None] | None = None,
               on_record: Callable[[int, list[dict]], None] | None = None,
               first: int = 0) -> MatchResult:
    """Referee ``games`` whole games between sides ``a`` and ``b`` (specs or exec:): the
    game kernels' games ``first .. first+games-1`` (their deals, cut and seat streams);
    ``on_record(g, lines)`` is given each game's record (docs/records.md) as it ends."""
    rules = Rules.coerce(rules).check_games()
    games = check_games(games)
    first = check_int(first, "first game", 0, MAX_HAND_INDEX // MAX_GAME_HANDS)
    timeout_ms = check_decision_ms(timeout_ms)
    sides = [make_side(spec, name, rules, seed) for spec, name in zip((a, b), SIDES,
                                                                      strict=True)]
    result = MatchResult()
    t0 = time.perf_counter()
    try:
        for g in range(first, first + games):
            lines = None if on_record is None else [header_line(
                rules, seed, g, [{"name": n, "spec": s} for n, s in zip(SIDES, (a, b),
                                                                         strict=True)])]
            row = _play_game(sides, g, rules, seed, timeout_ms, result, lines)
            if lines is not None:
                on_record(g, lines)
            result.games.append(row)
            if row["fault"]:
                result.faults.append(row["fault"])
                if on_fault is not None:
                    on_fault(row["fault"])
    finally:
        for side in sides:
            side.close()
    result.wall_s = time.perf_counter() - t0
    return result


def _play_game(sides: list, g: int, rules: Rules, seed: int, timeout_ms: int,
               result: MatchResult, lines: list[dict] | None = None) -> dict[str, Any]:
    """One game to the target; its row (a forfeit when a side faults). ``lines``, if
    given, gets the game's record lines after its header."""
    game = GameDeals(rules, seed, g)  # the game kernels' game g: deals, cut, seat streams
    tally = game.tally
    spec = _spec(rules)
    table, recorded = None, True  # the hand under way, and whether its lines are in
    try:
        for seat, side in enumerate(sides):
            if isinstance(side, ExternalAgent) and side.proc is None:
                side.start()
            side.send({"type": "start", "protocol": PROTOCOL_VERSION, "rules": spec,
                       "seat": seat, "game": g}, f"game {g}, start")
        for table in game.tables():
            h, dealer, recorded = table.hand, table.dealer, False
            shown = _play_hand(sides, table, g, h, tally.points, timeout_ms)
            before = game.enter(table)
            shown["scores"] = list(tally.points)
            if lines is not None:
                lines += hand_lines(table, before, tally.points)
            recorded = True
            for side in sides:
                side.send(shown, f"game {g}, hand {h}, showdown")
            result.hands.append({"game": g, "hand": h, "dealer": dealer,
                                 "outcome": shown["outcome"], "knocker": shown["knocker"],
                                 "points_a": shown["points"][0],
                                 "points_b": shown["points"][1]})
        score = tally.score()
        over = {"type": "game_over", "scores": list(score.points), "winner": score.winner}
        if lines is not None:
            lines.append(end_line(score))
        for side in sides:
            side.send(over, f"game {g}, game over")
        return _game_row(score.winner, score.scores, score.hands, score.shutout,
                         score.points, "", "")
    except AgentFault as fault:
        row = _forfeit(sides, fault, g, tally, rules)
        if lines is not None:
            _record_forfeit(lines, None if recorded else table, tally, row)
        return row


def _record_forfeit(lines: list[dict], table: Table | None, tally: GameTally, row: dict
                    ) -> None:
    """End a forfeited game's record: the hand under way (``table``, if its lines are not
    in yet) and the forfeit's end line (none if the game had ended before the fault)."""
    if lines[-1]["type"] == "end":
        return
    if table is not None:
        lines += hand_lines(table, tally.points)
    at_fault = SIDES.index(row["forfeit"])
    lines.append(end_line(forfeit_score(tally.points, at_fault, tally.hands, tally.rules),
                          forfeit=at_fault, fault=row["fault"]))


@lru_cache(maxsize=8)
def _spec(rules: Rules) -> str:
    """The rules' spec string (worked out once: it compares every preset)."""
    return rules.spec()


def _play_hand(sides: list, table: Table, g: int, h: int, scores: tuple[int, int],
               timeout_ms: int) -> dict[str, Any]:
    """Deal, ask each decision of the seat to act, tell both seats every event; the
    showdown message (without the game scores)."""
    for seat, side in enumerate(sides):
        message = hand_message(table, seat, g, scores)
        if isinstance(side, ExternalAgent):
            message["seed"] = None  # with the seed and the hand a program could rebuild the deck
        side.send(message, f"game {g}, hand {h}, deal")
    while table.to_move is not None:
        seat = table.to_move
        side = sides[seat]
        ask = decide_message(table, timeout_ms)
        where = f"game {g}, hand {h}, its {ask['phase'].replace('_', ' ')} decision"
        answer = side.ask(ask, timeout_ms, where)
        try:
            text = answer_text(answer, ask["legal"])
        except ProtocolError as exc:
            if isinstance(side, ExternalAgent):
                side.kill()
            raise AgentFault(side.name, where, str(exc)) from None
        for event in table.apply(Action.parse(text), seat):
            for s, other in enumerate(sides):
                other.send(view_event(event, s), where)
    return {"type": "showdown", **table.result()}


def _forfeit(sides: list, fault: AgentFault, g: int, tally: GameTally, rules: Rules
             ) -> dict[str, Any]:
    """The row of a game lost by the side at fault; the other side hears game_over."""
    at_fault = next(i for i, side in enumerate(sides) if side.name == fault.agent)
    winner = 1 - at_fault
    points = list(tally.points)
    scores = list(forfeit_score(points, at_fault, tally.hands, rules).scores)
    other = sides[winner]
    try:
        other.send({"type": "game_over", "scores": scores, "winner": winner,
                    "forfeit": at_fault}, f"game {g}, game over")
    except AgentFault:
        pass
    return _game_row(winner, tuple(scores), tally.hands, False, tuple(points),
                     SIDES[at_fault], f"{fault}; game {g} is forfeit to {SIDES[winner]}")


def _game_row(winner: int, scores, hands, shutout: bool, points, forfeit: str, fault: str
              ) -> dict[str, Any]:
    return {"winner": SIDES[winner], "score_a": int(scores[0]), "score_b": int(scores[1]),
            "margin": int(scores[winner] - scores[1 - winner]),
            "hands": int(hands), "shutout": bool(shutout),
            "points_a": int(points[0]), "points_b": int(points[1]), "forfeit": forfeit,
            "fault": fault}
