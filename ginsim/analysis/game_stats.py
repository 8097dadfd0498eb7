"""Game-level tables: one row per game, win probability and margin with 95% CIs, and the
game table (the chance of winning and the value of a game from every score)."""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from .._version import __version__
from ..game.inputs.checks import check_int
from ..game.inputs.files import FileDataError, read_bounded, write_bytes_atomic
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


#: The game table the advisor values hands with (``advise(score=...)``): expert against
#: expert, the strongest plain play on both sides, from this many hands.
ADVICE_TABLE = ("expert", "expert", TABLE_HANDS)
_ADVICE_TABLES: dict[str, GameTable] = {}


def advice_game_table(rules: Rules | str | None = None) -> GameTable:
    """The game table of :data:`ADVICE_TABLE` under ``rules`` (no bootstrap), made once
    per rules and kept: in this process, and its hand results in the user's cache
    (``GINSIM_CACHE_DIR``, else the platform's cache folder), so a later advice reads
    them (a damaged or foreign file is made again)."""
    rules = Rules.coerce(rules).check_games()
    a, b, hands = ADVICE_TABLE
    key = hashlib.sha256(f"{__version__}|{rules.spec()}|{a}|{b}|{hands}|0".encode()).hexdigest()
    if key not in _ADVICE_TABLES:
        path = _cache_folder() / f"game-table-{key[:24]}.npz"
        results = _cached_results(path)
        if results is None:
            results = _hand_results(a, b, rules, hands, 0, None)
            _save_results(path, results)
        _ADVICE_TABLES[key] = solve_game_table(results, rules, a=a, b=b, boot=0)
    return _ADVICE_TABLES[key]


def _cache_folder() -> Path:
    given = os.environ.get("GINSIM_CACHE_DIR")
    if given:
        return Path(given).expanduser()
    from numba.misc.appdirs import AppDirs
    return Path(AppDirs(appname="ginsim", appauthor=False).user_cache_dir)


def _cached_results(path: Path) -> HandOutcomes | None:
    """The hand results kept at ``path``, or None (missing, damaged, or not ours)."""
    try:
        with np.load(io.BytesIO(read_bounded(path, 1_000_000, "game table cache")),
                     allow_pickle=False) as data:
            results = HandOutcomes(data["outcomes"].astype(np.int64),
                                   data["counts"].astype(np.int64),
                                   data["dead"].astype(np.int64))
        if results.outcomes.ndim != 2 or len(results.counts) != len(results.outcomes) or (
                results.dead.shape != (2,)):
            return None
        return results
    except (OSError, ValueError, KeyError, FileDataError, zipfile.BadZipFile):
        return None


def _save_results(path: Path, results: HandOutcomes) -> None:
    """Keep the hand results for later advice; a cache that cannot be written is skipped."""
    buffer = io.BytesIO()
    np.savez(buffer, outcomes=results.outcomes, counts=results.counts, dead=results.dead)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(path, buffer.getvalue())
    except OSError:
        pass


def scored_table(score: tuple[int, int], rules: Rules) -> tuple[GameTable, int, int]:
    """``(game table, mine, theirs)``: the advisor's game table (:func:`advice_game_table`)
    for ``rules`` and a score checked against its target."""
    try:
        mine, theirs = (int(v) for v in score)
    except (TypeError, ValueError):
        raise ValueError(f"score must be two points, yours then the opponent's, such as "
                         f"(85, 30), got {score!r}") from None
    top = rules.target - 1
    if not (0 <= mine <= top and 0 <= theirs <= top):
        raise ValueError(f"score {mine}-{theirs}: each side's points must be 0..{top} "
                         f"(below the game's target {rules.target})")
    return advice_game_table(rules), mine, theirs
