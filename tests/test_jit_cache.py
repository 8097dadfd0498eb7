"""Kernel caches follow every source a kernel may inline (its module and what that
imports), through numba's own locator; a change elsewhere keeps them; importing ginsim
deletes nothing (issue: import has no side effects)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ginsim
from ginsim.game import _jit, rng_nb

PROBE = """
from ginsim.game import rng_nb
rng_nb.stream_key_nb(7, 3, 1)
stats = rng_nb.stream_key_nb.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def test_kernel_stamp_is_the_kernel_source_hash_alone():
    """The text of the kernel's module and its imports, no modification time."""
    locator = rng_nb.stream_key_nb._cache._impl.locator
    assert type(locator) in _jit.KERNEL_LOCATORS
    assert locator.get_source_stamp() == _jit.kernel_source_hash(rng_nb.__file__)


def _probe(tree: Path) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=tree, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


def _cache_files(tree: Path) -> set[str]:
    return {p.name for p in tree.rglob("*.nb[ic]")}


def _copy_package(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(Path(ginsim.__file__).parent, tree / "ginsim",
                    ignore=shutil.ignore_patterns("__pycache__", "chart_data"))
    shutil.copytree(Path(ginsim.__file__).parent / "strategies" / "chart_data",
                    tree / "ginsim" / "strategies" / "chart_data")
    return tree


def test_a_touch_or_a_rewrite_of_the_same_text_keeps_the_cache(tmp_path):
    """What a checkout, a ``git pull`` of other files or ``pip install -e .`` again do
    to a kernel's sources: new modification times, the same text."""
    tree = _copy_package(tmp_path)
    assert _probe(tree) == (0, 1)  # first compile
    for name in ("rng_nb.py", "_jit.py"):  # the kernel's module and one it imports
        path = tree / "ginsim" / "game" / name
        path.write_bytes(path.read_bytes())
        os.utime(path, (path.stat().st_atime + 3600, path.stat().st_mtime + 3600))
    assert _probe(tree) == (1, 0)  # loaded from the cache


def test_a_change_in_an_imported_file_recompiles_and_deletes_nothing(tmp_path):
    tree = _copy_package(tmp_path)
    hits, misses = _probe(tree)
    assert misses == 1 and hits == 0  # first compile
    assert _probe(tree) == (1, 0)  # loaded from the cache
    before = _cache_files(tree)
    unrelated = tree / "ginsim" / "game" / "bits_nb.py"  # rng_nb imports nothing of it
    unrelated.write_text(unrelated.read_text() + "\n# changed\n")
    assert _probe(tree) == (1, 0)  # still cached
    imported = tree / "ginsim" / "game" / "_jit.py"  # rng_nb's kernels come from its jit
    imported.write_text(imported.read_text() + "\n# changed\n")
    assert _probe(tree) == (0, 1)  # stale: compiled again
    assert before <= _cache_files(tree)  # nothing deleted on import
    assert _probe(tree) == (1, 0)


def test_the_import_closure_follows_relative_and_module_imports():
    """A driver's closure holds the machine and the policy kernels it calls, and none
    of the runner's or the reports' Python."""
    package = Path(ginsim.__file__).parent
    start = package / "simulator" / "play" / "hand_nb.py"
    closure, todo = {start}, [start]
    while todo:
        for file in _jit.imported_files(todo.pop()):
            if file not in closure:
                closure.add(file)
                todo.append(file)
    names = {f.relative_to(package).as_posix() for f in closure}
    assert {"simulator/machine/board_nb.py", "strategies/policy_nb.py", "game/melds_nb.py",
            "game/_jit.py"} <= names
    assert not any(n.startswith(("runner/", "analysis/", "reports/", "cli/")) for n in names)
