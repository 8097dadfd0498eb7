"""Every game mode through ginsim.analysis.game_modes: its figures equal the ones counted
by hand from the simulator's rows (Wilson and normal intervals written out here)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ginsim.analysis.game_modes import game_mode_summary
from ginsim.simulator.play import game_records as sim

Z = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def normal(values: np.ndarray) -> tuple[float, float, float]:
    values = [float(v) for v in values]
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, mean - Z * sd / math.sqrt(n), mean + Z * sd / math.sqrt(n)


def row(frame, group: str, statistic: str) -> tuple[float, float, float]:
    r = frame.set_index(["group", "statistic"]).loc[(group, statistic)]
    return r.value, r.low, r.high


def test_three_players_and_teams_match_a_count_by_hand() -> None:
    three = game_mode_summary(["memory2", "simple", "simple"], 40, 5)
    rows = sim.play_three(["memory2", "simple", "simple"], 40, 5)
    for p in range(3):
        k = int(sum(int(w) == p for w in rows["winner"]))
        assert row(three, f"player {p}", "p_wins") == pytest.approx((k / 40, *wilson(k, 40)))
        assert row(three, f"player {p}", "mean_score") == pytest.approx(
            normal(rows[f"score_{p}"]))
    teams = game_mode_summary(["memory2", "simple", "simple", "simple"], 30, 2)
    rows = sim.play_teams(["memory2", "simple", "simple", "simple"], 30, 2)
    k = int(sum(int(w) == 0 for w in rows["winner"]))
    assert row(teams, "team 1", "p_wins") == pytest.approx((k / 30, *wilson(k, 30)))
    assert row(teams, "team 1", "mean_rounds") == pytest.approx(normal(rows["rounds"]))


def test_two_player_systems_match_a_count_by_hand() -> None:
    holly = game_mode_summary(["memory2", "simple"], 20, 3, system="hollywood")
    rows = sim.play_hollywood("memory2", "simple", 20, 3)
    for c in (1, 2, 3):
        col = [r for r in rows if int(r["column"]) == c]
        k = sum(int(r["winner"]) == 0 for r in col)
        signed = [r["margin"] if int(r["winner"]) == 0 else -r["margin"] for r in col]
        assert row(holly, f"game {c}", "p_a_wins") == pytest.approx((k / 20, *wilson(k, 20)))
        assert row(holly, f"game {c}", "mean_margin_a") == pytest.approx(normal(signed))
    multi = game_mode_summary(["memory2", "simple"], 6, 1, system="multimatch",
                              match_total=200)
    rows = sim.play_multimatch("memory2", "simple", 6, 1, match_total=200)
    k = int(sum(int(w) == 0 for w in rows["winner"]))
    assert row(multi, "a", "p_a_wins") == pytest.approx((k / 6, *wilson(k, 6)))
    assert row(multi, "a", "mean_hands") == pytest.approx(normal(rows["hands"]))
    standard = game_mode_summary(["memory2", "simple"], 30, 4, rules="modern:target=50")
    games = sim.game_records("memory2", "simple", 30, 4, "modern:target=50")
    k = int(sum(int(w) == 0 for w in games["winner"]))
    assert row(standard, "a", "p_a_wins_game") == pytest.approx((k / 30, *wilson(k, 30)))


@pytest.mark.parametrize("strategies,system,word", [
    (["simple"], "standard", "2, 3 or 4 players"),
    (["simple"] * 3, "hollywood", "two players"),
    (["simple"] * 2, "chicago", "unknown game system"),
])
def test_bad_modes_are_named(strategies, system, word) -> None:
    with pytest.raises(ValueError, match=word):
        game_mode_summary(strategies, 5, 0, system=system)
