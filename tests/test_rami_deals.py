"""The Rami deal loop: every card accounted for on every turn, every table meld legal,
charges by the source's rules, determinism by (seed, deal), games to the target."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ginsim.rami as rami
from ginsim.rami.game.cards import JOKER, deck_kinds
from ginsim.rami.game.melds import row_kinds
from ginsim.rami.game.moves_nb import T_HI, T_JOKER, T_KIND, T_LO, T_OWNER, T_RANK, T_SIZE, T_WIDTH
from ginsim.rami.game.rules import RamiRules
from ginsim.rami.play.deal_nb import (
    TR_HANDS,
    TR_PILE_COUNTS,
    TR_SEAT,
    TR_STOCK_COUNTS,
    TR_TABLE,
    TR_TABLE_N,
    TR_TOOK,
    TR_TOP,
)
from ginsim.rami.play.engine import play_deal_records, play_game_records

try:
    from tests.rami_reference import POS_VALUE, SET_VALUE, new_meld_value
except ImportError:  # tests/ itself on sys.path
    from rami_reference import POS_VALUE, SET_VALUE, new_meld_value

CASES = [
    (["simple", "careful"], "rami"),
    (["careful", "naive", "dry_hunter"], "rami_two_jokers"),
    (["holder", "patient", "simple", "careful"], "rami_fourteen"),
    (["careful", "watchful", "careful", "watchful", "simple"], "rami_no_discard"),
    (["naive", "simple", "careful", "patient", "holder", "dry_hunter"], "rami_pure_run"),
    (["careful", "simple", "watchful"], "rami_two_per_run"),
]


@pytest.mark.parametrize("seats, rules", CASES)
def test_cards_conserved_and_melds_legal_every_turn(seats: list[str], rules: str) -> None:
    rr = RamiRules.coerce(rules)
    full = np.bincount(deck_kinds(rr.jokers), minlength=53)
    players = len(seats)
    for deal in range(4):
        records, trace = play_deal_records(seats, start=deal, stop=deal + 1, seed=11,
                                           rules=rules, trace_rows=400)
        assert len(trace) == records["turns"][0]
        for row in trace:
            hands = row[TR_HANDS:TR_HANDS + 53 * players].reshape(players, 53)
            where = hands.sum(0) + row[TR_PILE_COUNTS:TR_PILE_COUNTS + 53] + row[
                TR_STOCK_COUNTS:TR_STOCK_COUNTS + 53]
            for m in range(row[TR_TABLE_N]):
                meld = row[TR_TABLE + m * T_WIDTH:TR_TABLE + (m + 1) * T_WIDTH]
                kinds = row_kinds(meld)
                assert new_meld_value(kinds, rr.jokers_per_meld) is not None, kinds
                assert len(kinds) == meld[T_SIZE]
                assert kinds.count(JOKER) <= rr.jokers_per_meld
                assert not any(a == b == JOKER for a, b in zip(kinds, kinds[1:],
                                                               strict=False))
                where = where + np.bincount(kinds, minlength=53)
            assert (where == full).all(), (deal, row[0])
            mover = hands[row[TR_SEAT]].sum()
            assert mover <= rr.hand_size + (1 if rr.starter_fourteen else 0)
        _check_openings(trace, records, rr)
        _check_taken_discards_are_laid(trace, players)


def _table_counts(row: np.ndarray) -> np.ndarray:
    counts = np.zeros(53, dtype=np.int64)
    for m in range(row[TR_TABLE_N]):
        counts += np.bincount(row_kinds(row[TR_TABLE + m * T_WIDTH:TR_TABLE + (m + 1) * T_WIDTH]),
                              minlength=53)
    return counts


def _check_taken_discards_are_laid(trace: np.ndarray, players: int) -> None:
    """A top discard is taken only to be laid that turn: the table gains a card of its
    kind and the taker's hand holds no more of it than before the turn."""
    for i, row in enumerate(trace):
        if not row[TR_TOOK]:
            continue
        top, seat = int(row[TR_TOP]), int(row[TR_SEAT])
        before = np.zeros(53, dtype=np.int64) if i == 0 else _table_counts(trace[i - 1])
        assert _table_counts(row)[top] >= before[top] + 1
        if i > 0:
            hand_before = trace[i - 1][TR_HANDS + seat * 53:TR_HANDS + (seat + 1) * 53]
            assert row[TR_HANDS + seat * 53 + top] <= hand_before[top]


