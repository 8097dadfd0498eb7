"""Chunked work over an index range that is not a gin :class:`~ginsim.runner.jobs.Job`
(Greek Rami's deals and games): the range cut into chunks, each chunk played by one
function through joblib threads (the kernels release the GIL), the results back in
index order. Work whose randomness comes from ``(seed, index)`` gives the same results
for any chunk size and worker count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from joblib import Parallel, delayed

from .runner import resolve_workers

T = TypeVar("T")


def index_chunks(start: int, stop: int, size: int) -> Iterator[tuple[int, int]]:
    """``start .. stop-1`` as ``(lo, hi)`` chunks of ``size`` (>= 1) indices, the last
    possibly shorter, in order; computed as they are taken, so any range costs the same
    memory. The caller checks the bounds."""
    return ((lo, min(lo + size, stop)) for lo in range(start, stop, size))


def run_index_chunks(play: Callable[[int, int], T], start: int, stop: int, size: int,
                     n_jobs: int | None = 1) -> list[T]:
    """``play(lo, hi)`` for every chunk of :func:`index_chunks`, in index order: in this
    thread with one worker (or one chunk), else on a joblib thread pool of
    ``n_jobs`` workers (None or -1: every core)."""
    pieces = list(index_chunks(start, stop, size))
    workers = resolve_workers(n_jobs)
    if workers == 1 or len(pieces) <= 1:
        return [play(lo, hi) for lo, hi in pieces]
    return Parallel(n_jobs=min(workers, len(pieces)), backend="threading")(
        delayed(play)(lo, hi) for lo, hi in pieces)
