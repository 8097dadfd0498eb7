"""Tune a strategy's parameters by coordinate search on paired duplicate deals.

    python scripts/tune_strategy.py --base expert --deals 20000 \
        --tune outs:0.5 outs_late:0.5 danger:1 knock.0:2 --rounds 3

Every candidate is played against each opponent on the same *train* deals (seed
``--train-seed``, duplicate: each deal twice with the seats swapped), so two candidates
differ by their play only. The objective is the mean over the opponents of the points a
hand the candidate gains. A coordinate (a parameter, or one slot ``name.i`` of a
multi-slot one) moves by its step up or down; a move is kept when it raises the
objective by more than ``--z`` standard errors of the paired difference; a coordinate
with no kept move halves its step. At the end the start and the best are measured on
fresh *test* deals (``--test-seed``) with 95% intervals. One core; prints figures only.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from ginsim.game.rules import Rules
from ginsim.runner.responses import TRAIN_REGION, cell_evidence
from ginsim.simulator.branches.best_response import MIN_CELL_POINTS, with_chart
from ginsim.simulator.play.engine import play_records
from ginsim.strategies.charts.knock_charts import SHAPE, KnockChart
from ginsim.strategies.params import PARAMETERS
from ginsim.strategies.presets import parse_strategy

Values = dict[str, list[float]]


def deal_gains(spec: str, opponent: str, deals: int, seed: int, rules: str) -> np.ndarray:
    """Points a hand ``spec`` gains on each duplicate deal (both seatings averaged)."""
    rec, _ = play_records(spec, opponent, stop=2 * deals, seed=seed, rules=rules,
                          duplicate=True)
    net = rec["points_a"].astype(np.float64) - rec["points_b"]
    return net.reshape(deals, 2).mean(axis=1)


def spec_of(base: str, values: Values) -> str:
    """The spec string of ``base`` with ``values`` as overrides."""
    items = [f"{name}={'/'.join(f'{v:g}' for v in slots)}" for name, slots in values.items()]
    if not items:
        return base
    return f"{base}{',' if ':' in base else ':'}{','.join(items)}"


def start_values(base: str, names: list[str]) -> Values:
    """The base preset's values of the tuned parameters."""
    vec = parse_strategy(base).vector
    return {n: [float(v) for v in vec[PARAMETERS[n].index:PARAMETERS[n].index
                                      + PARAMETERS[n].size]] for n in names}


def evaluate(spec: str, opponents: list[str], deals: int, seed: int, rules: str) -> np.ndarray:
    """Per-deal gain averaged over the opponents (the objective's sample)."""
    return np.mean([deal_gains(spec, o, deals, seed, rules) for o in opponents], axis=0)


def interval(x: np.ndarray) -> str:
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return f"{x.mean():+.3f} [{x.mean() - half:+.3f}, {x.mean() + half:+.3f}]"


def clipped(name: str, value: float) -> float:
    p = PARAMETERS[name]
    value = min(max(value, p.low), p.high)
    return float(round(value)) if p.integer else round(value, 4)


def coordinate_search(base: str, steps: dict[str, float], opponents: list[str], deals: int,
                      seed: int, rules: str, rounds: int, z: float) -> Values:
    """The coordinate search described in the module docstring; returns the best values."""
    names = sorted({key.split(".")[0] for key in steps})
    values = start_values(base, names)
    current = evaluate(spec_of(base, values), opponents, deals, seed, rules)
    print(f"start {spec_of(base, values)}: {interval(current)}", flush=True)
    for r in range(rounds):
        moved = False
        for key, step in list(steps.items()):
            name, _, slot = key.partition(".")
            i = int(slot) if slot else None
            for sign in (1, -1):
                trial = {n: list(v) for n, v in values.items()}
                slots = range(len(trial[name])) if i is None else [i]
                for j in slots:
                    trial[name][j] = clipped(name, trial[name][j] + sign * step)
                if trial == values:
                    continue
                sample = evaluate(spec_of(base, trial), opponents, deals, seed, rules)
                diff = sample - current
                se = diff.std(ddof=1) / np.sqrt(len(diff))
                keep = diff.mean() > z * se
                print(f"  round {r + 1} {key} {sign * step:+g}: {sample.mean():+.3f} "
                      f"(diff {diff.mean():+.3f} +- {se:.3f}){' kept' if keep else ''}",
                      flush=True)
                if keep:
                    values, current, moved = trial, sample, True
                    break
            else:
                steps[key] = step / 2
        print(f"after round {r + 1}: {spec_of(base, values)} {current.mean():+.3f}", flush=True)
        if not moved and r > 0:
            break
    return values


