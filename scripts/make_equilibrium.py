"""Make the shipped ``equilibrium`` knock chart (modern rules, memory2 card play).

    python scripts/make_equilibrium.py [--hands N] [--iterations K] [--seed S]

Writes ginsim/strategies/chart_data/equilibrium.json, which records this command, the
seed and the exploitability reached, and prints the summary and convergence history.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ginsim.analysis.equilibrium import equilibrium, summary_text
from ginsim.strategies.charts import CHART_DIR, KnockChart


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=150_000)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=CHART_DIR / "equilibrium.json")
    args = parser.parse_args()
    result = equilibrium(rules="modern", base="memory2", hands=args.hands,
                         iterations=args.iterations, seed=args.seed, n_jobs=args.jobs,
                         progress=True)
    result.command = ("python scripts/make_equilibrium.py --hands "
                      f"{args.hands} --iterations {args.iterations} --seed {args.seed}")
    chart = KnockChart(result.average.p, "equilibrium", result.info())
    data = json.loads(chart.to_json())
    data["spec"] = "memory2:chart=equilibrium"
    data["history"] = result.history.to_dict(orient="list")
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(summary_text(result))
    print(result.history.to_string(index=False))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
