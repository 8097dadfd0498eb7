"""Where numba keeps ginsim's compiled kernels (``ginsim cache``).

numba caches each kernel of this package through :mod:`ginsim.game._jit`'s locators, in
numba's order: the folder ``NUMBA_CACHE_DIR`` names when it is set, else a
``__pycache__`` beside the sources when their folder is writable, else numba's folder in
the user's cache. Each place keeps one cache folder per source folder of the package,
holding that folder's kernels only: an index per kernel (``.nbi``) and machine code per
compiled signature (``.nbc``). No kernel imports this module, so changing it recompiles
nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from numba.core import caching, config
from numba.misc.appdirs import AppDirs

from ._jit import PACKAGE

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


def cache_in_use() -> str:
    """The place numba writes this package's kernels to now: ``NUMBA_CACHE_DIR`` when it is
    set, else beside the sources where their folder is writable, else user-wide."""
    if config.CACHE_DIR:
        return NUMBA_CACHE_DIR
    return BESIDE_SOURCES if os.access(PACKAGE, os.W_OK) else USER_WIDE


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
