"""Mahjong gin beside modern rules (issue: Mahjong gin, docs/rules.md §8.8).

For simple vs simple and memory2 vs memory2 (duplicate deals, seats swapped), prints
under each rule set: gin rate (under Mahjong gin, going out), dead-hand rate, draws per
hand, the share of hands with a multi-card pile take, the largest take seen, and mean
points per hand (both players together), each with its 95% interval (Wilson for rates,
normal for means). With ``--lay K ...`` it then plays each strategy holding its melds
until the opponent is down to K cards (``lay=K``) against itself laying at once
(``lay=52``), and prints the net points per hand (duplicate deals). memory1 and memory2
hold to 3 cards by default; simple lays at once.
Run: python scripts/mahjong_study.py --hands 1000000 --lay 0 3 6
"""

from __future__ import annotations

import argparse
import time

from ginsim.analysis.intervals import mean_interval, wilson_interval
from ginsim.analysis.knock.sweeps import play_pairs
from ginsim.simulator.play.engine import play_records

PAIRS = ("simple", "memory2")
VARIANTS = ("modern", "mahjong")


def rate(mask) -> str:
    """A rate and its Wilson interval, in percent."""
    k, n = int(mask.sum()), len(mask)
    low, high = wilson_interval(k, n)
    return f"{k / n:7.2%} [{float(low):.2%}, {float(high):.2%}]"


def mean(values) -> str:
    """A mean and its normal interval."""
    m, low, high = mean_interval(values)
    return f"{m:6.2f} [{low:.2f}, {high:.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per row")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--strategies", nargs="+", default=list(PAIRS),
                        help="each plays itself (any strategy spec)")
    parser.add_argument("--lay", type=int, nargs="*", default=[],
                        help="lay thresholds to compare with laying at once")
    args = parser.parse_args()
    print(f"{args.hands:,} hands per row (duplicate deals), seed {args.seed}; "
          "value [95% CI]")
    header = (f"{'strategies':<22} {'rules':<8} {'gin':>26} {'dead':>26} {'draws':>22} "
              f"{'multi-card take':>26} {'max':>4} {'points':>22}")
    print(header)
    for strategy in args.strategies:
        t = time.perf_counter()
        runs = play_pairs([(strategy, strategy, v) for v in VARIANTS], max(args.hands // 2, 1),
                          args.seed)
        for variant in VARIANTS:
            frame = runs.hands[(strategy, strategy, variant)]
            points = (frame.points_a + frame.points_b).to_numpy()
            print(f"{strategy + ' vs ' + strategy:<22} {variant:<8} "
                  f"{rate(frame.outcome == 'gin'):>26} {rate(frame.outcome == 'dead'):>26} "
                  f"{mean(frame.turns.to_numpy()):>22} {rate(frame.max_pile_take > 1):>26} "
                  f"{int(frame.max_pile_take.max()):>4} {mean(points):>22}")
        print(f"  ({time.perf_counter() - t:.0f} s)")
    for strategy in args.strategies if args.lay else ():
        for k in args.lay:
            rec, _ = play_records(f"{strategy}:lay={k}", f"{strategy}:lay=52", stop=args.hands,
                                  seed=args.seed, rules="mahjong", duplicate=True)
            net = rec["points_a"].astype(float) - rec["points_b"]
            print(f"{strategy}:lay={k} against {strategy}:lay=52 (lays at once), mahjong: "
                  f"{mean(net)} points per hand")


if __name__ == "__main__":
    main()
