"""The report's studies: each runs its simulations and returns tidy tables and the
plain-words answer, with no charts or files (those are ``ginsim.reports``).

- ``knock``: when should I knock? A threshold sweep against several opponents (paired
  duplicate deals), the best response to each, a threshold x threshold matrix, undercut
  rates by deadwood and stock left, and the counterfactual knock chart.
- ``strategies``: every preset against a set of opponents.
- ``variants``: the same strategies under every rules preset, and game-level win
  probabilities.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from .. import __version__
from ..game.rules import Rules
from .games import game_summary, play_games
from .knock_chart import decisions_frame, knock_chart, plain_words
from .metrics import (
    cells_from_hands,
    expected_points,
    hand_length,
    outcome_mix,
    turns_from_hands,
    undercut_by_deadwood,
    undercut_by_deadwood_stock,
)
from .sweeps import (
    best_response,
    strategy_matrix,
    threshold_matrix,
    threshold_sweep,
    variant_comparison,
)

STUDIES = ("knock", "strategies", "variants")
DEFAULT_HANDS = {"knock": 200_000, "strategies": 200_000, "variants": 200_000}


@dataclass
class StudyResult:
    """What a study found: named tables, an answer in words, and how it was run."""

    name: str
    answer: str
    tables: dict[str, pd.DataFrame]
    notes: dict[str, str] = field(default_factory=dict)
    methods: dict[str, str] = field(default_factory=dict)


def _methods(rules: Rules, hands: int, seed: int, wall: float, extra: dict[str, str]
             ) -> dict[str, str]:
    return {"ginsim version": __version__, "rules": f"{rules.name()} ({rules.to_dict()})",
            "hands per comparison": f"{hands:,}", "seed": str(seed),
            "run time": f"{wall:.1f} s", **extra}


def knock_study(hands: int = DEFAULT_HANDS["knock"], seed: int = 1,
                rules: Rules | str | None = None,
                opponents: Sequence[str] = ("simple", "memory2"),
                thresholds: Sequence[int] = tuple(range(11)), n_jobs: int | None = None,
                progress: bool | None = None) -> StudyResult:
    """When should I knock? See the module docstring. ``hands`` per comparison."""
    rules = Rules.coerce(rules)
    t0 = time.perf_counter()
    deals = max(hands // 2, 1)
    sweep, runs = threshold_sweep(thresholds, opponents, deals, seed, rules, n_jobs=n_jobs,
                                  progress=progress)
    best = best_response(sweep)
    grid = [t for t in thresholds if t % 2 == 0]
    matrix = threshold_matrix(grid, max(deals // 4, 1), seed + 1, rules, n_jobs=n_jobs,
                              progress=progress)
    baseline = runs.hands[(f"simple:knock={max(thresholds)}", opponents[0], rules.name())]
    cells = cells_from_hands(baseline)
    chart_frame = decisions_frame("simple", opponents[0], hands, seed + 2, rules)
    chart = knock_chart(chart_frame)
    tables = {
        "threshold_sweep": sweep,
        "best_response": best,
        "threshold_matrix": matrix,
        "undercut_by_deadwood": undercut_by_deadwood(cells),
        "undercut_by_deadwood_stock": undercut_by_deadwood_stock(cells),
        "knock_chart": chart,
        "outcome_mix": outcome_mix(cells, label=f"simple vs {opponents[0]}"),
        "hand_length": hand_length(turns_from_hands(baseline)),
    }
    lines = []
    for row in best.itertuples():
        lines.append(f"against `{row.opponent}`, the best fixed threshold is to knock only "
                     f"at deadwood <= {row.best_threshold} ({row.mean:+.2f} points per hand "
                     f"more than the opponent, paired 95% CI "
                     f"[{row.low:+.2f}, {row.high:+.2f}]; next best {row.runner_up}: "
                     f"{row.runner_up_mean:+.2f})")
    answer = "Knock thresholds: " + "; ".join(lines) + ". " + plain_words(chart, opponents[0])
    width = float((sweep["high"] - sweep["low"]).max() / 2)
    wall = time.perf_counter() - t0
    methods = _methods(rules, hands, seed, wall, {
        "sweep": f"simple:knock=t for t in {list(thresholds)} against {list(opponents)}, "
                 f"{deals:,} duplicate deals each (every deal played twice, seats swapped)",
        "intervals": f"paired by deal, normal 95%; widest half-width {width:.3f} points/hand",
        "knock chart": f"{len(chart_frame):,} decision points of `simple` against "
                       f"`{opponents[0]}`, knock now vs wait one turn from the same cards",
        "hands played": f"{runs.total_hands + len(matrix) * 2 * max(deals // 4, 1) + hands:,}",
    })
    return StudyResult("knock", answer, tables, methods=methods)


def strategies_study(hands: int = DEFAULT_HANDS["strategies"], seed: int = 1,
                     rules: Rules | str | None = None,
                     strategies: Sequence[str] = ("simple", "memory1", "memory2", "gin_hunter",
                                                  "early_knocker", "chart"),
                     opponents: Sequence[str] = ("simple", "memory2"),
                     n_jobs: int | None = None, progress: bool | None = None) -> StudyResult:
    """Which strategy is better? Every strategy against every opponent (paired)."""
    rules = Rules.coerce(rules)
    t0 = time.perf_counter()
    matrix, runs = strategy_matrix(strategies, opponents, max(hands // 2, 1), seed, rules,
                                   n_jobs=n_jobs, progress=progress)
    mixes = pd.concat([outcome_mix(cells_from_hands(frame), label=f"{a} vs {b}")
                       for (a, b, _), frame in runs.hands.items()], ignore_index=True)
    points = pd.concat([expected_points(cells_from_hands(frame)).assign(strategy=a, opponent=b)
                        for (a, b, _), frame in runs.hands.items()], ignore_index=True)
    best = matrix.loc[matrix.groupby("opponent", sort=False)["mean"].idxmax()]
    answer = "Best against each opponent: " + "; ".join(
        f"`{r.strategy}` against `{r.opponent}` ({r.mean:+.2f} points per hand, 95% CI "
        f"[{r.low:+.2f}, {r.high:+.2f}])" for r in best.itertuples()) + "."
    methods = _methods(rules, hands, seed, time.perf_counter() - t0, {
        "design": "duplicate deals, paired by deal", "strategies": ", ".join(strategies)})
    return StudyResult("strategies", answer, {"strategy_matrix": matrix, "outcome_mix": mixes,
                                              "expected_points": points}, methods=methods)


def variants_study(hands: int = DEFAULT_HANDS["variants"], seed: int = 1,
                   variants: Sequence[str] = ("modern", "classic", "palace", "oklahoma",
                                              "straight", "tedesco", "eleven", "big_gin"),
                   games: int = 20_000, n_jobs: int | None = None,
                   progress: bool | None = None) -> StudyResult:
    """The same strategies under several rule sets, and who wins games to 100."""
    t0 = time.perf_counter()
    comparison = variant_comparison(variants, "simple", "simple", hands, seed, n_jobs,
                                    progress)
    game_rows = play_games("memory2", "simple", games, seed, "modern")
    summary = game_summary(game_rows)
    p = summary.set_index("statistic").loc["p_a_wins_game"]
    wide = comparison.pivot(index="variant", columns="statistic", values="value")
    answer = (f"Across rule sets, simple vs simple ends in gin most often under "
              f"{wide['gin_rate'].idxmax()} ({wide['gin_rate'].max():.1%}) and is undercut "
              f"most under {wide['undercut_rate'].idxmax()}; memory2 wins a modern game to "
              f"100 against simple with probability {p.value:.3f} (95% CI [{p.low:.3f}, "
              f"{p.high:.3f}], {games:,} games).")
    methods = _methods(Rules(), hands, seed, time.perf_counter() - t0, {
        "variants": ", ".join(variants), "games": f"{games:,} games memory2 vs simple"})
    tables = {"variant_comparison": comparison, "game_summary": summary}
    return StudyResult("variants", answer, tables, methods=methods)


def run_study(name: str, hands: int | None = None, seed: int = 1,
              rules: Rules | str | None = None, n_jobs: int | None = None,
              progress: bool | None = None) -> StudyResult:
    """Run the study ``name`` (one of STUDIES) at ``hands`` per comparison."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r}: choose one of {', '.join(STUDIES)} or all")
    size = DEFAULT_HANDS[name] if hands is None else hands
    if name == "knock":
        return knock_study(size, seed, rules, n_jobs=n_jobs, progress=progress)
    if name == "strategies":
        return strategies_study(size, seed, rules, n_jobs=n_jobs, progress=progress)
    return variants_study(size, seed, n_jobs=n_jobs, progress=progress)


