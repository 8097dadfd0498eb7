"""The knock study's answer: the equilibrium chart that answers for the rules (a file,
the shipped chart of the same hand rules, or one computed in the run), its values
measured against the study's opponents, and the answer's words (what the card shows,
what it is worth, for which card play its guarantee holds; the rules in words come from
:mod:`ginsim.game.rulebook.rules_in_words`).
"""

from __future__ import annotations

import dataclasses
import math
import sys
import time
from collections.abc import Sequence

import pandas as pd

from ...game.rng_nb import stream_seed
from ...game.rulebook.rules_in_words import rules_brief, rules_name, rules_words, upcard_words
from ...game.rules import Rules
from ...number_text import signed
from ...simulator.branches.best_response import with_chart
from ...strategies.presets import Strategy, parse_strategy
from .equilibrium import ANSWER_BASE, equilibrium, equilibrium_advice, result_advice
from .equilibrium_result import TARGET
from .knock_card import MEASURED_HERE, KnockAdvice, card_words, why_words, with_evidence
from .knock_chart import decisions_frame
from .sweeps import PairedRuns, strategy_matrix

ANSWER_LIMIT = 500  # characters of the report's answer
#: The fewest hands per pass at which a report computes an equilibrium in the run (the
#: shipped charts use 150,000; a best response on far fewer cannot test a chart).
MIN_ANSWER_HANDS = 100_000
WHY_HANDS = 50_000  # hands of the card's player against itself behind its why sentence


def knock_answer(advice: KnockAdvice | None, rules: Rules, reason: str = "") -> str:
    """The report's answer: at most three sentences and :data:`ANSWER_LIMIT` characters
    saying what every panel of the knock card shows, as ranges a player reads aloud
    (:func:`~ginsim.analysis.knock.knock_card.card_words`), the upcard's knock limit
    under Oklahoma-style rules, what the card is worth per hand against whom under which
    rules, and for which card play its guarantee holds; the rules' numbers and other
    detail give way, in :func:`_worth_variants`' order, where the plan needs the room.
    Without advice it says plainly that there is none and why."""
    if advice is None:
        return (f"No equilibrium knock chart answers {rules_words(rules)}: {reason} Make "
                f"one with `ginsim equilibrium --rules {rules.spec()} --out DIR` and pass "
                "it as `--chart DIR/equilibrium.json`.")
    plan = card_words(advice.card)
    lead = f"{plan[:1].upper()}{plan[1:]}." + (f" {upcard_words(rules)}" if rules.oklahoma
                                               else "")
    answer = lead
    for worth in _worth_variants(advice, rules):
        answer = f"{lead} {worth}"
        if len(answer) <= ANSWER_LIMIT:
            return answer
    return answer[:ANSWER_LIMIT - 1].rstrip() + "…"


def _worth_variants(advice: KnockAdvice, rules: Rules) -> list[str]:
    """The answer's last sentence, most detail first: what the card nets against the
    headline opponent (its interval and hands; the hands late to go) under the rules
    (with their numbers, then by name, then unnamed: the card's title has them), and its
    guarantee (in full, then short, at last only the card play it assumes)."""
    top = advice.headline
    mean, low, high = float(top["mean"]), float(top["low"]), float(top["high"])
    interval = (f"95% CI {signed(low)} to {signed(high)}" if math.isfinite(low) and
                math.isfinite(high) else "95% CI n/a: too few hands")
    recorded = "" if top["where"] == MEASURED_HERE else ", as recorded with the chart"
    if advice.exploits:
        caveats = (f"; it is a best response to the fixed `{advice.exploits}` bot, an "
                   "exploit of that bot, not advice against a player who adapts.",
                   f"; it exploits the fixed `{advice.exploits}` bot.")
    else:
        top_gain = max(advice.exploitability[2], 0) if advice.exploitability else None
        bound = (f"at most {top_gain:.2f} points per hand (95% bound)" if top_gain is not None
                 else "little")
        brief_bound = f"at most {top_gain:.2f}, 95% bound" if top_gain is not None else "little"
        caveats = (f"; it assumes `{advice.card_play}` card play for both players: one who "
                   f"adapts when to knock gains {bound} against it.",
                   f"; it assumes `{advice.card_play}` card play for both (one who adapts "
                   f"gains {brief_bound}).")
    counted = f", {2 * int(top['deals']):,} hands{recorded}"
    full, short = caveats
    least = short.split(" (")[0].rstrip(".") + "."  # the card play it assumes, no more
    brief, name = rules_brief(rules), rules_name(rules)
    return [f"{f'Under {rules_text} it' if rules_text else 'It'} nets {signed(mean)} {unit} "
            f"against `{top['opponent']}` ({interval}{hands}){caveat}"
            for rules_text, unit, hands, caveat in (
                (brief, "points per hand", counted, full),
                (brief, "points per hand", counted, short),
                (name, "points per hand", counted, full),
                (name, "points per hand", counted, short),
                (name, "points per hand", recorded, short), (name, "per hand", recorded, short),
                ("", "per hand", recorded, short), ("", "per hand", recorded, least))]


