import pytest

from ginsim import parse_strategy
from ginsim.strategies.params import KIND_RANDOM, P_KIND, P_KNOCK


def test_spec_strings():
    assert parse_strategy("simple").vector[P_KNOCK] == 10
    assert parse_strategy("simple:t=6").vector[P_KNOCK] == 6
    assert parse_strategy("simple: knock = 0 ").vector[P_KNOCK] == 0
    assert parse_strategy("random").vector[P_KIND] == KIND_RANDOM
    assert parse_strategy("simple:kind=random").vector[P_KIND] == KIND_RANDOM


@pytest.mark.parametrize("spec,match", [
    ("smart", "unknown strategy 'smart'"),
    ("simple:x=1", "unknown parameter 'x'"),
    ("simple:t=abc", "expected a whole number"),
    ("simple:t=2.5", "whole number"),
    ("simple:t=-1", "whole number"),
    ("simple:t", "write key=value"),
    ("simple:kind=clever", "choose one of deadwood, random"),
    ("", "preset name like .simple. or a spec"),
])
def test_bad_specs(spec, match):
    with pytest.raises(ValueError, match=match):
        parse_strategy(spec)


def test_a_strategy_reads_its_chart_once(monkeypatch):
    """The vector is built once per strategy and a shipped chart is read once per
    process; every access still hands out a fresh, writable copy."""
    from ginsim.strategies import parse_strategy
    from ginsim.strategies.charts import knock_charts as charts

    charts._shipped_chart.cache_clear()
    reads = []
    real = charts.read_chart_file
    monkeypatch.setattr(charts, "read_chart_file", lambda path: reads.append(path) or real(path))
    first = parse_strategy("equilibrium")
    vectors = [first.vector for _ in range(3)] + [parse_strategy("equilibrium").vector]
    assert len(reads) == 1
    assert all((v == vectors[0]).all() for v in vectors)
    vectors[0][0] += 1  # a copy: the next access is unchanged
    assert first.vector[0] == vectors[1][0]