def _laid_value(meld: np.ndarray) -> int:
    """A table meld's laid value from the reference tables (the joker where it lies)."""
    if meld[T_KIND] == 1:
        return int(meld[T_SIZE]) * SET_VALUE[int(meld[T_RANK])]
    return sum(POS_VALUE[p] for p in range(int(meld[T_LO]), int(meld[T_HI]) + 1))


def _check_openings(trace: np.ndarray, records: np.ndarray, rules: RamiRules) -> None:
    """Each player's first melds total at least the opening minimum, unless that turn
    was a dry rami (the deal's last turn, the mover went out and nobody else opened)."""
    opened: set[int] = set()
    for i, row in enumerate(trace):
        seat = int(row[TR_SEAT])
        melds = [row[TR_TABLE + m * T_WIDTH:TR_TABLE + (m + 1) * T_WIDTH]
                 for m in range(row[TR_TABLE_N])]
        own = [m for m in melds if m[T_OWNER] == seat]
        if own and seat not in opened:
            total = sum(_laid_value(m) for m in own)
            dry = i == len(trace) - 1 and bool(records["dry"][0]) and int(
                records["winner"][0]) == seat
            assert total >= rules.open_min or dry, (seat, total)
            if rules.open_needs_pure_run and not dry:
                assert any(m[T_KIND] == 2 and m[T_JOKER] == 0 for m in own)
            opened.add(seat)
        if own:
            opened.add(seat)


