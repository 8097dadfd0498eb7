"""The answer is the card (issue 62, item 2): the sentence the report opens with is
parsed back, by a reader written here from the words alone, into the cells it says to
knock in, and compared with the knock card cell by cell, for every shipped chart file
and for the answer under every knocking preset that ships one. The rule
(docs/knock-answers.md): the answer names every KNOCK cell and no other; either cells
are left out with the wait cells ("else wait": waiting there is as sound as knocking),
and the card's note says so."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ginsim.strategies
from ginsim.analysis.knock.equilibrium import equilibrium_advice
from ginsim.analysis.knock.knock_answer import knock_answer
from ginsim.analysis.knock.knock_card import card_words, knock_card
from ginsim.game.rulebook.rules_presets import RULES_PRESETS
from ginsim.game.rules import Rules

CHART_FILES = sorted((Path(ginsim.strategies.__file__).parent / "chart_data").glob("*.json"))
STOCKS = ["28-31", "24-27", "20-23", "16-19", "12-15", "8-11", "4-7", "0-3"]
PANELS = ("0", "1", "2+")
LEADS = {"no pile card taken: ": "0", "one taken: ": "1", "two or more: ": "2+"}

ONE = r"\d+(?: to \d+)?"
MANY = rf"{ONE}(?:(?:, | and ){ONE})*"
STOCK = r"\d+ or more|\d+ or fewer|\d+ to \d+"
FIRST = re.compile(rf"(?:knock with )?(?P<dw>{MANY})(?: deadwood)?"
                   rf"(?:(?: and (?P<s1>{STOCK}) cards left)|(?: at (?P<s2>{STOCK}) left))?"
                   rf"(?P<rest>(?:, (?:{MANY}) at (?:{STOCK}))*)")
LATER = re.compile(rf", (?P<dw>{MANY}) at (?P<s>{STOCK})")


def deadwood_said(text: str) -> set[int]:
    """ "1 to 3, 5 and 8" -> {1, 2, 3, 5, 8}."""
    out: set[int] = set()
    for item in re.split(r", | and ", text):
        low, _, high = item.partition(" to ")
        out |= set(range(int(low), int(high or low) + 1))
    return out


def stocks_said(text: str | None) -> list[str]:
    """The card's stock ranges a phrase covers ("28 or more", "12 to 27"); every range
    when there is none. A phrase that splits a range fails."""
    if text is None:
        return list(STOCKS)
    if text.endswith(" or more"):
        low, high = int(text.split()[0]), 31
    elif text.endswith(" or fewer"):
        low, high = 0, int(text.split()[0])
    else:
        low, high = (int(v) for v in text.split(" to "))
    inside = [s for s in STOCKS if low <= int(s.split("-")[0]) <= high]
    assert inside and {int(inside[0].split("-")[1]), int(inside[-1].split("-")[0])} == {
        high, low}, f"{text!r} is not a union of the card's stock ranges"
    return inside


def panel_said(text: str) -> dict[str, set[int]]:
    """One panel's words -> {stock range: deadwood said to knock}."""
    said = {s: set() for s in STOCKS}
    if text == "wait for gin":
        return said
    found = FIRST.fullmatch(text)
    assert found, f"cannot read {text!r}"
    runs = [(found["dw"], found["s1"] or found["s2"])]
    runs += [(m["dw"], m["s"]) for m in LATER.finditer(found["rest"])]
    assert "".join(m.group(0) for m in LATER.finditer(found["rest"])) == found["rest"]
    for dw, stock in runs:
        for s in stocks_said(stock):
            assert not said[s], f"{s} said twice in {text!r}"
            said[s] = deadwood_said(dw)
    return said


def sentence_said(words: str) -> tuple[dict[tuple[str, str], set[int]], bool]:
    """A card's words -> ({(panel, stock): deadwood to knock}, says "else wait")."""
    waits = words.endswith("; else wait")
    words = words.removesuffix("; else wait")
    words = words[:1].lower() + words[1:]
    if any(words.startswith(lead) for lead in LEADS):
        parts = words.split("; ")
        assert [p[:len(lead)] for p, lead in zip(parts, LEADS, strict=True)] == list(LEADS)
        texts = {LEADS[lead]: p[len(lead):] for p, lead in zip(parts, LEADS, strict=True)}
    else:
        texts = dict.fromkeys(PANELS, words)
    said = {(t, s): dw for t in PANELS for s, dw in panel_said(texts[t]).items()}
    return said, waits


