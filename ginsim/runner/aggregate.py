"""Streamed aggregates: count and moment tables that merge by addition.

Four tables, each keyed by record fields (names from
:data:`~ginsim.simulator.machine.records.RECORD_DTYPE`, so nothing here lists every column):

============ ============================================================================
table        keys
============ ============================================================================
cells        outcome x knocker x dealer x knocker_deadwood x stock_left
turns        outcome x turns (the hand-length histogram)
defender     outcome x defender_deadwood_before_layoff x defender_deadwood
deals        dealer (of the deal's first hand); duplicate runs only, one entry per deal
============ ============================================================================

Every cell holds :data:`MOMENT_COLUMNS`: ``hands``, the sums (``sum_points_a``,
``sum_points_b``, ``sum_turns``) and sums of squares (``sumsq_...``) of the value fields,
and ``sum_points_a_x_b`` (the sum of points_a * points_b), so means, variances and the
a - b variance come out exactly. In the ``deals`` table a value is the sum over the
deal's two hands (hands ``2k`` and ``2k + 1``, seats swapped) and ``hands`` counts deals,
so the paired a - b interval over deals comes out exactly too, without per-hand rows; a
chunk of a duplicate job holds whole deals (:class:`~ginsim.runner.jobs.ChunkPlan`). Bins
come from the rules (:class:`Layout`); a chunk is kept as a sparse table (non-empty cells
only).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..game.rules import Rules
from ..game.scoring.hand_scoring_nb import OUTCOMES
from ..simulator.machine.board_nb import MAX_TURNS
from ..simulator.machine.records import per_deal_sum, whole_deals
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
#: even deals), its values summed over its two hands.
DEAL_TABLE = TableSpec("deals", ("dealer",))
TABLES: tuple[TableSpec, ...] = (*HAND_TABLES, DEAL_TABLE)
#: Record fields whose sums and sums of squares every cell keeps (the first two also
#: keep the sum of their product).
VALUE_FIELDS: tuple[str, ...] = ("points_a", "points_b", "turns")
MOMENT_COLUMNS: tuple[str, ...] = (
    ("hands",) + tuple(f"sum_{v}" for v in VALUE_FIELDS)
    + tuple(f"sumsq_{v}" for v in VALUE_FIELDS) + ("sum_points_a_x_b",)
)
KEY_FIELDS: tuple[str, ...] = tuple(dict.fromkeys(k for t in TABLES for k in t.keys))
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
    }


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
        keys = np.empty((len(KEY_FIELDS), len(records)), dtype=np.int64)
        for i, name in enumerate(KEY_FIELDS):
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
        """Add each deal of ``records`` to the ``deals`` table; returns misses."""
        if not whole_deals(records["hand"]):
            raise ValueError("the deals table needs whole duplicate deals (hands 2k and "
                             "2k + 1 in order); this chunk splits a deal")
        keys = np.zeros((len(KEY_FIELDS), len(records) // 2), dtype=np.int64)
        keys[KEY_FIELDS.index("dealer")] = records["dealer"][0::2]
        values = np.empty((len(VALUE_FIELDS), len(records) // 2), dtype=np.int64)
        for i, name in enumerate(VALUE_FIELDS):
            values[i] = per_deal_sum(records[name])
        h = len(HAND_TABLES)
        return accumulate_nb(keys, self.lo, self.size, self.fields[h:], self.strides[h:],
                             self.offsets[h:], values, acc)

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
