"""The one place that sets numba compile options for every ginsim kernel.

``cache=True`` keeps compiled machine code next to the sources, so a second process
(a joblib worker, the next test run) loads it instead of compiling again.
``nogil=True`` lets kernels run in parallel threads. ``error_model="numpy"`` makes
integer division skip the Python zero-division check on the hot path.
``_nrt=False`` compiles without numba's reference-counting runtime: kernels allocate
nothing (the Python layer hands them every array), and without it no atomic
increment/decrement wraps each array passed between kernels. Profiling the hand loop
with it on showed those atomics at about a quarter of the run time.

numba checks a cached kernel only against its own source file, yet kernels inline
kernels and constant tables from other modules. So every kernel of this package is
cached through a locator of numba's own (:class:`numba.core.caching.CacheImpl` tries
its locator classes in order) whose source stamp also carries a hash of all kernel
sources: the layers ``game``, ``strategies``, ``simulator``, ``runner`` and
:data:`KERNEL_FILES`. A change anywhere makes numba treat every cached kernel as stale
and compile it again; importing deletes nothing.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from numba import njit
from numba.core import caching

PACKAGE = Path(__file__).resolve().parents[1]
KERNEL_LAYERS = ("game", "strategies", "simulator", "table", "runner")
#: Greek Rami's kernels and the modules whose constants they read (ginsim/rami).
KERNEL_FILES = ("rami/*/*_nb.py", "rami/game/rules.py", "rami/play/strategy.py",
                "rami/game/tables.py")


@cache
def kernel_source_hash() -> str:
    """SHA-256 over the path and text of every source file kernels are compiled from."""
    digest = hashlib.sha256()
    sources = [p for layer in KERNEL_LAYERS for p in (PACKAGE / layer).rglob("*.py")]
    sources += [p for pattern in KERNEL_FILES for p in PACKAGE.glob(pattern)]
    for path in sorted(sources):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _in_package(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(PACKAGE)
    except (OSError, ValueError):
        return False


def _kernel_set_locator(base: type) -> type:
    """``base`` (one of numba's file-backed locators) for this package's kernels, with
    the hash of all kernel sources in its source stamp."""

    class KernelSetLocator(base):
        @classmethod
        def from_function(cls, py_func, py_file):
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return super().get_source_stamp(), kernel_source_hash()

    KernelSetLocator.__name__ = KernelSetLocator.__qualname__ = f"KernelSet{base.__name__}"
    return KernelSetLocator


#: numba's own order: a user cache directory, then next to the sources, then user-wide.
KERNEL_LOCATORS = tuple(_kernel_set_locator(base) for base in (
    caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
    caching.UserWideCacheLocator))
if not any(loc in caching.CacheImpl._locator_classes for loc in KERNEL_LOCATORS):
    caching.CacheImpl._locator_classes[:0] = KERNEL_LOCATORS

jit = njit(cache=True, nogil=True, error_model="numpy", _nrt=False)

#: For small kernels on the hot path: numba inlines their body into each caller before
#: LLVM sees it. A call between two kernels passes every array as seven or more scalars,
#: and LLVM keeps most of these small functions out of line; profiling the hand loop
#: showed such glue calls at about 40% of its time. Not for a large kernel called once
#: a turn: numba types an inlined body again at every call site, inlined callees and
#: all (inlined, the expert's discard and pile choice, the deal and the hand's record
#: made the first report compile for 323 s instead of 73 s, at the same speed).
jit_inline = njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
