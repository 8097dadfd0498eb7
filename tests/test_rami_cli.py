"""``ginsim rami ...``, ``ginsim rules`` and ``ginsim report --study rami``: output, exit
codes, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from ginsim.cli import main


def test_simulate_prints_every_seat(capsys) -> None:
    assert main(["rami", "simulate", "--players", "3", "--strategies",
                 "careful,simple,naive", "--deals", "200", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "200 deals, 3 players" in out
    assert all(name in out for name in ("careful", "simple", "naive"))


def test_games_and_lay_down(capsys) -> None:
    assert main(["rami", "games", "--players", "2", "--games", "20"]) == 0
    assert "20 games to 100" in capsys.readouterr().out
    assert main(["rami", "lay-down", "5H 6H 7H 9S 9D 9C KS QS JK AS 2D 3D 4D 8C",
                 "--unopened"]) == 0
    out = capsys.readouterr().out
    assert "laid 95 points; left in hand: 8C; goes out" in out
    assert main(["rami", "lay-down", "8H 4S JK", "--table", "5H 6H 7H"]) == 0
    assert "lay off   8H JK" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["rami", "simulate", "--players", "7", "--deals", "5"], "2 to 6 players"),
    (["rami", "simulate", "--players", "1", "--deals", "5"], "2 to 6 players"),
    (["rami", "simulate", "--strategies", "clever", "--deals", "5"], "unknown rami strategy"),
    (["rami", "simulate", "--rules", "rami:jokers=9", "--deals", "5"], "jokers must be"),
    (["rami", "simulate", "--players", "3", "--strategies", "a,b"], "2 strategies for 3"),
    (["rami", "lay-down", "5H ZZ"], "bad card 'ZZ'"),
    (["rami", "lay-down", "5H", "--table", "5H 7H 9H"], "no meld"),
    (["rami"], "required"),
    (["report", "--study", "rami", "--from", "x"], "leave one of them out"),
    (["rami", "report", "--players", "x"], "whole numbers separated by commas, got 'x'"),
    (["rami", "report", "--players", ""], "--players is empty"),
    (["rami", "report", "--players", " , "], "--players is empty"),
    (["rami", "report", "--players", "2,2"], "names 2 twice"),
    (["rami", "report", "--players", "3,7"], "2 to 6 players, got 7"),
    (["rami", "report", "--players", "3,,4"], "whole numbers separated by commas"),
    (["rami", "report", "--players", "\u00b2"], "whole numbers separated by commas"),
    (["rami", "report", "--deals", "4", "--n-jobs", "5000"], "--n-jobs must be"),
    (["rami", "simulate", "--deals", "5", "--csv", ""], "--csv is empty"),
    (["rami", "simulate", "--deals", "5", "--csv", "."], "is a directory"),
    (["rami", "simulate", "--deals", "5", "--csv", "no/such/dir/x.csv"], "does not exist"),
    (["rami", "simulate", "--deals", "5", "--out", ""], "out must be a directory path"),
    (["rami", "lay-down", " ".join(["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S",
                                    "TS", "JS", "QS", "KS"] * 2)],
     "at most 14 cards under these rules (13 dealt and one drawn), got 26"),
    (["rami", "lay-down", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H",
      "--rules", "rami_fourteen"], "at most 14 cards under these rules"),
    (["rami", "lay-down", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H",
      "--rules", "rami:hand_size=7,jokers=0"], "at most 8 cards under these rules (7 dealt"),
])
def test_bad_input_exits_2_with_one_line(argv, words, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_rules_lists_rami_presets(capsys) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "modern" in out and "rami_two_jokers" in out and "rami fields:" in out


def test_report_study_rami_writes_answer_card_and_chart(tmp_path: Path, capsys) -> None:
    out = tmp_path / "rep"
    assert main(["report", "--study", "rami", "--hands", "30", "--out", str(out),
                 "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("When should I open? Under rami rules")
    for name in ("report.html", "report.md", "rami_card.png", "rami_card.svg",
                 "rami_wait.png", "rami_wait.csv", "rami_open_at.csv"):
        assert (out / name).is_file(), name
    md = (out / "report.md").read_text()
    assert md.splitlines()[2].startswith("**Answer.** When should I open?")
    assert "n = 30 deals" in md and "95% CI" in md and "| rules |" in md


def test_simulate_out_writes_a_store_and_refuses_another_run(tmp_path: Path, capsys) -> None:
    out = tmp_path / "store"
    argv = ["rami", "simulate", "--players", "2", "--deals", "50", "--out", str(out)]
    assert main(argv) == 0 and (out / "manifest.json").is_file()
    assert main(argv) == 0  # resumed
    capsys.readouterr()
    assert main([*argv[:-2], "--strategies", "naive", "--out", str(out)]) == 2
    assert "holds another rami run" in capsys.readouterr().err


def test_rami_strategies_lists_presets_and_parameters(capsys) -> None:
    assert main(["rami", "strategies"]) == 0
    out = capsys.readouterr().out
    assert "dry_hunter" in out and "wait_turns" in out and "default 0" in out
