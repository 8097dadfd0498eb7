"""Every example a ``--help`` shows runs as written: each is read from the help text of
every command (gin's and Greek Rami's), run through the command line's ``main`` with its
size options cut down (``--hands``, ``--deals``, ``--games``, ``--rollouts``,
``--iterations``, added after the example's own so they win), in a scratch directory."""

from __future__ import annotations

import argparse
import io
import shlex
import shutil
from pathlib import Path

import pytest

from ginsim.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
#: Size options and the reduced value each example runs with (where its command has it).
SMALL = {"--hands": "200", "--deals": "20", "--games": "3", "--rollouts": "50",
         "--iterations": "1"}
#: Commands whose smallest size differs: the equilibrium and the game table measure at
#: least 1,000 hands; a tournament plays every deck twice, so an even number of games;
#: the server listens on a free port (and stops at once: see the test).
SMALLEST = {"equilibrium": {"--hands": "1000"}, "game-table": {"--hands": "1000"},
            "tournament": {"--games": "2"}, "serve": {"--port": "0"}}


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's subcommands by name (none when it has none)."""
    actions = [a for a in parser._actions if isinstance(a.choices, dict)]
    return dict(actions[0].choices) if actions else {}


def help_examples() -> list[tuple[str, str]]:
    """(command path, example line) of every example in every command's help, each
    example once (the first command path showing it)."""
    found: dict[str, str] = {}
    stack = [("ginsim", build_parser())]
    while stack:
        name, parser = stack.pop()
        text = parser.format_help()
        if "example:\n" in text:
            block = text.split("example:\n", 1)[1]
            for line in block.splitlines():
                if not line.startswith("  ginsim "):
                    break
                found.setdefault(line.strip(), name)
        stack += [(f"{name} {sub}", p) for sub, p in _subparsers(parser).items()]
    return sorted((name, line) for line, name in found.items())


def command_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``argv`` names."""
    parser = build_parser()
    for word in argv:
        subs = _subparsers(parser)
        if word not in subs:
            break
        parser = subs[word]
    return parser


def small_argv(example: str) -> list[str]:
    """The example as ``main``'s arguments (a shell comment dropped), each size option
    its command takes added at its reduced value."""
    words = shlex.split(example, comments=True)
    assert words[0] == "ginsim", example
    argv = words[1:]
    options = {o for a in command_parser(argv)._actions for o in a.option_strings}
    for option, value in {**SMALL, **SMALLEST.get(argv[0], {})}.items():
        if option in options:
            argv += [option, value]
    return argv


def test_every_command_shows_an_example_and_each_is_found() -> None:
    examples = help_examples()
    names = {name for name, _ in examples}
    for must in ("ginsim simulate", "ginsim advise", "ginsim rami", "ginsim rami simulate",
                 "ginsim rami report", "ginsim rules", "ginsim play"):
        assert must in names, must
    assert len(examples) >= 15


def test_size_options_are_added_where_the_command_takes_them() -> None:
    argv = small_argv("ginsim rami simulate --players 4 --deals 20000   # a comment")
    assert argv[-2:] == ["--deals", "20"] and "#" not in argv
    assert "--hands" not in small_argv("ginsim deadwood \"AS 2S\"")


@pytest.mark.parametrize("where, example", help_examples())
def test_help_example_runs_as_written(where, example, tmp_path, monkeypatch, capsys) -> None:
    """The example, cut down to a small size, exits 0 (``play`` reads ``quit`` at its
    first prompt and stops with 1, as it says); its files go to a scratch directory."""
    (tmp_path / "adapters").mkdir()
    shutil.copy(ROOT / "adapters" / "example_agent.py", tmp_path / "adapters")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # ginsim agent: no messages
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")  # ginsim play
    argv = small_argv(example)
    if argv[0] == "serve":  # the app is built and its port bound; it serves no request
        monkeypatch.setattr("uvicorn.Server.run", lambda self, sockets=None: None)
    code = main(argv)
    out, err = capsys.readouterr()
    if argv[0] == "play":
        assert code == 1 and "Game stopped after 0 finished hands" in out, err
    else:
        assert code == 0, f"{example}: exit {code}\n{err}"
    assert "Traceback" not in err
