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

import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._version import __version__
from ..game.inputs.checks import check_count, check_jobs, check_optional_flag
from ..game.inputs.specs import brief
from ..game.rng_nb import DEFAULT_SEED, stream_seed
from ..game.rulebook.rules_in_words import rules_name, rules_words
from ..game.rules import Rules
from ..number_text import number_ranges, signed
from ..simulator.limits import MAX_JOB_HANDS
from ..strategies.presets import Strategy, parse_strategy
from .frames import stock_in_play_order
from .game_stats import game_summary, play_games
from .knock.card_by_score import game_score_tables
from .knock.knock_answer import knock_answer, resolve_advice
from .knock.knock_card import KnockAdvice
from .knock.knock_chart import chart_table, decisions_frame, plain_words
from .knock.sweeps import (
    Pair,
    best_thresholds,
    knock_player,
    strategy_matrix,
    threshold_matrix,
    threshold_sweep,
    variant_comparison,
)
from .knock.value_split import measure_card
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

STUDIES = ("knock", "strategies", "variants")
DEFAULT_HANDS = {"knock": 200_000, "strategies": 200_000, "variants": 200_000}
#: The strategies study's players: the presets, the equilibrium, the folk advice and the
#: search player (which plays fewer deals: :data:`MC_DEALS`).
STUDY_STRATEGIES = ("simple", "memory1", "memory2", "gin_hunter", "early_knocker", "chart",
                    "equilibrium", "asap", "knock5", "gin_only", "pile_wary", "mc")
MC_DEALS = 300


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
    #: knock study: the opponents (spec text) that play alike with the sweep's highest
    #: threshold, whose match against it is 0 by construction
    mirrors: tuple[str, ...] = ()
    #: seconds: ``study`` (the run, as Methods' run time says), ``compiling`` (kernels
    #: compiled before it, :func:`note_compiling`)
    seconds: dict[str, float] = field(default_factory=dict)


def _methods(rules: Rules, hands: int, seed: int, wall: float, extra: dict[str, str]
             ) -> dict[str, str]:
    return {"ginsim version": __version__,
            "rules": f"{rules_words(rules)}, as `--rules {rules.spec()}`; every field "
                     "under 'Rules in force'",
            "hands per comparison": f"{2 * max(hands // 2, 1):,} hands "
                                    f"({max(hands // 2, 1):,} duplicate deals)",
            "seed": str(seed), "run time": f"{wall:.1f} s running the study", **extra}


def note_compiling(results: Sequence[StudyResult], seconds: float) -> None:
    """Record that ``seconds`` of compiling kernels came before ``results``' runs (the
    command line compiles first), in ``seconds`` and in Methods' run time line."""
    for r in results:
        if seconds > 0 and "study" in r.seconds:
            r.seconds["compiling"] = seconds
            r.methods["run time"] = (f"{r.seconds['study']:.1f} s running the study, after "
                                     f"{seconds:.1f} s compiling kernels (first run only)")