def resolve_advice(rules: Rules, hands: int, seed: int, chart: str | None = None,
                   n_jobs: int | None = None, progress: bool | None = None
                   ) -> tuple[KnockAdvice | None, str]:
    """The equilibrium advice for ``rules``: from ``chart`` (a file), the shipped chart
    made under the same hand rules, or one computed in this run (``hands`` per pass,
    :data:`ANSWER_BASE` card play, warm-started from its modern chart; a progress line and
    its cost on stderr). Returns (advice, "") or (None, why there is none). Below
    :data:`MIN_ANSWER_HANDS` nothing is computed: a best response trained on fewer hands
    cannot test the chart."""
    advice = equilibrium_advice(rules, chart)
    if advice is not None:
        return advice, ""
    if hands < MIN_ANSWER_HANDS:
        return None, (f"none is shipped for these rules, and at {hands:,} hands per pass a "
                      "best response has too little evidence to test one (the report "
                      f"computes one from --hands {MIN_ANSWER_HANDS:,} up).")
    t0 = time.perf_counter()
    if progress is not False:
        print(f"no shipped knock chart for {rules.spec()} rules: computing an equilibrium in "
              f"this run ({hands:,} hands per pass; about a minute per 100,000 hands on "
              "two cores) ...", file=sys.stderr, flush=True)
    result = equilibrium(rules=rules, base=ANSWER_BASE, hands=hands, seed=seed,
                         n_jobs=n_jobs or 2, start="equilibrium_expert",
                         progress=bool(progress))
    if progress is not False:
        print(f"equilibrium computed in {time.perf_counter() - t0:.0f} s: exploitability "
              f"{result.exploitability[0]:+.3f} (95% CI {result.exploitability[1]:+.3f} "
              f"to {result.exploitability[2]:+.3f})", file=sys.stderr, flush=True)
    if not result.measured:
        return None, (f"at {hands:,} hands per pass the best response could not move, so "
                      "its exploitability was not measured; give more --hands.")
    if not result.converged:
        return None, (f"the equilibrium computed at {hands:,} hands per pass did not reach "
                      f"an exploitability bound of {TARGET:.2f} points per hand (it stopped "
                      f"at {result.exploitability[2]:.2f}); give more --hands.")
    return result_advice(result), ""


def advice_player(advice: KnockAdvice) -> Strategy:
    """The strategy that plays ``advice``'s card: its ``player`` spec, else its card play
    knocking by its chart, handed over as data."""
    if advice.player is not None:
        return parse_strategy(advice.player)
    if advice.chart is None or advice.card_play is None:
        raise ValueError("knock advice names no player: give it a player spec, or its chart "
                         "and card play")
    return with_chart(advice.card_play, advice.chart)


def measure_advice(advice: KnockAdvice, opponents: Sequence[str | Strategy], deals: int,
                   seed: int, rules: Rules, n_jobs: int | None, progress: bool | None,
                   compare: Sequence[Strategy] = ()
                   ) -> tuple[KnockAdvice, pd.DataFrame, PairedRuns]:
    """``advice`` with its values against ``opponents`` measured on this run's duplicate
    deals (the same deals as the threshold sweep), its card with each cell's evidence
    (:func:`~ginsim.analysis.knock.knock_card.with_evidence`) and its why sentence, both
    from the decision points of its player against itself (on the ``answer why`` stream
    of :func:`~ginsim.game.rng_nb.stream_seed`). ``compare`` players (e.g. the same
    card play knocking at once) play the same deals in the same batch of jobs; the
    matrix and runs returned hold every player's rows, labelled ``(spec, opponent)``."""
    player = advice_player(advice)
    matrix, runs = strategy_matrix([player, *compare], opponents, deals, seed, rules,
                                   n_jobs=n_jobs, progress=progress)
    decisions = decisions_frame(player, player, min(2 * deals, WHY_HANDS),
                                stream_seed(seed, "answer why"), rules)
    own = matrix[matrix.strategy == player.spec]
    values = own.assign(deals=own.n // 2, where=MEASURED_HERE,
                        base=own.opponent != advice.card_play)
    # The headline is the card play both seats of the equilibrium share, when measured.
    values = values.sort_values("base", kind="stable")[["opponent", "mean", "low", "high",
                                                        "deals", "where"]]
    card = with_evidence(advice.card, decisions)
    why = why_words(card, decisions, rules.gin_bonus)
    return (dataclasses.replace(advice, card=card, values=values.reset_index(drop=True),
                                why=why), matrix, runs)
