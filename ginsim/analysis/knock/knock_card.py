"""The knock card: what to do at a table, per pile cards the opponent has taken (0, 1,
2+) x deadwood kept x cards left in the stock, and the words the report says about it.

A cell is ``KNOCK`` where the plan knocks at least :data:`KNOCK_AT` of the time,
``wait`` where at most :data:`WAIT_AT`, and ``either`` in between: an equilibrium mixes
only where both are worth about the same, so either choice is sound there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...strategies.charts.knock_charts import KnockChart
from ..frames import in_play_order
from ..intervals import clustered_mean
from .knock_chart import DISPLAY_EDGES, MIN_CELL, bucket_labels, number_ranges, stock_bucket

KNOCK_AT = 0.75  # a cell knocking at least this often reads KNOCK
WAIT_AT = 0.25  # at most this often reads wait; in between, either
TAKEN_LABELS = ("0", "1", "2+")  # pile cards the opponent has taken so far
TAKEN_WORDS = {"0": "has taken no card from the discard pile",
               "1": "has taken one card from the discard pile",
               "2+": "has taken two or more cards from the discard pile"}
CARD_COLUMNS = ("opp_taken", "deadwood", "stock", "p_knock", "n")
MEASURED_HERE = "measured in this run"


@dataclass(frozen=True)
class KnockAdvice:
    """What the report advises: a knock card and what following it is worth.

    ``card`` is a :func:`knock_card` table. ``values`` has one row per opponent it was
    measured against: ``opponent``, ``mean``, ``low``, ``high`` (points per hand, 95%
    interval), ``deals`` (duplicate deals), ``where`` ("measured in this run" or where
    the figure comes from). ``exploits`` names the fixed bot the card is a best response
    to, or is None for an equilibrium card; ``card_play`` is the card play both seats of
    the equilibrium share (its guarantee holds among players with that card play) and
    ``exploitability`` (mean, low, high) what a best response gains against it, with
    ``provenance`` saying where that figure comes from. ``source`` says in a few words
    how the card was found; ``why`` is a sentence from the data on why it waits where
    it waits (empty when not measured). ``player`` is a strategy spec that plays the
    card, or None with the card's ``chart`` given instead.
    """

    card: pd.DataFrame
    values: pd.DataFrame
    exploits: str | None
    source: str
    card_play: str | None = None
    exploitability: tuple[float, float, float] | None = None
    provenance: str = ""
    why: str = ""
    player: str | None = None  # a strategy spec that plays the card (None: use ``chart``)
    chart: KnockChart | None = None  # the chart behind an equilibrium card

    @property
    def headline(self) -> pd.Series:
        """The first ``values`` row: the figure the answer quotes."""
        return self.values.iloc[0]


def cell_action(p: float) -> str:
    """``KNOCK``, ``wait`` or ``either`` for a cell that knocks with probability ``p``."""
    return "KNOCK" if p >= KNOCK_AT else "wait" if p <= WAIT_AT else "either"


def knock_card(p_knock: pd.DataFrame | np.ndarray, edges: Sequence[int] = DISPLAY_EDGES,
               n: np.ndarray | None = None) -> pd.DataFrame:
    """A knock card as a tidy table: the probability of knocking (gin always goes down)
    per pile cards the opponent has taken x knocker deadwood x stock-left bucket.

    ``p_knock`` is either a DataFrame with ``deadwood``, ``stock`` (range labels such as
    ``24-31``), ``p_knock`` and optionally ``opp_taken`` (0, 1, 2+; a card without it is
    the same plan in every panel) and ``n``, or an array of shape (deadwood 1..K, buckets
    of ``edges`` in play order[, 3 panels]). Columns: ``opp_taken`` (ordered 0, 1, 2+),
    ``deadwood``, ``stock`` (ordered, most cards left first), ``p_knock``, ``n``
    (missing when not measured cell by cell); rows by panel, stock, deadwood.
    """
    card = (_card_of_frame(p_knock) if isinstance(p_knock, pd.DataFrame)
            else _card_of_array(p_knock, edges, n))
    _check_card(card)
    card["opp_taken"] = pd.Categorical(card["opp_taken"], TAKEN_LABELS, ordered=True)
    card["stock"] = pd.Categorical(card["stock"], in_play_order(card["stock"]), ordered=True)
    card["deadwood"] = card["deadwood"].astype(int)
    card["action"] = [cell_action(v) for v in card["p_knock"]]
    return card.sort_values(["opp_taken", "stock", "deadwood"], kind="stable"
                            ).reset_index(drop=True)


def _card_of_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The card's columns from a tidy table; one without ``opp_taken`` in every panel."""
    missing = [c for c in ("deadwood", "stock", "p_knock") if c not in frame.columns]
    if missing:
        raise ValueError(f"knock_card: missing column '{missing[0]}' (need deadwood, "
                         "stock, p_knock)")
    card = frame[[c for c in CARD_COLUMNS if c in frame.columns]].copy()
    if "n" not in card:
        card["n"] = np.nan
    card["stock"] = card["stock"].astype(str)
    if "opp_taken" not in card:
        card = pd.concat([card.assign(opp_taken=t) for t in TAKEN_LABELS])
    card["opp_taken"] = card["opp_taken"].astype(str)
    return card


