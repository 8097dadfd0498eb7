"""Ratings from games among many players: a Bradley–Terry fit on the Elo scale with
intervals bootstrapped over decks, and a tournament's tables (pairs, crosstable,
ranking) built on it."""
