"""A strategy sees only what its player may see (issue: fairness and information).

Two deals that differ only in cards seat a cannot have seen must lead to the same
decisions by seat a until the difference is revealed (a card of the difference reaches
the pile, or seat a draws it).
"""

import numpy as np
import pytest

from ginsim.game.state import SOURCE_PILE
from ginsim.simulator.machine.records import TRACE_COLUMNS
from ginsim.simulator.play.engine import play_decks, play_records

C = {name: i for i, name in enumerate(TRACE_COLUMNS)}


def decisions_until_revealed(trace, hidden):
    """Seat a's (source, drawn, discard, action) per turn, and the public record, cut at
    the first row after which a hidden card was seen by seat a."""
    out = []
    for row in trace:
        if row[C["seat"]] < 0:
            continue
        seen_now = int(row[C["pile"]]) | (int(row[C["hand_a"]]))
        public = (int(row[C["seat"]]), int(row[C["source"]]), int(row[C["pile"]]))
        if row[C["seat"]] == 0:
            out.append(("a", int(row[C["source"]]), int(row[C["drawn"]]),
                        int(row[C["discard"]]), int(row[C["action"]])))
        else:
            drawn = int(row[C["drawn"]]) if row[C["source"]] == SOURCE_PILE else -1
            out.append(("b",) + public[1:] + (drawn,))
        if seen_now & hidden:
            break
    return out


@pytest.mark.parametrize("a,b", [("memory2", "simple"), ("memory1", "memory2"),
                                 ("random", "memory2")])
def test_hidden_cards_do_not_change_decisions(a, b):
    rng = np.random.default_rng(42)
    compared_turns = 0
    decks, swapped = [], []
    for _ in range(150):
        deck = rng.permutation(52)
        other = deck.copy()
        # Seat b deals, so seat a (non-dealer) holds deck[0:10] and seat b deck[10:20];
        # swap one of b's cards with the bottom card of the stock (never drawn).
        k = 10 + int(rng.integers(10))
        other[k], other[51] = other[51], other[k]
        decks += [deck, other]
        swapped.append((1 << int(deck[k])) | (1 << int(deck[51])))
    # Each variant is hand i of its own run, so the players' random streams match.
    traces = []
    for variant in (decks[0::2], decks[1::2]):
        _, trace = play_decks(a, b, np.array(variant), [1] * len(variant), seed=9,
                              trace_rows=100_000)
        by_hand = {}
        for row in trace:
            by_hand.setdefault(int(row[C["hand"]]), []).append(row)
        traces.append(by_hand)
    for pair, hidden in enumerate(swapped):
        first = decisions_until_revealed(traces[0][pair], hidden)
        second = decisions_until_revealed(traces[1][pair], hidden)
        # Identical until the first public difference; seat a's choices identical there.
        for x, y in zip(first, second, strict=False):
            if x[0] != y[0] or (x[0] == "b" and x != y):
                break  # seat b acted differently: a public difference
            if x[0] == "a":
                assert x == y
                compared_turns += 1
    assert compared_turns > 300  # the comparison is not vacuous


def test_memory_strategies_are_deterministic_and_chunkable():
    whole, _ = play_records("memory2", "memory1", stop=3_000, seed=4)
    parts = [play_records("memory2", "memory1", start=s, stop=e, seed=4)[0]
             for s, e in ((0, 1_234), (1_234, 3_000))]
    assert np.array_equal(np.concatenate(parts), whole)
