"""The Monte Carlo player as a strategy: helpers over the registered ``mc`` preset.

Spec: ``mc:rollouts=N,model=SPEC,rollout=SPEC,particles=N,temperature=T,stages=N,
wait=P,margin=Z,model2=SPEC,...,prior=A/B/C/D`` (parameters in
:mod:`ginsim.strategies.params`). ``model`` .. ``model4`` are how the opponent is
modelled (a mixture in the belief and the rollouts, weighted by ``prior``; the preset
mixes expert, simple, memory2 and memory2:knock=0), ``rollout`` how the mc player
plays on inside rollouts (the preset: expert); nested specs write their own parameters
with ``;`` instead of ``,`` (``model=memory2:knock=0``). The oracle is a diagnostic
that hands the belief the opponent's true cards (it cheats; it measures what imperfect
beliefs cost): no spec may set it, only ``ginsim.strategies.diagnostics.with_oracle``.
An mc seat plays wherever a strategy does: the hand loop dispatches its
hands to :mod:`ginsim.simulator.search.mc_nb`.
"""

from __future__ import annotations

import numpy as np

from ginsim.game.rules import Rules
from ginsim.simulator.play.engine import play_records
from ginsim.strategies.presets import Strategy, parse_strategy


def play_mc_records(mc: str | Strategy, opponent: str | Strategy, hands: int, seed: int = 0,
                    rules: Rules | str | None = None, duplicate: bool = True,
                    start: int = 0) -> np.ndarray:
    """Hands ``start .. start+hands-1`` with ``mc`` in seat a, dealt as
    :func:`ginsim.simulate` deals them (with ``duplicate`` each odd hand replays the
    even hand's deal with the dealer swapped, so seat a plays both sides' cards)."""
    if not parse_strategy(mc).is_mc:
        raise ValueError(f"not an mc player: {parse_strategy(mc).spec!r} (write "
                         f"mc:rollouts=64,...)")
    records, _ = play_records(mc, opponent, start=start, stop=start + hands, seed=seed,
                              rules=rules, duplicate=duplicate)
    return records


def seat_a_net(records: np.ndarray) -> np.ndarray:
    """Seat a's net points per hand."""
    return records["points_a"].astype(np.int64) - records["points_b"]
