"""Compile the numba kernels the test suite uses, once, before its workers start.

A cold test run is mostly numba compiling. With pytest-xdist every worker compiles the
kernels its test files need, and two workers that need the same kernel at the same time
both compile it (numba writes its cache only when a compile ends). This script compiles
them in separate processes over DISJOINT kernel groups (one process per core, at most
4, the largest groups first), so each kernel is compiled once and the workers load it
from numba's cache. tests/conftest.py runs it before a whole-suite run.

Each group calls the public entry points (or, for the kernels the tests call directly,
the kernel) with the argument types the tests use, at the smallest size. A group whose
top-level kernels are all in numba's cache index is skipped; when all are, the script
does nothing and prints nothing (a second or two). A group that fails is reported with
its traceback and the script exits 1.

    python scripts/warm_kernels.py              # every cold group, one process per core
    python scripts/warm_kernels.py --jobs 1     # in one process
    python scripts/warm_kernels.py --list       # the groups and whether each is cached
    python scripts/warm_kernels.py --group advise --group rami   # these groups only
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Sequence

import numpy as np

from ginsim.game.rules import Rules
from ginsim.runner.kernels.compiling import KernelGroup, is_compiled
from ginsim.runner.kernels.warmup import KERNEL_GROUPS, MAHJONG, for_rules, mahjong_rules

MC = "mc:rollouts=2,particles=8,stages=1"
HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"


def _mc_player(rules: Rules) -> None:
    """The mc hand loop, its games, its knock chart and an mc Agent at a Table."""
    from ginsim.simulator.branches.knock_branches import knock_decisions
    from ginsim.simulator.play.engine import play_records
    from ginsim.simulator.play.game_records import game_records

    play_records(MC, "simple", stop=2, rules=rules)
    game_records(MC, "simple", 1, 0, rules)
    knock_decisions(MC, "simple", hands=2, rules=rules)
    _table_hand(rules, (MC, "simple"))


def _plain_games(rules: Rules) -> None:
    """The plain hand loop, whole games (two, three and four players, hollywood,
    multimatch), the aggregate tables and play from given decks."""
    from ginsim.simulator.play.engine import play_decks
    from ginsim.simulator.play.game_records import (
        play_hollywood,
        play_multimatch,
        play_teams,
        play_three,
    )

    for name in ("hand loop", "whole games", "aggregate tables"):
        KERNEL_GROUPS[name].compile(rules)
    play_three(games=1, seed=0, rules=rules)
    play_teams(games=1, seed=0, rules=rules)
    play_hollywood(games=1, seed=0, rules=rules)
    play_multimatch(games=1, seed=0, rules=rules, match_total=100)
    play_decks("simple", "simple", np.arange(52, dtype=np.int64)[None, :], [0], rules=rules)


def _mahjong(rules: Rules) -> None:
    """Mahjong gin's hand loop and games, compiled apart from knocking gin's."""
    for name in ("hand loop", "whole games"):
        for_rules(KERNEL_GROUPS[name], MAHJONG).compile(rules)


def _advise(rules: Rules) -> None:
    """The advisor without and with a history (its posterior and option rollouts)."""
    import ginsim

    ginsim.advise(HAND, drawn="QC", rollouts=2, rules=rules)
    ginsim.advise(HAND, drawn="4D", history="dealer:op up:3H me:pass op:pass me:stock",
                  rollouts=2, rules=rules)


def _table(rules: Rules) -> None:
    """Hands played step by step: plain Agents at a Table, and the phase kernels."""
    _table_hand(rules, ("simple", "memory2"))
    _phases(rules)


def _table_hand(rules: Rules, specs: tuple[str, str]) -> None:
    from ginsim.table.agents import Agent, play_hand
    from ginsim.table.table import Table

    table = Table(rules, seed=0, hand=0, dealer=0)
    play_hand(table, [Agent.from_spec(spec, rules) for spec in specs])


def _phases(rules: Rules) -> None:
    """The machine stepped by a driver that stops at a phase, as tests/test_machine.py
    does."""
    from ginsim.game.card_tables import card_tables
    from ginsim.game.state import PH_DISCARD
    from ginsim.simulator.machine.buffers import new_board
    from ginsim.simulator.machine.deal_nb import seat_streams_nb, shuffle_deck_nb
    from ginsim.simulator.machine.records import TRACE_WIDTH
    from ginsim.simulator.machine.showdown_nb import showdown_nb
    from ginsim.simulator.play.drive_nb import TO_THE_END, drive_nb, start_hand_nb
    from ginsim.simulator.play.engine import seat_params

    board, rng = new_board(), np.zeros(3, dtype=np.uint64)
    hs = board.hs
    params, packed, tab = seat_params("simple", "simple"), rules.packed(), card_tables(rules)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    shuffle_deck_nb(hs, rng, np.uint64(0), 0)
    seat_streams_nb(rng, np.uint64(0), 0)
    start_hand_nb(board, 0, packed, no_trace, 0)
    drive_nb(board, np.int64(PH_DISCARD), 0, params, packed, tab, rng, no_trace)
    drive_nb(board, np.int64(TO_THE_END), -1, params, packed, tab, rng, no_trace)
    showdown_nb(board, packed, tab)


def _policy(rules: Rules) -> None:
    """The policy kernels tests/test_policy.py calls directly (on a board whose hand
    state is swapped in, as its ``on`` does)."""
    from ginsim.game.card_tables import card_tables
    from ginsim.game.state import HS_SIZE, ST_HAND
    from ginsim.simulator.machine.buffers import new_board
    from ginsim.strategies import parse_strategy
    from ginsim.strategies.policy_nb import choose_discard_nb, pile_decision_nb

    params = np.ascontiguousarray(np.stack([parse_strategy("simple").vector] * 2))
    st, packed, tab = np.zeros(HS_SIZE, dtype=np.int64), rules.packed(), card_tables(rules)
    st[ST_HAND] = (1 << 11) - 1
    board = new_board()._replace(hs=st)
    choose_discard_nb(params, 0, st[ST_HAND], 0, board, packed, tab, np.zeros(3, np.uint64))
    pile_decision_nb(params, 0, st[ST_HAND], 20, board, packed, tab, np.zeros(3, np.uint64))


def _rami(rules: Rules) -> None:
    """Greek Rami's deals (with a trace) and games (its own rules: ``rules`` unused)."""
    from ginsim.rami.play.engine import play_deal_records, play_game_records

    play_deal_records(["simple", "careful"], stop=1, trace_rows=400)
    play_game_records(["simple", "careful"], stop=1)


