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

import dataclasses
import math
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._version import __version__
from ..game.checks import check_count, check_jobs, check_optional_flag
from ..game.rules import Rules, brief
from ..simulator.limits import MAX_HANDS
from ..strategies.presets import parse_strategy
from .equilibrium import TARGET, equilibrium, equilibrium_advice, result_advice
from .frames import stock_in_play_order
from .games import game_summary, play_games
from .knock_card import MEASURED_HERE, KnockAdvice, card_words, panel_words, why_words
from .knock_chart import chart_table, decisions_frame, number_ranges, plain_words
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
#: The strategies study's players: the presets, the equilibrium, the folk advice and the
#: search player (which plays fewer deals: :data:`MC_DEALS`).
STUDY_STRATEGIES = ("simple", "memory1", "memory2", "gin_hunter", "early_knocker", "chart",
                    "equilibrium", "asap", "knock5", "gin_only", "pile_wary", "mc")
MC_DEALS = 300
#: The fewest hands per pass at which a report computes an equilibrium in the run (the
#: shipped charts use 150,000; a best response on far fewer cannot test a chart).
MIN_ANSWER_HANDS = 100_000
WHY_HANDS = 50_000  # hands of the card's player against itself behind its why sentence


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


def rules_name(rules: Rules) -> str:
    """The rules' name in words: "big gin rules" for a preset, "modern rules with
    undercut bonus 10" for a preset with fields changed."""
    preset, _, changes = rules.spec().partition(":")
    words = preset.replace("_", " ") + " rules"
    if changes:
        words += " with " + ", ".join(c.replace("_", " ").replace("=", " ")
                                      for c in changes.split(","))
    return words


def rules_brief(rules: Rules) -> str:
    """The rules in a short phrase with the numbers that decide knocking, e.g. "modern
    rules (knock at 10 or less, gin 25, undercut 25, ties undercut)"."""
    name, _, rest = rules_words(rules).partition(" (")
    rest = (rest.replace("gin bonus", "gin").replace("undercut bonus", "undercut")
            .replace("a tie counts as an undercut", "ties undercut")
            .replace("a tie is no undercut", "ties do not undercut"))
    return f"{name} ({rest}"


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
    return f"{rules_name(rules)} ({', '.join(parts)})"


def knock_answer(advice: KnockAdvice | None, rules: Rules, reason: str = "") -> str:
    """The report's answer: at most three sentences and :data:`ANSWER_LIMIT` characters
    saying what the knock card shows (with its condition on the opponent's pile takes),
    under which rules, what it is worth per hand against whom, and for which card play
    its guarantee holds. Without advice it says plainly that there is none and why."""
    if advice is None:
        return (f"No equilibrium knock chart answers {rules_words(rules)}: {reason} Make "
                f"one with `ginsim equilibrium --rules {rules.spec()} --out DIR` and pass "
                "it as `--chart DIR/equilibrium.json`.")
    top = advice.headline
    mean, low, high = float(top["mean"]), float(top["low"]), float(top["high"])
    interval = (f"95% CI {signed(low)} to {signed(high)}" if math.isfinite(low) and
                math.isfinite(high) else "95% CI n/a: too few hands")
    worth = (f"Under {rules_brief(rules)} it nets {signed(mean)} points per hand against "
             f"`{top['opponent']}` ({interval}, {2 * int(top['deals']):,} hands"
             f"{'' if top['where'] == MEASURED_HERE else ', as recorded with the chart'}).")
    if advice.exploits:
        caveat = (f"It is a best response to the fixed `{advice.exploits}` bot, an exploit "
                  "of that bot, not advice against a player who adapts.")
    else:
        bound = (f"at most {max(advice.exploitability[2], 0):.2f} points per hand (95% "
                 "bound)" if advice.exploitability is not None else "little")
        caveat = (f"A `{advice.card_play}`-card-play player who adapts when to knock gains "
                  f"{bound} against it.")
    first = advice.card[advice.card.opp_taken.astype(str) == "0"]
    for what in (card_words(advice.card),
                 f"opponent took no pile card: {panel_words(first)}; after pile takes, see "
                 "the knock card's other panels",
                 "knock as the knock card below shows: its panels differ by the pile cards "
                 "the opponent has taken"):
        answer = f"{what[:1].upper()}{what[1:]}. {worth} {caveat}"
        if len(answer) <= ANSWER_LIMIT:
            return answer
    return answer[:ANSWER_LIMIT - 1].rstrip() + "…"


