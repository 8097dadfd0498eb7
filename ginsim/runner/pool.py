"""One place for chunked work: cut an index range into pieces and run a function over
the pieces through joblib (in this process, threads, loky processes or Dask), results
in piece order or as they finish.

Every hand's and deal's randomness comes from ``(seed, index)``, so a piece's result
does not depend on how the range was cut or which worker played it; callers merge the
results by addition or put them back in order. The runner's jobs
(:func:`ginsim.runner.runner.run`) and the best-response drivers
(:mod:`ginsim.runner.responses`) run their pieces through :func:`map_chunks`; any other
caller (Rami's runner, a script) may do the same rather than start a pool of its own.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from typing import Any

import numpy as np
from joblib import Parallel, delayed, parallel_config

from ..game.inputs.specs import brief
from ..simulator.limits import MAX_CHUNKS

#: ``local`` is the default: threads. The kernels release the GIL, threads start at once
#: and share the loaded numba code; see docs/scale.md for the figures.
BACKENDS = ("local", "threads", "processes", "dask")
#: How ``backend="dask"`` without a scheduler starts its LocalCluster: one process per
#: worker, like a real cluster (so pickling and worker start-up are part of the figures).
LOCAL_CLUSTER_OPTIONS = {"processes": True, "threads_per_worker": 1}


def chunk_size(total: int, parts: int, low: int, high: int) -> int:
    """The one chunk-size policy: ``total`` items cut into about ``parts`` chunks, each
    of ``low`` .. ``high`` items, and never more than
    :data:`~ginsim.simulator.limits.MAX_CHUNKS` chunks. The runner asks for a few
    chunks per worker; a tournament for a quarter of a pair's decks (a rule of the
    games alone, so a resumed run cuts the same chunks); the best responses and Rami fix
    the size (``low == high``)."""
    want = min(max(-(-max(total, 1) // max(parts, 1)), low), high)
    return max(want, -(-total // MAX_CHUNKS))


def index_chunks(start: int, stop: int, size: int) -> Iterator[tuple[int, int]]:
    """``start .. stop-1`` as ``(lo, hi)`` chunks of ``size`` (>= 1) indices, the last
    possibly shorter, in order; made as they are taken, so any range costs the same
    memory (a store's manifest may name a huge one). The caller checks the bounds."""
    return ((lo, min(lo + size, stop)) for lo in range(start, stop, size))


def spans(start: int, count: int, size: int) -> list[tuple[int, int]]:
    """``(first, n)`` pieces of at most ``size`` indices that cover indices
    ``start .. start+count-1`` in order (the last piece may be shorter)."""
    return [(lo, hi - lo) for lo, hi in index_chunks(start, start + count, size)]


def resolve_workers(n_jobs: int | None) -> int:
    """Worker count: ``None`` or -1 is every core; otherwise a positive int."""
    cores = os.cpu_count() or 1
    if n_jobs is None or n_jobs == -1:
        return cores
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive int or -1 (every core), got {brief(n_jobs)}")
    return int(n_jobs)


def in_process(workers: int, backend: str) -> bool:
    """Whether pieces run in this process, one after another (no pool to start)."""
    return workers == 1 and backend in ("local", "threads", "processes")


def map_chunks(fn: Callable[..., Any], calls: Iterable[tuple], *, n_jobs: int | None = 1,
               backend: str = "threads", ordered: bool = True, count: int | None = None,
               scheduler: str | None = None) -> Iterator[Any]:
    """``fn(*args)`` for every ``args`` tuple of ``calls``: in this process with one
    worker, else on ``n_jobs`` workers of ``backend`` (one of :data:`BACKENDS`), in the
    order of ``calls`` or (``ordered=False``) as they finish. ``count`` is how many calls
    there are when ``calls`` has no length (it caps the pool's size); ``scheduler`` a Dask
    scheduler address (``backend="dask"`` only)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {brief(backend)}")
    workers = resolve_workers(n_jobs)
    if count is None:
        count = len(calls) if isinstance(calls, Sized) else workers
    if count == 0:
        return
    with warnings.catch_warnings():
        # joblib warns, besides our own one-line error, that it cancelled the tasks in
        # flight when a run stops (a full disk, Ctrl-C): the user needs only the error.
        warnings.filterwarnings("ignore", category=UserWarning, module=r"joblib(\.|$)")
        yield from _results(fn, calls, count, workers, backend, ordered, scheduler)


def _results(fn: Callable[..., Any], calls: Iterable[tuple], count: int, workers: int,
             backend: str, ordered: bool, scheduler: str | None) -> Iterator[Any]:
    if in_process(workers, backend):
        for args in calls:  # in-process: no pool to start
            yield fn(*args)
        return
    tasks = (delayed(fn)(*args) for args in calls)
    order = "generator" if ordered else "generator_unordered"
    if backend == "dask":
        with dask_client(scheduler, workers):
            with parallel_config(backend="dask"):
                yield from Parallel(n_jobs=-1, return_as=order)(tasks)
        return
    name = "loky" if backend == "processes" else "threading"
    yield from Parallel(n_jobs=min(workers, count), backend=name, return_as=order)(tasks)


@contextmanager
def dask_client(scheduler: str | None, workers: int) -> Iterator[object]:
    """A ``distributed.Client``: connected to ``scheduler``, or to a LocalCluster of
    ``workers`` single-threaded worker processes started (and closed) here."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("the dask backend needs dask.distributed: "
                         "pip install 'ginsim[dask]'") from None
    if scheduler is not None:
        try:
            client = Client(scheduler)  # waits distributed.comm.timeouts.connect
        except (OSError, TimeoutError, ValueError) as exc:
            raise ValueError(f"could not reach the Dask scheduler at {scheduler} ({exc}); "
                             f"check the address (tcp://HOST:PORT) or drop --scheduler to "
                             f"start a local cluster") from None
        with client:
            yield client
        return
    with LocalCluster(n_workers=workers, dashboard_address=":0",
                      **LOCAL_CLUSTER_OPTIONS) as cluster, Client(cluster) as client:
        yield client


def run_index_chunks(play: Callable[[int, int], Any], start: int, stop: int, size: int,
                     n_jobs: int | None = 1) -> list[Any]:
    """``play(lo, hi)`` for every chunk of :func:`index_chunks`, in index order, through
    :func:`map_chunks` on threads (the kernels release the GIL)."""
    return list(map_chunks(play, list(index_chunks(start, stop, size)), n_jobs=n_jobs))
