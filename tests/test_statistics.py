"""Statistical sanity of simple vs simple over 100,000 hands (fixed seed).

No published table covers this exact player (docs/references.md has none), so the bands
below are plausibility ranges, wide on purpose, reasoned from the rules: a player who
knocks at the first deadwood <= 10 ends most hands by a knock within 10-15 draws;
gin before that is rare (a few per cent); undercuts need the defender to be close
as well (a few per cent); the stock runs down to 2 cards only in a fraction of a per
cent. This engine measured gin 2.1%, undercut 4.5%, dead 0.16%, 12.4 draws
(seed 2024, 100,000 hands). A test passes only if the whole 95% interval lies in the
band, so a tolerance is never tighter than the sampling error.
"""

import pytest

from ginsim import simulate, summarize
from ginsim.analysis.summary import mean_interval

BANDS = {
    "rate_gin": (0.01, 0.04),
    "rate_undercut": (0.025, 0.08),
    "rate_dead": (0.0005, 0.006),
    "mean_turns": (10.0, 15.0),
}


@pytest.fixture(scope="module")
def simple_run():
    return simulate("simple", "simple", hands=100_000, seed=2024)


def test_rates_within_bands(simple_run):
    summary = summarize(simple_run).set_index("statistic")
    for name, (low, high) in BANDS.items():
        row = summary.loc[name]
        assert low <= row.low and row.high <= high, (name, row.value, row.low, row.high)
    assert summary.loc["rate_big_gin", "value"] == 0  # big gin is off in modern rules


def test_seats_are_fair(simple_run):
    # Dealing alternates, so neither seat is favoured: a 99.9% interval holds 0.
    diff = (simple_run.points_a - simple_run.points_b).to_numpy()
    mean, low, high = mean_interval(diff, z=3.29)
    assert low < 0 < high


def test_gin_only_players_mostly_reach_gin():
    hands = simulate("simple:t=0", "simple:t=0", hands=20_000, seed=1)
    share = hands.outcome.value_counts(normalize=True)
    assert share["gin"] > 0.85 and share["knock"] == 0 and share["undercut"] == 0