def signed(value: float) -> str:
    """Points with a sign and two decimals; never a negative zero."""
    text = f"{value:+.2f}"
    return "+0.00" if text == "-0.00" else text


def _methods(rules: Rules, hands: int, seed: int, wall: float, extra: dict[str, str]
             ) -> dict[str, str]:
    return {"ginsim version": __version__,
            "rules": f"{rules_words(rules)}, as `--rules {rules.spec()}`; every field "
                     "under 'Rules in force'",
            "hands per comparison": f"{2 * max(hands // 2, 1):,} hands "
                                    f"({max(hands // 2, 1):,} duplicate deals)",
            "seed": str(seed), "run time": f"{wall:.1f} s", **extra}


def resolve_advice(rules: Rules, hands: int, seed: int, chart: str | None = None,
                   n_jobs: int | None = None, progress: bool | None = None
                   ) -> tuple[KnockAdvice | None, str]:
    """The equilibrium advice for ``rules``: from ``chart`` (a file), the shipped chart
    made under the same hand rules, or one computed in this run (``hands`` per pass,
    warm-started from the modern chart; a progress line and its cost on stderr). Returns
    (advice, "") or (None, why there is none). Below :data:`MIN_ANSWER_HANDS` nothing is
    computed: a best response trained on fewer hands cannot test the chart."""
    advice = equilibrium_advice(rules, chart)
    if advice is not None:
        return advice, ""
    if hands < MIN_ANSWER_HANDS:
        return None, (f"none is shipped for these rules, and at {hands:,} hands per pass a "
                      "best response has too little evidence to test one (the report "
                      f"computes one from --hands {MIN_ANSWER_HANDS:,} up).")
    t0 = time.perf_counter()
    if progress is not False:
        print(f"no shipped knock chart for {rules.spec()} rules: computing an equilibrium in "
              f"this run ({hands:,} hands per pass; about a minute per 100,000 hands on "
              "two cores) ...", file=sys.stderr, flush=True)
    result = equilibrium(rules=rules, hands=hands, seed=seed,
                         n_jobs=n_jobs or 2, start="equilibrium", progress=bool(progress))
    if progress is not False:
        print(f"equilibrium computed in {time.perf_counter() - t0:.0f} s: exploitability "
              f"{result.exploitability[0]:+.3f} (95% CI {result.exploitability[1]:+.3f} "
              f"to {result.exploitability[2]:+.3f})", file=sys.stderr, flush=True)
    if not result.measured:
        return None, (f"at {hands:,} hands per pass the best response could not move, so "
                      "its exploitability was not measured; give more --hands.")
    if not result.converged:
        return None, (f"the equilibrium computed at {hands:,} hands per pass did not reach "
                      f"an exploitability bound of {TARGET:.2f} points per hand (it stopped "
                      f"at {result.exploitability[2]:.2f}); give more --hands.")
    return result_advice(result), ""


def _measure(advice: KnockAdvice, opponents: Sequence[str], deals: int, seed: int,
             rules: Rules, n_jobs: int | None, progress: bool | None
             ) -> tuple[KnockAdvice, pd.DataFrame]:
    """``advice`` with its values against ``opponents`` measured on this run's duplicate
    deals (the same deals as the threshold sweep), and the decision points of its player
    against itself (for the card's why sentence)."""
    with tempfile.TemporaryDirectory() as tmp:
        player = advice.player
        if player is None:
            path = Path(tmp) / "equilibrium_chart.csv"
            path.write_text(advice.chart.to_csv())
            player = f"{advice.card_play}:chart={path}"
        matrix, _ = strategy_matrix([player], opponents, deals, seed, rules, n_jobs=n_jobs,
                                    progress=progress)
        decisions = decisions_frame(player, player, min(2 * deals, WHY_HANDS), seed + 3,
                                    rules)
    values = matrix.assign(deals=matrix.n // 2, where=MEASURED_HERE,
                           base=matrix.opponent != advice.card_play)
    # The headline is the card play both seats of the equilibrium share, when measured.
    values = values.sort_values("base", kind="stable")[["opponent", "mean", "low", "high",
                                                        "deals", "where"]]
    why = why_words(advice.card, decisions, rules.gin_bonus)
    return dataclasses.replace(advice, values=values.reset_index(drop=True), why=why), matrix


