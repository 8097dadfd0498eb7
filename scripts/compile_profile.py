"""Where a cold compile's time goes: each kernel a command compiles, with its seconds.

    python scripts/compile_profile.py --command report          # the knock study's groups
    python scripts/compile_profile.py --command play-hint --top 25
    python scripts/compile_profile.py --command tests --json > profile.json

Runs itself again in a child process whose ``NUMBA_CACHE_DIR`` is a new empty folder
(numba reads it when it is imported, so the child sets nothing up before), so every
kernel compiles from nothing and this checkout's own cache is neither read nor written;
the folder is removed after. The child compiles the command's kernel groups one after
another in one process (a group's seconds leave out what an earlier group compiled) and
records numba's ``numba:compile`` events. Commands: ``report`` (the knock study's
groups), ``play-hint`` (``ginsim play --hint``: the default bot at the table and the
advisor), ``games`` (``ginsim games``' two-player games), ``rami-simulate`` (``ginsim
rami simulate``) and ``tests`` (the suite's groups, scripts/warm_kernels.py).

Printed: the seconds per group, then the top kernels by exclusive seconds: a kernel's
compiled signatures; inclusive seconds (its compiles, with the kernels it called that
compiled meanwhile); exclusive seconds (less those); and, from numba's per-pass
timings, type inference (less the kernels compiled while typing it, which is where
numba compiles a callee) and lowering (numba's lowering, LLVM's optimisation and the
machine code), and numba's other passes (bytecode to IR, inlining ``inline="always"``
bodies and overloads, rewrites). A kernel inlined with ``inline="always"`` has no compile
of its own: its time is in each caller's. Prints figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHILD = "GINSIM_COMPILE_PROFILE_CHILD"
COMMANDS = ("report", "play-hint", "games", "rami-simulate", "tests")
#: numba's pass names (``pipeline_times``) counted as type inference and as lowering.
TYPING_PASSES = ("nopython_type_inference", "partial_type_inference")
LOWERING_PASSES = ("native_lowering", "nopython_backend")


def command_groups(command: str) -> list[tuple[Any, Any]]:
    """(kernel group, rules) a command compiles on its first run, in its order."""
    from ginsim.game.rules import Rules
    from ginsim.runner.kernels.warmup import (
        ADVISOR_GROUPS,
        KERNEL_GROUPS,
        STUDY_KERNELS,
        for_rules,
        games_groups,
        table_group,
    )

    modern = Rules()
    if command == "report":
        return [(for_rules(KERNEL_GROUPS[n], modern), modern) for n in STUDY_KERNELS["knock"]]
    if command == "play-hint":
        return [(table_group("memory2"), modern),
                *((KERNEL_GROUPS[name], modern) for name in ADVISOR_GROUPS)]
    if command == "games":
        return [(for_rules(g, modern), modern) for g in games_groups(["memory2", "simple"])]
    if command == "rami-simulate":
        from ginsim.rami.game.rules import RamiRules
        from ginsim.rami.play.runner import RAMI_KERNEL_GROUPS

        return [(RAMI_KERNEL_GROUPS["rami deals"], RamiRules.coerce(None))]
    sys.path.insert(0, str(ROOT / "scripts"))
    from warm_kernels import RAMI_KERNEL_GROUPS, gin_groups

    return [*((group, modern) for group in gin_groups()),
            *((group, None) for group in RAMI_KERNEL_GROUPS.values())]


def kernel_name(dispatcher: Any) -> str:
    """``module.qualname`` of a dispatcher's function, less the ``ginsim.`` prefix."""
    func = dispatcher.py_func
    return f"{func.__module__.removeprefix('ginsim.')}.{func.__qualname__}"


def pass_seconds(metadata: dict | None, names: Sequence[str] | None) -> float:
    """Seconds numba's nopython pipeline spent in the passes ``names`` (None: all; init,
    run and finalize of each; 0 without timings)."""
    times = ((metadata or {}).get("pipeline_times") or {}).get("nopython") or {}
    return sum(sum(t) for key, t in times.items()
               if names is None or key.split("_", 1)[-1] in names)


def _metadata(dispatcher: Any, args: tuple) -> dict | None:
    try:
        return dispatcher.get_metadata(tuple(args))
    except (KeyError, AttributeError):  # a compile that failed, or another numba
        return None


