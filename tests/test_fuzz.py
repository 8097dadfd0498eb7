"""Fuzzing the public API and the command line: whatever goes in, the answer is a
valid result or a one-line ValueError/TypeError (the CLI: exit code 2, one line on
stderr, no traceback). Inputs mix valid values with the kinds that broke it before:
huge and negative ints, floats, bools, bytes, None, odd text."""

import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import ginsim
from ginsim import Rules, deadwood, parse_cards, parse_strategy
from ginsim.analysis.game_stats import game_summary
from ginsim.game.rules import (
    DEAL_MODES,
    INT_BOUNDS,
    LAYOFF_MODES,
    NEXT_DEALER_MODES,
    SHUTOUT_MODES,
)
from ginsim.runner.aggregate import layout
from ginsim.simulator.play.engine import play_records
from ginsim.strategies.params import PARAMETERS
from ginsim.strategies.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]


def fuzz(examples: int) -> settings:
    """Hypothesis settings of one fuzz test: ``examples`` inputs, no deadline."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=list(HealthCheck))


junk = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.binary(max_size=8),
    st.text(max_size=8), st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 0, 1, 2, 2**31, 2**63 - 1, 2**63, 2**64, 10**18]),
)
small = st.integers(min_value=-3, max_value=40)


def check_error(exc: BaseException) -> None:
    """The promise for bad input: a ValueError or TypeError of one short line."""
    assert isinstance(exc, (ValueError, TypeError)), repr(exc)
    text = str(exc)
    assert text and "\n" not in text and len(text) < 500, text


def outcome(call):
    """(result, None) or (None, the checked error); tallied for --hypothesis-show-statistics."""
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 (checked: must be a one-line Value/TypeError)
        check_error(exc)
        event(f"error: {type(exc).__name__}")
        return None, exc
    event("valid")
    return result, None


def one_bad(valid: dict, bad: dict | None = None) -> st.SearchStrategy[dict]:
    """Valid keyword arguments, half the time with one of them replaced by a bad value
    (from ``bad[key]``, else junk), so both paths are tried often."""
    def spoil(kwargs: dict) -> st.SearchStrategy[dict]:
        return st.sampled_from(sorted(kwargs)).flatmap(
            lambda key: (bad or {}).get(key, junk).map(lambda v: {**kwargs, key: v}))
    return st.fixed_dictionaries(valid).flatmap(lambda d: st.one_of(st.just(d), spoil(d)))


CHOICES = {"layoff": LAYOFF_MODES, "deal": DEAL_MODES, "next_dealer": NEXT_DEALER_MODES,
           "shutout": SHUTOUT_MODES}
valid_rules = {
    **{name: st.integers(low, high) for name, (low, high) in INT_BOUNDS.items()},
    **{name: st.sampled_from(choices) for name, choices in CHOICES.items()},
    **{f.name: st.booleans() for f in fields(Rules) if f.type == "bool"},
    "big_gin_bonus": st.one_of(st.none(), st.integers(*INT_BOUNDS["big_gin_bonus"])),
    "double_suits": st.lists(st.sampled_from("SHDC"), unique=True, max_size=4).flatmap(
        lambda suits: st.sampled_from(["".join(suits), "".join(suits).lower()])),
    "deal": st.just("upcard"),  # (eleven with oklahoma is refused; tried as a bad value)
    "mahjong": st.just(False),  # its hands outgrow ten cards: tests/test_mahjong.py
}
rules_kwargs = one_bad(valid_rules, {name: st.one_of(junk, st.integers(low - 2, high + 2))
                                     for name, (low, high) in INT_BOUNDS.items()})


@fuzz(300)
@given(rules_kwargs)
def test_rules(kwargs):
    rules, exc = outcome(lambda: Rules(**kwargs))
    if exc is None:
        packed = rules.packed()
        assert packed.dtype == np.int64
        for name, (low, high) in INT_BOUNDS.items():
            value = getattr(rules, name)
            assert value is None or low <= value <= high


#: Rules inside the bounds that fit together (Oklahoma keeps knock_limit at 10; the
#: fields only Oklahoma or Mahjong read keep their defaults without them).
playable_rules = st.fixed_dictionaries(valid_rules).map(
    lambda d: {**d, "knock_limit": 10} if d["oklahoma"] else {
        **d, "aces_must_gin": True, "double_suits": "S"}).map(
    lambda d: {**d, "mahjong_discard_to_go_out": True, "mahjong_final_meld": False})


@fuzz(80)
@given(playable_rules, st.sampled_from(["random", "simple", "memory2"]))
def test_rules_at_their_bounds_play(kwargs, strategy):
    """Any rules inside the bounds play: points fit the int16 columns, every hand falls
    inside the aggregate bins (the runner would raise otherwise)."""
    rules = Rules(**kwargs)
    records, _ = play_records(strategy, "random", stop=6, seed=kwargs["target"], rules=rules)
    assert (records["points_a"] >= 0).all() and (records["points_b"] >= 0).all()
    top = 10 * int(rules.rank_values().max())
    assert (records["defender_deadwood"] <= top).all()
    assert layout(rules).sparse(records).acc[:, 0].sum() == 3 * len(records)


card_items = st.one_of(st.integers(min_value=-2, max_value=53), junk,
                       st.sampled_from(["AS", "10♥", "K♦", "q♣", "ZZ", "1S", "T", ""]))
card_inputs = st.one_of(
    st.text(alphabet="AKQJT1023456789SHDC♠♥♦♣ ,x", max_size=40),
    st.lists(card_items, max_size=14),
    st.lists(st.integers(min_value=0, max_value=51), max_size=12, unique=True).map(
        lambda xs: np.array(xs, dtype=np.int16)),
    st.lists(st.floats(min_value=0, max_value=51), max_size=5).map(np.array),
    st.binary(max_size=20), junk,
)


@fuzz(300)
@given(card_inputs)
def test_cards(cards):
    parsed, exc = outcome(lambda: parse_cards(cards))
    if exc is None:
        assert all(type(c) is int and 0 <= c < 52 for c in parsed)
        assert len(set(parsed)) == len(parsed)
        assert deadwood(cards) == deadwood(parsed) >= 0


def valid_value(p) -> st.SearchStrategy[str]:
    """Spec text of a value inside parameter ``p``'s bounds."""
    if p.choices:
        return st.sampled_from(p.choices)
    if p.name == "edges":
        return st.lists(st.integers(0, 31), min_size=3, max_size=3, unique=True).map(
            lambda xs: "/".join(str(x) for x in sorted(xs, reverse=True)))
    number = (st.integers(int(p.low), int(p.high)) if p.integer
              else st.floats(p.low, p.high).map(lambda x: f"{x:.6g}"))
    return st.one_of(number.map(str), st.lists(number.map(str), min_size=p.size,
                                               max_size=p.size).map("/".join))


