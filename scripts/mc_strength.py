"""Measure the Monte Carlo player through the public API: speed, duplicate results, games.

    python scripts/mc_strength.py speed
    python scripts/mc_strength.py duplicate --deals 2000 --opponents memory2 memory2:knock=0
    python scripts/mc_strength.py games --games 300 --opponent simple
    python scripts/mc_strength.py diagnose --deals 300

``speed``: hands per second of CPU time and of wall time, one core (the load average is
printed: the machine is shared). ``duplicate``: ``ginsim.simulate(..., duplicate=True)``
plays each deal twice with the dealer swapped, so the mc player holds each side's cards
once; the per-deal mean of its net points is the paired difference, reported with a
normal 95% interval. ``games``: ``ginsim.play_games`` to 100 and
``ginsim.game_summary``'s Wilson interval for the game-win probability. ``diagnose``:
the duplicate measure for variants (the oracle belief, more rollouts, a simple rollout
policy) to find what limits the player. ``--oracle`` plays any of them with the oracle
belief (the opponent's true cards: a diagnostic that cheats, which no spec may set).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import ginsim
from ginsim.strategies import Strategy, parse_strategy
from ginsim.strategies.diagnostics import with_oracle


def duplicate(spec: str | Strategy, opponent: str, deals: int, seed: int, n_jobs: int,
              save: str | None = None) -> str:
    start = time.time()
    hands = ginsim.simulate(spec, opponent, hands=2 * deals, seed=seed, duplicate=True,
                            n_jobs=n_jobs, progress=False)
    seconds = time.time() - start
    net = (hands["points_a"] - hands["points_b"]).to_numpy(dtype=np.float64)
    pair = (net[0::2] + net[1::2]) / 2.0
    if save:
        path = f"{save}_{opponent.replace(':', '_').replace('=', '').replace('/', '-')}.npy"
        np.save(path, pair)
    half = 1.96 * pair.std(ddof=1) / np.sqrt(len(pair))
    name = spec.spec if isinstance(spec, Strategy) else spec
    return (f"{name} vs {opponent}: {deals} duplicate deals, net {pair.mean():+.2f} points "
            f"per hand, 95% CI [{pair.mean() - half:+.2f}, {pair.mean() + half:+.2f}]; "
            f"{2 * deals / seconds:.1f} hands/s wall with {n_jobs} jobs")


def speed(spec: str | Strategy, hands: int, seed: int) -> str:
    from ginsim.simulator.play.engine import play_records

    load = os.getloadavg()[0]
    wall, cpu = time.time(), time.process_time()
    play_records(spec, "memory2", stop=hands, seed=seed, duplicate=True)
    cpu, wall = time.process_time() - cpu, time.time() - wall
    name = spec.spec if isinstance(spec, Strategy) else spec
    return (f"{name} vs memory2: {hands / cpu:.1f} hands per CPU second, {hands / wall:.1f} "
            f"hands/s wall, one core (load average {load:.1f} -> {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} cores)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("duplicate", "games", "diagnose", "speed"))
    parser.add_argument("--spec", default="mc:rollouts=64")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--hands", type=int, default=100, help="hands for speed")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--opponents", nargs="+", default=["memory2", "memory2:knock=0"])
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--save", help="duplicate: save each deal's net to SAVE_<opponent>.npy "
                        "(to pair two players' runs on the same deals)")
    parser.add_argument("--oracle", action="store_true",
                        help="diagnostic: the mc player's belief sees the opponent's true cards "
                             "(ginsim.strategies.diagnostics.with_oracle; no spec may set it)")
    args = parser.parse_args()
    spec = with_oracle(args.spec) if args.oracle else parse_strategy(args.spec)
    ginsim.simulate(spec, "memory2", hands=2, progress=False, n_jobs=1)  # compile first
    if args.what == "speed":
        print(speed(spec, args.hands, args.seed))
    elif args.what == "duplicate":
        for opponent in args.opponents:
            print(duplicate(spec, opponent, args.deals, args.seed, args.n_jobs, args.save),
                  flush=True)
    elif args.what == "games":
        start = time.time()
        games = ginsim.play_games(spec, args.opponent, games=args.games, seed=args.seed)
        row = ginsim.game_summary(games).iloc[0]
        print(f"{spec.spec} vs {args.opponent}, games to 100: {row['statistic']} "
              f"{row['value']:.1%}, 95% CI [{row['low']:.1%}, {row['high']:.1%}] over "
              f"{int(row['n'])} games ({time.time() - start:.0f} s)")
    else:
        for spec in (args.spec, with_oracle(args.spec), args.spec.replace("64", "256"),
                     args.spec + ",rollout=simple"):
            print(duplicate(spec, "memory2", args.deals, args.seed, args.n_jobs), flush=True)


if __name__ == "__main__":
    main()