def _kernels(*names: str) -> tuple:
    from importlib import import_module

    return tuple(getattr(import_module(f"ginsim.{name.rsplit('.', 1)[0]}"),
                         name.rsplit(".", 1)[1]) for name in names)


def _with_mc_rows(sig: tuple) -> bool:
    """Whether a signature takes seat rows as the mc specialization does (a strided
    float64[:, :] view, see ginsim.simulator.play.hand_nb.hand_params)."""
    return any(getattr(t, "ndim", 0) == 2 and getattr(t, "layout", "") == "A"
               and str(getattr(t, "dtype", "")) == "float64" for t in sig)


def suite_groups() -> dict[str, KernelGroup]:
    """The suite's kernel groups, the largest (most compile time, cold) first."""
    from ginsim.simulator.branches.mc_chart_nb import mc_knock_chart_nb
    from ginsim.simulator.play.hand_nb import simulate_nb

    def plain(sig: tuple) -> bool:
        return not _with_mc_rows(sig) and not mahjong_rules(sig)

    groups = (
        KernelGroup("mc player", (simulate_nb, mc_knock_chart_nb), _mc_player, _with_mc_rows),
        KernelGroup("advise", _kernels("simulator.branches.advisor_nb.rollouts_nb",
                                       "simulator.branches.advisor_nb.option_rollouts_nb",
                                       "simulator.belief.sample_nb.smc_beliefs_nb"), _advise),
        KernelGroup("hand loop and games", (simulate_nb,) + _kernels(
            "simulator.play.games_nb.play_games_nb", "simulator.play.games_nb.play_three_nb",
            "simulator.play.games_nb.play_teams_nb", "simulator.play.hand_nb.play_decks_nb",
            "runner.aggregate_nb.accumulate_nb"), _plain_games, plain),
        KernelGroup("mahjong gin", (simulate_nb,) + _kernels(
            "simulator.play.games_nb.play_games_nb"), _mahjong, mahjong_rules),
        KERNEL_GROUPS["knock chart"],
        KernelGroup("table and phases", _kernels(
            "simulator.play.drive_nb.decide_take_nb", "simulator.play.drive_nb.decide_discard_nb",
            "simulator.machine.step_nb.checked_step_nb", "simulator.play.drive_nb.drive_nb"),
            _table),
        KernelGroup("rami", _kernels("rami.play.deal_nb.play_deals_nb",
                                     "rami.play.games_nb.play_rami_games_nb"), _rami),
        KernelGroup("policy", _kernels("strategies.policy_nb.choose_discard_nb",
                                       "strategies.policy_nb.pile_decision_nb"), _policy),
    )
    return {group.name: group for group in groups}


