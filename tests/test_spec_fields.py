"""One ``key=value`` item parser (issue 40): gin strategies, gin rules, Rami rules and
Rami strategies read their items through :func:`ginsim.game.inputs.specs.spec_fields`,
so the same mistake is refused in the same words by each."""

from __future__ import annotations

import pytest

from ginsim.game.inputs.specs import SpecLanguage, spec_fields
from ginsim.game.rules import Rules
from ginsim.rami.game.rules import parse_rami_rules
from ginsim.rami.play.strategy import parse_rami_strategy
from ginsim.strategies.presets import parse_strategy

LANGUAGE = SpecLanguage("thing", "thing key", "key=value", {"a": "a", "alpha": "a", "b": "b"},
                        blank_ok=("b",))

#: (parser, a preset, a known key and a good value) per spec language
PARSERS = [
    (parse_strategy, "simple", "knock", "5"),
    (Rules.coerce, "modern", "knock_limit", "8"),
    (parse_rami_rules, "rami", "jokers", "2"),
    (parse_rami_strategy, "careful", "open_at", "60"),
]


def test_items_come_back_by_name_in_order():
    assert spec_fields(LANGUAGE, " alpha = 1 ,b=", "x:alpha=1,b=") == {"a": "1", "b": ""}
    assert spec_fields(LANGUAGE, "", "x") == {}


@pytest.mark.parametrize("items,words", [
    ("a", "bad item 'a' in thing 'x': write key=value"),
    ("a=", "bad item 'a=' in thing 'x': write key=value"),
    ("c=1", "unknown thing key 'c' in thing 'x': keys are a, b"),
    ("a=1,a=2", "thing key a given twice in thing 'x'"),
    ("a=1,alpha=2", "thing key a given twice (as a and alpha) in thing 'x'"),
])
def test_bad_items_are_worded_on_one_line(items, words):
    with pytest.raises(ValueError) as info:
        spec_fields(LANGUAGE, items, "x")
    assert str(info.value) == words


@pytest.mark.parametrize("parse,preset,key,value", PARSERS)
def test_every_spec_language_refuses_alike(parse, preset, key, value):
    parse(f"{preset}:{key}={value}")  # the good item reads
    for items, words in ((key, "bad item"), (f"nosuch={value}", "unknown"),
                         (f"{key}={value},{key}={value}", f"{key} given twice")):
        with pytest.raises(ValueError) as info:
            parse(f"{preset}:{items}")
        message = str(info.value)
        assert words in message and "\n" not in message, message


def test_an_unknown_name_is_one_error_whether_spelled_in_a_spec_or_passed_as_a_keyword():
    """A typo in a spec and the same typo in an overrides dict (or ``Rules.with_``) are
    refused in the same words, which say what the name could have been."""
    from ginsim.rami.game.rules import RamiRules
    from ginsim.strategies.presets import Strategy

    cases = [
        (lambda: parse_strategy("simple:knok=5"), lambda: Strategy("simple:knok=5", "simple",
                                                                    {"knok": 5})),
        (lambda: Rules.coerce("modern:gin_bonuss=3"), lambda: Rules().with_(gin_bonuss=3)),
        (lambda: parse_rami_rules("rami:jokerz=2"), lambda: RamiRules().with_(jokerz=2)),
    ]
    for in_spec, as_keyword in cases:
        with pytest.raises(ValueError) as spelled:
            in_spec()
        with pytest.raises(ValueError) as passed:
            as_keyword()
        first, second = str(spelled.value), str(passed.value)
        assert first.startswith("unknown ") and second.startswith(first.split(" in ")[0])
        assert first.split(": ", 1)[1] == second.split(": ", 1)[1]  # the same suggestion


def test_a_checked_spec_is_read_again_by_one_function():
    from ginsim.game.inputs.specs import spec_values

    assert spec_values("simple:k=5, t = 6,k=7,blank=") == ("simple", {"k": "7", "t": "6"})
    assert spec_values("modern") == ("modern", {})
    assert spec_values("x:a=1,alpha=2,zz=3", {"a": "a", "alpha": "a"}) == ("x", {"a": "2"})
