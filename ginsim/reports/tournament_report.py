"""A tournament's page: the ratings with their intervals as a plot, the crosstable as a
heat map, the pairs with their paired intervals, and how it was run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..analysis.ratings.bradley_terry import BOOTSTRAP_RESAMPLES
from ..analysis.ratings.tournament_results import TournamentResult
from .builder import ReportSpec, Section, build_report
from .heatmap import heatmap_chart
from .style import (
    add_caption,
    append_caption,
    colour,
    error_lengths,
    new_figure,
    style_axes,
)

REPORT_DIR = "report"  # the page's folder inside the tournament's --out
LABEL_CHARS = 24  # a player's name on a figure's axis, at most (the tables keep it whole)


def short(name: str) -> str:
    """A player's name cut to :data:`LABEL_CHARS` for an axis label."""
    return name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1] + "…"


def ratings_figure(result: TournamentResult) -> Figure:
    """Each player's rating as a dot with its 95% interval, the best at the top."""
    r = result.ratings
    fig = new_figure()
    ax = fig.add_subplot()
    y = np.arange(len(r))[::-1]
    # a percentile interval need not hold the whole fit's rating: no bar on that side
    ax.errorbar(r["rating"], y, xerr=error_lengths(r["rating"], r["low"], r["high"]),
                fmt="o", color=colour(0), capsize=3)
    ax.set_yticks(y, [short(p) for p in r["player"]], fontsize=8)
    ax.set_xlabel("rating (Elo scale, field mean 1500)")
    ax.set_title("Ratings with 95% intervals")
    style_axes(ax)
    bounded = r["note"] != ""
    if bounded.any():  # won or lost every game: the prior sets the rating
        ax.plot(r["rating"][bounded], y[bounded.to_numpy()], "o", color="white",
                markeredgecolor=colour(0), zorder=3)
    plan = result.run.plan
    hollow = "hollow: won or lost every game, its rating set by the prior; " if (
        bounded.any()) else ""
    add_caption(fig, f"{hollow}{plan.games:,} games a pair ({plan.decks:,} decks, each "
                     f"played twice with the seats swapped); intervals from "
                     f"{BOOTSTRAP_RESAMPLES:,} resamples of the decks")
    return fig


def crosstable_figure(result: TournamentResult) -> Figure:
    """The row player's share of its games against the column player, best player first."""
    order = result.ratings["player"].tolist()
    table = result.crosstable.loc[order, order]
    cells = table.rename_axis("player").reset_index().melt(
        id_vars="player", var_name="opponent", value_name="win").dropna()
    shown = list(dict.fromkeys(short(p) for p in order))
    if len(shown) < len(order):  # two names alike in their first characters: numbers
        shown = [f"{i + 1}. {short(p)}" for i, p in enumerate(order)]
    label = dict(zip(order, shown, strict=True))
    cells = cells.assign(win=100 * cells["win"],
                         player=pd.Categorical(cells["player"].map(label), shown),
                         opponent=pd.Categorical(cells["opponent"].map(label), shown))
    fig = heatmap_chart(cells, x="opponent", y="player", value="win", fmt="{:.0f}%",
                        title="Crosstable: the row player's win %", value_label="win %",
                        x_label="opponent", y_label="player", unit="games",
                        missing="a player against itself")
    append_caption(fig, f"{result.run.plan.games:,} games a cell, best player first")
    return fig


def tournament_spec(result: TournamentResult) -> ReportSpec:
    """The page's content."""
    plan = result.run.plan
    ratings = result.ratings.rename(columns={"low": "rating_low", "high": "rating_high"})
    pairs = result.pairs.copy()
    forfeits = f" {len(result.faults)} game(s) were forfeit." if result.faults else ""
    sections = [
        Section("Ratings", "Bradley–Terry ratings fitted to every game at once, on the Elo "
                           "scale (200 points: the stronger wins about 76% of games). '=' in "
                           "the ranking joins neighbours that cannot be told apart."
                           + forfeits,
                figure=ratings_figure(result), figure_name="ratings",
                table=ratings[["rank", "player", "rating", "rating_low", "rating_high",
                               "games", "wins", "forfeits", "note"]],
                table_name="ratings", n_unit="games"),
        Section("Crosstable", "Each pair's games, both seatings of every deck. The win rate "
                              "and points a game are the first player's, with paired 95% "
                              "intervals over the decks.",
                figure=crosstable_figure(result), figure_name="crosstable",
                table=pairs, table_name="pairs", n_unit="games"),
    ]
    methods = {
        "Duplicate deals": f"Every pair plays the same {plan.decks:,} decks (games "
                           f"0..{plan.decks - 1} of seed {plan.seed}), each twice with the "
                           f"seats swapped, so the luck of the cards is shared.",
        "Ratings": "The maximum of the Bradley–Terry likelihood (choix's ILSR), with half a "
                   "win each way added to every pair so that a player that won or lost "
                   f"everything stays finite; intervals are the 2.5 and 97.5 percentiles of "
                   f"{BOOTSTRAP_RESAMPLES:,} fits to decks drawn with replacement.",
        "Ranking": "Two neighbours are apart ('>') when at least 97.5% of the resampled fits "
                   "keep them in order, else '='.",
        "Rules": f"{plan.rules.spec()}, {plan.system} scoring.",
    }
    return ReportSpec(title="Tournament", answer=f"Ranking: {result.ranking}.",
                      sections=sections, methods=methods,
                      subtitle=f"{len(plan.players)} players, {plan.games:,} games a pair")


def write_tournament_report(result: TournamentResult, out: str | Path) -> dict[str, Path]:
    """Write the page (report.html, its Markdown twin, PNGs, CSVs) into ``out/report``."""
    return build_report(tournament_spec(result), Path(out) / REPORT_DIR)
