"""Kernel caches follow every kernel source, through numba's own locator, and importing
ginsim deletes nothing (issue: import has no side effects)."""

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


def test_kernel_stamp_carries_the_kernel_source_hash():
    locator = rng_nb.stream_key_nb._cache._impl.locator
    assert type(locator) in _jit.KERNEL_LOCATORS
    assert locator.get_source_stamp()[1] == _jit.kernel_source_hash()


def _probe(tree: Path) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=tree, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


def _cache_files(tree: Path) -> set[str]:
    return {p.name for p in tree.rglob("*.nb[ic]")}


def test_a_change_in_another_kernel_file_recompiles_and_deletes_nothing(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(Path(ginsim.__file__).parent, tree / "ginsim",
                    ignore=shutil.ignore_patterns("__pycache__", "chart_data"))
    shutil.copytree(Path(ginsim.__file__).parent / "strategies" / "chart_data",
                    tree / "ginsim" / "strategies" / "chart_data")
    hits, misses = _probe(tree)
    assert misses == 1 and hits == 0  # first compile
    assert _probe(tree) == (1, 0)  # loaded from the cache
    before = _cache_files(tree)
    other = tree / "ginsim" / "game" / "bits_nb.py"  # not stream_key_nb's own file
    other.write_text(other.read_text() + "\n# changed\n")
    assert _probe(tree) == (0, 1)  # stale: compiled again
    assert before <= _cache_files(tree)  # nothing deleted on import
    assert _probe(tree) == (1, 0)
