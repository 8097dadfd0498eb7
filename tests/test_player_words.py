"""Words a player knows (issue 41, item 4): who the players are and how strong, the rules
as sentences, a word before a first run's compiling, run times that agree, and Greek
Rami's table and answer."""

from __future__ import annotations

import re
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

from ginsim.analysis.intervals import wilson_interval
from ginsim.analysis.studies import StudyResult, note_compiling
from ginsim.cli import main
from ginsim.cli.terminal import report_written_line
from ginsim.game.rulebook.rules_in_words import rule_sentences
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import Rules
from ginsim.rami.play.cli import seat_lines
from ginsim.rami.play.study import cost_words
from ginsim.reports.words import players_table, rules_table
from ginsim.runner.kernels.compiling import KernelGroup, compile_groups, is_compiled
from ginsim.strategies import PRESETS, parse_strategy
from ginsim.strategies.players import PLAYERS, STRENGTH_DOC

ROOT = Path(__file__).resolve().parents[1]


# -- who the players are --------------------------------------------------------------

def test_the_five_players_are_presets_with_figures_from_the_strength_doc() -> None:
    """Each figure is the one docs/strength.md reports, with the command it names."""
    doc = (ROOT / STRENGTH_DOC).read_text()
    assert [p.name for p in PLAYERS] == ["simple", "memory2", "equilibrium", "expert", "mc"]
    for player in PLAYERS:
        assert player.name in PRESETS and parse_strategy(player.name).preset == player.name
        assert player.low < player.won < player.high
        if player.games == 20_000:
            row = re.search(rf"\| `{player.name}`[^|]*\| ([\d.]+)% \[([\d.]+), ([\d.]+)\] \|",
                            doc)
            assert row, player.name
            assert [float(x) for x in row.groups()] == [player.won, player.low, player.high]
            assert player.command.replace(player.name, "SPEC", 1) in doc
        else:
            assert f"{player.won}% [{player.low}, {player.high}]" in doc
            assert player.command in " ".join(doc.split())


def test_the_documented_game_figures_hold_on_the_first_games_of_their_seed() -> None:
    """The first 2,000 of the 20,000 games each figure counts (same seed, same games):
    the documented share lies within their 99.9% Wilson interval."""
    from ginsim.analysis.game_modes import game_mode_summary

    for player in (p for p in PLAYERS if p.games == 20_000):
        summary = game_mode_summary([player.name, "simple"], 2_000, 11, "modern")
        wins = round(float(summary.set_index("statistic").loc["p_a_wins_game", "value"])
                     * 2_000)
        low, high = wilson_interval(np.array([wins]), 2_000, z=3.29)
        assert low[0] <= player.won / 100 <= high[0], (player.name, wins)


def test_strategies_command_says_who_the_players_are(capsys) -> None:
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    head = out.split("presets:")[0]
    assert head.startswith("who are these players")
    for player in PLAYERS:
        assert f"  {player.name:<12} " in head and player.strength in head
        assert f"measured by: {player.command}" in head


def test_players_table_prefers_the_reports_own_figures() -> None:
    matrix = pd.DataFrame({"strategy": ["memory2", "memory2", "simple"],
                           "opponent": ["memory2:knock=0", "simple", "memory2"],
                           "mean": [0.5, 1.234, -1.5], "low": [0.1, 1.0, -1.9],
                           "high": [0.9, 1.468, -1.1], "n": [1000, 1000, 1000]})
    table = players_table(matrix).set_index("player")
    assert table.loc["memory2", "how strong"] == ("+1.23 points a hand against simple (95% "
                                                  "CI +1.00 to +1.47; 500 duplicate deals)")
    assert table.loc["memory2", "measured"].startswith("this report")
    assert table.loc["simple", "how strong"].startswith("-1.50 points a hand against memory2")
    expert = next(p for p in PLAYERS if p.name == "expert")
    assert table.loc["expert", "how strong"] == expert.strength
    assert table.loc["expert", "measured"] == f"{STRENGTH_DOC}: {expert.command}"
    assert players_table(None)["measured"].str.startswith(STRENGTH_DOC).all()


