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
kernels and constant tables from other modules. So on import the caches of this
package are dropped whenever a source file of the kernel layers (``game``,
``strategies``, ``simulator``, ``runner``) or of :data:`KERNEL_FILES` differs from the
set they were compiled from (a stamp file holds the hash).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba import njit

PACKAGE = Path(__file__).resolve().parents[1]
KERNEL_LAYERS = ("game", "strategies", "simulator", "runner")
#: Greek Rami's kernels and the modules whose constants they read (ginsim/rami).
KERNEL_FILES = ("rami/*_nb.py", "rami/rules.py", "rami/strategy.py", "rami/tables.py")
STAMP_NAME = "ginsim-kernels.stamp"


def _source_hash() -> str:
    digest = hashlib.sha256()
    sources = [p for layer in KERNEL_LAYERS for p in (PACKAGE / layer).rglob("*.py")]
    sources += [p for pattern in KERNEL_FILES for p in PACKAGE.glob(pattern)]
    for path in sorted(sources):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_dirs() -> list[Path]:
    dirs = [p for p in PACKAGE.rglob("__pycache__") if p.is_dir()]
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom and Path(custom).is_dir():
        dirs.extend(p for p in Path(custom).rglob("*") if p.is_dir() and "ginsim" in str(p))
    return dirs


def refresh_kernel_cache() -> None:
    """Drop numba cache files of this package if its sources changed since they were made."""
    stamp = PACKAGE / "__pycache__" / STAMP_NAME
    current = _source_hash()
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass
    for directory in _cache_dirs():
        for pattern in ("*.nbi", "*.nbc"):
            for cached in directory.glob(pattern):
                try:
                    cached.unlink()
                except OSError:
                    pass
    try:
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(current)
        os.replace(tmp, stamp)
    except OSError:  # a read-only install: numba then uses its own cache directory
        pass


refresh_kernel_cache()

jit = njit(cache=True, nogil=True, error_model="numpy", _nrt=False)

#: For small kernels on the hot path: numba inlines their body into each caller before
#: LLVM sees it. A call between two kernels passes every array as seven or more scalars,
#: and LLVM keeps most of these small functions out of line; profiling the hand loop
#: showed such glue calls at about 40% of its time.
jit_inline = njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
