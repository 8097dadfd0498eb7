"""Where numba keeps ginsim's compiled kernels (``ginsim cache``).

numba caches each kernel of this package through :mod:`ginsim.game._jit`'s locators, in
numba's order: the folder ``NUMBA_CACHE_DIR`` names when it is set, else a
``__pycache__`` beside the sources when their folder is writable, else numba's folder in
the user's cache. Each place keeps one cache folder per source folder of the package,
holding that folder's kernels only: an index per kernel (``.nbi``) and machine code per
compiled signature (``.nbc``). No kernel imports this module, so changing it recompiles
nothing.

numba trusts those files: an emptied or cut index stops every command with a traceback
from :mod:`pickle`. :func:`check_cache_files` (run on ``import ginsim``) makes numba read
ginsim's files through :class:`CheckedCacheFile`: each file it writes ends in a SHA-256
of its contents, and a file that is damaged (cut, emptied, changed, not a regular file)
counts as a miss, so its kernel compiles again, as on a cold cache, and is written anew;
the first such file in a process is said once on stderr.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from numba.core import caching, config
from numba.misc.appdirs import AppDirs

from ._jit import KERNEL_LOCATORS, PACKAGE
from .inputs.files import read_bounded

#: numba's cache files: an index per kernel, machine code per signature.
CACHE_SUFFIXES = (".nbi", ".nbc")
#: The three places numba may cache this package's kernels, in its locators' order.
NUMBA_CACHE_DIR, BESIDE_SOURCES, USER_WIDE = ("NUMBA_CACHE_DIR", "beside the sources",
                                              "user-wide")


def source_folders() -> list[Path]:
    """The package's folders holding Python sources (any may define kernels)."""
    return sorted({p.parent for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts})


def cache_places() -> dict[str, list[Path]]:
    """Each place numba may keep this package's kernels (``NUMBA_CACHE_DIR`` only when it
    is set), with its cache folder for every source folder, as numba's locators name
    them (a folder of ``NUMBA_CACHE_DIR`` or the user's cache is named after the full
    path of its source folder, so it holds nothing but ginsim's kernels)."""
    folders = source_folders()
    subpaths = [caching.UserProvidedCacheLocator.get_suitable_cache_subpath(
        str(folder / "__init__.py")) for folder in folders]
    user_wide = Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)
    places = {BESIDE_SOURCES: [folder / "__pycache__" for folder in folders],
              USER_WIDE: [user_wide / sub for sub in subpaths]}
    if config.CACHE_DIR:
        return {NUMBA_CACHE_DIR: [Path(config.CACHE_DIR) / sub for sub in subpaths],
                **places}
    return places


def _probe() -> None:
    """A function of this package that numba's locators place as they place a kernel."""


def cache_in_use() -> str:
    """The place numba writes this package's kernels to now, as its own locators choose
    it: ``NUMBA_CACHE_DIR`` when it names a folder numba can write to, else beside the
    sources where their folder is writable, else user-wide (the locators create the
    folder they choose, as the first kernel compiled there would)."""
    where = Path(caching.FunctionCache(_probe).cache_path)
    return next((place for place, folders in cache_places().items() if where in folders),
                str(where))


def cache_files(folders: Iterable[Path]) -> list[Path]:
    """numba's cache files (:data:`CACHE_SUFFIXES`) in ``folders``: regular files, no
    symbolic link followed, nothing else (Python's bytecode stays)."""
    found: list[Path] = []
    for folder in folders:
        if folder.is_dir() and not folder.is_symlink():
            found += [path for path in folder.iterdir() if path.suffix in CACHE_SUFFIXES
                      and path.is_file() and not path.is_symlink()]
    return sorted(found)


def clear_cache() -> tuple[int, int]:
    """Remove ginsim's cache files from every place; ``(files, bytes)`` removed. Only
    :func:`cache_files` of :func:`cache_places`' folders go; the folders stay."""
    count = size = 0
    for folders in cache_places().values():
        for path in cache_files(folders):
            try:
                bytes_ = path.stat().st_size
                path.unlink()
            except FileNotFoundError:  # another process removed or replaced it first
                continue
            count, size = count + 1, size + bytes_
    return count, size


#: What ends each cache file :class:`CheckedCacheFile` writes: this tag, then the SHA-256
#: of the bytes before it. numba's own reader unpickles the bytes before and ignores it.
CHECKSUM_TAG = b"\nginsim-sha256:"
_TRAILER = len(CHECKSUM_TAG) + hashlib.sha256().digest_size
#: The most bytes a cache file is read up to (the largest compiled signature is a few MB).
MAX_CACHE_FILE_BYTES = 256_000_000
#: The damaged cache file this process has said on stderr (one at most).
DAMAGED_SAID: list[str] = []


class CacheFileDamaged(Exception):
    """A cache file that cannot be what numba wrote."""


def say_damaged(path: str, why: str, written: bool = False) -> None:
    """Say on stderr, once a process, that a damaged cache file is compiled again (or,
    ``written``, that one could not be written)."""
    if DAMAGED_SAID:
        return
    DAMAGED_SAID.append(path)
    what = ("cannot be written ({why}); its kernel runs, and compiles again next time"
            if written else "is damaged ({why}), so its kernel compiles again")
    print(f"ginsim: numba's cache file {path} {what.format(why=why)} (ginsim cache --clear "
          f"removes all of ginsim's cache files)", file=sys.stderr, flush=True)