bad_values = st.one_of(st.sampled_from(["-1", "8/16/24", "1e300", "nan", "inf", "2.5",
                                        "clever", "", "2147483649", "1/2"]),
                       st.text(max_size=5))
items = st.lists(st.sampled_from(list(PARAMETERS)).flatmap(
    lambda name: st.tuples(st.just(name), valid_value(PARAMETERS[name]))), max_size=3)
specs = one_bad({"preset": st.sampled_from(list(PRESETS)), "items": items},
                {"preset": st.sampled_from(["smart", "", "simple:"]),
                 "items": st.lists(st.tuples(st.sampled_from(list(PARAMETERS) + ["x"]),
                                             bad_values), min_size=1, max_size=2)}).map(
    lambda d: d["preset"] + (":" + ",".join(f"{k}={v}" for k, v in d["items"])
                             if d["items"] else ""))


@fuzz(300)
@given(st.one_of(specs, junk))
def test_strategy_specs(spec):
    strategy, exc = outcome(lambda: parse_strategy(spec))
    if exc is None:
        vector = strategy.vector
        for p in PARAMETERS.values():
            part = vector[p.index:p.index + p.size]
            high = len(p.choices) - 1 if p.choices else p.high
            assert np.isfinite(part).all() and (part >= p.low).all() and (part <= high).all()


