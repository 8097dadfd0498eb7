"""The parameter layer (ginsim/game/inputs/checks.py) fuzzed by kind and by entry point.

Every public argument is read by one typed validator per kind; these property tests
feed each entry point the values of the wrong kind (bools for counts, text for numbers,
2 for a flag) and check the one-line refusal, before any kernel runs. The strategy
spec and rules tests are generated from the Parameter table and the Rules fields, so a
new parameter or field is fuzzed the day it is added. The cases of issue 27 are
regression tests at the end.
"""

from dataclasses import fields

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ginsim
from ginsim import Rules, layoff_deadwood, parse_cards, parse_strategy
from ginsim.game.inputs import checks
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import (
    BOOL_FIELDS,
    CHOICE_FIELDS,
    DEPENDENT_FIELDS,
    INT_BOUNDS,
    MAX_GAME_STOCK_FLOOR,
    parse_rules,
)
from ginsim.simulator.machine.history_replay import parse_history
from ginsim.strategies.params import NESTED, PARAMETERS
from ginsim.strategies.presets import PRESETS

HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
OFFER = "dealer:op up:7H"  # a history at the upcard offer: the posterior's options apply


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=list(HealthCheck))


def refused(call, *words: str) -> str:
    """``call`` raises a one-line ValueError containing every one of ``words``."""
    with pytest.raises(ValueError) as info:
        call()
    text = str(info.value)
    assert text and "\n" not in text and len(text) < 500, text
    for word in words:
        assert word in text, text
    return text


# Values of the wrong kind, per kind of argument.
not_int = st.one_of(st.booleans(), st.floats(allow_nan=True), st.text(max_size=4),
                    st.sampled_from(["5", b"5", None, 2.0, np.float64(3), [1]]))
not_flag = st.one_of(st.integers(-2, 3), st.sampled_from(["no", "yes", "true", "", 1.0,
                                                          None, np.int64(1), [True]]))
not_number = st.one_of(st.booleans(), st.text(max_size=4),
                       st.sampled_from(["0.5", None, float("nan"), float("inf"), b"1", [0.5]]))
not_jobs = st.one_of(st.booleans(), st.sampled_from([0, -2, 1.5, "2", checks.MAX_JOBS + 1,
                                                      100_000, 2**63]))


@fuzz(200)
@given(st.one_of(not_int, st.integers(-(2**70), 2**70), st.integers(0, 10)))
def test_check_int_takes_only_whole_numbers_in_bounds(value):
    if checks.is_int(value) and 0 <= value <= 10:
        assert checks.check_int(value, "n", 0, 10) == value
    else:
        refused(lambda: checks.check_int(value, "n", 0, 10), "n must be", "0..10")


@fuzz(100)
@given(st.one_of(not_flag, st.booleans(), st.sampled_from([np.True_, np.False_])))
def test_check_flag_takes_only_bools(value):
    if isinstance(value, (bool, np.bool_)):
        assert checks.check_flag(value, "f") is bool(value)
    else:
        refused(lambda: checks.check_flag(value, "f"), "f must be True or False")


@fuzz(200)
@given(st.one_of(not_number, st.floats(-2, 3), st.integers(-2, 3)))
def test_check_number_takes_only_finite_numbers_in_bounds(value):
    if checks.is_number(value) and 0 < value <= 1:
        assert checks.check_probability(value, "p", low_open=True) == float(value)
    else:
        refused(lambda: checks.check_probability(value, "p", low_open=True), "p must be")


