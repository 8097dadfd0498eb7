"""The top-level ``simulate``: play hands and return a DataFrame."""

from __future__ import annotations

import pandas as pd

from ..game.rules import Rules
from ..simulator.engine import check_hands, play_records
from ..strategies.presets import Strategy
from .frames import records_frame


def simulate(a: str | Strategy = "simple", b: str | Strategy = "simple", hands: int = 10_000,
             seed: int = 0, rules: Rules | str | None = None, *, start: int = 0,
             duplicate: bool = False) -> pd.DataFrame:
    """Play ``hands`` hands of strategy ``a`` (seat a) against ``b``; one row per hand.

    Columns are documented in :mod:`ginsim.simulator.records`. Hand ``i``'s deal and
    choices depend only on ``(seed, i)``.
    """
    hands = check_hands(hands)
    records, _ = play_records(a, b, start=start, stop=start + hands, seed=seed, rules=rules,
                              duplicate=duplicate)
    return records_frame(records)
