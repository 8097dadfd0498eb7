"""Oklahoma: does one knock chart suffice, or does each knock-limit class need its own?

    python scripts/equilibrium_oklahoma.py [--hands N] [--iterations K] [--seed S]
        [--br-hands N] [--deals N] [--jobs J] [--chart NAME]

The upcard sets an Oklahoma hand's knock limit, and the knock chart has no cell for it.
This finds the one-chart equilibrium E (memory2 card play), then lets a deviator pick
its own best response to E for each knock-limit class (policy iteration on that class's
hands only) and measures, on fresh duplicate deals, what the per-class deviation gains
against E, next to one pooled best response (a single chart). All best responses train
on the same ``--br-hands`` hands, so the pooled one has, for every class, exactly the
evidence that class's own response has: a difference comes from the class alone. If
no class-by-class deviation gains more than the pooled one (paired CI), E is as hard
to exploit in the larger strategy space of "a chart per class" as in the one-chart
space, so one chart suffices. Ace upcards (gin only) have no knock decisions and gain
exactly 0. ``--chart equilibrium_oklahoma`` takes the shipped Oklahoma chart as E
instead of computing one.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from ginsim.analysis.knock.equilibrium import chart_grid, equilibrium
from ginsim.game.deal_ranges import deal_block
from ginsim.game.rules import Rules
from ginsim.runner.responses import best_response, deal_points
from ginsim.simulator.branches.best_response import gain_of, with_chart
from ginsim.simulator.play.engine import play_records
from ginsim.strategies.charts.knock_charts import load_chart
from ginsim.strategies.presets import parse_strategy

CLASSES = {"2-4": (2, 4), "5-7": (5, 7), "8-9": (8, 9), "10": (10, 10)}


def deal_limits(rules: Rules, seed: int, deals: int, start: int) -> np.ndarray:
    """Knock limit of each duplicate deal (the deck alone sets it, not the players)."""
    rec, _ = play_records("simple", "simple", start=2 * start, stop=2 * (start + deals),
                          seed=seed, rules=rules, duplicate=True)
    limits = rec["knock_limit"].astype(np.int64).reshape(-1, 2)
    assert (limits[:, 0] == limits[:, 1]).all()
    return limits[:, 0]


def fmt(g) -> str:
    return f"{g.mean:+.3f} ({g.low:+.3f}..{g.high:+.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60_000)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--br-hands", type=int, default=240_000)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chart", default="", help="a shipped chart as E (not computed)")
    args = parser.parse_args()
    rules = Rules.preset("oklahoma")
    base = parse_strategy("memory2")
    if args.chart:
        average = load_chart(args.chart)
        e = average.info.get("exploitability", (np.nan,) * 3)
        print(f"one-chart Oklahoma equilibrium: the shipped chart {args.chart}, recorded "
              f"exploitability {e[0]:+.3f} ({e[1]:+.3f}..{e[2]:+.3f})", flush=True)
    else:
        eq = equilibrium(rules=rules, base="memory2", hands=args.hands,
                         iterations=args.iterations, seed=args.seed, n_jobs=args.jobs)
        average, e = eq.average, eq.exploitability
        print(f"one-chart Oklahoma equilibrium: {eq.iterations} iterations, exploitability "
              f"{e[0]:+.3f} ({e[1]:+.3f}..{e[2]:+.3f}) at {args.hands:,} hands", flush=True)
    print(chart_grid(average, 0))
    me = with_chart(base, average)
    train = dict(passes=args.passes, start_chart=average, n_jobs=args.jobs,
                 start=deal_block("oklahoma training", 0, args.br_hands))
    pooled = best_response(base, me, rules, args.seed, args.br_hands, **train)
    per_class = {name: best_response(base, me, rules, args.seed, args.br_hands, limits=lim,
                                     name=f"class{name}", **train)
                 for name, lim in CLASSES.items()}
    fresh = deal_block("oklahoma evaluation", 0, args.deals)  # deals used by nothing else
    ref = deal_points(me, me, rules, args.seed, args.deals, args.jobs, fresh)
    limits = deal_limits(rules, args.seed, args.deals, fresh)
    d_pooled = deal_points(with_chart(base, pooled.chart), me, rules, args.seed, args.deals,
                           args.jobs, fresh) - ref
    d_class = np.zeros_like(ref)
    rows = []
    for name, (low, high) in CLASSES.items():
        response = per_class[name]
        d = deal_points(with_chart(base, response.chart), me, rules, args.seed, args.deals,
                        args.jobs, fresh) - ref
        mask = (limits >= low) & (limits <= high)
        d_class[mask] = d[mask]
        met = response.evidence[0].reshape(average.p.shape) >= 30
        differs = int((response.chart.p[met] != np.round(average.p[met])).sum())
        rows.append({"knock limit": name, "deals": f"{mask.mean():.1%}",
                     "cells met": int(met.sum()), "cells unlike E": differs,
                     "gain in its hands": fmt(gain_of(d[mask])),
                     "pooled response there": fmt(gain_of(d_pooled[mask])),
                     "per class minus pooled": fmt(gain_of(d[mask] - d_pooled[mask]))})
    gin_only = limits < CLASSES["2-4"][0]
    assert (d_pooled[gin_only] == 0).all()
    pd.set_option("display.width", 200)
    print(f"\nbest responses to E, gain per deal in that class's deals ({args.deals:,} fresh "
          f"duplicate deals, {gin_only.mean():.1%} ace upcards: no knock decisions):")
    print(pd.DataFrame(rows).to_string(index=False))
    print(f"\nexploitability of E, one pooled chart:      {fmt(gain_of(d_pooled))}")
    print(f"exploitability of E, a chart per class:     {fmt(gain_of(d_class))}")
    print(f"per-class deviation minus pooled (paired):  {fmt(gain_of(d_class - d_pooled))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
