"""The advisor for the game and for a review (issues 59 and 60): each option's chance of
winning the game at a score, "close" where the best's interval does not clear the next
one's, and rollouts spent until the intervals are as narrow as asked."""

import json

import numpy as np
import pytest

from ginsim.analysis.advise import advice_words, advise
from ginsim.analysis.game_stats import advice_game_table
from ginsim.cli import main
from ginsim.game.rules import Rules
from ginsim.simulator.branches.advisor import make_position, opponent_draws, run_rollouts

HAND, DRAWN = "AS 2S 3S 7H 7D 7C 9C TC 4D KD", "5H"


@pytest.fixture(scope="module")
def table():
    return advice_game_table(Rules())


def test_game_win_values_each_rollouts_hand_with_the_game_table(table):
    """game_win is the mean over the worlds of the game table's chance after each
    rollout's hand (win_after, one hand at a time, the dealer unknown: both dealers'
    mean), in the same worlds as the points."""
    frame = advise(HAND, DRAWN, stock_left=20, rollouts=300, seed=7, score=(85, 30))
    position = make_position(HAND, DRAWN, stock_left=20)
    options, _, net, _, points = run_rollouts(position, "expert", "simple", Rules(), 300, 7,
                                              opponent_draws(position))
    for o, (card, knock) in enumerate(options):
        wins = []
        for n, p in zip(net[:, o], points[:, o], strict=True):
            winner = -1 if n == 0 else (0 if n > 0 else 1)
            wins.append(np.mean([table.win_after(85, 30, d, winner, int(p)) for d in (0, 1)]))
        row = frame[(frame.discard == _text(card)) & (frame.knock == bool(knock))].iloc[0]
        assert row.game_win == pytest.approx(np.mean(wins))
        assert row.game_win_low <= row.game_win <= row.game_win_high
        assert row.expected_points == pytest.approx(net[:, o].mean())
    assert "expert against expert" in advice_words(frame)


def _text(card: int) -> str:
    from ginsim.game.cards import format_cards
    return format_cards([int(card)])


def test_game_win_rises_with_my_score():
    """The same worlds valued at a lead and at a deficit: every option wins the game
    more often ahead."""
    ahead = advise(HAND, DRAWN, stock_left=20, rollouts=200, seed=3, score=(80, 20))
    behind = advise(HAND, DRAWN, stock_left=20, rollouts=200, seed=3, score=(20, 80))
    merged = ahead.merge(behind, on="option", suffixes=("_ahead", "_behind"))
    assert (merged.game_win_ahead > merged.game_win_behind + 0.3).all()
    assert (ahead.game_win.between(0, 1)).all()


def test_recommended_only_where_the_best_clears_the_rest():
    """Two kings of a symmetric hand are worth the same: the best's interval overlaps
    the other's, so nothing is recommended and the words say close; a gin is clear."""
    twins = advise("AS 2S 3S 4S 5S 6S 7S 8S 9S KD", "KH", stock_left=20, rollouts=300,
                   seed=1)
    for frame in (twins, advise(HAND.replace("4D", "JC"), "QC", stock_left=17,
                                rollouts=600, seed=1)):
        best, rest = frame.iloc[0], frame.iloc[1:]
        clear = bool(best.low > rest.high.max())
        assert bool(best.recommended) == clear and frame.recommended.sum() == int(clear)
        assert bool(best.close) == (not clear) and frame.best.sum() == 1
        assert (frame.close.iloc[1:] == (rest.high >= best.low)).all()
        assert advice_words(frame).startswith("Recommended" if clear else "Close")
    assert not twins.recommended.any() and "their 95% intervals overlap" in advice_words(twins)


