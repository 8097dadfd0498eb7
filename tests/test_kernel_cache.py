"""``ginsim cache`` (issue 44, item 4): where numba keeps ginsim's kernels, as numba's own
locators name it, how many and how big; ``--clear`` removes those files and nothing
else. The clearing tests work on a scratch NUMBA_CACHE_DIR, never the real cache."""

from __future__ import annotations

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