def _per_panel(grid: np.ndarray) -> np.ndarray:
    """A (deadwood, bucket) grid repeated for each panel; a 3-d grid as it is."""
    return np.repeat(grid[:, :, None], len(TAKEN_LABELS), axis=2) if grid.ndim == 2 else grid


def _card_of_array(p_knock: np.ndarray, edges: Sequence[int], n: np.ndarray | None
                   ) -> pd.DataFrame:
    """The card's columns from a (deadwood, bucket[, panel]) array (and counts ``n``)."""
    grid = _per_panel(np.asarray(p_knock, dtype=float))
    labels = bucket_labels(edges)
    if grid.ndim != 3 or grid.shape[1:] != (len(labels), len(TAKEN_LABELS)):
        raise ValueError(f"knock_card: expected an array of shape (deadwood, "
                         f"{len(labels)} stock buckets[, 3 panels]), got {grid.shape}")
    counts = _per_panel(np.full(grid.shape, np.nan) if n is None
                        else np.asarray(n, dtype=float))
    rows = [(TAKEN_LABELS[t], d + 1, labels[b], grid[d, b, t], counts[d, b, t])
            for t in range(grid.shape[2]) for b in range(grid.shape[1])
            for d in range(grid.shape[0])]
    return pd.DataFrame(rows, columns=list(CARD_COLUMNS))


def _check_card(card: pd.DataFrame) -> None:
    """ValueErrors for probabilities outside 0..1, unknown panels and repeated cells."""
    p = card["p_knock"].to_numpy(dtype=float)
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("knock_card: p_knock must lie in 0..1 (a knock probability)")
    bad = sorted(set(card["opp_taken"]) - set(TAKEN_LABELS))
    if bad:
        raise ValueError(f"knock_card: opp_taken must be one of 0, 1, 2+, got {bad[0]!r}")
    if card.duplicated(["opp_taken", "deadwood", "stock"]).any():
        raise ValueError("knock_card: more than one row for some (opp_taken, deadwood, "
                         "stock) cell")


def with_evidence(card: pd.DataFrame, decisions: pd.DataFrame, min_n: int = MIN_CELL
                  ) -> pd.DataFrame:
    """``card`` with what its own player's decision points (``decisions`` of
    :func:`~ginsim.analysis.knock.knock_chart.decisions_frame`, the card's player against
    itself) say cell by cell: ``n`` decisions, ``gain`` (mean points of knocking now
    minus waiting a turn), ``gain_low``, ``gain_high`` (95%, a hand's decisions one
    cluster) and ``even``: the cell has ``min_n`` decisions or more and its interval holds
    0, so both are near even (a cell with fewer is too few to say)."""
    labels = np.array(bucket_labels(DISPLAY_EDGES))
    taken = decisions["opp_taken"].to_numpy()
    keyed = pd.DataFrame({
        "opp_taken": np.where(taken >= 2, "2+", taken.astype(str)),
        "deadwood": decisions["deadwood"].to_numpy(dtype=int),
        "stock": labels[stock_bucket(decisions["stock_left"].to_numpy(), DISPLAY_EDGES)],
        "gain": (decisions["net_knock"] - decisions["net_wait"]).to_numpy(dtype=float),
        "hand": (decisions["hand"].to_numpy() if "hand" in decisions
                 else np.arange(len(decisions)))})
    rows = [(*key, len(part), *clustered_mean(part["gain"], part["hand"]))
            for key, part in keyed.groupby(["opp_taken", "deadwood", "stock"], sort=False)]
    found = pd.DataFrame(rows, columns=["opp_taken", "deadwood", "stock", "n", "gain",
                                        "gain_low", "gain_high"])
    out = card.drop(columns=[c for c in ("gain", "gain_low", "gain_high", "even")
                             if c in card.columns])
    keys = {"opp_taken": out["opp_taken"].astype(str), "stock": out["stock"].astype(str)}
    merged = out.drop(columns="n").assign(**keys).merge(
        found, on=["opp_taken", "deadwood", "stock"], how="left")
    out["n"] = merged["n"].fillna(0).astype(int).to_numpy()
    for column in ("gain", "gain_low", "gain_high"):
        out[column] = merged[column].to_numpy()
    low, high = out["gain_low"].to_numpy(float), out["gain_high"].to_numpy(float)
    out["even"] = (out["n"].to_numpy() >= min_n) & (
        ~(np.isfinite(low) & np.isfinite(high)) | ((low <= 0) & (high >= 0)))
    return out


