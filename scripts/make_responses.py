"""Make the knock charts the mc player's rollouts play against each opponent model it
believes in: for ``expert`` card play, the best response (policy iteration,
:func:`ginsim.runner.responses.best_response`) to each model, started from
``equilibrium_expert`` on training deals kept apart from evaluation deals, and its gain
over ``equilibrium_expert`` against that model on fresh duplicate deals (95% interval).

    python scripts/make_responses.py                         # all three, 400,000 hands each
    python scripts/make_responses.py --opponents simple --hands 100000

Each chart goes to ``ginsim/strategies/chart_data/expert_vs_NAME.json`` with its
provenance (command, seed, hands, the cells changed per pass, the measured gain).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date

from ginsim.game.rules import Rules
from ginsim.runner.responses import best_response, paired_gain
from ginsim.simulator.branches.best_response import with_chart
from ginsim.strategies.charts.knock_charts import CHART_DIR, load_chart
from ginsim.strategies.presets import parse_strategy

#: The chart file stem per opponent model of the mc preset (its ``expert`` model plays
#: the equilibrium chart, already a best response to itself).
RESPONSES = {"simple": "expert_vs_simple", "memory2": "expert_vs_memory2",
             "memory2:knock=0": "expert_vs_gin_waiter"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponents", nargs="+", default=list(RESPONSES),
                        choices=list(RESPONSES))
    parser.add_argument("--hands", type=int, default=400_000)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--deals", type=int, default=20_000, help="evaluation deals")
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    rules = Rules()
    start_chart = load_chart("equilibrium_expert")
    for opponent in args.opponents:
        t = time.time()
        name = RESPONSES[opponent]
        found = best_response("expert", parse_strategy(opponent), rules, seed=args.seed,
                              hands=args.hands, passes=args.passes, start_chart=start_chart,
                              n_jobs=args.n_jobs, name=name)
        gain = paired_gain(with_chart("expert", found.chart), parse_strategy(opponent),
                           parse_strategy("expert"), parse_strategy(opponent), rules,
                           args.seed + 1, args.deals, args.n_jobs)
        found.chart.info.update({
            "command": "python " + " ".join(sys.argv), "rules": rules.spec(),
            "rules_fields": rules.to_dict(), "base": "expert", "against": opponent,
            "seed": args.seed, "hands": args.hands, "changes": found.changes,
            "start_chart": "equilibrium_expert",
            "gain_over_equilibrium": [gain.mean, gain.low, gain.high],
            "evaluation_deals": args.deals, "date": date.today().isoformat(),
            "seconds": round(time.time() - t, 1)})
        path = found.chart.save(CHART_DIR / f"{name}.json")
        print(f"{name}: cells changed per pass {found.changes}; against {opponent} it gains "
              f"{gain.mean:+.3f} [{gain.low:+.3f}, {gain.high:+.3f}] points a hand over "
              f"equilibrium_expert on {args.deals} duplicate deals; {path} "
              f"({time.time() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
