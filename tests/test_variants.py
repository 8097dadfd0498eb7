"""Hand-level rule variants (RULES §5.3, §8.1, §8.2, §8.5) and the records' new columns."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import parse, random_hands

from ginsim import Rules, deadwood, layoff_deadwood
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.scoring.hand_scoring_nb import OUTCOMES
from ginsim.simulator.machine.records import ACTION_LAST_DISCARD, TRACE_COLUMNS
from ginsim.simulator.play.engine import play_decks, play_records

C = {name: i for i, name in enumerate(TRACE_COLUMNS)}
OUT = {name: i for i, name in enumerate(OUTCOMES)}


def decks_with_upcard(upcard: str, count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    card = parse(upcard)[0]
    decks = []
    for _ in range(count):
        rest = rng.permutation([c for c in range(52) if c != card])
        decks.append(np.concatenate([rest[:20], [card], rest[20:]]))
    return np.array(decks)


def test_every_preset_by_name():
    for name in RULES_PRESETS:
        rules = Rules.preset(name)
        assert Rules.coerce(name) == rules and rules.name() == name
        records, _ = play_records(stop=50, seed=1, rules=name)
        assert len(records) == 50


def test_oklahoma_spade_ace_is_gin_only_and_doubled():
    rules = Rules.preset("oklahoma")
    records, _ = play_decks("simple", "simple", decks_with_upcard("AS", 400), [0, 1] * 200,
                            rules=rules)
    assert (records["knock_limit"] == 0).all() and (records["multiplier"] == 2).all()
    assert set(records["outcome"]) <= {OUT["gin"], OUT["dead"]}
    gins = records[records["outcome"] == OUT["gin"]]
    assert len(gins) > 0
    points = np.maximum(gins["points_a"], gins["points_b"])
    assert (points == 2 * (rules.gin_bonus + gins["defender_deadwood"])).all()


def test_oklahoma_upcard_sets_limit_and_suits_double():
    rules = Rules.preset("oklahoma")
    records, _ = play_decks("simple", "simple", decks_with_upcard("7H", 300), [0] * 300,
                            rules=rules)
    assert (records["knock_limit"] == 7).all() and (records["multiplier"] == 1).all()
    knocks = records[records["outcome"] != OUT["dead"]]
    assert (knocks["knocker_deadwood"] <= 7).all()
    assert (knocks["knocker_deadwood"] == 7).any()
    hearts = rules.with_(double_suits="SH")
    records, _ = play_decks("simple", "simple", decks_with_upcard("7H", 50), [0] * 50,
                            rules=hearts)
    assert (records["multiplier"] == 2).all()
    won = records[records["outcome"] != OUT["dead"]]
    assert ((won["points_a"] + won["points_b"]) % 2 == 0).all()
    court, _ = play_decks("simple", "simple", decks_with_upcard("QD", 20), [0] * 20,
                          rules=rules)
    assert (court["knock_limit"] == 10).all()
    ace, _ = play_decks("simple", "simple", decks_with_upcard("AD", 20), [0] * 20,
                        rules=rules.with_(aces_must_gin=False))
    assert (ace["knock_limit"] == 1).all()


def test_standard_rules_record_limit_and_multiplier():
    records, _ = play_records(stop=200, seed=2)
    assert (records["knock_limit"] == 10).all() and (records["multiplier"] == 1).all()
    assert ((records["upcard"] >= 0) & (records["upcard"] < 52)).all()


def test_straight_gin_has_no_knocks():
    records, _ = play_records("simple", "memory2", stop=3000, seed=3, rules="straight")
    assert set(records["outcome"]) <= {OUT["gin"], OUT["dead"]}
    assert (records["outcome"] == OUT["gin"]).mean() > 0.5


# Tedesco: runs turn the corner, an unmelded ace costs 15 (brute force reference).
def wrap_melds():
    melds = []
    for rank in range(13):
        cards = [s * 13 + rank for s in range(4)]
        melds += [frozenset(c) for k in (3, 4) for c in itertools.combinations(cards, k)]
    for suit in range(4):
        for start in range(13):
            for length in range(3, 13):
                melds.append(frozenset(suit * 13 + (start + i) % 13 for i in range(length)))
        melds.append(frozenset(suit * 13 + r for r in range(13)))
    return list(dict.fromkeys(melds))


WRAP_MELDS = wrap_melds()


def tedesco_value(card):
    rank = card % 13
    return 15 if rank == 0 else min(rank + 1, 10)


def ref_wrap_deadwood(cards):
    cards = frozenset(cards)
    best = sum(tedesco_value(c) for c in cards)

    def search(left, melded):
        nonlocal best
        best = min(best, sum(tedesco_value(c) for c in cards - melded))
        if not left:
            return
        low = min(left)
        search(left - {low}, melded)
        for meld in WRAP_MELDS:
            if low in meld and meld <= left:
                search(left - meld, melded | meld)

    search(cards, frozenset())
    return best


def test_tedesco_worked_examples():
    assert deadwood("QS KS AS", rules="tedesco") == 0
    assert deadwood("KS AS 2S", rules="tedesco") == 0
    assert deadwood("KS AS 2S", rules="modern") == 13
    assert deadwood("AS 5H", rules="tedesco") == 20
    assert deadwood("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", rules="tedesco") == 0
    assert layoff_deadwood(["QS KS AS"], "2S 9H", rules="tedesco") == 9
    with pytest.raises(ValueError, match="not a meld"):
        layoff_deadwood(["QS KS AS"], "2S 9H", rules="modern")
    assert layoff_deadwood(["2S 3S 4S"], "AS KS 9H", rules="tedesco") == 9
    assert len(WRAP_MELDS) == 589


@given(st.one_of(random_hands(10), random_hands(11),
                 st.lists(st.sampled_from(parse("AS 2S 3S JS QS KS AH KH QH 2H AD AC KD")),
                          min_size=8, max_size=11, unique=True)))
def test_tedesco_deadwood_matches_reference(cards):
    assert deadwood(cards, rules="tedesco") == ref_wrap_deadwood(cards)


def test_tedesco_hands_play_with_wrapping_runs():
    records, _ = play_records("memory2", "simple", stop=2000, seed=8, rules="tedesco")
    assert (records["knock_limit"] <= 10).all()
    assert (records["outcome"] == OUT["gin"]).any()


def test_last_discard_rule_lets_the_other_player_knock():
    plain, _ = play_records("simple", "simple", stop=20_000, seed=5)
    rule, trace = play_records("simple", "simple", stop=20_000, seed=5, rules="last_discard",
                               trace_rows=400_000)
    revived = trace[trace[:, C["action"]] == ACTION_LAST_DISCARD]
    assert len(revived) > 0
    hands = revived[:, C["hand"]]
    assert (plain["outcome"][hands] == OUT["dead"]).all()
    assert (rule["outcome"][hands] != OUT["dead"]).all()
    assert (rule["stock_left"][hands] == 2).all()
    other = np.setdiff1d(np.arange(20_000), hands)
    assert np.array_equal(plain[other], rule[other])


def test_rules_reject_contradictions():
    with pytest.raises(ValueError, match="needs an upcard"):
        Rules(oklahoma=True, deal="eleven")
    with pytest.raises(ValueError, match="double_suits"):
        Rules(double_suits="X")
    with pytest.raises(ValueError, match="next_dealer"):
        Rules(next_dealer="random")
