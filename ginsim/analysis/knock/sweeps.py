"""Many runs at once: threshold sweeps, best responses, strategy and rule comparisons.

Each comparison plays duplicate deals (every deal twice, seats swapped) so the paired
difference of points per hand cancels the luck of the deal; all runs of a study go to
the runner as one list of jobs, so every core stays busy.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...game.inputs.checks import check_jobs, check_optional_flag
from ...game.rules import Rules
from ...runner.jobs import Job
from ...runner.runner import run
from ...strategies.params import PARAMETERS
from ...strategies.presets import Strategy, parse_strategy
from ..frames import records_frame
from ..metrics import run_statistics
from ..pairs import DUPLICATE, paired_difference


@dataclass(frozen=True)
class Pair:
    """One duplicate-deal comparison, parsed once: ``a`` against ``b`` under ``rules``;
    ``label`` is the caller's key for it (a threshold, a pair of names), kept as data."""

    a: Strategy
    b: Strategy
    rules: Rules
    label: Hashable = None


@dataclass
class PairedRuns:
    """Per-hand records of several duplicate-deal runs, one frame per pair in the order
    the pairs were given."""

    pairs: list[Pair]
    frames: list[pd.DataFrame]
    wall_s: float
    total_hands: int

    def items(self) -> Iterator[tuple[Pair, pd.DataFrame]]:
        """(pair, its hands) in the order played."""
        return zip(self.pairs, self.frames, strict=True)

    def frame(self, label: Hashable) -> pd.DataFrame:
        """The hands of the pair labelled ``label``; KeyError when none is."""
        for pair, frame in self.items():
            if pair.label == label:
                return frame
        raise KeyError(label)


def play_pairs(pairs: Sequence[Pair], deals: int, seed: int = 0,
               n_jobs: int | None = None, progress: bool | None = None) -> PairedRuns:
    """Play every pair for ``deals`` duplicate deals (2 x deals hands each)."""
    n_jobs = check_jobs(n_jobs)
    progress = check_optional_flag(progress, "progress")
    jobs = [Job.make(p.a, p.b, 2 * deals, seed, p.rules, duplicate=True) for p in pairs]
    result = run(jobs, records="full", n_jobs=n_jobs, progress=progress)
    frames = []
    for records in result.records:
        frame = records_frame(records)
        frame.attrs["design"] = DUPLICATE  # so its summaries pair a - b by deal too
        frames.append(frame)
    return PairedRuns(list(pairs), frames, result.wall_s, sum(j.hands for j in jobs))


def knock_player(base: str | Strategy, threshold: int) -> Strategy:
    """``base``'s card play knocking at deadwood ``threshold`` or less (its ``knock``
    parameter set as data, as ``base:knock=threshold`` would set it)."""
    base = parse_strategy(base)
    knock = PARAMETERS["knock"]
    overrides = {**base.overrides, "knock": (float(threshold),) * knock.size}
    sep = "," if ":" in base.spec else ":"
    return Strategy(f"{base.spec}{sep}knock={threshold}", base.preset, overrides)


def _undercut_share(hands: pd.DataFrame, seat: str) -> float:
    """Share of ``seat``'s non-gin knocks that were undercut (NaN when it never knocked)."""
    knocks = hands.outcome[(hands.knocker == seat) & hands.outcome.isin(("knock", "undercut"))]
    return float((knocks == "undercut").mean()) if len(knocks) else float("nan")


def _paired_row(hands: pd.DataFrame) -> dict[str, float]:
    row = paired_difference(hands).iloc[0]
    return {"mean": row["mean"], "low": row["low"], "high": row["high"], "n": len(hands),
            "undercut_rate": _undercut_share(hands, "a"),
            "opponent_undercut_rate": _undercut_share(hands, "b")}


