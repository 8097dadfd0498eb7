"""The report's studies: each runs its simulations and returns tidy tables and the
plain-words answer, with no charts or files (those are ``ginsim.reports``).

- ``knock``: when should I knock? A threshold sweep against several opponents (paired
  duplicate deals), the best response to each, a threshold x threshold matrix, undercut
  rates by deadwood and stock left, and the counterfactual knock chart.
- ``strategies``: every preset against a set of opponents.
- ``variants``: the same strategies under every rules preset (and the rules given, when
  they are none of them), and game-level win probabilities under the rules given.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._version import __version__
from ..game.checks import check_count, check_jobs, check_optional_flag
from ..game.rules import Rules, brief
from ..simulator.limits import MAX_HANDS
from .equilibrium import equilibrium_advice
from .frames import stock_in_play_order
from .games import game_summary, play_games
from .knock_chart import (
    KnockAdvice,
    card_words,
    chart_table,
    decisions_frame,
    plain_words,
    threshold_card,
)
from .metrics import (
    cells_from_hands,
    expected_points,
    hand_length,
    outcome_mix,
    turns_from_hands,
    undercut_by_deadwood,
    undercut_by_deadwood_stock,
)
from .results import load
from .sweeps import (
    best_response,
    strategy_matrix,
    threshold_matrix,
    threshold_sweep,
    variant_comparison,
)

STUDIES = ("knock", "strategies", "variants")
DEFAULT_HANDS = {"knock": 200_000, "strategies": 200_000, "variants": 200_000}
DEFAULT_SEED = 0  # the one default seed of every command and study
ANSWER_LIMIT = 500  # characters of the report's answer


@dataclass
class StudyResult:
    """What a study found: named tables, an answer in words, and how it was run."""

    name: str
    answer: str
    tables: dict[str, pd.DataFrame]
    notes: dict[str, str] = field(default_factory=dict)
    methods: dict[str, str] = field(default_factory=dict)
    rules: Rules | None = None
    advice: KnockAdvice | None = None


def rules_words(rules: Rules) -> str:
    """The rules that decide when to knock, in a short phrase: the rules spec (a preset
    name, or a preset and the fields changed), the knock limit, the gin and undercut
    bonuses and the tie rule."""
    if rules.mahjong:
        limit = "Mahjong gin: no knocking, several pile cards may be taken, melds on the table"
    elif rules.oklahoma:
        limit = "the upcard sets the knock limit"
    elif rules.knock_limit == 0:
        limit = "no knocking, gin only"
    else:
        limit = f"knock at {rules.knock_limit} or less"
    tie = "a tie counts as an undercut" if rules.undercut_on_tie else "a tie is no undercut"
    parts = [limit, f"gin bonus {rules.gin_bonus}", f"undercut bonus {rules.undercut_bonus}",
             tie]
    if rules.big_gin_bonus is not None:
        parts.append(f"big gin {rules.big_gin_bonus}")
    if rules.deal == "eleven":
        parts.append("eleven-card deal")
    return f"`{rules.spec()}` rules ({', '.join(parts)})"


def knock_answer(advice: KnockAdvice, rules: Rules) -> str:
    """The report's answer: at most three sentences and :data:`ANSWER_LIMIT` characters
    saying what to do (read off ``advice.card``), under which rules, what it is worth per
    hand, and whether it is an exploit of a fixed bot."""
    mean, low, high = advice.value
    interval = (f"95% CI {low:+.2f} to {high:+.2f}" if math.isfinite(low) and
                math.isfinite(high) else "95% CI n/a: too few hands")
    worth = (f"Under {rules_words(rules)} this nets {mean:+.2f} points per hand against "
             f"`{advice.measured_against}` ({interval}).")
    if advice.exploits:
        caveat = (f"It is a best response to the fixed `{advice.exploits}` bot, an exploit "
                  "of that bot, not advice against a player who adapts.")
    else:
        caveat = "A player who adapts gains little against it."
        if advice.exploitability is not None:
            caveat = (f"A player who adapts gains at most "
                      f"{max(advice.exploitability[2], 0):.2f} points per hand against it "
                      "(95% bound).")
    for what in (card_words(advice.card), "knock as the knock card below shows"):
        answer = f"{what[:1].upper()}{what[1:]} (see the knock card). {worth} {caveat}"
        if len(answer) <= ANSWER_LIMIT:
            return answer
    return answer[:ANSWER_LIMIT - 1].rstrip() + "…"


def _methods(rules: Rules, hands: int, seed: int, wall: float, extra: dict[str, str]
             ) -> dict[str, str]:
    return {"ginsim version": __version__,
            "rules": f"{rules_words(rules)}; every field under 'Rules in force'",
            "hands per comparison": f"{hands:,}", "seed": str(seed),
            "run time": f"{wall:.1f} s", **extra}


def knock_study(hands: int = DEFAULT_HANDS["knock"], seed: int = DEFAULT_SEED,
                rules: Rules | str | None = None,
                opponents: Sequence[str] = ("simple", "memory2"),
                thresholds: Sequence[int] = tuple(range(11)), n_jobs: int | None = None,
                progress: bool | None = None, advice: KnockAdvice | None = None
                ) -> StudyResult:
    """When should I knock? See the module docstring. ``hands`` per comparison.

    The answer and the knock card come from ``advice`` (:func:`run_study` gives the
    shipped equilibrium chart's, :func:`~ginsim.analysis.equilibrium.equilibrium_advice`,
    when it was made under ``rules``); without one they come from the best fixed
    threshold against ``opponents[0]``, labelled as an exploit of that bot.
    """
    rules = Rules.coerce(rules)
    if not rules.knocks:
        raise ValueError(f"the knock study needs rules that allow knocking; {rules.spec()} "
                         "rules are gin only (try --study variants)")
    t0 = time.perf_counter()
    deals = max(hands // 2, 1)
    sweep, runs = threshold_sweep(thresholds, opponents, deals, seed, rules, n_jobs=n_jobs,
                                  progress=progress)
    best = best_response(sweep)
    grid = [t for t in thresholds if t % 2 == 0]
    matrix = threshold_matrix(grid, max(deals // 4, 1), seed + 1, rules, n_jobs=n_jobs,
                              progress=progress)
    baseline = runs.hands[(f"simple:knock={max(thresholds)}", opponents[0], rules.spec())]
    cells = cells_from_hands(baseline)
    chart_frame = decisions_frame("simple", opponents[0], hands, seed + 2, rules)
    chart = chart_table(chart_frame)
    if advice is None:
        top = best.iloc[0]
        advice = KnockAdvice(
            card=threshold_card(int(top.best_threshold), max(rules.knock_limit, 1)),
            value=(float(top["mean"]), float(top["low"]), float(top["high"])),
            measured_against=str(top.opponent), exploits=str(top.opponent),
            source=f"the best fixed knock threshold against `{top.opponent}` "
                   f"(`simple:knock=t`, t = {min(thresholds)}..{max(thresholds)})",
            deals=int(top.n))
    tables = {
        "threshold_sweep": sweep,
        "best_response": best,
        "threshold_matrix": matrix,
        "undercut_by_deadwood": undercut_by_deadwood(cells),
        "undercut_by_deadwood_stock": stock_in_play_order(undercut_by_deadwood_stock(cells)),
        "knock_chart": chart,
        "knock_card": advice.card,
        "outcome_mix": outcome_mix(cells, label=f"simple vs {opponents[0]}"),
        "hand_length": hand_length(turns_from_hands(baseline)),
    }
    notes = {"chart_words": plain_words(chart, opponents[0])}
    width = float((sweep["high"] - sweep["low"]).max() / 2)
    wall = time.perf_counter() - t0
    methods = _methods(rules, hands, seed, wall, {
        "answer": f"the knock card is {advice.source}; its value was measured against "
                  f"`{advice.measured_against}`",
        "sweep": f"simple:knock=t for t in {list(thresholds)} against {list(opponents)}, "
                 f"{deals:,} duplicate deals each (every deal played twice, seats swapped)",
        "intervals": f"paired by deal, normal 95%; widest half-width {width:.3f} points/hand",
        "knock chart": f"{len(chart_frame):,} decision points of `simple` against "
                       f"`{opponents[0]}`, knock now vs wait one turn from the same cards",
        "hands played": f"{runs.total_hands + len(matrix) * 2 * max(deals // 4, 1) + hands:,}",
    })
    return StudyResult("knock", knock_answer(advice, rules), tables, notes=notes,
                       methods=methods, rules=rules, advice=advice)


def strategies_study(hands: int = DEFAULT_HANDS["strategies"], seed: int = DEFAULT_SEED,
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
                                              "expected_points": points}, methods=methods,
                       rules=rules)


def variants_study(hands: int = DEFAULT_HANDS["variants"], seed: int = DEFAULT_SEED,
                   variants: Sequence[str] = ("modern", "classic", "palace", "oklahoma",
                                              "straight", "tedesco", "eleven", "big_gin",
                                              "mahjong"),
                   games: int = 20_000, rules: Rules | str | None = None,
                   n_jobs: int | None = None, progress: bool | None = None) -> StudyResult:
    """The same strategies under several rule sets, and who wins games under ``rules``
    (default ``modern``). Rules given that are no listed variant join the comparison."""
    rules = Rules.coerce(rules)
    spec = rules.spec()
    variants = [Rules.coerce(v).spec() for v in variants]
    if spec not in variants:
        variants.append(spec)
    t0 = time.perf_counter()
    comparison = variant_comparison(variants, "simple", "simple", hands, seed, n_jobs,
                                    progress)
    game_rows = play_games("memory2", "simple", games, seed, rules)
    summary = game_summary(game_rows)
    p = summary.set_index("statistic").loc["p_a_wins_game"]
    wide = comparison.pivot(index="variant", columns="statistic", values="value")
    answer = (f"Across rule sets, `simple` against `simple` ends in gin most often under "
              f"`{wide['gin_rate'].idxmax()}` ({wide['gin_rate'].max():.1%} of hands) and is "
              f"undercut most often under `{wide['undercut_rate'].idxmax()}`; `memory2` wins "
              f"a `{spec}` game to {rules.target} against `simple` {p.value:.1%} of the time "
              f"(95% CI {p.low:.1%}–{p.high:.1%}, {games:,} games).")
    methods = _methods(rules, hands, seed, time.perf_counter() - t0, {
        "variants": ", ".join(variants),
        "games": f"{games:,} games memory2 vs simple under `{spec}` rules"})
    tables = {"variant_comparison": comparison, "game_summary": summary}
    return StudyResult("variants", answer, tables, methods=methods, rules=rules)


def run_study(name: str, hands: int | None = None, seed: int = DEFAULT_SEED,
              rules: Rules | str | None = None, n_jobs: int | None = None,
              progress: bool | None = None) -> StudyResult:
    """Run the study ``name`` (one of STUDIES) at ``hands`` per comparison. Intervals that
    a tiny sample cannot give are left missing (shown "n/a"), without numpy warnings."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {brief(name)}: choose one of {', '.join(STUDIES)} "
                         f"or all")
    size = DEFAULT_HANDS[name] if hands is None else check_count(hands, "hands", MAX_HANDS)
    n_jobs = check_jobs(n_jobs)
    progress = check_optional_flag(progress, "progress")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        if name == "knock":
            # The answer leads with the shipped equilibrium chart when it was made under
            # these rules; exploits of the fixed bots stay as their own sections.
            return knock_study(size, seed, rules, n_jobs=n_jobs, progress=progress,
                               advice=equilibrium_advice(rules))
        if name == "strategies":
            return strategies_study(size, seed, rules, n_jobs=n_jobs, progress=progress)
        return variants_study(size, seed, rules=rules, n_jobs=n_jobs, progress=progress)


