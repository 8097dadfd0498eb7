"""Measure the Monte Carlo player: speed, duplicate results and game wins.

    python scripts/mc_strength.py duplicate --deals 2000 --opponents memory2 memory2:knock=0
    python scripts/mc_strength.py games --games 300 --opponent simple
    python scripts/mc_strength.py diagnose --deals 300

``duplicate``: each deal is played twice with the dealer swapped, so the mc player
holds each side's cards once; the per-deal sum of its net points is the paired
difference, reported with a 95% interval. ``games``: standard games to 100; the mc
player's win share with a Wilson 95% interval. ``diagnose``: the same duplicate
measure for variants (the oracle belief, more rollouts, more particles) to find what
limits the player.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from ginsim.simulator.mc import play_mc_games, play_mc_records, seat_a_net


def duplicate(spec: str, opponent: str, deals: int, seed: int) -> str:
    start = time.time()
    records = play_mc_records(spec, opponent, 2 * deals, seed=seed)
    seconds = time.time() - start
    net = seat_a_net(records)
    pair = (net[0::2] + net[1::2]) / 2.0
    half = 1.96 * pair.std(ddof=1) / np.sqrt(len(pair))
    return (f"{spec} vs {opponent}: {deals} duplicate deals, net {pair.mean():+.2f} points "
            f"per hand, 95% CI [{pair.mean() - half:+.2f}, {pair.mean() + half:+.2f}]; "
            f"{2 * deals / seconds:.1f} hands/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("duplicate", "games", "diagnose", "speed"))
    parser.add_argument("--spec", default="mc:rollouts=64")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--opponents", nargs="+", default=["memory2", "memory2:knock=0"])
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    play_mc_records(args.spec, "memory2", 2, seed=0)  # compile outside the timings
    if args.what == "speed":
        start = time.time()
        play_mc_records(args.spec, "memory2", 200, seed=args.seed)
        print(f"{args.spec} vs memory2: {200 / (time.time() - start):.1f} hands/s, one core")
    elif args.what == "duplicate":
        for opponent in args.opponents:
            print(duplicate(args.spec, opponent, args.deals, args.seed), flush=True)
    elif args.what == "games":
        start = time.time()
        winners = play_mc_games(args.spec, args.opponent, args.games, seed=args.seed)
        wins = int((winners == 0).sum())
        low, high = proportion_confint(wins, args.games, method="wilson")
        print(f"{args.spec} vs {args.opponent}, games to 100: won {wins}/{args.games} = "
              f"{wins / args.games:.1%}, 95% CI [{low:.1%}, {high:.1%}] "
              f"({time.time() - start:.0f} s)")
    else:
        for spec in (args.spec, args.spec + ",oracle=1", args.spec.replace("64", "256"),
                     args.spec + ",particles=256,stages=12",
                     args.spec + ",rollout=simple"):
            print(duplicate(spec, "memory2", args.deals, args.seed), flush=True)


if __name__ == "__main__":
    main()
