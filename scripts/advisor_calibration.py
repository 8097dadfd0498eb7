"""Calibrate the advisor's beliefs against the simulator's hidden truth.

Plays memory2 against memory2 (:func:`ginsim.positions`; ``--opponent`` changes seat b,
the model stays memory2, so a mismatched model can be measured), keeps seat a's
decisions with 12-20 cards left in the stock, and for each compares two ways of sampling the
opponent's hand: the shorthand advisor's near-uniform sampling (``--dealt``), its
default since issue 60 (the opponent's hand kept over its draws so far: ``kept``) and
the posterior given the public history. Prints, for each: the bias and mean absolute
error of the expected opponent deadwood, and the calibration by deciles with Brier
scores of P(undercut | knock now) (the knock with the best discard, where legal; the
truth is the real opponent hand's answer) and P(opponent gins first) (after the move
seat a really made; the truth is how the hand ended). For the latter an oracle that
knows the opponent's hand (not the stock) shows how much any belief could win; the
distance of each sampler's prediction from the oracle's is a less noisy score than the
Brier against 0/1 outcomes. Differences and the bias carry 95% CIs clustered by hand.

    python scripts/advisor_calibration.py --hands 3000 --worlds 200 --out calibration.csv
    python scripts/advisor_calibration.py --hands 2000 --worlds 1000 --seed 1

With 200 worlds the Monte Carlo noise of each prediction (guesses and rollouts) is about
a quarter of the spread of P(opponent gins first) and adds to its Brier score; 1000
worlds (500 guesses, the advisor's cap) take it below a tenth.
    python scripts/advisor_calibration.py --opponent memory2:knock=0 --wait 0.2
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from ginsim.analysis.positions import positions
from ginsim.game.card_tables import card_tables
from ginsim.game.cards import cards_to_mask, parse_cards
from ginsim.game.history import parse_history
from ginsim.game.melds_nb import WORK_SIZE, best_discard_nb, min_deadwood_nb
from ginsim.game.rules import Rules
from ginsim.game.state import FULL_DECK
from ginsim.simulator.belief.sample_nb import TEMPERATURE, WAIT
from ginsim.simulator.branches.advisor import (
    Situation,
    make_position,
    opponent_draws,
    shorthand_situation,
    situation_rollouts,
)
from ginsim.simulator.branches.advisor_history import history_situation, pile_and_stocks
from ginsim.simulator.branches.advisor_nb import FLAG_OPPONENT_GIN, FLAG_UNDERCUT, OPT_DISCARD

SAMPLERS = ("uniform", "kept", "posterior")  # kept: the shorthand's opponent over its draws


def measure(row, rules: Rules, worlds: int, seed: int, tab, work, wait: float,
            temperature: float) -> dict:
    """Predictions of both samplers and the truth for one position."""
    hist = parse_history(row.history, rules)
    cards = parse_cards(row.cards)
    drawn = parse_cards(row.drawn)[0]
    hand11 = cards_to_mask(cards + [drawn])
    forbidden = drawn if row.drawn_from == "pile" else None
    fmask = 1 << drawn if forbidden is not None else 0
    kept, best, _, _ = best_discard_nb(hand11, fmask, 0, tab, work, False)
    options = []
    if kept <= rules.knock_limit:
        options.append((OPT_DISCARD, best, 1, kept))
    played = row.action in ("discard",)
    if played:
        card = parse_cards(row.discard)[0]
        options.append((OPT_DISCARD, card, 0, min_deadwood_nb(hand11 & ~(1 << card), tab,
                                                               work)))
    out = {"hand": row.hand, "stock_left": row.stock_left,
           "truth_deadwood": row.opponent_deadwood,
           "knock_possible": kept <= rules.knock_limit, "played": played,
           "truth_opp_gin": row.outcome in ("gin", "big_gin") and row.knocker == "b"}
    truth_opp = np.array([cards_to_mask(parse_cards(row.opponent_hand))], dtype=np.int64)
    position = make_position(
        row.cards, row.drawn, " ".join(parse_cards_text(hist.pile)),
        " ".join(parse_cards_text(list(_bits(hist.taken[1])))),
        " ".join(parse_cards_text(list(_bits(hist.passed[1] & hist.pile_mask)))), hist.stock_left,
        row.drawn_from)
    uniform = shorthand_situation(position, worlds, seed, rules)
    kept_over_draws = shorthand_situation(position, worlds, seed, rules,
                                          opponent_draws(position))
    posterior = history_situation(row.history, row.cards, row.drawn, row.drawn_from, rules,
                                  "memory2", worlds, seed, temperature, wait=wait)
    out["ess"] = posterior.ess
    for name, sit in (("uniform", uniform), ("kept", kept_over_draws),
                      ("posterior", posterior)):
        out[f"{name}_deadwood"] = float(np.mean([min_deadwood_nb(int(h), tab, work)
                                                 for h in sit.opp_hands]))
        if options:
            opts = np.array(options, dtype=np.int64)
            _, _, flags, _ = situation_rollouts(sit, "memory2", "memory2", rules, seed, opts)
            col = 0
            if kept <= rules.knock_limit:
                out[f"{name}_p_undercut"] = float((flags[:, 0] == FLAG_UNDERCUT).mean())
                col = 1
            if played:
                out[f"{name}_p_opp_gin"] = float((flags[:, col] == FLAG_OPPONENT_GIN).mean())
    if played:
        # The oracle knows the opponent's hand but not the stock: the best any belief
        # could do, so the room between uniform and the oracle is what a belief can win.
        opp = np.full(worlds, truth_opp[0], dtype=np.int64)
        unseen = FULL_DECK & ~cards_to_mask(posterior.hand) & ~cards_to_mask(posterior.pile)
        stocks, _ = pile_and_stocks(opp, unseen, posterior.stocks.shape[1],
                                     np.random.default_rng(seed))
        oracle = Situation(posterior.hand, posterior.forbidden, posterior.pile,
                           posterior.public, posterior.knock_limit, opp, stocks,
                           float(worlds), worlds)
        _, _, flags, _ = situation_rollouts(oracle, "memory2", "memory2", rules, seed,
                                         np.array(options[-1:], dtype=np.int64))
        out["oracle_p_opp_gin"] = float((flags[:, 0] == FLAG_OPPONENT_GIN).mean())
    if kept <= rules.knock_limit:
        truth = Situation(posterior.hand, posterior.forbidden, posterior.pile, posterior.public,
                          posterior.knock_limit, truth_opp, posterior.stocks[:1], 1.0, 1)
        _, _, flags, _ = situation_rollouts(truth, "memory2", "memory2", rules, seed,
                                         np.array(options[:1], dtype=np.int64))
        out["truth_undercut"] = bool(flags[0, 0] == FLAG_UNDERCUT)
    return out


def _bits(mask: int):
    return (c for c in range(52) if (mask >> c) & 1)


def parse_cards_text(cards) -> list[str]:
    from ginsim.game.cards import card_text
    return [card_text(int(c)) for c in cards]


def clustered_mean(values: pd.Series, cluster: pd.Series) -> tuple[float, float]:
    """Mean and 95% half-width, the standard error clustered (positions of a hand share
    its deal)."""
    mean = float(values.mean())
    sums = (values - mean).groupby(cluster.to_numpy()).sum()
    k = len(sums)
    se = float(np.sqrt((sums ** 2).sum() * k / max(k - 1, 1))) / len(values)
    return mean, 1.96 * se


def deciles(pred: pd.Series, truth: pd.Series) -> pd.DataFrame:
    """Mean prediction and observed rate by decile of the prediction."""
    frame = pd.DataFrame({"pred": pred.to_numpy(), "truth": truth.to_numpy().astype(float)})
    frame["bin"] = pd.qcut(frame.pred.rank(method="first"), 10, labels=False)
    table = frame.groupby("bin").agg(n=("pred", "size"), predicted=("pred", "mean"),
                                     observed=("truth", "mean"))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--low", type=int, default=12)
    parser.add_argument("--high", type=int, default=20)
    parser.add_argument("--out", default="")
    parser.add_argument("--opponent", default="memory2", help="seat b (the model: memory2)")
    parser.add_argument("--wait", type=float, default=WAIT,
                        help="the belief's chance that the opponent plays on where the "
                             "model would knock")
    parser.add_argument("--temperature", type=float, default=TEMPERATURE,
                        help="the belief's softening of the model, in deadwood points")
    args = parser.parse_args()
    rules = Rules()
    tab = card_tables(rules)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    start = time.time()
    pos = positions("memory2", args.opponent, args.hands, seed=args.seed)
    pos = pos[(pos.stock_left >= args.low) & (pos.stock_left <= args.high)]
    rows = [measure(r, rules, args.worlds, args.seed + i, tab, work, args.wait, args.temperature)
            for i, r in enumerate(pos.itertuples())]
    res = pd.DataFrame(rows)
    if args.out:
        res.to_csv(args.out, index=False)
    print(f"{len(res)} positions (stock {args.low}-{args.high}) from {args.hands} hands of "
          f"memory2 vs {args.opponent}, {args.worlds} worlds each, model memory2, wait "
          f"{args.wait:g}, temperature {args.temperature:g}, {time.time() - start:.0f} s")
    print(f"posterior ESS: median {res.ess.median():.0f}, below 10% of samples in "
          f"{(res.ess < 0.1 * args.worlds).mean():.1%} of positions")
    print("\nexpected opponent deadwood vs truth (mean truth "
          f"{res.truth_deadwood.mean():.1f})")
    print(f"{'sampling':<10} {'bias':>7} {'(95% CI)':>16} {'MAE':>7}")
    for name in SAMPLERS:
        err = res[f"{name}_deadwood"] - res.truth_deadwood
        mean, half = clustered_mean(err, res.hand)
        print(f"{name:<10} {mean:+7.2f} ({mean - half:+6.2f}..{mean + half:+6.2f}) "
              f"{err.abs().mean():7.2f}")
    for what, truth, mask in (("p_undercut", "truth_undercut", res.knock_possible),
                              ("p_opp_gin", "truth_opp_gin", res.played)):
        sub = res[mask]
        print(f"\n{what} ({len(sub)} positions; observed rate {sub[truth].mean():.3f})")
        for name in (*SAMPLERS, "oracle"):
            if f"{name}_{what}" not in sub:
                continue
            pred = sub[f"{name}_{what}"]
            brier = float(((pred - sub[truth].astype(float)) ** 2).mean())
            print(f"{name}: Brier {brier:.4f}")
            print(deciles(pred, sub[truth]).round(3).to_string())
        outcome = sub[truth].astype(float)
        diff = (sub[f"posterior_{what}"] - outcome) ** 2 - (sub[f"uniform_{what}"] - outcome) ** 2
        mean, half = clustered_mean(diff, sub.hand)
        print(f"posterior minus uniform, squared error: {mean:+.4f} (95% CI {mean - half:+.4f}.."
              f"{mean + half:+.4f}, clustered by hand)")
        if f"oracle_{what}" in sub:
            for name in SAMPLERS:
                mse = float(((sub[f"{name}_{what}"] - sub[f"oracle_{what}"]) ** 2).mean())
                print(f"{name}: mean squared distance from the oracle {mse:.5f}")


if __name__ == "__main__":
    main()
