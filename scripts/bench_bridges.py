"""Speed of the bridges (issue 23's target: 1,000 games of a heuristic against
SimpleGinRummyPlayer through the EAAI bridge in at most 5 minutes on 2 cores).

    python scripts/bench_bridges.py [--games 1000] [--strategy memory2:knock=0]
        [--framework DIR]  (the EAAI framework, default $GINSIM_EAAI or ../shared/eaai)

Prints, for each bridge, games, seconds, games per second and the ginsim side's win rate
with its Wilson 95% interval: GinsimPlayer in the framework's referee (through
``ginsim agent``), and SimpleGinRummyPlayer hosted by ``ginsim match`` (GinsimHost);
then hands of the strategy against OpenSpiel's simple gin rummy bot (GinsimBot), with its
points per hand (normal 95% interval) and hands won.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ginsim.analysis.intervals import mean_interval, wilson_interval
from ginsim.table.referee import play_match

ROOT = Path(__file__).resolve().parents[1]


def compile_bridge(framework: Path, out: str) -> None:
    sources = [*sorted((framework / "ginrummy").glob("*.java")),
               *sorted((ROOT / "adapters" / "eaai").glob("*.java"))]
    subprocess.run(["javac", "-nowarn", "-d", out, *map(str, sources)], check=True,
                   capture_output=True)


def line(name: str, games: int, wins: int, seconds: float) -> str:
    low, high = wilson_interval(wins, games)
    return (f"{name:<44} {games:>6,} games {seconds:7.1f} s {games / seconds:7.1f} games/s "
            f" ginsim wins {wins / games:.1%} [{float(low):.1%}, {float(high):.1%}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--strategy", default="memory2:knock=0")
    parser.add_argument("--hands", type=int, default=2000,
                        help="OpenSpiel hands (one OpenSpiel game is one hand)")
    parser.add_argument("--framework", type=Path, default=Path(os.environ.get(
        "GINSIM_EAAI", ROOT.parent / "shared" / "eaai")))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as classes:
        compile_bridge(args.framework, classes)
        env = {**os.environ, "GINSIM_STRATEGY": args.strategy, "PYTHONPATH": str(ROOT),
               "GINSIM_AGENT": f"{sys.executable} -m ginsim agent"}
        t0 = time.perf_counter()
        done = subprocess.run(["java", "-cp", classes, "ginrummy.GinsimMatch",
                               "ginrummy.GinsimPlayer", "ginrummy.SimpleGinRummyPlayer",
                               str(args.games)], env=env, capture_output=True, text=True,
                              check=True)
        seconds = time.perf_counter() - t0
        wins = int(re.search(r"wins=(\d+)", done.stdout).group(1))
        print(line(f"EAAI referee: GinsimPlayer ({args.strategy})", args.games, wins, seconds))
        host = f"exec:java -cp {classes} ginrummy.GinsimHost ginrummy.SimpleGinRummyPlayer"
        t0 = time.perf_counter()
        result = play_match(args.strategy, host, args.games, "eaai", timeout_ms=5000)
        seconds = time.perf_counter() - t0
        wins = sum(row["winner"] == "a" for row in result.games)
        print(line("ginsim match: SimpleGinRummyPlayer hosted", args.games, wins, seconds))
    openspiel(args.strategy, args.hands)


def openspiel(strategy: str, hands: int) -> None:
    """Hands of ``strategy`` (GinsimBot) against OpenSpiel's simple gin rummy bot."""
    try:
        sys.path.insert(0, str(ROOT / "adapters" / "openspiel"))
        from ginsim_bot import play_hands
    except ImportError:
        print("OpenSpiel: not installed (pip install ginsim[openspiel])")
        return
    t0 = time.perf_counter()
    played = play_hands(strategy, "openspiel_simple", hands, seed=0)
    seconds = time.perf_counter() - t0
    points = [h["points"] for h in played]
    mean, low, high = mean_interval(points)
    wins = sum(p > 0 for p in points)
    w_low, w_high = wilson_interval(wins, hands)
    print(f"{'OpenSpiel gin_rummy: GinsimBot (' + strategy + ')':<44} {hands:>6,} hands "
          f"{seconds:7.1f} s {hands / seconds:7.1f} hands/s  ginsim points per hand "
          f"{mean:+.2f} [{low:+.2f}, {high:+.2f}], hands won {wins / hands:.1%} "
          f"[{float(w_low):.1%}, {float(w_high):.1%}]")


if __name__ == "__main__":
    main()
