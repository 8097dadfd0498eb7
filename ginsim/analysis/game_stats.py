"""Game-level tables: one row per game, win probability and margin with 95% CIs, and the
game table (the chance of winning and the value of a game from every score)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.inputs.checks import check_int
from ..game.inputs.specs import brief
from ..game.rules import Rules
from ..game.scoring.game_equity import (
    BOOTSTRAP,
    Z95,
    GameTable,
    HandOutcomes,
    HollywoodTable,
    hand_outcomes,
    solve_game_table,
    solve_hollywood,
)
from ..simulator.play import game_records as sim_games
from ..strategies.presets import Strategy
from .intervals import mean_interval, wilson_interval

GAME_COLUMNS = ("winner", "margin", "hands", "shutout")


def play_games(a: str | Strategy = "simple", b: str | Strategy = "simple", games: int = 1000,
               seed: int = 0, rules: Rules | str | None = None,
               start: tuple[int, int] = sim_games.NEW_GAME) -> pd.DataFrame:
    """Play games to the rules' target; one row per game.

    Columns: ``winner`` (``a``/``b``), ``score_a``, ``score_b`` (final totals with
    game, box and shutout bonuses), ``margin`` (winner minus loser), ``hands``,
    ``shutout``, ``points_a``/``points_b`` (hand points), ``boxes_a``/``boxes_b``.
    ``start``: the points of a and b each game starts from (boxes count from there).
    """
    rows = sim_games.game_records(a, b, games, seed, rules, start)
    frame = pd.DataFrame({name: rows[name] for name in rows.dtype.names})
    frame["winner"] = np.where(rows["winner"] == 0, "a", "b")
    return frame.drop(columns="game")


def game_summary(games: pd.DataFrame) -> pd.DataFrame:
    """Seat a's game-win probability (Wilson) and expected signed margin (normal) per game.

    Columns: ``statistic``, ``value``, ``low``, ``high``, ``n``.
    """
    if not isinstance(games, pd.DataFrame):
        raise ValueError(f"game_summary takes the DataFrame of play_games(), got "
                         f"{type(games).__name__}")
    missing = [c for c in GAME_COLUMNS if c not in games.columns]
    if missing:
        raise ValueError(f"game_summary needs the columns of play_games(); this DataFrame "
                         f"lacks {', '.join(missing)}")
    if games.empty:
        raise ValueError("game_summary needs at least one game; this DataFrame has no rows")
    unknown = sorted(set(games["winner"].astype(str)) - {"a", "b"})
    if unknown:
        raise ValueError(f"winner {brief(unknown[0])} is not a seat of play_games(): its "
                         f"winners are a and b")
    n = len(games)
    wins = int((games["winner"] == "a").sum())
    low, high = wilson_interval(wins, n)
    signed = np.where(games["winner"] == "a", games["margin"], -games["margin"])
    rows = [("p_a_wins_game", wins / n if n else np.nan, float(low), float(high), n)]
    rows.append(("mean_margin_a", *mean_interval(signed), n))
    rows.append(("mean_hands", *mean_interval(games["hands"].to_numpy()), n))
    shut = int(games["shutout"].sum())
    low, high = wilson_interval(shut, n)
    rows.append(("rate_shutout", shut / n if n else np.nan, float(low), float(high), n))
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high", "n"])


WORTH_COLUMNS = ("play", "spec", "games", "won", "rate", "low", "high")


def paired_game_wins(without: str | Strategy, with_: str | Strategy,
                     opponent: str | Strategy, games: int = 1000, seed: int = 0,
                     rules: Rules | str | None = None) -> pd.DataFrame:
    """Games won by ``without`` and by ``with_`` (seat a) against ``opponent`` on the same
    decks (:func:`play_games` with one seed: game ``i`` deals the same cards to both),
    and what the change is worth. Rows (:data:`WORTH_COLUMNS`): ``without``, ``with``
    (wins, rate and Wilson 95% interval) and ``gain`` (the rate of ``with_`` minus that
    of ``without``, 95% interval paired by deck over the games' differences)."""
    runs = [play_games(s, opponent, games, seed, rules) for s in (without, with_)]
    won = [(r["winner"] == "a").to_numpy() for r in runs]
    rows = []
    for play, spec, wins in zip(("without", "with"), (without, with_), won, strict=True):
        low, high = wilson_interval(int(wins.sum()), len(wins))
        rows.append((play, _label(spec), len(wins), int(wins.sum()), float(wins.mean()),
                     float(low), float(high)))
    gain = mean_interval(won[1].astype(float) - won[0].astype(float))
    rows.append(("gain", f"{_label(with_)} - {_label(without)}", len(won[0]),
                 int(won[1].sum() - won[0].sum()), *gain))
    return pd.DataFrame(rows, columns=list(WORTH_COLUMNS))


TABLE_HANDS = 100_000  # hands a game table is made from by default
TABLE_SYSTEMS = ("standard", "hollywood")


def _label(spec: str | Strategy) -> str:
    return spec if isinstance(spec, str) else spec.spec


def _hand_results(a: str | Strategy, b: str | Strategy, rules: Rules, hands: int, seed: int,
                  n_jobs: int | None) -> HandOutcomes:
    """``hands`` hands of ``a`` against ``b`` counted by dealer and result."""
    from .api import simulate

    hands = check_int(hands, "hands", 1000, 10_000_000, "the table needs at least 1,000")
    frame = simulate(a, b, hands, seed, rules, n_jobs=n_jobs, progress=False)
    codes = {c: frame[c].cat.codes.to_numpy() for c in ("dealer", "outcome")}  # categoricals
    return hand_outcomes(codes["dealer"], frame["points_a"].to_numpy(),
                         frame["points_b"].to_numpy(), codes["outcome"],
                         frame["multiplier"].to_numpy(), rules)


def game_table(a: str | Strategy = "expert", b: str | Strategy = "expert",
               rules: Rules | str | None = None, hands: int = TABLE_HANDS, seed: int = 0, *,
               system: str = "standard", boot: int = BOOTSTRAP,
               n_jobs: int | None = None) -> GameTable | HollywoodTable:
    """The game table of ``a`` (seat a) against ``b`` under ``rules``: the chance that a
    wins the game and its expected margin from every score and next dealer, by backward
    recursion over the results of ``hands`` simulated hands, with bootstrap errors.
    ``system="hollywood"``: each of a Hollywood session's three games at its start.

    Only play that ignores the score is valued right: each hand is assumed to play as in
    :func:`ginsim.simulate`, whatever the score (docs/game-table.md).
    """
    rules = Rules.coerce(rules).check_games()
    if system not in TABLE_SYSTEMS:
        raise ValueError(f"the game table is for {' or '.join(TABLE_SYSTEMS)} scoring, not "
                         f"{brief(system)}")
    results = _hand_results(a, b, rules, hands, seed, n_jobs)
    solve = solve_game_table if system == "standard" else solve_hollywood
    return solve(results, rules, a=_label(a), b=_label(b), boot=boot, seed=seed)


def game_table_frame(table: GameTable, step: int = 1) -> pd.DataFrame:
    """The table as rows (``score_a``, ``score_b`` every ``step`` points, ``dealer``:
    ``a``, ``b`` or ``cut``), with a's win chance and value, their 95% intervals, the
    shutout chances, the hands still to play, and ``n`` (hands sampled)."""
    if not isinstance(table, GameTable):
        raise ValueError(f"game_table_frame takes a GameTable (game_table()), got "
                         f"{type(table).__name__}")
    step = check_int(step, "step", 1, table.rules.target)
    scores = np.arange(0, table.rules.target, step)
    sa, sb = (g.ravel() for g in np.meshgrid(scores, scores, indexing="ij"))
    parts = []
    for dealer in ("a", "b", "cut"):
        if dealer == "cut":
            pick = {name: getattr(table, name)[:, sa, sb].mean(axis=0) for name in
                    ("win", "value", "shut_a", "shut_b", "hands")}
            se = {name: getattr(table, f"cut_{name}_se")[sa, sb] for name in ("win", "value")}
        else:
            d = "ab".index(dealer)
            pick = {name: getattr(table, name)[d, sa, sb] for name in
                    ("win", "value", "shut_a", "shut_b", "hands")}
            se = {name: getattr(table, f"{name}_se")[d, sa, sb] for name in ("win", "value")}
        half = {name: Z95 * se[name] for name in se}
        parts.append(pd.DataFrame({
            "score_a": sa, "score_b": sb, "dealer": dealer,
            "win": pick["win"], "win_low": np.clip(pick["win"] - half["win"], 0, 1),
            "win_high": np.clip(pick["win"] + half["win"], 0, 1),
            "value": pick["value"], "value_low": pick["value"] - half["value"],
            "value_high": pick["value"] + half["value"], "shut_a": pick["shut_a"],
            "shut_b": pick["shut_b"], "hands": pick["hands"], "n": table.n}))
    return pd.concat(parts, ignore_index=True)