# -- rules as sentences ---------------------------------------------------------------

def sentences(spec: str) -> str:
    return " ".join(s for s, _ in rule_sentences(Rules.coerce(spec)))


@pytest.mark.parametrize("spec, said, unsaid", [
    ("modern", ["Knock with 10 or less deadwood.", "a gin bonus of 25",
                "an undercut bonus of 25", "is at or below the knocker's", "No big gin",
                "reaches 100 points", "adds 100 more"], ["a tie is no undercut"]),
    ("modern:knock_limit=8,gin_bonus=20,undercut_on_tie=false", [
        "Knock with 8 or less deadwood.", "a gin bonus of 20", "(a tie is no undercut)"],
     ["Knock with 10"]),
    ("oklahoma", ["The upcard sets the knock limit", "an ace means gin only",
                  "An upcard of spades doubles", "reaches 150 points"], ["Knock with"]),
    ("straight", ["No knocking: straight gin"], ["undercut", "lays off"]),
    ("classic", ["doubles the winner's total", "a box of 20"], ["adds 100 more"]),
    ("single_hand", ["A game is a single hand", "earns nothing extra"], ["reaches"]),
    ("mahjong", ["No knocking (Mahjong gin)", "Going out scores 25"], ["Knock with"]),
    ("last_discard", ["the 50th-card rule"], []),
])
def test_rules_read_as_sentences(spec, said, unsaid) -> None:
    text = sentences(spec)
    for words in said:
        assert words in text, words
    for words in unsaid:
        assert words not in text, words


#: Fields of the systems no study plays, which no sentence states.
OTHER_SYSTEMS = {"team_target", "match_hand_points", "match_bonus", "match_shutout_bonus"}


@pytest.mark.parametrize("preset", sorted(RULES_PRESETS))
def test_every_way_a_preset_differs_from_modern_is_stated(preset) -> None:
    """The sentences' fields, as a spec writes them, hold the rules' own values, and
    every field in which a preset differs from modern is among them."""
    rules = Rules.preset(preset)
    stated: dict[str, str] = {}
    for _, fields in rule_sentences(rules):
        for item in fields.split(", "):
            name, _, value = item.partition("=")
            stated[name] = value
    for name, value in stated.items():
        own = getattr(rules, name)
        text = "none" if own is None else str(own).lower() if isinstance(own, bool) else str(own)
        assert value == text, (name, value)
    modern = Rules().to_dict()
    differs = {k for k, v in rules.to_dict().items() if v != modern[k]} - OTHER_SYSTEMS
    assert differs <= set(stated), differs - set(stated)