def test_precision_spends_rollouts_until_each_interval_is_narrow():
    frame = advise(HAND, DRAWN, stock_left=20, rollouts=200, seed=2, precision=2.0,
                   max_rollouts=20_000)
    assert ((frame.high - frame.low) / 2 <= 2.0).all()
    assert 200 < frame.rollouts.iloc[0] <= 20_000
    capped = advise(HAND, DRAWN, stock_left=20, rollouts=200, seed=2, precision=0.1,
                    max_rollouts=500)
    assert capped.rollouts.iloc[0] == 500


def test_precision_with_a_history_keeps_each_batchs_runs_apart():
    history = ("dealer:op up:6S me:pass op:pass me:stock me:-QH op:stock op:-KH me:stock "
               "me:-JS op:stock op:-QS")
    frame = advise("AS 2S 3S 7H 7D 7C 9C TC 4D KD", "5H", history=history, rollouts=100,
                   seed=1, precision=4.0, max_rollouts=1000)
    assert frame.rollouts.iloc[0] > 100 and frame.opponent_deadwood_se.iloc[0] > 0
    assert ((frame.high - frame.low) / 2 <= 4.0).all() or frame.rollouts.iloc[0] == 1000


def test_each_loss_is_the_paired_difference_from_the_best():
    """``loss`` is the best's value less the option's; its interval holds it, is no
    wider than the two values' intervals side by side (the same worlds), and with
    ``precision_of="losses"`` rollouts are spent until every loss interval is within the
    precision, fewer than the values themselves need."""
    frame = advise(HAND, DRAWN, stock_left=20, rollouts=300, seed=4)
    assert frame.loss.iloc[0] == 0 and frame.loss_low.iloc[0] == frame.loss_high.iloc[0] == 0
    best = frame.iloc[0]
    for row in frame.itertuples():
        assert row.loss == pytest.approx(best.expected_points - row.expected_points)
        assert row.loss_low <= row.loss <= row.loss_high
        assert (row.loss_high - row.loss_low) <= (best.high - best.low) + (row.high - row.low)
    losses = advise(HAND, DRAWN, stock_left=20, rollouts=200, seed=2, precision=2.0,
                    max_rollouts=20_000, precision_of="losses")
    values = advise(HAND, DRAWN, stock_left=20, rollouts=200, seed=2, precision=2.0,
                    max_rollouts=20_000)
    assert ((losses.loss_high - losses.loss_low) / 2 <= 2.0).all()
    assert losses.rollouts.iloc[0] <= values.rollouts.iloc[0]
    with pytest.raises(ValueError, match="precision_of"):
        advise(HAND, DRAWN, rollouts=50, precision=2.0, precision_of="widths")


def test_a_chosen_options_loss_is_narrowed_alone():
    """With ``chosen``, rollouts go until that option's loss against the best of the
    others is within the precision (the runner-up's loss where it is the best): no
    more than every loss needs; a choice that is not an option is refused."""
    kw = {"stock_left": 20, "rollouts": 200, "seed": 2, "precision": 1.0,
          "max_rollouts": 20_000, "precision_of": "losses"}
    every = advise(HAND, DRAWN, **kw)
    for card in ("KD", every.discard.iloc[0]):
        frame = advise(HAND, DRAWN, chosen=("discard", card), **kw)
        row = frame.index[(frame.discard == card) & ~frame.knock][0]
        versus = frame.iloc[row if row else 1]
        assert (versus.loss_high - versus.loss_low) / 2 <= 1.0
        assert frame.rollouts.iloc[0] <= every.rollouts.iloc[0]
    with pytest.raises(ValueError, match="not one of the options"):
        advise(HAND, DRAWN, chosen=("discard", "QS"), **kw)


def test_cli_score_gives_each_option_its_game_win(capsys):
    argv = ["advise", "--hand", HAND, "--drawn", DRAWN, "--rollouts", "200", "--score",
            "85-30"]
    assert main([*argv, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert all(0 <= r["game_win"] <= 1 for r in rows) and sum(r["best"] for r in rows) == 1
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert " game" in out and "game table of expert against expert under modern" in out
    assert main([*argv[:-1], "85-130"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--score 85-130" in err[0]
