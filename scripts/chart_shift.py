"""How a knock chart changes with the card play it is made for: the cells that flip
between two charts (knock at p >= 0.5 in one, wait in the other), their knock shares,
how hands end with each, and each chart's value against the other on paired duplicate
deals, with either card play in both seats.

    python scripts/chart_shift.py [--a equilibrium] [--b equilibrium_expert]
        [--deals N] [--seed S] [--rules PRESET] [--out DIR]

Writes ``DIR/chart_shift_cells.csv`` (every cell: both probabilities, the difference,
whether it flips), ``DIR/chart_shift_outcomes.csv`` (how hands end, each card play with
each chart against itself), ``DIR/chart_shift_values.csv`` and ``DIR/chart_shift.png``
(the difference per cell, flips marked), and prints the figures.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ginsim.analysis import simulate  # noqa: E402
from ginsim.analysis.knock.sweeps import strategy_matrix  # noqa: E402
from ginsim.strategies.charts.knock_charts import SHAPE, KnockChart, bucket_labels, load_chart  # noqa: E402

TAKEN = ("0", "1", "2+")
OUTCOMES = ("knock", "gin", "big_gin", "undercut", "dead")


def cell_table(a: KnockChart, b: KnockChart) -> pd.DataFrame:
    """One row per cell: stock, deadwood, opp_taken, p of each chart, b - a, flip."""
    labels = bucket_labels()
    rows = [{"stock": labels[s], "deadwood": d + 1, "opp_taken": TAKEN[t],
             "p_a": a.p[s, d, t], "p_b": b.p[s, d, t]}
            for t in range(SHAPE[2]) for d in range(SHAPE[1]) for s in range(SHAPE[0])]
    frame = pd.DataFrame(rows)
    frame["diff"] = frame.p_b - frame.p_a
    frame["flip"] = np.where((frame.p_a >= 0.5) & (frame.p_b < 0.5), "knock->wait",
                             np.where((frame.p_a < 0.5) & (frame.p_b >= 0.5), "wait->knock", ""))
    return frame


def outcome_mix(spec: str, hands: int, seed: int, rules: str) -> dict[str, float]:
    """Shares of hands ending each way when ``spec`` plays itself (duplicate deals)."""
    rec = simulate(spec, spec, hands=hands, seed=seed, rules=rules, duplicate=True, n_jobs=1)
    counts = rec.outcome.astype(str).value_counts(normalize=True)
    return {name: float(counts.get(name, 0.0)) for name in OUTCOMES}


def values(a: str, b: str, deals: int, seed: int, rules: str) -> pd.DataFrame:
    """Chart b's points per hand against chart a, each card play in both seats."""
    rows = []
    for play in ("memory2", "expert"):
        table, _ = strategy_matrix([f"{play}:chart={b}"], [f"{play}:chart={a}"], deals, seed,
                                   rules, n_jobs=1)
        r = table.iloc[0]
        rows.append({"card_play": play, "challenger": r.strategy, "opponent": r.opponent,
                     "mean": r["mean"], "low": r.low, "high": r.high, "deals": deals})
    return pd.DataFrame(rows)


def figure(cells: pd.DataFrame, a: str, b: str, path: Path) -> None:
    """Three panels (opponent's pile takes): p_b - p_a per cell, flipped cells boxed."""
    labels = bucket_labels()
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), sharey=True)
    for t, ax in enumerate(axes):
        panel = cells[cells.opp_taken == TAKEN[t]]
        grid = panel.pivot(index="deadwood", columns="stock", values="diff")[labels]
        image = ax.imshow(grid.to_numpy(), cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
        for row in panel[panel.flip != ""].itertuples():
            x, y = labels.index(row.stock), row.deadwood - 1
            ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, lw=2))
            ax.text(x, y, "K" if row.flip == "wait->knock" else "w", ha="center",
                    va="center", fontsize=9)
        ax.set_xticks(range(len(labels)), labels, rotation=45)
        ax.set_yticks(range(SHAPE[1]), range(1, SHAPE[1] + 1))
        ax.set_title(f"opponent took {TAKEN[t]} pile card(s)")
        ax.set_xlabel("stock left")
    axes[0].set_ylabel("deadwood")
    fig.colorbar(image, ax=axes, label=f"knock probability: {b} minus {a}")
    fig.suptitle(f"{b} vs {a}: boxed cells flip (K: now knocks, w: now waits)")
    fig.savefig(path, dpi=110, bbox_inches="tight")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="equilibrium")
    parser.add_argument("--b", default="equilibrium_expert")
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rules", default="modern")
    parser.add_argument("--out", default="chart_shift")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    chart_a, chart_b = load_chart(args.a), load_chart(args.b)
    cells = cell_table(chart_a, chart_b)
    cells.to_csv(out / "chart_shift_cells.csv", index=False)
    figure(cells, args.a, args.b, out / "chart_shift.png")
    flips = cells[cells.flip != ""]
    pd.set_option("display.width", 200)
    print(f"{len(flips)} of {len(cells)} cells flip ({args.a} -> {args.b}):")
    print(flips.round(3).to_string(index=False))
    print(f"knock share over cells: {args.a} {chart_a.p.mean():.1%}, "
          f"{args.b} {chart_b.p.mean():.1%}")
    mixes = []
    for play in ("memory2", "expert"):
        for name in (args.a, args.b):
            spec = f"{play}:chart={name}"
            mixes.append({"spec": spec, **outcome_mix(spec, 2 * args.deals, args.seed + 1,
                                                      args.rules)})
            print(f"{spec} against itself, {2 * args.deals:,} hands: "
                  + ", ".join(f"{k} {mixes[-1][k]:.1%}" for k in OUTCOMES), flush=True)
    pd.DataFrame(mixes).to_csv(out / "chart_shift_outcomes.csv", index=False)
    table = values(args.a, args.b, args.deals, args.seed, args.rules)
    table.to_csv(out / "chart_shift_values.csv", index=False)
    print(f"{args.b} against {args.a}, {args.deals:,} duplicate deals, seed {args.seed}:")
    print(table.round(3).to_string(index=False))
    print(f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
