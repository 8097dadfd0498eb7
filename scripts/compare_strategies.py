"""Paired comparison of strategies against an opponent with duplicate deals.

Each deal is played twice with the seats swapped; the statistic per deal is the
challenger's mean points minus the opponent's over the two hands, so the deal's luck
cancels. Prints mean points per hand with a 95% interval, plus undercut rate.
Run: python scripts/compare_strategies.py --deals 200000 memory1 memory2
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ginsim.game.scoring_nb import OUTCOMES
from ginsim.simulator.engine import play_records

UNDERCUT = OUTCOMES.index("undercut")


def paired(challenger: str, opponent: str, deals: int, seed: int, rules: str,
           workers: int = 2) -> dict[str, float]:
    """Paired mean points per hand of challenger minus opponent, with a 95% interval."""
    hands = 2 * deals
    step = -(-hands // (2 * workers)) * 2
    ranges = [(s, min(s + step, hands)) for s in range(0, hands, step)]
    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(lambda r: play_records(challenger, opponent, start=r[0],
                                                     stop=r[1], seed=seed, rules=rules,
                                                     duplicate=True)[0], ranges))
    rec = np.concatenate(parts)
    diff = (rec["points_a"].astype(float) - rec["points_b"]).reshape(-1, 2).mean(axis=1)
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    knocked_by_a = rec["knocker"] == 0
    return {"mean": diff.mean(), "low": diff.mean() - 1.96 * se,
            "high": diff.mean() + 1.96 * se,
            "undercut_rate": float((rec["outcome"][knocked_by_a] == UNDERCUT).mean()),
            "points_a": float(rec["points_a"].mean())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("strategies", nargs="+")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="modern")
    args = parser.parse_args()
    print(f"{args.deals:,} duplicate deals ({2 * args.deals:,} hands) vs {args.opponent}, "
          f"rules {args.rules}, seed {args.seed}")
    print(f"{'strategy':<34} {'mean pts/hand':>13} {'95% CI':>20} {'undercut':>9}")
    for spec in args.strategies:
        t = time.perf_counter()
        r = paired(spec, args.opponent, args.deals, args.seed, args.rules)
        print(f"{spec:<34} {r['mean']:+13.3f} [{r['low']:+8.3f}, {r['high']:+8.3f}] "
              f"{r['undercut_rate']:9.2%}   ({time.perf_counter() - t:.1f} s)")


if __name__ == "__main__":
    main()
