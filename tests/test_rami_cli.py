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
    assert printed.startswith("Under rami rules")
    for name in ("report.html", "report.md", "rami_card.png", "rami_card.svg",
                 "rami_wait.png", "rami_wait.csv", "rami_open_at.csv"):
        assert (out / name).is_file(), name
    md = (out / "report.md").read_text()
    assert md.splitlines()[2].startswith("**Answer.** Under rami rules")
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


TOP_SEED = str(2**64 - 1)


@pytest.mark.parametrize("argv, words", [
    (["rami", "simulate", "--players", "2", "--deals", "20", "--seed", TOP_SEED],
     f"20 deals, 2 players, rules rami, seed {TOP_SEED}"),
    (["rami", "games", "--players", "2", "--games", "3", "--seed", TOP_SEED],
     f"3 games to 100, 2 players, rules rami, seed {TOP_SEED}"),
], ids=["simulate", "games"])
def test_the_top_seed_of_the_help_is_taken_as_gin_takes_it(argv, words, capsys) -> None:
    """One seed range for gin and rami: 0..2**64-1, the range --help states."""
    assert main(argv) == 0
    assert words in capsys.readouterr().out
    assert main([*argv[:-1], str(2**64)]) == 2
    assert "a seed is 0..2**64-1" in capsys.readouterr().err


def test_seeds_above_2_63_key_their_own_deals() -> None:
    from ginsim.game.rng_nb import MAX_SEED
    from ginsim.rami.play.engine import kernel_seed, play_deal_records

    assert kernel_seed(MAX_SEED) == -1
    seats = ["careful", "simple"]
    records = {seed: play_deal_records(seats, stop=30, seed=seed)[0]
               for seed in (0, 2**63 - 1, 2**63, 2**64 - 1)}
    assert len({r.tobytes() for r in records.values()}) == 4  # four seeds, four deal sets
    again = play_deal_records(seats, stop=30, seed=2**64 - 1)[0]
    assert again.tobytes() == records[2**64 - 1].tobytes()
    for bad in (-1, 2**64, 1.5, True):
        with pytest.raises(ValueError, match=r"seed must be a whole number in 0\.\.2\*\*64-1"):
            play_deal_records(seats, stop=3, seed=bad)


def test_the_kernels_read_a_wrapped_seed_as_its_64_bits() -> None:
    """The int64 the kernels take for a seed from 2**63 keys the stream as the unsigned
    seed does: numba's ``np.uint64(seed)`` and numpy's agree on every bit."""
    import numpy as np

    from ginsim.game.rng_nb import stream_key_nb
    from ginsim.rami.play.engine import kernel_seed

    for seed in (2**63, 2**64 - 1, 2**63 + 12345):
        with np.errstate(over="ignore"):  # numpy warns where the kernel wraps silently
            want = stream_key_nb.py_func(np.uint64(seed), np.int64(5), np.int64(0))
        assert stream_key_nb(np.int64(kernel_seed(seed)), np.int64(5), np.int64(0)) == want


@pytest.mark.parametrize("hand, table, rules, words", [
    ("5H 5H 8C", ["5H 6H 7H", "5H 6H 7H"], "rami", "5H appears 4 times"),
    ("5H 8C", ["5H 6H 7H", "5H 6H 7H"], "rami", "5H appears 3 times"),
    ("JK JK JK JK 8C", ["5H JK 7H"], "rami", "JK appears 5 times"),
    ("JK JK 8C", ["5H JK 7H"], "rami_two_jokers", "JK appears 3 times"),
    ("8C", ["5H JK 7H", "9S 9D JK", "QD JK AD"], "rami_two_jokers", "JK appears 3 times"),
], ids=["natural_4", "natural_3", "jokers_5", "two_jokers_3", "table_jokers_3"])
def test_lay_down_refuses_more_of_a_card_than_the_decks_hold(hand, table, rules, words,
                                                              capsys) -> None:
    argv = ["rami", "lay-down", hand, "--rules", rules]
    for meld in table:
        argv += ["--table", meld]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "the decks hold" in err and err.count("\n") == 1, err


def test_lay_down_takes_every_copy_the_decks_hold(capsys) -> None:
    assert main(["rami", "lay-down", "5H 8C JK JK", "--table", "5H 6H 7H", "--table",
                 "9S 9D JK", "--table", "4C JK 6C"]) == 0
    assert main(["rami", "lay-down", "8C JK", "--table", "5H 6H 7H", "--table", "9S 9D JK",
                 "--rules", "rami_two_jokers"]) == 0
    assert "laid" in capsys.readouterr().out
