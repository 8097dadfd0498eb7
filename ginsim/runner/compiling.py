"""Compile numba kernels before a command waits on them, saying so on a cold cache.

numba compiles a kernel on its first call and keeps the machine code beside the sources
(:mod:`ginsim.game._jit`), so only the first run on a fresh install (or after the kernel
sources change) spends seconds to minutes compiling. :func:`compile_groups` looks at each
kernel's cache index (a small file read per kernel): when every kernel is loaded or
cached it does nothing and prints nothing; otherwise it prints ``compiling kernels
(first run only)``, compiles the cold groups one by one with a bar on stderr (a line per
group when stderr is not a terminal) and how long it took. Gin's groups are in
:mod:`ginsim.runner.warmup`, Greek Rami's in :mod:`ginsim.rami.play.runner`; this module
knows neither game.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together: their words, the top-level kernels (numba dispatchers),
    the smallest call that compiles them under given rules, and which compiled
    signatures count (``accepts`` on the argument types; None: any)."""

    name: str
    kernels: tuple[Any, ...]
    compile: Callable[[Any], object]
    accepts: Callable[[tuple], bool] | None = None


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


def cold_groups(groups: Sequence[KernelGroup]) -> list[KernelGroup]:
    """Those of ``groups`` with a kernel that calling would compile."""
    return [g for g in groups if not all(is_compiled(k, g.accepts) for k in g.kernels)]


def compile_groups(groups: Sequence[KernelGroup], rules: Any = None, show: bool = True
                   ) -> float:
    """Compile the cold ones of ``groups`` (each by its ``compile(rules)``); returns the
    seconds spent (0 when all were compiled or cached). With ``show``, a cold cache gets
    the ``compiling kernels (first run only)`` line before the wait, progress and the
    time on stderr; a warm one gets nothing."""
    cold = cold_groups(groups)
    if not cold:
        return 0.0
    t0 = time.perf_counter()
    if show:
        print(f"compiling kernels (first run only): {', '.join(g.name for g in cold)}",
              file=sys.stderr, flush=True)
    _compile_each(cold, rules, show)
    wall = time.perf_counter() - t0
    if show:
        print(f"compiled in {wall:.0f} s; later runs load them from the cache",
              file=sys.stderr, flush=True)
    return wall


def _compile_each(groups: Sequence[KernelGroup], rules: Any, show: bool) -> None:
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
