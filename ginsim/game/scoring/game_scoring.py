"""Scoring a game from Python (docs/rules.md §7, §8.3, §8.4, §8.6, §8.7).

The rules' game numbers packed for :mod:`ginsim.game.scoring.game_scoring_nb`, the state arrays it
updates, and scorers of hand-made sequences that run the same kernel as the schedulers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..rules import Rules
from .game_scoring_nb import (
    G_HANDS,
    G_MATCHES,
    G_SHUTOUT,
    G_WIDTH,
    G_WINNER,
    HOLLYWOOD,
    MAX_SIDES,
    MULTIMATCH,
    ROWS,
    S_BOXES,
    S_POINTS,
    S_SCORE,
    S_WIDTH,
    SESSION,
    STANDARD,
    TEAMS,
    THREE,
    game_hand_nb,
    reset_game_nb,
    score_hands_nb,
)

SYSTEM_NAMES = {STANDARD: "game", HOLLYWOOD: "Hollywood games", MULTIMATCH: "multi-match",
                THREE: "three-player game", TEAMS: "team game"}


@dataclass(frozen=True)
class HandResult:
    """One scored hand as game scoring sees it: who won (-1: nobody) and how."""

    winner: int
    points: int
    outcome: int = 0
    multiplier: int = 1


@dataclass(frozen=True)
class GameScore:
    """A finished game between two sides (players, or Hollywood columns)."""

    winner: int
    points: tuple[int, int]  # hand points counted toward the target
    boxes: tuple[int, int]  # boxes (hands won, Oklahoma extras included)
    scores: tuple[int, int]  # final totals with game, box and shutout bonuses
    hands: int  # hands played in this game (dead hands included)
    shutout: bool

    @property
    def margin(self) -> int:
        return self.scores[self.winner] - self.scores[1 - self.winner]


def pack_game_rules(rules: Rules) -> np.ndarray:
    """The game-level numbers of ``rules`` as the int64 array the kernels read (``GR_*``)."""
    return rules.packed_game()


def new_states(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed ``(sides, games)`` state arrays for ``count`` games (see the kernel module)."""
    return (np.zeros((count, ROWS, MAX_SIDES, S_WIDTH), dtype=np.int64),
            np.zeros((count, ROWS, G_WIDTH), dtype=np.int64))


def game_score(sides: np.ndarray, games: np.ndarray, row: int = 0) -> GameScore:
    """The decided two-sided game in ``row`` of one game's state."""
    s = sides[row]
    return GameScore(int(games[row, G_WINNER]), (int(s[0, S_POINTS]), int(s[1, S_POINTS])),
                     (int(s[0, S_BOXES]), int(s[1, S_BOXES])),
                     (int(s[0, S_SCORE]), int(s[1, S_SCORE])), int(games[row, G_HANDS]),
                     bool(games[row, G_SHUTOUT]))


def _score(system: int, hands: Sequence[HandResult], rules: Rules, match_total: int = 1
           ) -> tuple[np.ndarray, np.ndarray, int]:
    """Run the game kernel over ``hands``: (sides, games, hands used)."""
    sides, games = new_states(1)
    cols = [np.array([getattr(h, f) for h in hands], dtype=np.int64)
            for f in ("winner", "points", "outcome", "multiplier")]
    used = score_hands_nb(system, tuple(cols), pack_game_rules(Rules.coerce(rules)),
                          match_total, sides[0], games[0])
    if used < 0:
        raise ValueError(f"the {SYSTEM_NAMES[system]} is not over after {len(hands)} hands")
    return sides[0], games[0], int(used)


def score_game(hands: Sequence[HandResult], rules: Rules) -> GameScore:
    """Score a standard game: hands until a running total reaches ``rules.target``."""
    sides, games, _ = _score(STANDARD, hands, rules)
    return game_score(sides, games)


def score_hollywood(hands: Sequence[HandResult], rules: Rules) -> tuple[list[GameScore], int]:
    """Hollywood (§8.3): the three games and the hands until the last was decided."""
    sides, games, used = _score(HOLLYWOOD, hands, rules)
    return [game_score(sides, games, c) for c in range(3)], used


def score_multimatch(hands: Sequence[HandResult], rules: Rules, match_total: int
                     ) -> tuple[tuple[int, int], int, int]:
    """Multi-match (§8.4): (match points, matches played, hands played)."""
    sides, games, used = _score(MULTIMATCH, hands, rules, match_total)
    points = sides[SESSION, :2, S_POINTS]
    return (int(points[0]), int(points[1])), int(games[SESSION, G_MATCHES]), used


def score_three(hands: Sequence[tuple[int, int]], rules: Rules
                ) -> tuple[int, tuple[int, int, int], int]:
    """Three players (§8.6) from (winning player or -1, points) per hand: (winner, final
    scores, hands)."""
    sides, games, used = _score(THREE, [HandResult(w, p) for w, p in hands], rules)
    scores = sides[0, :, S_SCORE]
    return int(games[0, G_WINNER]), (int(scores[0]), int(scores[1]), int(scores[2])), used


def score_teams(rounds: Sequence[tuple[tuple[int, int], tuple[int, int]]], rules: Rules
                ) -> tuple[int, tuple[int, int], int]:
    """Two teams (§8.7) from rounds of two hands, each (winning team or -1, points), to
    ``rules.team_target``: (winning team, team totals, rounds played)."""
    hands = [HandResult(w, p) for pair in rounds for w, p in pair]
    sides, games, _ = _score(TEAMS, hands, rules)
    totals = sides[0, :2, S_POINTS]
    return (int(games[0, G_WINNER]), (int(totals[0]), int(totals[1])),
            int(games[0, G_HANDS]))


class GameTally:
    """One standard game scored hand by hand, by the kernel that scores every game: for
    referees that play hands one at a time (``ginsim match``)."""

    def __init__(self, rules: Rules | str | None = None) -> None:
        self.rules = Rules.coerce(rules)
        self._gr = pack_game_rules(self.rules)
        sides, games = new_states(1)
        self._sides, self._games = sides[0], games[0]
        reset_game_nb(self._sides, self._games)
        self.over = False

    def enter(self, hand: HandResult) -> bool:
        """Enter the next hand; True once the game is over (then nothing more is taken)."""
        if self.over:
            raise ValueError("the game is over: start a new GameTally for the next game")
        result = (hand.winner, hand.points, hand.outcome, hand.multiplier)
        self.over = bool(game_hand_nb(STANDARD, self._sides, self._games, result, self._gr, 1))
        return self.over

    @property
    def points(self) -> tuple[int, int]:
        """Hand points counted toward the target so far."""
        return int(self._sides[0, 0, S_POINTS]), int(self._sides[0, 1, S_POINTS])

    @property
    def hands(self) -> int:
        """Hands entered so far, dead hands included."""
        return int(self._games[SESSION, G_HANDS])

    def score(self) -> GameScore:
        """The finished game (ValueError while it is not over)."""
        if not self.over:
            raise ValueError(f"the game is not over: {self.points[0]} to {self.points[1]}")
        return game_score(self._sides, self._games)
