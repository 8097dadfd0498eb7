"""Compile numba kernels before a command waits on them, saying so on a cold cache.

numba compiles a kernel on its first call and caches the machine code
(:mod:`ginsim.game._jit`), so only a first run (fresh install, changed kernel sources)
spends seconds to minutes compiling. :func:`compile_groups` reads each kernel's cache
index: when every kernel is loaded or cached it prints nothing; otherwise it says
``compiling kernels (first run only)``, compiles the cold groups with their progress on
stderr (:mod:`ginsim.runner.kernels.waiting`) and how long it took. Independent cold groups
compile at once in spawned worker processes (one per idle core, or
``GINSIM_COMPILE_JOBS``) that write numba's cache, then load here; a group a worker could
not compile is compiled here, said so. :class:`BackgroundCompile` compiles groups in a
worker while the caller goes on (``ginsim play`` shows the first hand meanwhile). Gin's
groups are in :mod:`ginsim.runner.kernels.warmup`, Greek Rami's in
:mod:`ginsim.rami.play.runner`."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...game.inputs.checks import MAX_JOBS, check_int
from ...game.kernel_cache import cached_index
from .compile_workers import CompileWorkers
from .waiting import Progress, Ticker

#: The environment variable that sets how many worker processes compile cold groups at
#: once (1: all in the calling process); unset, one per idle core.
JOBS_SETTING = "GINSIM_COMPILE_JOBS"


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together: their words, the top-level kernels (numba dispatchers),
    the smallest call that compiles them under given rules, and which compiled
    signatures count (``accepts`` on the argument types; None: any).

    ``recipe`` rebuilds the group in a worker process (:mod:`.compile_workers`; None:
    it compiles in the calling process only); ``needs`` names groups whose kernels its
    call compiles too, compiled first."""

    name: str
    kernels: tuple[Any, ...]
    compile: Callable[[Any], object]
    accepts: Callable[[tuple], bool] | None = None
    recipe: tuple[str, tuple] | None = None
    needs: tuple[str, ...] = ()


def is_compiled(kernel: Any, accepts: Callable[[tuple], bool] | None = None) -> bool:
    """Whether calling ``kernel`` needs no compilation: it is loaded in this process or
    numba's cache holds machine code for its current source (its index file lists the
    signature), for a signature that ``accepts`` takes (any when None)."""
    def wanted(signatures: Any) -> bool:
        return any(accepts is None or accepts(tuple(sig)) for sig in signatures)

    if wanted(getattr(kernel, "overloads", None) or ()):
        return True
    index = cached_index(kernel)  # ginsim's kernels: a damaged index is a miss, said once
    if index is not None:
        return wanted(key[0] for key in index)
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    load_index = getattr(cache_file, "_load_index", None)
    if load_index is not None:
        try:  # keys are (argument types, machine)
            return wanted(key[0] for key in load_index())
        except Exception:  # noqa: BLE001 (a damaged index: numba compiles again)
            return False
    stats = getattr(kernel, "stats", None)  # another numba: look for the index file
    cache_path = getattr(stats, "cache_path", None)
    if not cache_path:
        return False
    stem = f"{Path(kernel.py_func.__code__.co_filename).stem}.{kernel.py_func.__qualname__}"
    return any(Path(cache_path).glob(f"{stem}-*.nbi"))


def cold_groups(groups: Sequence[KernelGroup]) -> list[KernelGroup]:
    """Those of ``groups`` with a kernel that calling would compile."""
    return [g for g in groups if not all(is_compiled(k, g.accepts) for k in g.kernels)]


#: Where Linux keeps the CPU time counters :func:`busy_cores` samples.
PROC_STAT = Path("/proc/stat")


