"""Reviewing a game: every decision of a seat against the advisor, from what that seat
knew, classed by its loss (docs/review.md)."""

from .classes import BLUNDER, CLASSES, DECISION_KINDS, INACCURACY, MISTAKE, classify, error_rate
from .game_review import DEFAULT_ROLLOUTS, REVIEW_VERSION, Review, review_game

__all__ = ["BLUNDER", "CLASSES", "DEFAULT_ROLLOUTS", "INACCURACY", "DECISION_KINDS", "MISTAKE",
           "REVIEW_VERSION", "Review", "classify", "error_rate", "review_game"]
