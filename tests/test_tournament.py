"""``ginsim tournament``: the Bradley–Terry fit against its closed form and a direct
maximisation of the likelihood, duplicate deals (both seatings of the same deck, the
game kernels' games), a resume after an interruption giving the same bytes, a new player
playing only the new pairs, bad input refused on one line, and exec: agents that crash
or hang forfeiting with nothing left running."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from agent_scripts import first_legal_agent
from scipy.optimize import minimize

from ginsim.analysis.ratings.bradley_terry import (
    ELO,
    MEAN_RATING,
    bootstrap_ratings,
    fit_ratings,
)
from ginsim.analysis.ratings.tournament_results import (
    run_tournament,
    tournament_tables,
)
from ginsim.cli import main
from ginsim.runner.tournament import TournamentPlan, pair_chunks, run_tournament_games
from ginsim.simulator.play.game_records import game_records

#: An agent that answers with the first legal move, and at its third decision crashes
#: (exit 7) or hangs; it writes its pid first, so the test can see it is gone.
FAULTY = first_legal_agent(3, 'if sys.argv[2] == "hang":\n    time.sleep(600)\nsys.exit(7)',
                           prelude='open(sys.argv[1], "a").write(f"{os.getpid()}\\n")')


def test_two_player_fit_is_the_closed_form() -> None:
    """With two players the maximum is r_a - r_b = 400 log10(w_a / w_b)."""
    ratings = fit_ratings(np.array([[0, 30], [10, 0]]), prior=0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert ratings.mean() == pytest.approx(MEAN_RATING)


def test_fit_is_the_maximum_of_the_likelihood() -> None:
    """Four players, uneven games: the fit equals a direct (scipy) maximisation of the
    Bradley–Terry log-likelihood sum w_ij log sigmoid(t_i - t_j)."""
    rng = np.random.default_rng(4)
    wins = rng.integers(1, 40, size=(4, 4)).astype(float)
    np.fill_diagonal(wins, 0)

    def minus_log_likelihood(t: np.ndarray) -> float:
        d = t[:, None] - t[None, :]
        return float((wins * np.logaddexp(0, -d)).sum())

    best = minimize(minus_log_likelihood, np.zeros(4), method="BFGS", tol=1e-12).x
    expected = MEAN_RATING + ELO * (best - best.mean())
    assert fit_ratings(wins, prior=0) == pytest.approx(expected, abs=1e-3)
    # the prior: half a win each way is the same maximum with those wins added
    assert fit_ratings(wins) == pytest.approx(fit_ratings(wins + 0.5 * (wins > 0), 0),
                                               abs=1e-6)


def test_bootstrap_covers_the_truth() -> None:
    """Decks drawn from known ratings: each 95% interval holds its true rating."""
    truth = np.array([0.0, 100.0, 250.0])
    rng = np.random.default_rng(7)
    decks = 400
    per_deck = np.zeros((decks, 3, 3), dtype=np.int32)
    for i in range(3):
        for j in range(i + 1, 3):
            p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
            won = rng.random((decks, 2)) < p
            per_deck[:, i, j] = won.sum(1)
            per_deck[:, j, i] = 2 - won.sum(1)
    boot = bootstrap_ratings(per_deck, 300, seed=1)
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    true = truth - truth.mean() + MEAN_RATING
    assert ((low <= true) & (true <= high)).all()


def test_duplicate_deals_are_the_game_kernels_games(tmp_path: Path) -> None:
    """Every deck is played in both seatings, and each game is that game of
    ``ginsim games`` (game_records) with the players in those seats."""
    plan = TournamentPlan.make(["simple", "random", "memory2"], 6, seed=5, chunk_decks=2)
    run = run_tournament_games(plan, tmp_path / "t", n_jobs=2)
    assert run.pairs == [("random", "simple"), ("memory2", "simple"), ("memory2", "random")]
    for (a, b), rows in zip(run.pairs, run.games, strict=True):
        assert sorted(zip(rows["deck"], rows["seating"], strict=True)) == [
            (d, s) for d in range(3) for s in (0, 1)]
        for seating, (x, y) in enumerate(((a, b), (b, a))):
            mine = rows[rows["seating"] == seating]
            ref = game_records(x, y, 3, seed=5)
            won_by_x = mine["winner"] == seating  # winner is in the pair's terms
            assert (won_by_x == (ref["winner"] == 0)).all()
            score_x = mine["score_a"] if seating == 0 else mine["score_b"]
            assert (score_x == ref["score_a"]).all() and (mine["hands"] == ref["hands"]).all()


def test_resume_after_an_interruption_gives_the_same_bytes(tmp_path: Path) -> None:
    players = ["simple", "random", "memory2"]
    whole = run_tournament(players, 8, seed=2, out=tmp_path / "whole", chunk_decks=1,
                           n_jobs=1)

    class Stop(Exception):
        pass

    def stop_after_two(chunk) -> None:
        stop_after_two.seen += 1
        if stop_after_two.seen == 2:
            raise Stop

    stop_after_two.seen = 0
    out = tmp_path / "cut"
    with pytest.raises(Stop):
        run_tournament(players, 8, seed=2, out=out, chunk_decks=1, n_jobs=1,
                       on_chunk=stop_after_two)
    # what a kill -9 leaves: a half-written chunk, a manifest temporary, a chunk written
    # but not yet recorded in the manifest
    chunks = out / "chunks"
    (chunks / ".p000-c000000.parquet.123.tmp").write_bytes(b"half")
    (out / ".manifest.json.123.tmp").write_text("{")
    plan = TournamentPlan.make(players, 8, seed=2, chunk_decks=1)
    unrecorded = pair_chunks(plan, "memory2", "random")[3]
    (chunks / f"{unrecorded.name}.parquet").write_bytes(b"not recorded")
    resumed = run_tournament(players, 8, seed=2, out=out, chunk_decks=1, n_jobs=2)
    assert resumed.run.chunks_resumed == 2 and resumed.run.chunks_played == 10
    assert resumed.json_text() == whole.json_text()
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    again = run_tournament(players, 8, seed=2, out=out, chunk_decks=1)
    assert again.run.chunks_played == 0 and again.json_text() == whole.json_text()


def test_a_new_player_plays_only_the_new_pairs(tmp_path: Path) -> None:
    out = tmp_path / "t"
    first = run_tournament(["simple", "random"], 4, seed=1, out=out, chunk_decks=1)
    assert first.run.chunks_played == 2
    grown = run_tournament(["random", "memory2", "simple"], 4, seed=1, out=out,
                           chunk_decks=1)
    assert grown.run.chunks_resumed == 2 and grown.run.chunks_played == 4
    old = first.pairs.iloc[0]
    new = grown.pairs.set_index(["a", "b"]).loc[("random", "simple")]
    assert new["rate_a"] == pytest.approx(1 - old["rate_a"]) and new["games"] == old["games"] == 4
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["players"] == ["simple", "random", "memory2"]


def cli(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("args, words", [
    (["simple", "simple"], "named twice"),
    (["simple", "nosuch"], "unknown strategy 'nosuch'"),
    (["simple"], "at least 2 players"),
    (["simple", "random", "--games", "0"], "at least 1"),
    (["simple", "random", "--games", "3"], "must be even"),
    (["simple", "exec:"], "exec: needs a command"),
    (["simple", "exec:python x.py", "--system", "hollywood"], "standard games only"),
])
def test_bad_input_is_one_line(args: list[str], words: str, tmp_path: Path,
                               capsys) -> None:
    code, out, err = cli(["tournament", *args, "--out", str(tmp_path / "t")], capsys)
    assert code == 2 and words in err and err.count("\n") == 1 and out == ""
    assert not (tmp_path / "t").exists()


def test_another_tournament_in_out_is_refused(tmp_path: Path, capsys) -> None:
    out = str(tmp_path / "t")
    assert cli(["tournament", "simple", "random", "--games", "2", "--out", out], capsys)[0] == 0
    before = (tmp_path / "t" / "manifest.json").read_bytes()
    for extra, words in ((["--seed", "5"], "its seed is"), (["--games", "4"], "its games is 2"),
                         (["--rules", "oklahoma"], "its rules.oklahoma is False")):
        code, _, err = cli(["tournament", "simple", "random", "--games", "2", "--out", out,
                            *extra], capsys)
        assert code == 2 and words in err and err.count("\n") == 1, err
    assert (tmp_path / "t" / "manifest.json").read_bytes() == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    code, _, err = cli(["tournament", "simple", "random", "--games", "2", "--out",
                        str(other)], capsys)
    assert code == 2 and "holds no tournament" in err


def test_the_command_writes_json_and_page(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t"
    code, text, _ = cli(["tournament", "simple", "random", "memory2", "--games", "4",
                         "--seed", "3", "--out", str(out), "--json"], capsys)
    assert code == 0
    data = json.loads(text)
    assert data == json.loads((out / "tournament.json").read_text())
    assert [set(r) >= {"player", "rating", "ci"} for r in data["ratings"]] == [True] * 3
    assert all(set(p) >= {"a", "b", "games", "rate_a", "ci"} for p in data["pairs"])
    assert [p["games"] for p in data["pairs"]] == [4, 4, 4]
    html = (out / "report" / "report.html").read_text()
    assert "Crosstable" in html and "data:image/png;base64" in html
    code, text, _ = cli(["tournament", "simple", "random", "memory2", "--games", "4",
                         "--seed", "3", "--out", str(out)], capsys)
    assert "ranking: " in text and "0 chunk(s) played, 3 read back" in text


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as f:  # a zombie nobody reaped is gone too
        return f.read().split(")")[-1].split()[0] == "Z"


@pytest.mark.parametrize("fault, words", [("crash", "crashed (exit code 7)"),
                                          ("hang", "answered late (nothing within 300 ms)")])
def test_a_failing_agent_forfeits_and_leaves_nothing(fault: str, words: str,
                                                     tmp_path: Path) -> None:
    script, pids = tmp_path / "faulty.py", tmp_path / "pids"
    script.write_text(FAULTY)
    agent = f"exec:{sys.executable} {script} {pids} {fault}"
    player = f"sleeper={agent}" if fault == "hang" else agent  # NAME=exec:... shows NAME
    result = tournament_tables(run_tournament_games(
        TournamentPlan.make(["simple", player, "random"], 4, seed=1, timeout_ms=300),
        tmp_path / "t", n_jobs=2), resamples=50)
    agent = "sleeper" if fault == "hang" else agent
    assert result.to_json()["tournament"]["commands"] == {agent: player.split("=", 1)[-1]}
    ratings = result.ratings.set_index("player")
    assert ratings.loc[agent, "forfeits"] == 8 and ratings.loc["simple", "forfeits"] == 0
    assert len(result.faults) == 8 and all(words in line for line in result.faults)
    assert all("\n" not in line for line in result.faults)
    pair = result.pairs.set_index(["a", "b"]).loc[("simple", agent)]
    assert pair["rate_a"] == 1 and pair["forfeits_b"] == 4 and pair["forfeits_a"] == 0
    assert ratings.loc["random", "games"] == 8  # the tournament went on
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 8 and all(_gone(p) for p in started)


def test_deck_interval_is_the_clustered_wilson_for_two_games_a_deck() -> None:
    """With two games a deck the deck-clustered Wilson interval is the one the paired
    hand statistics use (intervals.clustered_wilson, from its counts of deals)."""
    from ginsim.analysis.intervals import clustered_wilson
    from ginsim.analysis.ratings.tournament_results import deck_wilson

    rng = np.random.default_rng(3)
    wins = rng.choice([0, 1, 2], size=60, p=[0.3, 0.3, 0.4])
    rate, low, high = deck_wilson(wins, np.full(60, 2))
    ref_low, ref_high, _ = clustered_wilson(wins.sum(), 120, tuple(
        np.array((wins == k).sum()) for k in (0, 1, 2)))
    assert rate == wins.sum() / 120
    assert (low, high) == pytest.approx((float(ref_low), float(ref_high)), abs=1e-12)
