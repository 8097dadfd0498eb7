"""Streamed aggregates: count and moment tables that merge by addition.

Three tables of hands, keyed by record fields (names from
:data:`~ginsim.simulator.machine.records.RECORD_DTYPE`, so nothing here lists every column),
and, for duplicate runs only, three tables of deals keyed by what the deal's two hands
share (:func:`deal_keys`), so that statistics can take the deal as the unit:

============ ============================================================================
table        keys
============ ============================================================================
cells        outcome x knocker x dealer x knocker_deadwood x stock_left
turns        outcome x turns (the hand-length histogram)
defender     outcome x defender_deadwood_before_layoff x defender_deadwood
deals        dealer (of the deal's first hand) x mirrored x same_outcome x same_winner;
             every deal once
knock_pairs  pair_deadwood x pair_stock x pair_knocker x pair_undercuts; the deals whose
             two hands are both non-gin knocks at the same knocker deadwood
turn_pairs   pair_turns; the deals whose two hands took as many draws
============ ============================================================================

Every cell holds :data:`MOMENT_COLUMNS`: ``hands``, the sums (``sum_points_a``,
``sum_points_b``, ``sum_turns``) and sums of squares (``sumsq_...``) of the value fields,
and ``sum_points_a_x_b`` (the sum of points_a * points_b), so means, variances and the
a - b variance come out exactly. In the deal tables a value is the sum over the deal's
two hands (hands ``2k`` and ``2k + 1``, seats swapped) and ``hands`` counts deals, so
the paired a - b interval and every mean over deals come out exactly, and the pair
counts give each rate's variance with the deal as the cluster, without per-hand rows; a
chunk of a duplicate job holds whole deals (:class:`~ginsim.runner.jobs.ChunkPlan`). Bins
come from the rules (:class:`Layout`); a chunk is kept as a sparse table (non-empty cells
only).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..game.rules import Rules
from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..simulator.machine.board_nb import MAX_TURNS
from ..simulator.machine.records import RECORD_DTYPE, per_deal_sum, whole_deals
from ..strategies.grid_nb import stock_buckets
from .aggregate_nb import accumulate_nb


@dataclass(frozen=True)
class TableSpec:
    """One aggregate table: its name and the record fields that key it."""

    name: str
    keys: tuple[str, ...]


#: The tables every hand is added to.
HAND_TABLES: tuple[TableSpec, ...] = (
    TableSpec("cells", ("outcome", "knocker", "dealer", "knocker_deadwood", "stock_left")),
    TableSpec("turns", ("outcome", "turns")),
    TableSpec("defender", ("outcome", "defender_deadwood_before_layoff", "defender_deadwood")),
)
#: Duplicate jobs only: every deal once, keyed by the dealer of its first hand (seat a deals
#: even deals) and by what its two hands share (:func:`deal_keys`), its values summed over
#: its two hands.
DEAL_TABLE = TableSpec("deals", ("dealer", "mirrored", "same_outcome", "same_winner"))
#: Duplicate jobs only: the deals whose hands fall in the same group of a knock statistic.
PAIR_TABLES: tuple[TableSpec, ...] = (
    TableSpec("knock_pairs", ("pair_deadwood", "pair_stock", "pair_knocker", "pair_undercuts")),
    TableSpec("turn_pairs", ("pair_turns",)),
)
DEAL_TABLES: tuple[TableSpec, ...] = (DEAL_TABLE, *PAIR_TABLES)
TABLES: tuple[TableSpec, ...] = (*HAND_TABLES, *DEAL_TABLES)
#: Stock-left buckets of ``knock_pairs`` (and the default of the analysis's undercut table
#: by stock left): bucket ``i`` holds the stock left below ``i`` of these edges.
STOCK_EDGES: tuple[int, ...] = (24, 16, 8)
#: Record fields whose sums and sums of squares every cell keeps (the first two also
#: keep the sum of their product).
VALUE_FIELDS: tuple[str, ...] = ("points_a", "points_b", "turns")
MOMENT_COLUMNS: tuple[str, ...] = (
    ("hands",) + tuple(f"sum_{v}" for v in VALUE_FIELDS)
    + tuple(f"sumsq_{v}" for v in VALUE_FIELDS) + ("sum_points_a_x_b",)
)
#: Key fields of the hand tables (record fields), then those only deal tables have.
HAND_KEY_FIELDS: tuple[str, ...] = tuple(dict.fromkeys(k for t in HAND_TABLES for k in t.keys))
KEY_FIELDS: tuple[str, ...] = HAND_KEY_FIELDS + tuple(
    k for k in dict.fromkeys(k for t in DEAL_TABLES for k in t.keys) if k not in HAND_KEY_FIELDS)
#: The integer type of each key field: a record field's own, int16 for a deal key.
KEY_DTYPES: dict[str, np.dtype] = {
    k: RECORD_DTYPE[k] if k in RECORD_DTYPE.names else np.dtype(np.int16) for k in KEY_FIELDS}
#: Record fields that the seat swap of a duplicate deal's second hand exchanges or moves.
SWAPPED_FIELDS: tuple[str, ...] = ("hand", "dealer", "knocker", "points_a", "points_b")
#: Most hands whose records are held (or copied into key columns) at once in summary
#: mode: a chunk of any size is played and counted this many hands at a time, so a
#: worker's memory is flat however many hands a run (or one chunk) has.
SLICE_HANDS = 262_144


def field_bounds(rules: Rules) -> dict[str, tuple[int, int]]:
    """Lowest and highest value each key field can take under ``rules``."""
    # Ten cards of the highest value; in Mahjong gin a hand grows with pile takes, so
    # every card of the deck.
    deadwood = (4 * int(rules.rank_values().sum()) if rules.mahjong
                else 10 * int(rules.rank_values().max()))
    return {
        "outcome": (0, len(OUTCOMES) - 1),
        "knocker": (-1, 1),
        "dealer": (0, 1),
        "knocker_deadwood": (-1, deadwood),  # not knock_limit: variants move the limit
        "stock_left": (0, 52 - 21),
        "turns": (0, MAX_TURNS + 1),
        "defender_deadwood_before_layoff": (-1, deadwood),
        "defender_deadwood": (-1, deadwood),
        "mirrored": (0, 1),
        "same_outcome": (-1, len(OUTCOMES) - 1),
        "same_winner": (-1, 1),
        "pair_deadwood": (0, deadwood),
        "pair_stock": (-1, len(STOCK_EDGES)),
        "pair_knocker": (-1, 1),
        "pair_undercuts": (0, 2),
        "pair_turns": (0, MAX_TURNS + 1),
    }


def winners(outcome: np.ndarray, knocker: np.ndarray) -> np.ndarray:
    """The seat that won each hand (0 = a, 1 = b), -1 for a dead hand: the knocker, or
    the defender when the knock was undercut."""
    outcome, knocker = np.asarray(outcome), np.asarray(knocker)
    undercut = outcome == OUTCOMES.index("undercut")
    won = np.where(undercut, 1 - knocker, knocker)
    return np.where((outcome == OUTCOMES.index("dead")) | (knocker < 0), -1, won)


def deal_keys(first: Mapping[str, np.ndarray], second: Mapping[str, np.ndarray],
              compare: Sequence[str] | None = None) -> dict[str, dict[str, np.ndarray]]:
    """What each duplicate deal's two hands share: per deal table, ``index`` (the deals
    it counts) and its key columns; the hands are ``first[f][i]`` and ``second[f][i]``
    (integer codes of the record fields, seat a = 0).

    ``mirrored`` is 1 when the second hand is the first seen from the other seat: the
    ``compare`` fields (default every record field that the swap leaves alone) equal, the
    knocker and the two seats' points exchanged (both seats played alike). ``same_outcome``
    and ``same_winner`` are the outcome code and the winning seat when both hands share
    them, else -1. ``knock_pairs`` counts the deals whose hands are both non-gin knocks at
    the same knocker deadwood: that deadwood, the stock bucket (:data:`STOCK_EDGES`) and
    knocker when both share them (else -1), and how many of the two were undercut.
    ``turn_pairs`` counts the deals whose hands took as many draws.
    """
    if compare is None:
        compare = [f for f in RECORD_DTYPE.names if f not in SWAPPED_FIELDS]
    o1, o2 = np.asarray(first["outcome"]), np.asarray(second["outcome"])
    k1, k2 = np.asarray(first["knocker"]), np.asarray(second["knocker"])
    n = len(o1)
    mirrored = ((np.asarray(second["dealer"]) == 1 - np.asarray(first["dealer"]))
                & (k2 == np.where(k1 < 0, k1, 1 - k1))
                & (np.asarray(first["points_a"]) == np.asarray(second["points_b"]))
                & (np.asarray(first["points_b"]) == np.asarray(second["points_a"])))
    for name in compare:
        mirrored &= np.asarray(first[name]) == np.asarray(second[name])
    w1, w2 = winners(o1, k1), winners(o2, k2)
    deals = {"index": np.arange(n), "dealer": np.asarray(first["dealer"]),
             "mirrored": mirrored.astype(np.int64),
             "same_outcome": np.where(o1 == o2, o1, -1),
             "same_winner": np.where(w1 == w2, w1, -1)}
    knocks = [OUTCOMES.index("knock"), OUTCOMES.index("undercut")]
    d1, d2 = np.asarray(first["knocker_deadwood"]), np.asarray(second["knocker_deadwood"])
    both = np.isin(o1, knocks) & np.isin(o2, knocks) & (d1 == d2)
    b1, b2 = (stock_buckets(np.asarray(x["stock_left"])[both], STOCK_EDGES)
              for x in (first, second))
    undercut = OUTCOMES.index("undercut")
    knock_pairs = {"index": np.flatnonzero(both), "pair_deadwood": d1[both],
                   "pair_stock": np.where(b1 == b2, b1, -1),
                   "pair_knocker": np.where(k1[both] == k2[both], k1[both], -1),
                   "pair_undercuts": ((o1[both] == undercut).astype(np.int64)
                                      + (o2[both] == undercut))}
    t1, t2 = np.asarray(first["turns"]), np.asarray(second["turns"])
    same = t1 == t2
    return {"deals": deals, "knock_pairs": knock_pairs,
            "turn_pairs": {"index": np.flatnonzero(same), "pair_turns": t1[same]}}


@dataclass
class SparseTables:
    """Non-empty cells of a flat accumulator: cell numbers and their moment rows."""

    index: np.ndarray  # int64[m], strictly increasing
    acc: np.ndarray  # int64[m, len(MOMENT_COLUMNS)]


class Layout:
    """Where each table's cells sit in one flat accumulator, for one set of rules."""

    def __init__(self, rules: Rules) -> None:
        self._scratch = threading.local()
        bounds = field_bounds(rules)
        self.rules = rules
        self.lo = np.array([bounds[f][0] for f in KEY_FIELDS], dtype=np.int64)
        self.size = np.array([bounds[f][1] - bounds[f][0] + 1 for f in KEY_FIELDS],
                             dtype=np.int64)
        depth = max(len(t.keys) for t in TABLES)
        self.fields = np.full((len(TABLES), depth), -1, dtype=np.int64)
        self.strides = np.zeros((len(TABLES), depth), dtype=np.int64)
        self.offsets = np.zeros(len(TABLES), dtype=np.int64)
        self.shapes: list[tuple[int, ...]] = []
        cells = 0
        for t, spec in enumerate(TABLES):
            idx = [KEY_FIELDS.index(k) for k in spec.keys]
            shape = tuple(int(self.size[i]) for i in idx)
            self.fields[t, :len(idx)] = idx
            self.strides[t, :len(idx)] = np.array(
                [int(np.prod(shape[d + 1:], dtype=np.int64)) for d in range(len(shape))])
            self.offsets[t] = cells
            self.shapes.append(shape)
            cells += int(np.prod(shape, dtype=np.int64))
        self.cells = cells

    def empty(self) -> np.ndarray:
        """A zeroed flat accumulator (int64[cells, len(MOMENT_COLUMNS)])."""
        return np.zeros((self.cells, len(MOMENT_COLUMNS)), dtype=np.int64)

    def accumulate(self, records: np.ndarray, acc: np.ndarray, duplicate: bool = False
                   ) -> None:
        """Add per-hand records into the flat accumulator ``acc``, at most
        :data:`SLICE_HANDS` at a time (the key and value columns are copied to int64);
        with ``duplicate`` (whole deals, hands ``2k`` and ``2k + 1``; slices are even, so
        they keep deals whole) their deals into the ``deals`` table too."""
        for lo in range(0, len(records), SLICE_HANDS):
            self._accumulate(records[lo:lo + SLICE_HANDS], acc, duplicate)

    def _accumulate(self, records: np.ndarray, acc: np.ndarray, duplicate: bool) -> None:
        keys = np.empty((len(HAND_KEY_FIELDS), len(records)), dtype=np.int64)
        for i, name in enumerate(HAND_KEY_FIELDS):
            keys[i] = records[name]
        values = np.empty((len(VALUE_FIELDS), len(records)), dtype=np.int64)
        for i, name in enumerate(VALUE_FIELDS):
            values[i] = records[name]
        h = len(HAND_TABLES)
        misses = accumulate_nb(keys, self.lo, self.size, self.fields[:h], self.strides[:h],
                               self.offsets[:h], values, acc)
        if duplicate:
            misses += self._accumulate_deals(records, acc)
        if misses:
            raise RuntimeError(f"{misses} hand/table pairs fell outside the aggregate bins "
                               f"{field_bounds(self.rules)}; this is a ginsim bug, please "
                               f"report it")

    def _accumulate_deals(self, records: np.ndarray, acc: np.ndarray) -> int:
        """Add each deal of ``records`` to the deal tables (:func:`deal_keys`); returns
        misses."""
        if not whole_deals(records["hand"]):
            raise ValueError("the deals table needs whole duplicate deals (hands 2k and "
                             "2k + 1 in order); this chunk splits a deal")
        sums = np.empty((len(VALUE_FIELDS), len(records) // 2), dtype=np.int64)
        for i, name in enumerate(VALUE_FIELDS):
            sums[i] = per_deal_sum(records[name])
        misses = 0
        per_table = deal_keys(records[0::2], records[1::2])
        for t, spec in enumerate(TABLES):
            if spec not in DEAL_TABLES:
                continue
            columns = per_table[spec.name]
            index = columns["index"]
            keys = np.zeros((len(KEY_FIELDS), len(index)), dtype=np.int64)
            for name in spec.keys:
                keys[KEY_FIELDS.index(name)] = columns[name]
            values = np.ascontiguousarray(sums[:, index])
            misses += accumulate_nb(keys, self.lo, self.size, self.fields[t:t + 1],
                                    self.strides[t:t + 1], self.offsets[t:t + 1], values, acc)
        return misses

    def sparse(self, records: np.ndarray, duplicate: bool = False) -> SparseTables:
        """The sparse tables of one chunk of records (``duplicate``: whole deals, added
        to the ``deals`` table too)."""
        return self.sparse_of((records,), duplicate)

    def sparse_of(self, batches: Iterable[np.ndarray], duplicate: bool = False
                  ) -> SparseTables:
        """The sparse tables of record batches (one chunk played a slice at a time;
        ``duplicate``: each batch holds whole deals).

        Each thread adds into its own accumulator, kept between calls and cleared cell by
        cell afterwards: a fresh one per chunk cost more than the chunk's tables.
        """
        acc = getattr(self._scratch, "acc", None)
        if acc is None:
            acc = self._scratch.acc = self.empty()
        try:
            for records in batches:
                self.accumulate(records, acc, duplicate)
        except BaseException:  # an interrupted chunk leaves no counts behind
            acc[:] = 0
            raise
        tables = to_sparse(acc)
        acc[tables.index] = 0
        return tables

    def table_slice(self, t: int) -> slice:
        """Cells of table ``t`` in the flat accumulator."""
        start = int(self.offsets[t])
        return slice(start, start + int(np.prod(self.shapes[t], dtype=np.int64)))

    def decode(self, sparse: SparseTables) -> list[tuple[TableSpec, dict[str, np.ndarray],
                                                          np.ndarray]]:
        """Per table: (spec, key columns with the real field values, moment rows)."""
        out = []
        for t, spec in enumerate(TABLES):
            part = self.table_slice(t)
            mask = (sparse.index >= part.start) & (sparse.index < part.stop)
            local = sparse.index[mask] - part.start
            coords = np.unravel_index(local, self.shapes[t])
            keys = {name: coords[d].astype(np.int64) + self.lo[KEY_FIELDS.index(name)]
                    for d, name in enumerate(spec.keys)}
            out.append((spec, keys, sparse.acc[mask]))
        return out

    def encode(self, table: str, keys: dict[str, np.ndarray]) -> np.ndarray:
        """Flat cell numbers of table ``table`` for key columns (inverse of decode)."""
        t = [s.name for s in TABLES].index(table)
        spec = TABLES[t]
        coords = []
        for d, name in enumerate(spec.keys):
            v = np.asarray(keys[name], dtype=np.int64) - self.lo[KEY_FIELDS.index(name)]
            if len(v) and (v.min() < 0 or v.max() >= self.shapes[t][d]):
                raise ValueError(f"{table} table: {name} outside its bins")
            coords.append(v)
        if not coords or not len(coords[0]):
            return np.zeros(0, dtype=np.int64)
        return np.ravel_multi_index(tuple(coords), self.shapes[t]).astype(np.int64) + int(
            self.offsets[t])


@lru_cache(maxsize=32)
def layout(rules: Rules) -> Layout:
    """The (cached) table layout for ``rules``."""
    return Layout(rules)


def to_sparse(acc: np.ndarray) -> SparseTables:
    """The non-empty cells of a flat accumulator."""
    index = np.flatnonzero(acc[:, 0])
    return SparseTables(index.astype(np.int64), acc[index])


def add_sparse(acc: np.ndarray, sparse: SparseTables) -> None:
    """Merge a chunk's sparse tables into a flat accumulator (addition)."""
    acc[sparse.index] += sparse.acc
