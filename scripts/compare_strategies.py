"""Paired comparison of strategies against an opponent with duplicate deals.

Each deal is played twice with the seats swapped, so the deal's luck cancels in the
challenger's points minus the opponent's (:func:`ginsim.analysis.knock.sweeps.strategy_matrix`,
the runner's paired comparison). Prints mean points per hand with a 95% interval, and
the share of the challenger's non-gin knocks that were undercut.
Run: python scripts/compare_strategies.py --deals 200000 memory1 memory2
"""

from __future__ import annotations

import argparse

from ginsim.analysis.knock.sweeps import strategy_matrix


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("strategies", nargs="+")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="modern", help="a preset or a rules spec")
    parser.add_argument("--jobs", type=int, default=-1, help="workers (-1: every core)")
    args = parser.parse_args()
    print(f"{args.deals:,} duplicate deals ({2 * args.deals:,} hands) vs {args.opponent}, "
          f"rules {args.rules}, seed {args.seed}")
    table, runs = strategy_matrix(args.strategies, [args.opponent], args.deals, args.seed,
                                  args.rules, n_jobs=args.jobs)
    print(f"{'strategy':<34} {'mean pts/hand':>13} {'95% CI':>20} {'undercut':>9}")
    for r in table.itertuples():
        print(f"{r.strategy:<34} {r.mean:+13.3f} [{r.low:+8.3f}, {r.high:+8.3f}] "
              f"{r.undercut_rate:9.2%}")
    print(f"{runs.total_hands:,} hands in {runs.wall_s:.1f} s")


if __name__ == "__main__":
    main()
