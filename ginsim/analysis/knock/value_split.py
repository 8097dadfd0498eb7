"""What the knock card adds, split: against each opponent, the card (its card play
knocking by the card), the same card play knocking as soon as it may and waiting for
gin, and `simple`'s card play with its best fixed threshold from the sweep, all on the
same duplicate deals. Each row has its points per hand against the opponent and the
card's edge over it, both with paired 95% intervals over deals, so a reader sees what
knocking well is worth (the card over the same card play knocking at once) apart from
what card play is worth.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...game.rules import Rules
from ...simulator.machine.records import per_deal_sum
from ...strategies.presets import Strategy, parse_strategy
from ..intervals import mean_interval
from .knock_answer import WHY_HANDS, measure_advice
from .knock_card import KnockAdvice
from .sweeps import PairedRuns

#: The rows of each opponent's split, in order: role -> how the row knocks, in words.
ROLES = {"card": "by the knock card", "asap": "as soon as it may",
         "gin": "never: waits for gin", "best": "at its best fixed threshold"}
SPLIT_COLUMNS = ("opponent", "role", "player", "card_play", "knocking", "mean", "low",
                 "high", "deals", "edge", "edge_low", "edge_high", "over_best",
                 "over_best_low", "over_best_high")


def comparison_players(card_play: str) -> tuple[Strategy, Strategy]:
    """``card_play`` knocking as soon as the rules allow (``chart=always``) and never,
    waiting for gin (``chart=gin_only``): the card's own card play with plain knocking."""
    sep = "," if ":" in card_play else ":"
    return (parse_strategy(f"{card_play}{sep}chart=always"),
            parse_strategy(f"{card_play}{sep}chart=gin_only"))


def deal_nets(hands: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(deal index, seat a's net points per deal: the mean of a - b over the deal's two
    hands) of a duplicate run's per-hand rows, ordered by hand."""
    rows = hands.sort_values("hand", kind="stable") if "hand" in hands else hands
    net = (per_deal_sum(rows["points_a"].to_numpy())
           - per_deal_sum(rows["points_b"].to_numpy())) / 2
    index = (rows["hand"].to_numpy()[0::2] // 2 if "hand" in rows
             else np.arange(net.size))
    return index, net


def paired_gap(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
               ) -> tuple[float, float, float]:
    """(mean, low, high) of ``a`` minus ``b`` per deal, 95% over deals; missing unless
    both are (deal index, net per deal) of the very same deals."""
    if not np.array_equal(a[0], b[0]):
        return float("nan"), float("nan"), float("nan")
    return mean_interval(a[1] - b[1])


def _row(opponent: str, role: str, player: str, card_play: str, knocking: str,
         nets: tuple[np.ndarray, np.ndarray], card: tuple[np.ndarray, np.ndarray],
         best: tuple[np.ndarray, np.ndarray]) -> dict:
    """One row of the split: the run's paired value, the card's edge over it and its
    own edge over the best fixed threshold's run (each per deal, on the same deals)."""
    missing = (float("nan"),) * 3
    edge = paired_gap(card, nets) if role != "card" else missing
    over_best = paired_gap(nets, best) if role != "best" else missing
    return dict(zip(SPLIT_COLUMNS, (opponent, role, player, card_play, knocking,
                                    *mean_interval(nets[1]), len(nets[1]), *edge,
                                    *over_best), strict=True))


def value_split(card_runs: PairedRuns, sweep_runs: PairedRuns, best: pd.DataFrame,
                card_play: str, players: Sequence[Strategy]) -> pd.DataFrame:
    """The split table (:data:`SPLIT_COLUMNS`), four rows per opponent (:data:`ROLES`):
    ``players`` are the card's player, then :func:`comparison_players`, each labelled
    ``(spec, opponent spec)`` in ``card_runs``; the best fixed threshold's run is the
    sweep's ``(threshold, opponent spec)`` for ``best``'s ``best_threshold``. ``edge``
    is the card minus the row and ``over_best`` the row minus the best threshold's run,
    per deal on the same deals, with paired 95% intervals."""
    rows = []
    for opponent, threshold in zip(best["opponent"], best["best_threshold"], strict=True):
        pair, frame = next((p, f) for p, f in sweep_runs.items()
                           if p.label == (int(threshold), opponent))
        runs = [(role, player.spec, card_play, ROLES[role],
                 deal_nets(card_runs.frame((player.spec, opponent))))
                for role, player in zip(("card", "asap", "gin"), players, strict=True)]
        runs.append(("best", pair.a.spec, pair.a.preset,
                     f"{ROLES['best']} ({int(threshold)})", deal_nets(frame)))
        rows += [_row(opponent, *run, runs[0][-1], runs[-1][-1]) for run in runs]
    return pd.DataFrame(rows, columns=list(SPLIT_COLUMNS))


def measure_card(advice: KnockAdvice, opponents: Sequence[Strategy], deals: int, seed: int,
                 rules: Rules, n_jobs: int | None, progress: bool | None,
                 sweep: tuple[PairedRuns, pd.DataFrame]
                 ) -> tuple[KnockAdvice, int, pd.DataFrame | None]:
    """The card measured on the sweep's deals (``sweep``: its runs and best thresholds),
    its card play knocking at once and waiting for gin beside it in one batch: the
    advice, the hands played for it and the :func:`value_split` (None without a card
    play to compare)."""
    compare = comparison_players(advice.card_play) if advice.card_play else ()
    advice, measured, card_runs = measure_advice(advice, opponents, deals, seed, rules,
                                                 n_jobs, progress, compare)
    played = int(measured.n.sum()) + min(2 * deals, WHY_HANDS)
    if not compare:
        return advice, played, None
    player = card_runs.pairs[0].a
    return advice, played, value_split(card_runs, sweep[0], sweep[1], advice.card_play,
                                       (player, *compare))
