"""The ``ginsim`` command: parse arguments, call the API, print. Bad input exits 2.

Also ``python -m ginsim``. Every command that plays hands defaults to the same seed,
:data:`DEFAULT_SEED`; output into a closed pipe (``ginsim ... | head -1``) ends quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from ._version import __version__
from .game.history import DEFAULT_TEMPERATURE as TEMPERATURE_DEFAULT
from .game.history import DEFAULT_WAIT
from .game.history import EXAMPLE as HISTORY_EXAMPLE

SUMMARY_ABOVE = 1_000_000  # --records defaults to summary above this many hands
DEFAULT_SEED = 0  # the one default seed of every command (ginsim.analysis.studies too)
DEFAULT_EQ_HANDS = 100_000  # ginsim.analysis.equilibrium.DEFAULT_HANDS (not imported: fast start)
DEFAULT_EQ_ITERATIONS = 40
RULES_HELP = ("rules preset, or preset:field=value,... "
              "(e.g. modern:undercut_on_tie=false,undercut_bonus=10; default modern)")


def _small_sample(what: str) -> None:
    from .reports.terminal import small_sample_note

    print(small_sample_note(what), file=sys.stderr)


def default_records(hands: int) -> str:
    """``summary`` above :data:`SUMMARY_ABOVE` hands (rows would not fit), else ``full``."""
    return "summary" if hands > SUMMARY_ABOVE else "full"


class UsageError(Exception):
    """Bad input from the command line: printed on one line, exit code 2."""


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .analysis import run_simulation, summarize
    from .game.rules import Rules
    from .runner.runner import check_options
    from .strategies import parse_strategy

    rules = Rules.coerce(args.rules)
    parse_strategy(args.a)
    parse_strategy(args.b)
    records = args.records or default_records(args.hands)
    check_options(records, args.backend, args.scheduler)
    result = run_simulation(args.a, args.b, hands=args.hands, seed=args.seed, rules=rules,
                            duplicate=args.duplicate, records=records, n_jobs=args.n_jobs,
                            chunk_hands=args.chunk_hands, backend=args.backend,
                            scheduler=args.scheduler, out=args.out, keep_records=False,
                            progress=False if args.quiet else None)
    from .reports.terminal import simulation_lines

    summary = summarize(result.summary).set_index("statistic")
    lines = simulation_lines(args.a, args.b, args.rules, args.hands, args.seed,
                             args.duplicate, records, args.out, result.run, summary,
                             __version__)
    if summary[["low", "high"]].isna().to_numpy().any():
        _small_sample(f"{args.hands:,} hands")
    print("\n".join(lines))
    return 0


def _cmd_deadwood(args: argparse.Namespace) -> int:
    from .game import best_discard, best_melds, deadwood, parse_cards

    cards = parse_cards(args.cards)
    if not cards:
        raise UsageError(f"deadwood needs some cards, e.g. {EXAMPLES['deadwood'][16:]}")
    print(f"deadwood: {deadwood(cards, args.rules)}")
    melds = best_melds(cards, args.rules)
    print("melds: " + (" | ".join(" ".join(m) for m in melds) if melds else "(none)"))
    if len(cards) == 11:
        card, dw = best_discard(cards, args.rules)
        print(f"best discard: {card} (keeps deadwood {dw})")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .reports.play_view import play_session
    from .simulator.game_table import TableGame

    game = TableGame(args.bot, args.rules, args.seed, target=args.target)
    return play_session(game, _read_line, print, hint=args.hint)


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _cmd_strategies(args: argparse.Namespace) -> int:
    from .reports.terminal import strategy_lines
    from .strategies import PARAMETERS, PRESETS

    print("\n".join(strategy_lines(PRESETS, PARAMETERS)))
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from dataclasses import fields

    from .game.rules import DEPENDENT_FIELDS, MAX_GAME_STOCK_FLOOR, PRESETS, Rules

    print("rules presets (use --rules NAME, or rules=NAME in Python):")
    for name, (text, _) in PRESETS.items():
        print(f"  {name:<13} {text}")
    print("change fields after a colon: --rules 'modern:undercut_on_tie=false,"
          "undercut_bonus=10'")
    print(f"fields: {', '.join(f.name for f in fields(Rules))}")
    needs = "; ".join(
        f"{', '.join(n for n, s in DEPENDENT_FIELDS.items() if s == switch)} need {switch}"
        for switch in dict.fromkeys(DEPENDENT_FIELDS.values()))
    print("fields that interact (a conflict is refused, not resolved silently): oklahoma "
          "sets the knock limit from the upcard, so knock_limit stays 10 with it; "
          f"{needs}; mahjong has no knocking; whole games take stock_floor at most "
          f"{MAX_GAME_STOCK_FLOOR}")
    from .rami.cli import rules_lines
    print("\n" + "\n".join(rules_lines()))
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    import time

    from .analysis.studies import STUDIES, missing_intervals, run_study, stored_study
    from .game.rules import Rules
    from .reports._files import check_report_dir, probe_writable
    from .reports.study_report import write_report
    from .runner.warmup import compile_kernels

    if args.study == "rami":  # Greek Rami's own study: --hands counts its duplicate deals
        from .rami.cli import run_report
        if args.from_store is not None:
            raise UsageError("report --study rami runs the rami study; --from reads a stored "
                             "gin run: leave one of them out")
        if args.chart is not None:
            raise UsageError("report --chart is for the knock study; --study rami does not "
                             "use it")
        rules = "rami" if args.rules in (None, "modern") else args.rules
        return run_report(args.hands, args.seed, rules, args.out, "2,3,4,5,6", "careful",
                          args.svg, args.quiet)
    t0 = time.perf_counter()
    out = check_report_dir(args.out)
    probe_writable(out)
    replacing = out.is_dir() and any(out.iterdir())
    study_options = {"--study": args.study, "--hands": args.hands, "--rules": args.rules,
                     "--seed": None if args.seed == DEFAULT_SEED else args.seed,
                     "--n-jobs": args.n_jobs}
    if args.from_store is not None:
        given = [flag for flag, value in study_options.items() if value is not None]
        if given:
            raise UsageError(f"report --from reports on a stored run; {given[0]} applies only "
                             f"when a study is run: leave it out (or leave --from out)")
        if not args.from_store.strip():
            raise UsageError("report --from is empty: give the directory of a stored run "
                             "(ginsim simulate --out DIR), or leave --from out to run a study")
        if args.chart is not None:
            raise UsageError("report --chart is for the knock study; leave it out with --from")
        results = [stored_study(args.from_store)]
    else:
        rules = Rules.coerce("modern" if args.rules is None else args.rules)
        study = args.study or "knock"
        names = STUDIES if study == "all" else (study,)
        if args.chart is not None and "knock" not in names:
            raise UsageError(f"report --chart is for the knock study; --study {study} "
                             "does not use it")
        compile_kernels(names, rules, show=not args.quiet)  # says so only on a cold cache
        results = []
        for name in names:
            if not args.quiet:
                print(f"running the {name} study ...", file=sys.stderr)
            results.append(run_study(name, args.hands, args.seed, rules, n_jobs=args.n_jobs,
                                     progress=False if args.quiet else None,
                                     chart=args.chart))
        if any(missing_intervals(r) for r in results):
            _small_sample(f"--hands {args.hands:,}")
    paths = write_report(results, out, svg=args.svg)
    print(results[0].answer.replace("`", ""))
    print(f"report {'replaced' if replacing else 'written'}: {paths['report.html']} (and "
          f"report.md, {len(paths) - 2} figures and tables) in {time.perf_counter() - t0:.1f} s")
    return 0


def _cmd_games(args: argparse.Namespace) -> int:
    from .analysis.game_modes import MATCH_TOTAL, game_mode_summary
    from .game.rules import Rules
    from .reports.terminal import pct

    rules = Rules.coerce(args.rules)
    if args.players != 2 and args.system != "standard":
        raise UsageError(f"games --system {args.system} is for two players; with --players "
                         f"{args.players} leave --system out")
    for flag, value, needs in (("--c", args.c, 3), ("--d", args.d, 4)):
        if value is not None and args.players < needs:
            raise UsageError(f"games {flag} is the strategy of player {needs}, but --players "
                             f"is {args.players}: give --players {needs} or leave {flag} out")
    if args.match_total is not None and args.system != "multimatch":
        raise UsageError(f"games --match-total ends a multi-match; the {args.system} system "
                         "has none: give --system multimatch or leave --match-total out")
    args.c, args.d = args.c or "simple", args.d or "simple"
    names = [args.a, args.b, args.c, args.d][:args.players]
    summary = game_mode_summary(names, args.games, args.seed, rules, args.system,
                                args.match_total).set_index(["group", "statistic"])

    def rate(group: str, statistic: str) -> str:
        row = summary.loc[(group, statistic)]
        return f"{pct(row.value)} [{pct(row.low)}, {pct(row.high)}]"

    def value(group: str, statistic: str) -> float:
        return float(summary.loc[(group, statistic)].value)

    head = f"ginsim {__version__}: rules {args.rules} (target {rules.target}), {args.games:,} "
    if args.players == 3:
        print(head + f"three-player games: {args.a}, {args.b}, {args.c}")
        for p, name in enumerate(names):
            print(f"  player {p} ({name}): wins {rate(f'player {p}', 'p_wins')}, mean score "
                  f"{value(f'player {p}', 'mean_score'):.1f}")
        return 0
    if args.players == 4:
        print(head + f"team games to {rules.team_target}: ({args.a}, {args.b}) vs "
                     f"({args.c}, {args.d})")
        print(f"  team 1 wins {rate('team 1', 'p_wins')}; mean rounds "
              f"{value('team 1', 'mean_rounds'):.1f}")
        return 0
    if args.system == "hollywood":
        print(head + f"Hollywood sessions: {args.a} (a) vs {args.b} (b)")
        for c in (1, 2, 3):
            print(f"  game {c}: a wins {rate(f'game {c}', 'p_a_wins')}, mean margin for a "
                  f"{value(f'game {c}', 'mean_margin_a'):+.1f}")
        return 0
    if args.system == "multimatch":
        total = args.match_total or MATCH_TOTAL
        print(head + f"multi-matches to {total}: {args.a} (a) vs {args.b} (b)")
        print(f"  a wins {rate('a', 'p_a_wins')}; mean matches "
              f"{value('a', 'mean_matches'):.2f}, mean hands {value('a', 'mean_hands'):.1f}")
        return 0
    from .reports.terminal import two_player_game_lines

    summary = summary.loc["a"]
    if summary[["low", "high"]].isna().to_numpy().any():
        _small_sample(f"{args.games:,} games")
    print("\n".join(two_player_game_lines(head + f"games: {args.a} (a) vs {args.b} (b)",
                                           summary)))
    return 0


def _cmd_knock_chart(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .analysis.knock_chart import MIN_CELL, chart_table, decisions_frame, plain_words
    from .game.rules import Rules
    from .reports.charts import heatmap_chart, save_figure

    rules = Rules.coerce(args.rules)
    out = Path(args.out)
    if not str(args.out).strip() or (out.exists() and not out.is_dir()):
        raise UsageError(f"knock-chart --out {args.out!r} is not a directory: give a new or "
                         "existing directory for knock_chart.csv and knock_chart.png")
    from .reports._files import probe_writable

    probe_writable(out)
    if not rules.knocks:
        raise UsageError(f"rules {args.rules} allow no knocking (gin only), so there is no "
                         "knock decision to chart")
    frame = decisions_frame(args.strategy, args.opponent, args.hands, args.seed, rules)
    if frame.empty:
        raise UsageError(f"{args.hands:,} hands gave no point where {args.strategy} could "
                         "knock: play more hands (e.g. --hands 10000)")
    chart = chart_table(frame)
    out.mkdir(parents=True, exist_ok=True)
    chart.to_csv(out / "knock_chart.csv", index=False)
    fig = heatmap_chart(chart, x="stock", y="deadwood", value="gain", diverging=True,
                        fmt="{:+.1f}", min_n=MIN_CELL, show_n=True,
                        title=f"Knock now minus wait a turn: {args.strategy} vs {args.opponent}",
                        value_label="points per decision",
                        x_label="Cards left in the stock (play runs left to right)",
                        y_label="Knocker deadwood (points)", unit="decisions")
    from .reports.style import append_caption

    append_caption(fig, f"rules: {rules.spec()}")
    png = save_figure(fig, out / "knock_chart")
    from .reports.terminal import chart_text

    print(chart_text(chart, MIN_CELL))
    print(plain_words(chart, args.opponent).replace("`", ""))
    print(f"{len(frame):,} decision points; wrote {out / 'knock_chart.csv'} and {png[0]}")
    return 0


def _cmd_equilibrium(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .analysis.equilibrium import equilibrium, summary_text
    from .game.rules import Rules
    from .reports.charts import heatmap_chart, save_figure
    from .reports.style import append_caption
    from .strategies import parse_strategy

    rules = Rules.coerce(args.rules)
    parse_strategy(args.base)
    out = Path(args.out)
    if not str(args.out).strip() or (out.exists() and not out.is_dir()):
        raise UsageError(f"equilibrium --out {args.out!r} is not a directory: give a new or "
                         "existing directory for equilibrium.json, .csv and .png")
    if not rules.knocks:
        raise UsageError(f"rules {args.rules} allow no knocking (gin only), so there is no "
                         "knock chart to find")
    from .reports._files import probe_writable

    probe_writable(out)
    result = equilibrium(rules=rules, base=args.base, hands=args.hands,
                         iterations=args.iterations, seed=args.seed, n_jobs=args.n_jobs,
                         progress=not args.quiet)
    result.command = "ginsim " + " ".join(sys.argv[1:]) if sys.argv[1:] else "ginsim equilibrium"
    files = result.save(out)
    cells = result.chart
    cells = cells[cells.opp_taken == "0"].drop(columns="opp_taken")
    fig = heatmap_chart(cells.assign(p_knock=100 * cells.p_knock), x="stock", y="deadwood",
                        value="p_knock", fmt="{:.0f}", show_n=True,
                        title="Equilibrium knock chart: knock %",
                        value_label="knock %",
                        x_label="Cards left in the stock (play runs left to right)",
                        y_label="Knocker deadwood (points)", unit="decisions")
    append_caption(fig, f"opponent holds no card it took from the pile; rules: "
                        f"{rules.spec()}; base {result.base}; {result.hands:,} hands per pass")
    png = save_figure(fig, out / "equilibrium")
    print(summary_text(result))
    print(f"spec for --a: {result.spec}")
    print(f"wrote {files['json']}, {files['csv']}, {files['history']} and {png[0]}")
    return 0


def _cmd_advise(args: argparse.Namespace) -> int:
    from .analysis.advise import advice_words, advise

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = advise(hand=args.hand, drawn=args.drawn, pile=args.pile,
                       opponent_took=args.opponent_took,
                       opponent_passed=args.opponent_passed, stock_left=args.stock_left,
                       rules=args.rules, opponent=args.opponent, strategy=args.strategy,
                       rollouts=args.rollouts, seed=args.seed, drawn_from=args.drawn_from,
                       history=args.history, model=args.model,
                       temperature=args.temperature, wait=args.wait)
    if args.json:
        print(table.to_json(orient="records", indent=1))
        return 0
    from .reports.terminal import advice_lines

    print("\n".join(advice_lines(table)))
    print(advice_words(table))
    if args.history is not None:
        print(f"posterior effective sample size {table.ess.iloc[0]:.0f} of "
              f"{table.attrs['samples']} guesses")
    if "warning" in table.attrs:
        print(f"warning: {table.attrs['warning']}", file=sys.stderr)
    return 0


def _positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {text!r}")
    return value


def _jobs(text: str) -> int:
    """``--n-jobs``: parallel workers, 1 .. the parameter layer's MAX_JOBS."""
    from .game.checks import MAX_JOBS

    value = _positive_int(text)
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_JOBS} workers, got {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is 0..2**64-1, got {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message} (see --help)")


class _Help(argparse.RawDescriptionHelpFormatter):
    """Keeps the example's line breaks; adds "(default: X)" where the help has none."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if ("default" not in text and action.default not in (None, False, argparse.SUPPRESS)
                and action.option_strings):
            text += " (default: %(default)s)"
        return text


EXAMPLES = {
    "play": "ginsim play --bot equilibrium --rules modern --hint",
    "simulate": "ginsim simulate --a memory2 --b simple:t=6 --hands 100000",
    "deadwood": 'ginsim deadwood "AS 2S 3S 7H 7D 7C 9C TC JC KD"',
    "strategies": "ginsim strategies",
    "rules": "ginsim rules",
    "report": "ginsim report --out report",
    "games": "ginsim games --a memory2 --b simple --games 10000 --rules oklahoma",
    "knock-chart": "ginsim knock-chart --strategy simple --opponent memory2 --hands 200000",
    "equilibrium": "ginsim equilibrium --rules modern --base memory2 --out equilibrium",
    "advise": 'ginsim advise --hand "AS 2S 3S 7H 7D 7C 9C TC JC KD" --drawn QC --opponent simple'
              '\n  ginsim advise --hand "2S 4S 5S 6S 5H AD 2D 3D 5D 3C" --opponent memory2 '
              '--history "dealer:op up:7H me:pass op:pass me:stock me:-KH op:+KH op:-9C"',
}


def _command(sub, name: str, text: str) -> argparse.ArgumentParser:
    """A subcommand with a one-line description, its defaults and one example."""
    return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                          epilog=f"example:\n  {EXAMPLES[name]}", formatter_class=_Help)


def _rami_command(sub, name: str, text: str, example: str) -> argparse.ArgumentParser:
    """A ``ginsim rami`` (sub)command built like every other command."""
    return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                          epilog=f"example:\n  {example}", formatter_class=_Help)


def _add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=_seed, default=DEFAULT_SEED,
                        help=f"random seed; the same seed gives the same hands (default "
                             f"{DEFAULT_SEED}, as for every command)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ginsim", formatter_class=_Help,
                     description="Gin rummy strategy lab: simulate strategies, chart when to "
                                 "knock, and write a report. Rules: docs/rules.md.",
                     epilog="example:\n  ginsim report --out report\n"
                            "run 'ginsim COMMAND --help' for a command's options")
    parser.add_argument("--version", action="version", version=f"ginsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                metavar="COMMAND")

    sim = _command(sub, "simulate", "play hands between two strategies and summarise them")
    sim.add_argument("--a", default="simple", help="strategy of seat a (default simple)")
    sim.add_argument("--b", default="simple", help="strategy of seat b (default simple)")
    sim.add_argument("--hands", type=_positive_int, default=100_000,
                     help="number of hands (default 100000)")
    _add_seed(sim)
    sim.add_argument("--rules", default="modern", help=RULES_HELP)
    sim.add_argument("--records", choices=("full", "summary"), default=None,
                     help="keep per-hand records (full) or only aggregate tables (summary); "
                          f"default full up to {SUMMARY_ABOVE:,} hands, summary above")
    sim.add_argument("--out", metavar="DIR", default=None,
                     help="write a result store to DIR (resumed if DIR holds this run)")
    sim.add_argument("--n-jobs", type=_jobs, default=None, metavar="N",
                     help="parallel workers (default: every core)")
    sim.add_argument("--chunk-hands", type=_positive_int, default=None, metavar="N",
                     help="hands per chunk (default: about 8 chunks per worker)")
    sim.add_argument("--duplicate", action="store_true",
                     help="play every deal twice with the seats swapped (paired comparison)")
    sim.add_argument("--backend", choices=("local", "threads", "processes", "dask"),
                     default="local", help="local (threads, the default), processes, or "
                                           "dask (a LocalCluster, or --scheduler)")
    sim.add_argument("--scheduler", metavar="ADDRESS", default=None,
                     help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --backend dask)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_cmd_simulate)

    dw = _command(sub, "deadwood", "exact deadwood and melds of some cards")
    dw.add_argument("cards", help='cards, e.g. "AS 2S 3S 7H 7D 7C 9C TC JC KD"')
    dw.add_argument("--rules", default="modern", help=RULES_HELP)
    dw.set_defaults(func=_cmd_deadwood)

    pl = _command(sub, "play", "play a game against a bot in the terminal")
    pl.add_argument("--bot", default="memory2", help="the bot's strategy spec (default memory2)")
    pl.add_argument("--rules", default="modern", help=RULES_HELP)
    _add_seed(pl)
    pl.add_argument("--hint", action="store_true",
                    help="show the advisor's table before each of your decisions")
    pl.add_argument("--target", type=_positive_int, default=None,
                    help="points that win the game (default: the rules' target)")
    pl.set_defaults(func=_cmd_play)

    st = _command(sub, "strategies", "list strategy presets and parameters")
    st.set_defaults(func=_cmd_strategies)
    ru = _command(sub, "rules", "list rules presets")
    ru.set_defaults(func=_cmd_rules)

    rep = _command(sub, "report",
                   "run a study (or read a stored run) and write an HTML/Markdown report")
    rep.add_argument("--study", choices=("knock", "strategies", "variants", "all", "rami"),
                     default=None, help="which study (default knock; rami: Greek Rami's "
                                        "when-to-open study, see ginsim rami report)")
    rep.add_argument("--hands", type=_positive_int, default=None,
                     help="hands per comparison (default: the study's own, 200000)")
    _add_seed(rep)
    rep.add_argument("--rules", default=None, help=RULES_HELP)
    rep.add_argument("--from", dest="from_store", metavar="STORE", default=None,
                     help="report on a stored run instead of running a study")
    rep.add_argument("--out", metavar="DIR", default="report",
                     help="output directory: new, empty, or an earlier ginsim report, which "
                          "is replaced whole (default ./report)")
    rep.add_argument("--n-jobs", type=_jobs, default=None, metavar="N",
                     help="parallel workers (default: every core)")
    rep.add_argument("--chart", metavar="FILE", default=None,
                     help="the knock study's answer from this equilibrium.json (written by "
                          "ginsim equilibrium under the same rules) instead of the shipped "
                          "chart; without it, rules no shipped chart matches get one "
                          "computed in the run")
    rep.add_argument("--svg", action="store_true", help="also write SVG figures")
    rep.add_argument("--quiet", action="store_true", help="no progress output")
    rep.set_defaults(func=_cmd_report)

    from .rami.cli import add_commands as add_rami_commands
    add_rami_commands(sub, _rami_command, _add_seed, _positive_int)

    gm = _command(sub, "games", "play whole games and print game-level statistics")
    gm.add_argument("--a", default="memory2", help="strategy of player a (default memory2)")
    gm.add_argument("--b", default="simple", help="strategy of player b (default simple)")
    gm.add_argument("--c", default=None,
                    help="third player's strategy (--players 3, 4; default simple)")
    gm.add_argument("--d", default=None,
                    help="fourth player's strategy (--players 4; default simple)")
    gm.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                    help="2 (default), 3 (dealer sits out), 4 (two teams, to the rules' "
                         "team_target)")
    gm.add_argument("--system", choices=("standard", "hollywood", "multimatch"),
                    default="standard", help="scoring system for two players")
    gm.add_argument("--match-total", type=_positive_int, default=None,
                    help="match points that end a multi-match (--system multimatch only; "
                         "default 500)")
    gm.add_argument("--games", type=_positive_int, default=10_000,
                    help="number of games (default 10000)")
    _add_seed(gm)
    gm.add_argument("--rules", default="modern", help=RULES_HELP)
    gm.set_defaults(func=_cmd_games)

    kc = _command(sub, "knock-chart",
                  "knock now or wait a turn: a chart by deadwood and stock left")
    kc.add_argument("--strategy", default="simple", help="deciding strategy (default simple)")
    kc.add_argument("--opponent", default="simple", help="opponent (default simple)")
    kc.add_argument("--rules", default="modern", help=RULES_HELP)
    kc.add_argument("--hands", type=_positive_int, default=200_000,
                    help="hands to play (default 200000)")
    _add_seed(kc)
    kc.add_argument("--out", metavar="DIR", default="knock-chart",
                    help="directory for knock_chart.csv and knock_chart.png "
                         "(default ./knock-chart)")
    kc.set_defaults(func=_cmd_knock_chart)

    eq = _command(sub, "equilibrium",
                  "when to knock against a player who adapts: an equilibrium knock chart")
    eq.add_argument("--rules", default="modern", help=RULES_HELP)
    eq.add_argument("--base", default="memory2",
                    help="card play both players share; the chart decides knocks (default "
                         "memory2)")
    eq.add_argument("--hands", type=_positive_int, default=DEFAULT_EQ_HANDS,
                    help=f"training hands per best-response pass and deals per "
                         f"exploitability check (default {DEFAULT_EQ_HANDS})")
    eq.add_argument("--iterations", type=_positive_int, default=DEFAULT_EQ_ITERATIONS,
                    help="most best responses (fictitious play iterations); stops earlier "
                         "once the exploitability's upper bound is <= 0.10 (default "
                         f"{DEFAULT_EQ_ITERATIONS})")
    _add_seed(eq)
    eq.add_argument("--n-jobs", type=_jobs, default=2, metavar="N",
                    help="parallel threads (default 2; results do not depend on it)")
    eq.add_argument("--out", metavar="DIR", default="equilibrium",
                    help="directory for equilibrium.json, equilibrium.csv, history.csv and "
                         "equilibrium.png (default ./equilibrium)")
    eq.add_argument("--quiet", action="store_true", help="no per-iteration progress lines")
    eq.set_defaults(func=_cmd_equilibrium)

    ad = _command(sub, "advise", "rate every option of a position by rollouts")
    ad.add_argument("--hand", required=True, help="your 10 cards before the draw")
    ad.add_argument("--drawn", default=None,
                    help="the card you drew; omit it to be advised on the draw itself "
                         "(take the pile card or draw from the stock)")
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
    ad.add_argument("--strategy", default="memory2",
                    help="how you play on after this turn (default memory2)")
    ad.add_argument("--rollouts", type=_positive_int, default=10_000,
                    help="rollouts per option (default 10000); with --history the worlds "
                         "resample at most 500 guesses of the opponent's hand")
    _add_seed(ad)
    ad.add_argument("--json", action="store_true", help="print the table as JSON")
    ad.set_defaults(func=_cmd_advise)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ginsim`` console script and of ``python -m ginsim``."""
    try:
        args = build_parser().parse_args(argv)
        code = int(args.func(args))
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _closed_pipe()
    except (UsageError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(f"error: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # a run writing a store says how to resume it
        print(str(exc) or "interrupted", file=sys.stderr)
        return 130


def _closed_pipe() -> int:
    """The reader of stdout went away (``| head``): stop quietly, as other tools do."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
