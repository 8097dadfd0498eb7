"""What a tournament costs against the same games played pair by pair as ``ginsim
games`` plays them: prints CPU seconds (this process, every thread) and wall seconds of
both, and their ratio.

    python scripts/tournament_cost.py [--players random simple memory2 expert learned mc]
                                      [--games 200] [--seed 1] [--out DIR] [--jobs 1]

The tournament runs into ``--out`` (a fresh temporary directory by default) through the
runner, its store, the rating fit and the bootstrap; the reference plays, for every
pair, the same decks in both seatings with ``game_records`` (``ginsim games``' kernel
call), in this process. Kernels are loaded before either is timed.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time

from ginsim.analysis.ratings.tournament_results import run_tournament
from ginsim.simulator.play.game_records import game_records


def timed(fn) -> tuple[float, float, object]:
    cpu, wall = time.process_time(), time.perf_counter()
    value = fn()
    return time.process_time() - cpu, time.perf_counter() - wall, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", nargs="+",
                        default=["random", "simple", "memory2", "expert", "learned", "mc"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    pairs = list(itertools.combinations(args.players, 2))
    for a, b in pairs:  # load (or compile) every kernel untimed
        game_records(a, b, 1, args.seed)
    decks = args.games // 2

    def reference() -> None:
        for a, b in pairs:
            game_records(a, b, decks, args.seed)
            game_records(b, a, decks, args.seed)

    out = args.out or tempfile.mkdtemp(prefix="tournament-cost-")
    t_cpu, t_wall, result = timed(lambda: run_tournament(
        args.players, args.games, args.seed, out, n_jobs=args.jobs))
    r_cpu, r_wall, _ = timed(reference)
    print(f"{len(pairs)} pairs x {args.games} games ({decks} decks, both seatings), "
          f"seed {args.seed}, {args.jobs} worker(s)")
    print(f"tournament: {t_cpu:8.1f} CPU s {t_wall:8.1f} wall s  (store {out})")
    print(f"ginsim games, pair by pair: {r_cpu:8.1f} CPU s {r_wall:8.1f} wall s")
    print(f"ratio: {t_cpu / r_cpu:.3f} CPU, {t_wall / r_wall:.3f} wall")
    print(f"ranking: {result.ranking}")


if __name__ == "__main__":
    main()
