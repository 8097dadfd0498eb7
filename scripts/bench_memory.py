"""Peak memory of summary-mode runs planned far beyond what they will play: the run is
stopped after --seconds (SIGALRM, handled like Ctrl-C), and its peak RSS must not depend
on the planned number of hands. Run: python scripts/bench_memory.py [--seconds 60]
[--hands 10**8 10**10] [--n-jobs 1]

Each figure comes from a fresh child process (so the peak is that run's alone), which
also samples its RSS every second to show that it stays flat ("hands done" counts the
chunks finished by the stop). Prints figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time

A = B = "simple"


class Stop(Exception):
    """Raised by the alarm: the planned run is cut off here."""


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def child(hands: int, seconds: float, workers: int) -> dict:
    """Start a summary run of ``hands`` hands and stop it after ``seconds``."""
    from ginsim.runner.jobs import Job
    from ginsim.runner.runner import run

    run([Job.make(A, B, 1000)], records="summary", n_jobs=1)  # load the kernels, untimed
    base = _rss_mb()
    samples: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(1.0):
            samples.append(_rss_mb())

    played = [0]

    def on_chunk(res) -> None:
        played[0] += res.chunk.hands

    def alarm(*_: object) -> None:
        raise Stop

    signal.signal(signal.SIGALRM, alarm)
    threading.Thread(target=sample, daemon=True).start()
    t0 = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        run([Job.make(A, B, hands, seed=1)], records="summary", n_jobs=workers,
            on_chunk=on_chunk, progress=False)
    except Stop:
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        done.set()
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"hands": hands, "wall_s": wall, "base_mb": base, "peak_mb": peak,
            "samples_mb": samples, "chunk_hands_done": played[0]}


def measure(hands: int, seconds: float, workers: int) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, __file__, "--child", str(hands), str(seconds),
                           str(workers)], capture_output=True, text=True, env=env)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        hands, seconds, workers = int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
        print(json.dumps(child(hands, seconds, workers)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="stop each run after")
    parser.add_argument("--hands", nargs="+", default=["10**8", "10**10"],
                        help="planned hands per run (python int expressions such as 10**10)")
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    print(f"summary mode, {A} vs {B}, {args.n_jobs} job(s), stopped after {args.seconds:g} s")
    print(f"{'planned hands':>15} {'wall s':>7} {'hands done':>11} {'RSS after warm-up':>18} "
          f"{'peak RSS':>9} {'RSS samples (MB, every s)':>26}")
    for text in args.hands:
        hands = int(eval(text, {"__builtins__": {}}))  # noqa: S307 (digits and **)
        r = measure(hands, args.seconds, args.n_jobs)
        samples = r["samples_mb"]
        spread = (f"{min(samples):.0f}..{max(samples):.0f} ({len(samples)})" if samples
                  else "-")
        print(f"{hands:>15.0e} {r['wall_s']:>7.1f} {r['chunk_hands_done']:>11.2e} "
              f"{r['base_mb']:>15.0f} MB {r['peak_mb']:>6.0f} MB {spread:>26}")


if __name__ == "__main__":
    main()