def kernel_rows(events: Iterable[tuple[float, Any]],
                metadata: Callable[[Any, tuple], dict | None] = _metadata) -> list[dict]:
    """One row per kernel from ``numba:compile`` events (``(timestamp, event)`` pairs as
    numba's recorder keeps them), the most exclusive seconds first: signatures,
    inclusive, exclusive, typing and lowering seconds (see the module's help)."""
    rows: dict[str, dict] = {}
    stack: list[list] = []  # [event, start, seconds of the compiles nested in it]
    for stamp, event in events:
        if event.is_start:
            stack.append([event, stamp, 0.0])
            continue
        start_event, start, nested = stack.pop()
        seconds = stamp - start
        if stack:
            stack[-1][2] += seconds
        dispatcher, args = start_event.data["dispatcher"], start_event.data["args"]
        row = rows.setdefault(kernel_name(dispatcher), {
            "kernel": kernel_name(dispatcher), "signatures": 0, "inclusive_s": 0.0,
            "exclusive_s": 0.0, "typing_s": 0.0, "lowering_s": 0.0, "other_passes_s": 0.0})
        times = metadata(dispatcher, args)
        row["signatures"] += 1
        row["inclusive_s"] += seconds
        row["exclusive_s"] += seconds - nested
        row["typing_s"] += max(0.0, pass_seconds(times, TYPING_PASSES) - nested)
        row["lowering_s"] += pass_seconds(times, LOWERING_PASSES)
        row["other_passes_s"] += (pass_seconds(times, None) - pass_seconds(times, TYPING_PASSES)
                                  - pass_seconds(times, LOWERING_PASSES))
    return sorted(rows.values(), key=lambda r: -r["exclusive_s"])


def table_lines(groups: list[tuple[str, float]], rows: list[dict], top: int) -> list[str]:
    """The printed profile: seconds per group and total, then the top ``top`` kernels."""
    width = max([len(name) for name, _ in groups] + [5])
    lines = ["seconds per kernel group (each less what the groups before it compiled):"]
    lines += [f"  {name:<{width}}  {seconds:7.1f}" for name, seconds in groups]
    lines.append(f"  {'total':<{width}}  {sum(s for _, s in groups):7.1f}")
    lines.append(f"compiled: {sum(r['signatures'] for r in rows)} signatures of {len(rows)} "
                 f"kernels, {sum(r['exclusive_s'] for r in rows):.1f} s in numba's compiles; "
                 f"the top {min(top, len(rows))} by exclusive seconds:")
    kwidth = max([len(r["kernel"]) for r in rows[:top]] + [6])
    lines.append(f"  {'kernel':<{kwidth}}  sigs  exclusive  inclusive  typing  lowering  "
                 "other passes")
    lines += [f"  {r['kernel']:<{kwidth}}  {r['signatures']:4d}  {r['exclusive_s']:9.1f}  "
              f"{r['inclusive_s']:9.1f}  {r['typing_s']:6.1f}  {r['lowering_s']:8.1f}  "
              f"{r['other_passes_s']:12.1f}" for r in rows[:top]]
    return lines


def profile(command: str) -> tuple[list[tuple[str, float]], list[dict]]:
    """Compile ``command``'s groups in this process, recording numba's compile events:
    (group, seconds) and the kernel rows."""
    from numba.core import event

    from ginsim.runner.kernels.compiling import is_compiled

    groups = command_groups(command)
    seconds: list[tuple[str, float]] = []
    with event.install_recorder("numba:compile") as recorder:
        for group, rules in groups:
            start = time.perf_counter()
            if not all(is_compiled(k, group.accepts) for k in group.kernels):
                group.compile(rules)
            seconds.append((group.name, time.perf_counter() - start))
    return seconds, kernel_rows(recorder.buffer)


def run_child(argv: Sequence[str]) -> int:
    """This script again, in a child process with an empty ``NUMBA_CACHE_DIR``."""
    with tempfile.TemporaryDirectory(prefix="ginsim-compile-profile-") as cache:
        env = {**os.environ, CHILD: "1", "NUMBA_CACHE_DIR": cache,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        return subprocess.run([sys.executable, __file__, *argv], env=env).returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", choices=COMMANDS, default="report",
                        help="whose kernels to compile (default report)")
    parser.add_argument("--top", type=int, default=15, help="kernels listed (default 15)")
    parser.add_argument("--json", action="store_true",
                        help="print every group and kernel as JSON instead of the table")
    args = parser.parse_args(argv)
    if args.top < 1:
        parser.error(f"--top must be at least 1, got {args.top}")
    if os.environ.get(CHILD) != "1":
        return run_child(sys.argv[1:] if argv is None else list(argv))
    groups, rows = profile(args.command)
    if args.json:
        import numba

        print(json.dumps({"command": args.command, "numba": numba.__version__,
                          "groups": [{"group": n, "seconds": s} for n, s in groups],
                          "kernels": rows}, indent=1))
    else:
        print(f"compile profile of {args.command!r} (empty cache):")
        print("\n".join(table_lines(groups, rows, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
