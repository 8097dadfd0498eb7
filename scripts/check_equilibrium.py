"""Check the shipped ``equilibrium`` preset: no preset or knock threshold exploits it
(issue 11, item 7), what the folk advice costs against it and against its own best
response (item 5), and what best responses to it trained on more hands than the
equilibrium's own (``--adversary-hands``) gain on fresh deals.

    python scripts/check_equilibrium.py [--deals N] [--br-hands N] [--seed S]
        [--adversary-hands N,N,...] [--rules PRESET] [--base memory2|expert|learned]
        [--adversaries-only] [--play CARD_PLAY]

``--rules PRESET`` checks that preset's shipped chart (``equilibrium_PRESET``) under its
rules; ``--base expert`` checks the chart made for expert card play
(``equilibrium_expert[_PRESET]``, best responses with expert card play; only the fresh
best responses, the folk checks are memory2's), ``--base learned`` the learned play's
(``equilibrium_learned[_PRESET]``) the same way; ``--adversaries-only`` runs only the
fresh best responses. ``--play CARD_PLAY`` (``learned``, say) checks the chart with
another card play in both seats: the chart played by CARD_PLAY, its fresh best responses
made with CARD_PLAY too (the folk checks are skipped).
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from ginsim.analysis.knock.equilibrium import candidate_gains
from ginsim.game.deal_ranges import deal_block
from ginsim.game.rules import Rules
from ginsim.runner.responses import best_response, paired_gain
from ginsim.simulator.branches.best_response import with_chart
from ginsim.strategies.charts.equilibria import (
    CHART_BASES,
    KNOCKING_PRESETS,
    equilibrium_chart_name,
)
from ginsim.strategies.charts.knock_charts import load_chart
from ginsim.strategies.presets import parse_strategy

CANDIDATES = ([f"memory2:knock={t}" for t in range(11)]
              + ["simple", "memory1", "memory2", "gin_hunter", "early_knocker", "chart",
                 "memory2:knock=10/8/5/3", "memory2:knock=3/5/8/10", "memory2:knock=0/0/5/10"])
FOLK = {"asap": "knock as soon as you can", "knock5": "knock only at 5 or less",
        "gin_only": "wait for gin", "pile_wary": "knock early unless the opponent took pile "
                                                 "cards (textbook)"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150_000)
    parser.add_argument("--br-hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--adversary-hands", default="150000,450000")
    parser.add_argument("--rules", default="modern", choices=KNOCKING_PRESETS)
    parser.add_argument("--base", default="memory2", choices=CHART_BASES)
    parser.add_argument("--adversaries-only", action="store_true")
    parser.add_argument("--play", default="",
                        help="the card play of both seats (default: the chart's base)")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    name = equilibrium_chart_name(args.rules, args.base)
    pd.set_option("display.width", 200)
    play = args.play or args.base
    if not args.adversaries_only and args.base == "memory2" and play == "memory2":
        folk_checks(args, rules, name)
    eq = parse_strategy(f"{play}:chart={name}")
    for hands in (int(h) for h in args.adversary_hands.split(",") if h.strip()):
        t0 = time.perf_counter()
        br = best_response(play, eq, rules, args.seed, hands, passes=3,
                           start_chart=load_chart(name), n_jobs=args.jobs,
                           start=deal_block("adversary training", 0, hands))
        g = paired_gain(with_chart(play, br.chart), eq, eq, eq, rules, args.seed,
                        args.deals, args.jobs,
                        start=deal_block("adversary evaluation", 0, args.deals))
        print(f"{args.rules} ({name}, {play} card play): best response trained on "
              f"{hands:,} hands gains {g.mean:+.3f} "
              f"({g.low:+.3f}..{g.high:+.3f}) over {g.deals:,} fresh deals "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


def folk_checks(args: argparse.Namespace, rules: Rules, name: str) -> None:
    """Presets, thresholds and folk advice against the chart ``name``."""
    gains = candidate_gains(f"memory2:chart={name}", CANDIDATES + list(FOLK), rules,
                            args.deals, args.seed, args.jobs)
    print(f"gain against the equilibrium preset, {args.deals:,} duplicate deals "
          "(paired with equilibrium vs itself):")
    print(gains.round(3).to_string(index=False), flush=True)
    print("exploited by any:", bool(gains.exploits.any()))
    rows = []
    for preset, words in FOLK.items():
        folk = parse_strategy(preset)
        g = gains[gains.candidate == preset].iloc[0]
        br = best_response("memory2", folk, rules, args.seed, args.br_hands, passes=3)
        own = paired_gain(with_chart("memory2", br.chart), folk, folk, folk, rules, args.seed,
                          args.br_hands, args.jobs, start=10**9)
        rows.append({"preset": preset, "advice": words,
                     "vs equilibrium": f"{g.gain:+.3f} ({g.low:+.3f}..{g.high:+.3f})",
                     "its best response gains": f"{own.mean:+.3f} ({own.low:+.3f}.."
                                                f"{own.high:+.3f})"})
        print(rows[-1], flush=True)
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    raise SystemExit(main())
