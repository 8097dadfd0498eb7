"""The knock card's words and evidence (issue 41, item 3): ranges read aloud, every panel
in an answer of at most 500 characters under every rule set the report answers, the
Oklahoma upcard limit, intervals on the why sentence, near-even cells with their n, and
the value split's paired figures, each checked against a computation by hand."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from ginsim.analysis.intervals import Z95, clustered_mean, mean_interval
from ginsim.analysis.knock.knock_answer import ANSWER_LIMIT, knock_answer
from ginsim.analysis.knock.knock_card import (
    card_words,
    knock_card,
    panel_plans,
    stock_aloud,
    why_words,
    with_evidence,
)
from ginsim.analysis.knock.value_split import deal_nets, paired_gap
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import Rules
from ginsim.number_text import numbers_aloud

LABELS = ["28-31", "24-27", "20-23", "16-19", "12-15", "8-11", "4-7", "0-3"]

# The shipped modern chart for expert card play, as its cells read (K knock, . wait,
# e either), one string per deadwood 1..10, stock ranges in play order: typed from the
# chart file by hand, so the words below are a worked example, not the code's output.
MODERN = {"0": ["........", "........", "e.......", "K.......", "KKK.....", "KKKKK...",
                "KKKKe...", "KKKK....", "KKKK....", "KKKK...."],
          "1": ["........", "........", "........", "........", "e.......", "KKKK....",
                "KKK.....", "KKK.....", "KKK.....", "KK......"],
          "2+": ["........", "........", "........", "........", "........", "e.......",
                 "K.......", "e.......", "K.......", "e......."]}


def card_of(rows: dict[str, list[str]]) -> pd.DataFrame:
    """A knock card from letters: K knocks always, . never, e half the time."""
    p = np.zeros((10, 8, 3))
    for t, panel in enumerate(("0", "1", "2+")):
        for d, line in enumerate(rows[panel]):
            p[d, :, t] = [{"K": 1.0, ".": 0.0, "e": 0.5}[c] for c in line]
    return knock_card(p)


def test_numbers_and_stock_ranges_read_aloud():
    assert numbers_aloud([4, 5, 6, 7, 8, 9, 10]) == "4 to 10"
    assert numbers_aloud([7, 9]) == "7 and 9"
    assert numbers_aloud([1, 2, 3, 5, 8]) == "1 to 3, 5 and 8"
    assert numbers_aloud([6]) == "6"
    assert numbers_aloud([6, 7]) == "6 and 7" and numbers_aloud([1, 2, 5]) == "1, 2 and 5"
    assert stock_aloud(28, 31) == "28 or more"
    assert stock_aloud(20, 27) == "20 to 27"
    assert stock_aloud(0, 3) == "3 or fewer"


def test_the_modern_card_in_words_a_player_reads_aloud():
    """Each panel by runs of stock ranges that knock at the same deadwood; the answer
    names the KNOCK cells and no other, so with two pile cards taken and 28+ left it
    says 7 and 9 (8 is either: left out with the wait cells)."""
    words = card_words(card_of(MODERN))
    assert words == (
        "no pile card taken: knock with 4 to 10 deadwood and 28 or more cards left, "
        "5 to 10 at 20 to 27, 6 to 10 at 16 to 19, 6 at 12 to 15; "
        "one taken: 6 to 10 at 24 or more left, 6 to 9 at 20 to 23, 6 at 16 to 19; "
        "two or more: 7 and 9 at 28 or more left; else wait")
    assert not re.search(r"\d\+", words)  # no "4+" shorthand


@pytest.mark.parametrize("seed", range(20))
def test_every_plan_is_one_the_card_allows(seed):
    """Random cards: each run's plan is exactly the KNOCK cells of each of its ranges
    (no wait or either cell), and the runs cover every range once, in play order."""
    rng = np.random.default_rng(seed)
    p = rng.choice([0.0, 0.5, 1.0], size=(10, 8, 3), p=[0.5, 0.2, 0.3])
    card = knock_card(p)
    for _, cells in card.groupby("opp_taken", observed=True):
        plans = panel_plans(cells)
        lows = [int(s.split("-")[0]) for s in LABELS]
        covered = [low for low in lows if any(lo <= low <= hi for lo, hi, _ in plans)]
        assert covered == lows and [p[1] for p in plans] == sorted(
            [p[1] for p in plans], reverse=True)
        for low, high, plan in plans:
            inside = cells[[lo >= low and lo <= high
                            for lo in (int(s.split("-")[0]) for s in cells.stock.astype(str))]]
            for _, one in inside.groupby("stock", observed=True):
                assert set(one.deadwood[one.action == "KNOCK"]) == set(plan), (low, plan)


def _knocking_presets() -> list[str]:
    from ginsim.analysis.knock.equilibrium import equilibrium_advice

    return [name for name in RULES_PRESETS if Rules.preset(name).knocks
            and equilibrium_advice(name) is not None]


@pytest.mark.parametrize("preset", _knocking_presets())
def test_every_rule_set_answer_fits_and_names_every_panel(preset):
    """Under every preset the report answers from a shipped chart, with the widest
    figures a run can print, the answer is at most 500 characters and three sentences,
    spells out every panel (no pointer to "the other panels"), never cuts itself short,
    and under Oklahoma-style rules names the upcard's knock limit."""
    from ginsim.analysis.knock.equilibrium import equilibrium_advice

    rules = Rules.preset(preset)
    advice = equilibrium_advice(rules)
    wide = pd.DataFrame([{"opponent": "memory2", "mean": -12.34, "low": -13.45,
                          "high": -11.23, "deals": 5_000_000, "where": "measured in this run"}])
    advice = dataclasses.replace(advice, values=wide, exploitability=(0.123, -0.45, 12.34))
    answer = knock_answer(advice, rules)
    assert len(answer) <= ANSWER_LIMIT, (len(answer), answer)
    assert len(re.findall(r"[.!?](\s|$)", answer)) <= 3 and not answer.endswith("…")
    assert card_words(advice.card) in answer[0].lower() + answer[1:]
    panels = {str(t) for t in advice.card.opp_taken.unique()}
    if len({card_words(advice.card[advice.card.opp_taken.astype(str) == t]) for t in panels}
           ) > 1:
        for lead in ("No pile card taken: ", "; one taken: ", "; two or more: "):
            assert lead in answer, lead
    assert "other panels" not in answer and not re.search(r"\d\+", answer)
    assert ("upcard" in answer) == rules.oklahoma
    if rules.oklahoma:
        assert "Your knock limit is the upcard's value" in answer and "gin only" in answer
    assert "-12.34 points per hand against `memory2`" in answer or (
        "-12.34 per hand against `memory2`" in answer)
    assert "`expert` card play for both" in answer
    usual = pd.DataFrame([{"opponent": "simple", "mean": 4.14, "low": 4.02, "high": 4.26,
                           "deals": 100_000, "where": "measured in this run"}])
    answer = knock_answer(dataclasses.replace(advice, values=usual,
                                              exploitability=(0.01, -0.02, 0.06)), rules)
    assert len(answer) <= ANSWER_LIMIT and "+4.14" in answer and "`simple`" in answer
    assert "at most 0.06" in answer and "95% bound" in answer, answer  # the guarantee stays


