"""Results of a run, in memory or from a store: ``.hands``, ``.summary``, ``.tables``."""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from ..game.inputs.checks import check_flag, check_path
from ..runner.aggregate import add_sparse, layout
from ..runner.jobs import Job
from ..runner.runner import RunResult
from ..runner.store import Store
from ..simulator.limits import MAX_RECORDS_IN_MEMORY
from ..simulator.machine.records import RECORD_DTYPE
from .aggregate_tables import table_frames
from .frames import records_frame
from .pairs import DUPLICATE, deal_moments, pair_counts


class Result:
    """A run's results as DataFrames.

    ``hands``: per-hand rows (full records only), ``summary``: the aggregate ``cells``
    table, ``tables``: every aggregate table by name, ``manifest``: the store's manifest
    (or the run definition in memory). Run statistics (wall time, hands played and
    resumed) are in ``run`` when the result comes from a run.
    """

    def __init__(self, jobs: list[Job], records_mode: str, accumulators: list[np.ndarray],
                 records: list[np.ndarray] | None, manifest: dict[str, Any],
                 run: RunResult | None = None) -> None:
        self.jobs = jobs
        self.records_mode = records_mode
        self.manifest = manifest
        self.run = run
        self._accumulators = accumulators
        self._records = records
        self.no_records: str | None = None  # why ``hands`` is missing, when not the mode

    @classmethod
    def from_run(cls, run: RunResult) -> Result:
        """Wrap the runner's merged output."""
        manifest = run.manifest or {"records": run.records_mode,
                                    "jobs": [j.to_dict() for j in run.jobs]}
        return cls(run.jobs, run.records_mode, run.tables, run.records, manifest, run)

    @property
    def duplicate(self) -> bool:
        """Whether every job played duplicate deals (each deal twice, seats swapped)."""
        return bool(self.jobs) and all(job.duplicate for job in self.jobs)

    @cached_property
    def tables(self) -> dict[str, pd.DataFrame]:
        """Aggregate tables by name: ``cells``, ``turns``, ``defender`` and the deal
        tables ``deals``, ``knock_pairs``, ``turn_pairs``. For duplicate deals the
        ``cells`` and ``turns`` tables' ``attrs`` say so (``design``) and carry the deal
        totals and pair counts, so :func:`~ginsim.summarize` and the metrics count by
        deal (:mod:`~ginsim.analysis.metrics`)."""
        tables = table_frames(self.jobs, self._accumulators)
        if self.duplicate:
            attrs = {"design": DUPLICATE, "deals": deal_moments(tables["deals"]),
                     "pairs": pair_counts(tables["deals"], tables["knock_pairs"],
                                          tables["turn_pairs"])}
            for name in ("cells", "turns"):
                tables[name].attrs.update(attrs)
        return tables

    @property
    def summary(self) -> pd.DataFrame:
        """The aggregate ``cells`` table (outcome x knocker x dealer x K x stock left)."""
        return self.tables["cells"]

    @cached_property
    def hands(self) -> pd.DataFrame:
        """Per-hand rows (a ``job`` column leads when there are several jobs)."""
        if self._records is None and self.no_records:
            raise ValueError(self.no_records)
        if self._records is None:
            where = f" in {self.manifest.get('path')}" if self.manifest.get("path") else ""
            raise ValueError(f"no per-hand records{where}: the run kept summary tables "
                             f"only; run it with records='full' (--records full)")
        frames = [records_frame(r) for r in self._records]
        if len(frames) > 1:
            for j, frame in enumerate(frames):
                frame.insert(0, "job", j)
        hands = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        if self.duplicate:
            hands.attrs["design"] = DUPLICATE  # summarize() then pairs hands 2k, 2k+1
        return hands

    def __repr__(self) -> str:
        hands = sum(j.hands for j in self.jobs)
        return (f"<ginsim.Result: {len(self.jobs)} job(s), {hands:,} hands, "
                f"records {self.records_mode}>")


def load(path: str | os.PathLike, *, partial: bool = False) -> Result:
    """Open a result store written with ``out=``/``--out``; verifies every chunk file
    (its SHA-256 recorded in the manifest, its Parquet page checksums, its stamp against
    the manifest) and raises a StoreError naming the file rather than return changed data.

    An unfinished store raises ValueError unless ``partial=True`` (then only finished
    chunks are loaded; ``hands`` keeps its ``hand`` column to tell which).
    """
    check_path(path, "load's path", "the directory of a result store (out=/--out)")
    partial = check_flag(partial, "partial")
    store = Store.open_reader(path)
    if len(store.done) < len(store.chunks) and not partial:
        waiting = (f"; {len(store.unrecorded)} more are written but not yet recorded with "
                   f"their checksums" if store.unrecorded else "")
        raise ValueError(f"{path} is unfinished ({len(store.done)} of {len(store.chunks)} "
                         f"chunks stored{waiting}): run the same command again to finish "
                         f"it, or load(..., partial=True)")
    full = store.records == "full"
    stored = sum(c.hands for c in store.done)
    keep = full and stored <= MAX_RECORDS_IN_MEMORY
    accs, records = _read_chunks(store, keep)
    manifest = dict(store.manifest, path=str(path))
    result = Result(store.jobs, store.records, accs, records, manifest)
    if full and not keep:
        result.no_records = (f"{path} holds {stored:,} hands of per-hand records, more than "
                             f"the {MAX_RECORDS_IN_MEMORY:,} that .hands keeps in memory; "
                             f"the tables are complete, and the chunk files under "
                             f"{path}/chunks can be read one at a time with pyarrow")
    return result


def _read_chunks(store: Store, keep: bool) -> tuple[list[np.ndarray], list[np.ndarray] | None]:
    """Every finished chunk of ``store`` read and verified, in chunk order: the table
    accumulators per job (made from the records in full mode) and, with ``keep``, the
    records per job."""
    accs = [layout(job.rules).empty() for job in store.jobs]
    full = store.records == "full"
    parts: list[list[np.ndarray]] = [[] for _ in store.jobs]
    for chunk in sorted(store.done, key=lambda c: (c.job, c.index)):
        if not full:
            add_sparse(accs[chunk.job], store.read_sparse(chunk))
            continue
        recs = store.read_records(chunk)
        if keep:
            parts[chunk.job].append(recs)
        job = store.jobs[chunk.job]
        add_sparse(accs[chunk.job], layout(job.rules).sparse(recs, job.duplicate))
    if not keep:
        return accs, None
    return accs, [np.concatenate(p) if p else np.empty(0, dtype=RECORD_DTYPE) for p in parts]
