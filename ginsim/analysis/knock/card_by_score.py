"""The knock answer by the score: the knock card's own decision points (knock now or wait
a turn, both branches played from the same cards) valued in games by the game table, at
a few scores, and the games won with and without score-aware play on the same decks.

No hand is played again for the card by score: each branch's result (who scored and how
much) moves the score, and the game table says the chance of winning the game from
there (:meth:`~ginsim.game.scoring.game_equity.GameTable.win_after`). A cell knocks where
knocking's mean chance is clearly higher (95%), waits where it is clearly lower, and
keeps the hand's card elsewhere. Like the card's evidence it is a one-turn deviation:
after waiting a turn, play goes on by the hand's card.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...game.rng_nb import stream_seed
from ...game.rules import NEXT_DEALER_MODES, Rules
from ...game.scoring.deal_order_nb import next_dealer_code_nb
from ...game.scoring.game_equity import GameTable
from ...strategies.grid_nb import bucket_labels, stock_buckets
from ...strategies.presets import Strategy, parse_strategy
from ..game_stats import TABLE_HANDS, game_table, game_table_frame, paired_game_wins
from ..intervals import Z95
from .knock_answer import WHY_HANDS, advice_player
from .knock_card import KnockAdvice, knock_card
from .knock_chart import MIN_CELL, decisions_frame

#: The scores the report reads the card at, as shares of the target (yours, theirs):
#: level at the start, ahead, behind and both one good hand from the target. At 100
#: they are 0-0, 85-30, 30-85 and 90-90.
SCORES = (("level", 0.0, 0.0), ("ahead", 0.85, 0.30), ("behind", 0.30, 0.85),
          ("near the target", 0.90, 0.90))
TABLE_PLAYERS = ("expert", "expert")  # the game table's players (seat a, seat b)
REPORT_BOOT = 50  # bootstrap replicates behind the report's game table
MIN_TABLE_HANDS = 2000  # a smaller study still gets a table with errors
HEAT_STEP = 10  # points between the heat map's rows and columns
GAMES_PER_HANDS = 10  # the report plays one game per this many study hands, each way
MIN_GAMES = 200
ACTION_P_KNOCK = {"KNOCK": 1.0, "either": 0.5, "wait": 0.0}  # a score card's cells as a card's
CARD_CELL_KEYS = ["opp_taken", "deadwood", "stock"]
SCORE_COLUMNS = ("score", "me", "opp", "win_here", "opp_taken", "deadwood", "stock", "n",
                 "win_knock", "win_wait", "gain", "gain_low", "gain_high", "points_gain",
                 "hand_action", "p_knock", "action")


def report_scores(rules: Rules) -> list[tuple[str, int, int]]:
    """:data:`SCORES` in points under ``rules``' target: (name, yours, theirs)."""
    top = rules.target - 1
    return [(name, min(round(me * rules.target), top), min(round(opp * rules.target), top))
            for name, me, opp in SCORES]


def branch_wins(decisions: pd.DataFrame, table: GameTable, me: int, opp: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each decision's chance of winning the game (the decider is the table's seat a, at
    ``me``-``opp``) after knocking now and after waiting a turn: ``win_after`` of each
    branch's net points (``net_knock``, ``net_wait``) for the hand the decider dealt
    (``dealer`` 1) or not, vectorised."""
    table.at("win", me, opp, 0)  # a one-line ValueError for a score off the table
    mode = NEXT_DEALER_MODES.index(table.rules.next_dealer)
    following = np.array([[next_dealer_code_nb(d, w, mode) for w in (0, 1)] for d in (0, 1)])
    dealer = np.where(decisions["dealer"].to_numpy() == 1, 0, 1)
    target = table.rules.target

    def after(net: np.ndarray) -> np.ndarray:
        winner = np.where(net > 0, 0, 1)
        a = np.where(winner == 0, me + np.abs(net), me)
        b = np.where(winner == 1, opp + np.abs(net), opp)
        going_on = table.win[following[dealer, winner], np.minimum(a, target - 1),
                             np.minimum(b, target - 1)]
        won = np.where(a >= target, 1.0, np.where(b >= target, 0.0, going_on))
        return np.where(net == 0, table.win[dealer, me, opp], won)  # dealt again

    return (after(decisions["net_knock"].to_numpy(dtype=np.int64)),
            after(decisions["net_wait"].to_numpy(dtype=np.int64)))


def _keyed(decisions: pd.DataFrame) -> pd.DataFrame:
    """The decisions' card cells: panel label, deadwood, stock range of the card."""
    taken = decisions["opp_taken"].to_numpy()
    labels = np.array(bucket_labels())
    return pd.DataFrame({
        "opp_taken": np.where(taken >= 2, "2+", taken.astype(str)),
        "deadwood": decisions["deadwood"].to_numpy(dtype=int),
        "stock": labels[stock_buckets(decisions["stock_left"].to_numpy())],
        "hand": (decisions["hand"].to_numpy() if "hand" in decisions
                 else np.arange(len(decisions))),
        "points": (decisions["net_knock"] - decisions["net_wait"]).to_numpy(dtype=float)})