def threshold_sweep(thresholds: Sequence[int], opponents: Sequence[str | Strategy], deals: int,
                    seed: int = 0, rules: Rules | str | None = None,
                    base: str | Strategy = "simple", n_jobs: int | None = None,
                    progress: bool | None = None) -> tuple[pd.DataFrame, PairedRuns]:
    """Expected points per hand of ``base:knock=t`` against each opponent.

    Columns: ``threshold``, ``opponent``, ``mean`` (paired points per hand, the
    threshold player minus the opponent), ``low``, ``high`` (95%, paired by deal), ``n``
    (hands: twice the duplicate deals),
    ``undercut_rate`` (share of the threshold player's non-gin knocks that were
    undercut; missing when it never knocked), ``opponent_undercut_rate`` (the same for
    the opponent's knocks). Each run is labelled ``(t, opponent spec)``.
    """
    rules = Rules.coerce(rules)
    players = {t: knock_player(base, t) for t in thresholds}
    pairs = [Pair(players[t], opp, rules, (t, opp.spec)) for opp in map(parse_strategy, opponents)
             for t in thresholds]
    runs = play_pairs(pairs, deals, seed, n_jobs, progress)
    rows = [{"threshold": int(p.label[0]), "opponent": p.b.spec, **_paired_row(hands)}
            for p, hands in runs.items()]
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
                     rules: Rules | str | None = None, base: str | Strategy = "simple",
                     n_jobs: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Every threshold against every threshold: ``threshold_a``, ``threshold_b``,
    ``mean`` (a's paired points per hand), ``low``, ``high``, ``n`` (hands)."""
    rules = Rules.coerce(rules)
    players = {t: knock_player(base, t) for t in thresholds}
    pairs = [Pair(players[ta], players[tb], rules, (ta, tb))
             for ta in thresholds for tb in thresholds]
    runs = play_pairs(pairs, deals, seed, n_jobs, progress)
    rows = [{"threshold_a": int(p.label[0]), "threshold_b": int(p.label[1]),
             **_paired_row(hands)} for p, hands in runs.items()]
    return pd.DataFrame(rows).drop(columns=["undercut_rate", "opponent_undercut_rate"])


def strategy_matrix(strategies: Sequence[str | Strategy], opponents: Sequence[str | Strategy],
                    deals: int, seed: int = 0, rules: Rules | str | None = None,
                    n_jobs: int | None = None, progress: bool | None = None
                    ) -> tuple[pd.DataFrame, PairedRuns]:
    """Paired points per hand of each strategy against each opponent: ``strategy``,
    ``opponent`` (their spec text), ``mean``, ``low``, ``high``, ``n`` (hands),
    ``undercut_rate``, ``opponent_undercut_rate``. Each run is labelled
    ``(strategy spec, opponent spec)``."""
    rules = Rules.coerce(rules)
    players = [parse_strategy(s) for s in strategies]
    pairs = [Pair(s, o, rules, (s.spec, o.spec)) for o in map(parse_strategy, opponents)
             for s in players]
    runs = play_pairs(pairs, deals, seed, n_jobs, progress)
    rows = [{"strategy": p.a.spec, "opponent": p.b.spec, **_paired_row(hands)}
            for p, hands in runs.items()]
    return pd.DataFrame(rows), runs


def variant_comparison(variants: Sequence[Rules | str], a: str | Strategy = "simple",
                       b: str | Strategy = "simple", hands: int = 100_000, seed: int = 0,
                       n_jobs: int | None = None, progress: bool | None = None
                       ) -> pd.DataFrame:
    """The same strategies under several rules (Rules objects, preset names or specs such
    as ``modern:knock_limit=8``): one row per variant (named by :meth:`Rules.spec`) x
    statistic (``gin_rate``, ``undercut_rate``, ``dead_rate``, ``mean_draws``,
    ``mean_points``) with ``value``, ``low``, ``high``, ``n``, ``deals``
    (:func:`~ginsim.analysis.metrics.run_statistics`: counted by deal, a mirrored deal
    once). ``mean_points`` is points scored per hand by both players together."""
    deals = max(hands // 2, 1)
    a, b = parse_strategy(a), parse_strategy(b)
    pairs = [Pair(a, b, rules, rules.spec()) for rules in map(Rules.coerce, variants)]
    runs = play_pairs(pairs, deals, seed, n_jobs, progress)
    tables = [run_statistics(frame).assign(variant=p.label) for p, frame in runs.items()]
    return pd.concat(tables, ignore_index=True)[["variant", "statistic", "value", "low",
                                                 "high", "n", "deals"]]