@fuzz(60)
@given(one_bad({"a": st.sampled_from(["simple", "random", "memory2:t=3"]),
                "hands": st.integers(0, 40), "seed": st.integers(0, 2**64 - 1),
                "rules": st.sampled_from([None, "classic", "straight", "oklahoma"]),
                "start": st.sampled_from([0, 2, 2**62 - 40]), "duplicate": st.just(False),
                "records": st.sampled_from(["full", "summary"]),
                "chunk_hands": st.sampled_from([None, 1, 7])},
               {"records": st.one_of(st.just("none"), junk),
                "duplicate": st.one_of(st.just(True), junk)}))
def test_simulate(kwargs):
    frame, exc = outcome(lambda: ginsim.simulate(b="simple", n_jobs=1, **kwargs))
    if exc is None:
        total = len(frame) if kwargs["records"] == "full" else int(frame["hands"].sum())
        assert total == kwargs["hands"]


@fuzz(25)
@given(one_bad({"games": st.integers(1, 3), "seed": st.integers(0, 99),
                "rules": st.sampled_from(["modern", "single_hand", "oklahoma"])},
               {"games": st.one_of(st.integers(-1, 0), junk)}))
def test_play_games(kwargs):
    frame, exc = outcome(lambda: ginsim.play_games("simple", "random", **kwargs))
    if exc is None:
        assert len(frame) == kwargs["games"]
        assert game_summary(frame).n.tolist() == [kwargs["games"]] * 4


HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"


@fuzz(25)
@given(one_bad({"drawn": st.sampled_from(["QD", "Q♦", "4S"]),
                "stock_left": st.integers(2, 31 - 5), "rollouts": st.integers(2, 6),
                "rules": st.sampled_from(["modern", "straight"])},
               {"drawn": st.one_of(st.sampled_from(["AS", "ZZ", "QD 4S"]), junk),
                "stock_left": st.one_of(st.integers(-1, 1), st.integers(27, 40), junk),
                "rollouts": st.one_of(st.integers(-1, 1), junk)}))
def test_advise(kwargs):
    table, exc = outcome(lambda: ginsim.advise(HAND, pile="2D 3D 4D 5D 6D", **kwargs))
    if exc is None:
        stock_left = 20 if kwargs["stock_left"] is None else kwargs["stock_left"]  # default
        assert stock_left >= Rules.coerce(kwargs["rules"]).stock_floor
        assert table.best.sum() == 1 and table.deadwood.min() >= 0
        assert table.recommended.sum() == (not table.close.iloc[0])


@fuzz(60)
@given(st.one_of(junk, st.lists(small, max_size=3),
                 st.dictionaries(st.sampled_from(["outcome", "hands", "winner", "margin"]),
                                 st.lists(small, min_size=1, max_size=1)).map(pd.DataFrame)))
def test_summaries_and_load(thing):
    for call in (ginsim.summarize, game_summary, ginsim.load):
        result, exc = outcome(lambda call=call: call(thing))
        assert exc is not None  # none of these inputs is a simulation's output


#: Bad command lines in this module's area (the CLI's own cases are tested with it).
BAD_ARGV = [
    ["simulate", "--hands", "1000000000000000000"],
    ["simulate", "--hands", "10", "--a", "simple:t=999"],
    ["simulate", "--hands", "10", "--b", "smart"],
    ["simulate", "--hands", "10", "--rules", "nope"],
    ["simulate", "--hands", "10", "--out", "pyproject.toml"],
    ["games", "--games", "1000000000000"],
    ["games", "--games", "5", "--system", "multimatch", "--match-total", "100000"],
    ["advise", "--hand", HAND, "--drawn", "QD", "--stock-left", "1"],
    ["advise", "--hand", HAND, "--drawn", "QD", "--stock-left", "0"],
    ["advise", "--hand", HAND, "--drawn", "QD", "--rollouts", "100000000"],
    ["advise", "--hand", "AS 2S", "--drawn", "QD"],
    ["deadwood", "AS 2S ZZ"],
    ["deadwood", "A♠ 1♥"],
    ["report", "--from", "no/such/store"],
]


@fuzz(4)
@given(st.sampled_from(BAD_ARGV))
def test_cli_sample(argv):
    proc = subprocess.run([sys.executable, "-m", "ginsim.cli", *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2, (argv, proc.stderr)
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("error: ")


@pytest.mark.parametrize("argv", BAD_ARGV)
def test_cli_cases_in_process(argv, capsys):
    from ginsim.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
