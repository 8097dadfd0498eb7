"""The "when should I open?" study: paired differences, intervals and rates that
behave as they must on a fixed seed."""

from __future__ import annotations

import pytest

from ginsim.rami.play.study import NEVER, open_study


@pytest.fixture(scope="module")
def study():
    return open_study(deals=400, seed=2, players=(2, 4))


def test_reference_row_is_zero_and_intervals_bracket(study) -> None:
    table = study.table
    first = table[(table["family"] == "wait_turns") & (table["value"] == 0)]
    assert (first["vs_first_chance"] == 0).all() and (first["vs_low"] == 0).all()
    for mean, low, high in (("charge", "charge_low", "charge_high"),
                            ("p_dry", "p_dry_low", "p_dry_high"),
                            ("p_caught_unopened", "p_caught_low", "p_caught_high")):
        assert (table[low] <= table[mean] + 1e-12).all()
        assert (table[mean] <= table[high] + 1e-12).all()
    assert (table["deals"] == 400).all() and (table["rules"] == "rami").all()


def test_waiting_for_a_dry_rami_makes_more_of_them_with_two_players(study) -> None:
    """Holding everything back wins dry ramis that opening at once never waits for:
    with two players the rates' 95% intervals do not overlap on this seed."""
    two = study.table[(study.table["players"] == 2) & (study.table["family"] == "wait_turns")]
    first = two[two["value"] == 0].iloc[0]
    never = two[two["value"] == NEVER].iloc[0]
    assert never["p_dry_low"] > first["p_dry_high"]
    assert never["p_caught_unopened"] >= first["p_caught_unopened"]


def test_answer_leads_with_each_player_count(study) -> None:
    assert study.answer.startswith("Under rami rules, against `careful` "
                                   "play: With 2 players")
    assert "With 4 players" in study.answer and "n = 400 deals" in study.answer
    assert len(study.lines) == 2


def test_bad_study_input() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        open_study(deals=10, players=(7,))
    with pytest.raises(ValueError, match="deals must be"):
        open_study(deals=1)