def _expected_charge(row: pd.Series, rules: RamiRules) -> int:
    if row["player"] == row["winner"]:
        return 0
    if row["dry"]:
        return rules.dry_charge
    if row["opened"]:
        return row["hand_value"]
    return min(row["hand_value"] + 25, 100, rules.target(row["players"]) // 2)


@pytest.mark.parametrize("seats", [["simple", "careful"], ["careful", "naive", "simple"],
                                   ["dry_hunter", "careful", "careful", "careful"]])
def test_charges_follow_the_source(seats: list[str]) -> None:
    rules = RamiRules()
    df = rami.simulate(seats, 300, seed=5)
    assert (df["charge"] == df.apply(_expected_charge, axis=1, rules=rules)).all()
    per_deal = df.groupby("deal")
    assert (per_deal["went_out"].sum() == (~per_deal["blocked"].first()).astype(int)).all()
    out = df[df["went_out"]]
    assert (out["cards_left"] == 0).all() and out["opened"].all()
    dry_deals = df[df["dry"] & (df["player"] != df["winner"])]
    assert not dry_deals["opened"].any()  # a dry rami: nobody else had opened


def test_determinism_by_seed_and_deal() -> None:
    seats = ["careful", "simple", "naive", "dry_hunter"]
    whole = rami.simulate(seats, 60, seed=9)
    assert whole.equals(rami.simulate(seats, 60, seed=9, chunk=7))
    assert whole.equals(rami.simulate(seats, 60, seed=9, chunk=13, n_jobs=2))
    alone, _ = play_deal_records(seats, start=41, stop=42, seed=9)
    assert pd.DataFrame(alone).equals(whole[whole["deal"] == 41].reset_index(drop=True))
    assert not whole.equals(rami.simulate(seats, 60, seed=10))


def test_games_reach_the_target_and_lowest_wins() -> None:
    games = pd.DataFrame(play_game_records(["careful", "simple", "naive"], stop=40, seed=2))
    for _, g in games.groupby("game"):
        assert g["total"].max() >= 200
        assert g["won"].sum() == 1 and g.loc[g["won"], "total"].iloc[0] == g["total"].min()
    assert games.equals(rami.play_games(["careful", "simple", "naive"], 40, seed=2))
    from ginsim.rami.play.runner import run_games
    chunked = run_games(["careful", "simple", "naive"], 40, seed=2, chunk=7, n_jobs=2)
    assert games.equals(pd.DataFrame(chunked))


def test_strategies_from_naive_to_careful_are_ordered() -> None:
    """Against the same deals, careful pays less per deal than naive (fixed seed; the
    gap is several standard errors)."""
    df = rami.simulate(["careful", "naive"], 600, seed=1)
    by = df.groupby("player")["charge"]
    gap = by.mean()[1] - by.mean()[0]
    se = np.sqrt(by.var()[0] / 600 + by.var()[1] / 600)
    assert gap > 3 * se


@pytest.mark.parametrize("call, match", [
    (lambda: rami.simulate(["simple"], 10), "2 to 6 players"),
    (lambda: rami.simulate(["simple"] * 7, 10), "2 to 6 players"),
    (lambda: rami.simulate("simple", 10), "one rami strategy per player"),
    (lambda: rami.simulate(["simple", "clever"], 10), "unknown rami strategy 'clever'"),
    (lambda: rami.simulate(["simple", "careful:open_at=x"], 10), "bad value 'x' for open_at"),
    (lambda: rami.simulate(["simple", "careful:speed=1"], 10), "unknown rami strategy param"),
    (lambda: rami.simulate(["simple"] * 2, 10, rules="rami:jokers=7"), "jokers must be"),
    (lambda: rami.simulate(["simple"] * 2, 0), "number of deals"),
])
def test_bad_input_is_one_line(call, match) -> None:
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_store_round_trip_resume_and_damage(tmp_path) -> None:
    """Records stored as Parquet chunks read back equal; a rerun resumes; a damaged
    chunk or another run's arguments are one-line errors and change nothing."""
    from ginsim.rami.play.store import load_deals, save_deals
    from ginsim.runner.lock import StoreError

    seats = ["careful", "simple", "naive"]
    out = tmp_path / "store"
    df = rami.simulate(seats, 90, seed=4, chunk=40, out=out)
    assert df.equals(rami.simulate(seats, 90, seed=4))
    chunk = out / "chunks" / "c000001.parquet"
    before = chunk.stat().st_mtime_ns
    save_deals(out, seats, 90, seed=4, chunk=40)  # resumed: nothing replayed
    assert chunk.stat().st_mtime_ns == before
    with pytest.raises(StoreError, match="strategies differ"):
        save_deals(out, ["careful"] * 3, 90, seed=4, chunk=40)
    data = bytearray(chunk.read_bytes())
    data[len(data) // 2] ^= 0xFF
    chunk.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged") as info:
        load_deals(out)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("start, stop, size", [(0, 10, 3), (5, 6, 4), (7, 7, 2), (0, 12, 4)])
def test_index_chunks_cover_the_range_once_in_order(start: int, stop: int, size: int) -> None:
    from ginsim.runner.pool import index_chunks, run_index_chunks
    pieces = list(index_chunks(start, stop, size))
    assert [i for lo, hi in pieces for i in range(lo, hi)] == list(range(start, stop))
    assert all(0 < hi - lo <= size for lo, hi in pieces)
    assert run_index_chunks(lambda lo, hi: (lo, hi), start, stop, size, n_jobs=2) == pieces


def test_rami_starts_no_pool_of_its_own() -> None:
    """Rami's chunked work goes through the runner (ginsim.runner.pool): no Rami
    module imports joblib."""
    import ast
    from pathlib import Path

    for path in sorted((Path(rami.__file__).parent).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n.split(".")[0] == "joblib" for n in names), path.name