def checked_bytes(path: str) -> bytes | None:
    """The contents of a cache file (without its checksum, which must match), None when
    there is none; :class:`CacheFileDamaged` when it is no regular file, too big or its
    checksum differs. A file without the checksum (numba's own) is returned whole."""
    if not os.path.lexists(path):
        return None
    try:
        raw = read_bounded(path, MAX_CACHE_FILE_BYTES, "cache file")
    except ValueError as exc:
        raise CacheFileDamaged(str(exc).replace(f"cache file {path} ", "")) from None
    if raw[-_TRAILER:-hashlib.sha256().digest_size] == CHECKSUM_TAG:
        body, digest = raw[:-_TRAILER], raw[-hashlib.sha256().digest_size:]
        if hashlib.sha256(body).digest() != digest:
            raise CacheFileDamaged("its checksum differs from its contents")
        return body
    return raw


class CheckedCacheFile(caching.IndexDataCacheFile):
    """numba's index and data files of one kernel, read and written with a checksum; a
    damaged file is a miss (its kernel compiles again and is written anew), said once."""

    def _load_index(self) -> dict:
        try:
            raw = checked_bytes(self._index_path)
            if raw is None:
                return {}
            stream = io.BytesIO(raw)
            if pickle.load(stream) != self._version:
                return {}  # another numba's index
            stamp, overloads = pickle.loads(stream.read())
            if stamp != self._source_stamp:
                return {}  # stale: the sources changed
            self._check_overloads(overloads)
        except Exception as exc:  # noqa: BLE001 (pickle raises anything on damaged bytes)
            say_damaged(self._index_path, _why(exc))
            return {}
        return overloads

    def _check_overloads(self, overloads: Any) -> None:
        prefix, suffix = self._data_name_pattern.split("{number:d}")
        if not isinstance(overloads, dict):
            raise CacheFileDamaged(f"its index is a {type(overloads).__name__}")
        for key, name in overloads.items():  # keys: (signature, machine, code hashes)
            if not (isinstance(key, tuple) and len(key) == 3):
                raise CacheFileDamaged(f"it holds a key {key!r:.60}")
            if not (isinstance(name, str) and name.startswith(prefix)
                    and name.endswith(suffix) and name[len(prefix):-len(suffix)].isdigit()):
                raise CacheFileDamaged(f"it names a data file {name!r:.60}")

    def load(self, key: Any) -> Any:
        name = self._load_index().get(key)
        if name is None:
            return None
        path = self._data_path(name)
        try:
            raw = checked_bytes(path)
            return None if raw is None else pickle.loads(raw)
        except Exception as exc:  # noqa: BLE001 (pickle raises anything on damaged bytes)
            say_damaged(path, _why(exc))
            return None

    def _save_index(self, overloads: dict) -> None:
        version = pickle.dumps(self._version, protocol=-1)
        self._write(self._index_path, version + self._dump((self._source_stamp, overloads)))

    def _save_data(self, name: str, data: Any) -> None:
        self._write(self._data_path(name), self._dump(data))

    def _write(self, path: str, body: bytes) -> None:
        with self._open_for_write(path) as file:
            file.write(body + CHECKSUM_TAG + hashlib.sha256(body).digest())


def _why(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:80]
    if isinstance(exc, CacheFileDamaged):
        return text
    return f"{type(exc).__name__}{': ' + text if text else ''}"


def _is_ginsims(cache: caching.Cache) -> bool:
    """Whether numba's ``cache`` of one kernel is one of ginsim's, now read through
    :class:`CheckedCacheFile` (numba made it when the kernel was defined)."""
    impl = getattr(cache, "_impl", None)
    if not isinstance(getattr(impl, "locator", None), KERNEL_LOCATORS):
        return False
    cache_file = getattr(cache, "_cache_file", None)
    if type(cache_file) is caching.IndexDataCacheFile:
        cache_file.__class__ = CheckedCacheFile
    return isinstance(cache_file, CheckedCacheFile)


_stock_load_overload = caching.Cache.load_overload
_stock_save_overload = caching.Cache.save_overload


def _load_overload(self: caching.Cache, sig: Any, target_context: Any) -> Any:
    if not _is_ginsims(self):
        return _stock_load_overload(self, sig, target_context)
    try:
        return _stock_load_overload(self, sig, target_context)
    except Exception as exc:  # noqa: BLE001 (machine code numba cannot rebuild: a miss)
        say_damaged(self._cache_file._index_path, _why(exc))
        return None


def _save_overload(self: caching.Cache, sig: Any, data: Any) -> None:
    if not _is_ginsims(self):
        return _stock_save_overload(self, sig, data)
    try:
        return _stock_save_overload(self, sig, data)
    except OSError as exc:  # e.g. a folder where the index should be: the kernel still runs
        say_damaged(self._cache_file._index_path, _why(exc), written=True)
        return None


def check_cache_files() -> None:
    """Make numba read and write ginsim's cache files as :class:`CheckedCacheFile` does
    (other packages' caches are left as numba keeps them); idempotent."""
    caching.Cache.load_overload = _load_overload
    caching.Cache.save_overload = _save_overload


def cached_index(kernel: Any) -> dict | None:
    """The index of a kernel's cache (signature keys to data files; empty when damaged,
    said once), None where numba keeps none for it."""
    cache = getattr(kernel, "_cache", None)
    if cache is None or not _is_ginsims(cache):
        return None
    with contextlib.suppress(Exception):
        return cache._cache_file._load_index()
    return {}
