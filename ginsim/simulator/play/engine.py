"""Typed Python layer over the hand loop: validate input, call the kernel, return numpy."""

from __future__ import annotations

import numpy as np

from ...game.card_tables import card_tables
from ...game.inputs.checks import check_int
from ...game.rng_nb import check_seed
from ...game.rules import Rules
from ...strategies.presets import Strategy, parse_strategy
from ..limits import MAX_RECORDS_IN_MEMORY, check_hands, check_records_in_memory
from ..machine.buffers import hand_buffers
from ..machine.records import RECORD_DTYPE, TRACE_WIDTH
from .hand_nb import hand_params, play_decks_nb, simulate_nb

#: Most per-turn trace rows one call keeps (96 bytes each: about 2 GB); checked before the
#: trace is allocated, like the record count.
MAX_TRACE_ROWS = MAX_RECORDS_IN_MEMORY


def seat_params(a: str | Strategy, b: str | Strategy, rules: Rules | None = None
                ) -> np.ndarray:
    """The float64[2, P] parameter rows of seats a and b (see :func:`hand_params`).
    With ``rules``, each seat knocks by its chart family's chart for them
    (:meth:`~ginsim.strategies.presets.Strategy.vector_for`), and a pair those rules cannot
    play (an mc seat in Mahjong gin) is refused."""
    seats = [parse_strategy(a), parse_strategy(b)]
    if rules is not None and rules.mahjong and any(s.is_mc for s in seats):
        raise ValueError("mc plays knocking-gin turns only; under Mahjong gin rules use plain "
                         "strategies such as simple or memory2")
    return hand_params(np.stack([s.vector_for(rules) for s in seats]))


def _check_trace_rows(trace_rows: object) -> int:
    """Trace rows to keep: a whole number 0 .. :data:`MAX_TRACE_ROWS` (a negative count
    keeps none, as before)."""
    if isinstance(trace_rows, (int, np.integer)) and not isinstance(trace_rows, bool) and (
            trace_rows < 0):
        return 0
    return check_int(trace_rows, "trace_rows", 0, MAX_TRACE_ROWS)


def play_records(a: str | Strategy = "simple", b: str | Strategy = "simple", *,
                 start: int = 0, stop: int, seed: int = 0, rules: Rules | str | None = None,
                 duplicate: bool = False, trace_rows: int = 0, out: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Play hands ``start .. stop-1``; return (records, per-turn trace).

    Records follow :data:`~ginsim.simulator.machine.records.RECORD_DTYPE`; with ``out`` (such an
    array of ``stop - start`` rows) they are written there, saving a copy. The trace
    (int64[rows, TRACE_WIDTH]) is kept only when ``trace_rows`` > 0 and is cut at
    that many rows.
    """
    seed = check_seed(seed)
    start = check_hands(start, "start")
    stop = check_hands(stop, "stop")
    if stop < start:
        raise ValueError(f"stop ({stop}) must not be below start ({start})")
    rules = Rules.coerce(rules)
    params = seat_params(a, b, rules)
    trace_rows = _check_trace_rows(trace_rows)
    if out is None:
        check_records_in_memory(stop - start, "play fewer hands per call, or run them in "
                                "chunks with ginsim.simulate(records='summary')")
        out = np.zeros(stop - start, dtype=RECORD_DTYPE)
    elif out.dtype != RECORD_DTYPE or out.shape != (stop - start,):
        raise ValueError(f"out must be a record array of {stop - start} rows")
    trace = np.zeros((trace_rows, TRACE_WIDTH), dtype=np.int64)
    rows = simulate_nb(np.uint64(seed), start, stop, bool(duplicate), params, rules.packed(),
                       card_tables(rules), hand_buffers(out, trace))
    return out, trace[:min(rows, trace.shape[0])]


def play_decks(a: str | Strategy, b: str | Strategy, decks: np.ndarray,
               dealers: np.ndarray | list[int], *, seed: int = 0,
               rules: Rules | str | None = None, trace_rows: int = 0
               ) -> tuple[np.ndarray, np.ndarray]:
    """Play one hand per given deck order (crafted deals for tests and studies).

    ``decks`` is int[n, 52], each row a permutation of 0..51 dealt like a shuffled deck:
    the non-dealer's cards first, then the dealer's, then the upcard, then the stock
    from the top. ``dealers[i]`` is 0 (seat a) or 1 (seat b).
    """
    seed = check_seed(seed)
    rules = Rules.coerce(rules)
    decks = np.asarray(decks, dtype=np.int64)
    if decks.ndim != 2 or decks.shape[1] != 52:
        raise ValueError(f"decks must have shape (n, 52), got {decks.shape}")
    for row in decks:
        if not np.array_equal(np.sort(row), np.arange(52)):
            raise ValueError("each deck must hold every card 0..51 exactly once")
    dealers = np.asarray(dealers, dtype=np.int64)
    if dealers.shape != (decks.shape[0],) or not np.isin(dealers, (0, 1)).all():
        raise ValueError("dealers must hold one 0 (seat a) or 1 (seat b) per deck")
    out = np.zeros(decks.shape[0], dtype=RECORD_DTYPE)
    trace = np.zeros((_check_trace_rows(trace_rows), TRACE_WIDTH), dtype=np.int64)
    rows = play_decks_nb(decks, dealers, np.uint64(seed), seat_params(a, b, rules), rules.packed(),
                         card_tables(rules), hand_buffers(out, trace))
    return out, trace[:min(rows, trace.shape[0])]
