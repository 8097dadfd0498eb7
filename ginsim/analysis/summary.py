"""Summary of a simulated run: outcome shares and mean points, with 95% intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..game.scoring_nb import OUTCOMES

Z95 = float(stats.norm.ppf(0.975))


def wilson_interval(successes: np.ndarray | int, n: np.ndarray | int,
                    z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial rate (vectorised)."""
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    return centre - half, centre + half


def mean_interval(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): normal-approximation 95% interval of a sample mean."""
    values = np.asarray(values, dtype=float)
    mean = float(values.mean()) if len(values) else float("nan")
    se = float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else float("nan")
    return mean, mean - z * se, mean + z * se


def summarize(hands: pd.DataFrame) -> pd.DataFrame:
    """Tidy summary of per-hand records: one row per statistic.

    Columns: ``statistic``, ``value``, ``low``, ``high`` (95% interval), ``n``.
    Rates use the Wilson interval, means the normal approximation.
    """
    n = len(hands)
    rows = []
    counts = hands["outcome"].astype(str).value_counts()
    for outcome in OUTCOMES:
        k = int(counts.get(outcome, 0))
        low, high = wilson_interval(k, n)
        rows.append((f"rate_{outcome}", k / n if n else np.nan, float(low), float(high), n))
    for column, name in (("points_a", "mean_points_a"), ("points_b", "mean_points_b"),
                         ("turns", "mean_turns")):
        mean, low, high = mean_interval(hands[column].to_numpy())
        rows.append((name, mean, low, high, n))
    mean, low, high = mean_interval((hands["points_a"] - hands["points_b"]).to_numpy())
    rows.append(("mean_points_a_minus_b", mean, low, high, n))
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high", "n"])
