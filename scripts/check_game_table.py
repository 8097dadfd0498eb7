"""The game table against whole games: for each starting score, the table's chance that a
wins (and a's expected margin, and the hands left) beside games simulated from that score.

    python scripts/check_game_table.py                        # expert vs expert, modern
    python scripts/check_game_table.py --rules classic --b simple
    python scripts/check_game_table.py --system hollywood --sessions 8000

Prints a Markdown table (docs/game-table.md). ``z`` is the gap over the combined standard
error (the table's bootstrap error and the games' binomial one); ``agree`` says whether
the two 95% intervals' combination holds the gap (``|z| < 1.96``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ginsim.analysis.game_stats import game_table, play_games
from ginsim.analysis.intervals import wilson_interval
from ginsim.simulator.play.game_records import play_hollywood

STARTS = [(0, 0), (0, 50), (50, 0), (30, 30), (20, 80), (80, 20), (60, 60), (90, 90),
          (95, 10), (10, 95), (40, 70), (70, 40)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="modern")
    # game=0: the table values play that ignores the score (docs/score-charts.md)
    parser.add_argument("--a", default="expert:game=0")
    parser.add_argument("--b", default="expert:game=0")
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--boot", type=int, default=200)
    parser.add_argument("--games", type=int, default=4000, help="games from each start")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--system", choices=("standard", "hollywood"), default="standard")
    parser.add_argument("--sessions", type=int, default=4000,
                        help="Hollywood sessions played (--system hollywood)")
    args = parser.parse_args()
    if args.system == "hollywood":
        hollywood(args)
        return
    t0 = time.perf_counter()
    table = game_table(args.a, args.b, args.rules, args.hands, args.seed, boot=args.boot)
    target = table.rules.target
    starts = [(a, b) for a, b in STARTS if max(a, b) < target]
    print(f"rules {args.rules} (target {target}), {args.a} (a) vs {args.b} (b); table from "
          f"{table.n:,} hands, {table.boot} bootstrap replicates; {args.games:,} games from "
          f"each score (dealer cut), seed {args.seed}\n")
    print("| start a-b | table: a wins | games: a wins | z | agree | table: margin | "
          "games: margin | table: hands | games: hands |")
    print("|---|---|---|---|---|---|---|---|---|")
    agree = 0
    for i, start in enumerate(starts):
        games = play_games(args.a, args.b, args.games, args.seed + 1000 * (i + 1), args.rules,
                           start)
        n = len(games)
        won = int((games["winner"] == "a").sum())
        rate = won / n
        low, high = (float(v) for v in wilson_interval(won, n))
        win, win_low, win_high = (table.at("win", *start), *table.interval("win", *start))
        z = (win - rate) / np.hypot(table.at("win_se", *start),
                                    np.sqrt(max(rate * (1 - rate), 0.25 / n) / n))
        agree += abs(z) < 1.96
        margin = np.where(games["winner"] == "a", games["margin"], -games["margin"])
        half = 1.96 * margin.std(ddof=1) / np.sqrt(n)
        value, (v_low, v_high) = table.at("value", *start), table.interval("value", *start)
        hands = games["hands"].to_numpy()
        print(f"| {start[0]}-{start[1]} | {win:.1%} [{win_low:.1%}, {win_high:.1%}] | "
              f"{rate:.1%} [{low:.1%}, {high:.1%}] | {z:+.2f} | "
              f"{'yes' if abs(z) < 1.96 else 'no'} | {value:+.1f} [{v_low:+.1f}, {v_high:+.1f}] "
              f"| {margin.mean():+.1f} [{margin.mean() - half:+.1f}, {margin.mean() + half:+.1f}]"
              f" | {table.at('hands', *start):.2f} | {hands.mean():.2f} |")
    print(f"\n{agree} of {len(starts)} starts agree at 95% ({time.perf_counter() - t0:.0f} s)")


def hollywood(args: argparse.Namespace) -> None:
    """Each game of a Hollywood session at its start against sessions played."""
    t0 = time.perf_counter()
    table = game_table(args.a, args.b, args.rules, args.hands, args.seed, boot=args.boot,
                       system="hollywood")
    rows = play_hollywood(args.a, args.b, args.sessions, args.seed + 1, args.rules)
    print(f"rules {args.rules} (target {table.rules.target}), {args.a} (a) vs {args.b} (b), "
          f"Hollywood; table from {table.n:,} hands, {table.boot} bootstrap replicates; "
          f"{args.sessions:,} sessions, seed {args.seed + 1}\n")
    print("| game | table: a wins | sessions: a wins | z | agree | table: margin | "
          "sessions: margin | table: hands | sessions: hands |")
    print("|---|---|---|---|---|---|---|---|---|")
    agree = 0
    for c in (1, 2, 3):
        col = rows[rows["column"] == c]
        n, won = len(col), int((col["winner"] == 0).sum())
        rate = won / n
        low, high = (float(v) for v in wilson_interval(won, n))
        want = table.game(c)
        z = (want["win"] - rate) / np.hypot(table.se[c - 1, 0],
                                            np.sqrt(max(rate * (1 - rate), 0.25 / n) / n))
        agree += abs(z) < 1.96
        margin = np.where(col["winner"] == 0, col["margin"], -col["margin"])
        half = 1.96 * margin.std(ddof=1) / np.sqrt(n)
        print(f"| {c} | {want['win']:.1%} [{want['win_low']:.1%}, {want['win_high']:.1%}] | "
              f"{rate:.1%} [{low:.1%}, {high:.1%}] | {z:+.2f} | "
              f"{'yes' if abs(z) < 1.96 else 'no'} | {want['value']:+.1f} "
              f"[{want['value_low']:+.1f}, {want['value_high']:+.1f}] | {margin.mean():+.1f} "
              f"[{margin.mean() - half:+.1f}, {margin.mean() + half:+.1f}] | "
              f"{want['hands']:.2f} | {col['hands'].mean():.2f} |")
    print(f"\n{agree} of 3 games agree at 95% ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
