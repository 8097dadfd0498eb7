"""The ``ginsim`` command: output and one-line errors with exit code 2."""

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
    assert "report written to" in text and (out / "report.html").exists()
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
    capsys.readouterr()
    assert main(["advise", "--hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD", "--drawn", "QC",
                 "--rollouts", "300", "--json"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)
    assert sum(r["recommended"] for r in rows) == 1 and rows[0]["knock"]


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