def threshold_card(threshold: int | Sequence[int], knock_limit: int = 10,
                   edges: Sequence[int] = DISPLAY_EDGES) -> pd.DataFrame:
    """The card of "knock at deadwood <= threshold" (one threshold, or one per bucket of
    ``edges``) whatever the opponent took; 0 means wait for gin."""
    buckets = len(edges) + 1
    limits = [threshold] * buckets if isinstance(threshold, int) else list(threshold)
    if len(limits) != buckets:
        raise ValueError(f"threshold_card: need 1 or {buckets} thresholds, got {len(limits)}")
    deadwood = np.arange(1, max(knock_limit, 1) + 1)[:, None]
    return knock_card((deadwood <= np.asarray(limits)[None, :]).astype(float), edges)


def stock_aloud(low: int, high: int) -> str:
    """A range of cards left in the stock as a player says it: "28 or more", "20 to 27",
    "3 or fewer"."""
    if low == 0:
        return f"{high} or fewer"
    return f"{low} or more" if high >= 31 else f"{low} to {high}"


def numbers_aloud(values: Sequence[int]) -> str:
    """Sorted integers as a player says them: "4 to 10", "7 and 9", "1 to 3, 5 and 8";
    two in a row are said as two ("6 and 7", not "6 to 7")."""
    items: list[str] = []
    for part in number_ranges(sorted(int(v) for v in values)).split(", "):
        low, _, high = part.partition("-")
        items += ([low, high] if high and int(high) == int(low) + 1
                  else [part.replace("-", " to ")])
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def panel_plans(cells: pd.DataFrame) -> list[tuple[int, int, list[int]]]:
    """One panel's KNOCK cells as (low, high, deadwood that knocks) per run of adjacent
    stock ranges that knock at the same deadwood, in play order, covering every range
    (a run that knocks nowhere has an empty list). The one rule of the answer
    (docs/knock-answers.md): it names every KNOCK cell and no other; an either cell
    is left out like a wait cell (:data:`EITHER_LEFT_OUT`)."""
    runs: list[tuple[int, int, list[int]]] = []
    for stock, part in cells.groupby("stock", observed=True, sort=True):
        low, high = (int(v) for v in str(stock).split("-"))
        knock = sorted(int(d) for d in part.loc[part.action == "KNOCK", "deadwood"])
        if runs and runs[-1][2] == knock:
            runs[-1] = (low, runs[-1][1], knock)
        else:
            runs.append((low, high, knock))
    return runs


def panel_words(cells: pd.DataFrame, first: bool = True) -> str:
    """What one panel says, as a player reads it aloud (:func:`panel_plans`): "knock with
    4 to 10 deadwood and 28 or more cards left, 5 to 10 at 20 to 27" (``first``: the
    clause that opens the answer; else "4 to 10 at 28 or more left, ..."); "wait for gin"
    when it knocks nowhere."""
    knocking = [p for p in panel_plans(cells) if p[2]]
    if not knocking:
        return "wait for gin"
    clauses = []
    for i, (low, high, deadwood) in enumerate(knocking):
        dw, stock = numbers_aloud(deadwood), stock_aloud(low, high)
        if low == 0 and high >= 31:
            clauses.append(f"knock with {dw} deadwood" if first else dw)
        elif i == 0:
            clauses.append(f"knock with {dw} deadwood and {stock} cards left" if first
                           else f"{dw} at {stock} left")
        else:
            clauses.append(f"{dw} at {stock}")
    return ", ".join(clauses)


#: The rule of the answer's words, said beside a card that has either cells.
EITHER_LEFT_OUT = ("The answer names the KNOCK cells and no other: an either cell is left "
                   "out with the wait cells, since waiting there is as sound as knocking.")
PANEL_LEADS = {"0": "no pile card taken: ", "1": "one taken: ", "2+": "two or more: "}