def _base_card(keyed: pd.DataFrame, card: pd.DataFrame | None) -> pd.DataFrame:
    """The hand's card to start from: ``card``, else the sign of the mean points gain of
    knocking in each cell the decisions reach."""
    if card is not None:
        return card[CARD_CELL_KEYS + ["action"]].assign(
            opp_taken=card["opp_taken"].astype(str), stock=card["stock"].astype(str))
    mean = keyed.groupby(CARD_CELL_KEYS, sort=False)["points"].mean().reset_index()
    return mean.assign(action=np.where(mean["points"] > 0, "KNOCK", "wait"))[
        CARD_CELL_KEYS + ["action"]]


def _cell_means(here: pd.DataFrame) -> pd.DataFrame:
    """Per card cell: ``n``, the mean chances after each branch, the mean ``gain`` with
    :func:`~ginsim.analysis.intervals.clustered_mean`'s interval (a hand's decisions one
    cluster; computed for every cell at once) and the mean points gain."""
    cells = here.groupby(CARD_CELL_KEYS, sort=False)
    found = cells.agg(n=("gain", "size"), win_knock=("win_knock", "mean"),
                      win_wait=("win_wait", "mean"), gain=("gain", "mean"),
                      points_gain=("points", "mean"))
    hands = here.groupby([*CARD_CELL_KEYS, "hand"], sort=False)["gain"].agg(["sum", "size"])
    mean = found["gain"].reindex(hands.index.droplevel("hand")).to_numpy()
    squares = ((hands["sum"].to_numpy() - mean * hands["size"].to_numpy()) ** 2)
    per_cell = pd.DataFrame({"squares": squares, "clusters": 1},
                            index=hands.index.droplevel("hand")).groupby(CARD_CELL_KEYS).sum()
    per_cell = per_cell.reindex(found.index)
    count = per_cell["clusters"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(count / (count - 1) * per_cell["squares"].to_numpy()) / found["n"]
    se = np.where(count >= 2, se, np.nan)
    found["gain_low"], found["gain_high"] = found["gain"] - Z95 * se, found["gain"] + Z95 * se
    return found.reset_index()


def score_card(decisions: pd.DataFrame, table: GameTable,
               scores: Sequence[tuple[str, int, int]],
               card: pd.DataFrame | None = None, min_n: int = MIN_CELL) -> pd.DataFrame:
    """The card at each of ``scores`` ((name, yours, theirs), ``win_here`` the table's
    chance of winning from there, dealer cut): per cell of ``card`` (a
    :func:`~ginsim.analysis.knock.knock_card.knock_card`; without one, the cells the
    ``decisions`` reach, acting by their mean points), the decisions' mean chance of
    winning the game after knocking and after waiting (:func:`branch_wins`), ``gain``
    (knock minus wait, with a 95% interval, a hand's decisions one cluster),
    ``points_gain`` (the same decisions in points per hand) and the ``action``: KNOCK
    where the gain's interval lies above 0, wait where it lies below, in cells with
    ``min_n`` decisions or more; elsewhere (near even, or too few) the hand card's
    action (``hand_action``) stands. Columns
    :data:`SCORE_COLUMNS`; each score's rows are a card for :func:`knock_card` words."""
    keyed = _keyed(decisions)
    base = _base_card(keyed, card).rename(columns={"action": "hand_action"})
    parts = []
    for name, me, opp in scores:
        knock, wait = branch_wins(decisions, table, me, opp)
        found = _cell_means(keyed.assign(win_knock=knock, win_wait=wait, gain=knock - wait))
        cells = base.merge(found, on=CARD_CELL_KEYS, how="left")
        cells["n"] = cells["n"].fillna(0).astype(int)
        trusted = cells["n"] >= min_n
        cells["action"] = np.select(
            [trusted & (cells["gain_low"] > 0), trusted & (cells["gain_high"] < 0)],
            ["KNOCK", "wait"], cells["hand_action"])
        cells["p_knock"] = cells["action"].map(ACTION_P_KNOCK).astype(float)
        parts.append(cells.assign(score=name, me=me, opp=opp,
                                  win_here=table.at("win", me, opp)))
    return pd.concat(parts, ignore_index=True)[list(SCORE_COLUMNS)]


def score_card_of(cards: pd.DataFrame, name: str) -> pd.DataFrame:
    """One score's rows of :func:`score_card` as a knock card (its words read the same
    way as the hand's: :func:`~ginsim.analysis.knock.knock_card.card_words`)."""
    rows = cards[cards["score"] == name]
    return knock_card(rows[CARD_CELL_KEYS + ["p_knock", "n"]])


def score_aware(spec: str, rules: Rules) -> tuple[Strategy, Strategy] | None:
    """``spec`` playing without the score and with it (``game=0``, ``game=1``), or None
    where it has no score-aware play under ``rules`` (no score chart for its card play
    and these rules' hands, or no ``game`` parameter)."""
    sep = "," if ":" in spec else ":"
    try:
        pair = (parse_strategy(f"{spec}{sep}game=0"), parse_strategy(f"{spec}{sep}game=1"))
    except ValueError:
        return None
    return pair if pair[1].score_chart_for(rules) is not None else None


def game_score_tables(advice: KnockAdvice | None, fallback: pd.DataFrame, rules: Rules,
                      hands: int, seed: int, opponent: str | Strategy,
                      n_jobs: int | None = None) -> tuple[dict[str, pd.DataFrame],
                                                          dict[str, str]]:
    """The knock study's tables for the score (and their methods lines): the game table
    of :data:`TABLE_PLAYERS` under ``rules`` (``game_table``, every :data:`HEAT_STEP`
    points, dealer cut), the card by score (``score_card``) from the decision points
    behind the card's evidence (``advice``'s player against itself on the ``answer
    why`` stream; without advice, ``fallback``: the study's counterfactual chart), and,
    where score-aware play exists, the paired games with and without it against
    ``opponent`` (``score_worth``). Empty when the rules play no games."""
    if rules.game_problem():
        return {}, {"game by score": f"not made: {rules.game_problem()}"}
    size = max(min(hands, TABLE_HANDS), MIN_TABLE_HANDS)
    table = game_table(*TABLE_PLAYERS, rules, size, stream_seed(seed, "game table"),
                       boot=REPORT_BOOT, n_jobs=n_jobs)
    frame = game_table_frame(table, HEAT_STEP)
    frame = frame[frame.dealer == "cut"].drop(columns="dealer").reset_index(drop=True)
    frame.attrs["from_start"] = (table.at("win", 0, 0), *table.interval("win", 0, 0))
    if advice is not None:
        player = advice_player(advice)
        decisions = decisions_frame(player, player, min(2 * max(hands // 2, 1), WHY_HANDS),
                                    stream_seed(seed, "answer why"), rules)
        whose = f"`{advice.card_play or player.preset}` with the knock card, against itself"
    else:
        decisions, whose = fallback, f"`simple` against `{parse_strategy(opponent).spec}`"
    cards = score_card(decisions, table, report_scores(rules),
                       advice.card if advice is not None else None)
    games = max(hands // GAMES_PER_HANDS, MIN_GAMES)
    cards.attrs.update(whose=whose, decisions=len(decisions), games=games)
    tables = {"game_table": frame, "score_card": cards}
    methods = {"game by score": (
        f"game table of `{TABLE_PLAYERS[0]}` against `{TABLE_PLAYERS[1]}` from {size:,} "
        f"hands ({REPORT_BOOT} bootstrap replicates); the card by score values "
        f"{len(decisions):,} decision points of {whose} (knock now or wait a turn) by the "
        "chance of winning the game after each branch")}
    pair = score_aware(advice.card_play if advice is not None and advice.card_play
                       else TABLE_PLAYERS[0], rules)
    if pair is not None:
        worth = paired_game_wins(*pair, opponent, games, stream_seed(seed, "score games"),
                                 rules)
        tables["score_worth"] = worth
        methods["score-aware play"] = (f"{games:,} games to {rules.target} each way, "
                                       f"`{pair[0].spec}` and `{pair[1].spec}` against "
                                       f"`{parse_strategy(opponent).spec}` on the same decks")
    return tables, methods
