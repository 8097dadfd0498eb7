"""The ``ginsim`` command: parse arguments, call the API, print. Bad input exits 2."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__

SUMMARY_ABOVE = 1_000_000  # --records defaults to summary above this many hands


def default_records(hands: int) -> str:
    """``summary`` above :data:`SUMMARY_ABOVE` hands (rows would not fit), else ``full``."""
    return "summary" if hands > SUMMARY_ABOVE else "full"


class UsageError(Exception):
    """Bad input from the command line: printed on one line, exit code 2."""


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .analysis import run_simulation, summarize
    from .game.rules import Rules
    from .simulator.runner import check_options
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
    run = result.run
    summary = summarize(result.summary).set_index("statistic")
    wall = run.wall_s
    rate = run.hands_played / wall if wall > 0 else float("inf")
    print(f"ginsim {__version__}: {args.a} (seat a) vs {args.b} (seat b), rules {args.rules}, "
          f"{args.hands:,} hands, seed {args.seed}"
          + (", duplicate deals" if args.duplicate else ""))
    workers = "a Dask cluster" if run.backend == "dask" else (
        f"{run.workers} worker{'s' if run.workers > 1 else ''} ({run.backend})")
    if run.hands_played:
        print(f"played {run.hands_played:,} hands in {wall:.2f} s: {rate:,.0f} hands/s "
              f"on {workers}, {records} records")
    else:
        print("nothing left to play")
    if run.hands_resumed:
        print(f"resumed: {run.hands_resumed:,} hands ({run.chunks_resumed} chunks) were "
              f"already stored in {args.out}")
    if args.out:
        print(f"stored in {args.out} (load with ginsim.load({str(args.out)!r}))")
    print("outcome shares (95% CI):")
    for outcome in ("knock", "gin", "big_gin", "undercut", "dead"):
        row = summary.loc[f"rate_{outcome}"]
        print(f"  {outcome:<9} {row.value:7.2%}  [{row.low:.2%}, {row.high:.2%}]")
    print("mean points per hand (95% CI):")
    for key, label in (("mean_points_a", f"seat a ({args.a})"),
                       ("mean_points_b", f"seat b ({args.b})"),
                       ("mean_points_a_minus_b", "a minus b")):
        row = summary.loc[key]
        print(f"  {label:<28} {row.value:7.3f}  [{row.low:.3f}, {row.high:.3f}]")
    row = summary.loc["mean_turns"]
    print(f"mean draws per hand: {row.value:.2f}  [{row.low:.2f}, {row.high:.2f}]")
    return 0


def _cmd_deadwood(args: argparse.Namespace) -> int:
    from .game import best_discard, best_melds, deadwood, parse_cards

    cards = parse_cards(args.cards)
    print(f"deadwood: {deadwood(cards, args.rules)}")
    melds = best_melds(cards, args.rules)
    print("melds: " + (" | ".join(" ".join(m) for m in melds) if melds else "(none)"))
    if len(cards) == 11:
        card, dw = best_discard(cards, args.rules)
        print(f"best discard: {card} (keeps deadwood {dw})")
    return 0


def _cmd_strategies(args: argparse.Namespace) -> int:
    from .strategies import PARAMETERS, PRESETS

    print("presets:")
    for name, (text, _) in PRESETS.items():
        print(f"  {name:<14} {text}")
    print("parameters (write preset:key=value,...):")
    for p in PARAMETERS.values():
        alias = f" (alias {', '.join(p.aliases)})" if p.aliases else ""
        default = p.choices[int(p.default)] if p.choices else f"{p.default:g}"
        print(f"  {p.name:<14} default {default}{alias}: {p.help}")
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from .game.rules import PRESETS

    for name, (text, _) in PRESETS.items():
        print(f"  {name:<10} {text}")
    return 0


def _positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {text!r}")
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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ginsim", description="Gin rummy strategy lab.")
    parser.add_argument("--version", action="version", version=f"ginsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sim = sub.add_parser("simulate", help="play hands between two strategies and summarise")
    sim.add_argument("--a", default="simple", help="strategy of seat a (default simple)")
    sim.add_argument("--b", default="simple", help="strategy of seat b (default simple)")
    sim.add_argument("--hands", type=_positive_int, default=100_000,
                     help="number of hands (default 100000)")
    sim.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    sim.add_argument("--rules", default="modern", help="rules preset (default modern)")
    sim.add_argument("--records", choices=("full", "summary"), default=None,
                     help="keep per-hand records (full) or only aggregate tables (summary); "
                          f"default full up to {SUMMARY_ABOVE:,} hands, summary above")
    sim.add_argument("--out", metavar="DIR", default=None,
                     help="write a result store to DIR (resumed if DIR holds this run)")
    sim.add_argument("--n-jobs", type=_positive_int, default=None, metavar="N",
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

    dw = sub.add_parser("deadwood", help="exact deadwood and melds of some cards")
    dw.add_argument("cards", help='cards, e.g. "AS 2S 3S 7H 7D 7C 9C TC JC KD"')
    dw.add_argument("--rules", default="modern", help="rules preset (default modern)")
    dw.set_defaults(func=_cmd_deadwood)

    st = sub.add_parser("strategies", help="list strategy presets and parameters")
    st.set_defaults(func=_cmd_strategies)
    ru = sub.add_parser("rules", help="list rules presets")
    ru.set_defaults(func=_cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ginsim`` console script."""
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except (UsageError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