def test_clustered_mean_by_hand():
    """Worked example: values 1, 2 (hand a), 3 (b), 6 (c); mean 3, cluster residuals -3,
    0, 3, so the variance is 3/2 x 18 / 16 and the half-width 1.96 x its root."""
    mean, low, high = clustered_mean(np.array([1.0, 2.0, 3.0, 6.0]),
                                     np.array(["a", "a", "b", "c"]))
    assert mean == 3.0
    assert high - mean == pytest.approx(Z95 * np.sqrt(1.5 * 18 / 16))
    values = np.random.default_rng(1).normal(size=50)
    assert np.allclose(clustered_mean(values, np.arange(50)),
                       mean_interval(values), rtol=0.02)  # n/(n-1) apart


def _decisions(rows: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["hand", "deadwood", "stock_left", "opp_taken",
                                       "net_knock", "net_wait"])


def test_near_even_cells_carry_their_decisions():
    """Deadwood 6 at 28+ (no pile card): knock wins clearly (not even); deadwood 7: one
    decision (no interval: even); deadwood 8: knock - wait of +1 and -1 (even); a
    second-panel cell counts its own decisions only; cells never reached show n = 0
    (min_n = 1 here; at the default 30 none of these cells has enough to be even)."""
    card = card_of(MODERN)
    rows = [(h, 6, 30, 0, 20, 0) for h in range(10)] + [(0, 6, 29, 0, 22, 0)]
    rows += [(20, 7, 30, 0, 5, 1), (21, 8, 28, 0, 3, 2), (22, 8, 31, 0, 1, 2)]
    rows += [(30, 6, 30, 1, 4, 4), (31, 6, 30, 3, 4, 4)]
    found = with_evidence(card, _decisions(rows), min_n=1)
    cell = found.set_index(["opp_taken", "deadwood", "stock"])
    assert cell.loc[("0", 6, "28-31"), "n"] == 11 and not cell.loc[("0", 6, "28-31"), "even"]
    assert cell.loc[("0", 7, "28-31"), "n"] == 1 and cell.loc[("0", 7, "28-31"), "even"]
    assert cell.loc[("0", 8, "28-31"), "gain"] == 0.0 and cell.loc[("0", 8, "28-31"), "even"]
    assert cell.loc[("1", 6, "28-31"), "n"] == 1 and cell.loc[("2+", 6, "28-31"), "n"] == 1
    assert cell.loc[("0", 1, "0-3"), "n"] == 0 and not cell.loc[("0", 1, "0-3"), "even"]
    assert list(found.columns[:6]) == list(card.columns[:6]) and len(found) == len(card)
    assert not with_evidence(card, _decisions(rows)).even.any()  # all under 30 decisions
    many = [(h, 8, 30, 0, 3 if h % 2 else 1, 2) for h in range(30)]  # +1/-1: even, n = 30
    cell = with_evidence(card, _decisions(many)).set_index(["opp_taken", "deadwood", "stock"])
    assert cell.loc[("0", 8, "28-31"), "n"] == 30 and cell.loc[("0", 8, "28-31"), "even"]


