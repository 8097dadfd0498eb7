"""The Monte Carlo player's spec and drivers (numpy layer over :mod:`mc_nb`).

Spec: ``mc:rollouts=N,model=SPEC,rollout=SPEC,particles=N,temperature=T,stages=N``.
``model`` is how the opponent is modelled (belief and rollouts, default ``memory2``),
``rollout`` how the mc player plays on inside rollouts (default ``memory2``). Nested
specs write their own parameters with ``;`` instead of ``,`` (``model=memory2:knock=0``,
``rollout=memory2:knock=8;undercut=1``). The mc player cannot be its own rollout
strategy or model. ``particles`` and ``stages`` size the belief (tempered SMC, see
:mod:`belief_nb`); ``oracle=1`` is a diagnostic that hands the belief the opponent's
true cards (it cheats; it measures what imperfect beliefs cost).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.rules import Rules, brief
from ..game.tables import card_tables
from ..strategies.params import P_SIZE
from ..strategies.presets import parse_strategy
from .belief_nb import TEMPERATURE
from .hand_nb import SCRATCH_SIZE
from .limits import check_hands, check_seed
from .mc_nb import MAX_EVENTS, mc_hands_nb
from .records import RECORD_DTYPE, TRACE_WIDTH

MAX_ROLLOUTS = 4096


@dataclass(frozen=True)
class McSpec:
    """A parsed mc player."""

    spec: str
    rollouts: int = 64
    model: str = "memory2"
    rollout: str = "memory2"
    particles: int = 256  # 64 particles / 4 stages: 54 hands/s but -2 points a hand vs memory2
    temperature: float = TEMPERATURE
    stages: int = 12
    oracle: bool = False  # diagnostic only: the belief replaced by the true hand


def is_mc(spec: object) -> bool:
    return isinstance(spec, McSpec) or (isinstance(spec, str) and
                                         spec.strip().partition(":")[0].strip() == "mc")


def parse_mc(spec: str | McSpec) -> McSpec:
    """Parse an ``mc:...`` spec; ValueError names the bad item."""
    if isinstance(spec, McSpec):
        return spec
    if not is_mc(spec):
        raise ValueError(f"not an mc spec: {brief(spec)} (write mc:rollouts=64,...)")
    text = spec.strip()
    values: dict[str, object] = {}
    for item in filter(None, (s.strip() for s in text.partition(":")[2].split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not value:
            raise ValueError(f"bad parameter {brief(item)} in {brief(text)}: write key=value")
        if key in ("rollouts", "particles", "stages"):
            try:
                number = int(value)
            except ValueError:
                raise ValueError(f"bad value {brief(value)} for {key} in {brief(text)}: "
                                 f"expected a whole number") from None
            top = 64 if key == "stages" else MAX_ROLLOUTS
            if not 1 <= number <= top:
                raise ValueError(f"bad value {number} for {key} in {brief(text)}: expected "
                                 f"1..{top}")
            values[key] = number
        elif key == "temperature":
            try:
                number = float(value)
            except ValueError:
                number = -1.0
            if not 0 < number <= 100:
                raise ValueError(f"bad value {brief(value)} for temperature in {brief(text)}: "
                                 f"expected a number in (0, 100]")
            values[key] = number
        elif key == "oracle":
            if value not in ("0", "1"):
                raise ValueError(f"bad value {brief(value)} for oracle in {brief(text)}: 0 or 1")
            values[key] = value == "1"
        elif key in ("model", "rollout"):
            nested = value.replace(";", ",")
            if is_mc(nested):
                raise ValueError(f"{key} in {brief(text)} cannot be mc itself (rollouts are "
                                 f"played by ordinary strategies)")
            parse_strategy(nested)
            values[key] = nested
        else:
            raise ValueError(f"unknown parameter {brief(key)} in {brief(text)}: mc takes "
                             f"rollouts, model, rollout, particles, temperature, stages")
    return McSpec(spec=text, **values)  # type: ignore[arg-type]


def _rows(first: str, second: str) -> np.ndarray:
    return np.stack([parse_strategy(first).vector, parse_strategy(second).vector])


class McPlayer:
    """An mc player against one opponent: the parameter rows and scratch arrays, made
    once and reused for every batch of hands."""

    def __init__(self, mc: str | McSpec, opponent: str, rules: Rules | str | None = None,
                 seed: int = 0) -> None:
        self.spec = parse_mc(mc)
        if is_mc(opponent):
            raise ValueError("only one seat can be the mc player")
        self.seed = np.uint64(check_seed(seed))
        self.rules = Rules.coerce(rules)
        spec = self.spec
        self.params = np.zeros((2, 2, P_SIZE))
        self.pairs = np.zeros((2, 2, P_SIZE))
        self.models = np.zeros((2, 2, P_SIZE))
        for s in range(2):
            self.params[s] = _rows(*((spec.rollout, opponent) if s == 0 else
                                     (opponent, spec.rollout)))
            self.pairs[s] = _rows(*((spec.rollout, spec.model) if s == 0 else
                                    (spec.model, spec.rollout)))
            self.models[s] = _rows(spec.rollout, spec.model)  # belief: row 1 is the opponent
        n = spec.particles
        self.scratch = (
            np.zeros(SCRATCH_SIZE, dtype=np.int64), np.zeros(3, dtype=np.uint64),
            np.zeros((MAX_EVENTS, 4), dtype=np.int64), np.zeros((4, TRACE_WIDTH), dtype=np.int64),
            np.zeros(2 * n + 5 * MAX_EVENTS + 104, dtype=np.int64),
            np.zeros(6 * n, dtype=np.float64), np.zeros(SCRATCH_SIZE, dtype=np.int64),
            np.zeros(3, dtype=np.uint64), np.zeros(SCRATCH_SIZE, dtype=np.int64),
            np.zeros((0, TRACE_WIDTH), dtype=np.int64))

    def play(self, deals: np.ndarray, dealers: np.ndarray, mc_seats: np.ndarray) -> np.ndarray:
        """Records (:data:`RECORD_DTYPE`) of one hand per deal index."""
        deals = np.ascontiguousarray(deals, dtype=np.int64)
        out = np.zeros(len(deals), dtype=RECORD_DTYPE)
        mc_hands_nb(self.seed, deals, np.ascontiguousarray(dealers, dtype=np.int64),
                    np.ascontiguousarray(mc_seats, dtype=np.int64), self.params, self.pairs,
                    self.models, self.rules.packed(), card_tables(self.rules),
                    self.spec.rollouts,
                    -float(self.spec.temperature) if self.spec.oracle else
                    float(self.spec.temperature), self.spec.stages, out,
                    *self.scratch)
        return out


def play_mc_records(mc: str | McSpec, opponent: str, hands: int, seed: int = 0,
                    rules: Rules | str | None = None, duplicate: bool = True,
                    start: int = 0) -> np.ndarray:
    """Hands ``start .. start+hands-1`` dealt as :func:`ginsim.simulate` deals them, the
    mc player in seat a: seat a deals even deals; with ``duplicate`` each odd hand
    replays the even hand's deal with the dealer swapped, so seat a plays the cards the
    opponent held. Records as :data:`RECORD_DTYPE` with ``hand`` the hand index."""
    hands = check_hands(hands, "hands")
    player = McPlayer(mc, opponent, rules, seed)
    index = np.arange(start, start + hands)
    deals = index // 2 if duplicate else index
    dealers = deals % 2
    if duplicate:
        dealers = np.where(index % 2 == 1, 1 - dealers, dealers)
    out = player.play(deals, dealers, np.zeros(hands, dtype=np.int64))
    out["hand"] = index
    return out


def seat_a_net(records: np.ndarray) -> np.ndarray:
    """Seat a's (the mc player's) net points per hand."""
    return records["points_a"].astype(np.int64) - records["points_b"]


def play_mc_games(mc: str | McSpec, opponent: str, games: int, seed: int = 0,
                  rules: Rules | str | None = None) -> np.ndarray:
    """Standard games to ``rules.target`` between the mc player (seat a) and
    ``opponent``: the cut picks the first dealer, the dealer then follows
    ``rules.next_dealer``. Returns the winner of each game (0: mc)."""
    rules = Rules.coerce(rules)
    player = McPlayer(mc, opponent, rules, seed)
    rng = np.random.default_rng(seed)
    winners = np.zeros(games, dtype=np.int64)
    deal = 0
    for g in range(games):
        dealer = int(rng.integers(2))
        totals = [0, 0]
        while max(totals) < rules.target:
            rec = player.play(np.array([deal]), np.array([dealer]), np.array([0]))[0]
            deal += 1
            a, b = int(rec["points_a"]), int(rec["points_b"])
            winner = 0 if a > b else 1 if b > a else -1
            if winner >= 0:
                totals[winner] += a + b
                dealer = _next_dealer(dealer, winner, rules.next_dealer)
        winners[g] = 0 if totals[0] >= rules.target else 1
    return winners


def _next_dealer(dealer: int, winner: int, mode: str) -> int:
    if mode == "loser":
        return 1 - winner
    if mode == "winner":
        return winner
    return 1 - dealer
