"""Engine speed figures: hands/s on one core and all cores, ns per min_deadwood call,
compile and cache-load time, the knock chart's cost per decision point and the
advisor's time for 10,000 rollouts per option. Run: python scripts/bench_engine.py

Prints figures only; the targets (issue 2) are checked by reading them, not by tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ginsim.game.melds_nb import WORK_SIZE, min_deadwood_nb
from ginsim.game.tables import card_tables
from ginsim.simulator.engine import play_records

FIRST_CALL = ("import time; t = time.perf_counter(); "
              "from ginsim.simulator.engine import play_records; play_records(stop=10); "
              "print(time.perf_counter() - t)")


def first_call_seconds(cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


@njit(cache=False)
def _deadwood_loop(hands, tab, work):
    total = 0
    for h in hands:
        total += min_deadwood_nb(h, tab, work)
    return total


def ns_per_min_deadwood(size: int, count: int = 1_000_000) -> float:
    rng = np.random.default_rng(size)
    cards = np.argsort(rng.random((count, 52)), axis=1)[:, :size]
    hands = (np.int64(1) << cards.astype(np.int64)).sum(axis=1)
    tab = card_tables()
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    _deadwood_loop(hands[:10], tab, work)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        _deadwood_loop(hands, tab, work)
        best = min(best, time.perf_counter() - t)
    return best / count * 1e9


def hands_per_second(a: str, b: str, hands: int, workers: int) -> float:
    chunk = -(-hands // workers)
    ranges = [(s, min(s + chunk, hands)) for s in range(0, hands, chunk)]
    best = 0.0
    for _ in range(3):
        t = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(lambda r: play_records(a, b, start=r[0], stop=r[1], seed=1), ranges))
        best = max(best, hands / (time.perf_counter() - t))
    return best


def chart_cost(hands: int = 200_000) -> tuple[float, float, int]:
    """(us per decision point with branching, us per hand without, decision points)."""
    from ginsim.simulator.chart import knock_decisions

    knock_decisions("simple", "simple", hands=10)
    t = time.perf_counter()
    rows = knock_decisions("simple", "simple", hands=hands, seed=3)
    with_branches = time.perf_counter() - t
    t = time.perf_counter()
    play_records("simple", "simple", stop=hands, seed=3)
    plain = time.perf_counter() - t
    return (with_branches - plain) / len(rows) * 1e6, plain / hands * 1e6, len(rows)


def advise_seconds(rollouts: int = 10_000) -> tuple[float, int]:
    """Seconds for ``rollouts`` per option on a mid-hand position, and the options."""
    from ginsim.analysis.advise import advise

    position = dict(hand="AS 2S 3S 7H 7D 8C 9C TC 4D KD", drawn="QH", pile="5H 8S 2C 6D",
                    opponent_took="6H", opponent_passed="8S", stock_left=17)
    advise(**position, rollouts=20)
    t = time.perf_counter()
    table = advise(**position, rollouts=rollouts, seed=1)
    return time.perf_counter() - t, len(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--pairs", default="simple:simple",
                        help="comma-separated a:b strategy pairs")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as empty:
        compile_s = first_call_seconds(empty)
    cached_s = first_call_seconds(None)
    print(f"first call, compiling from scratch: {compile_s:.1f} s; "
          f"loading from the numba cache: {cached_s:.2f} s")
    for size in (10, 11):
        print(f"min_deadwood on random {size}-card hands: {ns_per_min_deadwood(size):.1f} ns/call")
    for pair in args.pairs.split(","):
        a, b = pair.split(":", 1) if pair.count(":") == 1 else pair.rsplit(":", 1)
        play_records(a, b, stop=100)
        one = hands_per_second(a, b, args.hands, 1)
        print(f"{a} vs {b}, records kept, 1 core: {one:,.0f} hands/s")
        if cores > 1:
            many = hands_per_second(a, b, args.hands, cores)
            print(f"{a} vs {b}, records kept, {cores} cores (threads): {many:,.0f} hands/s "
                  f"({many / one / cores:.0%} of linear)")
    branch_us, hand_us, points = chart_cost()
    print(f"knock chart: {branch_us:.2f} us per decision point for both branches "
          f"({points:,} points in 200,000 hands; a plain hand costs {hand_us:.2f} us)")
    seconds, options = advise_seconds()
    print(f"advisor: {seconds:.2f} s for 10,000 rollouts per option ({options} options)")


if __name__ == "__main__":
    main()
