"""A damaged kernel cache compiles again (issue 64, item 5): numba's index (``.nbi``) or
data file (``.nbc``) of a ginsim kernel emptied, cut, changed or replaced counts as a
miss; the kernel compiles, runs as before, is written anew, and the process says so in
one line on stderr naming ``ginsim cache --clear``, never with a traceback."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba.core import caching, config

from ginsim.game import kernel_cache, rng_nb
from ginsim.game._jit import jit
from ginsim.game.kernel_cache import CHECKSUM_TAG, CheckedCacheFile

ROOT = Path(__file__).resolve().parents[1]
KERNEL = rng_nb.stream_key_nb
ARGS = (7, 3, 1)
HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
#: Index keys as numba makes them: (argument types, machine, code hashes).
KEY, OTHER = (("int64",), "machine", ("a", "b")), (("float64",), "machine", ("a", "b"))


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=list(HealthCheck))


@contextlib.contextmanager
def cache_dir(path: Path):
    """numba's NUMBA_CACHE_DIR at ``path`` for the kernels defined meanwhile."""
    before = config.CACHE_DIR
    config.CACHE_DIR = str(path)
    try:
        yield
    finally:
        config.CACHE_DIR = before


def fresh_kernel(path: Path):
    """A new dispatcher of :data:`KERNEL`'s function, cached under ``path``, called once:
    (its result, its cache hits and misses, what it said on stderr)."""
    err = io.StringIO()
    with cache_dir(path), contextlib.redirect_stderr(err):
        kernel = jit(KERNEL.py_func)
        result = kernel(*ARGS)
    stats = kernel.stats
    return (result, sum(stats.cache_hits.values()), sum(stats.cache_misses.values()),
            err.getvalue(), Path(kernel._cache.cache_path))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[dict[str, bytes], object, str]:
    """The cache files of :data:`KERNEL` compiled into a scratch folder: (their bytes by
    name, the kernel's result, the folder's name under the cache directory)."""
    root = tmp_path_factory.mktemp("pristine")
    result, hits, misses, said, folder = fresh_kernel(root)
    assert (hits, misses, said) == (0, 1, "")
    assert result == KERNEL(*ARGS)
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sum(name.endswith(".nbi") for name in files) == 1 and len(files) >= 2
    return files, result, folder.name


def _damage(data, raw: bytes) -> bytes | None:
    """``raw`` spoiled one way (None: a folder in the file's place)."""
    how = data.draw(st.sampled_from(["empty", "cut", "flip", "garbage", "folder", "swap"]))
    if how == "empty":
        return b""
    if how == "cut":
        return raw[:data.draw(st.integers(0, len(raw) - 1))]
    if how == "flip":
        spoiled = bytearray(raw)
        for _ in range(data.draw(st.integers(1, 3))):
            spoiled[data.draw(st.integers(0, len(raw) - 1))] ^= data.draw(st.integers(1, 255))
        return bytes(spoiled)
    if how == "garbage":
        return data.draw(st.binary(max_size=300))
    return None if how == "folder" else b"swap"


@fuzz(40)
@given(data=st.data())
def test_a_damaged_cache_file_compiles_again_or_loads_as_written(pristine, tmp_path_factory,
                                                                  data) -> None:
    files, expected, name = pristine
    root = tmp_path_factory.mktemp("damaged")
    folder = root / name
    folder.mkdir()
    for file, raw in files.items():
        (folder / file).write_bytes(raw)
    target = data.draw(st.sampled_from(sorted(files)))
    spoiled = _damage(data, files[target])
    if spoiled == b"swap":  # another file of the cache in its place
        spoiled = files[data.draw(st.sampled_from(sorted(set(files) - {target})))]
    if spoiled is None:
        (folder / target).unlink()
        (folder / target).mkdir()
    else:
        (folder / target).write_bytes(spoiled)
    before = list(kernel_cache.DAMAGED_SAID)
    kernel_cache.DAMAGED_SAID.clear()
    try:
        result, hits, misses, said, _ = fresh_kernel(root)
    finally:
        kernel_cache.DAMAGED_SAID[:] = before
    assert result == expected
    assert (hits, misses) in ((1, 0), (0, 1))
    lines = said.splitlines()
    assert len(lines) <= 1 and (misses == 1 or not lines), lines
    if lines:
        assert lines[0].startswith("ginsim: numba's cache file ") and str(folder) in lines[0]
        assert "so its kernel compiles again" in lines[0] and "ginsim cache --clear" in lines[0]
    if spoiled is not None:  # written anew: the next process loads it
        again = fresh_kernel(root)
        assert again[:4] == (expected, 1, 0, ""), again


