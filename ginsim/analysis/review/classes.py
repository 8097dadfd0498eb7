"""How a decision is classed by its loss, and a game's error rate.

A decision's loss is the advisor's expected points (this hand) of its best option less
those of the option chosen: 0 for the best, never negative. The classes and their
thresholds (points a hand; docs/review.md says how they were chosen):

=============  ============================================================
``best``       the advisor's best option (loss 0)
``good``       loss below :data:`INACCURACY`
``inaccuracy`` loss from :data:`INACCURACY`
``mistake``    loss from :data:`MISTAKE`
``blunder``    loss from :data:`BLUNDER`
=============  ============================================================

An option whose value lies inside the best option's 95% interval is never worse than
an inaccuracy: the advisor cannot tell it from the best.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..intervals import clustered_mean, mean_interval

#: Loss thresholds in points a hand (docs/review.md): an inaccuracy loses at least the
#: review's precision (1.5, the half-interval it weighs a non-best choice to); of
#: ``expert``'s decisions in its games against expert, 23% lose 1.5 or more, 8% lose 4
#: or more and 1.7% lose 8 or more (random's: 51%, 29% and 16%).
INACCURACY, MISTAKE, BLUNDER = 1.5, 4.0, 8.0
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: The decisions a review weighs: the first-turn upcard offer, the draw (the pile's top
#: card or the stock), the discard, and the discard where a knock was possible (knock or
#: play on).
DECISION_KINDS = ("upcard", "draw", "discard", "knock")
FLAGGED = ("inaccuracy", "mistake", "blunder")


def classify(loss: float, is_best: bool, inside_best: bool) -> str:
    """The class of a decision that lost ``loss`` points; ``is_best`` when it was the
    advisor's best option, ``inside_best`` when its value lies inside the best's 95%
    interval (then at worst an inaccuracy)."""
    if is_best:
        return "best"
    if loss >= BLUNDER:
        name = "blunder"
    elif loss >= MISTAKE:
        name = "mistake"
    elif loss >= INACCURACY:
        name = "inaccuracy"
    else:
        name = "good"
    if inside_best and name in ("mistake", "blunder"):
        return "inaccuracy"
    return name


def error_rate(losses: Sequence[float], clusters: Sequence[int] | None = None
               ) -> tuple[float, float, float]:
    """The mean loss per decision and its 95% interval: normal, robust to the
    correlation of decisions in one cluster (a hand, a game) when ``clusters`` are given
    and there are two or more; one decision gives no interval (both ends the mean).
    Held-out losses may be below 0, so the interval is not cut at 0."""
    values = np.asarray(losses, dtype=float)
    if len(values) == 0:
        return float("nan"), float("nan"), float("nan")
    if len(values) == 1:
        return float(values[0]), float(values[0]), float(values[0])
    mean, low, high = mean_interval(values)
    if clusters is not None and len(set(clusters)) >= 2:
        mean, low, high = clustered_mean(values, np.asarray(clusters))
    return mean, low, high


def class_counts(classes: Sequence[str], kinds: Sequence[str]) -> dict[str, dict[str, int]]:
    """Counts per class, per kind of decision: ``{class: {kind: count}}`` (every class
    and kind present, zeros included)."""
    counts = {name: dict.fromkeys(DECISION_KINDS, 0) for name in CLASSES}
    for name, kind in zip(classes, kinds, strict=True):
        counts[name][kind] += 1
    return counts
