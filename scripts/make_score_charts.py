"""Make the shipped knock charts by game score: one per knocking rules preset and card
play (expert unless ``--base memory2`` or ``--base learned``).

    python scripts/make_score_charts.py [--base expert|memory2|learned] [--rules PRESET ...]
        [--hands N] [--games G] [--table-hands H] [--seed S]

Each chart goes to ``ginsim/strategies/charts/score_data/score_BASE[_PRESET].json``
(``score_equilibrium*`` for memory2) with this command, the seed, the date and its
figures (exploitability and gain over the hand-level chart in game-win chance per hand,
:mod:`ginsim.analysis.knock.knock_by_score`). Presets whose hands score alike and whose
target is the same share one computation (the copy says so). Prints one line per chart.
"""

from __future__ import annotations

import argparse
import sys

from ginsim.analysis.knock.knock_by_score import make_score_chart
from ginsim.game.rules import Rules
from ginsim.strategies.charts.equilibria import KNOCKING_PRESETS, hand_key
from ginsim.strategies.charts.score_charts import (
    SCORE_DIR,
    SCORE_STEMS,
    ScoreChart,
    score_chart_name,
)

PLAYS = {"expert": "expert", "memory2": "equilibrium", "learned": "learned"}


def _opponents(items: list[str], play: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """``NAME[:WEIGHT]`` items as (opponents, weights); ``self`` is ``play``."""
    names, weights = [], []
    for item in items:
        name, _, weight = item.partition(":")
        names.append(play if name == "self" else name)
        weights.append(float(weight or 1))
    return tuple(names), tuple(weights)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="expert", choices=tuple(SCORE_STEMS))
    parser.add_argument("--rules", nargs="*", default=list(KNOCKING_PRESETS))
    parser.add_argument("--hands", type=int, default=300_000)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--table-hands", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponents", nargs="*", default=["self:2", "simple", "memory2"],
                        help="opponents whose evidence is added, NAME[:WEIGHT]; self is the "
                             "base's own play")
    args = parser.parse_args(argv)
    made: dict[tuple, tuple[str, ScoreChart]] = {}
    for preset in args.rules:
        rules = Rules.preset(preset)
        name = score_chart_name(preset, args.base)
        key = (hand_key(rules), rules.target, rules.next_dealer)
        command = (f"python scripts/make_score_charts.py --base {args.base} --rules {preset} "
                   f"--hands {args.hands} --games {args.games} --table-hands "
                   f"{args.table_hands} --seed {args.seed}")
        if key in made:
            first, chart = made[key]
            info = {**chart.info, "rules": rules.spec(), "rules_fields": rules.to_dict(),
                    "same_hand_rules_as": first}
            ScoreChart(chart.p, name, info).save(SCORE_DIR / f"{name}.json")
            print(f"{name}: copy of {first} (same hands, target and deal)", flush=True)
            continue
        opponents, weights = _opponents(args.opponents, PLAYS[args.base])
        result = make_score_chart(PLAYS[args.base], rules, args.hands, args.games,
                                  args.table_hands, args.seed, name,
                                  command + " --opponents " + " ".join(args.opponents),
                                  opponents, weights)
        result.chart.save(SCORE_DIR / f"{name}.json")
        made[key] = (name, result.chart)
        print(f"{name}: exploitability {100 * result.exploitability:.4f} points of game-win "
              f"chance per hand ({100 * result.exploitability * result.hands_per_game:.3f} per "
              f"game), gain over the hand chart {100 * result.gain_over_hand_chart:+.4f} per "
              f"hand ({100 * result.gain_over_hand_chart * result.hands_per_game:+.3f} per "
              f"game), {result.seconds:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