def knock_study(hands: int = DEFAULT_HANDS["knock"], seed: int = DEFAULT_SEED,
                rules: Rules | str | None = None,
                opponents: Sequence[str | Strategy] = ("simple", "memory2"),
                thresholds: Sequence[int] = tuple(range(11)), n_jobs: int | None = None,
                progress: bool | None = None, advice: KnockAdvice | None = None,
                chart: str | None = None) -> StudyResult:
    """When should I knock? See the module docstring. ``hands`` per comparison.

    The answer and the knock card come from ``advice``, else from :func:`resolve_advice`
    (``chart``, the shipped equilibrium chart of these rules, or one computed in the
    run); their values against ``opponents`` are measured in this run. Where no
    equilibrium is to be had the answer says so, and the best fixed thresholds stay in
    their own sections as exploits of those bots. Its streams of deals come from
    :func:`~ginsim.game.rng_nb.stream_seed`.
    """
    rules = Rules.coerce(rules)
    opponents = [parse_strategy(o) for o in opponents]
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
    best = best_thresholds(sweep)
    split = None
    if advice is not None and advice.exploits is None:
        advice, answer_hands, split = measure_card(advice, opponents, deals, seed, rules,
                                                   n_jobs, progress, (runs, best))
        best = best.merge(advice.values[["opponent", "mean"]].rename(
            columns={"mean": "equilibrium_mean"}), on="opponent", how="left")
    grid = [t for t in thresholds if t % 2 == 0]
    matrix = threshold_matrix(grid, max(deals // 4, 1), stream_seed(seed, "threshold matrix"),
                              rules, n_jobs=n_jobs, progress=progress)
    knocker = knock_player("simple", max(thresholds))
    baseline = runs.frame((max(thresholds), opponents[0].spec))
    chart_frame = decisions_frame("simple", opponents[0], hands,
                                  stream_seed(seed, "knock chart"), rules)
    knock_chart = chart_table(chart_frame)
    tables = {"threshold_sweep": sweep, "best_response": best, "threshold_matrix": matrix,
              **_baseline_tables(baseline, f"{knocker.spec} vs {opponents[0].spec}"),
              "knock_chart": knock_chart}
    score_tables, score_methods = game_score_tables(advice, chart_frame, rules, hands, seed,
                                                    opponents[0], n_jobs)
    tables = {**{k: tables[k] for k in KNOCK_TABLES}, **_answer_tables(advice, split),
              **score_tables}  # in the report's order
    notes = {"chart_words": plain_words(knock_chart, opponents[0].spec)}
    played = runs.total_hands + len(matrix) * 2 * max(deals // 4, 1) + hands + answer_hands
    extra = {**_knock_methods(sweep, thresholds, opponents, deals, len(chart_frame), played,
                              advice), **score_methods}
    methods = _methods(rules, hands, seed, wall := time.perf_counter() - t0, extra)
    return StudyResult("knock", knock_answer(advice, rules, reason), tables, notes=notes,
                       methods=methods, rules=rules, advice=advice, seconds={"study": wall},
                       mirrors=tuple(o.spec for o in opponents if mirror(knocker, o, rules)))


#: The knock study's tables in the order they are made and reported.
KNOCK_TABLES = ("threshold_sweep", "best_response", "threshold_matrix",
                "undercut_by_deadwood", "undercut_by_deadwood_stock", "knock_chart",
                "outcome_mix", "hand_length")


def _answer_tables(advice: KnockAdvice | None, split: pd.DataFrame | None
                   ) -> dict[str, pd.DataFrame]:
    """The answer's tables: its card and values, and the value split where measured."""
    tables = {} if advice is None else {"knock_card": advice.card,
                                        "answer_values": advice.values}
    return tables if split is None else {**tables, "value_split": split}


def _baseline_tables(baseline: pd.DataFrame, label: str) -> dict[str, pd.DataFrame]:
    """The tables of the baseline comparison's hands (``label`` names it): undercuts by
    deadwood (and stock left), how hands end, how long they last."""
    cells = cells_from_hands(baseline)
    return {"undercut_by_deadwood": undercut_by_deadwood(cells),
            "undercut_by_deadwood_stock": stock_in_play_order(undercut_by_deadwood_stock(cells)),
            "outcome_mix": outcome_mix(cells, label=label),
            "hand_length": hand_length(turns_from_hands(baseline))}


def _knock_methods(sweep: pd.DataFrame, thresholds: Sequence[int],
                   opponents: Sequence[Strategy],
                   deals: int, decisions: int, played: int, advice: KnockAdvice | None
                   ) -> dict[str, str]:
    """The knock study's own lines of the methods table."""
    width = float((sweep["high"] - sweep["low"]).max() / 2)
    extra = {
        "sweep": f"`simple:knock=t` for t = {number_ranges(sorted(thresholds))} against "
                 f"{', '.join(f'`{o.spec}`' for o in opponents)}, {deals:,} duplicate deals "
                 "each (every deal played twice, seats swapped)",
        "intervals": f"paired by deal, normal 95%; widest half-width {width:.3f} points/hand",
        "knock chart": f"{decisions:,} decision points of `simple` against "
                       f"`{opponents[0].spec}`, knock now vs wait one turn from the same cards",
        "hands played": f"{played:,}",
    }
    if advice is None:
        return extra
    return {"answer": f"the knock card is {advice.source}; its values against "
                      f"{', '.join(f'`{o.spec}`' for o in opponents)} were measured in this "
                      f"run on the sweep's deals, beside the same card play knocking as "
                      f"soon as it may (`chart=always`) and waiting for gin "
                      f"(`chart=gin_only`)", "knock card provenance": advice.provenance,
            **extra}


def mirror(a: str | Strategy, b: str | Strategy, rules: Rules | None = None) -> bool:
    """Whether two strategies play alike (under ``rules``, whose charts they may follow):
    their match on duplicate deals is 0 by construction."""
    return bool(np.array_equal(parse_strategy(a).vector_for(rules),
                               parse_strategy(b).vector_for(rules)))


def strategies_study(hands: int = DEFAULT_HANDS["strategies"], seed: int = DEFAULT_SEED,
                     rules: Rules | str | None = None,
                     strategies: Sequence[str | Strategy] = STUDY_STRATEGIES,
                     opponents: Sequence[str | Strategy] = ("simple", "memory2"),
                     n_jobs: int | None = None, progress: bool | None = None) -> StudyResult:
    """Which strategy is better? Every strategy against every opponent (paired duplicate
    deals, the same deals for every pair). Mirror matches (a strategy against one that
    plays alike) are left out; the search player ``mc`` plays at most
    :data:`MC_DEALS` deals per opponent (it plays tens of hands a second)."""
    rules = Rules.coerce(rules)
    t0 = time.perf_counter()
    deals = max(hands // 2, 1)
    players = [parse_strategy(x) for x in strategies]
    opponents = [parse_strategy(x) for x in opponents]
    fast = [x for x in players if not x.is_mc]
    slow = [x for x in players if x.is_mc]
    matrix, runs = strategy_matrix(fast, opponents, deals, seed, rules, n_jobs=n_jobs,
                                   progress=progress)
    frames = list(runs.items())
    if slow:
        extra, slow_runs = strategy_matrix(slow, opponents, min(deals, MC_DEALS), seed, rules,
                                           n_jobs=n_jobs, progress=progress)
        matrix = pd.concat([matrix, extra], ignore_index=True)
        frames += slow_runs.items()
    # the matrix rows are the runs, in order: a mirror match is left out of both
    keep = [not mirror(p.a, p.b, rules) for p, _ in frames]
    matrix = matrix[keep].reset_index(drop=True)
    frames = [(p, frame) for (p, frame), kept in zip(frames, keep, strict=True) if kept]
    mixes, points = _match_tables(frames)
    answer = _best_answer(matrix)
    wall = time.perf_counter() - t0
    methods = _methods(rules, hands, seed, wall, _strategies_methods(players, slow, deals))
    return StudyResult("strategies", answer, {"strategy_matrix": matrix, "outcome_mix": mixes,
                                              "expected_points": points}, methods=methods,
                       rules=rules, seconds={"study": wall})


def _match_tables(frames: Sequence[tuple[Pair, pd.DataFrame]]
                  ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """How each match's hands end and its expected points, all matches in one table
    each, labelled by the two strategies."""
    mixes = pd.concat([outcome_mix(cells_from_hands(frame), label=f"{p.a.spec} vs {p.b.spec}")
                       for p, frame in frames], ignore_index=True)
    points = pd.concat([expected_points(cells_from_hands(frame)).assign(strategy=p.a.spec,
                                                                        opponent=p.b.spec)
                        for p, frame in frames], ignore_index=True)
    return mixes, points


def _best_answer(matrix: pd.DataFrame) -> str:
    """The strategies study's answer: the best strategy against each opponent."""
    best = matrix.loc[matrix.groupby("opponent", sort=False)["mean"].idxmax()]
    return "Best against each opponent: " + "; ".join(
        f"`{r.strategy}` against `{r.opponent}` ({signed(r.mean)} points per hand, 95% CI "
        f"[{signed(r.low)}, {signed(r.high)}], {int(r.n):,} hands)"
        for r in best.itertuples()) + "."


def _strategies_methods(players: Sequence[Strategy], slow: Sequence[Strategy], deals: int
                        ) -> dict[str, str]:
    """The strategies study's own lines of the methods table."""
    extra_methods = {"design": "duplicate deals, paired by deal; the same deals for every "
                               "pair; mirror matches left out",
                     "strategies": ", ".join(x.spec for x in players)}
    if slow:
        extra_methods["search player"] = (f"{', '.join(x.spec for x in slow)} played "
                                          f"{min(deals, MC_DEALS):,} duplicate deals per "
                                          "opponent (a search player plays tens of hands a "
                                          "second)")
    return extra_methods


def variants_study(hands: int = DEFAULT_HANDS["variants"], seed: int = DEFAULT_SEED,
                   variants: Sequence[Rules | str] = ("modern", "classic", "palace",
                                                      "oklahoma", "straight", "tedesco",
                                                      "eleven", "big_gin", "mahjong"),
                   games: int = 20_000, rules: Rules | str | None = None,
                   n_jobs: int | None = None, progress: bool | None = None) -> StudyResult:
    """The same strategies under several rule sets, and who wins games under ``rules``
    (default ``modern``). Rules given that are no listed variant join the comparison."""
    rules = Rules.coerce(rules)
    spec = rules.spec()
    by_spec = {v.spec(): v for v in map(Rules.coerce, variants)}  # each parsed once
    by_spec.setdefault(spec, rules)
    variants = list(by_spec)
    t0 = time.perf_counter()
    comparison = variant_comparison(list(by_spec.values()), "simple", "simple", hands, seed,
                                    n_jobs, progress)
    game_rows = play_games("memory2", "simple", games, seed, rules)
    summary = game_summary(game_rows)
    p = summary.set_index("statistic").loc["p_a_wins_game"]
    wide = comparison.pivot(index="variant", columns="statistic", values="value")
    words = {v: rules_name(r) for v, r in by_spec.items()}
    answer = (f"Across rule sets, `simple` against `simple` ends in gin most often under "
              f"{words[wide['gin_rate'].idxmax()]} ({wide['gin_rate'].max():.1%} of hands) "
              f"and is undercut most often under {words[wide['undercut_rate'].idxmax()]}; "
              f"`memory2` wins a game to {rules.target} under {rules_name(rules)} against "
              f"`simple` {p.value:.1%} of the time (95% CI {p.low:.1%}–{p.high:.1%}, "
              f"{games:,} games).")
    wall = time.perf_counter() - t0
    methods = _methods(rules, hands, seed, wall, {
        "variants": ", ".join(variants),
        "games": f"{games:,} games memory2 vs simple under `{spec}` rules"})
    tables = {"variant_comparison": comparison, "game_summary": summary}
    return StudyResult("variants", answer, tables, methods=methods, rules=rules,
                       seconds={"study": wall})


def run_study(name: str, hands: int | None = None, seed: int = DEFAULT_SEED,
              rules: Rules | str | None = None, n_jobs: int | None = None,
              progress: bool | None = None, chart: str | None = None) -> StudyResult:
    """Run the study ``name`` (one of STUDIES) at ``hands`` per comparison. Intervals that
    a tiny sample cannot give are left missing (shown "n/a"), without numpy warnings."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {brief(name)}: choose one of {', '.join(STUDIES)} "
                         f"or all")
    size = DEFAULT_HANDS[name] if hands is None else check_count(hands, "hands", MAX_JOB_HANDS)
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
    deals = points.attrs.get("deals", int(cells.hands.sum()))
    size = (f"{int(cells.hands.sum()):,} hands" if deals == int(cells.hands.sum()) else
            f"{deals:,} distinct deals, each played twice and counted once" if
            points.attrs.get("mirrored") else
            f"{int(cells.hands.sum()):,} hands on {deals:,} duplicate deals")
    answer = (f"In the stored run ({pair}, {size}), seat a scores "
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
