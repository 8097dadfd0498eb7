"""The ``ginsim`` command: output and one-line errors with exit code 2."""

import argparse
import subprocess
import sys

import pytest

from ginsim.cli import main


def test_simulate_summary(capsys):
    assert main(["simulate", "--a", "simple", "--b", "simple:t=6", "--hands", "2000",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "hands/s" in out and "undercut" in out and "mean draws per hand" in out
    assert "seat b (simple:t=6)" in out


def test_deadwood_command(capsys):
    assert main(["deadwood", "AS 2S 3S 7H 7D 7C 9C TC JC KD"]) == 0
    out = capsys.readouterr().out
    assert "deadwood: 10" in out and "AS 2S 3S" in out
    assert main(["deadwood", "7S 7H 7D 4C 5C 6C JH QH KH 3D 9C"]) == 0
    assert "best discard: 9C (keeps deadwood 3)" in capsys.readouterr().out


def test_listings(capsys):
    assert main(["strategies"]) == 0
    assert "simple" in capsys.readouterr().out
    assert main(["rules"]) == 0
    assert "classic" in capsys.readouterr().out


@pytest.mark.parametrize("argv,word", [
    (["simulate", "--a", "nope"], "unknown strategy"),
    (["simulate", "--hands", "0"], "at least 1"),
    (["simulate", "--rules", "vegas"], "unknown rules preset"),
    (["simulate", "--seed", "-3"], "seed"),
    (["deadwood", "AS XX"], "bad card 'XX'"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_is_one_line_exit_2(argv, word, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert word in err and err.count("\n") == 1 and "Traceback" not in err


def test_console_entry_point_exit_code():
    proc = subprocess.run([sys.executable, "-m", "ginsim.cli", "deadwood", "AS 1S"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_records_default_to_summary_above_a_million_hands():
    from ginsim.cli import default_records

    assert default_records(1_000_000) == "full"
    assert default_records(1_000_001) == "summary"


def test_simulate_with_runner_options(tmp_path, capsys):
    out = tmp_path / "store"
    argv = ["simulate", "--a", "simple", "--b", "simple:t=6", "--hands", "4000", "--seed", "2",
            "--records", "summary", "--n-jobs", "2", "--chunk-hands", "1000", "--duplicate",
            "--backend", "threads", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    text = capsys.readouterr()
    assert "played 4,000 hands" in text.out and "2 workers (threads), summary records" in text.out
    assert "duplicate deals" in text.out and text.err == ""
    assert "a minus b" in text.out and "paired by deal, 2,000 deals" in text.out
    assert (out / "manifest.json").exists()
    assert main(argv) == 0  # everything stored already
    assert "nothing left to play" in capsys.readouterr().out


@pytest.mark.parametrize("argv,word", [
    (["simulate", "--records", "some"], "invalid choice: 'some'"),
    (["simulate", "--n-jobs", "0"], "at least 1"),
    (["simulate", "--chunk-hands", "x"], "whole number"),
    (["simulate", "--backend", "spark"], "invalid choice: 'spark'"),
    (["simulate", "--scheduler", "tcp://127.0.0.1:8786"], "--backend dask"),
    (["simulate", "--duplicate", "--hands", "1001"], "must be even"),
])
def test_bad_runner_options_are_one_line_exit_2(argv, word, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert word in err and err.count("\n") == 1 and "Traceback" not in err


def test_report_command_writes_a_report(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["report", "--study", "variants", "--hands", "2000", "--out", str(out),
                 "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "report written: " in text and (out / "report.html").exists()
    assert (out / "variant_comparison.csv").exists() and (out / "report.md").exists()


def test_report_from_a_store(tmp_path, capsys):
    store = tmp_path / "store"
    assert main(["simulate", "--hands", "5000", "--out", str(store), "--quiet"]) == 0
    out = tmp_path / "rep"
    assert main(["report", "--from", str(store), "--out", str(out), "--quiet"]) == 0
    assert "stored run" in capsys.readouterr().out
    assert (out / "undercut_by_deadwood.png").exists()


def test_games_knock_chart_and_advise(tmp_path, capsys):
    assert main(["games", "--games", "300", "--rules", "oklahoma"]) == 0
    assert "P(a wins the game)" in capsys.readouterr().out
    assert main(["games", "--players", "3", "--games", "100"]) == 0
    assert "player 2" in capsys.readouterr().out
    assert main(["knock-chart", "--hands", "3000", "--out", str(tmp_path / "kc")]) == 0
    assert (tmp_path / "kc" / "knock_chart.png").exists()
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("deadwood |    28-31    24-27") and len(out) >= 12
    assert any(" K" in line or " w" in line or " ?" in line for line in out[2:12])
    assert main(["advise", "--hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD", "--drawn", "QC",
                 "--rollouts", "300", "--json"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)
    assert sum(r["best"] for r in rows) == 1 and rows[0]["knock"] and rows[0]["best"]
    assert sum(r["recommended"] for r in rows) == (not rows[0]["close"])


@pytest.mark.parametrize("argv,word", [
    (["advise", "--hand", "AS 2S", "--drawn", "QC"], "10 cards"),
    (["advise", "--hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD", "--drawn", "AS"], "both in"),
    (["games", "--rules", "nope"], "unknown rules preset"),
    (["report", "--study", "nope"], "invalid choice"),
    (["knock-chart", "--strategy", "bogus"], "unknown strategy"),
])
def test_new_commands_reject_bad_input(argv, word, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert word in err and "Traceback" not in err


def _one_line_exit_2(argv, capsys, *words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)


def test_knock_chart_without_decision_points_is_one_line(capsys, tmp_path):
    _one_line_exit_2(["knock-chart", "--hands", "1", "--out", str(tmp_path / "a")], capsys,
                     "no point where simple could knock")
    _one_line_exit_2(["knock-chart", "--rules", "straight", "--out", str(tmp_path / "b")],
                     capsys, "no knocking")


def test_report_and_games_reject_bad_combinations(capsys, tmp_path):
    _one_line_exit_2(["report", "--from", "", "--out", str(tmp_path / "r")], capsys,
                     "--from is empty")
    assert not (tmp_path / "r").exists()
    _one_line_exit_2(["games", "--players", "3", "--system", "hollywood"], capsys,
                     "two players")
    _one_line_exit_2(["report", "--rules", "straight", "--out", str(tmp_path / "s"),
                      "--quiet"], capsys, "gin only")


@pytest.mark.parametrize("command", [["report", "--study", "variants", "--hands", "20"],
                                     ["knock-chart", "--hands", "200"]])
def test_out_must_be_a_writable_directory(command, capsys, tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("keep")
    _one_line_exit_2([*command, "--out", str(target)], capsys, "not a directory")
    assert target.read_text() == "keep"
    _one_line_exit_2([*command, "--out", "/proc/ginsim-out"], capsys, "cannot write",
                     "/proc/ginsim-out")


def test_report_out_replaces_only_an_earlier_report(tmp_path, capsys):
    out = tmp_path / "rep"
    argv = ["report", "--study", "variants", "--hands", "400", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    capsys.readouterr()
    (out / "old_figure.png").write_bytes(b"stale")
    assert main(argv) == 0
    assert "report replaced: " in capsys.readouterr().out
    assert not (out / "old_figure.png").exists() and (out / "report.html").exists()
    (out / "notes.txt").write_text("mine")
    _one_line_exit_2(argv, capsys, "not a ginsim report")
    assert (out / "notes.txt").read_text() == "mine"


def test_tiny_samples_say_so_in_one_line_and_print_na(capsys):
    assert main(["simulate", "--hands", "1", "--quiet"]) == 0
    text = capsys.readouterr()
    assert "nan" not in text.out and "n/a" in text.out
    assert text.err.count("\n") == 1 and "too small a sample" in text.err


def test_help_has_description_defaults_and_an_example(capsys):
    from ginsim.cli import DEFAULT_SEED, build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        text = command.format_help()
        assert command.description and "example:\n  ginsim " + name in text, name
        seeds = [a.default for a in command._actions if a.dest == "seed"]
        assert seeds in ([], [DEFAULT_SEED]), name
        valued = [a for a in command._actions if a.option_strings
                  and not any(a.default is no_value for no_value in (None, False))
                  and a.default != argparse.SUPPRESS]
        assert "default" in text or not valued or name in ("strategies", "rules"), name


def test_python_dash_m_and_a_closed_pipe():
    proc = subprocess.run([sys.executable, "-m", "ginsim", "deadwood", "AS 2S 3S 4S"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "deadwood: 0" in proc.stdout
    reader_gone = subprocess.Popen([sys.executable, "-m", "ginsim", "strategies"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader_gone.stdout.close()                      # like `| head -1` having exited
    err = reader_gone.stderr.read()
    assert reader_gone.wait() == 0 and err == b""
    proc = subprocess.run(
        f"{sys.executable} -m ginsim knock-chart --hands 0 | head -1", shell=True,
        capture_output=True, text=True)
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_knock_chart_api_matches_the_command(tmp_path, capsys):
    import pandas as pd

    import ginsim

    assert main(["knock-chart", "--hands", "1500", "--seed", "3", "--opponent", "memory2",
                 "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    chart = ginsim.knock_chart("simple", "memory2", hands=1500, seed=3, rules="modern")
    stored = pd.read_csv(tmp_path / "knock_chart.csv")
    pd.testing.assert_frame_equal(stored, chart.assign(stock=chart.stock.astype(str)),
                                  check_dtype=False)


@pytest.mark.parametrize("width", [40, 80, 120])
def test_wrapping_never_splits_a_number_an_interval_or_a_card_list(width):
    """A long line at 40, 80 and 120 columns: each line fits, no word is lost, and every
    number, interval (with its ``95% CI`` label) and card list stays on one line."""
    import re

    from ginsim.cli.terminal import wrap_text

    line = ("  Recommended: go gin, discard 4S; expected +12.35 points a hand, 95% CI "
            "[-0.03, +5.55] against learned_linear, ahead of knock 10D by 1.25 "
            "[+0.50, +2.00]; your hand [AS 2S 3S] [4H 5H 6H 7H]  7C 9D 10D KD QC (deadwood "
            "26) after 1,234,567 hands at 31.6 hands per CPU second, 95% CI [30.9, 32.4]")
    unsplit = ["+12.35", "95% CI [-0.03, +5.55]", "[+0.50, +2.00]", "[AS 2S 3S]",
               "[4H 5H 6H 7H]", "7C 9D 10D KD QC", "1,234,567", "31.6",
               "95% CI [30.9, 32.4]"]
    lines = wrap_text(line, width).split("\n")
    assert all(len(w) <= width for w in lines), lines
    assert len(lines) > 1 and lines[0].startswith("  Recommended:")
    assert all(w.startswith("    ") for w in lines[1:])  # continued lines indent
    assert re.sub(r"\s+", " ", " ".join(lines)).strip() == re.sub(r"\s+", " ", line).strip()
    for atom in unsplit:
        assert any(atom in w for w in lines), (atom, lines)
    assert wrap_text("short line", width) == "short line"
