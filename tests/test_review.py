"""``ginsim review`` (docs/review.md): a recorded game reviewed end to end, the classes
and their thresholds, losses against the options' values, no hidden card reaching the
review, the JSON's keys, bad input, nothing written on failure, the page, and the error
rate ordering random above expert."""

from __future__ import annotations

import copy
import json
import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from transcripts import log_seat_b

from ginsim.analysis.review import (
    BLUNDER,
    CLASSES,
    INACCURACY,
    MISTAKE,
    classify,
    error_rate,
    review_game,
)
from ginsim.analysis.review.rating import rate_player
from ginsim.cli import main
from ginsim.reports.review_page import write_review_page
from ginsim.table.records.record_reader import read_record
from ginsim.table.referee import play_match

ROLLOUTS = 40  # small: the tests check structure and invariants, not values
RULES = "modern:target=60"  # short games


@lru_cache(maxsize=1)
def _record_lines() -> tuple[str, ...]:
    """One short game of expert (seat 0) against simple, as its record's lines."""
    records: list[list[dict]] = []
    play_match("expert", "simple", 1, RULES, 5, on_record=lambda g, lines: records.append(
        lines))
    return tuple(json.dumps(line) for line in records[0])


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(_record_lines()) + "\n")
    return path


@lru_cache(maxsize=1)
def _review_json() -> dict:
    return review_game(read_record(list(_record_lines())), 0, rollouts=ROLLOUTS,
                       seed=2, precision=None).to_json()


# --- classes ---------------------------------------------------------------------------
def test_thresholds_rise_and_each_class_starts_at_its_own() -> None:
    assert 0 < INACCURACY < MISTAKE < BLUNDER
    cases = [(0.0, True, "best"), (INACCURACY - 1e-9, False, "good"),
             (INACCURACY, False, "inaccuracy"), (MISTAKE - 1e-9, False, "inaccuracy"),
             (MISTAKE, False, "mistake"), (BLUNDER, False, "blunder"),
             (50.0, False, "blunder")]
    for loss, best, name in cases:
        assert classify(loss, best, inside_best=False) == name, loss
    # inside the best option's interval: never worse than an inaccuracy
    for loss in (MISTAKE, BLUNDER, 40.0):
        assert classify(loss, False, inside_best=True) == "inaccuracy"
    assert classify(0.2, False, inside_best=True) == "good"


def test_error_rate_is_the_mean_with_an_interval_around_it() -> None:
    rng = np.random.default_rng(1)
    losses = rng.exponential(1.0, 400)
    mean, low, high = error_rate(losses)
    assert mean == pytest.approx(losses.mean())
    half = 1.96 * losses.std(ddof=1) / np.sqrt(len(losses))
    assert low == pytest.approx(mean - half, rel=1e-3) and high == pytest.approx(mean + half,
                                                                                rel=1e-3)
    # clustered: decisions of one cluster move together, so the interval is wider
    clusters = np.repeat(np.arange(40), 10)
    together = np.repeat(rng.exponential(1.0, 40), 10)
    plain, clustered = error_rate(together), error_rate(together, clusters)
    assert clustered[2] - clustered[1] > 2 * (plain[2] - plain[1])


# --- a game reviewed ------------------------------------------------------------------
def test_a_recorded_game_is_reviewed_end_to_end(record_file: Path, tmp_path: Path,
                                                capsys) -> None:
    out = tmp_path / "out"
    code = main(["review", str(record_file), "--rollouts", str(ROLLOUTS), "--out", str(out),
                 "--quiet", "--precision", "0"])
    text, err = capsys.readouterr()
    assert code == 0, err
    assert "Error rate:" in text and "decisions reviewed" in text
    data = json.loads((out / "review.json").read_text())
    page = (out / "review.html").read_text()
    assert "<svg" in page and "<polyline" in page
    flagged = [d for d in data["decisions"] if d["class"] in ("inaccuracy", "mistake",
                                                               "blunder")]
    assert page.count("class='pos'") == len(flagged)
    # every move of seat 0 is weighed or skipped with its reason
    record = read_record(record_file)
    moves = sum(1 for h in record.hands for a in h.actions if a["seat"] == 0)
    assert data["summary"]["decisions"] + data["summary"]["skipped"] == moves


