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
its locator classes in order) whose source stamp is a hash of the text of the kernel's
module and every ginsim module it imports, directly or not (:func:`kernel_source_hash`).
A change in one of them makes numba treat the kernel as stale and compile it again; a
change elsewhere (the runner's Python, the reports, another driver's kernels) leaves it
cached, and so does anything that leaves the text alone (a touch, a checkout, ``pip
install -e .`` again): the stamp holds no modification time. Importing deletes nothing.
:mod:`ginsim.game.kernel_cache` says where the cache is (``ginsim cache``).
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

from numba import njit
from numba.core import caching, types

PACKAGE = Path(__file__).resolve().parents[1]


def _module_file(module: str) -> Path | None:
    """The source file of a ginsim module (a package's ``__init__``), None if none."""
    base = PACKAGE.parent.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@cache
def imported_files(path: Path) -> frozenset[Path]:
    """The ginsim source files ``path`` imports names from (inside functions too; ``from
    . import x`` names the module ``x``, not its package's ``__init__``)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = parts[:-1]  # a package's __init__ imports relative to the package itself
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[:len(package) - node.level + 1])
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if _module_file(f"{module}.{alias.name}") is not None:
                    targets.append(f"{module}.{alias.name}")
                else:
                    targets.append(module)
        for target in targets:
            file = _module_file(target) if target.startswith("ginsim") else None
            if file is not None:
                found.add(file)
    return frozenset(found)


@cache
def kernel_source_hash(py_file: str) -> str:
    """SHA-256 over the path and text of ``py_file`` and every ginsim source file it
    imports, directly or through others: what a kernel defined there may inline."""
    start = Path(py_file).resolve()
    closure, todo = {start}, [start]
    while todo:
        for file in imported_files(todo.pop()):
            if file not in closure:
                closure.add(file)
                todo.append(file)
    digest = hashlib.sha256()
    for path in sorted(closure):
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
    the hash of the kernel's module and its imports in its source stamp."""

    class KernelSetLocator(base):
        @classmethod
        def from_function(cls, py_func, py_file):
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            # content only (the module's and its imports'), no modification time: a
            # touch, a checkout or a reinstall that leaves the text alone keeps the cache
            return kernel_source_hash(self._py_file)

    KernelSetLocator.__name__ = KernelSetLocator.__qualname__ = f"KernelSet{base.__name__}"
    return KernelSetLocator


#: numba's own order: a user cache directory, then next to the sources, then user-wide.
KERNEL_LOCATORS = tuple(_kernel_set_locator(base) for base in (
    caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
    caching.UserWideCacheLocator))
if not any(loc in caching.CacheImpl._locator_classes for loc in KERNEL_LOCATORS):
    caching.CacheImpl._locator_classes[:0] = KERNEL_LOCATORS

_compile = njit(cache=True, nogil=True, error_model="numpy", _nrt=False)


def jit(func):
    """Compile ``func`` as a kernel of this package (the options above), once per
    argument type. numba types a caller's constants (``f(x, 0)``, ``f(x, True)``) as
    literal types, a new specialization of the kernel and of every kernel it calls for
    each constant; here they are typed as plain ints and booleans, so a kernel compiles
    once per distinct argument type, whoever calls it. LLVM still folds a constant into
    a small kernel it inlines."""
    dispatcher = _compile(func)
    typed_by_literals = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_by_literals(tuple(types.unliteral(a) for a in args),
                                 {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


#: For small kernels on the hot path: numba inlines their body into each caller before
#: LLVM sees it. A call between two kernels passes every array as seven or more scalars,
#: and LLVM keeps most of these small functions out of line; profiling the hand loop
#: showed such glue calls at about 40% of its time. Not for a large kernel called once
#: a turn: numba types an inlined body again at every call site, inlined callees and
#: all (inlined, the expert's discard and pile choice, the deal and the hand's record
#: made the first report compile for 323 s instead of 73 s, at the same speed). Also,
#: where a measure says so, for a thin level (a wrapper, a loop of calls) above a large
#: tree: each kernel links the machine code of every kernel it calls and optimizes it
#: again, about 4 s a level under the mc player, whose thin levels inlined made its hand
#: loop compile in about 95 s instead of 110. Not a rule: the hand loop's own thin
#: levels (``play_hand_nb``, ``_play_one_nb``) inlined made whole games compile slower.
jit_inline = njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")

#: The compile options of an ``@overload`` whose implementation is chosen from its
#: argument types (the same as :func:`jit`'s, less caching, which its callers do).
OVERLOAD_OPTIONS = {"nogil": True, "error_model": "numpy", "_nrt": False}


def is_mahjong_layout(rules_type) -> bool:
    """Whether a packed rules array's numba type is Mahjong gin's: :meth:`Rules.packed
    <ginsim.game.rules.Rules.packed>` hands Mahjong gin's rules over as a strided view,
    so the kernels that play or score a hand choose Mahjong's code when they compile,
    and plain gin's kernels never compile it."""
    return getattr(rules_type, "layout", "C") != "C"
