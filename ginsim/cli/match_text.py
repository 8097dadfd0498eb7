"""The text ``ginsim match`` prints: the statistics of ``ginsim games`` for a refereed match."""

from __future__ import annotations

import pandas as pd

from ..number_text import num, pct

GAME_LABELS = {"p_a_wins_game": "P(a wins the game)", "mean_margin_a": "mean margin for a",
               "mean_hands": "hands per game", "rate_shutout": "shutouts"}


def match_lines(summary: pd.DataFrame, a: str, b: str, rules_spec: str, target: int,
                games: int, seed: int, wall_s: float, version: str) -> list[str]:
    """The lines of a match's report: the match named (rules, games, seed, sides), the
    game statistics with 95% intervals, points per hand, forfeits and the time taken."""
    rows = summary.set_index("statistic")
    lines = [f"ginsim {version}: rules {rules_spec} (target {target}), {games:,} "
             f"game{'s' * (games != 1)}, seed {seed}: {a} (a) vs {b} (b)"]
    for key, label in GAME_LABELS.items():
        row = rows.loc[key]
        if key.startswith(("p_", "rate_")):
            lines.append(f"  {label:<20} {pct(row.value):>9}  [{pct(row.low)}, "
                         f"{pct(row.high)}]")
        else:
            lines.append(f"  {label:<20} {num(row.value, '9.2f')}  [{num(row.low, '.2f')}, "
                         f"{num(row.high, '.2f')}]")
    if "mean_points_a" in rows.index:
        hands = int(rows.loc["mean_points_a"].n)
        lines.append(f"mean points per hand (95% CI, {hands:,} hands):")
        for key, label in (("mean_points_a", "a"), ("mean_points_b", "b"),
                           ("mean_points_a_minus_b", "a minus b")):
            row = rows.loc[key]
            lines.append(f"  {label:<20} {num(row.value, '9.3f')}  [{num(row.low, '.3f')}, "
                         f"{num(row.high, '.3f')}]")
    forfeits = {side: int(rows.loc[f"forfeits_{side}"].value) for side in ("a", "b")}
    if any(forfeits.values()):
        lines.append("forfeits (lost games, each named above): "
                     + ", ".join(f"{side} {n}" for side, n in forfeits.items()))
    else:
        lines.append("forfeits: none")
    rate = games / wall_s if wall_s > 0 else float("inf")
    pace = f"{rate:,.1f} games/s" if rate >= 1 else f"{wall_s / games:,.1f} s a game"
    lines.append(f"refereed in {wall_s:.1f} s ({pace})")
    return lines
