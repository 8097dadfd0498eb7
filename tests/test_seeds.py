"""One seed space (issue 40): a study's streams are derived in one place and stay seeds,
every seed the command line accepts runs, and an option is "given" when typed."""

from __future__ import annotations

import pytest

from ginsim.cli import build_parser, main
from ginsim.game.rng_nb import DEFAULT_SEED, MAX_SEED, SEEDS, STREAMS, check_seed, stream_seed

TOP = SEEDS - 1


def test_streams_keep_the_seeds_they_had_and_wrap_at_the_top():
    for seed in (0, 1, 12345, SEEDS - len(STREAMS) - 1):
        assert [stream_seed(seed, s) for s in STREAMS] == [
            seed + k for k in range(len(STREAMS))]
    for seed in (TOP, TOP - 1, TOP - 2):
        seeds = [stream_seed(seed, s) for s in STREAMS]
        assert all(check_seed(s) == s for s in seeds)
        assert len(set(seeds)) == len(STREAMS)
    assert stream_seed(TOP, "threshold matrix") == 0
    with pytest.raises(ValueError, match="unknown seed stream 'nowhere'"):
        stream_seed(1, "nowhere")
    assert MAX_SEED == TOP and DEFAULT_SEED == build_parser().parse_args(["report"]).seed


def test_the_knock_study_runs_at_the_largest_seed():
    from ginsim.analysis.studies import knock_study

    result = knock_study(hands=400, seed=TOP, opponents=("simple",), thresholds=(0, 5, 10),
                         n_jobs=1, progress=False)
    assert result.methods["seed"] == str(TOP)
    assert len(result.tables["threshold_matrix"]) == 4
    assert result.tables["knock_chart"]["n"].sum() > 0


def test_report_runs_at_the_largest_seed_the_cli_accepts(tmp_path, capsys):
    out = tmp_path / "report"
    code = main(["report", "--study", "knock", "--hands", "400", "--seed", str(TOP),
                 "--out", str(out), "--n-jobs", "1", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert (out / "report.html").is_file()
    assert main(["report", "--seed", str(SEEDS), "--out", str(out)]) == 2
    assert "a seed is 0..2**64-1" in capsys.readouterr().err


def test_an_option_is_given_when_typed_even_at_its_default():
    parser = build_parser()
    assert not getattr(parser.parse_args(["report"]), "given", set())
    typed = parser.parse_args(["report", "--seed", str(DEFAULT_SEED), "--hands", "10"])
    assert typed.given == {"--seed", "--hands"} and typed.seed == DEFAULT_SEED


@pytest.mark.parametrize("flag", [["--seed", str(DEFAULT_SEED)], ["--seed", "9"],
                                  ["--n-jobs", "1"], ["--study", "knock"]])
def test_report_from_a_store_refuses_every_typed_study_option(tmp_path, capsys, flag):
    store = tmp_path / "store"
    store.mkdir()
    code = main(["report", "--from", str(store), "--out", str(tmp_path / "r"), *flag])
    err = capsys.readouterr().err
    assert code == 2 and f"{flag[0]} applies only when a study is run" in err
    assert len(err.strip().splitlines()) == 1
