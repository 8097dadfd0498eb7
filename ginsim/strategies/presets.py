"""Named strategies and the spec-string language ``preset[:key=value,...]``."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..game.inputs.specs import (
    SpecLanguage,
    brief,
    spec_fields,
    spec_values,
    split_spec,
    unknown_name,
)
from ..game.rules import Rules
from .charts.equilibria import hand_key, shipped_equilibrium
from .charts.knock_charts import CHART_FAMILIES, is_numbers, load_chart
from .charts.score_charts import ScoreChart, shipped_score_chart
from .learned.card_model import card_model_values
from .params import (
    GRID_CELLS,
    KIND_MC,
    MC_PARAMETERS,
    NESTED,
    P_BASE,
    P_GRID,
    PARAMETERS,
    RESPONSE_NAMES,
    Parameter,
    default_vector,
)

Value = tuple[float, ...]
SHARED = ("game",)  # mc parameters a plain strategy takes too (Strategy.score_chart_for)
MAX_SPEC_CHARS = 500  # a spec string is at most this long

#: the mc preset's own card play inside rollouts: the learned card play (fitted to mc's
#: own rollout values), which knocks by the equilibrium chart for expert card play under
#: the rules played (patient where the chart waits: a rollout that knocks at once is
#: undercut by patient opponents). With expert's card play there instead, mc made 0.46
#: [0.13, 0.78] points a hand less against simple on 8,000 duplicate deals
#: (docs/strength.md), and played about 13% faster. It is the linear model the learned
#: preset played before its quadratic one: with that one in its rollouts mc plays 1.2
#: times slower, for a gain not measured (docs/learned-play.md).
MC_ROLLOUT = "learned_linear"
#: the mc preset's own play in rollouts against each of its models but expert: the
#: rollout card play knocking by the chart that best answers that model
#: (scripts/make_responses.py)
MC_RESPONSES = ("response2=learned_linear:chart=expert_vs_simple,"
                "response3=learned_linear:chart=expert_vs_memory2,"
                "response4=learned_linear:chart=expert_vs_gin_waiter")
UNSET_RESPONSE = "rollout"  # a response given so plays as the rollout strategy
#: Parameters no spec may set: the mc player's cheating diagnostic (it hands the belief
#: the opponent's hidden cards), set only by :func:`ginsim.strategies.diagnostics.with_oracle`.
DIAGNOSTIC_PARAMETERS = ("oracle",)

#: name -> (one-line description, parameter overrides as spec text)
PRESETS: dict[str, tuple[str, str]] = {
    "simple": ("takes the pile card only to meld it, discards to minimum deadwood, knocks "
               "as soon as it may", ""),
    "random": ("uniformly random legal draws and discards, knocks whenever legal (tests)",
               "kind=random"),
    "memory1": ("simple plus memory of discards: keeps combinations with live outs over "
                "dead ones; in Mahjong gin holds its melds until the opponent has 3 cards",
                "memory=1,lay=3"),
    "memory2": ("memory1 plus the opponent's pickups and passes: safe discards, waits for "
                "gin when an undercut looks likely", "memory=2,outs=1,undercut=0.05,lay=3"),
    "gin_hunter": ("memory1 that waits for gin while the stock is deep, knocks late",
                   "memory=1,knock=0/0/5/10"),
    "early_knocker": ("takes any pile card that lowers deadwood, knocks at the first chance",
                      "draw=improve"),
    "chart": ("knocks by a chart learned against memory2: at 7-10 while 24+ cards are in "
              "the stock, otherwise only gin", "chart=1921/1/1/1"),
    "equilibrium": ("memory2 card play with the equilibrium knock chart of the rules played "
                    "(no opponent with the same card play gains by knocking differently; "
                    "modern's where none was made)",
                    "memory=2,outs=1,chart=equilibrium"),
    "asap": ("folk advice on memory2 card play: knock as soon as you may",
             "memory=2,outs=1,chart=always"),
    "knock5": ("folk advice on memory2 card play: knock only at deadwood 5 or less",
               "memory=2,outs=1,chart=five"),
    "gin_only": ("folk advice on memory2 card play: never knock, wait for gin",
                 "memory=2,outs=1,chart=gin_only"),
    "pile_wary": ("textbook advice on memory2 card play: knock as soon as you may unless the "
                  "opponent holds cards it took from the pile", "memory=2,outs=1,chart=pile_wary"),
    "expert": ("memory2's information weighed by the stage of the hand, the safety of each "
               "discard and what it could become; pile takes by exact deadwood gain; "
               "tuned by scripts/tune_strategy.py; knocks by the equilibrium chart for its "
               "own card play under the rules played (modern's where none was made)",
               "kind=expert,memory=2,outs=1.5,outs_late=0.125,danger=1,danger_late=1.5,"
               "safe=0.25,potential=0.1,outs_value=0.1,take_meld=3,take_any=20,"
               "chart=equilibrium_expert,lay=3"),
    "learned": ("draws and discards by a model learned from mc's rollout values "
                "(docs/learned-play.md) "
                "over features a player could name: deadwood, live outs, danger, safety, and "
                "their products, among the 7 discards keeping the least deadwood; "
                "knocks by the equilibrium chart for its own card play under the rules "
                "played",
                "kind=learned,memory=2,card_model=card_play,candidates=7,"
                "chart=equilibrium_learned,lay=3"),
    "learned_linear": ("the learned card play's earlier model, linear in the same features "
                       "and scoring every discard: weaker than learned, about twice as "
                       "fast; the mc preset's rollouts play it",
                       "kind=learned,memory=2,card_model=card_play_linear,"
                       "chart=equilibrium_expert,lay=3"),
    "mc": ("Monte Carlo: every choice by rollouts over guesses of the opponent's hand drawn "
           "from the table's history, the opponent a mixture of models (expert, simple, "
           "memory2, memory2:knock=0) weighed by its choices in the hand and the game's "
           "hands before; its own rollouts play the learned card play's linear model "
           "(learned_linear), knocking against "
           "simple, memory2 and the gin waiter by the chart that best answers each",
           "kind=mc,rollout=" + MC_ROLLOUT + "," + MC_RESPONSES + ",model=expert,model2=simple,"
           "model3=memory2,"
           "model4=memory2:knock=0,prior=1/1/1/1,stages=7,moves=3,margin=2"),
}

_ALIASES = {alias: p for p in PARAMETERS.values() for alias in (p.name, *p.aliases)}
#: The strategy spec language: parameters by name or alias (chart twice is two charts).
LANGUAGE = SpecLanguage("strategy", "parameter", "key=value",
                        {alias: p.name for alias, p in _ALIASES.items()},
                        twice={"chart": "two charts (chart= given twice)"},
                        listing="`ginsim strategies`")


@dataclass(frozen=True)
class Strategy:
    """A parsed strategy: its spec text, preset, and parameter overrides. ``diagnostic``
    admits :data:`DIAGNOSTIC_PARAMETERS` among the overrides (only
    :mod:`ginsim.strategies.diagnostics` sets it)."""

    spec: str
    preset: str
    overrides: dict[str, Value] = field(default_factory=dict)
    diagnostic: bool = False

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown strategy {brief(self.preset)}: choose one of "
                             f"{', '.join(PRESETS)}")
        if not self.diagnostic and isinstance(self.overrides, dict):
            for name in DIAGNOSTIC_PARAMETERS:
                if name in self.overrides:
                    refuse_diagnostic(name, self.spec)
        self._check_overrides()
        self._check_mc_parameters()

    def _check_overrides(self) -> None:
        """Each override a known parameter with a valid value; at most one knock chart."""
        if not isinstance(self.overrides, dict):
            raise ValueError(f"Strategy overrides must be a dict of parameter values, got "
                             f"{brief(self.overrides)}")
        for name, value in self.overrides.items():
            if name not in PARAMETERS:
                raise unknown_name(LANGUAGE, name, self.spec)
            PARAMETERS[name].check(_as_tuple(value), f"strategy {brief(self.spec)}")
        bits, grid = self.overrides.get("chart"), self.overrides.get("grid")
        if bits is not None and grid is not None and any(_as_tuple(bits)) and max(
                _as_tuple(grid)) >= 0:
            raise ValueError(f"two charts in strategy {brief(self.spec)}: give chart bits or "
                             f"a knock grid (a named chart), not both")

    def _check_mc_parameters(self) -> None:
        """``kind=mc`` only as the mc preset, which takes only :data:`MC_PARAMETERS`
        (and no other strategy takes those)."""
        merged = self.parameters()
        is_mc = merged.get("kind", (0,))[0] == KIND_MC
        if is_mc != (self.preset == "mc"):
            raise ValueError(f"kind=mc in strategy {brief(self.spec)}: the mc player is the "
                             f"mc preset (write mc:rollouts=64,...)")
        if is_mc:
            misplaced = [name for name in self.overrides if name not in MC_PARAMETERS]
            if misplaced:
                raise ValueError(f"{misplaced[0]} in strategy {brief(self.spec)}: mc takes "
                                 f"{', '.join(MC_PARAMETERS)} (card play goes in rollout=, "
                                 f"e.g. rollout=memory2:{misplaced[0]}=...)")
            return
        misplaced = [name for name in MC_PARAMETERS if name in merged and name not in SHARED]
        if misplaced:
            raise ValueError(f"{misplaced[0]} in strategy {brief(self.spec)} applies only to "
                             f"the mc strategy (write mc:{misplaced[0]}=...)")

    @property
    def is_mc(self) -> bool:
        """Whether this is the Monte Carlo player (the mc preset, checked above)."""
        return self.preset == "mc"

    @property
    def vector(self) -> np.ndarray:
        """The float64 parameter vector (defaults, then the preset, then the overrides):
        a fresh copy of the one built on first use (a named chart is read once)."""
        return self._vector.copy()

    @cached_property
    def _vector(self) -> np.ndarray:
        vec = default_vector()
        for name, value in self.parameters().items():
            p = PARAMETERS[name]
            vec[p.index:p.index + p.size] = value
        vec.setflags(write=False)
        return vec

    def vector_for(self, rules: Rules | None) -> np.ndarray:
        """:attr:`vector` for play under ``rules``: each knock chart named by its family
        (``equilibrium``, ``equilibrium_expert``, ``equilibrium_learned``: the preset's or
        given), the mc player's rollout and models included, becomes the shipped chart made
        under ``rules``' hand rules. Where none was made (custom rules), and without
        ``rules``, modern's stays. An mc response (``response``, ``response2``...) whose
        chart was made under other hand rules than those, where those have shipped charts
        of their own, is left out: the rollout strategy, which follows the rules, plays in
        its place."""
        vec = self.vector
        if rules is None:
            return vec
        for first, base in self._rules_charts:
            found = shipped_equilibrium(rules, base)
            if found is not None:
                vec[first + P_GRID:first + P_GRID + GRID_CELLS] = found[1].grid
        for name, stem in self._response_charts:
            if not _chart_fits(stem, rules):
                first = PARAMETERS[name].index
                vec[first:first + P_BASE] = 0.0
        return vec

    def score_chart_for(self, rules: Rules | None) -> ScoreChart | None:
        """The shipped score chart of ``rules``' hands and this strategy's chart family,
        which it knocks by in games when it plays for the game (``game=1``); else None."""
        base = next((base for first, base in self._rules_charts if first == 0), None)
        game = self.parameters().get("game", (1.0,))[0] and not self.is_mc
        found = shipped_score_chart(rules, base) if game and rules is not None and base else None
        return None if found is None else found[1]

    @cached_property
    def _nested_given(self) -> tuple[tuple[str, Strategy], ...]:
        """(name, strategy) of each plain strategy an mc player names (``rollout``, a
        model, a response), parsed once; responses left unset are left out."""
        out = []
        for name in NESTED if self.is_mc else ():
            text = self._given(name, (name,))
            if text is not None and text != UNSET_RESPONSE:
                out.append((name, parse_strategy(text.replace(";", ","))))
        return tuple(out)

    @cached_property
    def _response_charts(self) -> tuple[tuple[str, str | None], ...]:
        """(name, chart stem or None) of each mc response given, unset ones left out."""
        return tuple((name, nested._given("chart", ("chart", "grid")))
                     for name, nested in self._nested_given if name in RESPONSE_NAMES)

    @cached_property
    def _rules_charts(self) -> tuple[tuple[int, str], ...]:
        """(first slot, card play) of each parameter block whose chart follows the rules:
        named by a family, and still that family's modern chart in the vector (a chart
        set over it by an overrides dict, as ``with_chart`` does, is kept)."""
        stem = self._given("chart", ("chart", "grid"))
        out = [(0, CHART_FAMILIES[stem])] if stem in CHART_FAMILIES else []
        for name, nested in self._nested_given:
            out += [(PARAMETERS[name].index + first, base)
                    for first, base in nested._rules_charts]
        needed = {base for _, base in out}
        family_grids = {base: load_chart(stem).grid for stem, base in CHART_FAMILIES.items()
                        if base in needed}
        vec = self._vector
        return tuple((first, base) for first, base in out
                     if tuple(vec[first + P_GRID:first + P_GRID + GRID_CELLS])
                     == family_grids[base])

    def _given(self, name: str, set_by: tuple[str, ...]) -> str | None:
        """The text parameter ``name`` was given as, in the spec or else in the preset;
        None when it was not, or when an overrides dict set one of ``set_by`` without
        text."""
        given = spec_values(self.spec, LANGUAGE.names)[1]
        if name in given:
            return given[name]
        if any(key in self.overrides for key in set_by):
            return None
        return spec_values(f":{PRESETS[self.preset][1]}", LANGUAGE.names)[1].get(name)

    def parameters(self) -> dict[str, Value]:
        """Every parameter that differs from the defaults (preset and overrides)."""
        merged = dict(_parse_items(PRESETS[self.preset][1], self.preset))
        if "chart" in self.overrides and "grid" not in self.overrides:
            merged.pop("grid", None)  # a bit chart replaces the preset's named chart
        merged.update(self.overrides)
        return merged


def _as_tuple(value: object) -> tuple:
    """One parameter's override as a tuple of its slots (a lone number is one slot)."""
    return tuple(value) if isinstance(value, (tuple, list, np.ndarray)) else (value,)