# Every entry point's arguments by kind: (call with one keyword changed, keyword, kind).
ENTRY_POINTS = {
    "simulate": (lambda **kw: ginsim.simulate(**{"hands": 4, "n_jobs": 1, **kw}),
                 {"hands": not_int, "seed": not_int, "start": not_int, "duplicate": not_flag,
                  "progress": st.sampled_from(["no", 0, 1, 2]), "n_jobs": not_jobs,
                  "out": st.sampled_from([5, b"x", "", "  ", 1.5])}),
    "advise": (lambda **kw: ginsim.advise(HAND, **{"history": OFFER, "rollouts": 10, **kw}),
               {"rollouts": not_int, "seed": not_int,
                "temperature": not_number.filter(lambda v: v is not None),
                "wait": not_number.filter(lambda v: v is not None),
                "drawn_from": st.sampled_from(["deck", 1, None, True])}),
    "equilibrium": (lambda **kw: ginsim.equilibrium(**{"hands": 1000, "iterations": 1, **kw}),
                    {"hands": not_int, "iterations": not_int, "seed": not_int,
                     "passes": st.one_of(not_int, st.sampled_from([0, -1])),
                     "target": st.one_of(not_number, st.sampled_from([0, -1.0])),
                     "n_jobs": not_jobs, "progress": not_flag}),
    "knock_chart": (lambda **kw: ginsim.knock_chart(**{"hands": 10, **kw}),
                    {"hands": not_int, "seed": not_int,
                     "edges": st.sampled_from([None, [], "24", [8, 16], [40], [True], (2.5,)])}),
    "positions": (lambda **kw: ginsim.positions(**{"strategy": "simple", "opponent": "simple",
                                                   "hands": 2, **kw}),
                  {"hands": not_int, "seed": not_int}),
    "play_games": (lambda **kw: ginsim.play_games(**{"games": 2, **kw}),
                   {"games": not_int, "seed": not_int}),
    "load": (lambda **kw: ginsim.load(**{"path": "no/such/store", **kw}),
             {"partial": not_flag, "path": st.sampled_from([None, 5, b"x", ""])}),
    "parse_cards": (lambda **kw: parse_cards(**{"text": "AS 2S", **kw}),
                    {"size": not_int.filter(lambda v: v is not None)}),
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
@fuzz(25)
@given(data=st.data())
def test_every_argument_of_the_wrong_kind_is_refused(name, data):
    call, kinds = ENTRY_POINTS[name]
    key = data.draw(st.sampled_from(sorted(kinds)))
    value = data.draw(kinds[key])
    text = refused(lambda: call(**{key: value}))
    assert "Traceback" not in text


# Strategy specs, generated from the Parameter table.
def spec_value(p) -> str:
    """A valid spec value of parameter ``p`` (its default, or a chart or model name)."""
    if p.name == "chart":
        return "five"
    if p.name == "card_model":
        return "card_play_linear"
    if p.name in NESTED:
        return "memory1"
    if p.choices:
        return p.choices[int(p.default[0])]
    return "/".join(f"{v:g}" for v in p.default)


SPEC_KEYS = [(alias, p) for p in PARAMETERS.values() if p.name != "grid"
             for alias in (p.name, *p.aliases)]


@fuzz(120)
@given(st.sampled_from(SPEC_KEYS), st.sampled_from(SPEC_KEYS), st.sampled_from(sorted(PRESETS)))
def test_a_parameter_given_twice_is_refused(first, second, preset):
    (key1, p1), (key2, p2) = first, second
    spec = f"{preset}:{key1}={spec_value(p1)},{key2}={spec_value(p2)}"
    if p1.name == p2.name:
        refused(lambda: parse_strategy(spec), "twice")
    else:
        try:
            parse_strategy(spec)
        except ValueError as exc:  # e.g. an mc parameter on a plain preset
            assert "twice" not in str(exc) and "\n" not in str(exc)


def test_every_parameter_is_in_the_spec_fuzz():
    assert {p.name for _, p in SPEC_KEYS} == set(PARAMETERS) - {"grid"}  # grid: via chart=


# Rules, generated from the Rules fields.
def field_values(name: str) -> st.SearchStrategy:
    if name in INT_BOUNDS:
        low, high = INT_BOUNDS[name]
        return st.integers(low - 1, high + 1).map(str)
    if name in BOOL_FIELDS:
        return st.sampled_from(["true", "false", "2", "maybe"])
    if name in CHOICE_FIELDS:
        return st.sampled_from([*CHOICE_FIELDS[name], "other"])
    assert name == "double_suits", f"the rules fuzz does not know field {name}: add it"
    return st.text(alphabet="SHDCX", max_size=5)


RULES_FIELDS = [f.name for f in fields(Rules)]


@fuzz(300)
@given(st.sampled_from(sorted(RULES_PRESETS)),
       st.lists(st.sampled_from(RULES_FIELDS).flatmap(
           lambda n: st.tuples(st.just(n), field_values(n))), max_size=3,
           unique_by=lambda t: t[0]))
def test_rules_specs_are_played_as_written_or_refused(preset, items):
    spec = preset + (":" + ",".join(f"{k}={v}" for k, v in items) if items else "")
    try:
        rules = parse_rules(spec)
    except ValueError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 500
        return
    for key, value in items:  # honoured as written
        got = getattr(rules, key)
        assert str(got).lower() == value.lower() or (key == "double_suits"
                                                    and got == value.upper())
    assert not rules.oklahoma or rules.knock_limit == 10  # no silent winner
    default = Rules()
    for name, switch in DEPENDENT_FIELDS.items():  # nothing set that no one reads
        assert getattr(rules, switch) or getattr(rules, name) == getattr(default, name)
    assert (rules.game_problem() is None) == (rules.stock_floor <= MAX_GAME_STOCK_FLOOR)


# Histories: any sequence of events is replayed or refused on one line, never past the
# stock floor.
events = st.sampled_from(["me:pass", "op:pass", "me:stock", "op:stock", "me:+7H", "op:+7H",
                          "me:-KD", "op:-KD", "me:-2C", "op:-2C", "op:+KD", "me:+2C", "x:y"])


@fuzz(200)
@given(st.lists(events, max_size=12), st.integers(0, 30), st.booleans())
def test_histories_never_pass_the_stock_floor(tail, floor, last_discard):
    rules = Rules(stock_floor=floor, last_discard_rule=last_discard)
    try:
        hist = parse_history([*OFFER.split(), *tail], rules)
    except ValueError as exc:
        assert "\n" not in str(exc)
        return
    assert hist.stock_left >= floor
    assert hist.stock_left == 31 - sum(hist.stock_draws)


# The cases of issue 27.
def test_bools_and_text_are_not_numbers():
    refused(lambda: ginsim.advise(HAND, history=OFFER, temperature=True), "temperature")
    refused(lambda: ginsim.simulate(hands=4, duplicate=2), "duplicate must be True or False")
    refused(lambda: ginsim.simulate(hands=4, progress="no"), "progress")
    refused(lambda: ginsim.load("no/such/store", partial="no"), "partial")
    refused(lambda: ginsim.equilibrium(target=True), "target")
    refused(lambda: ginsim.equilibrium(n_jobs=1.5), "n_jobs")
    refused(lambda: ginsim.equilibrium(passes=-1), "passes")


def test_bounds_are_checked_where_the_value_enters():
    refused(lambda: ginsim.knock_chart(hands=10**12), "10,000,000")
    refused(lambda: ginsim.decisions_frame(hands=10**9), "10,000,000")
    refused(lambda: ginsim.equilibrium(hands=10**18), "10,000,000")
    refused(lambda: ginsim.positions("simple", "simple", hands=10**12), "100,000")
    refused(lambda: ginsim.simulate(hands=100, chunk_hands=1, n_jobs=100_000), "n_jobs",
            "1..1024")


def test_a_repeated_key_or_a_second_chart_is_refused():
    refused(lambda: parse_strategy("simple:t=5,t=6"), "knock given twice")
    refused(lambda: parse_strategy("simple:t=5,knock=6"), "as t and knock")
    refused(lambda: parse_strategy("memory2:chart=five,chart=always"), "two charts")
    refused(lambda: parse_strategy("memory2:chart=1921/1/1/1,chart=five"), "two charts")


def test_a_bit_chart_replaces_a_presets_named_chart():
    """``equilibrium:chart=...`` used to keep the preset's grid, which the kernel reads
    first, so the bits were silently ignored."""
    vector = parse_strategy("equilibrium:chart=1921/1/1/1").vector
    plain = parse_strategy("simple:memory=2,outs=1,chart=1921/1/1/1").vector
    assert np.array_equal(vector, plain)


def test_contradictory_rules_are_refused_with_the_reason():
    refused(lambda: Rules.coerce("straight:oklahoma=true"), "straight gin", "choose one")
    refused(lambda: Rules.coerce("oklahoma:knock_limit=3"), "knock_limit=3", "upcard")
    refused(lambda: Rules(oklahoma=True, knock_limit=0), "straight gin")
    assert Rules.coerce("oklahoma").knock_limit == 10  # the presets still stand


def test_fields_no_variant_reads_are_refused():
    refused(lambda: Rules.coerce("modern:aces_must_gin=false"), "only with oklahoma=true")
    refused(lambda: Rules.coerce("classic:double_suits=SH"), "double_suits=SH")
    refused(lambda: Rules.coerce("modern:mahjong_final_meld=true"), "only with mahjong")
    refused(lambda: Rules.coerce("mahjong:knock_limit=5"), "no knocking")
    assert Rules.coerce("oklahoma:aces_must_gin=false,double_suits=SH").double_suits == "SH"
    assert Rules.coerce("mahjong:mahjong_final_meld=true").mahjong_final_meld


def test_games_refuse_a_stock_floor_that_kills_the_hands():
    rules = Rules.coerce("modern:stock_floor=30")  # single hands are still playable
    assert rules.game_problem() is not None
    refused(lambda: ginsim.play_games(games=3, rules=rules), "stock_floor at most 20",
            "1 draw")
    assert Rules(stock_floor=MAX_GAME_STOCK_FLOOR).game_problem() is None
    # rules the check lets through but whose games outlast the game loop's cap (straight
    # gin, 88% dead hands at floor 20, to 1000) end in one line, not a RuntimeError
    refused(lambda: ginsim.play_games(games=20, seed=1,
                                      rules="straight:stock_floor=20,target=1000"),
            "safety cap", "lower the stock floor or the target")


def test_unclear_messages_say_what_was_wrong():
    refused(lambda: parse_cards("AS 2S", size="2"), "size must be a whole number")
    refused(lambda: layoff_deadwood(None, "AS"), "knocker_melds is a list of melds")
    refused(lambda: Rules.preset(["modern"]), "a rules preset is a name", "modern")
    text = refused(lambda: ginsim.equilibrium(base="mc"), "mc player", "memory2")
    assert "+chart" not in text
    refused(lambda: ginsim.knock_chart(edges=None, hands=10), "edges")
    refused(lambda: ginsim.chart_table(None), "chart_table takes the DataFrame")


def test_advise_refuses_what_it_would_ignore():
    refused(lambda: ginsim.advise(HAND, drawn="QC", rules="mahjong"), "Mahjong")
    refused(lambda: ginsim.advise(HAND, drawn="QC", temperature=-1), "temperature",
            "history")
    refused(lambda: ginsim.advise(HAND, drawn="QC", wait=7), "wait", "history")
    refused(lambda: ginsim.advise(HAND, drawn="QC", model="bogus"), "model", "history")
    refused(lambda: ginsim.advise(HAND, history=OFFER, pile="2D 3D"), "pile", "history")
    refused(lambda: ginsim.advise(HAND, history=OFFER, stock_left=5), "stock_left")
    refused(lambda: ginsim.advise(HAND, drawn="QC", rules="oklahoma"), "upcard sets")


def test_summarize_refuses_unknown_outcomes():
    hands = ginsim.simulate(hands=6, n_jobs=1, progress=False)
    assert ginsim.summarize(hands).n.iloc[0] == 6
    bad = hands.assign(outcome=pd.Categorical(["knock", "gin", "bogus", "dead", "knock",
                                               "gin"]))
    refused(lambda: ginsim.summarize(bad), "'bogus'", "knock")


@pytest.mark.parametrize("argv,words", [
    (["games", "--games", "3", "--rules", "modern:stock_floor=30"], "stock_floor at most"),
    (["games", "--games", "3", "--match-total", "100"], "--match-total"),
    (["games", "--games", "3", "--c", "bogus"], "--c"),
    (["games", "--games", "3", "--players", "3", "--d", "simple"], "--d"),
    (["deadwood", ""], "needs some cards"),
    (["advise", "--hand", HAND, "--drawn", "QC", "--temperature", "-1"], "--history"),
    (["advise", "--hand", HAND, "--drawn", "QC", "--wait", "7"], "--history"),
    (["advise", "--hand", HAND, "--drawn", "QC", "--model", "bogus"], "--history"),
    (["advise", "--hand", HAND, "--history", OFFER, "--pile", "2D"], "--pile"),
    (["advise", "--hand", HAND, "--history", OFFER, "--stock-left", "5"], "--stock-left"),
    (["simulate", "--hands", "100000", "--chunk-hands", "1", "--n-jobs", "100000"], "--n-jobs"),
    (["report", "--n-jobs", "5000"], "at most 1024 workers"),
    (["equilibrium", "--hands", str(10**18)], "hands"),
])
def test_cli_refuses_on_one_line(argv, words, capsys, tmp_path):
    from ginsim.cli import main

    if argv[0] == "equilibrium":
        argv = [*argv, "--out", str(tmp_path / "eq")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err


def test_cli_knock_chart_refuses_more_hands_than_its_bound(capsys, tmp_path):
    from ginsim.cli import main

    assert main(["knock-chart", "--hands", "1000000000000", "--out", str(tmp_path)]) == 2
    assert "10,000,000" in capsys.readouterr().err


# The advisor offers only the legal options of the position.
def test_no_knock_above_the_hands_knock_limit():
    from ginsim.simulator.branches.advisor import Position, legal_options

    position = Position(parse_cards(HAND + " 4D"), None, [], [], [], 20, 0)
    options, kept = legal_options(position, Rules(), knock_limit=3)
    assert not options[:, 1].any()  # the best keeps 4 (4D): no knock at limit 3
    options, kept = legal_options(position, Rules())
    assert set(kept[options[:, 1] == 1]) == {4, 10}


def test_oklahoma_upcard_three_lists_no_knock_at_four():
    history = "dealer:op up:3H me:pass op:pass me:stock"
    table = ginsim.advise(HAND, drawn="4D", history=history, rules="oklahoma", rollouts=20)
    assert not table.knock.any() and (table.deadwood == 4).any()


FLOOR_HISTORY = "dealer:op up:QS me:pass op:pass me:stock me:-KD op:stock op:-QH"
FLOOR_HAND = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"


def test_no_stock_draw_at_the_stock_floor():
    rules = Rules(stock_floor=29)
    assert parse_history(FLOOR_HISTORY, rules).stock_left == 29
    refused(lambda: ginsim.advise(FLOOR_HAND, history=FLOOR_HISTORY, rules=rules,
                                  rollouts=20), "hand is over")
    refused(lambda: parse_history(FLOOR_HISTORY + " me:+QH", rules), "hand is over")
    last = Rules(stock_floor=29, last_discard_rule=True)  # only the final discard
    table = ginsim.advise(FLOOR_HAND, history=FLOOR_HISTORY, rules=last, rollouts=20)
    assert table.action.tolist() == ["take"]  # QH, then knock discarding 4D (10 left)
    loose = "AS 3S 5S 7H 9D JC KH 2C 4H 6D"  # QH lets it knock with no discard
    refused(lambda: ginsim.advise(loose, history=FLOOR_HISTORY, rules=last, rollouts=20),
            "hand is over")


def test_game_summary_refuses_unknown_winners():
    games = pd.DataFrame({"winner": ["a", "b", "c"], "margin": [10, 20, 30],
                          "hands": [3, 4, 5], "shutout": [False, False, True]})
    refused(lambda: ginsim.game_summary(games), "'c'", "a and b")
    assert ginsim.game_summary(games.iloc[:2]).n.iloc[0] == 2


def test_drawn_from_applies_only_with_a_drawn_card():
    refused(lambda: ginsim.advise(HAND, pile="2D", drawn_from="pile"), "--drawn")
    history = "dealer:op up:3H me:pass op:pass me:stock"
    refused(lambda: ginsim.advise(HAND, drawn="4D", history=history, drawn_from="pile"),
            "drawn_from is pile", "without a pile take")


def test_report_from_a_store_refuses_study_options(capsys):
    from ginsim.cli import main

    for flag, value in (("--hands", "10"), ("--study", "all"), ("--seed", "3"),
                        ("--rules", "classic"), ("--n-jobs", "1")):
        assert main(["report", "--from", "no/such/store", flag, value]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and flag in err and "stored run" in err, err


# The command line: each subcommand with one option given a bad value, the others valid.
CLI_BASE = {
    "simulate": ["simulate", "--hands", "10", "--n-jobs", "1"],
    "games": ["games", "--games", "2"],
    "knock-chart": ["knock-chart", "--hands", "10"],
    "equilibrium": ["equilibrium", "--hands", "1000", "--iterations", "1", "--n-jobs", "1"],
    "advise": ["advise", "--hand", HAND, "--drawn", "QC", "--rollouts", "10"],
    "deadwood": ["deadwood"],
    "report": ["report", "--hands", "10", "--n-jobs", "1"],
}
CLI_BAD = {
    "simulate": {"--hands": ["0", "-1", "1.5", "x", "10000000000000"],
                 "--seed": ["-1", str(2**64), "x"], "--n-jobs": ["0", "5000", "x"],
                 "--chunk-hands": ["0", "x"], "--a": ["smart", "simple:t=5,t=6"],
                 "--rules": ["nope", "straight:oklahoma=true", "oklahoma:knock_limit=3"],
                 "--records": ["none"], "--backend": ["gpu"]},
    "games": {"--games": ["0", "x", "2000000"], "--players": ["5"], "--system": ["chicago"],
              "--match-total": ["100"], "--c": ["bogus"], "--d": ["simple"],
              "--rules": ["modern:stock_floor=30", "nope"]},
    "knock-chart": {"--hands": ["0", "20000000"], "--rules": ["straight", "mahjong"],
                    "--strategy": ["smart", "simple:t=1,t=2"]},
    "equilibrium": {"--hands": ["10", "20000000"], "--iterations": ["0", "x"],
                    "--base": ["mc", "smart"], "--rules": ["straight"], "--n-jobs": ["5000"]},
    "advise": {"--rollouts": ["1", "10000000"], "--temperature": ["-1", "nan", "0.5"],
               "--wait": ["7", "0.5"], "--model": ["memory2"], "--stock-left": ["-1", "40"],
               "--rules": ["mahjong", "oklahoma"], "--drawn": ["ZZ", "AS"], "--hand": ["AS"],
               "--drawn-from": ["deck"], "--opponent": ["mc", "smart"]},
    "deadwood": {"": ["", "ZZ", "AS AS", "   "]},
    "report": {"--hands": ["0"], "--n-jobs": ["5000"], "--study": ["x"], "--rules": ["nope"]},
}


@fuzz(60)
@given(case=st.sampled_from(sorted(CLI_BAD)).flatmap(
    lambda cmd: st.sampled_from(sorted(CLI_BAD[cmd])).flatmap(
        lambda opt: st.sampled_from(CLI_BAD[cmd][opt]).map(lambda v: (cmd, opt, v)))))
def test_cli_refuses_each_bad_option_on_one_line(case, capsys, tmp_path):
    from ginsim.cli import main

    command, option, value = case
    argv = [*CLI_BASE[command], *([option] if option else []), value]
    if command in ("knock-chart", "equilibrium", "report"):
        argv += ["--out", str(tmp_path / command)]
    assert main(argv) == 2, argv
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err


@fuzz(8)
@given(rules=st.sampled_from(["oklahoma", "tedesco", "modern:stock_floor=20"]),
       seed=st.integers(0, 10**6))
def test_the_advisor_lists_only_legal_options_of_played_positions(rules, seed):
    """Positions as played (their histories included): every knock the advisor lists is
    within the hand's knock limit (Oklahoma: the upcard's), and the draw offers the
    stock only above the floor."""
    from ginsim.simulator.belief.posterior import knock_limit_of

    rules = Rules.coerce(rules)
    table = ginsim.positions("simple", "simple", 2, seed=seed, rules=rules)
    for row in table.head(3).itertuples():
        limit = knock_limit_of(parse_history(row.history, rules), rules)
        options = ginsim.advise(row.cards, drawn=row.drawn, drawn_from=row.drawn_from,
                                history=row.history, rules=rules, rollouts=4, seed=seed)
        assert (options[options.knock].deadwood <= limit).all()
        before = " ".join(row.history.split()[:-1])  # up to my draw
        hist = parse_history(before, rules)
        if hist.to_move == 0 and not hist.drawn and not hist.first_turn:
            draw = ginsim.advise(row.cards, history=before, rules=rules, rollouts=4)
            assert ("stock" in set(draw.action)) == (hist.stock_left > rules.stock_floor)


def test_the_parameter_listing_states_every_bound(capsys):
    from ginsim.cli import main

    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    for p in PARAMETERS.values():
        assert f"[{p.listing}]" in out, p.name