def knock_study(hands: int = DEFAULT_HANDS["knock"], seed: int = DEFAULT_SEED,
                rules: Rules | str | None = None,
                opponents: Sequence[str] = ("simple", "memory2"),
                thresholds: Sequence[int] = tuple(range(11)), n_jobs: int | None = None,
                progress: bool | None = None, advice: KnockAdvice | None = None,
                chart: str | None = None) -> StudyResult:
    """When should I knock? See the module docstring. ``hands`` per comparison.

    The answer and the knock card come from ``advice``, else from :func:`resolve_advice`
    (``chart``, the shipped equilibrium chart of these rules, or one computed in the
    run); their values against ``opponents`` are measured in this run. Where no
    equilibrium is to be had the answer says so, and the best fixed thresholds stay in
    their own sections as exploits of those bots.
    """
    rules = Rules.coerce(rules)
    if not rules.knocks:
        raise ValueError(f"the knock study needs rules that allow knocking; {rules.spec()} "
                         "rules are gin only (try --study variants)")
    t0 = time.perf_counter()
    deals = max(hands // 2, 1)
    reason = ""
    answer_hands = 0  # hands played to measure the answer's card
    if advice is None:
        advice, reason = resolve_advice(rules, hands, seed, chart, n_jobs, progress)
    sweep, runs = threshold_sweep(thresholds, opponents, deals, seed, rules, n_jobs=n_jobs,
                                  progress=progress)
    best = best_response(sweep)
    if advice is not None and advice.exploits is None:
        advice, measured = _measure(advice, opponents, deals, seed, rules, n_jobs, progress)
        answer_hands = int(measured.n.sum()) + min(2 * deals, WHY_HANDS)
        best = best.merge(measured[["opponent", "mean"]].rename(
            columns={"mean": "equilibrium_mean"}), on="opponent", how="left")
    grid = [t for t in thresholds if t % 2 == 0]
    matrix = threshold_matrix(grid, max(deals // 4, 1), seed + 1, rules, n_jobs=n_jobs,
                              progress=progress)
    baseline = runs.hands[(f"simple:knock={max(thresholds)}", opponents[0], rules.spec())]
    cells = cells_from_hands(baseline)
    chart_frame = decisions_frame("simple", opponents[0], hands, seed + 2, rules)
    knock_chart = chart_table(chart_frame)
    tables = {
        "threshold_sweep": sweep,
        "best_response": best,
        "threshold_matrix": matrix,
        "undercut_by_deadwood": undercut_by_deadwood(cells),
        "undercut_by_deadwood_stock": stock_in_play_order(undercut_by_deadwood_stock(cells)),
        "knock_chart": knock_chart,
        "outcome_mix": outcome_mix(cells, label=f"simple:knock={max(thresholds)} vs "
                                                f"{opponents[0]}"),
        "hand_length": hand_length(turns_from_hands(baseline)),
    }
    if advice is not None:
        tables["knock_card"] = advice.card
        tables["answer_values"] = advice.values
    notes = {"chart_words": plain_words(knock_chart, opponents[0])}
    width = float((sweep["high"] - sweep["low"]).max() / 2)
    played = runs.total_hands + len(matrix) * 2 * max(deals // 4, 1) + hands + answer_hands
    wall = time.perf_counter() - t0
    extra = {
        "sweep": f"`simple:knock=t` for t = {number_ranges(sorted(thresholds))} against "
                 f"{', '.join(f'`{o}`' for o in opponents)}, {deals:,} duplicate deals "
                 "each (every deal played twice, seats swapped)",
        "intervals": f"paired by deal, normal 95%; widest half-width {width:.3f} points/hand",
        "knock chart": f"{len(chart_frame):,} decision points of `simple` against "
                       f"`{opponents[0]}`, knock now vs wait one turn from the same cards",
        "hands played": f"{played:,}",
    }
    if advice is not None:
        extra = {"answer": f"the knock card is {advice.source}; its values against "
                           f"{', '.join(f'`{o}`' for o in opponents)} were measured in this "
                           f"run on the sweep's deals; its exploitability is from "
                           f"{advice.provenance}", **extra}
    methods = _methods(rules, hands, seed, wall, extra)
    return StudyResult("knock", knock_answer(advice, rules, reason), tables, notes=notes,
                       methods=methods, rules=rules, advice=advice)


def mirror(a: str, b: str) -> bool:
    """Whether two specs play alike: their match on duplicate deals is 0 by construction."""
    return bool(np.array_equal(parse_strategy(a).vector, parse_strategy(b).vector))


def strategies_study(hands: int = DEFAULT_HANDS["strategies"], seed: int = DEFAULT_SEED,
                     rules: Rules | str | None = None,
                     strategies: Sequence[str] = STUDY_STRATEGIES,
                     opponents: Sequence[str] = ("simple", "memory2"),
                     n_jobs: int | None = None, progress: bool | None = None) -> StudyResult:
    """Which strategy is better? Every strategy against every opponent (paired duplicate
    deals, the same deals for every pair). Mirror matches (a strategy against one that
    plays alike) are left out; the search player ``mc`` plays at most
    :data:`MC_DEALS` deals per opponent (it plays tens of hands a second)."""
    rules = Rules.coerce(rules)
    t0 = time.perf_counter()
    deals = max(hands // 2, 1)
    fast = [x for x in strategies if not parse_strategy(x).is_mc]
    slow = [x for x in strategies if parse_strategy(x).is_mc]
    matrix, runs = strategy_matrix(fast, opponents, deals, seed, rules, n_jobs=n_jobs,
                                   progress=progress)
    frames = dict(runs.hands)
    if slow:
        extra, slow_runs = strategy_matrix(slow, opponents, min(deals, MC_DEALS), seed, rules,
                                           n_jobs=n_jobs, progress=progress)
        matrix = pd.concat([matrix, extra], ignore_index=True)
        frames.update(slow_runs.hands)
    keep = [not mirror(a, b) for a, b in zip(matrix.strategy, matrix.opponent, strict=True)]
    matrix = matrix[keep].reset_index(drop=True)
    frames = {k: v for k, v in frames.items() if not mirror(k[0], k[1])}
    mixes = pd.concat([outcome_mix(cells_from_hands(frame), label=f"{a} vs {b}")
                       for (a, b, _), frame in frames.items()], ignore_index=True)
    points = pd.concat([expected_points(cells_from_hands(frame)).assign(strategy=a, opponent=b)
                        for (a, b, _), frame in frames.items()], ignore_index=True)
    best = matrix.loc[matrix.groupby("opponent", sort=False)["mean"].idxmax()]
    answer = "Best against each opponent: " + "; ".join(
        f"`{r.strategy}` against `{r.opponent}` ({signed(r.mean)} points per hand, 95% CI "
        f"[{signed(r.low)}, {signed(r.high)}], {int(r.n):,} hands)"
        for r in best.itertuples()) + "."
    extra_methods = {"design": "duplicate deals, paired by deal; the same deals for every "
                               "pair; mirror matches left out",
                     "strategies": ", ".join(strategies)}
    if slow:
        extra_methods["search player"] = (f"{', '.join(slow)} played "
                                          f"{min(deals, MC_DEALS):,} duplicate deals per "
                                          "opponent (a search player plays tens of hands a "
                                          "second)")
    methods = _methods(rules, hands, seed, time.perf_counter() - t0, extra_methods)
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
    words = {v: rules_name(Rules.coerce(v)) for v in variants}
    answer = (f"Across rule sets, `simple` against `simple` ends in gin most often under "
              f"{words[wide['gin_rate'].idxmax()]} ({wide['gin_rate'].max():.1%} of hands) "
              f"and is undercut most often under {words[wide['undercut_rate'].idxmax()]}; "
              f"`memory2` wins a game to {rules.target} under {rules_name(rules)} against "
              f"`simple` {p.value:.1%} of the time (95% CI {p.low:.1%}–{p.high:.1%}, "
              f"{games:,} games).")
    methods = _methods(rules, hands, seed, time.perf_counter() - t0, {
        "variants": ", ".join(variants),
        "games": f"{games:,} games memory2 vs simple under `{spec}` rules"})
    tables = {"variant_comparison": comparison, "game_summary": summary}
    return StudyResult("variants", answer, tables, methods=methods, rules=rules)


def run_study(name: str, hands: int | None = None, seed: int = DEFAULT_SEED,
              rules: Rules | str | None = None, n_jobs: int | None = None,
              progress: bool | None = None, chart: str | None = None) -> StudyResult:
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
            return knock_study(size, seed, rules, n_jobs=n_jobs, progress=progress,
                               chart=chart)
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
