"""Scoring: one hand (docs/rules.md §6), a game to its target (§7, §8), the chance of
winning a game from its score for equal players (``win_chance``, mc's), and the game
table of two card plays from their hand results (``game_equity``, docs/game-table.md)."""
