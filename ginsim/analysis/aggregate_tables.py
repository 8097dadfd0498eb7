"""Aggregate tables (flat accumulators from the runner) as tidy DataFrames."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..runner.aggregate import DEAL_TABLES, KEY_DTYPES, MOMENT_COLUMNS, TABLES, layout, to_sparse
from ..runner.jobs import Job
from .frames import decode_codes


def table_frames(jobs: list[Job], accumulators: list[np.ndarray]) -> dict[str, pd.DataFrame]:
    """One DataFrame per aggregate table (``cells``, ``turns``, ``defender`` and the deal
    tables ``deals``, ``knock_pairs``, ``turn_pairs``).

    Rows are the non-empty cells: the key columns (codes decoded like
    :func:`~ginsim.analysis.frames.records_frame`; the deal tables' own keys stay codes,
    see :func:`ginsim.runner.aggregate.deal_keys`) and the moment columns (``hands``,
    sums, sums of squares, ``sum_points_a_x_b``). In the deal tables (duplicate jobs only;
    empty otherwise) ``hands`` is called ``deals`` and each value is a deal's sum over its
    two hands. A ``job`` column leads when there are several jobs.
    """
    parts: dict[str, list[pd.DataFrame]] = {t.name: [] for t in TABLES}
    for j, (job, acc) in enumerate(zip(jobs, accumulators, strict=True)):
        for spec, keys, rows in layout(job.rules).decode(to_sparse(acc)):
            frame = pd.DataFrame({k: keys[k].astype(KEY_DTYPES[k]) for k in spec.keys})
            for i, name in enumerate(MOMENT_COLUMNS):
                frame[name] = rows[:, i]
            if spec in DEAL_TABLES:
                frame = frame.rename(columns={"hands": "deals"})
            if len(jobs) > 1:
                frame.insert(0, "job", j)
            parts[spec.name].append(decode_codes(frame))
    return {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}
