"""Many runs at once: threshold sweeps, best responses, strategy and rule comparisons.

Each comparison plays duplicate deals (every deal twice, seats swapped) so the paired
difference of points per hand cancels the luck of the deal; all runs of a study go to
the runner as one list of jobs, so every core stays busy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...game.inputs.checks import check_jobs, check_optional_flag
from ...game.rules import Rules
from ...runner.jobs import Job
from ...runner.runner import run
from ..frames import records_frame
from ..intervals import mean_interval, wilson_interval
from ..metrics import DUPLICATE, paired_difference


@dataclass
class PairedRuns:
    """Per-hand records of several duplicate-deal runs, keyed by (a, b, rules spec): the
    string given, or :meth:`Rules.spec` of a Rules object."""

    hands: dict[tuple[str, str, str], pd.DataFrame]
    wall_s: float
    total_hands: int


def play_pairs(pairs: Sequence[tuple[str, str, Rules | str]], deals: int, seed: int = 0,
               n_jobs: int | None = None, progress: bool | None = None) -> PairedRuns:
    """Play every (a, b, rules) for ``deals`` duplicate deals (2 x deals hands each)."""
    n_jobs = check_jobs(n_jobs)
    progress = check_optional_flag(progress, "progress")
    jobs = [Job.make(a, b, 2 * deals, seed, rules, duplicate=True) for a, b, rules in pairs]
    result = run(jobs, records="full", n_jobs=n_jobs, progress=progress)
    hands = {}
    for (a, b, rules), records in zip(pairs, result.records, strict=True):
        name = rules if isinstance(rules, str) else Rules.coerce(rules).spec()
        frame = records_frame(records)
        frame.attrs["design"] = DUPLICATE  # so its summaries pair a - b by deal too
        hands[(a, b, name)] = frame
    return PairedRuns(hands, result.wall_s, sum(j.hands for j in jobs))


def _undercut_share(hands: pd.DataFrame, seat: str) -> float:
    """Share of ``seat``'s non-gin knocks that were undercut (NaN when it never knocked)."""
    knocks = hands.outcome[(hands.knocker == seat) & hands.outcome.isin(("knock", "undercut"))]
    return float((knocks == "undercut").mean()) if len(knocks) else float("nan")


def _paired_row(hands: pd.DataFrame) -> dict[str, float]:
    row = paired_difference(hands).iloc[0]
    return {"mean": row["mean"], "low": row["low"], "high": row["high"], "n": len(hands),
            "undercut_rate": _undercut_share(hands, "a"),
            "opponent_undercut_rate": _undercut_share(hands, "b")}


def threshold_sweep(thresholds: Sequence[int], opponents: Sequence[str], deals: int,
                    seed: int = 0, rules: Rules | str | None = None, base: str = "simple",
                    n_jobs: int | None = None, progress: bool | None = None
                    ) -> tuple[pd.DataFrame, PairedRuns]:
    """Expected points per hand of ``base:knock=t`` against each opponent.

    Columns: ``threshold``, ``opponent``, ``mean`` (paired points per hand, the
    threshold player minus the opponent), ``low``, ``high`` (95%, paired by deal), ``n``
    (hands: twice the duplicate deals),
    ``undercut_rate`` (share of the threshold player's non-gin knocks that were
    undercut; missing when it never knocked), ``opponent_undercut_rate`` (the same for
    the opponent's knocks).
    """
    rules = Rules.coerce(rules)
    sep = "," if ":" in base else ":"
    pairs = [(f"{base}{sep}knock={t}", opp, rules) for opp in opponents for t in thresholds]
    runs = play_pairs(pairs, deals, seed, n_jobs, progress)
    rows = []
    for (a, opp, _), hands in runs.hands.items():
        t = int(a.rsplit("=", 1)[1])
        rows.append({"threshold": t, "opponent": opp, **_paired_row(hands)})
    return pd.DataFrame(rows), runs


