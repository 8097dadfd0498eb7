"""How well the mc player's belief reads the opponent's hidden cards, by opponent and
belief setting: a low-noise measure of what limits the search player.

    python scripts/belief_accuracy.py --hands 80 --opponents simple memory2 expert
    python scripts/belief_accuracy.py --variant stages=14,moves=6 --variant wait=0.05
    python scripts/belief_accuracy.py --variant carry=0

Positions are seat a's decisions in hands of ``--player`` against each opponent
(``ginsim.positions``), every one with at most ``--max-stock`` cards left in the stock
(several of the opponent's choices seen). At each, the belief of the ``mc`` preset (its
models, prior, particles, stages, moves, temperature and wait, with a ``--variant``'s
changes) is sampled from the public history, and scored by the share of the opponent's
hidden cards (the unseen ones it holds) that a particle drawn by weight holds: 1 is a
perfect read, and guessing uniformly among the unseen cards scores ``hidden / unseen``
(printed as ``uniform``). The preset carries its belief from decision to decision
through each hand (every decision updates it, the late ones are scored); ``carry=0``
samples afresh at each scored position. Intervals are normal 95% over positions; each variant reads
the same positions, so the paired difference to the first (the preset) is given too.
One core; prints figures only.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import ginsim
from ginsim.game.cards import cards_to_mask, parse_cards
from ginsim.game.inputs.specs import spec_items
from ginsim.game.rules import Rules
from ginsim.simulator.belief.posterior import BeliefTracker, sample_beliefs
from ginsim.simulator.machine.history_replay import parse_history
from ginsim.strategies.params import PARAMETERS
from ginsim.strategies.presets import PRESETS

BELIEF_KEYS = ("particles", "stages", "moves", "temperature", "wait")
MODEL_KEYS = ("model", "model2", "model3", "model4")


def preset_belief() -> dict:
    """The ``mc`` preset's belief: its models and prior, and its particles, stages,
    moves, temperature and wait (the parameters' defaults where the preset sets none)."""
    items = {key: value for _, key, value in spec_items(PRESETS["mc"][1])}
    out = {k: float(items.get(k, PARAMETERS[k].default[0])) for k in BELIEF_KEYS}
    models = [items[k].replace(";", ",") for k in MODEL_KEYS if k in items]
    prior = [float(w) for w in items.get("prior", "1").split("/")][:len(models)]
    carry = float(items.get("carry", PARAMETERS["carry"].default[0])) != 0
    return dict(out, model=models, prior=prior, carry=carry)


def belief_settings(variant: str) -> dict:
    """The preset's belief with ``variant``'s changes (``stages=14,wait=0.05``;
    ``prior=0/1/0/0`` drops the models of weight 0)."""
    settings = preset_belief()
    for item in filter(None, variant.split(",")):
        key, _, value = item.partition("=")
        if key == "prior":
            settings["prior"] = [float(w) for w in value.split("/")]
        elif key == "carry":
            settings["carry"] = value not in ("0", "false", "no")
        elif key in BELIEF_KEYS:
            settings[key] = float(value)
        else:
            raise SystemExit(f"unknown belief setting {key!r}: use prior, carry or "
                             f"{', '.join(BELIEF_KEYS)}")
    keep = [i for i, w in enumerate(settings["prior"]) if w > 0]
    settings["model"] = [settings["model"][i] for i in keep]
    settings["prior"] = [settings["prior"][i] for i in keep]
    for key in ("particles", "stages", "moves"):
        settings[key] = int(settings[key])
    return settings


def positions(player: str, opponent: str, hands: int, seed: int):
    """Seat a's decisions in ``hands`` hands, in the order played."""
    return ginsim.positions(player, opponent, hands, seed=seed)


def read_scores(table, settings: dict, rules: Rules, max_stock: int,
                carry: bool = False) -> tuple[np.ndarray, np.ndarray, int]:
    """Per position with at most ``max_stock`` cards left: the belief's share of hidden
    cards read right, and the uniform one; and how many beliefs were made. With
    ``carry`` the belief is carried through each hand from decision to decision
    (``BeliefTracker``, as the mc player does), so every decision of the hand updates
    it; else each scored position samples afresh."""
    scores, uniform = [], []
    tracker, hand, made = None, None, 0
    for i, r in enumerate(table.itertuples()):
        if r.stock_left > max_stock and not carry:
            continue
        mine = cards_to_mask(parse_cards(r.cards) + parse_cards(r.drawn))
        history = parse_history(r.history)
        made += 1
        if carry:
            if r.hand != hand:
                tracker, hand = BeliefTracker(rules=rules, seed=i, **settings), r.hand
            b = tracker.update(history, mine)
        else:
            b = sample_beliefs(history, mine, rules=rules, seed=i, **settings)
        truth = cards_to_mask(parse_cards(r.opponent_hand)) & b.unseen
        hidden = bin(truth).count("1")
        if hidden == 0 or r.stock_left > max_stock:
            continue
        held = np.array([bin(int(h) & truth).count("1") for h in b.hands], dtype=float)
        scores.append(float(np.dot(b.weights, held)) / hidden)
        uniform.append(hidden / bin(b.unseen).count("1"))
    return np.array(scores), np.array(uniform), made


def interval(x: np.ndarray) -> str:
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return f"{x.mean():.3f} [{x.mean() - half:.3f}, {x.mean() + half:.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", default=[],
                        help="belief settings changed from the mc preset's, e.g. "
                             "stages=14,moves=6 or prior=0/1/0/0 (repeatable)")
    parser.add_argument("--opponents", nargs="+",
                        default=["simple", "memory2", "expert", "memory2:knock=0"])
    parser.add_argument("--player", default="memory2")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--max-stock", type=int, default=22)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    rules = Rules()
    variants = ["", *args.variant]
    for opponent in args.opponents:
        table = positions(args.player, opponent, args.hands, args.seed)
        first = None
        for variant in variants:
            t = time.perf_counter()
            settings = belief_settings(variant)
            carry = settings.pop("carry")
            scores, uniform, made = read_scores(table, settings, rules, args.max_stock, carry)
            ms = 1000 * (time.perf_counter() - t) / max(made, 1)
            name = variant or "the mc preset"
            line = (f"{opponent:16s} {name:28s} read {interval(scores)}  uniform "
                    f"{uniform.mean():.3f}  n={len(scores)}  {ms:.0f} ms/belief")
            if first is None:
                first = scores
            else:
                line += f"  minus preset {interval(scores - first)}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
