"""The hand loop: invariants every turn, scores per §6, determinism, chunking."""

import numpy as np
import pytest
from reference import (
    ref_layoff_deadwood,
    ref_min_deadwood,
    ref_min_deadwood_arrangements,
    ref_score,
)

from ginsim import Rules
from ginsim.game.cards import mask_to_cards
from ginsim.game.scoring.hand_scoring_nb import OUTCOMES
from ginsim.game.state import SOURCE_DEAL, SOURCE_PILE
from ginsim.simulator.machine.records import (
    ACTION_BIG_GIN,
    ACTION_DEAD,
    ACTION_KNOCK,
    TRACE_COLUMNS,
)
from ginsim.simulator.play.engine import play_records

FULL = (1 << 52) - 1
C = {name: i for i, name in enumerate(TRACE_COLUMNS)}
OUT = {name: i for i, name in enumerate(OUTCOMES)}


def popcount(x: int) -> int:
    return bin(int(x)).count("1")


def by_hand(trace):
    rows: dict[int, list] = {}
    for row in trace:
        rows.setdefault(int(row[C["hand"]]), []).append(row)
    return rows


CASES = {
    "simple_vs_t5": ("simple", "simple:t=5", Rules()),
    "random_vs_simple_big_gin": ("random", "simple", Rules(big_gin_bonus=31)),
    "simple_vs_random_eleven": ("simple:t=3", "random", Rules(deal="eleven", stock_floor=0)),
}


@pytest.fixture(scope="module", params=list(CASES))
def played(request):
    a, b, rules = CASES[request.param]
    records, trace = play_records(a, b, stop=2000, seed=11, rules=rules, trace_rows=400_000)
    assert len(trace) < 400_000
    thresholds = [min(int(s.split("=")[1]) if "=" in s else 10, rules.knock_limit)
                  for s in (a, b)]
    return records, by_hand(trace), rules, (a, b), thresholds


def test_cards_conserved_every_turn(played):
    records, hands, rules, _, _ = played
    for rec in records:
        rows = hands[int(rec["hand"])]
        for row in rows:
            a, b, pile, stock = (int(row[C[k]]) for k in ("hand_a", "hand_b", "pile", "stock"))
            assert a & b == 0 and (a | b) & pile == 0 and (a | b | pile) & stock == 0
            assert a | b | pile | stock == FULL
            assert popcount(stock) == row[C["stock_left"]]
            sizes = sorted((popcount(a), popcount(b)))
            if row[C["action"]] == ACTION_BIG_GIN:
                assert sizes == [10, 11]
            elif row[C["source"]] == SOURCE_DEAL and row[C["turn"]] == 0 and \
                    rules.deal == "eleven" and row[C["seat"]] == -1:
                assert sizes == [10, 11]
            else:
                assert sizes == [10, 10]


def test_turn_rules(played):
    records, hands, rules, _, _ = played
    for rec in records:
        rows = hands[int(rec["hand"])]
        draws = [r for r in rows if r[C["drawn"]] >= 0]
        assert len(draws) == rec["turns"]
        for r in draws:
            if r[C["source"]] == SOURCE_PILE:
                assert r[C["discard"]] != r[C["drawn"]]  # never the card just taken
        seats = [int(r[C["seat"]]) for r in rows if r[C["seat"]] >= 0]
        assert rec["dealer"] == rec["hand"] % 2
        if rules.deal == "upcard":
            assert rows[0][C["pile"]] == 1 << int(rec["upcard"])
            if rec["upcard_taken"]:
                first = draws[0]
                assert first[C["source"]] == SOURCE_PILE and first[C["drawn"]] == rec["upcard"]
            else:
                assert seats[0] == 1 - rec["dealer"]  # the non-dealer draws first
        # Whoever takes the upcard, the other player moves next: seats always alternate.
        assert all(s != t for s, t in zip(seats, seats[1:], strict=False))
        last = rows[-1]
        if rec["outcome"] == OUT["dead"]:
            assert last[C["action"]] == ACTION_DEAD
            assert rec["stock_left"] == rules.stock_floor
        assert rec["stock_left"] == last[C["stock_left"]]


