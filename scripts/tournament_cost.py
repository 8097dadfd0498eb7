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

from ginsim.analysis.ratings.tournament_results import tournament_tables
from ginsim.runner.tournament import TournamentPlan, run_tournament_games
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
    plan = TournamentPlan.make(args.players, args.games, args.seed)
    r_cpu, r_wall, _ = timed(reference)
    t_cpu, t_wall, run = timed(lambda: run_tournament_games(plan, out, n_jobs=args.jobs))
    f_cpu, f_wall, result = timed(lambda: tournament_tables(run))
    print(f"{len(pairs)} pairs x {args.games} games ({decks} decks, both seatings, "
          f"{plan.chunk_decks} decks a chunk), seed {args.seed}, {args.jobs} worker(s)")
    print(f"tournament, played and stored: {t_cpu:8.1f} CPU s {t_wall:8.1f} wall s "
          f"({run.chunks_played} chunks into {out})")
    print(f"tournament, rated (fit, bootstrap, tables): {f_cpu:8.1f} CPU s "
          f"{f_wall:8.1f} wall s")
    print(f"ginsim games, pair by pair: {r_cpu:8.1f} CPU s {r_wall:8.1f} wall s")
    print(f"ratio, played and stored: {t_cpu / r_cpu:.3f} CPU, {t_wall / r_wall:.3f} wall; "
          f"with the rating: {(t_cpu + f_cpu) / r_cpu:.3f} CPU, "
          f"{(t_wall + f_wall) / r_wall:.3f} wall")
    print(f"ranking: {result.ranking}")


if __name__ == "__main__":
    main()
