"""``ginsim cache`` (issue 44, item 4): where numba keeps ginsim's kernels, as numba's own
locators name it, how many and how big; ``--clear`` removes those files and nothing
else. The clearing tests work on a scratch NUMBA_CACHE_DIR, never the real cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core import caching, config

from ginsim.cli import main
from ginsim.game import kernel_cache, rng_nb
from ginsim.game.kernel_cache import (
    BESIDE_SOURCES,
    NUMBA_CACHE_DIR,
    cache_files,
    cache_in_use,
    cache_places,
)

ROOT = Path(__file__).resolve().parents[1]


def test_the_places_hold_the_folder_numba_caches_a_kernel_in() -> None:
    kernel = rng_nb.stream_key_nb
    where = Path(kernel._cache.cache_path)
    assert where in cache_places()[cache_in_use()]
    assert all(len(folders) == len(cache_places()[BESIDE_SOURCES])
               for folders in cache_places().values())


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """NUMBA_CACHE_DIR at a scratch folder, and only that place: (its folders, the folder
    numba's own locator gives rng_nb's kernels there)."""
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    folders = cache_places()[NUMBA_CACHE_DIR]
    monkeypatch.setattr(kernel_cache, "cache_places", lambda: {NUMBA_CACHE_DIR: folders})
    assert kernel_cache.cache_places() == {NUMBA_CACHE_DIR: folders}
    locator = caching.UserProvidedCacheLocator(rng_nb.stream_key_nb.py_func, rng_nb.__file__)
    return folders, Path(locator.get_cache_path())


def test_the_report_counts_kernels_signatures_and_bytes(scratch, capsys) -> None:
    folders, game = scratch
    assert game in folders  # numba's own locator names one of ginsim's folders
    game.mkdir(parents=True)
    for name, size in (("rng_nb.k-1.py311.nbi", 10), ("rng_nb.k-1.py311.1.nbc", 100),
                       ("rng_nb.k-1.py311.2.nbc", 1_000)):
        (game / name).write_bytes(b"x" * size)
    assert main(["cache"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (f"  NUMBA_CACHE_DIR (in use): 1 kernels, 2 compiled signatures, "
                        f"1.1 kB, under {game.parent}")
    assert lines[2].startswith("kernel groups: ") and "hand loop" in "\n".join(lines)
    assert all(line.endswith(("compiled", "cold")) for line in lines[3:-1])


def test_clear_removes_ginsim_cache_files_and_nothing_else(scratch, tmp_path, capsys) -> None:
    folders, game = scratch
    game.mkdir(parents=True)
    ours = [game / "rng_nb.k-1.py311.nbi", game / "rng_nb.k-1.py311.1.nbc"]
    kept = [game / "rng_nb.cpython-311.pyc", game / "notes.txt", tmp_path / "x.nbi",
            tmp_path / "other_0123" / "mod.f-1.py311.nbi"]
    kept[-1].parent.mkdir()
    for path in ours + kept:
        path.write_bytes(b"12345")
    assert cache_files(folders) == sorted(ours)
    assert main(["cache", "--clear"]) == 0
    assert capsys.readouterr().out.startswith("removed 2 cache files of ginsim's kernels "
                                              "(10 bytes)")
    assert not any(p.exists() for p in ours) and all(p.exists() for p in kept)
    assert main(["cache", "--clear"]) == 0
    assert capsys.readouterr().out.startswith("removed 0 cache files")


def test_bad_input_is_one_line_and_exit_2(capsys) -> None:
    assert main(["cache", "--everything"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unrecognized arguments: --everything" in err


REPORT_AND_KERNEL = """
from ginsim.cli import main
from ginsim.game import rng_nb
main(["cache"])
print("kernel cache:", rng_nb.stream_key_nb._cache.cache_path)
"""


@pytest.mark.parametrize("kind", ["a file", "a path under a file", "a read-only folder",
                                  "a new folder"])
def test_the_report_names_the_cache_numba_really_uses(tmp_path, kind) -> None:
    """NUMBA_CACHE_DIR naming a file or a folder numba cannot write to: numba caches beside
    the sources, and so says the report (/proc is read-only even to root)."""
    (tmp_path / "file").write_text("x")
    setting = {"a file": tmp_path / "file", "a path under a file": tmp_path / "file" / "sub",
               "a read-only folder": Path("/proc"), "a new folder": tmp_path / "new"}[kind]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(setting)}
    out = subprocess.run([sys.executable, "-c", REPORT_AND_KERNEL], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    kernel_folder = Path(out.splitlines()[-1].removeprefix("kernel cache: "))
    in_use = [line for line in out.splitlines() if "(in use)" in line]
    assert len(in_use) == 1, out
    if kind == "a new folder":
        assert kernel_folder.is_relative_to(setting), out
        assert in_use[0].startswith(f"  {NUMBA_CACHE_DIR} (in use): ")
    else:
        assert kernel_folder == Path(rng_nb.__file__).parent / "__pycache__", out
        assert in_use[0].startswith(f"  {BESIDE_SOURCES} (in use): "), out
        assert f"NUMBA_CACHE_DIR names {setting}, which is no folder numba can write to" in out
