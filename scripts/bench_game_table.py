"""Speed of ``ginsim game-table`` for one preset, warm (issue 59's target: at most 10 s on
2 cores).

    python scripts/bench_game_table.py                  # modern, expert vs expert
    python scripts/bench_game_table.py --rules classic --rounds 3

Runs the command once to warm the kernel cache, then ``--rounds`` times in fresh child
processes pinned to ``--cores`` cores (``os.sched_setaffinity`` where the system has it);
prints each run's wall time and CPU time (user + system of the child) and the load
average, which says how much else the machine was doing.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _run(cmd: list[str], cores: int) -> tuple[float, float]:
    """(wall, cpu) seconds of one child process."""
    def pin() -> None:
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:cores])

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, preexec_fn=pin)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="modern")
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="expert")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "ginsim", "game-table", "--rules", args.rules, "--a",
               args.a, "--b", args.b, "--csv", str(Path(tmp) / "table.csv")]
        _run(cmd, args.cores)  # warm: kernels compiled or loaded into the cache
        print(f"ginsim game-table --rules {args.rules} --a {args.a} --b {args.b} "
              f"(100,000 hands, 100 bootstrap replicates), {args.cores} cores of "
              f"{os.cpu_count()}")
        for r in range(args.rounds):
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            wall, cpu = _run(cmd, args.cores)
            print(f"  run {r + 1}: {wall:5.1f} s wall, {cpu:5.1f} s CPU "
                  f"(load average {load:.1f} when it started)")


if __name__ == "__main__":
    main()
