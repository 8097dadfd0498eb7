"""What every ``ginsim`` subcommand shares: the one-line :class:`UsageError`, the parser
and help classes, argument types, the default seed and each command's example."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from ..game.rng_nb import DEFAULT_SEED, SEEDS

SUMMARY_ABOVE = 1_000_000  # --records defaults to summary above this many hands
RULES_HELP = ("rules preset, or preset:field=value,... "
              "(e.g. modern:undercut_on_tie=false,undercut_bonus=10; default modern)")

EXAMPLES = {
    "play": "ginsim play --bot equilibrium --rules modern --hint",
    "simulate": "ginsim simulate --a memory2 --b simple:t=6 --hands 100000",
    "deadwood": 'ginsim deadwood "AS 2S 3S 7H 7D 7C 9C TC JC KD"',
    "strategies": "ginsim strategies",
    "rules": "ginsim rules\n  ginsim rules oklahoma",
    "report": "ginsim report --out report",
    "games": "ginsim games --a memory2 --b simple --games 10000 --rules oklahoma",
    "game-table": "ginsim game-table --rules modern --a expert --b simple --csv table.csv",
    "agent": "ginsim agent --strategy memory2 --rules eaai   # JSON lines on stdin/stdout",
    "match": 'ginsim match --a memory2 --b "exec:python adapters/example_agent.py" --games 200',
    "knock-chart": "ginsim knock-chart --strategy simple --opponent memory2 --hands 200000",
    "equilibrium": "ginsim equilibrium --rules modern --base memory2 --out equilibrium",
    "advise": 'ginsim advise --hand "AS 2S 3S 7H 7D 7C 9C TC JC KD" --drawn QC --opponent simple'
              '\n  ginsim advise --hand "2S 4S 5S 6S 5H AD 2D 3D 5D 3C" --opponent memory2 '
              '--history "dealer:op up:7H me:pass op:pass me:stock me:-KH op:+KH op:-9C"',
    "review": "ginsim review --strategy memory2 --games 2 --seed 3   # or: ginsim review "
              "GAME.jsonl --out review",
    "tournament": "ginsim tournament random simple memory2 expert --games 100 --out tour",
    "cache": "ginsim cache   # where the compiled kernels are; --clear removes them",
    "serve": "ginsim serve --port 8000   # then open http://127.0.0.1:8000 in a browser",
}


class UsageError(Exception):
    """Bad input from the command line: printed on one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are a :class:`UsageError` (one line, exit 2)."""

    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message} (see --help)")


class Given(argparse.Action):
    """Stores an option's value like ``store`` and adds the option to ``namespace.given``,
    so a command tells an option the user typed from its default (``--seed 0`` typed is
    given, though 0 is the default)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.given = {*getattr(namespace, "given", ()), self.option_strings[0]}


def given(args: argparse.Namespace, options: Sequence[str]) -> list[str]:
    """Those of ``options`` (added with ``action=Given``) that the user typed, in order."""
    typed = getattr(args, "given", set())
    return [option for option in options if option in typed]


class Help(argparse.RawDescriptionHelpFormatter):
    """Keeps the example's line breaks; adds "(default: X)" where the help has none."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if ("default" not in text and action.default not in (None, False, argparse.SUPPRESS)
                and action.option_strings):
            text += " (default: %(default)s)"
        return text


def default_records(hands: int) -> str:
    """``summary`` above :data:`SUMMARY_ABOVE` hands (rows would not fit), else ``full``."""
    return "summary" if hands > SUMMARY_ABOVE else "full"


def small_sample(what: str) -> None:
    """Say on stderr that some 95% intervals of a run of ``what`` could not be computed."""
    from .terminal import small_sample_note

    print(small_sample_note(what), file=sys.stderr)


def positive_int(text: str) -> int:
    """A whole number of at least 1 (``_`` separators allowed)."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {text!r}")
    return value


def jobs(text: str) -> int:
    """``--n-jobs``: parallel workers, 1 .. the parameter layer's MAX_JOBS."""
    from ..game.inputs.checks import MAX_JOBS

    value = positive_int(text)
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_JOBS} workers, got {text!r}")
    return value


def seed(text: str) -> int:
    """A seed: a whole number 0 .. 2**64-1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value < SEEDS:
        raise argparse.ArgumentTypeError(f"a seed is 0..2**64-1, got {text!r}")
    return value


def command(sub, name: str, text: str) -> argparse.ArgumentParser:
    """A subcommand with a one-line description, its defaults and one example."""
    return rami_command(sub, name, text, EXAMPLES[name])


def rami_command(sub, name: str, text: str, example: str) -> argparse.ArgumentParser:
    """A subcommand (``ginsim rami``'s too) with a one-line description, its defaults and
    ``example``."""
    return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                          epilog=f"example:\n  {example}", formatter_class=Help)


def add_seed(parser: argparse.ArgumentParser) -> None:
    """``--seed``, with the one default seed of every command (typed: in ``given``)."""
    parser.add_argument("--seed", type=seed, default=DEFAULT_SEED, action=Given,
                        help=f"random seed; the same seed gives the same hands (default "
                             f"{DEFAULT_SEED}, as for every command)")


def refused(prog: str, exc: Exception) -> int:
    """Print why a script refused its input (a :class:`UsageError` from its
    :class:`Parser`, or a validator's ValueError) on one line on stderr, named by
    ``prog``; returns 2, the exit code of bad input."""
    text = str(exc) if isinstance(exc, UsageError) else f"{prog}: error: {exc}"
    print(text.replace("\r", "\\r").replace("\n", "\\n"), file=sys.stderr)
    return 2
