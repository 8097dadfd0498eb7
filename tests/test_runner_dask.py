"""The Dask backend: a real LocalCluster on loopback with 2 worker processes gives the
same records and tables as the local run, through the API and the CLI."""

import dask
import numpy as np
import pytest
from distributed import LocalCluster

import ginsim
from ginsim.cli import main
from ginsim.runner import pool
from ginsim.runner.jobs import Job
from ginsim.runner.runner import run

JOB = Job.make("simple", "simple:t=6", 16_000, 21, "palace")


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster:
        yield cluster


@pytest.fixture(scope="module")
def local():
    return run([JOB], records="full", n_jobs=2, chunk_hands=3_000)


@pytest.mark.parametrize("records", ["full", "summary"])
def test_dask_cluster_equals_local_run(cluster, local, records):
    assert len(cluster.scheduler_info["workers"]) == 2
    result = run([JOB], records=records, backend="dask", scheduler=cluster.scheduler_address,
                 chunk_hands=1_500)
    assert result.chunks_played == 11
    assert np.array_equal(result.tables[0], local.tables[0])
    if records == "full":
        assert np.array_equal(result.records[0], local.records[0])


def test_cli_on_a_dask_scheduler_writes_the_same_store(cluster, local, tmp_path, capsys):
    out = tmp_path / "s"
    assert main(["simulate", "--a", JOB.a.spec, "--b", JOB.b.spec, "--hands", "16000",
                 "--seed", "21",
                 "--rules", "palace", "--records", "full", "--backend", "dask",
                 "--scheduler", cluster.scheduler_address, "--out", str(out)]) == 0
    assert "on a Dask cluster" in capsys.readouterr().out
    loaded = ginsim.load(out)
    expected = ginsim.analysis.Result.from_run(local)
    assert loaded.hands.equals(expected.hands)
    assert loaded.summary.equals(expected.summary)


def test_unreachable_scheduler_is_a_one_line_error(capsys):
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(["simulate", "--hands", "100", "--backend", "dask",
                     "--scheduler", "tcp://127.0.0.1:9"])
    assert code == 2
    err = capsys.readouterr().err
    assert "could not reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert err.count("\n") == 1


def test_dask_without_a_scheduler_starts_and_closes_a_local_cluster(local, monkeypatch):
    # In-process workers keep this cheap; the code path is the one --backend dask takes.
    monkeypatch.setattr(pool, "LOCAL_CLUSTER_OPTIONS",
                        {"processes": False, "threads_per_worker": 1})
    result = run([JOB], records="summary", backend="dask", n_jobs=2, chunk_hands=4_000)
    assert result.backend == "dask" and result.chunks_played == 4
    assert np.array_equal(result.tables[0], local.tables[0])