def test_the_json_keeps_the_shared_keys() -> None:
    data = _review_json()
    assert {"version", "seat", "seat_name", "rules", "decisions", "summary"} <= set(data)
    assert {"decisions", "mean_loss", "ci", "classes"} <= set(data["summary"])
    assert set(data["summary"]["classes"]) == set(CLASSES)
    assert data["decisions"], "a game has decisions"
    for k, d in enumerate(data["decisions"], 1):
        assert {"index", "hand", "kind", "chosen", "best", "loss", "game_loss", "class",
                "options", "position"} <= set(d)
        assert d["index"] == k and d["hand"] >= 1
        assert {"hand", "drawn", "pile_top", "stock_left", "score",
                "opponent_took"} <= set(d["position"])
        for o in d["options"]:
            assert {"move", "value", "ci", "game_win"} <= set(o)
            assert o["ci"][0] <= o["value"] <= o["ci"][1]
    json.dumps(data)  # JSON-able throughout


def test_losses_are_the_best_value_less_the_chosen_and_zero_for_the_best() -> None:
    data = _review_json()
    total = sum(sum(v.values()) for v in data["summary"]["classes"].values())
    assert total == data["summary"]["decisions"] == len(data["decisions"])
    for d in data["decisions"]:
        values = {o["move"]: o["value"] for o in d["options"]}
        assert d["best"] == d["options"][0]["move"]
        assert max(values.values()) == values[d["best"]]
        assert d["loss"] == pytest.approx(values[d["best"]] - values[d["chosen"]], abs=1e-3)
        assert d["loss"] >= 0
        if d["chosen"] == d["best"]:
            assert d["loss"] == 0 and d["class"] == "best"
        if values[d["chosen"]] >= d["options"][0]["ci"][0]:
            assert d["class"] not in ("mistake", "blunder")
    mean = np.mean([d["held_out_loss"] for d in data["decisions"]])
    assert data["summary"]["mean_loss"] == pytest.approx(mean, abs=1e-3)
    assert data["summary"]["ci"][0] <= data["summary"]["mean_loss"] <= data["summary"]["ci"][1]


def test_rollouts_are_spent_until_the_loss_of_the_move_is_known_to_the_precision() -> None:
    """With a precision, a decision is weighed in batches until the loss of the move
    made (against the best other option, paired in the same worlds) is known within it
    or the most rollouts are spent; a decision within it after the first batch spends
    no more. The half-interval is the chosen option's loss interval (the runner-up's
    where the move made is the best)."""
    review = review_game(read_record(list(_record_lines())), 0, rollouts=ROLLOUTS, seed=2,
                         precision=3.0, max_rollouts=4 * ROLLOUTS)
    assert any(d.rollouts > ROLLOUTS for d in review.decisions), "some spent more"
    for d in review.decisions:
        assert ROLLOUTS <= d.rollouts <= 4 * ROLLOUTS
        assert d.loss_half <= 3.0 or d.rollouts == 4 * ROLLOUTS
    first = review_game(read_record(list(_record_lines())), 0, rollouts=ROLLOUTS, seed=2,
                        precision=None)
    for d, f in zip(review.decisions, first.decisions, strict=True):
        if d.rollouts == ROLLOUTS:  # the first batch sufficed: the same table
            assert f.loss_half <= 3.0 and d.loss == f.loss
    for d in review.decisions:
        versus = d.options[d.chosen if d.chosen else 1]
        assert d.loss_half == pytest.approx((versus.loss_high - versus.loss_low) / 2)
    data = review.to_json()["summary"]
    assert data["within_precision"] == pytest.approx(
        np.mean([d.loss_half <= 3.0 for d in review.decisions]), abs=1e-4)


