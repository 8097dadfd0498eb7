"""The ``ginsim`` command: parse arguments, call the API, print. Bad input exits 2.

Also ``python -m ginsim``. Every command that plays hands defaults to the same seed,
:data:`DEFAULT_SEED`; output into a closed pipe (``ginsim ... | head -1``) ends quietly.
The subcommands live in :mod:`ginsim.cli`; this module assembles them, adds Greek
Rami's (the one place gin's command line meets Rami) and runs :func:`main`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .._version import __version__
from ..game.rng_nb import DEFAULT_SEED
from .cache_command import add_cache_command
from .game_table_command import add_game_table_command
from .options import (
    SUMMARY_ABOVE,
    Help,
    Parser,
    UsageError,
    add_seed,
    default_records,
    positive_int,
    rami_command,
)
from .play_commands import (
    add_games_command,
    add_listing_commands,
    add_protocol_commands,
    add_simulate_command,
    rules_in_words,
    rules_listing,
)
from .review_command import add_review_command
from .serve_command import add_serve_command
from .study_commands import (
    add_advise_command,
    add_chart_commands,
    add_report_command,
    run_gin_report,
)
from .tournament_command import add_tournament_command

__all__ = ["DEFAULT_SEED", "SUMMARY_ABOVE", "UsageError", "build_parser", "default_records",
           "main"]


def _cmd_rules(args: argparse.Namespace) -> int:
    """``ginsim rules``: gin's presets and fields, then Greek Rami's; ``ginsim rules RULES``:
    one gin rule set in sentences."""
    from ..rami.play.cli import rules_lines

    if args.rules is not None:
        print("\n".join(rules_in_words(args.rules)))
        return 0
    print("\n".join(rules_listing()))
    print("\n" + "\n".join(rules_lines()))
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    """``ginsim report``: Greek Rami's study for ``--study rami``, else a gin study."""
    if args.study != "rami":
        return run_gin_report(args)
    from ..rami.play.cli import run_report  # --hands counts its duplicate deals

    if args.from_store is not None:
        raise UsageError("report --study rami runs the rami study; --from reads a stored "
                         "gin run: leave one of them out")
    if args.chart is not None:
        raise UsageError("report --chart is for the knock study; --study rami does not "
                         "use it")
    rules = "rami" if args.rules in (None, "modern") else args.rules
    return run_report(args.hands, args.seed, rules, args.out, "2,3,4,5,6", "careful",
                      args.svg, args.quiet, args.n_jobs)


def build_parser() -> argparse.ArgumentParser:
    """The ``ginsim`` parser with every subcommand, in the order ``--help`` lists them."""
    from ..rami.play.cli import add_commands as add_rami_commands

    parser = Parser(prog="ginsim", formatter_class=Help,
                    description="Gin rummy strategy lab: simulate strategies, chart when to "
                                "knock, and write a report. Rules: docs/rules.md.",
                    epilog="example:\n  ginsim report --out report\n"
                           "run 'ginsim COMMAND --help' for a command's options")
    parser.add_argument("--version", action="version", version=f"ginsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser,
                                metavar="COMMAND")
    add_simulate_command(sub)
    add_listing_commands(sub, _cmd_rules)
    add_report_command(sub, _cmd_report)
    add_rami_commands(sub, rami_command, add_seed, positive_int)
    add_games_command(sub)
    add_game_table_command(sub)
    add_protocol_commands(sub)
    add_tournament_command(sub)
    add_chart_commands(sub)
    add_advise_command(sub)
    add_review_command(sub)
    add_cache_command(sub)
    add_serve_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ginsim`` console script and of ``python -m ginsim``."""
    _quiet_resource_tracker()
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


#: multiprocessing's resource tracker (a process of its own, started with the first
#: semaphore) warns at its exit about semaphores of a command ended by a signal, after
#: the command's one line; it cleans them up all the same.
TRACKER_WARNINGS = "ignore::UserWarning:multiprocessing.resource_tracker"


def _quiet_resource_tracker() -> None:
    """Pass :data:`TRACKER_WARNINGS` to the resource tracker, which reads its warning
    filters from the environment it is started with."""
    given = os.environ.get("PYTHONWARNINGS", "")
    if TRACKER_WARNINGS not in given.split(","):
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [given, TRACKER_WARNINGS]))
