"""Time the first run of a command (empty numba cache) against later ones.

    python scripts/first_run.py                      # ginsim report: one cold run, two warm
    python scripts/first_run.py --command all        # every first run, one after another
    python scripts/first_run.py --command games --warm 3

Each command runs in a child process with ``PYTHONPATH`` set to this checkout. A cold run
follows the deletion of every ``__pycache__`` under this checkout's ``ginsim/`` (numba's
cached machine code and Python's bytecode), as on a fresh clone. Commands:

- ``report``: ``ginsim report --out DIR`` (the default study, size and ``--n-jobs``);
- ``games``: ``ginsim games --games 500``;
- ``rami-simulate``: ``ginsim rami simulate --players 4 --deals 2000``;
- ``play-hint``: ``ginsim play --hint --seed 3`` with the report's kernels compiled (a cold
  report runs first), timed to its first recommendation (its input held open), against
  the best warm report.

For each run: the wall time, the CPU time of the child (user + system), the load average
before and after (other work on the machine slows a run; the CPU time says how much work
the run itself was), the compile time the command printed, and the ratio of the cold run
to the best warm one. Prints figures only.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("report", "games", "rami-simulate", "play-hint")


def clear_caches() -> int:
    """Remove every ``__pycache__`` under ginsim/; returns how many were removed."""
    found = [p for p in (ROOT / "ginsim").rglob("__pycache__") if p.is_dir()]
    for path in found:
        shutil.rmtree(path, ignore_errors=True)
    return len(found)


def command_line(command: str, out: Path) -> list[str]:
    """The ``ginsim`` arguments a command's runs time."""
    return {"report": ["report", "--out", str(out)],
            "games": ["games", "--games", "500"],
            "rami-simulate": ["rami", "simulate", "--players", "4", "--deals", "2000"]}[command]


def timed(command: str, out: Path) -> dict[str, float | str]:
    """One run of ``command`` in a child process: wall, CPU, loads and the compile line."""
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_before = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "ginsim", *command_line(command, out)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"ginsim {command} failed:\n{proc.stderr[-2000:]}")
    compiled = re.findall(r"compiled in (\d+) s", proc.stderr)
    return {"wall_s": wall,
            "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "load_before": load_before, "load_after": os.getloadavg()[0],
            "compile": " + ".join(f"{s} s" for s in compiled) or "none (warm)"}


def first_hint_seconds() -> float:
    """Seconds from starting ``ginsim play --hint`` to its first recommendation's line
    (its stdin stays open, so it waits at the prompt after it; then it is stopped)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "ginsim", "play", "--hint", "--seed", "3"],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        for line in proc.stdout:
            if "Recommended:" in line:
                return time.perf_counter() - t0
    finally:
        proc.kill()
        proc.wait()
    raise SystemExit("ginsim play --hint ended before its first recommendation")


def hint_after_report(warm: int, out: Path) -> None:
    """Print the first recommendation's wait with the report's kernels compiled, and its
    ratio to the best warm report."""
    print(f"play-hint: removed {clear_caches()} __pycache__ directories", flush=True)
    show("cold report", timed("report", out))
    first = first_hint_seconds()
    print(f"  first recommendation: {first:6.1f} s wall", flush=True)
    print(f"  a warm one:           {first_hint_seconds():6.1f} s wall", flush=True)
    best = best_warm("report", max(1, warm), out, "warm report")
    print(f"  the first recommendation / the best warm report: {first / best:.2f}", flush=True)


def show(label: str, run: dict[str, float | str]) -> None:
    print(f"  {label}: {run['wall_s']:6.1f} s wall, {run['cpu_s']:5.1f} s CPU, compiling "
          f"{run['compile']}, load average {run['load_before']:.1f} -> "
          f"{run['load_after']:.1f}", flush=True)


def first_and_warm(command: str, warm: int, out: Path) -> None:
    """Print a command's cold run, its warm runs and the ratio."""
    print(f"{command}: removed {clear_caches()} __pycache__ directories", flush=True)
    cold = timed(command, out)
    show("cold", cold)
    if warm > 0:
        best = best_warm(command, warm, out, "warm")
        print(f"  cold / the best warm run: {cold['wall_s'] / best:.2f}", flush=True)


def best_warm(command: str, warm: int, out: Path, label: str) -> float:
    """Run ``command`` ``warm`` times (at least once), print each; the best wall time."""
    runs = [timed(command, out) for _ in range(warm)]
    for run in runs:
        show(label, run)
    return min(float(run["wall_s"]) for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", choices=(*COMMANDS, "all"), default="report",
                        help="what to time (default report)")
    parser.add_argument("--out", default="/tmp/ginsim_first_run_report",
                        help="report directory, replaced by every run")
    parser.add_argument("--warm", type=int, default=2, help="warm runs after the cold one")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores", flush=True)
    for command in COMMANDS if args.command == "all" else (args.command,):
        if command == "play-hint":
            hint_after_report(args.warm, Path(args.out))
        else:
            first_and_warm(command, args.warm, Path(args.out))


if __name__ == "__main__":
    main()
