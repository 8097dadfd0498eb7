"""Run jobs at scale: chunks through :func:`~ginsim.runner.pool.map_chunks` (threads,
processes or Dask), merged as they finish, optionally written to a result store and resumed from it.

Every hand's randomness comes from ``(seed, hand)``, so the records and tables do not
depend on ``n_jobs``, the chunk size or the backend. Chunks finish in any order; records
are put back in hand order and tables merge by addition. Memory stays flat in summary
mode: a chunk of any size is played :data:`~ginsim.runner.aggregate.SLICE_HANDS` hands at
a time, and joblib dispatches only a few chunks ahead of the merge.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from ..game.inputs.specs import brief
from ..simulator.limits import check_records_in_memory
from ..simulator.machine.records import RECORD_DTYPE
from ..simulator.play.engine import play_records
from .aggregate import SLICE_HANDS, SparseTables, add_sparse, layout
from .jobs import Chunk, Job, check_chunk_hands, default_chunk_hands, plan_chunks
from .manifest import RECORD_MODES
from .pool import BACKENDS, in_process, map_chunks
from .pool import resolve_workers as resolve_workers
from .store import Store, StoreNotice

PROGRESS_DELAY_S = 0.5  # the bar (on a TTY) appears only once a run has taken this long


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped a run that writes a store; the message says how much is
    stored and how to resume (the store is closed and its lock released)."""


@dataclass
class ChunkResult:
    """What a worker sends back: the chunk, its records (full mode) and sparse tables."""

    chunk: Chunk
    records: np.ndarray | None
    tables: SparseTables


@dataclass
class RunResult:
    """The merged outcome of a run: per job, the flat table accumulator and (full mode,
    when kept) the records in hand order; plus counts and timing."""

    jobs: list[Job]
    records_mode: str
    tables: list[np.ndarray]
    records: list[np.ndarray] | None
    hands_played: int = 0
    hands_resumed: int = 0
    chunks_played: int = 0
    chunks_resumed: int = 0
    wall_s: float = 0.0
    workers: int = 1
    backend: str = "local"
    store: str | None = None
    manifest: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what a resume did (also warned)

    @property
    def hands(self) -> int:
        """Hands in the run, resumed ones included."""
        return sum(j.hands for j in self.jobs)


def play_chunk(job: Job, chunk: Chunk, keep_records: bool,
               into: np.ndarray | None = None) -> ChunkResult:
    """Play one chunk (in a worker) and summarise it; records only when asked for.
    ``into``: where to write the records (the run's own array, when in-process)."""
    if not keep_records and into is None:  # summary: a slice of records at a time
        return ChunkResult(chunk, None, layout(job.rules).sparse_of(_slices(job, chunk),
                                                                   job.duplicate))
    records, _ = play_records(job.a, job.b, start=chunk.start, stop=chunk.stop,
                              seed=job.seed, rules=job.rules, duplicate=job.duplicate,
                              out=into)
    tables = layout(job.rules).sparse(records, job.duplicate)
    return ChunkResult(chunk, records if keep_records else None, tables)


def _slices(job: Job, chunk: Chunk) -> Iterator[np.ndarray]:
    """The chunk's records, :data:`SLICE_HANDS` hands at a time, in one reused buffer
    (every field of every row is written by the kernel)."""
    buffer = np.empty(min(chunk.hands, SLICE_HANDS), dtype=RECORD_DTYPE)
    for lo in range(chunk.start, chunk.stop, SLICE_HANDS):
        hi = min(lo + SLICE_HANDS, chunk.stop)
        records, _ = play_records(job.a, job.b, start=lo, stop=hi, seed=job.seed,
                                  rules=job.rules, duplicate=job.duplicate,
                                  out=buffer[:hi - lo])
        yield records


def check_options(records: str, backend: str, scheduler: str | None) -> None:
    """One-line ValueErrors for bad mode/backend combinations."""
    if records not in RECORD_MODES:
        raise ValueError(f"records must be 'full' or 'summary', got {brief(records)}")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {brief(backend)}")
    if scheduler is not None and backend != "dask":
        raise ValueError("a scheduler address needs backend 'dask' (--backend dask)")


