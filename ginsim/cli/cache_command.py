"""``ginsim cache``: where numba keeps ginsim's compiled kernels, how many and how big,
and which kernel groups are compiled; ``ginsim cache --clear`` removes those files."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import command


def size_text(size: int) -> str:
    """Bytes in words a reader takes in at a glance: ``0 bytes``, ``12.3 kB``, ``4.5 MB``."""
    if size < 1000:
        return f"{size} bytes"
    for unit in ("kB", "MB", "GB"):
        size /= 1000
        if size < 1000 or unit == "GB":
            return f"{size:.1f} {unit}"
    raise AssertionError("unreachable")


def place_line(place: str, folders: list[Path], files: list[Path], in_use: bool) -> str:
    """One place's line: kernels (index files), compiled signatures (data files), bytes,
    and the folder its cache folders share."""
    where = folders[0].parent
    while not all(folder.is_relative_to(where) for folder in folders):
        where = where.parent
    note = " (in use)" if in_use else ""
    if not files:
        return f"  {place}{note}: empty, under {where}"
    kernels = sum(path.suffix == ".nbi" for path in files)
    size = sum(path.stat().st_size for path in files if path.exists())
    return (f"  {place}{note}: {kernels} kernels, {len(files) - kernels} compiled "
            f"signatures, {size_text(size)}, under {where}")


def group_states() -> list[tuple[str, bool]]:
    """(name, compiled) for gin's kernel groups (each rules layout apart), ``ginsim
    play``'s default bot at the table and Greek Rami's groups."""
    from ..game.rules import Rules
    from ..rami.play.runner import RAMI_KERNEL_GROUPS
    from ..runner.kernels.compiling import cold_groups
    from ..runner.kernels.warmup import KERNEL_GROUPS, MAHJONG, for_rules, table_group

    groups = [for_rules(group, Rules()) for group in KERNEL_GROUPS.values()]
    groups += [for_rules(KERNEL_GROUPS[name], MAHJONG) for name in ("hand loop",
                                                                     "whole games")]
    groups += [table_group("memory2"), *RAMI_KERNEL_GROUPS.values()]
    cold = {group.name for group in cold_groups(groups)}
    return [(group.name, group.name not in cold) for group in groups]


def cache_lines() -> list[str]:
    """``ginsim cache``'s report: each place with its files, then each group's state."""
    from numba.core import config

    from ..game.kernel_cache import NUMBA_CACHE_DIR, cache_files, cache_in_use, cache_places

    in_use = cache_in_use()
    lines = ["numba's cache of ginsim's compiled kernels (the first run of a command "
             "compiles what it lacks; files left by earlier versions of the sources count "
             "until numba reuses them):"]
    for place, folders in cache_places().items():
        lines.append(place_line(place, folders, cache_files(folders), place == in_use))
    if NUMBA_CACHE_DIR in cache_places() and in_use != NUMBA_CACHE_DIR:
        lines.append(f"  NUMBA_CACHE_DIR names {config.CACHE_DIR}, which is no folder numba "
                     f"can write to, so numba uses the cache {in_use} instead")
    states = group_states()
    lines.append(f"kernel groups: {sum(done for _, done in states)} of {len(states)} "
                 "compiled (cold ones compile on their command's first run)")
    width = max(len(name) for name, _ in states)
    lines += [f"  {name:<{width}}  {'compiled' if done else 'cold'}" for name, done in states]
    lines.append("remove ginsim's cache files with: ginsim cache --clear")
    return lines


def _cmd_cache(args: argparse.Namespace) -> int:
    if args.clear:
        from ..game.kernel_cache import clear_cache

        count, size = clear_cache()
        print(f"removed {count} cache files of ginsim's kernels ({size_text(size)}); "
              "the next run of each command compiles what it needs again")
        return 0
    print("\n".join(cache_lines()))
    return 0


def add_cache_command(sub) -> None:
    """``ginsim cache``."""
    cc = command(sub, "cache", "say where numba's cache of ginsim's compiled kernels is, "
                               "how big, and which kernel groups are compiled")
    cc.add_argument("--clear", action="store_true",
                    help="remove ginsim's cache files (numba's .nbi and .nbc files of "
                         "ginsim's kernels, nothing else); the next run compiles again")
    cc.set_defaults(func=_cmd_cache)
