"""Compile the numba kernels a study needs before it runs, saying so on a cold cache.

numba compiles a kernel on its first call and keeps the machine code beside the sources
(:mod:`ginsim.game._jit`), so only the first run on a fresh install (or after the kernel
sources change) spends minutes compiling. :func:`compile_kernels` looks at each kernel's
cache index (a small file read per kernel): when every kernel is loaded or cached it does
nothing and prints nothing; otherwise it prints ``compiling kernels (first run only)``,
compiles the groups one by one with a bar on stderr (a line per group when stderr is not
a terminal) and how long it took.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from ..game.rules import Rules
from ..simulator.branches.chart_nb import knock_chart_nb
from ..simulator.branches.knock_branches import knock_decisions
from ..simulator.play.engine import play_records
from ..simulator.play.game_records import game_records
from ..simulator.play.games_nb import play_games_nb
from ..simulator.play.hand_nb import simulate_nb
from .aggregate import layout
from .aggregate_nb import accumulate_nb


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together: their words, the top-level kernels (numba dispatchers),
    the smallest call that compiles them under given rules, and which compiled
    signatures count (``accepts`` on the argument types; None: any)."""

    name: str
    kernels: tuple[Any, ...]
    compile: Callable[[Rules], object]
    accepts: Callable[[tuple], bool] | None = None


PARAMS_ARG = 4  # simulate_nb's seat rows: C-contiguous plain, a strided view with mc


def _params_layout(layout_code: str) -> Callable[[tuple], bool]:
    return lambda sig: getattr(sig[PARAMS_ARG], "layout", None) == layout_code


def _aggregate(rules: Rules) -> None:
    records, _ = play_records("simple", "simple", stop=2, rules=rules, duplicate=True)
    layout(rules).sparse(records, duplicate=True)


KERNEL_GROUPS: dict[str, KernelGroup] = {group.name: group for group in (
    KernelGroup("hand loop", (simulate_nb,),
                lambda rules: play_records("simple", "memory2", stop=2, rules=rules),
                _params_layout("C")),
    KernelGroup("mc player", (simulate_nb,),
                lambda rules: play_records("mc:rollouts=2", "simple", stop=2, rules=rules),
                _params_layout("A")),
    KernelGroup("aggregate tables", (accumulate_nb,), _aggregate),
    KernelGroup("knock chart", (knock_chart_nb,),
                lambda rules: knock_decisions("simple", "simple", hands=2, rules=rules)),
    KernelGroup("whole games", (play_games_nb,),
                lambda rules: game_records("simple", "simple", 1, 0, rules)),
)}
#: The kernel groups each report study runs (a study with an mc seat adds "mc player").
STUDY_KERNELS: dict[str, tuple[str, ...]] = {
    "knock": ("hand loop", "aggregate tables", "knock chart"),
    "strategies": ("hand loop", "aggregate tables", "mc player"),
    "variants": ("hand loop", "aggregate tables", "whole games"),
}


def is_compiled(kernel: Any, accepts: Callable[[tuple], bool] | None = None) -> bool:
    """Whether calling ``kernel`` needs no compilation: it is loaded in this process or
    numba's cache holds machine code for its current source (its index file lists the
    signature), for a signature that ``accepts`` takes (any when None)."""
    def wanted(signatures: Any) -> bool:
        return any(accepts is None or accepts(tuple(sig)) for sig in signatures)

    if wanted(getattr(kernel, "overloads", None) or ()):
        return True
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


def compile_kernels(studies: Sequence[str], rules: Rules | str | None = None,
                    show: bool = True, groups: Sequence[KernelGroup] | None = None) -> float:
    """Compile the kernels ``studies`` need (or the given ``groups``) unless they are all
    compiled or cached; returns the seconds spent (0 when there was nothing to do). With
    ``show``, a cold cache gets the ``compiling kernels (first run only)`` line, progress
    and the time on stderr; a warm one gets nothing."""
    rules = Rules.coerce(rules)
    if groups is None:
        names = dict.fromkeys(g for study in studies for g in STUDY_KERNELS.get(study, ()))
        groups = [KERNEL_GROUPS[name] for name in names]
    cold = [g for g in groups if not all(is_compiled(k, g.accepts) for k in g.kernels)]
    if not cold:
        return 0.0
    t0 = time.perf_counter()
    if show:
        print(f"compiling kernels (first run only): {', '.join(g.name for g in cold)}",
              file=sys.stderr, flush=True)
    _compile_groups(cold, rules, show)
    wall = time.perf_counter() - t0
    if show:
        print(f"compiled in {wall:.0f} s; later runs load them from the cache",
              file=sys.stderr, flush=True)
    return wall


def _compile_groups(groups: Sequence[KernelGroup], rules: Rules, show: bool) -> None:
    """Compile ``groups`` under ``rules``: a bar on a TTY, else (with ``show``) a line of
    seconds per group."""
    tty = sys.stderr.isatty()
    with tqdm(total=len(groups), unit="group", file=sys.stderr, disable=not (show and tty),
              bar_format="{l_bar}{bar}| {n}/{total} [{elapsed}]", dynamic_ncols=True) as bar:
        for group in groups:
            bar.set_description(group.name)
            start = time.perf_counter()
            group.compile(rules)
            bar.update(1)
            if show and not tty:
                print(f"  {group.name}: {time.perf_counter() - start:.0f} s", file=sys.stderr,
                      flush=True)