def cold_groups(names: Sequence[str] | None = None) -> list[str]:
    """The named groups (all when None) whose top-level kernels numba has not cached."""
    groups = suite_groups()
    names = list(groups) if not names else list(names)
    unknown = [name for name in names if name not in groups]
    if unknown:
        raise SystemExit(f"unknown kernel group {unknown[0]!r}; groups: {', '.join(groups)}")
    return [name for name in names
            if not all(is_compiled(k, groups[name].accepts) for k in groups[name].kernels)]


def compile_group(name: str) -> tuple[str, float, float]:
    """Compile one group in this process; (name, wall seconds, CPU seconds)."""
    wall, cpu = time.perf_counter(), time.process_time()
    suite_groups()[name].compile(Rules.coerce(None))
    return name, time.perf_counter() - wall, time.process_time() - cpu


def _guarded(name: str) -> tuple[str, float, float, str | None]:
    try:
        return (*compile_group(name), None)
    except BaseException:  # noqa: BLE001 (reported by the parent, which exits 1)
        return name, 0.0, 0.0, traceback.format_exc()


def warm(names: Sequence[str], jobs: int) -> int:
    """Compile the groups ``names`` in ``jobs`` processes; print a line per group; the
    exit status (1 when a group failed)."""
    start = time.perf_counter()
    print(f"warm_kernels: compiling {len(names)} kernel groups in {jobs} processes "
          f"(numba cache cold): {', '.join(names)}", file=sys.stderr, flush=True)
    failed = []
    if jobs == 1:
        results = map(_guarded, names)
    else:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap_unordered(_guarded, names)
    for name, wall, cpu, error in results:
        if error:
            failed.append(name)
            print(f"warm_kernels: group {name!r} FAILED:\n{error}", file=sys.stderr, flush=True)
        else:
            print(f"  {name}: {wall:.0f} s wall, {cpu:.0f} s CPU", file=sys.stderr, flush=True)
    if jobs != 1:
        pool.close()
        pool.join()
    print(f"warm_kernels: {time.perf_counter() - start:.0f} s"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""), file=sys.stderr, flush=True)
    return 1 if failed else 0


def default_jobs() -> int:
    """One process per core this process may use, at most 4 (pytest's --maxprocesses)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=default_jobs(),
                        help="processes (default: one per core, at most 4)")
    parser.add_argument("--group", action="append", help="only this group (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the groups and exit")
    parser.add_argument("--force", action="store_true",
                        help="run the groups even when cached (a check of the calls)")
    args = parser.parse_args(argv)
    cold = list(args.group or suite_groups()) if args.force else cold_groups(args.group)
    if args.list:
        for name in suite_groups():
            print(f"{name}: {'cold' if name in cold else 'cached'}")
        return 0
    if not cold:
        return 0
    return warm(cold, max(1, min(args.jobs, len(cold))))


if __name__ == "__main__":
    sys.exit(main())
