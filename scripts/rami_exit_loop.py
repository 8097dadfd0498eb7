"""Run ``ginsim rami simulate --deals 20 --players 2 --out DIR`` many times and count
the runs that did not end cleanly (issue 43: now and then an abort at interpreter exit,
``terminate called without an active exception``, exit code 134, after the summary).

Each run gets a fresh store directory; a run is bad when its exit code is not 0 or its
stderr is not empty. Prints one line per bad run and the totals last:

    python scripts/rami_exit_loop.py --runs 300
    python scripts/rami_exit_loop.py --runs 40 --parallel 2 --deals 20

Runs in parallel (``--parallel``) load the machine more, which makes thread timing
races likelier; the default is one at a time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

RUN_TIMEOUT_S = 300  # a run that has not ended by then counts as bad (code "timeout")


def one_run(index: int, deals: int, root: Path) -> tuple[int, int | str, str]:
    """One ``rami simulate --out`` run: (index, exit code or "timeout", stderr)."""
    argv = [sys.executable, "-m", "ginsim", "rami", "simulate", "--deals", str(deals),
            "--players", "2", "--seed", str(index), "--out", str(root / f"store{index}")]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return index, "timeout", ""
    return index, proc.returncode, proc.stderr


def main(argv: list[str] | None = None) -> int:
    """Run the loop; exit code 1 when any run ended badly."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="runs (default 300)")
    parser.add_argument("--deals", type=int, default=20, help="deals per run (default 20)")
    parser.add_argument("--parallel", type=int, default=1, help="runs at once (default 1)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    codes: Counter = Counter()
    bad = 0
    with tempfile.TemporaryDirectory(prefix="rami-exit-") as tmp, \
            ThreadPoolExecutor(max(1, args.parallel)) as pool:
        runs = pool.map(lambda i: one_run(i, args.deals, Path(tmp)), range(args.runs))
        for index, code, stderr in runs:
            codes[code] += 1
            if code != 0 or stderr.strip():
                bad += 1
                last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
                print(f"run {index}: exit code {code}: {last[:160]}", flush=True)
    seconds = time.perf_counter() - t0
    print(f"{bad} bad exits of {args.runs} runs (exit codes: "
          f"{', '.join(f'{c}: {n}' for c, n in sorted(codes.items(), key=str))}) "
          f"in {seconds:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