def missing_intervals(result: StudyResult) -> int:
    """How many rows of ``result``'s tables have a value but no 95% interval (too few
    hands or decisions behind them)."""
    count = 0
    for table in result.tables.values():
        if {"low", "high"} <= set(table.columns) and "verdict" not in table.columns:
            centre = next((c for c in ("mean", "rate", "value", "gain") if c in table), None)
            if centre is None:
                continue
            has_value = table[centre].notna()
            count += int((has_value & (table["low"].isna() | table["high"].isna())).sum())
    return count


def stored_study(path: str) -> StudyResult:
    """A report on a stored run (``ginsim simulate --out DIR``), from its aggregate
    tables: outcome mix, undercut rates, expected points and hand length."""
    result = load(path)
    tables = result.tables
    cells, turns = tables["cells"], tables["turns"]
    jobs = result.manifest.get("jobs", [])
    pair = " and ".join(f"{j.get('a')} vs {j.get('b')}" for j in jobs) or "the stored run"
    points = expected_points(cells)
    diff = points.set_index("statistic").loc["points_a_minus_b"]
    mix = outcome_mix(cells, label=pair)
    answer = (f"In the stored run ({pair}, {int(cells.hands.sum()):,} hands), seat a scores "
              f"{diff['mean']:+.2f} points per hand more than seat b (95% CI "
              f"{diff['low']:+.2f} to {diff['high']:+.2f}).")
    rules = None
    if jobs and isinstance(jobs[0].get("rules"), dict):
        rules = Rules(**jobs[0]["rules"])
    version = result.manifest.get("ginsim_version") or result.manifest.get("version")
    methods = {"store": str(path), "ginsim version": str(version or "not recorded"),
               "seed": ", ".join(str(j.get("seed", "")) for j in jobs) or "not recorded",
               "rules": rules_words(rules) if rules else "not recorded"}
    return StudyResult("stored", answer, {
        "outcome_mix": mix, "undercut_by_deadwood": undercut_by_deadwood(cells),
        "undercut_by_deadwood_stock": stock_in_play_order(undercut_by_deadwood_stock(cells)),
        "expected_points": points, "hand_length": hand_length(turns)}, methods=methods,
        rules=rules)
