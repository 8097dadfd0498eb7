"""The pandas face of Greek Rami: deals and games as DataFrames."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pandas as pd

from ..game.rules import RamiRules
from .runner import run_deals, run_games
from .store import load_deals, save_deals


def simulate(strategies: Sequence[Any], deals: int, seed: int = 0,
             rules: RamiRules | str | None = "rami", *, n_jobs: int | None = 1,
             chunk: int | None = None, out: str | os.PathLike | None = None) -> pd.DataFrame:
    """Play ``deals`` deals of Greek Rami, one strategy spec per player (2-6, seat 0
    first); one row per deal and player (columns of
    :data:`~ginsim.rami.play.records.RAMI_RECORD_DTYPE`: deal, player, charge, opened,
    went_out, dry, ...). Deal ``d``'s cards come from ``(seed, d)`` alone. With ``out``
    the records go to a result store there (resumed if it holds this run)."""
    if out is not None:
        save_deals(out, strategies, deals, seed=seed, rules=rules, chunk=chunk)
        return pd.DataFrame(load_deals(out))
    records = run_deals(strategies, deals, seed=seed, rules=rules, n_jobs=n_jobs, chunk=chunk)
    return pd.DataFrame(records)


def load(store: str | os.PathLike) -> pd.DataFrame:
    """The deal records of a rami result store (every chunk verified)."""
    return pd.DataFrame(load_deals(store))


def play_games(strategies: Sequence[Any], games: int, seed: int = 0,
               rules: RamiRules | str | None = "rami", *, n_jobs: int | None = 1
               ) -> pd.DataFrame:
    """Play ``games`` games to the target (100 per opponent); one row per game and
    player: total, deals, won (lowest total), dry ramis made."""
    return pd.DataFrame(run_games(strategies, games, seed=seed, rules=rules, n_jobs=n_jobs))
