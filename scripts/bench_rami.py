"""Greek Rami deal-loop speed on one core: four-player deals per second (the target is
20,000 with simple strategies), and a few other tables for context.

    PYTHONPATH=. python scripts/bench_rami.py [--deals 20000]
"""

from __future__ import annotations

import argparse
import time

from ginsim.rami.play.engine import play_deal_records

TABLES = [
    ("4 x simple", ["simple"] * 4),
    ("4 x naive", ["naive"] * 4),
    ("4 x careful", ["careful"] * 4),
    ("2 x simple", ["simple"] * 2),
    ("6 x simple", ["simple"] * 6),
]


def deals_per_second(seats: list[str], deals: int, repeats: int = 3) -> tuple[float, float]:
    """(wall, CPU) deals per second: the best of ``repeats`` runs of ``deals`` deals in
    one thread. The CPU figure is what one core does when the machine is shared."""
    play_deal_records(seats, stop=50)  # compile / load the kernels first
    wall = cpu = float("inf")
    for r in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        play_deal_records(seats, start=r * deals, stop=(r + 1) * deals, seed=1)
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return deals / wall, deals / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    args = parser.parse_args()
    for name, seats in TABLES:
        wall, cpu = deals_per_second(seats, args.deals)
        print(f"{name:<12} {wall:>9,.0f} deals/s wall, {cpu:>9,.0f} per CPU second  "
              f"({args.deals:,} deals, best of 3, 1 thread)")


if __name__ == "__main__":
    main()