def test_why_sentence_carries_its_interval():
    """60 decisions waiting with deadwood 3 and 60 knocking with 8, two per hand: each
    figure comes with the interval computed by hand from per-hand sums."""
    card = card_of(MODERN)
    rng = np.random.default_rng(4)
    gains = rng.normal(6, 10, size=60).round()
    rows = [(i // 2, 3, 25, 0, 0, int(g)) for i, g in enumerate(gains)]
    rows += [(100 + i // 2, 8, 25, 0, 10, 2) for i in range(60)]
    text = why_words(card, _decisions(rows), gin_bonus=25)
    per_hand = gains.reshape(30, 2)
    resid = (per_hand - gains.mean()).sum(axis=1)
    half = Z95 * np.sqrt(30 / 29 * (resid ** 2).sum()) / 60
    want = (f"{gains.mean():+.1f} points (95% CI {gains.mean() - half:+.1f} to "
            f"{gains.mean() + half:+.1f}, 60 decisions in 30 hands)")
    assert want in text and "24 to 27 cards left" in text
    assert "+8.0 points (95% CI +8.0 to +8.0, 60 decisions in 30 hands) more" in text


def _hands(net_per_deal: list[float], start: int = 0) -> pd.DataFrame:
    """Duplicate-deal rows whose seat a nets the given points per deal."""
    rows = []
    for d, net in enumerate(net_per_deal):
        for seat in range(2):
            rows.append({"hand": 2 * (start + d) + seat, "points_a": 2 * net if seat else 0,
                         "points_b": 0})
    return pd.DataFrame(rows)


def test_paired_gap_is_over_the_same_deals():
    card = deal_nets(_hands([3, 5, 1, 7]))
    other = deal_nets(_hands([1, 1, 2, 2]))
    gap = paired_gap(card, other)
    diffs = np.array([2, 4, -1, 5], dtype=float)
    assert card[1].tolist() == [3, 5, 1, 7]
    assert gap[0] == pytest.approx(2.5)
    assert gap[2] - gap[0] == pytest.approx(Z95 * diffs.std(ddof=1) / 2)
    assert np.isnan(paired_gap(card, deal_nets(_hands([1, 1, 2, 2], start=4)))[0])


def test_a_figure_and_its_interval_are_written_one_way():
    from ginsim.number_text import NA, bracketed

    assert bracketed(1.5, -0.25, 3.125, "+.2f", "+7.2f", gap="  ") == "  +1.50  [-0.25, +3.12]"
    assert bracketed(0.1234, 0.11, 0.135, ".1%") == "12.3% [11.0%, 13.5%]"
    assert bracketed(float("nan"), 0.0, float("inf")) == f"{NA} [0.00, {NA}]"