def card_words(card: pd.DataFrame) -> str:
    """What a whole card says, every panel: one clause when every panel says the same,
    else one per panel led by the opponent's pile takes (:data:`PANEL_LEADS`); "else
    wait" closes it where it waits. It names exactly the card's KNOCK cells
    (:func:`panel_plans`): either cells, where waiting is as sound as knocking, are left
    out with the wait cells (:data:`EITHER_LEFT_OUT` says so beside the card)."""
    panels = [(str(t), part) for t, part in card.groupby("opp_taken", observed=True,
                                                          sort=True)]
    texts = [panel_words(part) for _, part in panels]
    waits = "" if all(card.action == "KNOCK") else "; else wait"
    if len(set(texts)) == 1:
        return texts[0] + ("" if texts[0] == "wait for gin" else waits)
    return "; ".join(f"{PANEL_LEADS[t]}{panel_words(part, i == 0)}"
                     for i, (t, part) in enumerate(panels)) + waits


def why_words(card: pd.DataFrame, decisions: pd.DataFrame, gin_bonus: int,
              min_n: int = MIN_CELL) -> str:
    """One sentence, from knock-now-or-wait decision points played with the card
    (``decisions``: ``deadwood``, ``stock_left``, ``opp_taken``, ``net_knock``,
    ``net_wait``, optionally ``hand``), on what waiting buys: in the stock range with the
    most decisions where the card waits with deadwood 1-4 and knocks with 7+ (no pile
    card taken), how often waiting a turn went on to win by at least the gin bonus from
    each, and what each choice was worth there, with its 95% interval (the decisions of
    one hand as one cluster). Empty when no range has ``min_n`` decisions of each kind."""
    rows = decisions[decisions.opp_taken == 0]
    found = _why_range(card, rows, min_n)
    if found is None:
        return ""
    (lo, hi), w, k = found
    return (f"Why wait with low deadwood: with {stock_aloud(lo, hi)} cards left and no pile "
            f"card taken, waiting a turn from deadwood {numbers_aloud(set(w.deadwood))} went "
            f"on to win by {gin_bonus} points or more (gin, or catching the opponent's "
            f"knock) {(w.net_wait >= gin_bonus).mean():.0%} of the time and was worth "
            f"{_worth(w.net_wait - w.net_knock, w)} over knocking at once; from deadwood "
            f"{numbers_aloud(set(k.deadwood))} it won that big only "
            f"{(k.net_wait >= gin_bonus).mean():.0%} of the time, and knocking at once was "
            f"worth {_worth(k.net_knock - k.net_wait, k)} more.")


def _why_range(card: pd.DataFrame, rows: pd.DataFrame, min_n: int
               ) -> tuple[tuple[int, int], pd.DataFrame, pd.DataFrame] | None:
    """The stock range (low, high) of :func:`why_words` and its decisions where the card
    waits with deadwood 1-4 and where it knocks with 7+; None when none has ``min_n``."""
    labels = bucket_labels(DISPLAY_EDGES)
    panel = card[card.opp_taken.astype(str) == "0"]
    acts = np.full((len(labels), 101), "", dtype=object)
    for row in panel.itertuples():
        acts[labels.index(str(row.stock)), int(row.deadwood)] = row.action
    bucket = stock_bucket(rows["stock_left"].to_numpy(), DISPLAY_EDGES)
    deadwood = rows["deadwood"].to_numpy()
    act = acts[bucket, np.clip(deadwood, 0, 100)]
    best, b = 0, -1
    for candidate in range(len(labels)):
        here = bucket == candidate
        size = min(int((here & (deadwood <= 4) & (act == "wait")).sum()),
                   int((here & (deadwood >= 7) & (act == "KNOCK")).sum()))
        if size >= max(min_n, best + 1):
            best, b = size, candidate
    if b < 0:
        return None
    low, high = (int(v) for v in labels[b].split("-"))
    return ((low, high), rows[(bucket == b) & (deadwood <= 4) & (act == "wait")],
            rows[(bucket == b) & (deadwood >= 7) & (act == "KNOCK")])


def _worth(values: pd.Series, rows: pd.DataFrame) -> str:
    """"+6.3 points (95% CI +5.1 to +7.5, 1,315 decisions in 1,020 hands)": the mean of
    ``values`` with its interval, the decisions of one hand (``rows.hand``) a cluster."""
    hands = rows["hand"].to_numpy() if "hand" in rows else np.arange(len(rows))
    mean, low, high = clustered_mean(values.to_numpy(dtype=float), hands)
    spread = (f"95% CI {low:+.1f} to {high:+.1f}, " if np.isfinite(low) and np.isfinite(high)
              else "95% CI n/a, ")
    clusters = len(np.unique(hands))
    count = (f"{len(rows):,} decisions" if clusters == len(rows)
             else f"{len(rows):,} decisions in {clusters:,} hands")
    return f"{mean:+.1f} points ({spread}{count})"