def stored_study(path: str) -> StudyResult:
    """A report on a stored run (``ginsim simulate --out DIR``), from its aggregate
    tables: outcome mix, undercut rates, expected points and hand length."""
    from .results import load

    result = load(path)
    tables = result.tables
    cells, turns = tables["cells"], tables["turns"]
    jobs = result.manifest.get("jobs", [])
    pair = " and ".join(f"`{j.get('a')}` vs `{j.get('b')}`" for j in jobs) or "the stored run"
    points = expected_points(cells)
    diff = points.set_index("statistic").loc["points_a_minus_b"]
    mix = outcome_mix(cells, label=pair)
    answer = (f"In the stored run ({pair}, {int(cells.hands.sum()):,} hands), seat a scores "
              f"{diff['mean']:+.2f} points per hand more than seat b (95% CI "
              f"[{diff['low']:+.2f}, {diff['high']:+.2f}]).")
    methods = {"store": str(path), "ginsim version": str(result.manifest.get("version", "")),
               "seed": str(jobs[0].get("seed", "")) if jobs else "",
               "rules": str(jobs[0].get("rules", "")) if jobs else ""}
    return StudyResult("stored", answer, {
        "outcome_mix": mix, "undercut_by_deadwood": undercut_by_deadwood(cells),
        "undercut_by_deadwood_stock": undercut_by_deadwood_stock(cells),
        "expected_points": points, "hand_length": hand_length(turns)}, methods=methods)
