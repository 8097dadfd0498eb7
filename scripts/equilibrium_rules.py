"""Rules sensitivity of the knock-chart equilibrium (memory2 card play): one
equilibrium per rule set, and a table of how the answer moves with the scoring.

    python scripts/equilibrium_rules.py [--hands N] [--iterations K] [--seed S]
"""

from __future__ import annotations

import argparse

import pandas as pd

from ginsim.analysis.knock.equilibrium import equilibrium, knock_share, lowest_wait
from ginsim.game.rules import Rules

RULE_SETS = {
    "modern": Rules.preset("modern"),
    "classic": Rules.preset("classic"),
    "palace": Rules.preset("palace"),
    "modern, tie not an undercut": Rules.preset("modern").with_(undercut_on_tie=False),
    "oklahoma": Rules.preset("oklahoma"),
    "eleven-card deal": Rules.preset("eleven"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    rows = []
    for name, rules in RULE_SETS.items():
        if args.only and args.only not in name:
            continue
        r = equilibrium(rules=rules, hands=args.hands, iterations=args.iterations,
                        seed=args.seed, n_jobs=args.jobs)
        share = knock_share(r)
        knocks = lowest_wait(r, 0)
        rows.append({"rules": name, "exploitability": f"{r.exploitability[0]:+.2f} "
                     f"({r.exploitability[1]:+.2f}..{r.exploitability[2]:+.2f})",
                     "vs memory2": f"{r.value[0]:+.2f}",
                     "knock% deep (24+)": f"{100 * share.iloc[:2].mean():.0f}",
                     "knock% middle (8-23)": f"{100 * share.iloc[2:6].mean():.0f}",
                     "knock% late (0-7)": f"{100 * share.iloc[6:].mean():.0f}",
                     "knock at (no pile takes), 28-31 .. 0-3": " ".join(knocks),
                     "iterations": r.iterations})
        print(pd.DataFrame(rows[-1:]).to_string(index=False), flush=True)
    print()
    print(pd.DataFrame(rows).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