def test_rules_table_and_command_use_the_sentences(capsys) -> None:
    table = rules_table(Rules())
    assert list(table.columns) == ["rule", "fields"]
    assert table.rule.iloc[0] == "Knock with 10 or less deadwood."
    assert not table.rule.isin(["yes", "no"]).any() and "mahjong" not in " ".join(table.fields)
    assert main(["rules", "oklahoma"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rules oklahoma:") and "  The upcard sets the knock limit" in out
    assert main(["rules", "vegas"]) == 2
    err = capsys.readouterr().err
    assert "unknown rules preset" in err and err.count("\n") == 1


# -- a word before compiling ------------------------------------------------------------

def toy_group(calls: list[str], name: str = "toy kernels") -> KernelGroup:
    """A group whose one kernel is a fresh numba dispatcher, cold until compiled."""
    @numba.njit(cache=False)
    def toy(x):
        return x + 1

    def compile_toy(rules) -> None:
        calls.append("compiled")
        toy(1)

    return KernelGroup(name, (toy,), compile_toy)


def test_a_cold_group_is_announced_before_it_compiles_and_a_warm_one_is_not(capsys) -> None:
    calls: list[str] = []
    group = toy_group(calls)
    assert not is_compiled(group.kernels[0])
    assert compile_groups([group]) > 0 and calls == ["compiled"]
    err = capsys.readouterr().err
    assert err.startswith("compiling kernels (first run only): toy kernels\n")
    assert "compiled in" in err
    assert compile_groups([group]) == 0.0 and capsys.readouterr().err == ""
    assert calls == ["compiled"]


@pytest.mark.parametrize("argv, where", [
    (["games", "--games", "2"], ("ginsim.runner.kernels.warmup", "KERNEL_GROUPS", "whole games")),
    (["games", "--games", "2", "--players", "3"],
     ("ginsim.runner.kernels.warmup", "KERNEL_GROUPS", "three-player games")),
    (["rami", "simulate", "--players", "2", "--deals", "5"],
     ("ginsim.rami.play.runner", "RAMI_KERNEL_GROUPS", "rami deals")),
    (["rami", "games", "--players", "2", "--games", "2"],
     ("ginsim.rami.play.runner", "RAMI_KERNEL_GROUPS", "rami games")),
], ids=["games", "games3", "rami-simulate", "rami-games"])
def test_commands_announce_their_first_compile(argv, where, monkeypatch, capsys) -> None:
    """With the command's kernel group cold (a toy stands in for it), the command says
    so on stderr and compiles it before it plays anything."""
    import importlib

    module, table, name = where
    calls: list[str] = []
    monkeypatch.setitem(getattr(importlib.import_module(module), table), name,
                        toy_group(calls, name))
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"compiling kernels (first run only): {name}\n" in err and calls == ["compiled"]


def test_play_with_hints_shows_the_hand_before_the_advisor_and_the_bot_compile(
        monkeypatch, capsys, tmp_path) -> None:
    """The first hand is on screen before anything of the advisor's or the bot's
    compiles: the advisor's by the first hint (its rollouts, then its posterior: toy
    groups have no recipe for a worker process, so the first hint compiles that here
    too), the bot's by its first move, each said so once."""
    import ginsim.runner.kernels.warmup as warmup
    from ginsim.game.rng_nb import DEFAULT_SEED
    from ginsim.table.game_table import first_dealer

    assert first_dealer(DEFAULT_SEED) == 1  # the bot deals: you decide first
    calls: list[str] = []
    screen: list[str] = []

    def watched(name: str) -> KernelGroup:
        toy = toy_group(calls, name)

        def compile_watched(rules) -> None:
            seen = capsys.readouterr()
            screen.extend([seen.out, seen.err])
            calls.append(("hand shown " if "Your hand:" in "".join(screen) else "no hand ")
                         + name)
            toy.compile(rules)

        return KernelGroup(name, toy.kernels, compile_watched)

    monkeypatch.setattr(warmup, "table_group", lambda bot, seed=0: watched(bot))
    for name in warmup.ADVISOR_GROUPS:
        monkeypatch.setitem(warmup.KERNEL_GROUPS, name, watched(name))
    typed = iter(["pass"])

    def read(prompt: str = "") -> str:
        calls.append("prompt")
        return next(typed, "quit")

    monkeypatch.setattr("builtins.input", read)
    monkeypatch.chdir(tmp_path)  # the game's record is written here
    assert main(["play", "--bot", "simple", "--hint"]) == 1
    seen = capsys.readouterr()
    said = "".join([*screen, seen.out, seen.err])
    assert calls[:6] == ["hand shown advisor rollouts", "compiled", "hand shown advisor beliefs",
                         "compiled", "prompt", "hand shown simple"], calls
    assert calls[-1] == "prompt" and calls.count("compiled") == 3
    assert said.count("compiling kernels (first run only): simple\n") == 1
    for name in warmup.ADVISOR_GROUPS:
        assert said.count(f"compiling kernels (first run only): {name}\n") == 1


def test_the_real_groups_name_numba_kernels() -> None:
    from ginsim.rami.play.runner import RAMI_KERNEL_GROUPS
    from ginsim.runner.kernels.warmup import KERNEL_GROUPS, games_groups, table_group

    groups = [*KERNEL_GROUPS.values(), *RAMI_KERNEL_GROUPS.values(), table_group("mc"),
              table_group("memory2")]
    for group in groups:
        assert group.kernels and all(hasattr(k, "py_func") for k in group.kernels), group.name
    assert [g.name for g in games_groups(["mc", "simple"])] == ["whole games",
                                                                "mc whole games"]
    assert [g.name for g in games_groups(["simple"] * 4)] == ["team games"]


# -- run times that agree ---------------------------------------------------------------

def test_the_terminal_and_methods_state_the_same_times() -> None:
    result = StudyResult("knock", "", {}, methods={"run time": "20.4 s running the study"},
                         seconds={"study": 20.4})
    note_compiling([result], 87.0)
    assert result.methods["run time"] == ("20.4 s running the study, after 87.0 s compiling "
                                          "kernels (first run only)")
    paths = {"report.html": "r/report.html", "report.md": "r/report.md", "a.png": "a"}
    line = report_written_line(paths, False, 109.7, [result.seconds])
    assert line.endswith("in 109.7 s: 20.4 s running the study, 87.0 s compiling kernels "
                         "(first run only), 2.3 s loading and writing")
    warm = StudyResult("knock", "", {}, seconds={"study": 20.4})
    note_compiling([warm], 0.0)
    assert "compiling" not in warm.seconds
    assert report_written_line(paths, True, 22.0, [warm.seconds]).endswith(
        "in 22.0 s: 20.4 s running the study, 1.6 s loading and writing")
    assert report_written_line(paths, True, 3.0, [{}]).endswith("in 3.0 s")


def test_a_report_after_compiling_states_the_same_times_as_the_terminal(
        tmp_path, monkeypatch, capsys) -> None:
    """A report whose study's kernels were cold (a toy group stands in, taking a quarter
    of a second): the terminal's line and the report's Methods give the same seconds
    running the study and compiling."""
    import time

    import ginsim.runner.kernels.warmup as warmup

    calls: list[str] = []
    slow = toy_group(calls, "toy kernels")
    monkeypatch.setitem(warmup.KERNEL_GROUPS, "toy kernels", KernelGroup(
        slow.name, slow.kernels, lambda rules: (time.sleep(0.25), slow.compile(rules))))
    monkeypatch.setitem(warmup.STUDY_KERNELS, "knock", ("toy kernels",))
    assert main(["report", "--hands", "2000", "--out", str(tmp_path / "r"), "--quiet"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    said = re.search(r": ([\d.]+) s running the study, ([\d.]+) s compiling kernels", line)
    assert said and calls == ["compiled"] and float(said.group(2)) >= 0.2
    methods = (tmp_path / "r" / "report.md").read_text()
    assert (f"**run time**: {said.group(1)} s running the study, after {said.group(2)} s "
            "compiling kernels (first run only)") in methods


# -- Greek Rami's table and answer ------------------------------------------------------

def test_rami_simulate_numbers_sit_under_their_headers() -> None:
    df = pd.DataFrame({"player": [0, 0, 1, 1], "charge": [12.5, 103.0, -4.0, 0.0],
                       "opened": [True, False, True, True], "winner": [1, 1, 1, 0],
                       "went_out": [False, False, True, True], "dry": [False, False, True,
                                                                         False]})
    lines = seat_lines(df, ["careful", "a_rather_long:wait_turns=3"])
    header, rows = lines[0], lines[1:]
    assert len(rows) == 2
    for name in ("charge/deal", "win", "opened", "dry", "caught unopened"):
        end = header.index(name) + len(name)
        for row in rows:
            assert row[end - 1] != " " and (end == len(row) or row[end] == " "), (name, row)
    assert rows[1].index("a_rather_long") == header.index("strategy")  # words: left
    assert "57.75" in rows[0] and "[" in rows[0]


@pytest.mark.parametrize("change, low, high, words", [
    (3.94, 3.1, 4.72, "costs 3.9 points per deal (95% CI 3.1 to 4.7"),
    (-1.2, -2.04, -0.4, "saves 1.2 points per deal (95% CI 0.4 to 2.0"),
    (0.3, -0.2, 0.8, "costs 0.3 points per deal (95% CI -0.2 to 0.8"),
])
def test_a_cost_carries_no_plus_sign(change, low, high, words) -> None:
    assert cost_words(change, low, high) == words and "+" not in words
