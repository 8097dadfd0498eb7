"""Every count, index, Rules field and strategy parameter has a bound, checked before
anything is allocated; bad values are one-line ValueErrors that state the bound."""

import tracemalloc
from dataclasses import fields

import numpy as np
import pandas as pd
import pytest

import ginsim
from ginsim import Rules, deadwood, parse_cards, parse_strategy
from ginsim.analysis.game_stats import game_summary
from ginsim.game.rules import INT_BOUNDS
from ginsim.runner.jobs import Job, default_chunk_hands, plan_chunks
from ginsim.runner.store import Store
from ginsim.simulator import limits
from ginsim.simulator.play.game_records import play_multimatch, play_teams, play_three
from ginsim.strategies.params import MC_PARAMETERS, NESTED, PARAMETERS
from ginsim.strategies.presets import DIAGNOSTIC_PARAMETERS, Strategy

HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"


def one_line_error(call, *match):
    """Run ``call``; it must raise a one-line ValueError containing every ``match``."""
    with pytest.raises(ValueError) as info:
        call()
    text = str(info.value)
    assert "\n" not in text and len(text) < 400, text
    for m in match:
        assert m in text, text
    return text


@pytest.mark.parametrize("name", sorted(INT_BOUNDS))
def test_every_integer_rules_field_is_bounded(name):
    low, high = INT_BOUNDS[name]
    Rules(**{name: low}).packed()  # both ends are accepted
    Rules(**{name: high}).packed()
    for bad in (high + 1, low - 1, 2**63, 2**70, -(2**63), 1.0 * low, True, "10"):
        one_line_error(lambda bad=bad: Rules(**{name: bad}), f"Rules.{name}",
                       f"{low}..{high}")


def test_every_integer_rules_field_has_a_bound():
    ints = {f.name for f in fields(Rules) if f.type in ("int", "int | None")}
    assert ints == set(INT_BOUNDS)


def test_the_issues_rules_overflows_are_bounds():
    one_line_error(lambda: Rules(gin_bonus=2**70), "gin_bonus", "0..1000")
    one_line_error(lambda: Rules(knock_limit=2**63), "knock_limit", "0..100")
    one_line_error(lambda: Rules(court_value=10**6), "court_value", "0..25")
    one_line_error(lambda: ginsim.play_games(rules=Rules(target=2**63)), "target", "1..1000")


def test_extreme_rules_still_fit_the_records():
    """Highest card values and bonuses: points stay inside the int16 record columns."""
    rules = Rules(court_value=25, ace_value=25, gin_bonus=1000, undercut_bonus=1000,
                  big_gin_bonus=1000, oklahoma=True, double_suits="SHDC")
    hands = ginsim.simulate("random", "simple", 300, 1, rules, n_jobs=1)
    assert hands.points_a.max() > 1000 or hands.points_b.max() > 1000
    assert (hands[["points_a", "points_b"]] >= 0).all().all()
    assert hands.defender_deadwood.max() <= 250


def test_counts_and_indices():
    one_line_error(lambda: ginsim.simulate(hands=10**18), "hands", "1,000,000,000,000")
    one_line_error(lambda: ginsim.simulate(hands=12, start=2**63 - 5), "start", "2**62")
    one_line_error(lambda: ginsim.simulate(hands=12, start=2**62 - 5), "start + hands",
                   "2**62")
    one_line_error(lambda: ginsim.simulate(hands=5.0), "hands", "got 5.0")
    one_line_error(lambda: ginsim.simulate(hands=10, seed=-1), "seed", "2**64-1")
    one_line_error(lambda: ginsim.simulate(hands=10, seed=2**64), "seed")
    one_line_error(lambda: ginsim.simulate(hands=10**8), "20,000,000", "summary")
    one_line_error(lambda: ginsim.simulate(hands=10, chunk_hands=10**13), "chunk_hands")
    one_line_error(lambda: ginsim.play_games(games=0), "games", "1..1,000,000")
    one_line_error(lambda: ginsim.play_games(games=10**12), "games", "1..1,000,000")
    one_line_error(lambda: play_three(games=10**12), "games")
    one_line_error(lambda: play_teams(games=5, rules=f"modern:team_target={2**63}"),
                   "team_target", "1..1000")
    one_line_error(lambda: play_multimatch(games=5, match_total=10**9), "match_total",
                   "1..10,000")
    one_line_error(lambda: ginsim.advise(HAND, "QD", rollouts=10**8), "rollouts",
                   "2..200,000")


def test_the_last_hand_index_plays():
    hands = ginsim.simulate(hands=4, start=limits.MAX_HAND_INDEX - 4, n_jobs=1)
    assert hands.hand.tolist() == list(range(2**62 - 4, 2**62))


