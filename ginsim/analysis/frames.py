"""Record arrays to DataFrames, in one place (DataFrames begin in ``analysis``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.scoring_nb import OUTCOMES

SEATS = np.array(["a", "b"])


def records_frame(records: np.ndarray) -> pd.DataFrame:
    """Per-hand records as a DataFrame with readable ``dealer``/``outcome``/``knocker``.

    Columns are those of :data:`ginsim.simulator.records.RECORD_DTYPE`; codes become
    strings (``knocker`` is ``""`` for a dead hand, ``upcard`` stays a card int).
    """
    frame = pd.DataFrame({name: records[name] for name in records.dtype.names})
    frame["dealer"] = pd.Categorical.from_codes(records["dealer"].astype(int), ["a", "b"])
    frame["outcome"] = pd.Categorical.from_codes(records["outcome"].astype(int), list(OUTCOMES))
    knocker = np.where(records["knocker"] >= 0, SEATS[np.clip(records["knocker"], 0, 1)], "")
    frame["knocker"] = pd.Categorical(knocker, categories=["", "a", "b"])
    return frame
