"""Scoring: one hand (docs/rules.md §6), a game to its target (§7, §8), and the game
table of two card plays from their hand results (``game_equity``, docs/game-table.md),
which mc plays for the game by and the knock charts by score are made with."""
