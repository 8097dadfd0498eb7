"""Game and match scoring (docs/rules.md §7, §8.3, §8.4, §8.6, §8.7) on hand-made
sequences, and the schedulers that play them (the same scoring kernel)."""

import numpy as np
import pytest

from ginsim import Rules
from ginsim.analysis.game_stats import game_summary, play_games
from ginsim.game.scoring.game_scoring import (
    HandResult,
    score_game,
    score_hollywood,
    score_multimatch,
    score_teams,
    score_three,
)
from ginsim.game.scoring.hand_scoring_nb import OUTCOMES
from ginsim.simulator.limits import MAX_GAME_HANDS
from ginsim.simulator.play.game_records import (
    play_game_hands,
    play_hollywood,
    play_multimatch,
    play_teams,
    play_three,
)

KNOCK, GIN, UNDERCUT, DEAD = (OUTCOMES.index(o) for o in ("knock", "gin", "undercut", "dead"))
MODERN = Rules()
CLASSIC = Rules.preset("classic")


def H(winner, points, outcome=KNOCK, multiplier=1):
    return HandResult(winner, points, outcome, multiplier)


def test_standard_game_with_boxes_and_bonus():
    hands = [H(0, 30), H(1, 20), H(-1, 0, DEAD), H(0, 50), H(1, 10), H(0, 25), H(1, 99)]
    score = score_game(hands, MODERN)
    # a reaches 105 on the sixth hand; b has 30. Boxes: a 3 x 25, b 2 x 25; game 100.
    assert score.winner == 0 and score.hands == 6 and not score.shutout
    assert score.points == (105, 30) and score.boxes == (3, 2)
    assert score.scores == (105 + 75 + 100, 30 + 50)
    assert score.margin == 280 - 80


def test_shutout_classic_doubles_and_modern_adds():
    hands = [H(1, 40), H(-1, 0, DEAD), H(1, 70)]
    classic = score_game(hands, CLASSIC)
    assert classic.winner == 1 and classic.shutout
    assert classic.scores == (0, (110 + 2 * 20 + 100) * 2)
    modern = score_game(hands, MODERN)
    assert modern.scores == (0, 110 + 2 * 25 + 100 + 100)
    none = score_game(hands, MODERN.with_(shutout="none"))
    assert none.scores == (0, 110 + 50 + 100)
    # The loser won a hand: no shutout either way.
    assert not score_game([H(0, 5), H(1, 100)], CLASSIC).shutout


def test_oklahoma_boxes():
    rules = Rules.preset("oklahoma")
    hands = [H(0, 60, UNDERCUT), H(0, 30, GIN, 2), H(1, 10, KNOCK, 2), H(0, 70)]
    score = score_game(hands, rules)
    assert score.boxes == (2 + 3 * 2 + 1, 2)
    assert score.points == (160, 10)


def test_game_not_over_is_an_error():
    with pytest.raises(ValueError, match="not over"):
        score_game([H(0, 10)], MODERN)


def test_hollywood_columns():
    rules = MODERN.with_(target=50)
    hands = [H(0, 30),  # a's 1st win: game 1 (a 30)
             H(1, 20),  # b's 1st win: game 1 (b 20)
             H(0, 25),  # a's 2nd: games 1, 2 -> game 1 a 55 >= 50: decided; game 2 a 25
             H(-1, 0, DEAD),
             H(0, 30),  # a's 3rd: game 2 (a 55: decided) and game 3 (a 30)
             H(1, 10),  # b's 2nd: games 2 (closed), 3? no: b has 2 wins -> games 1-2 only
             H(1, 40),  # b's 3rd: game 3 (b 40)
             H(0, 20)]  # a: game 3 a 50: decided
    games, used = score_hollywood(hands, rules)
    assert used == 8
    assert [g.winner for g in games] == [0, 0, 0]
    assert [g.points for g in games] == [(55, 20), (55, 0), (50, 40)]
    assert games[1].shutout and not games[0].shutout and not games[2].shutout


def test_multimatch_points():
    rules = MODERN.with_(target=50)
    hands = [H(0, 60),  # a wins match 1 with a shutout: 25 + 100 + 100
             H(1, 30), H(0, 10), H(1, 30)]  # b wins match 2: 25 + 25 + 100; a 25
    points, matches, used = score_multimatch(hands, rules, match_total=240)
    assert points == (225 + 25, 150) and matches == 2 and used == 4
    # The match points are rules: 10 a hand, 50 a match, nothing for a shutout.
    rules = rules.with_(match_hand_points=10, match_bonus=50, match_shutout_bonus=0)
    points, matches, used = score_multimatch(hands, rules, match_total=70)
    assert points == (10 + 50 + 10, 10 + 10 + 50) and matches == 2 and used == 4


def test_three_and_team_scoring():
    winner, scores, used = score_three([(2, 40), (-1, 0), (0, 30), (2, 70)],
                                       MODERN.with_(target=100))
    assert winner == 2 and used == 4
    assert scores == (30 + 25, 0, 110 + 2 * 25 + 100)
    # Team 0 wins both hands of round 1 (scores 30 + 20); round 2 split 40 vs 15: team 1
    # scores 25; round 3 team 0 wins both (50 + 60) and reaches 160.
    rounds = [((0, 30), (0, 20)), ((1, 40), (0, 15)), ((0, 50), (0, 60))]
    assert score_teams(rounds, MODERN) == (0, (160, 25), 3)
    assert score_teams([((0, 10), (-1, 0)), ((1, 200), (1, 1))], MODERN) == (1, (10, 201), 2)
    # The team target is a rule: to 150, round 3's 160 still wins, to 200 it does not.
    assert score_teams(rounds, MODERN.with_(team_target=150)) == (0, (160, 25), 3)
    with pytest.raises(ValueError, match="not over"):
        score_teams(rounds, MODERN.with_(team_target=200))