def _parse_value(param: Parameter, text: str, spec: str) -> Value:
    parts = [t.strip() for t in text.split("/")]
    if param.choices:
        if len(parts) == 1 and parts[0] in param.choices:
            return (float(param.choices.index(parts[0])),)
        raise ValueError(f"bad value {brief(text)} for {param.name} in strategy {brief(spec)}: "
                         f"choose one of {', '.join(param.choices)}")
    kind = "whole number" if param.integer else "number"
    if len(parts) not in (1, param.size):
        raise ValueError(f"bad value {brief(text)} for {param.name} in strategy "
                         f"{brief(spec)}: give one {kind}" + (f" or {param.size} separated by '/'"
                                      if param.size > 1 else ""))
    values = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            raise ValueError(f"bad value {brief(text)} for {param.name} in strategy {brief(spec)}: "
                             f"expected a {kind}") from None
        if not param.low <= value <= param.high or (param.integer and value != int(value)):
            raise ValueError(f"bad value {brief(text)} for {param.name} in strategy {brief(spec)}: "
                             f"expected a {kind} in {param.low:g}..{param.high:g}")
        values.append(value)
    if len(values) == 1:
        values *= param.size
    return param.check(tuple(values), f"strategy {brief(spec)}")


def _parse_items(text: str, spec: str) -> dict[str, Value]:
    """The overrides of a spec's items (``text``), read by the shared item parser."""
    overrides: dict[str, Value] = {}
    for name, value in spec_fields(LANGUAGE, text, spec).items():
        if name in DIAGNOSTIC_PARAMETERS:
            refuse_diagnostic(name, spec)
        if name in NESTED:
            overrides[name] = _nested_vector(name, value, spec)
        elif name == "chart" and not is_numbers(value):
            overrides["grid"] = load_chart(value).grid
        elif name == "card_model" and not is_numbers(value):
            overrides[name] = card_model_values(value)
        else:
            overrides[name] = _parse_value(PARAMETERS[name], value, spec)
    return overrides


