"""Knock charts for the game score: "knock now or wait?" answered by the chance of
winning the game, not the hand's points.

The evidence is the knock chart's counterfactual branches
(:func:`~ginsim.simulator.branches.knock_branches.knock_decisions`) of ``base`` card
play knocking by its hand-level equilibrium chart against itself: at every decision
point, the net points of "knock now" and of "wait and follow the chart". The game table
of the same play (:func:`ginsim.analysis.game_stats.game_table`) turns each branch's
result into the chance of winning the game from the score it leaves. For each cell of
the score grid (each side's distance to the target, 6 x 6 buckets,
:mod:`ginsim.strategies.charts.score_charts`), every decision point is valued at the
scores of that bucket, weighted by how often games of that play start a hand there;
the chart knocks where knocking wins more games summed over the cell's points (a
policy-improvement step on the hand-level chart, one per score bucket). Cells with too
few points keep the hand-level chart.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date

import numpy as np

from ...game.deal_ranges import deal_block
from ...game.rules import NEXT_DEALER_MODES, Rules
from ...game.scoring.deal_order_nb import next_dealer_code_nb
from ...game.scoring.game_equity import GameTable
from ...simulator.branches.best_response import MIN_CELL_POINTS
from ...simulator.branches.knock_branches import knock_decisions
from ...simulator.play.game_records import play_game_hands
from ...strategies.charts.knock_charts import SHAPE
from ...strategies.charts.score_charts import (
    SCORE_SHAPE,
    ScoreChart,
    distance_edges,
    distance_labels,
)
from ...strategies.charts.score_grid_nb import SCORE_BUCKETS
from ...strategies.grid_nb import grid_cells
from ...strategies.params import GRID_CELLS, P_GRID
from ...strategies.presets import parse_strategy
from ..game_stats import game_table

SMOOTHING = 0.02  # share of a uniform weight added to the visit counts of each score


def score_visits(base: str, opponent: str, rules: Rules, games: int, seed: int
                 ) -> np.ndarray:
    """float64[T, T]: how often a hand starts at ``[my points, the opponent's]`` in games
    of ``base`` against ``opponent`` (both seats' views counted), plus a small uniform
    share."""
    records, meta = play_game_hands(base, opponent, games, seed, rules)
    target = rules.target
    game = meta[:, 0]
    start_of_game = np.r_[True, game[1:] != game[:-1]]
    visits = np.zeros((target, target))
    for col_me, col_them in (("points_a", "points_b"), ("points_b", "points_a")):
        mine = _scores_before(records[col_me].astype(np.int64), start_of_game)
        theirs = _scores_before(records[col_them].astype(np.int64), start_of_game)
        keep = (mine < target) & (theirs < target)
        np.add.at(visits, (mine[keep], theirs[keep]), 1.0)
    return visits + SMOOTHING * visits.sum() / visits.size


def _scores_before(points: np.ndarray, start_of_game: np.ndarray) -> np.ndarray:
    """Each hand's points toward the game so far (0 at a game's first hand)."""
    total = np.cumsum(points)
    game_id = np.cumsum(start_of_game) - 1
    first = np.flatnonzero(start_of_game)
    return total - points - (total - points)[first][game_id]


def outcome_values(table: GameTable, mine: np.ndarray, theirs: np.ndarray,
                   nets: np.ndarray) -> np.ndarray:
    """float64[len(scores), 2, len(nets)]: my chance of winning the game when the hand I
    (seat a of ``table``) play at ``mine`` to ``theirs``, dealt by ``d`` (0: me, 1: the
    opponent), ends with my net points ``net`` (> 0: I score it; < 0: the opponent
    scores -net; 0: dead, dealt again)."""
    target = table.rules.target
    mode = NEXT_DEALER_MODES.index(table.rules.next_dealer)
    out = np.empty((len(mine), 2, len(nets)))
    a = mine[:, None]
    b = theirs[:, None]
    for d in range(2):
        won = nets[None, :] > 0
        lost = nets[None, :] < 0
        na = np.where(won, a + nets[None, :], a)
        nb = np.where(lost, b - nets[None, :], b)
        value = table.win[d, a, b] * np.ones_like(na, dtype=float)  # a dead hand
        after_win = table.win[next_dealer_code_nb(d, 0, mode), np.minimum(na, target - 1), b]
        after_loss = table.win[next_dealer_code_nb(d, 1, mode), a, np.minimum(nb, target - 1)]
        value = np.where(won, np.where(na >= target, 1.0, after_win), value)
        value = np.where(lost, np.where(nb >= target, 0.0, after_loss), value)
        out[:, d, :] = value
    return out


def score_gains(table: GameTable, mine: int, theirs: int, decisions) -> np.ndarray:
    """Per decision point (``decisions``: ``net_knock``, ``net_wait``, ``dealer`` columns
    of the knock branches), the game-win chance knocking adds over waiting for the
    chooser (seat a of ``table``) at ``mine`` to ``theirs`` points."""
    knock = np.asarray(decisions["net_knock"], dtype=np.int64)
    wait = np.asarray(decisions["net_wait"], dtype=np.int64)
    dealer = 1 - np.asarray(decisions["dealer"], dtype=np.int64)
    low = int(min(knock.min(), wait.min())) if len(knock) else 0
    high = int(max(knock.max(), wait.max())) if len(knock) else 0
    values = outcome_values(table, np.array([mine]), np.array([theirs]),
                            np.arange(low, high + 1))[0]
    return values[dealer, knock - low] - values[dealer, wait - low]


def bucket_values(table: GameTable, visits: np.ndarray, nets: np.ndarray) -> np.ndarray:
    """float64[6, 6, 2, len(nets)]: :func:`outcome_values` averaged over the scores of
    each score bucket, weighted by ``visits``."""
    target = table.rules.target
    edges = [0, *distance_edges(target).tolist(), target]
    out = np.empty((SCORE_BUCKETS, SCORE_BUCKETS, 2, len(nets)))
    for i in range(SCORE_BUCKETS):
        mine_range = np.arange(target - edges[i + 1], target - edges[i])
        for j in range(SCORE_BUCKETS):
            theirs_range = np.arange(target - edges[j + 1], target - edges[j])
            mine, theirs = (g.ravel() for g in np.meshgrid(mine_range, theirs_range,
                                                           indexing="ij"))
            w = visits[mine, theirs]
            values = outcome_values(table, mine, theirs, nets)
            out[i, j] = np.tensordot(w / w.sum(), values, axes=(0, 0))
    return out


@dataclass(frozen=True)
class Evidence:
    """Decision points in one flat array each: grid cell, dealer index (0: the chooser
    dealt) and the net points of knocking and of waiting."""

    cell: np.ndarray
    dealer: np.ndarray
    knock: np.ndarray
    wait: np.ndarray
    hands: int

    def gains(self, values: np.ndarray, nets_low: int) -> np.ndarray:
        """float64[6, 6, GRID_CELLS]: per score bucket and chart cell, the game-win
        chance knocking adds over waiting, summed over the cell's points."""
        out = np.empty((SCORE_BUCKETS, SCORE_BUCKETS, GRID_CELLS))
        for i in range(SCORE_BUCKETS):
            for j in range(SCORE_BUCKETS):
                v = values[i, j]
                diff = (v[self.dealer, self.knock - nets_low]
                        - v[self.dealer, self.wait - nets_low])
                out[i, j] = np.bincount(self.cell, weights=diff, minlength=GRID_CELLS)
        return out

    @property
    def counts(self) -> np.ndarray:
        return np.bincount(self.cell, minlength=GRID_CELLS)


def evidence(base: str, opponent: str, rules: Rules, hands: int, seed: int, start: int
             ) -> Evidence:
    """The branches of ``hands`` hands of ``base`` against ``opponent`` from hand
    ``start``."""
    rows = knock_decisions(base, opponent, hands=hands, seed=seed, rules=rules, start=start)
    return Evidence(grid_cells(rows["deadwood"], rows["stock_left"], rows["opp_taken"]),
                    (1 - rows["dealer"]).astype(np.int64), rows["net_knock"].astype(np.int64),
                    rows["net_wait"].astype(np.int64), hands)


@dataclass(frozen=True)
class ScoreChartResult:
    """A score chart and its figures: ``exploitability`` and ``gain_over_hand_chart``
    are game-win chances per hand (evaluation hands: what the best response found there
    adds over the chart; what the chart adds over the hand-level chart), weighted over
    the score buckets by how often games visit them; ``hands_per_game`` converts."""

    chart: ScoreChart
    exploitability: float
    gain_over_hand_chart: float
    hands_per_game: float
    seconds: float


def make_score_chart(base: str = "expert", rules: Rules | str | None = None,
                     hands: int = 200_000, games: int = 20_000, table_hands: int = 200_000,
                     seed: int = 0, name: str | None = None, command: str = "",
                     opponents: tuple[str, ...] | None = None,
                     weights: tuple[float, ...] | None = None) -> ScoreChartResult:
    """The score chart of ``base`` card play under ``rules`` (module docstring):
    ``hands`` training and as many evaluation hands of branches, ``games`` games for the
    score weights, ``table_hands`` hands for the game table. With ``opponents`` (default:
    ``base`` itself) the evidence of each opponent, valued by the game table of ``base``
    against it, is added up (times its ``weights``, default 1 each): the chart that wins
    most games against them all together."""
    t0 = time.perf_counter()
    rules = Rules.coerce(rules).check_games()
    strategy = parse_strategy(base)
    hand_p = strategy.vector_for(rules)[P_GRID:P_GRID + GRID_CELLS]
    if hand_p.min() < 0:
        raise ValueError(f"{base} knocks by no chart: a score chart refines a knock chart "
                         f"(give expert, learned or equilibrium)")
    opponents = opponents or (base,)
    weights = weights or (1.0,) * len(opponents)
    if len(weights) != len(opponents) or min(weights) <= 0:
        raise ValueError(f"give one weight above 0 per opponent, got {weights} for "
                         f"{len(opponents)} opponents")
    parts = [_opponent_part(base, opponent, rules, hands, games, table_hands, seed)
             for opponent in opponents]
    p = choose_knocks(sum(w * part[0] for w, part in zip(weights, parts, strict=True)),
                      sum(part[1] for part in parts), hand_p)
    exploit = over = 0.0
    for _, _, held_gains, weight, held_hands in parts:
        best = np.maximum(held_gains, 0.0)
        exploit += float((weight[..., None] * (best - held_gains * p)).sum()) / held_hands
        over += float((weight[..., None] * held_gains * (p - hand_p[None, None, :])).sum()
                      ) / held_hands
    exploit /= len(parts)
    over /= len(parts)
    per_game = _hands_per_game(base, rules, table_hands, seed)
    seconds = time.perf_counter() - t0
    info = {"command": command, "base": base, "opponents": list(opponents),
            "weights": list(weights),
            "rules": rules.spec(), "rules_fields": rules.to_dict(), "target": rules.target,
            "seed": seed, "hands": hands, "games": games, "table_hands": table_hands,
            "date": date.today().isoformat(), "distance_buckets": distance_labels(rules.target),
            "exploitability_win_per_hand": exploit, "gain_over_hand_chart_win_per_hand": over,
            "hands_per_game": per_game, "exploitability_win_per_game": exploit * per_game,
            "seconds": round(seconds, 1)}
    chart = ScoreChart(p.reshape(SCORE_SHAPE), name or f"score chart of {base}", info)
    return ScoreChartResult(chart, exploit, over, per_game, seconds)


def choose_knocks(gains: np.ndarray, counts: np.ndarray, hand_p: np.ndarray) -> np.ndarray:
    """float64[6, 6, GRID_CELLS]: knock (1) where the summed game-win ``gains`` of
    knocking over waiting are above 0, else wait (0); a chart cell with fewer than
    ``MIN_CELL_POINTS`` decision points (``counts``) keeps the hand chart's ``hand_p``."""
    seen = np.asarray(counts) >= MIN_CELL_POINTS
    return np.where(seen[None, None, :], (gains > 0).astype(float), hand_p[None, None, :])


def _hands_per_game(base: str, rules: Rules, table_hands: int, seed: int) -> float:
    """Hands a game of ``base`` against itself takes from 0-0 (the game table's)."""
    return game_table(base, base, rules, hands=table_hands, seed=seed, boot=0).at(
        "hands", 0, 0)


def _opponent_part(base: str, opponent: str, rules: Rules, hands: int, games: int,
                   table_hands: int, seed: int) -> tuple:
    """The evidence of ``base`` against ``opponent``: training gains and counts per score
    bucket and chart cell, evaluation gains, the score buckets' weights and the
    evaluation hands."""
    table = game_table(base, opponent, rules, hands=table_hands, seed=seed, boot=0)
    visits = score_visits(base, opponent, rules, games, seed)
    train = evidence(base, opponent, rules, hands, seed, deal_block("training", 0, hands))
    held = evidence(base, opponent, rules, hands, seed, deal_block("evaluation", 0, hands))
    low = int(min(train.knock.min(), train.wait.min(), held.knock.min(), held.wait.min()))
    high = int(max(train.knock.max(), train.wait.max(), held.knock.max(), held.wait.max()))
    values = bucket_values(table, visits, np.arange(low, high + 1))
    return (train.gains(values, low), train.counts, held.gains(values, low),
            _bucket_weights(visits, rules.target), held.hands)


def _bucket_weights(visits: np.ndarray, target: int) -> np.ndarray:
    """float64[6, 6]: the share of hands that start in each score bucket."""
    edges = [0, *distance_edges(target).tolist(), target]
    out = np.zeros((SCORE_BUCKETS, SCORE_BUCKETS))
    for i in range(SCORE_BUCKETS):
        for j in range(SCORE_BUCKETS):
            out[i, j] = visits[target - edges[i + 1]:target - edges[i],
                               target - edges[j + 1]:target - edges[j]].sum()
    return out / out.sum()


def chart_shift(chart: ScoreChart, hand_p: np.ndarray) -> np.ndarray:
    """float64[6, 6]: per score bucket, the share of chart cells (deadwood 1-10, every
    stock bucket, no pile takes) where the score chart knocks and the hand chart does
    not, minus the reverse (> 0: knocks more)."""
    hand = np.asarray(hand_p).reshape(SHAPE)[..., 0]
    return (chart.p[..., 0] - hand[None, None]).mean(axis=(2, 3))
