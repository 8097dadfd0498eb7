"""The parallel runner: identical records and tables for any n_jobs, chunk size and local
backend; duplicate deals stay paired; streamed tables equal tables recomputed from records;
the kernel warm-up speaks only when numba must compile."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginsim
from ginsim.analysis.aggregate_tables import table_frames
from ginsim.analysis.frames import records_frame
from ginsim.runner.aggregate import HAND_TABLES, MOMENT_COLUMNS, layout
from ginsim.runner.jobs import Job, default_chunk_hands, plan_chunks
from ginsim.runner.runner import run
from ginsim.simulator.play.engine import play_records

HANDS = 20_000
A, B, SEED = "simple", "simple:t=6", 11


@pytest.fixture(scope="module")
def reference():
    """One uninterrupted single-call run: the records every other run must reproduce."""
    records, _ = play_records(A, B, stop=HANDS, seed=SEED)
    return records


@pytest.fixture(scope="module")
def job():
    return Job.make(A, B, HANDS, SEED)


@pytest.mark.parametrize("n_jobs,chunk_hands,backend", [
    (1, 997, "local"),
    (2, 4096, "threads"),
    (2, 3001, "processes"),
    (3, 20_000, "local"),
    (2, None, "local"),
])
def test_same_records_for_any_split_and_backend(reference, job, n_jobs, chunk_hands, backend):
    result = run([job], records="full", n_jobs=n_jobs, chunk_hands=chunk_hands,
                 backend=backend)
    assert np.array_equal(result.records[0], reference)
    expected = layout(job.rules).empty()
    layout(job.rules).accumulate(reference, expected)
    assert np.array_equal(result.tables[0], expected)
    assert result.hands_played == HANDS and result.chunks_resumed == 0


def test_summary_mode_tables_do_not_depend_on_split(job):
    runs = [run([job], records="summary", n_jobs=n, chunk_hands=c)
            for n, c in ((1, 20_000), (2, 1234))]
    assert runs[0].records is None
    assert np.array_equal(runs[0].tables[0], runs[1].tables[0])
    assert runs[0].tables[0][:, 0].sum() == HANDS * len(HAND_TABLES)  # no deals table


def _expected_table(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """A table recomputed with pandas from per-hand rows."""
    a, b, t = (frame[c].astype(np.int64) for c in ("points_a", "points_b", "turns"))
    frame = frame.assign(hands=1, sum_points_a=a, sum_points_b=b, sum_turns=t,
                         sumsq_points_a=a * a, sumsq_points_b=b * b, sumsq_turns=t * t,
                         sum_points_a_x_b=a * b)
    sums = frame.groupby(keys, observed=True)[list(MOMENT_COLUMNS)].sum().reset_index()
    return sums.sort_values(keys, ignore_index=True)


@pytest.mark.parametrize("rules", ["modern", "classic"])
def test_streamed_tables_equal_tables_recomputed_from_records(rules):
    job = Job.make(A, "simple:t=0", 15_000, 3, rules)
    summary = run([job], records="summary", n_jobs=2, chunk_hands=2_500)
    hands = records_frame(play_records(job.a, job.b, stop=job.stop, seed=3, rules=rules)[0])
    streamed = table_frames([job], summary.tables)
    for spec in HAND_TABLES:
        keys = list(spec.keys)
        got = streamed[spec.name].sort_values(keys, ignore_index=True)
        want = _expected_table(hands, keys)
        assert len(got) == len(want) > 1
        for column in keys:
            assert list(got[column].astype(str)) == list(want[column].astype(str)), column
        for column in MOMENT_COLUMNS:
            assert np.array_equal(got[column].to_numpy(), want[column].to_numpy()), column


def test_summarize_from_tables_matches_per_hand_summary(reference):
    cells = ginsim.simulate(A, B, HANDS, SEED, records="summary", n_jobs=2, chunk_hands=5000)
    from_tables = ginsim.summarize(cells).set_index("statistic")
    from_rows = ginsim.summarize(records_frame(reference)).set_index("statistic")
    assert list(from_tables.index) == list(from_rows.index)
    assert (from_tables["n"] == HANDS).all()
    np.testing.assert_allclose(from_tables[["value", "low", "high"]].to_numpy(),
                               from_rows[["value", "low", "high"]].to_numpy(), rtol=1e-9)


def test_simulate_returns_per_hand_rows_by_default(reference):
    hands = ginsim.simulate(A, B, HANDS, SEED, n_jobs=2, chunk_hands=3000)
    pd.testing.assert_frame_equal(hands, records_frame(reference))


def test_duplicate_deals_stay_paired_across_chunk_boundaries():
    job = Job.make("simple", "simple", 6_000, 5, duplicate=True)
    whole, _ = play_records("simple", "simple", stop=6_000, seed=5, duplicate=True)
    split = run([job], records="full", n_jobs=2, chunk_hands=999)  # odd: rounded up to 1000
    records = split.records[0]
    assert np.array_equal(records, whole)
    assert split.chunks_played == 6  # chunks hold whole deals, for the deals table
    first, second = records[0::2], records[1::2]
    assert np.array_equal(first["upcard"], second["upcard"])
    assert np.array_equal(first["dealer"], 1 - second["dealer"])
    # The same deterministic strategy in both seats: the replay mirrors the first hand.
    assert np.array_equal(first["points_a"], second["points_b"])
    assert np.array_equal(first["points_b"], second["points_a"])
    assert np.array_equal(first["outcome"], second["outcome"])


def test_chunk_plan_covers_every_hand_once():
    jobs = [Job.make(A, B, 10_001, 1, start=7), Job.make(B, A, 5, 1)]
    chunks = plan_chunks(jobs, 4_000)
    for j, job in enumerate(jobs):
        mine = [c for c in chunks if c.job == j]
        assert mine[0].start == job.start and mine[-1].stop == job.stop
        assert all(x.stop == y.start for x, y in zip(mine, mine[1:], strict=False))
    assert default_chunk_hands(10**8, 2) == 262_144
    assert default_chunk_hands(10**4, 2) == 4_096
    assert default_chunk_hands(10**6, 2) % 2 == 0


def test_several_jobs_in_one_run():
    jobs = [Job.make(A, B, 4_000, 1), Job.make(B, A, 3_000, 2, "classic", start=100)]
    result = run(jobs, records="full", n_jobs=2, chunk_hands=1_500)
    for job, records in zip(jobs, result.records, strict=True):
        want, _ = play_records(job.a, job.b, start=job.start, stop=job.stop, seed=job.seed,
                               rules=job.rules)
        assert np.array_equal(records, want)


def test_progress_bar_on_stderr_when_asked(capsys):
    ginsim.simulate(A, B, 2_000, 1, n_jobs=1, progress=True)
    err = capsys.readouterr().err
    assert "2.00k/2.00k" in err and "hands/s" in err
    ginsim.simulate(A, B, 2_000, 1, n_jobs=1)  # not a TTY: no bar
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("kwargs,message", [
    ({"records": "some"}, "records must be 'full' or 'summary'"),
    ({"backend": "spark"}, "backend must be one of"),
    ({"scheduler": "tcp://127.0.0.1:1"}, "needs backend 'dask'"),
    ({"n_jobs": 0}, "n_jobs must be a whole number in 1..1024"),
    ({"chunk_hands": 0}, "chunk_hands must be at least 1"),
    ({"duplicate": True, "hands": 1_001}, "must be even"),
    ({"hands": -1}, r"hands must be a whole number in 0\.\.1,000,000,000,000, got -1"),
])
def test_bad_options_are_one_line_value_errors(kwargs, message):
    args = {"hands": 100, **kwargs}
    with pytest.raises(ValueError, match=message) as info:
        ginsim.simulate(A, B, seed=1, **args)
    assert "\n" not in str(info.value)


def test_compile_kernels_says_so_only_on_a_cold_cache(capsys):
    import numba

    from ginsim.runner.kernels.compiling import KernelGroup, is_compiled
    from ginsim.runner.kernels.warmup import compile_kernels

    @numba.njit(cache=False)
    def toy(x):
        return x + 1

    group = KernelGroup("toy kernels", (toy,), lambda rules: toy(1))
    assert not is_compiled(toy)
    assert compile_kernels((), groups=[group]) > 0
    err = capsys.readouterr().err
    assert "compiling kernels (first run only): toy kernels" in err and "compiled in" in err
    assert is_compiled(toy)
    assert not is_compiled(toy, lambda sig: sig[0] == numba.float64)  # only int64 so far
    assert compile_kernels((), groups=[group]) == 0.0  # warm: nothing to do, nothing said
    assert capsys.readouterr().err == ""


def test_a_warm_cache_compiles_nothing_and_says_nothing_in_a_fresh_process():
    import subprocess
    import sys

    from ginsim.runner.kernels.warmup import compile_kernels

    compile_kernels(("knock",), show=False)  # now numba's cache holds the knock study's
    # A new process has loaded none of them, finds them in the cache index, stays quiet.
    code = ("from ginsim.runner.kernels.compiling import is_compiled\n"
            "from ginsim.runner.kernels.warmup import compile_kernels\n"
            "from ginsim.simulator.play.hand_nb import simulate_nb\n"
            "print(is_compiled(simulate_nb), len(simulate_nb.overloads))\n"
            "print(compile_kernels(('knock',)))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert proc.stdout.split() == ["True", "0", "0.0"] and proc.stderr == ""


@settings(max_examples=25, deadline=None)
@given(chunk_hands=st.integers(1, 2_500))
def test_deals_table_does_not_depend_on_the_chunk_size(chunk_hands):
    job = Job.make("memory1", "simple:t=6", 2_000, 9, duplicate=True)
    whole = run([job], records="summary", n_jobs=1, chunk_hands=2_000).tables[0]
    split = run([job], records="summary", n_jobs=1, chunk_hands=chunk_hands)
    assert np.array_equal(split.tables[0], whole)  # every table, the deals table included
    deals = table_frames([job], [whole])["deals"]
    assert deals.deals.sum() == 1_000 and set(deals.dealer) == {"a", "b"}
