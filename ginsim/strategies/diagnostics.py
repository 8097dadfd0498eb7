"""Diagnostics that no strategy spec may reach: the mc player's ``oracle``, which hands
its belief the opponent's true cards (it cheats, to measure what imperfect beliefs cost;
scripts/mc_strength.py and the tests use it)."""

from __future__ import annotations

from .presets import Strategy, parse_strategy


def with_oracle(mc: str | Strategy) -> Strategy:
    """The mc player ``mc`` with the oracle belief (``oracle=1``): a diagnostic Strategy
    object; its spec text says so but is refused if parsed again, so it is never stored
    as a run to resume."""
    parsed = parse_strategy(mc)
    if not parsed.is_mc:
        raise ValueError(f"the oracle diagnostic is for the mc player, not "
                         f"{parsed.spec!r} (write mc:rollouts=64,...)")
    overrides = {**parsed.overrides, "oracle": (1.0,)}
    return Strategy(f"{parsed.spec},oracle=1" if ":" in parsed.spec else f"{parsed.spec}:oracle=1",
                    parsed.preset, overrides, diagnostic=True)