def refuse_diagnostic(name: str, spec: str) -> None:
    """The one-line refusal of a diagnostic parameter in strategy ``spec``."""
    raise ValueError(f"{name} in strategy {brief(spec)} is a diagnostic that shows the mc "
                     f"player the opponent's hidden cards; no strategy spec may set it "
                     f"(diagnostics use ginsim.strategies.diagnostics.with_oracle)")


def _chart_fits(stem: str | None, rules: Rules) -> bool:
    """Whether an mc response knocking by chart ``stem`` (None: the card play's own)
    plays under ``rules``: the chart is a family's, or was made under those hand rules,
    or the rules have no shipped chart of their own (custom rules play modern's charts)."""
    if stem is None or stem.removesuffix("_modern") in CHART_FAMILIES:
        return True
    fields = load_chart(stem).info.get("rules_fields")
    if not isinstance(fields, dict) or shipped_equilibrium(rules, "expert") is None:
        return True
    return hand_key(Rules(**fields)) == hand_key(rules)


def _nested_vector(name: str, text: str, spec: str) -> Value:
    """The plain strategy an mc player's ``rollout``, ``model`` or ``response`` names
    (its own parameters separated by ';'), as the policy kernel's vector; a response
    given as ``rollout`` is unset (all zeros: the rollout strategy plays)."""
    if name in RESPONSE_NAMES and text == UNSET_RESPONSE:
        return (0.0,) * P_BASE
    try:
        nested = parse_strategy(text.replace(";", ","))
    except ValueError as exc:
        raise ValueError(f"{name} in strategy {brief(spec)}: {exc}") from None
    if nested.preset == "mc":
        raise ValueError(f"{name} in strategy {brief(spec)} cannot be mc itself (rollouts are "
                         f"played by ordinary strategies)")
    return tuple(nested.vector[:P_BASE])


def parse_strategy(spec: str | Strategy) -> Strategy:
    """Parse ``preset[:key=value,...]`` (e.g. ``memory2:knock=10/8/5/3,draw=improve``).

    Raises ValueError naming the unknown preset, parameter or bad value.
    """
    if isinstance(spec, Strategy):
        return spec
    name, items, text = split_spec(spec, "strategy", "simple:t=6", MAX_SPEC_CHARS)
    if name not in PRESETS:
        raise ValueError(f"unknown strategy {brief(name)}: choose one of {', '.join(PRESETS)} "
                         f"(see `ginsim strategies`)")
    return Strategy(spec=text, preset=name, overrides=_parse_items(items, text))


def strategy_vector(spec: str | Strategy) -> np.ndarray:
    """The float64 parameter vector of a spec string."""
    return parse_strategy(spec).vector
