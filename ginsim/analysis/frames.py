"""Record arrays to DataFrames, in one place (DataFrames begin in ``analysis``)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..game.cards import card_text
from ..game.scoring.hand_scoring_nb import OUTCOMES

CARD_NAMES = [card_text(c) for c in range(52)]


def decode_codes(frame: pd.DataFrame) -> pd.DataFrame:
    """Turn the code columns present (``dealer``, ``outcome``, ``knocker``, ``upcard``) into
    readable categoricals, in place; ``knocker`` is ``""`` for a dead hand and ``upcard``
    is missing with the eleven-card deal. Returns ``frame``."""
    if "dealer" in frame:
        frame["dealer"] = pd.Categorical.from_codes(frame["dealer"].to_numpy().astype(int),
                                                    ["a", "b"])
    if "outcome" in frame:
        frame["outcome"] = pd.Categorical.from_codes(frame["outcome"].to_numpy().astype(int),
                                                     list(OUTCOMES))
    if "knocker" in frame:
        knocker = frame["knocker"].to_numpy().astype(int)
        frame["knocker"] = pd.Categorical.from_codes(np.clip(knocker, -1, 1) + 1,
                                                     ["", "a", "b"])
    if "upcard" in frame and pd.api.types.is_integer_dtype(frame["upcard"]):
        codes = frame["upcard"].to_numpy().astype(int)
        frame["upcard"] = pd.Categorical.from_codes(np.where(codes < 0, -1, codes),
                                                    CARD_NAMES)
    return frame


def records_frame(records: np.ndarray) -> pd.DataFrame:
    """Per-hand records as a DataFrame with readable ``dealer``/``outcome``/``knocker``
    and ``upcard`` (card text such as ``7H``, a categorical over the 52 cards).

    Columns are those of :data:`ginsim.simulator.machine.records.RECORD_DTYPE`; codes become
    strings (``knocker`` is ``""`` for a dead hand, ``upcard`` is missing when the
    eleven-card deal has no upcard).
    """
    return decode_codes(pd.DataFrame({name: records[name] for name in records.dtype.names}))


def stock_range_low(labels: Iterable[str]) -> list[int]:
    """The low end of each stock-range label such as ``24-31``."""
    return [int(str(label).split("-")[0]) for label in labels]


def in_play_order(labels: Iterable[str]) -> list[str]:
    """Stock-range labels in the order play meets them: most cards left first."""
    distinct = list(dict.fromkeys(str(label) for label in labels))
    return sorted(distinct, key=lambda label: -stock_range_low([label])[0])


def stock_in_play_order(frame: pd.DataFrame, column: str = "stock",
                        then: Iterable[str] = ("deadwood",)) -> pd.DataFrame:
    """``frame`` with ``column`` an ordered categorical in play order (most cards left
    first), rows sorted by it and then by ``then`` (the columns present)."""
    order = in_play_order(frame[column].astype(str))
    out = frame.assign(**{column: pd.Categorical(frame[column].astype(str), order,
                                                 ordered=True)})
    keys = [column, *[c for c in then if c in out.columns and c != column]]
    return out.sort_values(keys, kind="stable").reset_index(drop=True)
