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


def clustered_wilson(successes: np.ndarray | float, n: np.ndarray | float,
                     pairs: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
                     z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wilson interval of a rate whose hands come in duplicate deals, the deal as the
    cluster (vectorised): (low, high, effective n).

    ``pairs`` counts the deals with both hands among the ``n`` that hold 0, 1 and 2 of
    the ``successes`` (deals with one hand among them need no count). The rate's
    cluster-robust variance is sum_d (k_d - r n_d)^2 / n^2 over deals d, each deal's
    count k_d of successes among its n_d hands; the effective n is r (1 - r) over that
    variance (the distinct deals when the rate is 0 or 1), and the interval is Wilson's
    at that n. Hands that are independent (``pairs`` None or all zero) give Wilson's own
    interval; the two identical hands of a mirrored deal give Wilson's over deals. A rate
    that every deal holds exactly (seat a wins one hand of each deal when both seats play
    alike) has no sampling error: its interval is the rate itself.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    if pairs is None:
        low, high = wilson_interval(k, n, z)
        return low, high, n
    p0, p1, p2 = (np.asarray(p, dtype=float) for p in pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = k / n
        sum_n2 = n + 2 * (p0 + p1 + p2)  # a deal with both hands adds 2 * 1 * 1 to n_d^2
        sum_k2 = k + 2 * p2
        sum_kn = k + p1 + 2 * p2
        var = (sum_k2 - 2 * r * sum_kn + r * r * sum_n2) / (n * n)
        distinct = n - (p0 + p1 + p2)
        n_eff = np.where(var > 0, r * (1 - r) / np.where(var > 0, var, 1), distinct)
        fixed = (var <= 0) & (r > 0) & (r < 1)  # every deal holds the same share
    low, high = wilson_interval(r * n_eff, n_eff, z)
    low, high = np.where(fixed, r, low), np.where(fixed, r, high)
    return low, high, np.where(fixed, np.inf, n_eff)


def clustered_mean(values: np.ndarray, clusters: np.ndarray, z: float = Z95
                   ) -> tuple[float, float, float]:
    """(mean, low, high) of ``values`` that come in correlated clusters (the decisions of
    one hand): the mean over values and a normal 95% interval from the cluster-robust
    variance C/(C-1) sum_c (T_c - mean m_c)^2 / n^2, each cluster c's sum T_c and count
    m_c (C clusters, n values); one value per cluster gives :func:`mean_interval`'s."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    _, cluster = np.unique(np.asarray(clusters), return_inverse=True)
    count = int(cluster.max()) + 1
    if count < 2:
        return mean, float("nan"), float("nan")
    residual = np.bincount(cluster, weights=values - mean, minlength=count)
    se = float(np.sqrt(count / (count - 1) * (residual ** 2).sum()) / values.size)
    return mean, mean - z * se, mean + z * se
