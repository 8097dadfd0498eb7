"""Rating a player by review: play a strategy's games, review each, and pool its error
rate (mean loss a decision) with an interval robust to the correlation of one game's
decisions. The rating bands of docs/review.md come from these figures."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from ...game.rng_nb import check_seed
from ...game.rules import Rules
from ...simulator.limits import check_games, check_rollouts
from ...table.records.record_reader import read_record
from ...table.referee import play_match
from .classes import class_counts, error_rate
from .evaluate import FIRST_ROLLOUTS, MOST_ROLLOUTS, PRECISION
from .game_review import REVIEW_VERSION, Review, review_game

DEFAULT_OPPONENT = "expert"  # the player's opponent in its rated games
#: The error rate's bands (mean held-out loss a decision, points a hand, in games
#: against expert at the review's defaults), best first: docs/review.md's rating runs
#: (random about 3.4; simple, memory2 and expert 1.0 to 1.3; mc 0.65 to 1.1).
BANDS = ((0.6, "world class"), (1.0, "expert"), (1.4, "advanced"), (2.0, "intermediate"),
         (3.0, "casual"), (float("inf"), "beginner"))

@dataclass
class Rating:
    """A player's games reviewed: ``reviews`` (seat 0 of each game, the player's), the
    specs, rules and seed."""

    spec: str
    opponent: str
    rules: Rules
    seed: int
    reviews: list[Review]

    def summary(self) -> dict:
        """Games, decisions, the pooled error rate with its 95% interval (clustered by
        game), its band, the mean loss in chance of winning the game a decision (with its
        interval; where the rules have a game), and counts per class by kind."""
        decisions = [(g, d) for g, r in enumerate(self.reviews) for d in r.decisions]
        losses = [d.held_out for _, d in decisions]
        mean, low, high = error_rate(losses, [g for g, _ in decisions])
        games = [(g, d.game_loss) for g, d in decisions if d.game_loss is not None]
        game = error_rate([x for _, x in games], [g for g, _ in games])
        return {"games": len(self.reviews), "decisions": len(decisions),
                "mean_loss": round(mean, 4), "ci": [round(low, 4), round(high, 4)],
                "mean_game_loss": round(game[0], 6) if games else None,
                "game_ci": [round(game[1], 6), round(game[2], 6)] if games else None,
                "band": band(mean),
                "classes": class_counts([d.klass for _, d in decisions],
                                        [d.kind for _, d in decisions])}

    def to_json(self) -> dict:
        return {"version": REVIEW_VERSION, "strategy": self.spec, "opponent": self.opponent,
                "rules": self.rules.spec(), "seed": self.seed,
                "summary": self.summary(),
                "games": [r.to_json()["summary"] for r in self.reviews]}


def band(mean_loss: float) -> str:
    """The rating band of an error rate (:data:`BANDS`)."""
    return next(name for bound, name in BANDS if mean_loss < bound)


def rate_player(spec: str, opponent: str = DEFAULT_OPPONENT, games: int = 10, seed: int = 0,
                *, rules: Rules | str | None = None, rollouts: int = FIRST_ROLLOUTS,
                precision: float | None = PRECISION, max_rollouts: int = MOST_ROLLOUTS,
                progress: Callable[[str], object] | None = None) -> Rating:
    """Play ``games`` games of ``spec`` (seat 0) against ``opponent`` under ``seed``
    (the games of ``ginsim match``) and review seat 0 of each, the opponent played by
    the advisor as its own strategy (``rollouts``, ``precision`` and ``max_rollouts`` as
    :func:`review_game` takes them, with its defaults: the rating table of
    docs/review.md was made so). ``progress(text)`` hears each game's step."""
    rules = Rules.coerce(rules)
    games, seed = check_games(games), check_seed(seed)
    rollouts = check_rollouts(rollouts)
    records: list[list[dict]] = []
    if progress is not None:
        progress(f"playing {games} games of {spec} against {opponent}")
    play_match(spec, opponent, games, rules, seed,
               on_record=lambda g, lines: records.append(lines))
    reviews = []
    for g, lines in enumerate(records):
        record = read_record([json.dumps(line) for line in lines])
        done = (lambda k, n, g=g: progress(f"reviewing game {g + 1} of {games}: decision "
                                           f"{k} of {n}")) if progress else None
        reviews.append(review_game(record, 0, rollouts=rollouts, precision=precision,
                                   max_rollouts=max_rollouts,
                                   seed=(seed + g) % 2**64, progress=done))
    return Rating(spec, opponent, rules, seed, reviews)