def test_a_loss_interval_is_narrower_than_the_values_it_compares() -> None:
    """The loss of an option against the best is the mean of a per-world difference: its
    interval is no wider than the two values' intervals side by side, and it holds the
    loss."""
    for d in _review_json()["decisions"]:
        best = d["options"][0]
        for o in d["options"][1:]:
            lo, hi = o["loss_ci"]
            loss = best["value"] - o["value"]
            assert lo - 1e-3 <= loss <= hi + 1e-3
            together = (best["ci"][1] - best["ci"][0] + o["ci"][1] - o["ci"][0]) / 2
            assert (hi - lo) / 2 <= together + 1e-6


def test_a_move_the_advisor_does_not_offer_is_refused_loudly() -> None:
    """A discard of a card not held (a record and the advisor disagreeing on the legal
    moves) stops the review with a line naming the hand, with or without a precision:
    never a decision quietly skipped."""
    import dataclasses

    from ginsim.analysis.review.evaluate import Budget, weigh
    from ginsim.analysis.review.seat_moves import seat_decisions
    from ginsim.strategies.presets import parse_strategy

    record = read_record(list(_record_lines()))
    move = next(d for d in seat_decisions(record, 0) if d.action == "discard"
                and d.drawn is not None)
    held = set(move.hand) | {move.drawn}
    wrong = dataclasses.replace(move, card=next(c for c in range(52) if c not in held))
    for precision in (3.0, None):
        with pytest.raises(ValueError, match="not one of the advisor's options"):
            weigh(wrong, record.rules, parse_strategy("simple"),
                  Budget(ROLLOUTS, precision, 4 * ROLLOUTS), 1)


def test_a_review_is_repeatable_from_its_seed() -> None:
    again = review_game(read_record(list(_record_lines())), 0, rollouts=ROLLOUTS, seed=2,
                        precision=None)
    assert again.to_json()["decisions"] == _review_json()["decisions"]


# --- no hidden card -------------------------------------------------------------------
def _public(data: dict) -> dict:
    return {"decisions": data["decisions"], "summary": data["summary"]}


def test_the_review_does_not_depend_on_the_other_seats_hidden_cards() -> None:
    """The other seat's dealt cards, the stock and its stock draws changed, (a record no
    longer playable, but the same in seat 0's view): the same review."""
    record = read_record(list(_record_lines()))
    spoiled = copy.deepcopy(record)
    rng = random.Random(4)
    for hand in spoiled.hands:
        hidden = list(hand.hands[1]) + list(hand.stock)
        rng.shuffle(hidden)
        hand.hands = (hand.hands[0], hidden[:10])
        hand.stock = hidden[10:]
        for action in hand.actions:
            if action["seat"] == 1 and action["action"] == "stock":
                action["card"] = rng.choice(["AS", "KD", None])
        hand.result = dict(hand.result or {}, hands=[[], []])
    first = review_game(record, 0, rollouts=ROLLOUTS, seed=3, model="simple", precision=3.0,
                        max_rollouts=200)
    second = review_game(spoiled, 0, rollouts=ROLLOUTS, seed=3, model="simple",
                         precision=3.0, max_rollouts=200)
    assert _public(first.to_json()) == _public(second.to_json())


def test_a_seats_transcript_reviews_as_the_whole_record_does(monkeypatch) -> None:
    """Seat b's protocol transcript (its view only) and the game's whole record: the
    same review of seat b."""
    lines = log_seat_b(monkeypatch)
    records: list[list[dict]] = []
    play_match("memory2", "simple", 1, RULES, 8, on_record=lambda g, x: records.append(x))
    whole = read_record([json.dumps(x) for x in records[0]])
    transcript = read_record(lines)
    assert transcript.seat == 1
    a = review_game(whole, 1, rollouts=ROLLOUTS, seed=5, model="memory2", precision=None)
    b = review_game(transcript, rollouts=ROLLOUTS, seed=5, model="memory2", precision=None)
    assert a.to_json()["decisions"] and _public(a.to_json()) == _public(b.to_json())
    other = str(transcript.seats[0].get("name"))  # the seat it does not see, by name
    with pytest.raises(ValueError, match="transcript holds seat 1's view only"):
        review_game(transcript, other, rollouts=ROLLOUTS)


