"""Compile the numba kernels the test suite uses, once, before its workers start.

A cold test run is mostly numba compiling. With pytest-xdist every worker compiles the
kernels its test files need, and two workers that need the same kernel at the same time
both compile it (numba writes its cache only when a compile ends). This script hands
the suite's kernel groups to :func:`ginsim.runner.kernels.compiling.compile_groups`,
which compiles the cold ones once, independent groups in worker processes, so the test
workers load them from numba's cache. tests/conftest.py runs it before a whole-suite run.

The groups are the commands' own (:data:`ginsim.runner.kernels.warmup.KERNEL_GROUPS`,
Rami's :data:`ginsim.rami.play.runner.RAMI_KERNEL_GROUPS`) plus :data:`SUITE_GROUPS`,
the kernels only tests call directly. When every group is cached the script does
nothing and prints nothing (a second or two); a group that fails is reported with its
traceback and the script exits 1.

    python scripts/warm_kernels.py              # every cold group
    python scripts/warm_kernels.py --jobs 1     # in one process
    python scripts/warm_kernels.py --list       # the groups and whether each is cached
    python scripts/warm_kernels.py --group policy --group "rami deals"   # these only
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

import numpy as np

from ginsim.game.rules import Rules
from ginsim.rami.play.runner import RAMI_KERNEL_GROUPS
from ginsim.runner.kernels.compiling import (
    JOBS_SETTING,
    KernelGroup,
    cold_groups,
    compile_groups,
)
from ginsim.runner.kernels.warmup import KERNEL_GROUPS, MAHJONG, for_rules, table_group

MC = "mc:rollouts=2,particles=8,stages=1"


def _mc_chart(rules: Rules) -> None:
    """The mc player's knock chart (its hand loop and games are the commands' groups)."""
    from ginsim.simulator.branches.knock_branches import knock_decisions

    knock_decisions(MC, "simple", hands=2, rules=rules)


def _game_systems(rules: Rules) -> None:
    """Hollywood and multimatch games and play from given decks."""
    from ginsim.simulator.play.engine import play_decks
    from ginsim.simulator.play.game_records import play_hollywood, play_multimatch

    play_hollywood(games=1, seed=0, rules=rules)
    play_multimatch(games=1, seed=0, rules=rules, match_total=100)
    play_decks("simple", "simple", np.arange(52, dtype=np.int64)[None, :], [0], rules=rules)


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


def _kernels(*names: str) -> tuple:
    from importlib import import_module

    return tuple(getattr(import_module(f"ginsim.{name.rsplit('.', 1)[0]}"),
                         name.rsplit(".", 1)[1]) for name in names)


def _suite_group(name: str, kernels: Sequence[str], compile_call) -> KernelGroup:
    return KernelGroup(name, _kernels(*kernels), compile_call,
                       recipe=("warm_kernels:SUITE_GROUPS", (name,)))


#: The kernels only tests call directly, or with arguments no command uses.
SUITE_GROUPS: dict[str, KernelGroup] = {group.name: group for group in (
    _suite_group("mc knock chart", ["simulator.branches.mc_chart_nb.mc_knock_chart_nb"],
                 _mc_chart),
    _suite_group("game systems and decks", ["simulator.play.hand_nb.play_decks_nb"],
                 _game_systems),
    _suite_group("phases", ["simulator.play.drive_nb.drive_nb"], _phases),
    _suite_group("policy", ["strategies.policy_nb.choose_discard_nb",
                            "strategies.policy_nb.pile_decision_nb"], _policy),
)}


def gin_groups() -> list[KernelGroup]:
    """Every gin group the suite needs under modern rules (and the hand loop and games
    under Mahjong gin's)."""
    modern = Rules()
    groups = [for_rules(g, modern) for g in KERNEL_GROUPS.values()]
    groups += [for_rules(KERNEL_GROUPS[n], MAHJONG) for n in ("hand loop", "whole games")]
    groups += [table_group("simple"), table_group(MC), *SUITE_GROUPS.values()]
    return groups


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, help="worker processes (default: one per "
                        "idle core; 1: compile in this process)")
    parser.add_argument("--group", action="append", help="only this group (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the groups and exit")
    parser.add_argument("--force", action="store_true",
                        help="run the groups even when cached (a check of the calls)")
    args = parser.parse_args(argv)
    if args.jobs is not None:
        os.environ[JOBS_SETTING] = str(max(1, args.jobs))
    runs = [(gin_groups(), Rules()), (list(RAMI_KERNEL_GROUPS.values()), None)]
    names = [g.name for groups, _ in runs for g in groups]
    unknown = [name for name in args.group or () if name not in names]
    if unknown:
        raise SystemExit(f"unknown kernel group {unknown[0]!r}; groups: {', '.join(names)}")
    runs = [([g for g in groups if not args.group or g.name in args.group], rules)
            for groups, rules in runs]
    if args.list:
        cold = {g.name for groups, _ in runs for g in cold_groups(groups)}
        print("\n".join(f"{g.name}: {'cold' if g.name in cold else 'cached'}"
                        for groups, _ in runs for g in groups))
        return 0
    try:
        for groups, rules in runs:
            if args.force:
                for group in groups:
                    group.compile(rules)
            else:
                compile_groups(groups, rules)
    except Exception:  # noqa: BLE001 (reported; the suite's conftest fails the run)
        print(f"warm_kernels: FAILED:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
