"""Runner figures: parallel speed against the single-core engine, peak memory, and the
cost of the Dask backend. Run: python scripts/bench_runner.py [--hands N] [--big N]

Every figure comes from a fresh child process (so peak RSS is that run's alone):
  1. the single-core engine (records kept, one thread), best of 3;
  2. HANDS hands simple vs simple, summary records, on every core, for each local
     backend (threads, processes), with hands/s as a share of cores x the engine figure
     (the second of two runs; the first, with the pool's start-up, is shown too);
  3. peak RSS of 10^6 hands with full records returned as a DataFrame, and of BIG hands
     in summary mode (the issue asks < 1 GB);
  4. the Dask backend (a LocalCluster of one process per core) against local processes on
     the same run, with and without the cluster's start-up.
Prints figures only; the targets are checked by reading them, not by tests.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

A = B = "simple"


def _peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return own / 1024  # Linux reports KiB


def child(kind: str, hands: int, workers: int) -> dict:
    """One measurement, run inside a fresh interpreter."""
    import ginsim
    from ginsim.runner.jobs import Job
    from ginsim.runner.runner import run
    from ginsim.simulator.play.engine import play_records

    play_records(A, B, stop=10)  # load the kernels from the numba cache, untimed
    out: dict = {}
    if kind == "engine":
        best = 0.0
        for _ in range(3):
            t = time.perf_counter()
            play_records(A, B, stop=hands, seed=1)
            best = max(best, hands / (time.perf_counter() - t))
        out["hands_per_s"] = best
    elif kind in ("threads", "processes"):
        job = Job.make(A, B, hands, 1)
        for attempt in ("cold", "warm"):  # cold: the pool starts and loads the kernels
            t = time.perf_counter()
            result = run([job], records="summary", n_jobs=workers, backend=kind,
                         progress=False)
            out[f"{attempt}_s"] = time.perf_counter() - t
        out["wall_s"] = out["warm_s"]
        out["hands_per_s"] = hands / out["wall_s"]
        out["chunks"] = result.chunks_played
    elif kind == "dask":
        from distributed import LocalCluster

        job = Job.make(A, B, hands, 1)
        t = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster:
            out["start_s"] = time.perf_counter() - t
            for attempt in ("cold", "warm"):  # cold: the workers load the kernels
                t = time.perf_counter()
                run([job], records="summary", backend="dask", progress=False,
                    scheduler=cluster.scheduler_address)
                out[f"{attempt}_s"] = time.perf_counter() - t
    elif kind == "full_frame":
        t = time.perf_counter()
        frame = ginsim.simulate(A, B, hands, 1, n_jobs=workers)
        out["wall_s"] = time.perf_counter() - t
        out["rows"] = len(frame)
        out["frame_mb"] = frame.memory_usage(deep=True).sum() / 2**20
    elif kind == "summary_big":
        t = time.perf_counter()
        result = run([Job.make(A, B, hands, 1)], records="summary", n_jobs=workers,
                     progress=False)
        out["wall_s"] = time.perf_counter() - t
        out["hands_per_s"] = hands / out["wall_s"]
        out["hands"] = int(result.tables[0][:, 0].sum() // 3)
    out["peak_rss_mb"] = _peak_rss_mb()
    return out


def measure(kind: str, hands: int, workers: int) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", kind, "--hands", str(hands),
                           "--workers", str(workers)], check=True, capture_output=True,
                          text=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--big", type=int, default=100_000_000,
                        help="hands of the summary memory run (0 skips it)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.hands, args.workers)))
        return
    w = args.workers
    print(f"ginsim runner benchmark: {A} vs {B}, {w} cores ({os.cpu_count()} on this machine); "
          f"load average before: {os.getloadavg()[0]:.2f} (anything else running skews it)")
    engine = measure("engine", 1_000_000, 1)["hands_per_s"]
    print(f"single-core engine (play_records, 10^6 hands, best of 3): {engine:,.0f} hands/s; "
          f"target on {w} cores: >= 85% of {w} x that = {0.85 * w * engine:,.0f} hands/s")
    for backend in ("threads", "processes"):
        r = measure(backend, args.hands, w)
        print(f"{args.hands:,} hands, summary records, backend {backend:<9}: "
              f"{r['wall_s']:6.2f} s, {r['hands_per_s']:,.0f} hands/s = "
              f"{r['hands_per_s'] / (w * engine):.0%} of {w} x single core "
              f"(first run, pool start-up included: {r['cold_s']:.2f} s; {r['chunks']} "
              f"chunks; peak RSS {r['peak_rss_mb']:,.0f} MB)")
    full = measure("full_frame", 1_000_000, w)
    print(f"10^6 hands, full records as a DataFrame (ginsim.simulate): {full['wall_s']:.2f} s, "
          f"peak RSS {full['peak_rss_mb']:,.0f} MB (the frame itself {full['frame_mb']:.0f} MB)")
    if args.big:
        big = measure("summary_big", args.big, w)
        print(f"{args.big:,} hands, summary records: {big['wall_s']:.1f} s, "
              f"{big['hands_per_s']:,.0f} hands/s, peak RSS {big['peak_rss_mb']:,.0f} MB")
    local = measure("processes", args.hands, w)
    dask = measure("dask", args.hands, w)
    print(f"Dask LocalCluster ({w} worker processes) vs local processes (loky), "
          f"{args.hands:,} hands, summary records:")
    print(f"  first run (start-up included): dask {dask['start_s'] + dask['cold_s']:.2f} s "
          f"(cluster {dask['start_s']:.2f} s + run {dask['cold_s']:.2f} s), local "
          f"{local['cold_s']:.2f} s: overhead "
          f"{dask['start_s'] + dask['cold_s'] - local['cold_s']:+.2f} s")
    print(f"  second run (warm workers): dask {dask['warm_s']:.2f} s, local "
          f"{local['warm_s']:.2f} s: overhead {dask['warm_s'] - local['warm_s']:+.2f} s "
          f"({dask['warm_s'] / local['warm_s'] - 1:+.1%})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")

if __name__ == "__main__":
    main()
