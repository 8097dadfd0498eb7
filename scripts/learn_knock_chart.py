"""Learn a knock chart against an opponent and check it against fixed thresholds.

Policy iteration on the counterfactual chart: round 0 measures knock-now versus
wait-a-turn for the base strategy; each later round measures it again for the
strategy that knocks by the previous round's chart (the wait branch plays on with that
strategy). Round 0 starts from ``--start`` (gin only by default), so each round makes a
local improvement on a strong policy. Then the learned chart plays duplicate deals
against the opponent, as do the fixed thresholds 0..10, with paired 95% intervals of
chart minus each threshold.
Run: python scripts/learn_knock_chart.py --hands 400000 --rounds 3
"""

from __future__ import annotations

import argparse

import numpy as np

from ginsim.analysis.knock.knock_chart import (
    STRATEGY_EDGES,
    chart_masks,
    chart_spec,
    chart_table,
    decisions_frame,
)
from ginsim.simulator.play.engine import play_records


def paired_points(a: str, b: str, deals: int, seed: int) -> np.ndarray:
    """Per deal: a's mean net points over the two seatings (duplicate deals)."""
    rec, _ = play_records(a, b, stop=2 * deals, seed=seed, duplicate=True)
    return (rec["points_a"].astype(float) - rec["points_b"]).reshape(-1, 2).mean(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="simple")
    parser.add_argument("--start", default="simple:chart=1/1/1/1",
                        help="the policy of round 0 (default: gin only)")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--hands", type=int, default=400_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    spec = args.start
    for r in range(args.rounds):
        frame = decisions_frame(spec, args.opponent, args.hands, seed=args.seed + r)
        masks = chart_masks(chart_table(frame, STRATEGY_EDGES))
        spec = chart_spec(args.base, masks)
        print(f"round {r}: {len(frame):,} decision points -> {spec}")
    chart = paired_points(spec, args.opponent, args.deals, seed=1000)
    print(f"\n{args.deals:,} duplicate deals vs {args.opponent}: chart {chart.mean():+.3f} "
          f"points/hand")
    for t in range(11):
        fixed = paired_points(f"{args.base}:knock={t}", args.opponent, args.deals, seed=1000)
        diff = chart - fixed
        se = diff.std(ddof=1) / np.sqrt(len(diff))
        print(f"  knock={t:2d}: {fixed.mean():+.3f}; chart minus it {diff.mean():+.3f} "
              f"[{diff.mean() - 1.96 * se:+.3f}, {diff.mean() + 1.96 * se:+.3f}]")


if __name__ == "__main__":
    main()