def cpu_times() -> tuple[int, int] | None:
    """``(idle, total)`` CPU time of the whole machine in clock ticks from
    :data:`PROC_STAT` (idle counts I/O waits); None where there is no such file."""
    try:
        fields = PROC_STAT.read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    if len(fields) < 5 or fields[0] != "cpu":
        return None
    ticks = [int(f) for f in fields[1:9]]  # user .. steal; guest time is inside user
    return ticks[3] + ticks[4], sum(ticks)


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The share of the machine's CPU time that was busy between two :func:`cpu_times`
    samples (0 when no time passed)."""
    total = after[1] - before[1]
    if total <= 0:
        return 0.0
    return min(1.0, max(0.0, 1.0 - (after[0] - before[0]) / total))


def busy_cores(window: float = 0.1) -> float:
    """How many cores other work keeps busy now: measured over ``window`` seconds where
    the machine counts CPU time (Linux), else its 1-minute load average. The load
    average lags: a minute after an install or a test run it still counts a core or two
    busy on an idle machine, and compiling in one process then wastes the idle core."""
    before = cpu_times()
    if before is not None:
        time.sleep(window)
        after = cpu_times()
        if after is not None:
            return busy_share(before, after) * (os.cpu_count() or 1)
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here
        return 0.0


def jobs_setting() -> int | None:
    """``GINSIM_COMPILE_JOBS`` as a number of worker processes, None when it is unset or
    blank; anything but a whole number in 1..MAX_JOBS is a one-line ValueError naming
    it (read before anything compiles, however many groups are cold)."""
    text = os.environ.get(JOBS_SETTING, "").strip()
    if not text:
        return None
    value: Any = int(text) if text.isascii() and text.isdigit() and len(text) < 8 else text
    return check_int(value, JOBS_SETTING, 1, MAX_JOBS,
                     hint="1 compiles in this process; unset, one process per idle core")


def compile_jobs() -> int:
    """How many worker processes may compile cold groups at once: ``GINSIM_COMPILE_JOBS``
    when set (1: compile in this process; :func:`jobs_setting`), else one per idle core
    this process may use (its cores less those :func:`busy_cores` finds busy, rounded:
    groups that share sub-kernels compile them in each worker, which pays on idle cores
    and loses on busy ones)."""
    setting = jobs_setting()
    if setting is not None:
        return setting
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform
        cores = os.cpu_count() or 1
    return max(1, cores - round(busy_cores()))


def worker_batches(groups: Sequence[KernelGroup]) -> list[list[KernelGroup]]:
    """``groups`` in batches that may compile in separate processes at once: groups that
    share a top-level kernel (whose one cache index two processes could overwrite), or
    that one ``needs``, go into one batch, needed groups first, else in the
    given order."""
    root = list(range(len(groups)))

    def find(i: int) -> int:
        while root[i] != i:
            i = root[i]
        return i

    first_with: dict[object, int] = {}
    index = {group.name: i for i, group in enumerate(groups)}
    for i, group in enumerate(groups):
        linked = [first_with.setdefault(id(k), i) for k in group.kernels]
        for j in linked + [index[n] for n in group.needs if n in index]:
            root[find(j)] = find(i)
    batches: dict[int, list[KernelGroup]] = {}
    for i, group in enumerate(groups):
        batches.setdefault(find(i), []).append(group)
    return [_needs_first(batch) for batch in batches.values()]


def _needs_first(batch: list[KernelGroup]) -> list[KernelGroup]:
    """``batch`` with every group after the groups of the batch it needs."""
    by_name = {group.name: group for group in batch}
    placed: dict[str, KernelGroup] = {}

    def place(group: KernelGroup, path: tuple[str, ...]) -> None:
        if group.name in placed or group.name in path:
            return
        for name in group.needs:
            if name in by_name:
                place(by_name[name], (*path, group.name))
        placed[group.name] = group

    for group in batch:
        place(group, ())
    return list(placed.values())


def _worker_plan(cold: Sequence[KernelGroup]) -> tuple[list[list[KernelGroup]], int]:
    """The batches of ``cold`` for worker processes and how many processes (0: compile
    in this process: one batch, one process allowed, or a group without a recipe)."""
    batches = worker_batches(cold)
    if len(batches) < 2 or any(group.recipe is None for group in cold):
        return batches, 0
    processes = min(compile_jobs(), len(batches))
    return batches, processes if processes > 1 else 0


def compile_groups(groups: Sequence[KernelGroup], rules: Any = None, show: bool = True
                   ) -> float:
    """Compile the cold ones of ``groups`` (each by its ``compile(rules)``), independent
    ones in worker processes; returns the seconds spent (0 when all were compiled or
    cached). With ``show``, a cold cache gets the ``compiling kernels (first run
    only)`` line before the wait, progress and the time on stderr; a warm one nothing."""
    jobs_setting()  # a bad GINSIM_COMPILE_JOBS is refused however many groups are cold
    cold = cold_groups(groups)
    if not cold:
        return 0.0
    t0 = time.perf_counter()
    batches, processes = _worker_plan(cold)
    if show:
        at_once = f" ({processes} at a time, in worker processes)" if processes else ""
        print(f"compiling kernels (first run only): {', '.join(g.name for g in cold)}"
              f"{at_once}", file=sys.stderr, flush=True)
    progress = Progress(len(cold), show, [g.name for g in cold])
    try:
        left = _in_workers(batches, rules, processes, progress) if processes else cold
        for group in left:
            progress.start(group.name)
            start = time.perf_counter()
            group.compile(rules)
            progress.done(group.name, time.perf_counter() - start)
    finally:
        progress.close()
    wall = time.perf_counter() - t0
    if show:
        print(f"compiled in {wall:.0f} s; later runs load them from the cache",
              file=sys.stderr, flush=True)
    return wall


def _in_workers(batches: list[list[KernelGroup]], rules: Any, processes: int,
                progress: Progress) -> list[KernelGroup]:
    """Compile ``batches`` in ``processes`` workers; returns the groups this process
    must compile still (a worker failed, or its kernels are not in the cache after)."""
    cold = [group for batch in batches for group in batch]
    try:
        workers = CompileWorkers(batches, rules, processes)
    except Exception as err:  # noqa: BLE001 (e.g. rules that do not pickle)
        progress.say(f"  could not start worker processes ({err}); compiling here")
        return cold
    failed: list[KernelGroup] = []
    try:
        for group, seconds, error in workers.results():
            if error is None:
                progress.done(group.name, seconds)
            else:
                failed.append(group)
                reason = error.strip().splitlines()[-1]
                progress.say(f"  {group.name}: its worker failed ({reason}); compiling it "
                             "in this process")
    finally:
        workers.close()
    missing = cold_groups([group for group in cold if group not in failed])
    for group in missing:
        progress.say(f"  {group.name}: not in numba's cache after its worker; compiling it "
                     "in this process")
    return [group for group in cold if group in failed or group in missing]


class BackgroundCompile:
    """The cold ones of ``groups`` compiling in a worker process while the caller goes on
    (``ginsim play`` shows the first hand meanwhile); :meth:`wait` before the first call
    that needs them. Without a worker (``GINSIM_COMPILE_JOBS=1``, a group without a
    recipe, or with ``need_idle_core`` no second idle core) :meth:`wait` compiles them
    here, saying so; ``need_idle_core=False`` (a caller that mostly waits for a person)
    starts the worker whatever the load."""

    def __init__(self, groups: Sequence[KernelGroup], rules: Any = None, show: bool = True,
                 purpose: str = "use", need_idle_core: bool = True) -> None:
        self.groups, self.rules, self.show, self.purpose = list(groups), rules, show, purpose
        self._workers: CompileWorkers | None = None
        self._start, self._done = time.perf_counter(), set[str]()
        jobs_setting()
        cold = cold_groups(self.groups)
        jobs = compile_jobs() if need_idle_core or os.environ.get(JOBS_SETTING) else 2
        if not cold or any(g.recipe is None for g in cold) or jobs < 2:
            return
        try:
            self._workers = CompileWorkers(worker_batches(cold), rules, 1)
        except Exception:  # noqa: BLE001 (wait compiles them here)
            return
        self._say(f"compiling kernels in the background (first run only): "
                  f"{', '.join(g.name for g in cold)}; the first {purpose} waits for them")

    def _say(self, line: str) -> None:
        if self.show:
            print(line, file=sys.stderr, flush=True)

    def wait(self, names: Sequence[str] | None = None, purpose: str | None = None) -> float:
        """Block until the groups named by ``names`` (None: all) are compiled, at once
        when they are; returns the seconds waited, during which a status says which
        groups and for how long (``purpose``: what waits; the constructor's by default).
        One the worker could not compile is compiled here, said so."""
        wanted = [g for g in self.groups if names is None or g.name in names]
        if all(g.name in self._done for g in wanted):
            return 0.0
        start, workers = time.perf_counter(), self._workers
        if workers is not None:
            todo = {g.name for g in wanted} & set(workers.pending)
            if todo:
                self._await(workers, todo, purpose or f"first {self.purpose}")
            if not workers.pending:
                self.close()
            if time.perf_counter() - start > 0.5:
                self._say(f"compiled in the background in "
                          f"{time.perf_counter() - self._start:.0f} s")
        compile_groups(wanted, self.rules, self.show)  # what is still cold, if any
        self._done |= {g.name for g in wanted}
        return time.perf_counter() - start

    def _await(self, workers: CompileWorkers, todo: set[str], purpose: str) -> None:
        """Take the worker's results until the groups ``todo`` are done, a status on."""
        self._say(f"waiting for the kernels compiling in the background for the {purpose} "
                  "(first run only)...")
        what = f"  compiling {', '.join(sorted(todo))} in the background"
        with Ticker(what) if self.show else nullcontext():
            for group, _, error in workers.results():
                if error is not None:
                    self._say(f"  {group.name}: the background worker failed "
                              f"({error.strip().splitlines()[-1]}); compiling it here")
                todo.discard(group.name)
                if not todo:
                    return

    def close(self) -> None:
        """Stop the worker if it still compiles (the caller no longer needs it)."""
        if self._workers is not None:
            self._workers.close()
            self._workers = None
