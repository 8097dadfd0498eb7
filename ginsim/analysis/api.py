"""The top-level ``simulate``: play hands (in parallel, optionally into a store)."""

from __future__ import annotations

import os

import pandas as pd

from ..game.inputs.checks import check_flag, check_jobs, check_optional_flag, check_path
from ..game.rules import Rules
from ..runner.jobs import Job
from ..runner.runner import check_options, run
from ..simulator.play.engine import play_records
from ..strategies.presets import Strategy
from .results import Result


def run_simulation(a: str | Strategy = "simple", b: str | Strategy = "simple",
                   hands: int = 10_000, seed: int = 0, rules: Rules | str | None = None, *,
                   start: int = 0, duplicate: bool = False, records: str = "full",
                   n_jobs: int | None = None, chunk_hands: int | None = None,
                   backend: str = "local", scheduler: str | None = None,
                   out: str | os.PathLike | None = None, keep_records: bool = True,
                   progress: bool | None = None) -> Result:
    """Like :func:`simulate`, but returns the :class:`~ginsim.analysis.results.Result`
    (tables, records, manifest and run statistics such as wall time)."""
    check_options(records, backend, scheduler)
    if out is not None:
        check_path(out, "out", "a directory path")
    duplicate = check_flag(duplicate, "duplicate")
    keep_records = check_flag(keep_records, "keep_records")
    progress = check_optional_flag(progress, "progress")
    n_jobs = check_jobs(n_jobs)
    job = Job.make(a, b, hands, seed, rules, start=start, duplicate=duplicate)
    if backend in ("local", "threads") or n_jobs == 1:
        play_records(job.a, job.b, stop=2, seed=0, rules=job.rules)  # load kernels untimed
    result = run([job], records=records, n_jobs=n_jobs, chunk_hands=chunk_hands,
                 backend=backend, scheduler=scheduler, out=out, keep_records=keep_records,
                 progress=progress)
    return Result.from_run(result)


def simulate(a: str | Strategy = "simple", b: str | Strategy = "simple", hands: int = 10_000,
             seed: int = 0, rules: Rules | str | None = None, *, start: int = 0,
             duplicate: bool = False, records: str = "full", n_jobs: int | None = None,
             chunk_hands: int | None = None, backend: str = "local",
             scheduler: str | None = None, out: str | os.PathLike | None = None,
             progress: bool | None = None) -> pd.DataFrame:
    """Play ``hands`` hands of strategy ``a`` (seat a) against ``b``; one row per hand.

    Columns are documented in :mod:`ginsim.simulator.machine.records`. Hand ``i``'s deal and
    choices depend only on ``(seed, i)``, so ``n_jobs`` (default: every core),
    ``chunk_hands`` and ``backend`` (``local`` threads, ``processes``, ``dask`` with an
    optional ``scheduler`` address) never change the rows. ``duplicate`` plays each deal
    twice with the seats swapped. ``records="summary"`` returns the aggregate ``cells``
    table instead of per-hand rows; ``out`` writes (or resumes) a store for
    :func:`ginsim.load`.
    """
    result = run_simulation(a, b, hands, seed, rules, start=start, duplicate=duplicate,
                            records=records, n_jobs=n_jobs, chunk_hands=chunk_hands,
                            backend=backend, scheduler=scheduler, out=out, progress=progress)
    return result.hands if records == "full" else result.summary
