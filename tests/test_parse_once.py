"""Parse once (issue 40): a job carries parsed strategies and rules, a run parses no spec
text, thresholds and charts travel as data, and the records stay those of the text."""

from __future__ import annotations

import dataclasses
import pathlib

import numpy as np
import pytest

from ginsim.analysis.api import simulate
from ginsim.analysis.knock import knock_answer
from ginsim.analysis.knock.equilibrium import equilibrium_advice
from ginsim.analysis.knock.sweeps import knock_player, threshold_matrix, threshold_sweep
from ginsim.game.rules import Rules
from ginsim.runner import runner
from ginsim.runner.jobs import Job
from ginsim.strategies import presets
from ginsim.strategies.presets import Strategy, parse_strategy


def test_a_job_carries_parsed_strategies_and_its_manifest_their_text():
    job = Job.make("simple", " memory2:knock=7 ", 100, 3, "classic")
    assert isinstance(job.a, Strategy) and isinstance(job.b, Strategy)
    assert job.b.spec == "memory2:knock=7" and job.rules == Rules.preset("classic")
    stored = job.to_dict()
    assert (stored["a"], stored["b"]) == ("simple", "memory2:knock=7")
    again = Job.from_dict(stored)
    assert np.array_equal(again.b.vector, job.b.vector) and again.rules == job.rules
    with pytest.raises(ValueError, match="must be a Strategy"):
        Job("simple", job.b, job.rules, 3, 0, 10)
    parsed = parse_strategy("memory1")
    assert Job.make(parsed, "simple", 10).a is parsed  # an object is kept, not re-parsed


def _refuse_text(*args: object) -> None:
    raise AssertionError("a spec was parsed from text during the run")


@pytest.mark.parametrize("records", ["full", "summary"])
def test_a_run_parses_no_spec_text(monkeypatch, records):
    """Chunks and slices play the job's objects: with the text parsers of strategies and
    rules made to fail, a run in many chunks of many slices still gives the same tables
    and records as one played before."""
    jobs = [Job.make("memory2", "simple:t=6", 3_000, 11, "oklahoma"),
            Job.make("simple", "gin_hunter", 2_000, 12, duplicate=True)]
    want = runner.run(jobs, records=records, n_jobs=1)
    monkeypatch.setattr(presets, "split_spec", _refuse_text)
    monkeypatch.setattr(Rules, "parse", classmethod(_refuse_text))
    monkeypatch.setattr(runner, "SLICE_HANDS", 300)
    got = runner.run(jobs, records=records, n_jobs=2, chunk_hands=700)
    for a, b in zip(want.tables, got.tables, strict=True):
        assert np.array_equal(a, b)
    if records == "full":
        for a, b in zip(want.records, got.records, strict=True):
            assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("base", ["simple", "memory2", "simple:draw=improve"])
def test_a_knock_player_is_the_spec_it_stands_for(base):
    for t in (0, 6, 10):
        player = knock_player(base, t)
        text = parse_strategy(f"{base}{',' if ':' in base else ':'}knock={t}")
        assert player.spec == text.spec
        assert np.array_equal(player.vector_for(Rules()), text.vector_for(Rules()))


def test_the_sweep_keeps_thresholds_as_data_and_plays_the_spec_they_name():
    """Each sweep row's threshold is the one given, and the run it labels plays exactly
    the hands of ``simple:knock=t`` against the opponent on the same duplicate deals."""
    sweep, runs = threshold_sweep((3, 9), ("memory2",), 150, seed=7, n_jobs=1, progress=False)
    assert list(sweep.threshold) == [3, 9] and list(sweep.opponent) == ["memory2", "memory2"]
    for t in (3, 9):
        hands = simulate(f"simple:knock={t}", "memory2", hands=300, seed=7, duplicate=True)
        frame = runs.frame((t, "memory2"))
        assert np.array_equal(frame.points_a.to_numpy(), hands.points_a.to_numpy())
        assert np.array_equal(frame.points_b.to_numpy(), hands.points_b.to_numpy())
    matrix = threshold_matrix((2, 8), 50, seed=7, n_jobs=1, progress=False)
    assert list(zip(matrix.threshold_a, matrix.threshold_b, strict=True)) == [
        (2, 2), (2, 8), (8, 2), (8, 8)]
    assert matrix["mean"].iloc[0] == 0 and matrix["mean"].iloc[3] == 0  # mirror matches


def test_the_knock_answer_hands_its_chart_over_as_data(monkeypatch):
    """An advice without a player spec plays its chart as data (no file is written) and
    measures exactly what the shipped chart's spec measures."""
    rules = Rules()
    named = equilibrium_advice(rules)
    data = dataclasses.replace(named, player=None)
    player = knock_answer.advice_player(data)
    assert np.array_equal(player.vector_for(rules), parse_strategy(named.player).vector_for(rules))
    want, *_ = knock_answer.measure_advice(named, ["simple"], 100, 5, rules, 1, False)
    monkeypatch.setattr(pathlib.Path, "write_text", _refuse_text)
    got, *_ = knock_answer.measure_advice(data, ["simple"], 100, 5, rules, 1, False)
    assert got.values.equals(want.values) and got.why == want.why
    with pytest.raises(ValueError, match="names no player"):
        knock_answer.advice_player(dataclasses.replace(data, chart=None))