@pytest.fixture(scope="module")
def two_player_games():
    return play_game_hands("simple", "simple", 400, seed=3, rules=MODERN)


def test_kernel_dealer_rotation_and_game_ends(two_player_games):
    records, meta = two_player_games
    games = np.unique(meta[:, 0])
    assert len(games) == 400
    for g in games:
        rows = records[meta[:, 0] == g]
        for prev, nxt in zip(rows[:-1], rows[1:], strict=True):
            if prev["outcome"] == DEAD:
                assert nxt["dealer"] == prev["dealer"]  # dead hands are redealt
            else:
                loser = 1 if prev["points_a"] > prev["points_b"] else 0
                assert nxt["dealer"] == loser
        totals = np.cumsum(rows["points_a"]), np.cumsum(rows["points_b"])
        assert max(totals[0][-1], totals[1][-1]) >= 100
        assert max(totals[0][-2], totals[1][-2]) < 100 if len(rows) > 1 else True


@pytest.mark.parametrize("mode", ["winner", "alternate"])
def test_other_dealer_rules(mode):
    records, meta = play_game_hands("simple", "simple", 100, seed=4,
                                    rules=MODERN.with_(next_dealer=mode))
    for g in np.unique(meta[:, 0]):
        rows = records[meta[:, 0] == g]
        for prev, nxt in zip(rows[:-1], rows[1:], strict=True):
            if prev["outcome"] == DEAD:
                expected = prev["dealer"]
            elif mode == "winner":
                expected = 0 if prev["points_a"] > prev["points_b"] else 1
            else:
                expected = 1 - prev["dealer"]
            assert nxt["dealer"] == expected


def test_three_player_games():
    rows = play_three(["simple", "memory1", "memory2"], games=200, seed=2)
    assert set(rows["winner"]) <= {0, 1, 2}
    for r in rows:
        # The winner reached the target and took the game bonus (boxes may lift a loser).
        assert r[f"score_{r['winner']}"] >= 100 + 100


def test_three_player_seating_follows_the_rule():
    import ginsim.simulator.play.game_records as sg
    from ginsim.game.card_tables import card_tables
    from ginsim.game.scoring.game_scoring import pack_game_rules
    from ginsim.simulator.machine.buffers import Schedule
    from ginsim.simulator.play.games_nb import play_three_nb
    from ginsim.strategies import parse_strategy
    from ginsim.strategies.params import P_SIZE

    params = np.stack([parse_strategy("simple").vector] * 3)
    pair = np.zeros((2, P_SIZE))
    schedule = Schedule(MODERN.packed(), card_tables(MODERN), pack_game_rules(MODERN), 0, 0,
                        MAX_GAME_HANDS, sg.NO_WIN_TABLE)
    records, meta = sg._play_chunks(play_three_nb, 50, MAX_GAME_HANDS, np.uint64(1), params, pair,
                                    schedule)
    for g in range(50):
        idx = np.flatnonzero(meta[:, 0] == g)
        for i, j in zip(idx[:-1], idx[1:], strict=True):
            x, y = meta[i, 2], meta[i, 3]
            dealer = 3 - x - y
            rec = records[i]
            if rec["points_a"] == rec["points_b"]:
                assert (meta[j, 2], meta[j, 3]) == (x, y)  # dead: same dealer, same pair
                continue
            won, lost = (x, y) if rec["points_a"] > rec["points_b"] else (y, x)
            # The loser deals next; the winner plays the previous dealer.
            assert (meta[j, 2], meta[j, 3]) == (won, dealer)
            assert 3 - meta[j, 2] - meta[j, 3] == lost


def test_hollywood_multimatch_and_teams_run():
    hw = play_hollywood("memory2", "simple", games=100, seed=5)
    assert len(hw) == 300 and set(hw["column"]) == {1, 2, 3}
    mm = play_multimatch("simple", "simple", games=50, seed=5, match_total=300)
    assert (np.maximum(mm["match_points_a"], mm["match_points_b"]) >= 300).all()
    teams = play_teams(["simple"] * 4, games=300, seed=5)
    assert (np.maximum(teams["team_0"], teams["team_1"]) >= 125).all()
    share = (teams["winner"] == 0).mean()
    assert 0.35 < share < 0.65  # identical players: neither team favoured
    short = play_teams(["simple"] * 4, games=50, seed=5, rules=MODERN.with_(team_target=60))
    best = np.maximum(short["team_0"], short["team_1"])
    assert (best >= 60).all() and (best < 125).any()


def test_game_summary_and_determinism():
    games = play_games("memory2", "simple", games=3000, seed=11)
    again = play_games("memory2", "simple", games=3000, seed=11)
    assert games.equals(again)
    summary = game_summary(games).set_index("statistic")
    p = summary.loc["p_a_wins_game"]
    assert p.low > 0.5  # memory2 is the stronger player
    signed = np.where(games.winner == "a", games.margin, -games.margin)
    assert summary.loc["mean_margin_a", "value"] == pytest.approx(signed.mean())
    winner_points = np.where(games.winner == "a", games.points_a, games.points_b)
    loser_points = np.where(games.winner == "a", games.points_b, games.points_a)
    assert (winner_points >= 100).all() and (loser_points < 100).all()
