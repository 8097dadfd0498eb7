"""The chance of winning a game from its score (Python layer of
:mod:`ginsim.game.scoring.win_chance_nb`)."""

from __future__ import annotations

import numpy as np

from .win_chance_nb import win_chance_table_nb


def win_chance_table(hand_points: np.ndarray, target: int) -> np.ndarray:
    """``W[a, b]`` (float64, ``target x target``): the chance of winning a game to
    ``target`` from ``a`` points against ``b`` when each hand is won by either side,
    with equal chances, by a number of points drawn from ``hand_points`` (the points of
    won hands, each at least 1: a sample or the possible results)."""
    points = np.asarray(hand_points)
    if points.ndim != 1 or len(points) == 0 or not np.issubdtype(points.dtype, np.integer):
        raise ValueError("hand_points must be a non-empty 1-d array of integer points")
    if points.min() < 1:
        raise ValueError(f"hand_points must be at least 1 (a won hand's points), got "
                         f"{int(points.min())}: leave dead and scoreless hands out")
    if not 1 <= int(target) <= 10_000:
        raise ValueError(f"target must be 1..10000 points, got {target!r}")
    chance = np.bincount(points).astype(np.float64)
    chance /= 2.0 * chance.sum()
    table = np.zeros((int(target), int(target)))
    win_chance_table_nb(chance, table)
    return table
