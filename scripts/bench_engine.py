"""Engine speed figures, optionally against an earlier revision measured in the same run.

    python scripts/bench_engine.py                      # this checkout
    python scripts/bench_engine.py --baseline 9882255   # and that revision, side by side

Every figure comes from a fresh child process. With ``--baseline REV`` the revision is
checked out into a temporary git worktree and its children run with ``PYTHONPATH``
pointing there; children of both revisions alternate, round after round, and each figure
is the best over the rounds, so both see the same machine and the same load. Figures:

- simple vs simple, memory2 vs memory2, expert vs expert and learned vs learned, per-hand
  records kept, one core (hands/s);
- the knock chart: decision points per second (both branches scored, the hands around
  them played);
- advisor rollouts: seconds for 10,000 rollouts per option of a mid-hand position;
- the mc player against memory2 (hands/s, one core), one belief model and memory2
  rollouts so that revisions whose mc preset differs do the same search;
- ``ginsim.simulate(..., n_jobs=1)`` (the DataFrame path) against the raw kernel rate
  (this checkout only);
- the first call compiling from an empty numba cache, and loading from the cache;
- ``min_deadwood`` on random 10- and 11-card hands (ns per call).

Prints figures only; the targets (issue 10) are checked by reading them, not by tests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
POSITION = dict(hand="AS 2S 3S 7H 7D 8C 9C TC 4D KD", drawn="QH", pile="5H 8S 2C 6D",
                opponent_took="6H", opponent_passed="8S", stock_left=17)
FIRST_CALL = ("import time; t = time.perf_counter(); "
              "from ginsim.simulator.play.engine import play_records; play_records(stop=10); "
              "print(time.perf_counter() - t)")
#: Module paths before the simulator was split by idea (revisions before the split).
OLD_PATHS = {"ginsim.simulator.play.engine": "ginsim.simulator.engine",
             "ginsim.simulator.branches.knock_branches": "ginsim.simulator.chart",
             "ginsim.simulator.branches.advisor": "ginsim.simulator.advise",
             "ginsim.game.card_tables": "ginsim.game.tables"}


def _module(name: str):
    """A module by its path now, or by its path in a revision before the split."""
    from importlib import import_module

    try:
        return import_module(name)
    except ModuleNotFoundError:
        return import_module(OLD_PATHS[name])


def _rate(key: str) -> bool:
    """Whether a figure is a rate (higher is better) rather than a time."""
    return " vs " in key


def _best_rate(fn, count: int, repeats: int = 3) -> float:
    fn(min(count, 100))
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        fn(count)
        best = max(best, count / (time.perf_counter() - t))
    return best


def child(hands: int, what: str) -> dict:
    """One revision's figures (runs in a fresh interpreter; old and new APIs alike)."""
    play_records = _module("ginsim.simulator.play.engine").play_records

    out: dict[str, float] = {}
    if what in ("all", "hands"):
        for a, b, n in (("simple", "simple", hands), ("memory2", "memory2", hands // 3),
                        ("expert", "expert", hands // 4), ("learned", "learned", hands // 4)):
            try:
                out[f"{a} vs {b}"] = _best_rate(
                    lambda k, a=a, b=b: play_records(a, b, stop=k, seed=1), n)
            except ValueError:  # a revision without this preset
                continue
    if what in ("all", "mc"):
        # One belief model and memory2 rollouts: the same search on a revision whose mc
        # preset mixes several models and on one that knows a single model (no prior).
        common = "mc:rollouts=32,particles=32,stages=7,moves=3,rollout=memory2,model=memory2"
        for spec in (common + ",prior=1/0/0/0", common):
            try:
                out["mc vs memory2"] = _best_rate(
                    lambda k, spec=spec: play_records(spec, "memory2", stop=k, seed=1),
                    max(hands // 3000, 40))
                break
            except ValueError:  # a revision without the prior parameter
                continue
    if what in ("all", "chart"):
        knock_decisions = _module("ginsim.simulator.branches.knock_branches").knock_decisions
        n = max(hands // 5, 1000)
        knock_decisions("simple", "simple", hands=10)
        best = 0.0
        for _ in range(5):
            t = time.perf_counter()
            rows = knock_decisions("simple", "simple", hands=n, seed=3)
            best = max(best, len(rows) / (time.perf_counter() - t))
        out["knock chart: decision points vs s"] = best
    if what in ("all", "advise"):
        from ginsim.game.rules import Rules
        advisor = _module("ginsim.simulator.branches.advisor")
        make_position, run_rollouts = advisor.make_position, advisor.run_rollouts
        position = make_position(**POSITION)
        run_rollouts(position, "simple", "simple", Rules(), 20, 1)
        best = float("inf")
        for _ in range(7):  # a tenth of a second each: the best of more is steadier
            t = time.perf_counter()
            run_rollouts(position, "simple", "simple", Rules(), 10_000, 1)
            best = min(best, time.perf_counter() - t)
        out["advisor s/10k rollouts"] = best
    return out


def dataframe_rate(hands: int) -> tuple[float, float]:
    """(raw kernel hands/s, ginsim.simulate DataFrame hands/s), one core."""
    import ginsim
    from ginsim.simulator.play.engine import play_records

    raw = _best_rate(lambda k: play_records("simple", "simple", stop=k, seed=1), hands)
    frame = _best_rate(lambda k: ginsim.simulate("simple", "simple", hands=k, seed=1,
                                                 n_jobs=1), hands)
    return raw, frame


def min_deadwood_ns(size: int, count: int = 1_000_000) -> float:
    import numpy as np

    from ginsim.game._jit import jit
    from ginsim.game.card_tables import card_tables
    from ginsim.game.melds_nb import WORK_SIZE, min_deadwood_nb

    @jit
    def loop(hands, tab, work):
        total = 0
        for h in hands:
            total += min_deadwood_nb(h, tab, work)
        return total

    rng = np.random.default_rng(size)
    cards = np.argsort(rng.random((count, 52)), axis=1)[:, :size]
    hands = (np.int64(1) << cards.astype(np.int64)).sum(axis=1)
    tab, work = card_tables(), np.zeros(WORK_SIZE, dtype=np.int64)
    loop(hands[:10], tab, work)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        loop(hands, tab, work)
        best = min(best, time.perf_counter() - t)
    return best / count * 1e9


def run_child(pythonpath: str | None, hands: int, what: str, cache: str | None = None) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    cmd = [sys.executable, __file__, "--child", what, "--hands", str(hands)]
    done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def first_call_seconds(pythonpath: str | None, cache_dir: str | None) -> float:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    code = FIRST_CALL
    if pythonpath and not (Path(pythonpath) / "ginsim" / "simulator" / "play").is_dir():
        code = code.replace("ginsim.simulator.play.engine", OLD_PATHS[
            "ginsim.simulator.play.engine"])
    # Run from the cache folder or the revision's root: ``python -c`` puts the working
    # folder first on the path, which would import this checkout instead of the revision.
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True, cwd=cache_dir or pythonpath).stdout
    return float(out.strip().splitlines()[-1])


def checkout(rev: str, where: str) -> str:
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", where, rev],
                   check=True, capture_output=True)
    return where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=600_000,
                        help="hands for the simple-vs-simple figure (others scale from it)")
    parser.add_argument("--baseline", metavar="REV", help="also measure this git revision")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds per revision (best figure kept)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.hands, args.child)))
        return
    revisions: dict[str, str | None] = {"this checkout": None}
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            revisions = {args.baseline: checkout(args.baseline, f"{tmp}/base"), **revisions}
        try:
            best: dict[str, dict[str, float]] = {name: {} for name in revisions}
            for _ in range(args.rounds):
                for name, path in revisions.items():
                    for key, value in run_child(path, args.hands, "all").items():
                        old = best[name].get(key)
                        if old is None or (value > old if _rate(key) else value < old):
                            best[name][key] = value
            print(f"{'figure':34s}" + "".join(f"{n:>16s}" for n in revisions)
                  + ("       ratio" if args.baseline else ""))
            for key in best["this checkout"]:
                row = f"{key:34s}"
                values = [best[n].get(key, float("nan")) for n in revisions]
                for v in values:
                    row += f"{v:16,.2f}" if v < 1000 else f"{v:16,.0f}"
                if args.baseline:
                    ratio = values[1] / values[0] if _rate(key) else values[0] / values[1]
                    row += f"{ratio:11.2f}x"
                print(row)
            for name, path in revisions.items():
                with tempfile.TemporaryDirectory() as empty:
                    cold = first_call_seconds(path, empty)
                warm = first_call_seconds(path, None)
                print(f"{name}: first call compiling from an empty cache {cold:.1f} s; "
                      f"from the cache {warm:.2f} s")
        finally:
            if args.baseline:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                                f"{tmp}/base"], capture_output=True)
    raw, frame = dataframe_rate(args.hands)
    print(f"ginsim.simulate(n_jobs=1) DataFrame path: {frame:,.0f} hands/s against the raw "
          f"kernel's {raw:,.0f} ({frame / raw:.0%})")
    for size in (10, 11):
        print(f"min_deadwood on random {size}-card hands: {min_deadwood_ns(size):.1f} ns/call")


if __name__ == "__main__":
    main()