# --- bad input ------------------------------------------------------------------------
def _spoiled(kind: str) -> list[str]:
    lines = [json.loads(x) for x in _record_lines()]
    if kind == "version":
        lines[0]["version"] = 99
    elif kind == "twice":
        lines[1]["hands"][1][0] = lines[1]["hands"][0][0]
    elif kind == "illegal":
        first = next(i for i, x in enumerate(lines) if x["type"] == "action")
        lines[first]["action"] = "knock"
        lines[first]["card"] = lines[1]["hands"][lines[first]["seat"]][0]
    text = [json.dumps(x) for x in lines]
    if kind == "truncated":
        text[3] = text[3][:25]
    return text


@pytest.mark.parametrize("kind, line, words", [
    ("version", 1, "version 99"), ("twice", 2, "dealt twice"),
    ("illegal", 3, "illegal move"), ("truncated", 4, "truncated")])
def test_a_bad_record_is_refused_in_one_line_and_nothing_is_written(
        kind, line, words, tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(_spoiled(kind)) + "\n")
    out = tmp_path / "out"
    code = main(["review", str(path), "--out", str(out), "--quiet"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"error: line {line}:"), err
    assert words in err and "Traceback" not in err
    assert not out.exists()


def test_a_review_that_fails_midway_writes_nothing(record_file: Path, tmp_path: Path,
                                                   monkeypatch, capsys) -> None:
    from ginsim.analysis.review import game_review

    calls = []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) > 3:
            raise ValueError("the advisor failed here")
        return "skipped in this test"

    monkeypatch.setattr(game_review, "weigh", failing)
    out = tmp_path / "existing"
    out.mkdir()
    code = main(["review", str(record_file), "--out", str(out), "--quiet"])
    assert code == 2 and "the advisor failed here" in capsys.readouterr().err
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("argv, words", [
    (["review"], "a RECORD or --strategy"),
    (["review", "x.jsonl", "--strategy", "simple"], "one of the two"),
    (["review", "x.jsonl", "--games", "3"], "--games is for rating"),
    (["review", "--strategy", "simple", "--out", "d"], "--out are for a record"),
    (["review", "missing.jsonl"], "cannot read record"),
])
def test_bad_options_exit_2_in_one_line(argv, words, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err


def test_a_seat_is_named_by_number_or_name(record_file: Path) -> None:
    with pytest.raises(ValueError, match="seats are 0 .a. and 1 .b."):
        review_game(record_file, "nobody", rollouts=ROLLOUTS)
    with pytest.raises(ValueError, match="a seat is 0, 1"):
        review_game(record_file, 2, rollouts=ROLLOUTS)
    with pytest.raises(ValueError, match="precision"):  # before any decision is weighed
        review_game(record_file, 0, rollouts=ROLLOUTS, precision=-1.0)


def test_the_page_is_written_whole_with_its_graph(tmp_path: Path) -> None:
    path = write_review_page(_review_json(), tmp_path / "page")
    text = path.read_text()
    assert path.name == "review.html" and text.endswith("</html>")
    assert text.count("<circle") == len(_review_json()["decisions"])


# --- rating ---------------------------------------------------------------------------
def test_random_loses_more_a_decision_than_expert() -> None:
    """Fixed seeds: random's error rate above expert's by more than twice the standard
    error of the difference (each from its interval, clustered by game)."""
    rates = {}
    for spec in ("random", "expert"):
        s = rate_player(spec, "expert", 2, 7, rules=RULES, rollouts=200,
                        precision=None).summary()
        rates[spec] = (s["mean_loss"], (s["ci"][1] - s["ci"][0]) / (2 * 1.96))
    (m_random, se_random), (m_expert, se_expert) = rates["random"], rates["expert"]
    assert m_random - m_expert > 2 * np.hypot(se_random, se_expert), rates


def test_rating_bands_rise_with_the_error_rate() -> None:
    from ginsim.analysis.review.rating import BANDS, band

    bounds = [b for b, _ in BANDS]
    assert bounds == sorted(bounds) and bounds[-1] == float("inf")
    names = [band(x) for x in np.linspace(0, 10, 101)]
    order = [name for _, name in BANDS]
    assert [order.index(n) for n in names] == sorted(order.index(n) for n in names)
    assert band(0.0) == order[0] and band(9.0) == order[-1]
