"""What the advisor's options cost (issues 59 and 60): ``score=`` and ``precision=``.

For typical positions (the issue's shorthand discard, and discards from simulated
expert-vs-simple hands with their history, early, middle and late in the hand) prints,
warm (each position advised once first; the fastest of 3 runs):

- ``advise`` and ``advise --score 85-30`` seconds and their ratio (target <= 1.2x);
- ``precision=1.5`` (every option's 95% interval within +-1.5 points): the rollouts it
  spent, its seconds and the widest half-interval reached (cap ``--max-rollouts``);

and the advisor's game table (expert against expert, 100,000 hands) made cold, read
warm from its cache file, and found in the process.

    python scripts/advise_cost.py
    python scripts/advise_cost.py --rollouts 2000 --positions 6 --max-rollouts 50000
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings

import numpy as np

from ginsim.analysis import game_stats
from ginsim.analysis.advise import advise
from ginsim.analysis.positions import positions
from ginsim.game.rules import Rules

ISSUE = ("AS 2S 3S 7H 7D 7C 9C TC 4D KD", "5H")


def timed(call, repeats: int = 1) -> tuple[object, float]:
    """The call's result and its fastest time over ``repeats`` runs (a busy machine's
    noise only ever adds)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        out = call()
        best = min(best, time.perf_counter() - start)
    return out, best


def sample_positions(count: int, seed: int) -> list[tuple[str, dict]]:
    """``count`` discard decisions of expert against simple, spread over the stock."""
    table = positions("expert", "simple", 40, seed=seed)
    table = table[table.action == "discard"].sort_values("stock_left", ascending=False,
                                                         kind="stable")
    picks = np.linspace(0, len(table) - 1, count).astype(int)
    out = []
    for row in table.iloc[picks].itertuples():
        out.append((f"history, stock {row.stock_left}",
                    dict(hand=row.cards, drawn=row.drawn, drawn_from=row.drawn_from,
                         history=row.history)))
    return out


def table_cost() -> None:
    """The game table: cold, warm from its cache file, warm in the process."""
    rules = Rules()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["GINSIM_CACHE_DIR"] = folder
        game_stats._ADVICE_TABLES.clear()
        _, cold = timed(lambda: game_stats.advice_game_table(rules))
        game_stats._ADVICE_TABLES.clear()
        _, from_file = timed(lambda: game_stats.advice_game_table(rules))
        _, in_process = timed(lambda: game_stats.advice_game_table(rules))
    print(f"game table (expert vs expert, modern, {game_stats.ADVICE_TABLE[2]:,} hands): "
          f"cold {cold:.2f} s, from its cache file {from_file:.3f} s, in the process "
          f"{in_process * 1e3:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--precision", type=float, default=1.5)
    parser.add_argument("--max-rollouts", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    table_cost()
    cases = [("issue 60 shorthand, stock 20", dict(hand=ISSUE[0], drawn=ISSUE[1],
                                                   stock_left=20))]
    cases += sample_positions(args.positions, args.seed)
    print(f"\n{'position':<30} {'advise s':>9} {'--score s':>10} {'ratio':>6} "
          f"{'score work ms':>14} {'precision rollouts':>19} {'s':>7} {'widest +-':>10}")
    ratios, works = [], []
    game = game_stats.advice_game_table(Rules())
    for name, kwargs in cases:
        advise(**kwargs, rollouts=200, seed=args.seed)  # warm
        _, plain = timed(lambda kw=kwargs: advise(**kw, rollouts=args.rollouts,
                                                  seed=args.seed), 3)
        _, scored = timed(lambda kw=kwargs: advise(**kw, rollouts=args.rollouts,
                                                   seed=args.seed, score=(85, 30)), 3)
        frame, spent = timed(lambda kw=kwargs: advise(**kw, rollouts=args.rollouts,
                                                      seed=args.seed,
                                                      precision=args.precision,
                                                      max_rollouts=args.max_rollouts))
        widest = float(((frame.high - frame.low) / 2).max())
        work = score_work(game, args.rollouts, len(frame))
        ratios.append(scored / plain)
        works.append((plain + work) / plain)
        print(f"{name:<30} {plain:9.2f} {scored:10.2f} {scored / plain:6.2f} "
              f"{work * 1e3:14.1f} {int(frame.rollouts.iloc[0]):19,d} {spent:7.2f} "
              f"{widest:10.2f}")
    print(f"\n--score / plain as timed: mean {np.mean(ratios):.2f}x, worst {max(ratios):.2f}x; "
          f"from the score's own work (timed alone, less noisy): mean {np.mean(works):.3f}x, "
          f"worst {max(works):.3f}x ({args.rollouts} rollouts; load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def score_work(game, rollouts: int, options: int) -> float:
    """Seconds of what ``score=`` adds to a table (each rollout valued by the game table
    and the intervals of the chances), fastest of 5, on outcomes of that shape."""
    from ginsim.simulator.branches.advisor_worlds import standard_errors

    rng = np.random.default_rng(0)
    net = rng.integers(-60, 60, (rollouts, options))
    points = np.abs(net)
    return timed(lambda: standard_errors(game.wins_after(85, 30, None, net, points)), 5)[1]


if __name__ == "__main__":
    main()
