"""What knocking by the score is worth: games won to the target by score-aware play
(``game=1``, the default inside games) against the same play without the score
(``game=0``), on the same decks, against each opponent.

    python scripts/score_gains.py [--games N] [--seed S] [--plays expert learned]
        [--opponents simple memory2 expert:game=0]

Each game is dealt alike for both versions (``pair_games``: game g draws the same
decks whatever plays it), so the gain is a paired difference per game; its 95% interval
is the normal one. Prints one line per play and opponent.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from ginsim.simulator.play.game_records import pair_games


def paired_gain(play: str, opponent: str, games: int, seed: int) -> tuple[float, ...]:
    """(rate with the score, rate without, gain, 95% half-width) over ``games`` games."""
    won = {}
    for flag in (1, 0):
        sep = "," if ":" in play else ":"
        rows = pair_games(f"{play}{sep}game={flag}", opponent, 0, games, seed=seed)
        won[flag] = (rows["winner"] == 0).astype(np.float64)
    diff = won[1] - won[0]
    half = 1.96 * float(diff.std(ddof=1)) / np.sqrt(diff.size)
    return float(won[1].mean()), float(won[0].mean()), float(diff.mean()), half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plays", nargs="*", default=["expert", "learned"])
    parser.add_argument("--opponents", nargs="*",
                        default=["simple", "memory2", "expert:game=0"])
    args = parser.parse_args(argv)
    print(f"games to 100 (modern rules, standard scoring), {args.games:,} per pairing, "
          f"seed {args.seed}; gain = score-aware minus the same play without the score, "
          f"same decks")
    for play in args.plays:
        for opponent in args.opponents:
            t0 = time.perf_counter()
            with_score, without, gain, half = paired_gain(play, opponent, args.games,
                                                          args.seed)
            print(f"{play:>8} vs {opponent:<14} with score {100 * with_score:6.2f}%  without "
                  f"{100 * without:6.2f}%  gain {100 * gain:+.2f} points "
                  f"[{100 * (gain - half):+.2f}, {100 * (gain + half):+.2f}]  "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