def run(jobs: list[Job], *, records: str = "summary", n_jobs: int | None = None,
        chunk_hands: int | None = None, backend: str = "local", scheduler: str | None = None,
        out: str | os.PathLike | None = None, keep_records: bool = True,
        progress: bool | None = None,
        on_chunk: Callable[[ChunkResult], None] | None = None) -> RunResult:
    """Play every job in chunks and merge them; see the module docstring.

    With ``out`` the chunks go to a result store (resumed if it holds this run). In full
    mode ``keep_records=False`` drops records after storing them. ``progress`` None shows
    a bar on a TTY once the run has taken half a second. ``on_chunk`` is called after
    each chunk is merged and stored.
    """
    check_options(records, backend, scheduler)
    _check_jobs(jobs)
    workers = resolve_workers(n_jobs)
    if chunk_hands is not None:
        chunk_hands = check_chunk_hands(chunk_hands)
    total = sum(j.hands for j in jobs)
    keep = records == "full" and keep_records
    if keep:
        check_records_in_memory(total)
    default_size = default_chunk_hands(total, workers)
    with ExitStack() as stack:
        store = None
        if out is not None:
            store = stack.enter_context(
                Store.open_writer(out, jobs, records, chunk_hands, default_size))
        try:
            todo, count, done = _plan(store, jobs, chunk_hands or default_size)
            result = _new_result(jobs, records, keep, workers, backend, out)
            if store is not None:
                _resume(result, store, done, keep)
            bar = stack.enter_context(_progress_bar(total, result.hands_resumed, progress))
            t0 = time.perf_counter()
            for res in map_chunks(play_chunk, _calls(result, todo, keep), n_jobs=workers,
                                  backend=backend, ordered=False, count=count,
                                  scheduler=scheduler):
                _take(result, res, store, keep)
                bar.update(res.chunk.hands)
                if on_chunk is not None:
                    on_chunk(res)
        except KeyboardInterrupt as exc:
            if store is None or isinstance(exc, RunInterrupted):
                raise
            raise RunInterrupted(
                f"interrupted: {len(store.done):,} of {len(store.chunks):,} chunks are stored "
                f"in {store.root}; run the same command again to resume") from None
        result.wall_s = time.perf_counter() - t0
        if store is not None:
            _finish(result, store)
    return result


def _check_jobs(jobs: list[Job]) -> None:
    if not isinstance(jobs, list) or not jobs or not all(isinstance(j, Job) for j in jobs):
        raise ValueError("a run needs a non-empty list of Job objects (Job.make(...))")


def _plan(store: Store | None, jobs: list[Job], chunk_hands: int
          ) -> tuple[Iterator[Chunk], int, list[Chunk]]:
    """(chunks to play, how many, chunks already stored): a store's own plan and what it
    holds, else every chunk of ``chunk_hands`` hands."""
    if store is None:
        chunks = plan_chunks(jobs, chunk_hands)
        return iter(chunks), len(chunks), []
    done = sorted(store.done, key=lambda c: (c.job, c.index))
    return store.pending(), len(store.chunks) - len(store.done), done


def _new_result(jobs: list[Job], records: str, keep: bool, workers: int, backend: str,
                out: str | os.PathLike | None) -> RunResult:
    """An empty result: zero tables, and with ``keep`` the record arrays to fill."""
    return RunResult(jobs, records, [layout(j.rules).empty() for j in jobs],
                     [np.empty(j.hands, dtype=RECORD_DTYPE) for j in jobs] if keep else None,
                     workers=workers, backend=backend,
                     store=str(out) if out is not None else None)


def _calls(result: RunResult, todo: Iterator[Chunk], keep: bool) -> Iterator[tuple]:
    """:func:`play_chunk`'s arguments per chunk; in-process ones write their records
    straight into the run's arrays."""
    into = keep and in_process(result.workers, result.backend)
    return ((result.jobs[c.job], c, result.records_mode == "full",
             _slot(result, c) if into else None) for c in todo)


def _resume(result: RunResult, store: Store, done: list[Chunk], keep: bool) -> None:
    """Warn what reopening the store found, and read back (and verify) the stored chunks."""
    for note in store.notices:
        result.notes.append(note)
        warnings.warn(note, StoreNotice, stacklevel=3)  # at the caller of run()
    for chunk in done:
        _merge(result, chunk, store.read_records(chunk) if keep else None,
               store.read_sparse(chunk))
        result.chunks_resumed += 1
        result.hands_resumed += chunk.hands


def _progress_bar(total: int, initial: int, progress: bool | None) -> tqdm:
    """The hands bar: on a TTY after ``PROGRESS_DELAY_S`` unless ``progress`` says."""
    show = progress if progress is not None else sys.stderr.isatty()
    return tqdm(total=total, initial=initial, unit="hands", unit_scale=True,
                disable=not show, file=sys.stderr, smoothing=0.1, dynamic_ncols=True,
                delay=PROGRESS_DELAY_S if progress is None else 0)


def _take(result: RunResult, res: ChunkResult, store: Store | None, keep: bool) -> None:
    """Store a played chunk (with ``store``) and merge it into ``result``."""
    if store is not None:
        store.write(res.chunk, res.records, res.tables)
    _merge(result, res.chunk, res.records if keep else None, res.tables)
    result.chunks_played += 1
    result.hands_played += res.chunk.hands


def _finish(result: RunResult, store: Store) -> None:
    """Record the run's last pass in the store's manifest."""
    store.save(last_run={"wall_s": round(result.wall_s, 3),
                         "hands_played": result.hands_played, "workers": result.workers,
                         "backend": result.backend})
    result.manifest = store.manifest


def _merge(result: RunResult, chunk: Chunk, records: np.ndarray | None,
           tables: SparseTables) -> None:
    add_sparse(result.tables[chunk.job], tables)
    if result.records is not None and records is not None:
        target = _slot(result, chunk)
        if not np.shares_memory(target, records):  # else the chunk was played in place
            # As bytes: numpy copies a packed record dtype field by field, ten times slower.
            target.view(np.uint8)[:] = records.view(np.uint8)


def _slot(result: RunResult, chunk: Chunk) -> np.ndarray:
    """The rows of the run's record array that ``chunk`` fills."""
    first = result.jobs[chunk.job].start
    return result.records[chunk.job][chunk.start - first:chunk.stop - first]