def test_numba_s_own_reader_reads_the_files_written_with_a_checksum(tmp_path) -> None:
    """Another version of ginsim (numba's plain reader) still reads them: the checksum
    follows the pickles, which end before it."""
    checked = CheckedCacheFile(str(tmp_path), "mod.f-1.py311", "stamp")
    checked.save(KEY, {"code": b"\x00" * 100})
    assert (tmp_path / "mod.f-1.py311.nbi").read_bytes().count(CHECKSUM_TAG) == 1
    plain = caching.IndexDataCacheFile(str(tmp_path), "mod.f-1.py311", "stamp")
    assert plain.load(KEY) == {"code": b"\x00" * 100}
    assert checked.load(KEY) == {"code": b"\x00" * 100}
    plain.save(OTHER, [1, 2])  # and numba's files without one read here
    assert checked.load(OTHER) == [1, 2]


@pytest.mark.parametrize(("overloads", "words"), [
    ({KEY: "../secret.nbc"}, "names a data file '../secret.nbc'"),
    ({KEY: "mod.f-1.py311.x.nbc"}, "names a data file"),
    (["mod.f-1.py311.1.nbc"], "its index is a list"),
    ({"sig": "mod.f-1.py311.1.nbc"}, "holds a key 'sig'"),
])
def test_an_index_numba_wrote_with_wrong_contents_is_a_miss(tmp_path, capsys, monkeypatch,
                                                            overloads, words) -> None:
    """An index without a checksum (numba's own writer) is checked for what it holds:
    data files of its kernel only, by keys numba makes."""
    monkeypatch.setattr(kernel_cache, "DAMAGED_SAID", [])
    (tmp_path / "secret.nbc").write_bytes(b"not for this kernel")
    caching.IndexDataCacheFile(str(tmp_path), "mod.f-1.py311", "stamp")._save_index(overloads)
    checked = CheckedCacheFile(str(tmp_path), "mod.f-1.py311", "stamp")
    assert checked.load(KEY) is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


def _run(cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "ginsim", "deadwood", HAND], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_command_recompiles_an_emptied_or_cut_cache_and_says_so_once(tmp_path) -> None:
    """The issue's case: ``ginsim deadwood`` fills a fresh cache; its index files emptied,
    then cut with their data files, each next run answers as the first, with one line
    on stderr, and the run after says nothing."""
    first = _run(tmp_path)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    files = sorted(tmp_path.rglob("*.nb[ic]"))
    assert any(p.suffix == ".nbi" for p in files)
    for spoil in ("empty", "cut"):
        for path in files:
            size = path.stat().st_size
            if path.suffix == ".nbi" or spoil == "cut":
                with path.open("r+b") as file:
                    file.truncate(0 if spoil == "empty" else size // 2)
        run = _run(tmp_path)
        assert (run.returncode, run.stdout) == (0, first.stdout), run.stderr
        lines = run.stderr.splitlines()
        assert len(lines) == 1 and "is damaged" in lines[0], run.stderr
        assert "ginsim cache --clear" in lines[0] and "Traceback" not in run.stderr
        healed = _run(tmp_path)
        assert (healed.returncode, healed.stdout, healed.stderr) == (0, first.stdout, "")
    shutil.rmtree(tmp_path, ignore_errors=True)
