"""The Rami question "when should I open?", answered by simulation on duplicate deals.

One seat plays a variant of the base strategy, the others the base itself, on the same
deals (same seed and deal indexes) for every variant, so each variant's difference from
"open at the first chance" is a paired comparison with a normal 95% interval. The
variants wait for a dry rami until an own turn (``wait_turns``; a dry rami is only
possible while nobody has opened, and the wait ends when someone does) or open only with
a higher first lay-down (``open_at``). Rates carry Wilson 95% intervals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...analysis.intervals import mean_interval, wilson_interval
from ...game.inputs.checks import check_int
from ..game.rules import RamiRules, check_players
from .api import simulate
from .strategy import parse_rami_strategy

WAITS = (0, 3, 6, 9, 12, 200)
NEVER = 200  # wait_turns this high: open only to go out (the dry rami or nothing)
THRESHOLDS = (60, 70, 80)
DEFAULT_PLAYERS = (2, 3, 4, 5, 6)
DEFAULT_DEALS = 4_000
BASE = "careful"


@dataclass
class RamiStudy:
    """The study's table (one row per player count and variant), its answer and methods."""

    rules: RamiRules
    deals: int
    seed: int
    base: str
    table: pd.DataFrame
    answer: str
    lines: list[str] = field(default_factory=list)
    methods: dict[str, str] = field(default_factory=dict)


def _variant(base: str, family: str, value: int) -> str:
    sep = "," if ":" in base else ":"
    return f"{base}{sep}{family}={value}"


def _row(players: int, family: str, value: int, spec: str, seat: pd.DataFrame,
         reference: np.ndarray, rules: RamiRules) -> dict:
    charge = seat["charge"].to_numpy(dtype=float)
    mean, low, high = mean_interval(charge)
    diff, d_low, d_high = mean_interval(charge - reference)
    n = len(seat)
    dry = int((seat["went_out"] & seat["dry"]).sum())
    caught = int((~seat["opened"] & (seat["winner"] != seat["player"])).sum())
    won = int((seat["winner"] == seat["player"]).sum())
    (dry_lo, caught_lo, won_lo), (dry_hi, caught_hi, won_hi) = wilson_interval(
        np.array([dry, caught, won]), n)
    return {"players": players, "family": family, "value": value, "strategy": spec,
            "rules": rules.spec(), "deals": n,
            "charge": mean, "charge_low": low, "charge_high": high,
            "vs_first_chance": diff, "vs_low": d_low, "vs_high": d_high,
            "p_dry": dry / n, "p_dry_low": dry_lo, "p_dry_high": dry_hi,
            "p_caught_unopened": caught / n, "p_caught_low": caught_lo,
            "p_caught_high": caught_hi, "p_win": won / n, "p_win_low": won_lo,
            "p_win_high": won_hi}


def open_study(deals: int = DEFAULT_DEALS, seed: int = 0, rules: RamiRules | str | None = None,
               players: Sequence[int] = DEFAULT_PLAYERS, base: str = BASE,
               n_jobs: int | None = 1) -> RamiStudy:
    """Run the study: for each player count, seat 0 plays every waiting and threshold
    variant of ``base`` against ``base`` on ``deals`` duplicate deals."""
    rules = RamiRules.coerce(rules)
    deals = check_int(deals, "deals", 2, 10**9)
    base = parse_rami_strategy(base).spec
    counts = [check_players(p) for p in players] if not isinstance(players, int) else [
        check_players(players)]
    rows = []
    for n in counts:
        variants = [("wait_turns", w) for w in WAITS] + [("open_at", t) for t in THRESHOLDS]
        reference = None
        for family, value in variants:
            spec = _variant(base, family, value)
            df = simulate([spec] + [base] * (n - 1), deals, seed=seed, rules=rules,
                          n_jobs=n_jobs)
            seat = df[df["player"] == 0]
            if reference is None:
                reference = seat["charge"].to_numpy(dtype=float)
            rows.append(_row(n, family, value, spec, seat, reference, rules))
    table = pd.DataFrame(rows)
    lines = answer_lines(table)
    answer = f"Under {rules.spec()} rules, against `{base}` play: " + " ".join(lines)
    methods = {
        "design": f"seat 0 plays each variant of `{base}`, every other seat `{base}`, on "
                  f"the same {deals:,} deals per player count (seed {seed}; deal d's cards "
                  f"come from (seed, d), the starter rotates with d)",
        "intervals": "differences from opening at the first chance: paired by deal, mean "
                     "with a normal 95% interval; rates: Wilson 95% intervals",
        "waiting": "wait_turns=W: before its own turn W the player lays down only to go "
                   "out, while no opponent has opened; 200 means it never opens except "
                   "to go out",
        "rules": rules.spec(),
    }
    return RamiStudy(rules, deals, seed, base, table, answer, lines, methods)


def cost_words(change: float, low: float, high: float) -> str:
    """A change in points charged per deal (positive: more charged) in words, its sign
    said by the verb: "costs 3.9 points per deal (95% CI 3.1 to 4.7" or "saves 1.2 points
    per deal (95% CI 0.4 to 2.0" (the interval of the cost or the saving; the caller
    closes the bracket)."""
    if change >= 0:
        return f"costs {change:.1f} points per deal (95% CI {low:.1f} to {high:.1f}"
    return f"saves {-change:.1f} points per deal (95% CI {-high:.1f} to {-low:.1f}"


def answer_lines(table: pd.DataFrame) -> list[str]:
    """One sentence per player count: the best wait and what waiting longer costs."""
    lines = []
    for n, group in table[table["family"] == "wait_turns"].groupby("players"):
        best = group.loc[group["charge"].idxmin()]
        never = group[group["value"] == NEVER].iloc[0]
        deals = int(group["deals"].iloc[0])
        if best["value"] == 0 or best["vs_high"] >= 0:
            head = f"With {n} players open at the first chance"
        else:
            head = (f"With {n} players wait for a dry rami until your turn "
                    f"{int(best['value'])}: it "
                    f"{cost_words(best['vs_first_chance'], best['vs_low'], best['vs_high'])})")
        lines.append(f"{head}; holding everything for a dry rami "
                     f"{cost_words(never['vs_first_chance'], never['vs_low'], never['vs_high'])}"
                     f"; dry rami {never['p_dry']:.1%}, caught unopened "
                     f"{never['p_caught_unopened']:.1%}; n = {deals:,} deals).")
    return lines