def best_thresholds(sweep: pd.DataFrame) -> pd.DataFrame:
    """The best threshold against each opponent, the runner-up, and the share of the
    opponent's knocks that the best threshold's player undercut."""
    rows = []
    for opp, group in sweep.groupby("opponent", sort=False):
        ranked = group.sort_values("mean", ascending=False)
        best, second = ranked.iloc[0], ranked.iloc[1] if len(ranked) > 1 else ranked.iloc[0]
        rows.append({"opponent": opp, "best_threshold": int(best.threshold),
                     "mean": best["mean"], "low": best["low"], "high": best["high"],
                     "n": best.get("n", np.nan), "runner_up": int(second.threshold),
                     "runner_up_mean": second["mean"],
                     "opponent_undercut_rate": best.get("opponent_undercut_rate", np.nan)})
    return pd.DataFrame(rows)


def threshold_matrix(thresholds: Sequence[int], deals: int, seed: int = 0,
                     rules: Rules | str | None = None, base: str = "simple",
                     n_jobs: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Every threshold against every threshold: ``threshold_a``, ``threshold_b``,
    ``mean`` (a's paired points per hand), ``low``, ``high``, ``n`` (hands)."""
    rules = Rules.coerce(rules)
    sep = "," if ":" in base else ":"
    pairs = [(f"{base}{sep}knock={ta}", f"{base}{sep}knock={tb}", rules)
             for ta in thresholds for tb in thresholds]
    runs = play_pairs(pairs, deals, seed, n_jobs, progress)
    rows = []
    for (a, b, _), hands in runs.hands.items():
        rows.append({"threshold_a": int(a.rsplit("=", 1)[1]),
                     "threshold_b": int(b.rsplit("=", 1)[1]), **_paired_row(hands)})
    return pd.DataFrame(rows).drop(columns=["undercut_rate", "opponent_undercut_rate"])


def strategy_matrix(strategies: Sequence[str], opponents: Sequence[str], deals: int,
                    seed: int = 0, rules: Rules | str | None = None,
                    n_jobs: int | None = None, progress: bool | None = None
                    ) -> tuple[pd.DataFrame, PairedRuns]:
    """Paired points per hand of each strategy against each opponent: ``strategy``,
    ``opponent``, ``mean``, ``low``, ``high``, ``n`` (hands), ``undercut_rate``,
    ``opponent_undercut_rate``."""
    rules = Rules.coerce(rules)
    pairs = [(s, o, rules) for o in opponents for s in strategies]
    runs = play_pairs(pairs, deals, seed, n_jobs, progress)
    rows = [{"strategy": a, "opponent": b, **_paired_row(hands)}
            for (a, b, _), hands in runs.hands.items()]
    return pd.DataFrame(rows), runs


def variant_comparison(variants: Sequence[str], a: str = "simple", b: str = "simple",
                       hands: int = 100_000, seed: int = 0, n_jobs: int | None = None,
                       progress: bool | None = None) -> pd.DataFrame:
    """The same strategies under several rules (preset names or specs such as
    ``modern:knock_limit=8``): one row per variant x statistic
    (``gin_rate``, ``undercut_rate``, ``dead_rate``, ``mean_draws``, ``mean_points``)
    with ``value``, ``low``, ``high``, ``n``. ``mean_points`` is points scored per hand
    by both players together."""
    deals = max(hands // 2, 1)
    runs = play_pairs([(a, b, v) for v in variants], deals, seed, n_jobs, progress)
    rows = []
    for (_, _, variant), frame in runs.hands.items():
        n = len(frame)
        for stat, outcome in (("gin_rate", "gin"), ("undercut_rate", "undercut"),
                              ("dead_rate", "dead")):
            k = int((frame.outcome == outcome).sum())
            low, high = wilson_interval(k, n)
            rows.append((variant, stat, k / n, float(low), float(high), n))
        rows.append((variant, "mean_draws", *mean_interval(frame.turns.to_numpy()), n))
        points = (frame.points_a + frame.points_b).to_numpy()
        rows.append((variant, "mean_points", *mean_interval(points), n))
    return pd.DataFrame(rows, columns=["variant", "statistic", "value", "low", "high", "n"])

