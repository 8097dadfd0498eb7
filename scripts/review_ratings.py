"""Print the review's rating table: each player's error rate (mean loss a decision,
points a hand, 95% interval clustered by game) over games it played against expert, as
`ginsim review --strategy SPEC --games N --seed S` reviews them; then the percentiles
of one player's losses, from which the class thresholds were chosen (docs/review.md).

    python scripts/review_ratings.py [--games 8] [--seed 1] [--rollouts 2000] [--precision 1.5]
                                     [--players random,simple,memory2,expert,mc]
                                     [--save losses.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from ginsim.analysis.review.rating import DEFAULT_OPPONENT, rate_player

PLAYERS = "random,simple,memory2,expert,mc"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=2000,
                        help="the advisor's first batch of rollouts a decision")
    parser.add_argument("--precision", type=float, default=1.5,
                        help="more rollouts until every loss is known within this (0: none)")
    parser.add_argument("--players", default=PLAYERS)
    parser.add_argument("--opponent", default=DEFAULT_OPPONENT)
    parser.add_argument("--percentiles-of", default="expert",
                        help="the player whose loss percentiles are printed")
    parser.add_argument("--save", metavar="FILE", help="write every loss, by player, as JSON")
    args = parser.parse_args()
    rows, losses, held = [], {}, {}
    t0 = time.perf_counter()
    for spec in args.players.split(","):
        t = time.perf_counter()
        rating = rate_player(spec, args.opponent, args.games, args.seed,
                             rollouts=args.rollouts, precision=args.precision or None)
        s = rating.summary()
        halves = [d.loss_half for r in rating.reviews for d in r.decisions]
        within = np.mean(np.array(halves) <= (args.precision or np.inf) + 1e-9)
        spent = np.mean([d.rollouts for r in rating.reviews for d in r.decisions])
        losses[spec] = [d.loss for r in rating.reviews for d in r.decisions]
        held[spec] = [d.held_out for r in rating.reviews for d in r.decisions]
        counts = {k: sum(v.values()) for k, v in s["classes"].items()}
        game = ("n/a" if s["mean_game_loss"] is None else
                f"{100 * s['mean_game_loss']:.3f}% [{100 * s['game_ci'][0]:.3f}, "
                f"{100 * s['game_ci'][1]:.3f}]")
        per100 = {k: 100 * v / max(1, s["decisions"]) for k, v in counts.items()}
        rows.append(f"| {spec} | {s['games']} | {s['decisions']} | {s['mean_loss']:.3f} | "
                    f"[{s['ci'][0]:.3f}, {s['ci'][1]:.3f}] | {game} | {per100['best']:.0f}% | "
                    f"{per100['inaccuracy']:.1f} | {per100['mistake']:.1f} | "
                    f"{per100['blunder']:.1f} | {s['band']} |")
        print(f"{spec}: {time.perf_counter() - t:.0f} s, {spent:,.0f} rollouts a decision, "
              f"{100 * within:.0f}% of decisions with the loss of the move known within "
              f"±{args.precision}, median ±{np.median(halves):.2f}", file=sys.stderr,
              flush=True)
    print(f"Games against {args.opponent}, seed {args.seed}, {args.rollouts} rollouts a "
          f"decision (precision {args.precision or 'none'}); "
          f"{time.perf_counter() - t0:.0f} s in all")
    print("| player | games | decisions | mean loss | 95% CI | game chance lost a decision "
          "(95% CI) | best | inaccuracies /100 | mistakes /100 | blunders /100 | band |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if args.percentiles_of in losses:
        values = np.array(losses[args.percentiles_of])
        qs = (50, 75, 80, 85, 90, 95, 97, 99, 99.5)
        print(f"\n{args.percentiles_of}'s losses ({len(values)} decisions), percentiles: "
              + ", ".join(f"{q}%: {np.percentile(values, q):.2f}" for q in qs))
        for bound in (0.5, 1, 2, 3, 4, 6, 8):
            print(f"  share of losses >= {bound}: {np.mean(values >= bound):.3f}")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as handle:
            json.dump({"loss": losses, "held_out_loss": held}, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