def test_knock_only_within_limit_and_scores(played):
    records, hands, rules, strategies, thresholds = played
    checked = 0
    for rec in records:
        if rec["outcome"] == OUT["dead"]:
            assert rec["points_a"] == rec["points_b"] == 0 and rec["knocker"] == -1
            continue
        last = hands[int(rec["hand"])][-1]
        knocker = int(rec["knocker"])
        khand = mask_to_cards(last[C["hand_a"] if knocker == 0 else C["hand_b"]])
        dhand = mask_to_cards(last[C["hand_b"] if knocker == 0 else C["hand_a"]])
        k = int(rec["knocker_deadwood"])
        if rec["outcome"] == OUT["big_gin"]:
            assert last[C["action"]] == ACTION_BIG_GIN and ref_min_deadwood(khand) == 0
            assert len(khand) == 11
        else:
            assert last[C["action"]] == ACTION_KNOCK
            assert ref_min_deadwood(khand) == k <= thresholds[knocker] <= rules.knock_limit
        before = ref_min_deadwood(dhand)
        assert rec["defender_deadwood_before_layoff"] == before
        d = int(rec["defender_deadwood"])
        if k == 0:
            assert d == before
        elif checked < 60:
            checked += 1
            options = {ref_layoff_deadwood([sorted(m) for m in arr], dhand)
                       for arr in ref_min_deadwood_arrangements(khand)}
            assert d in options
        if rec["outcome"] == OUT["big_gin"]:
            kpts, dpts = rules.big_gin_bonus + d, 0
        else:
            kpts, dpts = ref_score(k, d, k == 0, rules.gin_bonus, rules.undercut_bonus,
                                   rules.undercut_on_tie)
            expected = "gin" if k == 0 else ("knock" if kpts > 0 else "undercut")
            assert OUTCOMES[rec["outcome"]] == expected
        points = (kpts, dpts) if knocker == 0 else (dpts, kpts)
        assert (rec["points_a"], rec["points_b"]) == points


def test_deadwood_players_knock_as_soon_as_allowed(played):
    records, hands, _, strategies, thresholds = played
    for rec in records[:300]:
        for row in hands[int(rec["hand"])]:
            seat = int(row[C["seat"]])
            if seat < 0 or strategies[seat].startswith("random") or row[C["action"]] != 0:
                continue
            kept = mask_to_cards(row[C["hand_a"] if seat == 0 else C["hand_b"]])
            assert ref_min_deadwood(kept) > thresholds[seat]


def test_same_seed_same_records_and_chunking():
    whole, _ = play_records("simple", "random", stop=10_000, seed=5)
    again, _ = play_records("simple", "random", stop=10_000, seed=5)
    assert np.array_equal(whole, again)
    parts = [play_records("simple", "random", start=s, stop=e, seed=5)[0]
             for s, e in ((0, 3_000), (3_000, 3_001), (3_001, 7_500), (7_500, 10_000))]
    assert np.array_equal(np.concatenate(parts), whole)
    other, _ = play_records("simple", "random", stop=10_000, seed=6)
    assert not np.array_equal(other, whole)


def test_duplicate_deals_swap_seats():
    records, trace = play_records("simple", "simple:t=0", stop=200, seed=3, duplicate=True,
                                  trace_rows=50_000)
    deals = {int(r[C["hand"]]): r for r in trace if r[C["source"]] == SOURCE_DEAL
             and r[C["seat"]] == -1}
    for d in range(100):
        first, second = deals[2 * d], deals[2 * d + 1]
        assert first[C["hand_a"]] == second[C["hand_b"]]
        assert first[C["hand_b"]] == second[C["hand_a"]]
        assert first[C["stock"]] == second[C["stock"]]
        assert records["dealer"][2 * d] != records["dealer"][2 * d + 1]
        assert records["upcard"][2 * d] == records["upcard"][2 * d + 1]


def test_bad_arguments():
    with pytest.raises(ValueError, match="seed"):
        play_records(stop=1, seed=-1)
    with pytest.raises(ValueError, match="stop"):
        play_records(start=5, stop=2)
    with pytest.raises(ValueError, match="unknown strategy"):
        play_records("nope", stop=1)
