"""Rule-variant comparison and game-level evidence (issue: rule variants).

Prints, for simple vs simple under each rules preset, gin / undercut / dead-hand rates,
mean draws and mean points per hand (both players) with 95% intervals, then the
probability that memory2 wins a game to 100 against simple under modern rules.
Run: python scripts/compare_variants.py --hands 1000000 --games 100000
"""

from __future__ import annotations

import argparse
import time

from ginsim.analysis.game_stats import game_summary, play_games
from ginsim.analysis.knock.sweeps import variant_comparison

VARIANTS = ("modern", "classic", "palace", "oklahoma", "straight", "tedesco", "eleven",
            "big_gin", "last_discard")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t = time.perf_counter()
    table = variant_comparison(VARIANTS, "simple", "simple", args.hands, args.seed)
    wide = table.pivot(index="variant", columns="statistic", values="value").loc[list(VARIANTS)]
    half = table.assign(h=(table.high - table.low) / 2).pivot(index="variant",
                                                              columns="statistic", values="h")
    print(f"simple vs simple, {args.hands:,} hands per variant, seed {args.seed} "
          f"({time.perf_counter() - t:.0f} s); value (95% CI half-width)")
    print(f"{'variant':<13} {'gin':>15} {'undercut':>15} {'dead':>15} {'draws':>14} "
          f"{'points':>14}")
    for v in VARIANTS:
        cells = []
        for stat in ("gin_rate", "undercut_rate", "dead_rate"):
            cells.append(f"{wide.loc[v, stat]:7.2%} ±{half.loc[v, stat]:.2%}")
        for stat in ("mean_draws", "mean_points"):
            cells.append(f"{wide.loc[v, stat]:6.2f} ±{half.loc[v, stat]:.2f}")
        print(f"{v:<13} " + " ".join(f"{c:>15}" for c in cells))
    t = time.perf_counter()
    games = play_games("memory2", "simple", args.games, args.seed, "modern")
    summary = game_summary(games).set_index("statistic")
    print(f"\nmemory2 vs simple, {args.games:,} games to 100 (modern), "
          f"{time.perf_counter() - t:.0f} s:")
    for name, row in summary.iterrows():
        print(f"  {name:<15} {row.value:8.3f}  [{row.low:.3f}, {row.high:.3f}]")


if __name__ == "__main__":
    main()
