"""Confidence intervals shared by every statistic: Wilson for rates, normal for means.

One module below both :mod:`.summary` and :mod:`.metrics`, so neither imports the other
for its formulas.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

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


def moment_interval(n: int, total: float, squares: float,
                     z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) from a count, a sum and a sum of squares (as mean_interval)."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = total / n
    if n == 1:
        return mean, float("nan"), float("nan")
    var = max(squares - total * mean, 0.0) / (n - 1)
    se = float(np.sqrt(var / n))
    return mean, mean - z * se, mean + z * se
