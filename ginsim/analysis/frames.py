"""Record arrays to DataFrames, in one place (DataFrames begin in ``analysis``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.scoring_nb import OUTCOMES

SEATS = np.array(["a", "b"])


def decode_codes(frame: pd.DataFrame) -> pd.DataFrame:
    """Turn the code columns present (``dealer``, ``outcome``, ``knocker``) into readable
    categoricals, in place; ``knocker`` is ``""`` for a dead hand. Returns ``frame``."""
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
    return frame


def records_frame(records: np.ndarray) -> pd.DataFrame:
    """Per-hand records as a DataFrame with readable ``dealer``/``outcome``/``knocker``.

    Columns are those of :data:`ginsim.simulator.records.RECORD_DTYPE`; codes become
    strings (``knocker`` is ``""`` for a dead hand, ``upcard`` stays a card int).
    """
    return decode_codes(pd.DataFrame({name: records[name] for name in records.dtype.names}))