def compare(words: str, actions: dict[tuple[str, int, str], str]) -> int:
    """Check ``words`` against a card's actions {(panel, deadwood, stock): action} cell by
    cell; returns the cells compared."""
    said, waits = sentence_said(words)
    for (panel, deadwood, stock), action in actions.items():
        assert (deadwood in said[(panel, stock)]) == (action == "KNOCK"), (
            panel, deadwood, stock, action, words)
    assert max(d for _, d, _ in actions) >= max((max(v) for v in said.values() if v),
                                                default=0)
    assert waits == any(a != "KNOCK" for a in actions.values()), words
    return len(actions)


def file_actions(path: Path) -> dict[tuple[str, int, str], str]:
    """A chart file's cells read straight from its JSON: KNOCK at p >= 0.75, wait at
    p <= 0.25, either between (the card's thresholds, stated in the report's legend)."""
    p = np.array(json.loads(path.read_text())["p_knock"], dtype=float)  # stock, dw, taken
    return {(PANELS[t], d + 1, STOCKS[b]): ("KNOCK" if p[b, d, t] >= 0.75 else
                                             "wait" if p[b, d, t] <= 0.25 else "either")
            for b in range(p.shape[0]) for d in range(p.shape[1]) for t in range(p.shape[2])}


def card_actions(card: pd.DataFrame) -> dict[tuple[str, int, str], str]:
    return {(str(r.opp_taken), int(r.deadwood), str(r.stock)): r.action
            for r in card.itertuples()}


def test_the_reader_reads_a_worked_example():
    """The reader itself, on words typed by hand."""
    said, waits = sentence_said(
        "no pile card taken: knock with 1 to 3, 5 and 8 deadwood and 28 or more cards "
        "left, 6 at 12 to 27; one taken: 7 and 9 at 3 or fewer left; two or more: wait "
        "for gin; else wait")
    assert said[("0", "28-31")] == {1, 2, 3, 5, 8} and said[("0", "24-27")] == {6}
    assert said[("0", "12-15")] == {6} and said[("0", "8-11")] == set()
    assert said[("1", "0-3")] == {7, 9} and said[("1", "4-7")] == set()
    assert all(not said[("2+", s)] for s in STOCKS) and waits
    said, waits = sentence_said("knock with 4 to 10 deadwood; else wait")
    assert all(said[(t, s)] == set(range(4, 11)) for t in PANELS for s in STOCKS) and waits
    with pytest.raises(AssertionError):
        stocks_said("26 or more")  # splits 24-27


@pytest.mark.parametrize("path", CHART_FILES, ids=lambda p: p.stem)
def test_every_shipped_chart_says_its_card(path):
    """Every chart file under ginsim/strategies/chart_data: its card's words, read back,
    knock in exactly the cells where the file's probability is at least 0.75."""
    from ginsim.strategies.charts.knock_charts import load_chart

    actions = file_actions(path)
    card = knock_card(load_chart(path.stem).p.transpose(1, 0, 2))
    assert card_actions(card) == actions
    assert compare(card_words(card), actions) == 240


def _knocking_presets() -> list[str]:
    return [name for name in RULES_PRESETS if Rules.preset(name).knocks
            and equilibrium_advice(name) is not None]


def test_every_knocking_preset_but_eaai_ships_a_card():
    """eaai (the EAAI referee) is the one knocking preset without a shipped chart: its
    report computes one in the run (docs/knock-answers.md)."""
    knocking = {name for name in RULES_PRESETS if Rules.preset(name).knocks}
    assert knocking - set(_knocking_presets()) == {"eaai"}


@pytest.mark.parametrize("preset", _knocking_presets())
def test_every_preset_answer_says_its_card(preset):
    """The report's whole answer under each knocking preset: its first sentence, read
    back, knocks in exactly the KNOCK cells of the card under it, in the chart file the
    answer names."""
    rules = Rules.preset(preset)
    advice = equilibrium_advice(rules)
    usual = pd.DataFrame([{"opponent": "simple", "mean": 4.14, "low": 4.02, "high": 4.26,
                           "deals": 100_000, "where": "measured in this run"}])
    answer = knock_answer(dataclasses.replace(advice, values=usual), rules)
    plan = answer.split(". ")[0]
    name = advice.player.split("chart=")[1]
    path = next(p for p in CHART_FILES if p.stem == name)
    assert compare(plan, file_actions(path)) == 240
    assert card_actions(advice.card) == file_actions(path)
