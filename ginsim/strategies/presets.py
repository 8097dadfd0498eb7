"""Named strategies and the spec-string language ``preset[:key=value,...]``."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .params import PARAMETERS, Parameter, default_vector

#: name -> (one-line description, parameter overrides)
PRESETS: dict[str, tuple[str, dict[str, float]]] = {
    "simple": ("takes the pile card only to meld it, discards to minimum deadwood, "
               "knocks as soon as it may", {}),
    "random": ("uniformly random legal draws and discards, knocks whenever legal (tests)",
               {"kind": 1}),
}

_ALIASES = {alias: p for p in PARAMETERS.values() for alias in (p.name, *p.aliases)}


@dataclass(frozen=True)
class Strategy:
    """A parsed strategy: its canonical spec text and its parameter vector."""

    spec: str
    preset: str
    overrides: dict[str, float] = field(default_factory=dict)

    @property
    def vector(self) -> np.ndarray:
        vec = default_vector()
        for name, value in {**PRESETS[self.preset][1], **self.overrides}.items():
            vec[PARAMETERS[name].index] = value
        return vec


def _parse_value(param: Parameter, text: str, spec: str) -> float:
    if param.choices:
        if text in param.choices:
            return float(param.choices.index(text))
        raise ValueError(f"bad value {text!r} for {param.name} in strategy {spec!r}: "
                         f"choose one of {', '.join(param.choices)}")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"bad value {text!r} for {param.name} in strategy {spec!r}: "
                         f"expected a number") from None
    if not param.low <= value <= param.high or value != int(value):
        raise ValueError(f"bad value {text!r} for {param.name} in strategy {spec!r}: "
                         f"expected a whole number in {param.low:g}..{param.high:g}")
    return value


def parse_strategy(spec: str | Strategy) -> Strategy:
    """Parse ``preset[:key=value,...]`` (e.g. ``simple:t=6``); ValueError says what is wrong."""
    if isinstance(spec, Strategy):
        return spec
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a strategy is a spec string like 'simple' or 'simple:t=6', "
                         f"got {spec!r}")
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip()
    if name not in PRESETS:
        raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join(PRESETS)} "
                         f"(see `ginsim strategies`)")
    overrides: dict[str, float] = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not value.strip():
            raise ValueError(f"bad parameter {item!r} in strategy {spec!r}: write key=value")
        if key not in _ALIASES:
            raise ValueError(f"unknown parameter {key!r} in strategy {spec!r}: "
                             f"parameters are {', '.join(PARAMETERS)}")
        param = _ALIASES[key]
        overrides[param.name] = _parse_value(param, value.strip(), spec)
    return Strategy(spec=text, preset=name, overrides=overrides)


def strategy_vector(spec: str | Strategy) -> np.ndarray:
    """The float64 parameter vector of a spec string."""
    return parse_strategy(spec).vector
