"""Scoring: one hand (docs/rules.md §6), a game to its target (§7, §8), and the
chance of winning a game from its score."""
