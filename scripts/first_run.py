"""Time the first ``ginsim report`` (empty numba cache) and later ones, as the README quotes.

    python scripts/first_run.py                 # one cold run, two warm ones
    python scripts/first_run.py --warm 3 --out /tmp/first_report

Deletes every ``__pycache__`` under this checkout's ``ginsim/`` (numba's cached machine
code and Python's bytecode), then runs ``python -m ginsim report --out DIR`` (the default
study, size and ``--n-jobs``) with ``PYTHONPATH`` set to this checkout: once cold, then
``--warm`` times warm. For each run it prints the wall time, the CPU time of the child
(user + system), the load average before and after (other work on the machine slows a
run; the CPU time says how much work the run itself was), and the compile time the
report printed. Prints figures only.
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


def clear_caches() -> int:
    """Remove every ``__pycache__`` under ginsim/; returns how many were removed."""
    found = [p for p in (ROOT / "ginsim").rglob("__pycache__") if p.is_dir()]
    for path in found:
        shutil.rmtree(path, ignore_errors=True)
    return len(found)


def timed_report(out: Path) -> dict[str, float | str]:
    """One ``ginsim report`` in a child process: wall, CPU, loads, compile line."""
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_before = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "ginsim", "report", "--out", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"ginsim report failed:\n{proc.stderr[-2000:]}")
    compiled = re.search(r"compiled in (\d+) s", proc.stderr)
    return {"wall_s": wall,
            "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "load_before": load_before, "load_after": os.getloadavg()[0],
            "compile": f"{compiled[1]} s" if compiled else "none (warm)"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/ginsim_first_run_report",
                        help="report directory, replaced by every run")
    parser.add_argument("--warm", type=int, default=2, help="warm runs after the cold one")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; removed {clear_caches()} __pycache__ directories")
    for label in ["cold"] + ["warm"] * args.warm:
        r = timed_report(Path(args.out))
        print(f"{label}: {r['wall_s']:6.1f} s wall, {r['cpu_s']:5.1f} s CPU, compiling "
              f"{r['compile']}, load average {r['load_before']:.1f} -> "
              f"{r['load_after']:.1f}", flush=True)


if __name__ == "__main__":
    main()
