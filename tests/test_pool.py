"""The one chunk executor (ginsim/runner/pool.py): pieces cover a range exactly, results
come back in call order (or all of them, unordered), and no other gin module starts a
joblib pool."""

from __future__ import annotations

import threading
import time

import pytest

from ginsim.runner.pool import map_chunks, resolve_workers, spans


@pytest.mark.parametrize(("start", "count", "size"), [(0, 10, 3), (7, 1, 5), (10**12, 100, 100),
                                                      (5, 0, 4), (3, 25_001, 25_000)])
def test_spans_cover_the_range_once_in_order(start, count, size):
    pieces = spans(start, count, size)
    covered = [i for first, n in pieces for i in range(first, first + n)]
    assert covered == list(range(start, start + count))
    assert all(1 <= n <= size for _, n in pieces)
    assert all(n == size for _, n in pieces[:-1])


def slow_square(x: int, delay: float) -> int:
    time.sleep(delay)
    return x * x


def test_results_come_back_in_call_order_whatever_finishes_first():
    # The first call sleeps longest, so on two threads it finishes last.
    calls = [(x, 0.1 * (3 - x)) for x in range(4)]
    assert list(map_chunks(slow_square, calls, n_jobs=2)) == [0, 1, 4, 9]
    unordered = list(map_chunks(slow_square, calls, n_jobs=2, ordered=False))
    assert sorted(unordered) == [0, 1, 4, 9] and unordered != [0, 1, 4, 9]


def test_one_worker_runs_in_this_thread_and_generators_need_no_length():
    seen = []

    def where(x: int) -> int:
        seen.append(threading.get_ident())
        return x

    assert list(map_chunks(where, ((x,) for x in range(3)), n_jobs=1)) == [0, 1, 2]
    assert set(seen) == {threading.get_ident()}
    assert list(map_chunks(where, [], n_jobs=1)) == []


def test_bad_workers_and_backends_are_one_line_errors():
    with pytest.raises(ValueError, match="n_jobs must be a positive int or -1"):
        resolve_workers(0)
    with pytest.raises(ValueError, match="backend must be one of local, threads"):
        list(map_chunks(slow_square, [(1, 0)], backend="spark"))


def test_one_chunk_size_policy_bounds_every_size_and_the_chunk_count():
    from ginsim.runner.pool import chunk_size
    from ginsim.runner.tournament import default_chunk_decks
    from ginsim.simulator.limits import MAX_CHUNKS

    for total in (0, 1, 99, 10_000, 10**6, 10**9, 10**12):
        for parts, low, high in ((8, 4_096, 262_144), (4, 25, 2_500), (1, 2_000, 2_000)):
            size = chunk_size(total, parts, low, high)
            assert -(-total // size) <= MAX_CHUNKS
            assert low <= size <= high or size == -(-total // MAX_CHUNKS)
    assert default_chunk_decks(1_000) == 250 and default_chunk_decks(10) == 25
    assert default_chunk_decks(10**6) == 2_500
