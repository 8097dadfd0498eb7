"""``ginsim report``, ``knock-chart``, ``equilibrium`` and ``advise``: the commands that
run a study and write or print what it found."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from ..game.history import DEFAULT_TEMPERATURE as TEMPERATURE_DEFAULT
from ..game.history import DEFAULT_WAIT
from ..game.history import EXAMPLE as HISTORY_EXAMPLE
from .options import (
    RULES_HELP,
    Given,
    UsageError,
    add_seed,
    command,
    given,
    jobs,
    positive_int,
    small_sample,
)

#: ``report`` options that only a study run takes, refused with ``--from`` when typed
STUDY_OPTIONS = ("--study", "--hands", "--rules", "--seed", "--n-jobs")

# ginsim.analysis.knock.equilibrium.DEFAULT_PASS_HANDS (not imported: a fast start)
DEFAULT_EQ_HANDS = 100_000
DEFAULT_EQ_ITERATIONS = 40


def run_gin_report(args: argparse.Namespace) -> int:
    """``ginsim report`` for the gin studies (or a stored gin run)."""
    from ..reports._files import check_report_dir, probe_writable
    from ..reports.study_report import write_report
    from .terminal import report_written_line

    t0 = time.perf_counter()
    out = check_report_dir(args.out)
    probe_writable(out)
    replacing = out.is_dir() and any(out.iterdir())
    results = _stored_results(args) if args.from_store is not None else _study_results(args)
    paths = write_report(results, out, svg=args.svg)
    print(results[0].answer.replace("`", ""))
    print(report_written_line(paths, replacing, time.perf_counter() - t0,
                              [r.seconds for r in results]))
    return 0


def _stored_results(args: argparse.Namespace) -> list:
    """``report --from STORE``: the stored run as a study result, once the options that
    only a study run takes are refused."""
    from ..analysis.studies import stored_study

    typed = given(args, STUDY_OPTIONS)
    if typed:
        raise UsageError(f"report --from reports on a stored run; {typed[0]} applies only "
                         f"when a study is run: leave it out (or leave --from out)")
    if not args.from_store.strip():
        raise UsageError("report --from is empty: give the directory of a stored run "
                         "(ginsim simulate --out DIR), or leave --from out to run a study")
    if args.chart is not None:
        raise UsageError("report --chart is for the knock study; leave it out with --from")
    return [stored_study(args.from_store)]


def _study_results(args: argparse.Namespace) -> list:
    """Run the study ``--study`` names (every study for ``all``), kernels compiled first."""
    from ..analysis.studies import STUDIES, missing_intervals, note_compiling, run_study
    from ..game.rules import Rules
    from ..runner.kernels.warmup import compile_kernels

    rules = Rules.coerce("modern" if args.rules is None else args.rules)
    study = args.study or "knock"
    names = STUDIES if study == "all" else (study,)
    if args.chart is not None and "knock" not in names:
        raise UsageError(f"report --chart is for the knock study; --study {study} "
                         "does not use it")
    compiling = compile_kernels(names, rules, show=not args.quiet)  # said on a cold cache
    results = []
    for name in names:
        if not args.quiet:
            print(f"running the {name} study ...", file=sys.stderr)
        results.append(run_study(name, args.hands, args.seed, rules, n_jobs=args.n_jobs,
                                 progress=False if args.quiet else None, chart=args.chart))
    if any(missing_intervals(r) for r in results):
        small_sample(f"--hands {args.hands:,}")
    note_compiling(results, compiling)  # Methods and the terminal state the same times
    return results


def _out_dir(command_name: str, text: str, what: str) -> Path:
    """``--out`` of a command that writes ``what``: a new or existing directory (not
    probed for writing yet)."""
    out = Path(text)
    if not str(text).strip() or (out.exists() and not out.is_dir()):
        raise UsageError(f"{command_name} --out {text!r} is not a directory: give a new or "
                         f"existing directory for {what}")
    return out


def _cmd_knock_chart(args: argparse.Namespace) -> int:
    from ..analysis.knock.knock_chart import MIN_CELL, chart_table, decisions_frame, plain_words
    from ..game.rulebook.rules_in_words import no_knocking
    from ..game.rules import Rules
    from ..reports._files import probe_writable
    from ..reports.charts import save_figure
    from ..reports.heatmap import knock_chart_figure
    from ..runner.kernels.warmup import KERNEL_GROUPS, compile_kernels
    from ..strategies import parse_strategy
    from .game_table_command import start_scores
    from .terminal import chart_text

    rules = Rules.coerce(args.rules)
    score = start_scores(args.score, rules.target, "--score") if args.score else None
    if score is not None:
        rules = rules.check_games()
    out = _out_dir("knock-chart", args.out, "knock_chart.csv and knock_chart.png")
    probe_writable(out)
    if not rules.knocks:
        raise UsageError(f"{no_knocking(args.rules)}, so there is no knock decision to "
                         "chart")
    if not any(parse_strategy(s).is_mc for s in (args.strategy, args.opponent)):
        compile_kernels((), rules, groups=[KERNEL_GROUPS["knock chart"]])  # said when cold
    frame = decisions_frame(args.strategy, args.opponent, args.hands, args.seed, rules)
    if frame.empty:
        raise UsageError(f"{args.hands:,} hands gave no point where {args.strategy} could "
                         "knock: play more hands (e.g. --hands 10000)")
    if score is not None:
        frame = _at_score(frame, args, rules, score)
    chart = chart_table(frame)
    out.mkdir(parents=True, exist_ok=True)
    chart.to_csv(out / "knock_chart.csv", index=False)
    label = f"{score[0]}-{score[1]}" if score else ""
    fig = knock_chart_figure(chart, args.strategy, args.opponent, MIN_CELL, rules.spec(),
                             label)
    png = save_figure(fig, out / "knock_chart")
    print(chart_text(chart, MIN_CELL, f"game-win chance at {label}, % points" if score
                     else "points"))
    print(plain_words(chart, args.opponent).replace("`", ""))
    print(f"{len(frame):,} decision points; wrote {out / 'knock_chart.csv'} and {png[0]}")
    return 0


def _at_score(frame, args: argparse.Namespace, rules, score: tuple[int, int]):
    """The decision points with ``gain`` the game-win chance (percentage points) knocking
    adds over waiting at ``score`` (the strategy's points first), by the game table of
    the strategy against the opponent; prints what the table says there."""
    from ..analysis.game_stats import game_table
    from ..analysis.knock.knock_by_score import score_gains

    table = game_table(args.strategy, args.opponent, rules, hands=args.table_hands,
                       seed=args.seed, boot=0)
    a, b = score
    print(f"at {a}-{b} ({args.strategy} needs {rules.target - a}, {args.opponent} needs "
          f"{rules.target - b}): {args.strategy} wins the game {100 * table.at('win', a, b):.1f}%"
          f" of the time (game table of {table.n:,} hands); each knock is valued by the "
          f"chance of winning the game from the score its hand leaves")
    return frame.assign(gain=100 * score_gains(table, a, b, frame))


def _cmd_equilibrium(args: argparse.Namespace) -> int:
    from ..analysis.knock.equilibrium import equilibrium, summary_text
    from ..game.rulebook.rules_in_words import no_knocking
    from ..game.rules import Rules
    from ..reports._files import probe_writable
    from ..reports.charts import save_figure
    from ..reports.heatmap import equilibrium_figure
    from ..runner.kernels.warmup import KERNEL_GROUPS, compile_kernels
    from ..strategies import parse_strategy

    rules = Rules.coerce(args.rules)
    base = parse_strategy(args.base)
    out = _out_dir("equilibrium", args.out, "equilibrium.json, .csv and .png")
    if not rules.knocks:
        raise UsageError(f"{no_knocking(args.rules)}, so there is no knock chart to find")
    probe_writable(out)
    if not base.is_mc:  # said so on a cold cache
        compile_kernels((), rules, show=not args.quiet,
                        groups=[KERNEL_GROUPS["hand loop"], KERNEL_GROUPS["knock chart"]])
    result = equilibrium(rules=rules, base=args.base, hands=args.hands,
                         iterations=args.iterations, seed=args.seed, n_jobs=args.n_jobs,
                         progress=not args.quiet)
    result.command = "ginsim " + " ".join(sys.argv[1:]) if sys.argv[1:] else "ginsim equilibrium"
    files = result.save(out)
    png = save_figure(equilibrium_figure(result.chart, rules.spec(), result.base,
                                         result.hands), out / "equilibrium")
    print(summary_text(result))
    print(f"spec for --a: {result.spec}")
    print(f"wrote {files['json']}, {files['csv']}, {files['history']} and {png[0]}")
    return 0


def _cmd_advise(args: argparse.Namespace) -> int:
    from ..analysis.advise import advice_words, advise
    from ..runner.kernels.warmup import ADVISOR_GROUPS, KERNEL_GROUPS, compile_kernels
    from .terminal import advice_lines

    shorthand = args.history is None and args.drawn is not None
    score = None
    if args.score is not None:
        from ..game.rules import Rules
        from .game_table_command import start_scores

        score = start_scores(args.score, Rules.coerce(args.rules).target, "--score")
    names = (("advisor without a history",) if shorthand else ADVISOR_GROUPS
             if args.history is not None else ("advisor rollouts", "advisor without a history"))
    compile_kernels((), args.rules, groups=[KERNEL_GROUPS[n] for n in names])  # said so
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = advise(hand=args.hand, drawn=args.drawn, pile=args.pile,
                       opponent_took=args.opponent_took,
                       opponent_passed=args.opponent_passed, stock_left=args.stock_left,
                       rules=args.rules, opponent=args.opponent, strategy=args.strategy,
                       rollouts=args.rollouts, seed=args.seed, drawn_from=args.drawn_from,
                       history=args.history, model=args.model,
                       temperature=args.temperature, wait=args.wait, score=score,
                       precision=args.precision, max_rollouts=args.max_rollouts,
                       precision_of=args.precision_of, dealt=args.dealt)
    if args.json:
        print(table.to_json(orient="records", indent=1))
        return 0
    print("\n".join(advice_lines(table)))
    print(advice_words(table))
    if args.history is not None:
        print(f"posterior effective sample size {table.ess.iloc[0]:.0f} of "
              f"{table.attrs['samples']} guesses")
    if "warning" in table.attrs:
        print(f"warning: {table.attrs['warning']}", file=sys.stderr)
    return 0


def add_report_command(sub, run_report: Callable[[argparse.Namespace], int]) -> None:
    """``ginsim report``, run by ``run_report`` (which hands the gin studies to
    :func:`run_gin_report`)."""
    rep = command(sub, "report",
                  "run a study (or read a stored run) and write an HTML/Markdown report")
    rep.add_argument("--study", choices=("knock", "strategies", "variants", "all", "rami"),
                     default=None, action=Given,
                     help="which study (default knock; rami: Greek Rami's when-to-open "
                          "study, see ginsim rami report)")
    rep.add_argument("--hands", type=positive_int, default=None, action=Given,
                     help="hands per comparison (default: the study's own, 200000)")
    add_seed(rep)
    rep.add_argument("--rules", default=None, action=Given, help=RULES_HELP)
    rep.add_argument("--from", dest="from_store", metavar="STORE", default=None,
                     help="report on a stored run instead of running a study")
    rep.add_argument("--out", metavar="DIR", default="report",
                     help="output directory: new, empty, or an earlier ginsim report, which "
                          "is replaced whole (default ./report)")
    rep.add_argument("--n-jobs", type=jobs, default=None, metavar="N", action=Given,
                     help="parallel workers (default: every core)")
    rep.add_argument("--chart", metavar="FILE", default=None,
                     help="the knock study's answer from this equilibrium.json (written by "
                          "ginsim equilibrium under the same rules) instead of the shipped "
                          "chart; without it, rules no shipped chart matches get one "
                          "computed in the run")
    rep.add_argument("--svg", action="store_true", help="also write SVG figures")
    rep.add_argument("--quiet", action="store_true", help="no progress output")
    rep.set_defaults(func=run_report)


def add_chart_commands(sub) -> None:
    """``ginsim knock-chart`` and ``ginsim equilibrium``."""
    kc = command(sub, "knock-chart",
                 "knock now or wait a turn: a chart by deadwood and stock left")
    kc.add_argument("--strategy", default="simple", help="deciding strategy (default simple)")
    kc.add_argument("--opponent", default="simple", help="opponent (default simple)")
    kc.add_argument("--rules", default="modern", help=RULES_HELP)
    kc.add_argument("--hands", type=positive_int, default=200_000,
                    help="hands to play (default 200000)")
    add_seed(kc)
    kc.add_argument("--score", metavar="A-B", default=None,
                    help="answer for the game at this score (the strategy's points first, "
                         "such as 85-30): each cell's gain is the chance of winning the game "
                         "(standard scoring), not the hand's points")
    kc.add_argument("--table-hands", type=positive_int, default=100_000,
                    help="with --score: hands the game table is made from (default 100000)")
    kc.add_argument("--out", metavar="DIR", default="knock-chart",
                    help="directory for knock_chart.csv and knock_chart.png "
                         "(default ./knock-chart)")
    kc.set_defaults(func=_cmd_knock_chart)

    eq = command(sub, "equilibrium",
                 "when to knock against a player who adapts: an equilibrium knock chart")
    eq.add_argument("--rules", default="modern", help=RULES_HELP)
    eq.add_argument("--base", default="memory2",
                    help="card play both players share; the chart decides knocks (default "
                         "memory2)")
    eq.add_argument("--hands", type=positive_int, default=DEFAULT_EQ_HANDS,
                    help=f"training hands per best-response pass and deals per "
                         f"exploitability check (default {DEFAULT_EQ_HANDS})")
    eq.add_argument("--iterations", type=positive_int, default=DEFAULT_EQ_ITERATIONS,
                    help="most best responses (fictitious play iterations); stops earlier "
                         "once the exploitability's upper bound is <= 0.10 (default "
                         f"{DEFAULT_EQ_ITERATIONS})")
    add_seed(eq)
    eq.add_argument("--n-jobs", type=jobs, default=2, metavar="N",
                    help="parallel threads (default 2; results do not depend on it)")
    eq.add_argument("--out", metavar="DIR", default="equilibrium",
                    help="directory for equilibrium.json, equilibrium.csv, history.csv and "
                         "equilibrium.png (default ./equilibrium)")
    eq.add_argument("--quiet", action="store_true", help="no per-iteration progress lines")
    eq.set_defaults(func=_cmd_equilibrium)


def add_advise_command(sub) -> None:
    """``ginsim advise``."""
    ad = command(sub, "advise", "rate every option of a position by rollouts")
    ad.add_argument("--hand", required=True, help="your 10 cards before the draw")
    ad.add_argument("--drawn", default=None, help="the card you drew; without it, advice "
                                                  "on the draw (the pile card or the stock)")
    ad.add_argument("--history", default=None,
                    help="the hand's public record, events from your side ('me', the "
                         "opponent 'op'): dealer:me|op, up:CARD, WHO:pass (the upcard "
                         "offer), WHO:stock (draw from the stock), WHO:+CARD (take the pile "
                         "top), WHO:-CARD (discard); e.g. \"" + HISTORY_EXAMPLE + "\". "
                         "With it the opponent's cards are sampled from the posterior "
                         "(the shorthand flags below are then not needed)")
    ad.add_argument("--model", default=None,
                    help="the opponent model for --history (default: --opponent)")
    ad.add_argument("--temperature", type=float, default=None,
                    help="softening of the opponent model for --history, in deadwood "
                         f"points: lower trusts the model more (default {TEMPERATURE_DEFAULT:g})")
    ad.add_argument("--wait", type=float, default=None,
                    help="for --history: the chance that the opponent plays on where the "
                         f"model would knock (default {DEFAULT_WAIT:g}): opponents differ "
                         "most in when they knock")
    ad.add_argument("--drawn-from", choices=("stock", "pile"), default="stock",
                    help="where the drawn card came from (a pile card cannot be discarded)")
    ad.add_argument("--pile", default=None,
                    help="shorthand (without --history): the discard pile, bottom first")
    ad.add_argument("--opponent-took", default=None,
                    help="shorthand: cards the opponent took from the pile")
    ad.add_argument("--opponent-passed", default=None,
                    help="shorthand: pile cards the opponent declined")
    ad.add_argument("--stock-left", type=int, default=None,
                    help="shorthand: cards left in the stock (default 20)")
    ad.add_argument("--rules", default="modern", help=RULES_HELP)
    ad.add_argument("--opponent", default="simple", help="opponent's strategy (default simple)")
    ad.add_argument("--strategy", default="expert",
                    help="how you play on after this choice in the rollouts (default expert, "
                         "the strongest plain strategy and the closest to following the "
                         "advice; a weaker one undervalues the draw against the discard "
                         "after it)")
    ad.add_argument("--rollouts", type=positive_int, default=10_000,
                    help="rollouts per option (default 10000); with --history the worlds "
                         "resample at most 500 guesses of the opponent's hand")
    ad.add_argument("--precision", type=float, default=None, metavar="POINTS",
                    help="spend more rollouts, in batches of new worlds, until every "
                         "option's 95%% interval is within this many points either side "
                         "(e.g. 1.5), or --max-rollouts are spent")
    ad.add_argument("--max-rollouts", type=positive_int, default=50_000, metavar="N",
                    help="the most rollouts --precision spends (default 50000)")
    ad.add_argument("--precision-of", choices=("values", "losses"), default="values", help=(
        "what --precision narrows: each option's value, or its loss against the best"))
    ad.add_argument("--score", default=None, metavar="MINE-THEIRS",
                    help="the game's score, yours first (e.g. 85-30): each option also gets "
                         "its chance of winning the game, from the game table of expert "
                         "against expert under the rules")
    ad.add_argument("--dealt", action="store_true",
                    help="shorthand: sample the opponent's cards as dealt (uniform), not "
                         "as kept over its draws so far")
    add_seed(ad)
    ad.add_argument("--json", action="store_true", help="print the table as JSON")
    ad.set_defaults(func=_cmd_advise)