def mixture_response(base: str, opponents: list[str], rules: str, seed: int, hands: int,
                     passes: int, name: str) -> KnockChart:
    """The pure knock chart for ``base``'s card play that best answers the opponents
    together: policy iteration as
    :func:`ginsim.simulator.branches.best_response.best_response`, with
    each cell's knock-minus-wait evidence summed over the opponents (training deals from
    ``TRAIN_REGION``, apart from the evaluation deals)."""
    start = parse_strategy(base).vector
    grid = start[PARAMETERS["grid"].index:PARAMETERS["grid"].index + PARAMETERS["grid"].size]
    p = np.ones(SHAPE).reshape(-1) if grid.max() < 0 else np.round(grid)
    for k in range(passes):
        me = with_chart(base, KnockChart(p.reshape(SHAPE), name))
        evidence = sum(cell_evidence(me, parse_strategy(o), Rules.coerce(rules), seed,
                                     TRAIN_REGION, hands) for o in opponents)
        seen = evidence[0] >= MIN_CELL_POINTS * len(opponents)
        new = p.copy()
        new[seen] = (evidence[1][seen] > 0).astype(np.float64)
        print(f"  response pass {k + 1}: {int((new != p).sum())} cells changed", flush=True)
        if (new == p).all():
            break
        p = new
    return KnockChart(p.reshape(SHAPE), name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="expert")
    parser.add_argument("--respond", metavar="FILE",
                        help="instead of a search: write the knock chart that best answers "
                             "the opponents together with the base's card play to FILE (JSON)")
    parser.add_argument("--hands", type=int, default=100_000,
                        help="--respond: training hands per opponent and pass")
    parser.add_argument("--passes", type=int, default=3, help="--respond: policy passes")
    parser.add_argument("--tune", nargs="+", default=[],
                        help="coordinates with their first step: name:step or name.slot:step")
    parser.add_argument("--opponents", nargs="+",
                        default=["simple", "memory2:knock=0", "equilibrium"])
    parser.add_argument("--deals", type=int, default=20_000, help="train deals per opponent")
    parser.add_argument("--test-deals", type=int, default=20_000)
    parser.add_argument("--train-seed", type=int, default=101)
    parser.add_argument("--test-seed", type=int, default=202)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--z", type=float, default=1.0,
                        help="standard errors a move must gain to be kept")
    parser.add_argument("--rules", default="modern")
    args = parser.parse_args()
    if args.respond:
        t = time.perf_counter()
        chart = mixture_response(args.base, args.opponents, args.rules, args.train_seed,
                                 args.hands, args.passes, Path(args.respond).stem)
        print(f"response took {time.perf_counter() - t:.0f} s; wrote {chart.save(args.respond)}")
        spec = f"{args.base}{',' if ':' in args.base else ':'}chart={args.respond}"
        for s in (args.base, spec):
            for o in args.opponents:
                gains = deal_gains(s, o, args.test_deals, args.test_seed, args.rules)
                print(f"  {s} vs {o}: {interval(gains)}")
        return
    if not args.tune:
        parser.error("give --tune coordinates or --respond FILE")
    steps = {}
    for item in args.tune:
        key, _, step = item.partition(":")
        if key.split(".")[0] not in PARAMETERS or not step:
            parser.error(f"bad coordinate {item!r}: write name:step (e.g. outs:0.5)")
        steps[key] = float(step)
    t = time.perf_counter()
    best = coordinate_search(args.base, steps, args.opponents, args.deals, args.train_seed,
                             args.rules, args.rounds, args.z)
    print(f"search took {time.perf_counter() - t:.0f} s; best {spec_of(args.base, best)}")
    print(f"test deals ({args.test_deals:,} per opponent, seed {args.test_seed}):")
    for spec in (args.base, spec_of(args.base, best)):
        for o in args.opponents:
            print(f"  {spec} vs {o}: "
                  f"{interval(deal_gains(spec, o, args.test_deals, args.test_seed, args.rules))}")


if __name__ == "__main__":
    main()