def test_advise_below_the_stock_floor_is_refused():
    one_line_error(lambda: ginsim.advise(HAND, "QD", stock_left=1, rollouts=10),
                   "below the stock floor 2")
    one_line_error(lambda: ginsim.advise(HAND, "QD", stock_left=0, rollouts=10,
                                         rules=Rules(stock_floor=1)), "stock floor 1")
    table = ginsim.advise(HAND, "QD", stock_left=2, rollouts=20)  # at the floor: allowed
    assert table.best.sum() == 1


def test_planning_is_o1_in_memory():
    job = Job.make("simple", "simple", 10**12, 1)
    size = default_chunk_hands(job.hands, 2)
    assert -(-job.hands // size) <= limits.MAX_CHUNKS
    tracemalloc.start()
    plan = plan_chunks([job], size)
    count, last = len(plan), plan.chunk(0, len(plan) - 1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100_000 and last.stop == 10**12 and count == -(-10**12 // size)
    assert plan.by_name(last.name) == last and plan.by_name("j000-c99999999") is None
    one_line_error(lambda: plan_chunks([job], 1_000), "at most 100,000", "chunk_hands")


def test_a_huge_store_is_planned_without_playing(tmp_path):
    job = Job.make("simple", "simple", 10**12, 1)
    tracemalloc.start()
    store = Store.open_writer(tmp_path / "s", [job], "summary", None,
                              default_chunk_hands(job.hands, 2))
    store.close()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5_000_000
    assert (tmp_path / "s" / "manifest.json").stat().st_size < 10_000
    with pytest.raises(ValueError, match=r"unfinished \(0 of 100000 chunks"):
        ginsim.load(tmp_path / "s")


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_every_strategy_parameter_is_bounded(name):
    p = PARAMETERS[name]
    base = "mc" if name in MC_PARAMETERS else "simple"  # mc's own knobs need an mc player
    high = len(p.choices) - 1 if p.choices else p.high
    too_big = (high + 1,) * p.size
    # a diagnostic is refused in every spec; its bounds hold where diagnostics set it
    diagnostic = name in DIAGNOSTIC_PARAMETERS
    one_line_error(lambda: Strategy("x", base, {name: too_big}, diagnostic), name, p.bounds)
    one_line_error(lambda: Strategy("x", base, {name: (float("nan"),) * p.size}, diagnostic),
                   name)
    one_line_error(lambda: Strategy("x", base, {name: (p.low - 1,) * p.size}, diagnostic), name)
    if not p.choices:
        edge = (high, high - 1, high - 2) if name == "edges" else (high,) * p.size
        vector = Strategy("x", base, {name: edge}, diagnostic).vector
        assert vector[p.index:p.index + p.size].tolist() == list(edge)
        nested = name in NESTED  # their text is a strategy spec
        words = ("unknown strategy" if nested else "diagnostic" if diagnostic
                 else f"{p.low:g}..{p.high:g}")
        one_line_error(lambda: parse_strategy(f"{base}:{name}=1e300"), name, words)


def test_a_strategy_spec_is_bounded():
    one_line_error(lambda: parse_strategy("simple:" + "t=1," * 200), "500 characters")


@pytest.mark.parametrize("cards", [
    [0.5, 1, 2], np.array([0, 1, 2.7]), np.array([0.0, 1.0, 2.0]), [True, 2, 3],
    b"AS 2S 3S", bytearray(b"AS"), None, 7, [[1, 2]], ["AS", None], range(10**12),
    [np.bool_(True)], [52], [-1], [2**70],
])
def test_cards_are_never_coerced(cards):
    with pytest.raises(ValueError) as info:
        deadwood(cards)
    assert "\n" not in str(info.value) and "bad card 65" not in str(info.value)


def test_suit_symbols():
    assert parse_cards("A♠ 10♥ K♦ 2♣") == parse_cards("AS TH KD 2C")
    assert parse_cards("a♤,q♡ 3♢ 9♧ 5♥\ufe0f") == parse_cards("AS QH 3D 9C 5H")
    assert deadwood("A♠ 2♠ 3♠ 7♥ 7♦ 7♣ 9♣ 10♣ J♣ K♦") == deadwood(HAND)
    assert parse_cards(np.array([0, 51], dtype=np.uint8)) == [0, 51]
    one_line_error(lambda: parse_cards("A♠ 1♥"), "'1♥'")


def test_the_issues_api_misuse_is_a_value_error():
    one_line_error(lambda: ginsim.simulate(a=None, hands=10), "strategy a")
    one_line_error(lambda: ginsim.summarize(None), "summarize", "NoneType")
    one_line_error(lambda: ginsim.summarize([1, 2, 3]), "summarize", "list")
    one_line_error(lambda: ginsim.summarize(pd.DataFrame({"x": [1]})), "lacks outcome")
    one_line_error(lambda: game_summary(pd.DataFrame()), "lacks winner")
    games = ginsim.play_games(games=3, seed=2)
    one_line_error(lambda: game_summary(games.iloc[:0]), "at least one game")
    assert len(game_summary(games)) == 4
    one_line_error(lambda: ginsim.load(""), "result store")
    one_line_error(lambda: ginsim.simulate(hands=10, out=5), "out must be a directory")
