"""Make the shipped equilibrium knock charts: one per knocking rules preset and card play
(memory2 unless ``--base expert`` or ``--base learned``).

    python scripts/make_equilibrium.py [--base memory2|expert|learned] [--rules PRESET ...]
        [--hands N] [--iterations K] [--seed S] [--start CHART] [--target T] [--jobs J]

With memory2, ``modern`` writes ``ginsim/strategies/chart_data/equilibrium.json`` (the
``equilibrium`` preset); every other preset P writes ``equilibrium_P.json``. With expert
the files are ``equilibrium_expert.json`` and ``equilibrium_expert_P.json``, each
warm-started from the same preset's memory2 chart; with learned ``equilibrium_learned``
and ``equilibrium_learned_P``, each warm-started from the same preset's expert chart.
Each file records this command, the seed, the date, the hands, the exploitability
reached and the rules it was made under. Presets whose hands are scored alike
(``competitive`` differs from ``modern`` only in the game target) share one
computation: the second file is a copy of the first's chart that says so. Every preset
but modern warm-starts fictitious play from the modern chart (``--start`` names
another); it stops once exploitability's 95% upper bound is at most ``--target``
(default 0.10) point per hand.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

from ginsim.analysis.knock.equilibrium import TARGET, equilibrium, summary_text
from ginsim.game.rules import Rules
from ginsim.strategies.charts.equilibria import (
    CHART_BASES,
    KNOCKING_PRESETS,
    equilibrium_chart_name,
    hand_key,
)
from ginsim.strategies.charts.knock_charts import CHART_DIR, KnockChart, chart_from_dict


def _write(path: Path, chart: KnockChart, spec: str, history: dict | None) -> None:
    data = json.loads(chart.to_json())
    data["spec"] = spec
    if history is not None:
        data["history"] = history
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)


def _base_flag(args: argparse.Namespace) -> str:
    return "" if args.base == "memory2" else f" --base {args.base}"


def default_start(preset: str, base: str) -> str | None:
    """Where fictitious play starts: memory2's modern chart from "knock whenever allowed",
    its other presets from the modern chart; expert's from the same preset's memory2
    chart, and the learned play's from the same preset's expert chart (the one it knocked
    by before it had its own)."""
    if base == "learned":
        return equilibrium_chart_name(preset, "expert")
    if base != "memory2":
        return equilibrium_chart_name(preset)
    return None if preset == "modern" else "equilibrium"


def make_one(preset: str, args: argparse.Namespace, made: dict[tuple, Path]) -> Path:
    """Compute (or, for hand rules already done, copy) the chart of ``preset``."""
    rules = Rules.preset(preset)
    name = equilibrium_chart_name(preset, args.base)
    path = CHART_DIR / f"{name}.json"
    today = dt.date.today().isoformat()
    key = hand_key(Rules.preset(preset))
    if key in made:
        source = json.loads(made[key].read_text())
        info = dict(source["info"])
        info.update({"rules": rules.spec(), "rules_fields": rules.to_dict(),
                     "same_hand_rules_as": source["info"]["rules"], "date": today,
                     "command": f"python scripts/make_equilibrium.py{_base_flag(args)} --rules "
                                f"{preset} (a copy "
                                f"of the {source['info']['rules']} chart: same hand rules)"})
        chart = KnockChart(chart_from_dict(source, str(made[key])).p, name, info)
        _write(path, chart, f"{args.base}:chart={name}", None)
        print(f"{preset}: same hand rules as {source['info']['rules']}; wrote {path}",
              flush=True)
        return path
    start = args.start or default_start(preset, args.base)
    result = equilibrium(rules=rules, base=args.base, hands=args.hands,
                         iterations=args.iterations, seed=args.seed, n_jobs=args.jobs,
                         progress=True, start=start, target=args.target)
    result.command = (f"python scripts/make_equilibrium.py{_base_flag(args)} --rules {preset} "
                      f"--hands "
                      f"{args.hands} --iterations {args.iterations} --seed {args.seed}"
                      + (f" --start {args.start}" if args.start else "")
                      + (f" --target {args.target:g}" if args.target != TARGET else ""))
    info = result.info()
    info["date"] = today
    chart = KnockChart(result.average.p, name, info)
    _write(path, chart, f"{args.base}:chart={name}", result.history.to_dict(orient="list"))
    print(summary_text(result))
    print(result.history.to_string(index=False))
    print(f"{preset}: wrote {path}", file=sys.stderr, flush=True)
    made[key] = path
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=list(KNOCKING_PRESETS),
                        choices=KNOCKING_PRESETS, metavar="PRESET")
    parser.add_argument("--base", default="memory2", choices=CHART_BASES)
    parser.add_argument("--hands", type=int, default=150_000)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--start", default="")
    parser.add_argument("--target", type=float, default=TARGET,
                        help="stop once the exploitability's 95%% upper bound is at most this")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    made: dict[tuple, Path] = {}
    for preset in KNOCKING_PRESETS:  # charts already shipped count as made
        path = CHART_DIR / f"{equilibrium_chart_name(preset, args.base)}.json"
        if preset not in args.rules and path.exists():
            if "same_hand_rules_as" not in json.loads(path.read_text())["info"]:
                made.setdefault(hand_key(Rules.preset(preset)), path)
    for preset in args.rules:
        make_one(preset, args, made)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
