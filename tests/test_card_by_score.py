"""The knock card by the score (analysis/knock/card_by_score.py): its valuation of branch
outcomes against ``GameTable.win_after`` called decision by decision on a small
synthetic sample, its choices against a brute-force argmax, and the paired games with
and without a change of play against the same games played one by one."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ginsim.analysis.game_stats import paired_game_wins, play_games
from ginsim.analysis.intervals import clustered_mean
from ginsim.analysis.knock.card_by_score import (
    ACTION_P_KNOCK,
    branch_wins,
    report_scores,
    score_aware,
    score_card,
    score_card_of,
)
from ginsim.analysis.knock.knock_card import threshold_card
from ginsim.game.rules import Rules
from ginsim.game.scoring.game_equity import hand_outcomes, solve_game_table
from ginsim.strategies.grid_nb import bucket_labels, stock_buckets
from ginsim.strategies.presets import parse_strategy

TARGET = 40
SCORES = [("level", 0, 0), ("ahead", 30, 5), ("behind", 5, 30), ("near", 36, 37)]


def _table(next_dealer: str):
    """A game table to 40 from a toy hand distribution (each dealer's hands differ)."""
    rng = np.random.default_rng(4)
    hands = 3000
    dealer = np.arange(hands) % 2
    winner = rng.choice([-1, 0, 1], hands, p=[0.1, 0.5, 0.4])
    points = rng.integers(1, 30, hands)
    pa = np.where(winner == 0, points, 0)
    pb = np.where(winner == 1, points + 5 * dealer, 0)
    rules = Rules.coerce(f"modern:target={TARGET},next_dealer={next_dealer}")
    outcomes = hand_outcomes(dealer, pa, pb, np.zeros(hands, int), np.ones(hands, int), rules)
    return solve_game_table(outcomes, rules, boot=0)


def _decisions(rows: int = 700) -> pd.DataFrame:
    """Branch outcomes as ``knock_decisions`` gives them: nets from a loss past the target
    to a win past it, dead hands (0) included, a few cells crowded and most thin."""
    rng = np.random.default_rng(11)
    deadwood = rng.integers(1, 4, rows)
    lean = np.select([deadwood == 1, deadwood == 3], [20, -20], 0)  # knock good, bad, even
    return pd.DataFrame({
        "hand": rng.integers(0, 200, rows), "deadwood": deadwood,
        "stock_left": rng.choice([30, 22, 9], rows), "opp_taken": rng.integers(0, 4, rows),
        "dealer": rng.integers(0, 2, rows),
        "net_knock": np.clip(rng.integers(-45, 46, rows) + lean, -45, 45),
        "net_wait": np.where(rng.random(rows) < 0.2, 0, rng.integers(-45, 46, rows))})


def _brute_win(table, me: int, opp: int, dealer: int, net: int) -> float:
    """One branch's chance, the table's own win_after (the decider is seat a)."""
    winner = -1 if net == 0 else 0 if net > 0 else 1
    return table.win_after(me, opp, 0 if dealer == 1 else 1, winner, abs(int(net)))


@pytest.mark.parametrize("next_dealer", ["loser", "winner", "alternate"])
def test_branch_values_are_win_after_decision_by_decision(next_dealer):
    table = _table(next_dealer)
    decisions = _decisions(300)
    for _, me, opp in SCORES:
        knock, wait = branch_wins(decisions, table, me, opp)
        for i, row in enumerate(decisions.itertuples()):
            assert knock[i] == pytest.approx(_brute_win(table, me, opp, row.dealer,
                                                        row.net_knock), abs=1e-12)
            assert wait[i] == pytest.approx(_brute_win(table, me, opp, row.dealer,
                                                       row.net_wait), abs=1e-12)
    with pytest.raises(ValueError, match="below the target"):
        branch_wins(decisions, table, TARGET, 0)


def _cell(row) -> tuple[str, int, str]:
    labels = bucket_labels()
    stock = labels[int(stock_buckets(np.array([row.stock_left]))[0])]
    return ("2+" if row.opp_taken >= 2 else str(row.opp_taken), int(row.deadwood), stock)


@pytest.mark.parametrize("with_card", ["", "low", "all"])
def test_score_card_picks_the_clearly_better_branch_by_brute_force(with_card):
    table, decisions, min_n = _table("loser"), _decisions(), 15
    card = threshold_card(2 if with_card == "low" else 3, knock_limit=3) if with_card else None
    cards = score_card(decisions, table, SCORES, card, min_n=min_n)
    groups: dict[tuple, list] = {}
    for row in decisions.itertuples():
        groups.setdefault(_cell(row), []).append(row)
    changed = clear = 0
    for name, me, opp in SCORES:
        mine = cards[cards.score == name].set_index(["opp_taken", "deadwood", "stock"])
        assert (mine.win_here == table.at("win", me, opp)).all()
        for key, rows in groups.items():
            gains = [_brute_win(table, me, opp, r.dealer, r.net_knock)
                     - _brute_win(table, me, opp, r.dealer, r.net_wait) for r in rows]
            points = np.mean([r.net_knock - r.net_wait for r in rows])
            mean, low, high = clustered_mean(np.array(gains), np.array([r.hand for r in rows]))
            if card is not None:
                hand = "KNOCK" if key[1] <= (2 if with_card == "low" else 3) else "wait"
            else:
                hand = "KNOCK" if points > 0 else "wait"
            want = hand
            if len(rows) >= min_n and low > 0:
                want = "KNOCK"
            elif len(rows) >= min_n and high < 0:
                want = "wait"
            got = mine.loc[key]
            assert got.n == len(rows)
            assert got.gain == pytest.approx(mean, abs=1e-12)
            assert (got.gain_low, got.gain_high) == pytest.approx((low, high), abs=1e-12)
            assert got.points_gain == pytest.approx(points)
            assert (got.hand_action, got.action) == (hand, want), (name, key)
            assert got.p_knock == ACTION_P_KNOCK[want]
            changed += want != hand
            clear += len(rows) >= min_n and (low > 0 or high < 0)
        if card is not None:  # every cell of the card, those no decision reached as they were
            assert len(mine) == len(card)
            empty = mine[mine.n == 0]
            assert (empty.action == empty.hand_action).all()
    assert clear > 0 and (changed > 0 or with_card != "all")  # the sample leans so


def test_score_card_words_read_like_the_card():
    """A score at which nothing changes reads as the hand's card, word for word."""
    table, decisions = _table("loser"), _decisions()
    card = threshold_card(2, knock_limit=3)
    cards = score_card(decisions, table, SCORES, card, min_n=10**6)  # every cell too thin
    for name, _, _ in SCORES:
        got = score_card_of(cards, name)
        assert (got.action.to_numpy() == card.action.to_numpy()).all()


def test_report_scores_scale_with_the_target():
    assert report_scores(Rules.coerce("modern")) == [
        ("level", 0, 0), ("ahead", 85, 30), ("behind", 30, 85), ("near the target", 90, 90)]
    assert [s[1:] for s in report_scores(Rules.coerce("oklahoma"))] == [
        (0, 0), (128, 45), (45, 128), (135, 135)]


def test_paired_games_are_the_same_games_played_one_by_one():
    rules = Rules.coerce("modern:target=50")
    worth = paired_game_wins("simple", "expert", "simple", 300, 9, rules).set_index("play")
    alone = {s: (play_games(s, "simple", 300, 9, rules).winner == "a").to_numpy()
             for s in ("simple", "expert")}
    assert worth.loc["without", "won"] == alone["simple"].sum()
    assert worth.loc["with", "won"] == alone["expert"].sum()
    diff = alone["expert"].astype(float) - alone["simple"]
    assert worth.loc["gain", "rate"] == pytest.approx(diff.mean())
    half = 1.959963984540054 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert worth.loc["gain", "high"] - worth.loc["gain", "rate"] == pytest.approx(half)
    same = paired_game_wins("expert", "expert", "simple", 200, 9, rules).set_index("play")
    assert same.loc["gain", "rate"] == 0 and same.loc["gain", "high"] == 0
    assert same.loc["with", "won"] == same.loc["without", "won"]


def test_score_aware_play_is_found_only_where_a_score_chart_is():
    pair = score_aware("expert", Rules.coerce("modern"))
    assert pair is not None and [p.spec for p in pair] == ["expert:game=0", "expert:game=1"]
    assert pair[1].score_chart_for(Rules.coerce("modern")) is not None
    for spec in ("oklahoma", "classic", "tedesco"):  # gated by a score chart for the rules
        rules = Rules.coerce(spec)
        chart = parse_strategy("expert:game=1").score_chart_for(rules)
        assert (score_aware("expert", rules) is None) == (chart is None), spec
    assert score_aware("simple", Rules.coerce("modern")) is None
    assert score_aware("no_such_preset", Rules.coerce("modern")) is None
