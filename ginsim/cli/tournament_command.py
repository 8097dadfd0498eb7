"""``ginsim tournament``: a rated round robin with duplicate deals; prints the ratings,
the ranking, the crosstable and the pairs, and writes the JSON and the HTML page into
the tournament's directory."""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from .._version import __version__
from ..number_text import bracketed
from .options import RULES_HELP, UsageError, add_seed, command, jobs, positive_int

TOURNAMENT_JSON = "tournament.json"


def add_tournament_command(sub) -> None:
    """``ginsim tournament``."""
    tn = command(sub, "tournament", "a round robin of games with duplicate deals among "
                                    "strategies and exec: agents, rated with intervals")
    tn.add_argument("players", nargs="+", metavar="PLAYER",
                    help="a strategy spec (see 'ginsim strategies'), or exec:COMMAND, a "
                         "program speaking the agent protocol (docs/agents.md), shown as "
                         "NAME when given as NAME=exec:COMMAND")
    tn.add_argument("--games", type=positive_int, default=200,
                    help="games each pair plays, even: every deck twice with the seats "
                         "swapped (default 200)")
    add_seed(tn)
    tn.add_argument("--out", metavar="DIR", required=True,
                    help="the tournament's directory: its store (resumed, or grown by new "
                         "players), tournament.json and report/report.html")
    tn.add_argument("--rules", default="modern", help=RULES_HELP)
    tn.add_argument("--system", choices=("standard", "hollywood", "multimatch"),
                    default="standard", help="scoring system (exec: agents: standard)")
    tn.add_argument("--jobs", "--n-jobs", dest="n_jobs", type=jobs, default=None,
                    metavar="J", help="parallel workers (default: every core)")
    tn.add_argument("--backend", choices=("local", "threads", "processes", "dask"),
                    default="local", help="local (threads, the default), processes, or dask")
    tn.add_argument("--scheduler", metavar="ADDRESS", default=None,
                    help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --backend dask)")
    tn.add_argument("--timeout-ms", type=positive_int, default=1000, metavar="MS",
                    help="longest wait for one decision of an exec: agent; later forfeits "
                         "the game (default 1000)")
    tn.add_argument("--json", action="store_true",
                    help="print the JSON (also written to DIR/tournament.json) instead of "
                         "the tables")
    tn.set_defaults(func=_cmd_tournament)


def _cmd_tournament(args: argparse.Namespace) -> int:
    from ..analysis.ratings.tournament_results import run_tournament
    from ..game.inputs.files import write_text_atomic
    from ..game.rules import Rules
    from ..reports.tournament_report import write_tournament_report
    from ..runner.kernels.warmup import compile_kernels, games_groups, table_group
    from ..runner.tournament import TournamentPlan
    from ..table.referee import is_program
    from .play_commands import exit_on_sigterm

    if args.games % 2:
        raise UsageError(f"tournament --games must be even (each deck is played twice with "
                         f"the seats swapped); give {args.games + 1} or {args.games - 1 or 2}")
    plan = TournamentPlan.make(args.players, args.games, args.seed, args.rules, args.system,
                               args.timeout_ms)  # bad players refused before anything runs
    specs = [p for p in plan.players if not is_program(p)]
    groups = {g.name: g for a in specs for b in specs if a < b for g in games_groups([a, b])}
    if len(specs) < len(plan.players):  # in-process agents across from an exec: one
        groups.update((g.name, g) for g in (table_group(s, args.seed) for s in specs))
    compile_kernels((), Rules.coerce(args.rules), groups=list(groups.values()))
    with exit_on_sigterm():  # agents' process groups are killed on SIGTERM too
        result = run_tournament(plan.players, args.games, args.seed, args.out, args.rules,
                                args.system, timeout_ms=args.timeout_ms, n_jobs=args.n_jobs,
                                backend=args.backend, scheduler=args.scheduler)
    text = result.json_text()
    path = write_text_atomic(f"{args.out}/{TOURNAMENT_JSON}", text)
    page = write_tournament_report(result, args.out)["report.html"]
    for line in result.faults:
        print(line, file=sys.stderr)
    if args.json:
        sys.stdout.write(text)
        return 0
    print("\n".join(tournament_lines(result)))
    run = result.run
    print(f"\n{run.chunks_played} chunk(s) played, {run.chunks_resumed} read back from "
          f"{args.out}, in {run.wall_s:.1f} s on {run.workers} worker(s); written: {path}, "
          f"{page}")
    return 0


def tournament_lines(result) -> list[str]:
    """The terminal tables: settings, ratings, ranking, crosstable, pairs."""
    plan = result.run.plan
    lines = [f"ginsim {__version__}: tournament of {len(plan.players)} players, rules "
             f"{plan.rules.spec()} ({plan.system}), {plan.games:,} games a pair "
             f"({plan.decks:,} decks, each with the seats swapped), seed {plan.seed}", ""]
    r = result.ratings
    table = pd.DataFrame({
        "rank": r["rank"], "player": r["player"], "rating": r["rating"].map("{:.0f}".format),
        "95% interval": [f"[{lo:.0f}, {hi:.0f}]" for lo, hi in zip(r["low"], r["high"],
                                                                     strict=True)],
        "games": r["games"], "wins": r["wins"], "forfeits": r["forfeits"]})
    lines += table.to_string(index=False).splitlines()
    lines += [f"  {p}: {note}" for p, note in zip(r["player"], r["note"], strict=True)
              if note]
    lines += ["", f"ranking: {result.ranking}   ('=': cannot be told apart)", "",
              "crosstable: the row player's win % against the column player"]
    order = r["player"].tolist()
    cross = result.crosstable.loc[order, order].map(
        lambda v: "-" if pd.isna(v) else f"{100 * v:.0f}")
    lines += cross.to_string().splitlines()
    p = result.pairs
    pairs = pd.DataFrame({
        "pair": [f"{a} vs {b}" for a, b in zip(p["a"], p["b"], strict=True)],
        "games": p["games"],
        "a wins": [bracketed(v, lo, hi, ".1%") for v, lo, hi in
                   zip(p["rate_a"], p["rate_low"], p["rate_high"], strict=True)],
        "a points a game": [bracketed(v, lo, hi, "+.1f") for v, lo, hi in
                            zip(p["points_a"], p["points_low"], p["points_high"], strict=True)],
        "forfeits a/b": [f"{x}/{y}" for x, y in zip(p["forfeits_a"], p["forfeits_b"],
                                                     strict=True)]})
    lines += ["", "pairs (paired 95% intervals over the decks)"]
    lines += pairs.to_string(index=False).splitlines()
    return lines

