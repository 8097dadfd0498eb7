"""Rules spec strings (``modern:undercut_on_tie=false,undercut_bonus=10``) everywhere a
preset name is accepted: the parser, its errors, the API, every CLI --rules, the
variants study."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginsim
from ginsim.analysis.studies import variants_study
from ginsim.cli import main
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import (
    CHOICE_FIELDS,
    INT_BOUNDS,
    Rules,
    parse_rules,
)


def test_spec_sets_the_named_fields_of_its_preset() -> None:
    assert Rules.coerce("modern:undercut_on_tie=false,undercut_bonus=10") == Rules(
        undercut_on_tie=False, undercut_bonus=10)
    assert Rules.coerce(" classic : knock_limit = 7 , layoff=melds_first ") == Rules(
        gin_bonus=20, undercut_bonus=10, box_bonus=20, shutout="double", knock_limit=7,
        layoff="melds_first")
    assert Rules.coerce("big_gin:big_gin_bonus=none") == Rules()
    assert Rules.coerce("modern:run_wrap=yes,oklahoma=on,aces_must_gin=0") == Rules(
        run_wrap=True, oklahoma=True, aces_must_gin=False)
    assert Rules.coerce("oklahoma:double_suits=sh").double_suits == "SH"
    assert Rules.coerce("oklahoma:") == Rules.preset("oklahoma")


@pytest.mark.parametrize("spec", ["big_gin:double_suits=SS", "oklahoma:double_suits=SHs"])
def test_a_suit_named_twice_is_refused(spec) -> None:
    """A repeated suit letter would store a value unlike the one played (hypothesis
    found 'SS' taken where oklahoma is off, as if it were the default 'S')."""
    with pytest.raises(ValueError, match="names each suit once"):
        Rules.coerce(spec)


def test_spec_names_presets_and_changed_fields() -> None:
    for name in RULES_PRESETS:
        assert Rules.preset(name).spec() == name
    assert Rules(knock_limit=8).spec() == "modern:knock_limit=8"
    assert Rules(undercut_on_tie=False, undercut_bonus=10).spec() == \
        "modern:undercut_bonus=10,undercut_on_tie=false"


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    values = {name: draw(st.integers(low, high)) for name, (low, high) in INT_BOUNDS.items()}
    values["big_gin_bonus"] = draw(st.none() | st.integers(0, 1000))
    values |= {name: draw(st.sampled_from(choices)) for name, choices in CHOICE_FIELDS.items()}
    values |= {name: draw(st.booleans()) for name in ("undercut_on_tie", "run_wrap",
                                                      "aces_must_gin", "last_discard_rule",
                                                      "oklahoma_boxes")}
    values["oklahoma"] = values["deal"] == "upcard" and draw(st.booleans())
    values["double_suits"] = "".join(draw(st.lists(st.sampled_from("SHDC"), unique=True,
                                                   max_size=4)))
    if values["oklahoma"]:  # the upcard sets the knock limit; the field stays at 10
        values["knock_limit"] = 10
    else:  # fields only Oklahoma reads keep their defaults without it
        values["aces_must_gin"], values["double_suits"] = True, "S"
    return Rules(**values)


@settings(max_examples=60, deadline=None)
@given(any_rules())
def test_every_rules_reads_back_from_its_spec(rules: Rules) -> None:
    assert parse_rules(rules.spec()) == rules


@pytest.mark.parametrize("spec,words", [
    ("modern:nope=1", ["unknown rules field 'nope'", "knock_limit", "oklahoma_boxes"]),
    ("modern:undercut_on_tie=maybe", ["'maybe'", "undercut_on_tie", "true or false"]),
    ("modern:layoff=greedy", ["'greedy'", "layoff", "optimal, melds_first"]),
    ("modern:knock_limit=ten", ["'ten'", "knock_limit", "0..100"]),
    ("modern:knock_limit=101", ["knock_limit", "0..100", "101"]),
    ("modern:big_gin_bonus=x", ["big_gin_bonus", "or none"]),
    ("modern:knock_limit", ["knock_limit", "field=value"]),
    ("modern:target=5,target=6", ["target", "twice"]),
    ("vegas:knock_limit=5", ["unknown rules preset 'vegas'", "modern, classic"]),
    ("oklahoma:deal=eleven", ["needs an upcard"]),
    ("", ["preset name"]),
])
def test_bad_specs_say_what_is_wrong(spec: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        Rules.coerce(spec)
    message = str(info.value)
    assert "\n" not in message and all(w in message for w in words), message


def test_api_takes_a_spec() -> None:
    # An unmelded ace costs 15 under the spec, 1 under modern: AS + KD is 25, not 11.
    assert ginsim.deadwood("AS KD", rules="modern:ace_value=15") == 25
    assert ginsim.deadwood("AS KD") == 11
    # Runs around the corner: Q-K-A melds, leaving only the 5.
    assert ginsim.deadwood("QS KS AS 5D", rules="modern:run_wrap=true") == 5


def test_cli_commands_take_a_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deadwood", "--rules", "modern:ace_value=15", "AS KD"]) == 0
    assert "deadwood: 25" in capsys.readouterr().out
    assert main(["simulate", "--hands", "40", "--rules",
                 "classic:undercut_on_tie=false"]) == 0
    assert "rules classic:undercut_on_tie=false" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["simulate", "--hands", "10"], ["deadwood", "AS 2S 3S"],
    ["report", "--study", "knock", "--hands", "10"], ["games", "--games", "2"],
    ["knock-chart", "--hands", "10"], ["equilibrium", "--hands", "10"],
    ["advise", "--hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD", "--pile", "4H"],
])
def test_every_rules_option_names_a_bad_field(argv: list[str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--rules", "modern:undercut_bonuss=10"]) == 2
    err = capsys.readouterr().err
    assert "unknown rules field 'undercut_bonuss'" in err and err.count("\n") == 1


def test_variants_study_plays_games_under_the_rules_given() -> None:
    spec = "modern:undercut_bonus=10,undercut_on_tie=false"
    result = variants_study(hands=200, seed=1, variants=("modern", "classic"), games=20,
                            rules=spec)
    assert result.rules == Rules(undercut_bonus=10, undercut_on_tie=False)
    assert set(result.tables["variant_comparison"].variant) == {"modern", "classic", spec}
    assert ("a game to 100 under modern rules with undercut bonus 10, undercut on tie false"
            in result.answer)
    assert spec in result.methods["rules"] and spec in result.methods["games"]
