"""Gin's kernel groups: what each study and command compiles on its first run.

Each :class:`~ginsim.runner.kernels.compiling.KernelGroup` names the top-level kernels of one
part of gin rummy and the smallest call that compiles them; :func:`compile_kernels`
compiles those a report study or a command (``simulate``, ``games``, ``play``,
``match``, ``advise``, ``knock-chart``, ``equilibrium``) needs, saying so on a cold cache
(:func:`~ginsim.runner.kernels.compiling.compile_groups`) and nothing on a warm one. Each group
carries a recipe of plain values (its name here, or :func:`kernel_group`'s and
:func:`table_group`'s arguments) from which a spawned worker process rebuilds it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ...game.melds import best_melds
from ...game.rules import Rules
from ...game.scoring.game_equity import HandOutcomes, solve_game_table
from ...game.scoring.game_equity_nb import game_equity_nb
from ...simulator.belief.sample_nb import smc_beliefs_nb
from ...simulator.branches.advisor import (
    make_position,
    run_rollouts,
    shorthand_situation,
    situation_rollouts,
)
from ...simulator.branches.advisor_history import history_situation
from ...simulator.branches.advisor_nb import kept_hands_nb, option_rollouts_nb, rollouts_nb
from ...simulator.branches.chart_nb import knock_chart_nb
from ...simulator.branches.knock_branches import knock_decisions
from ...simulator.machine.deal_nb import deal_nb
from ...simulator.machine.showdown_nb import showdown_nb
from ...simulator.machine.step_nb import checked_step_nb, legal_nb
from ...simulator.play.drive_nb import decide_discard_nb, decide_take_nb
from ...simulator.play.engine import play_records
from ...simulator.play.game_records import game_records, play_teams, play_three
from ...simulator.play.games_nb import play_games_nb, play_teams_nb, play_three_nb
from ...simulator.play.hand_nb import simulate_nb
from ...simulator.search.mc_nb import mc_discard_choice_nb, mc_draw_choice_nb
from ...strategies.presets import parse_strategy
from ...table.referee import warm_agent
from ...table.table import Table
from ..aggregate import layout
from ..aggregate_nb import accumulate_nb
from .compiling import KernelGroup, compile_groups

PARAMS_ARG = 4  # simulate_nb's seat rows: C-contiguous plain, a strided view with mc
GAMES_PARAMS_ARG = 3  # play_games_nb's seat rows, likewise


def _params_layout(layout_code: str, arg: int = PARAMS_ARG) -> Callable[[tuple], bool]:
    return lambda sig: getattr(sig[arg], "layout", None) == layout_code


def mahjong_rules(sig: tuple) -> bool:
    """Whether a signature carries Mahjong gin's rules: :meth:`Rules.packed` hands them
    over as a strided one-dimensional int64 array (also inside a game's schedule)."""
    def strided_rules(t: object) -> bool:
        if getattr(t, "ndim", None) == 1 and getattr(t, "layout", "C") != "C":
            return str(getattr(t, "dtype", "")) == "int64"
        return any(strided_rules(f) for f in getattr(t, "types", ()))
    return any(strided_rules(t) for t in sig)


#: Mahjong gin's rules, whose kernels compile apart (the variants study plays them).
MAHJONG = Rules.coerce("mahjong")
#: The groups whose kernels take the packed rules (the others compile the same code
#: whatever the rules: the tables, the advisor, which reads modern rules, and the table).
RULES_TYPED = ("hand loop", "mc player", "whole games", "mc whole games",
               "three-player games", "team games")


def mahjong_name(name: str) -> str:
    """The name of a rules-typed group as compiled for Mahjong gin."""
    return f"{name} (Mahjong gin)"


def for_rules(group: KernelGroup, rules: Rules) -> KernelGroup:
    """``group`` as compiled for ``rules``: Mahjong gin's kernels are compiled apart from
    knocking gin's, so each counts only its own signatures (and a worker process
    rebuilds the Mahjong group from the rules' spec: :func:`kernel_group`)."""
    needs = tuple(mahjong_name(n) if rules.mahjong and n in RULES_TYPED else n
                  for n in group.needs)  # under Mahjong gin's rules, its hand loop
    if group.name not in RULES_TYPED:
        return group if needs == group.needs else replace(group, needs=needs)
    accepts = group.accepts or (lambda sig: True)
    if rules.mahjong:
        recipe = None if group.recipe is None else (KERNEL_GROUP, (group.name, rules.spec()))
        return replace(group, name=mahjong_name(group.name), recipe=recipe, needs=needs,
                       compile=lambda _: group.compile(rules),
                       accepts=lambda sig: mahjong_rules(sig) and accepts(sig))
    return replace(group, accepts=lambda sig: not mahjong_rules(sig) and accepts(sig))


def kernel_group(name: str, rules: str | None = None) -> KernelGroup:
    """:data:`KERNEL_GROUPS`' ``name`` as compiled for the rules spec ``rules`` (None: as
    it is): what a worker process rebuilds from a group's recipe."""
    group = KERNEL_GROUPS[name]
    return group if rules is None else for_rules(group, Rules.coerce(rules))


def _aggregate(rules: Rules) -> None:
    records, _ = play_records("simple", "simple", stop=2, rules=rules, duplicate=True)
    layout(rules).sparse(records, duplicate=True)


ADVISOR_HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
ADVISOR_HISTORY = "dealer:op up:3H me:pass op:pass me:stock"


def _game_table(rules: Rules) -> None:
    """A game table from four hand results (each dealer's hands won by either side)."""
    rows = np.array([[d, w, 1, 1] for d in (0, 1) for w in (0, 1)], dtype=np.int64)
    solve_game_table(HandOutcomes(rows, np.ones(4, dtype=np.int64),
                                  np.zeros(2, dtype=np.int64)), rules, boot=0)


def _advisor_beliefs(rules: Rules) -> None:
    """The advisor's posterior over the opponent's hand, read from a small history,
    under modern rules whatever ``rules`` are: the kernels' types do not depend on the
    rules, and the example history fits modern's deal."""
    history_situation(ADVISOR_HISTORY, ADVISOR_HAND, "4D", "stock", Rules(), "simple", 2, 0)


def _advisor_rollouts(rules: Rules) -> None:
    """The advisor's option rollouts in a situation's worlds (here uniform guesses, so
    that this group compiles apart from the posterior's, at the same time)."""
    modern = Rules()
    position = make_position(ADVISOR_HAND, "QC", pile="4D", stock_left=30)
    situation_rollouts(shorthand_situation(position, 2, 0, modern), "memory2", "simple",
                       modern, 0)


def _shorthand_advisor(rules: Rules) -> None:
    """One small advice on a discard without a history (``ginsim advise --drawn``), the
    opponent's hand kept over its draws as the shorthand samples it."""
    run_rollouts(make_position(ADVISOR_HAND, "QC"), "memory2", "simple", Rules(), 2, 0, 1)


def _table_view(rules: Rules) -> None:
    """A hand dealt at the Table and shown as ``ginsim play`` shows it (the deal, each
    seat's legal moves, the melds): what the first hand on screen needs."""
    table = Table(rules, 0, 0)
    table.observation(table.to_move)
    best_melds(table.hand_of(0), rules)


def _table_hand(rules: Rules) -> None:
    """A hand at the Table, the first legal move each turn, and its showdown: the
    player's moves and the result (no bot's decisions)."""
    table = Table(rules, 0, 0)
    best_melds(table.hand_of(0), rules)
    while table.to_move is not None:
        table.observation(table.to_move)
        table.apply(table.legal_actions()[0])
    table.result()


#: Recipes (:class:`~ginsim.runner.kernels.compiling.KernelGroup`) that rebuild these groups in a
#: worker process: by name from :data:`KERNEL_GROUPS`, or through :func:`kernel_group`.
GROUPS_BY_NAME = f"{__name__}:KERNEL_GROUPS"
KERNEL_GROUP = f"{__name__}:kernel_group"
# Every gin group plays hands on the same machine (the driver, the policies, the melds),
# so two workers each compile it; still, on two idle cores the first ``ginsim report``
# took 49.6 s with two workers against 61.5 s in one process (87 s of CPU against 72 s);
# with another job on the machine two workers are slower, so the number of workers
# follows the idle cores (:func:`~ginsim.runner.kernels.compiling.compile_jobs`).


def _group(name: str, kernels: tuple, compile: Callable[[Rules], object],
           accepts: Callable[[tuple], bool] | None = None, needs: tuple[str, ...] = ()
           ) -> KernelGroup:
    return KernelGroup(name, kernels, compile, accepts, (GROUPS_BY_NAME, (name,)), needs)


KERNEL_GROUPS: dict[str, KernelGroup] = {group.name: group for group in (
    _group("hand loop", (simulate_nb,),
           lambda rules: play_records("simple", "memory2", stop=2, rules=rules),
           _params_layout("C")),
    _group("mc player", (simulate_nb,),
           lambda rules: play_records("mc:rollouts=2", "simple", stop=2, rules=rules),
           _params_layout("A")),
    _group("aggregate tables", (accumulate_nb,), _aggregate, needs=("hand loop",)),
    _group("knock chart", (knock_chart_nb,),
           lambda rules: knock_decisions("simple", "simple", hands=2, rules=rules)),
    _group("whole games", (play_games_nb,),
           lambda rules: game_records("simple", "simple", 1, 0, rules),
           _params_layout("C", GAMES_PARAMS_ARG)),
    _group("mc whole games", (play_games_nb,),
           lambda rules: game_records("mc:rollouts=2", "simple", 1, 0, rules),
           _params_layout("A", GAMES_PARAMS_ARG)),
    _group("three-player games", (play_three_nb,),
           lambda rules: play_three(("simple",) * 3, 1, 0, rules)),
    _group("team games", (play_teams_nb,),
           lambda rules: play_teams(("simple",) * 4, 1, 0, rules)),
    _group("game table", (game_equity_nb,), _game_table),
    _group("advisor beliefs", (smc_beliefs_nb,), _advisor_beliefs),
    _group("advisor rollouts", (option_rollouts_nb,), _advisor_rollouts),
    _group("advisor without a history", (rollouts_nb, kept_hands_nb), _shorthand_advisor),
    _group("the table", (deal_nb, legal_nb), _table_view),
    _group("the table's moves", (checked_step_nb, showdown_nb), _table_hand),
)}
#: The kernel groups each report study runs (a study with an mc seat adds "mc player").
STUDY_KERNELS: dict[str, tuple[str, ...]] = {
    "knock": ("hand loop", "aggregate tables", "knock chart"),
    "strategies": ("hand loop", "aggregate tables", "mc player"),
    "variants": ("hand loop", "aggregate tables", "whole games"),
}
#: The advisor's kernel groups (``ginsim advise`` with a history, ``ginsim play``'s
#: hints): its posterior and its rollouts compile apart, in two workers on two idle cores.
ADVISOR_GROUPS = ("advisor beliefs", "advisor rollouts")
#: ``ginsim games``' kernel group for each number of players.
GAMES_KERNELS = {2: "whole games", 3: "three-player games", 4: "team games"}


def simulate_groups(strategies: Sequence[str]) -> list[KernelGroup]:
    """The kernel groups of hands between ``strategies`` (``ginsim simulate``): the hand
    loop (the mc player's where a seat is mc) and the aggregate tables."""
    mc = any(parse_strategy(s).is_mc for s in strategies)
    return [KERNEL_GROUPS["mc player" if mc else "hand loop"], KERNEL_GROUPS["aggregate tables"]]


def games_groups(strategies: Sequence[str]) -> list[KernelGroup]:
    """The kernel groups of whole games among ``strategies`` (two to four players; two
    with an mc seat add the mc player's games)."""
    names = [GAMES_KERNELS[len(strategies)]]
    if len(strategies) == 2 and any(parse_strategy(s).is_mc for s in strategies):
        names.append("mc whole games")
    return [KERNEL_GROUPS[name] for name in names]


def table_group(bot: str, seed: int = 0) -> KernelGroup:
    """The kernels of a game against ``bot`` at the Table (``ginsim play``): the table's
    steps and the bot's decisions, compiled by a game of the bot against itself
    (:func:`~ginsim.table.referee.warm_agent`)."""
    decisions = ((mc_draw_choice_nb, mc_discard_choice_nb) if parse_strategy(bot).is_mc
                 else (decide_take_nb, decide_discard_nb))
    return KernelGroup(f"{bot} at the table", (checked_step_nb, legal_nb, *decisions),
                       lambda rules: warm_agent(bot, rules, seed),
                       recipe=(f"{__name__}:table_group", (bot, seed)))


def compile_kernels(studies: Sequence[str], rules: Rules | str | None = None,
                    show: bool = True, groups: Sequence[KernelGroup] | None = None) -> float:
    """Compile the kernels ``studies`` need (or the given ``groups``) unless they are all
    compiled or cached, independent groups in worker processes; returns the seconds
    spent (0 when there was nothing to do). With ``show``, a cold cache gets the
    ``compiling kernels (first run only)`` line, progress and the time on stderr; a warm
    one gets nothing."""
    rules = Rules.coerce(rules)
    if groups is None:
        names = dict.fromkeys(g for study in studies for g in STUDY_KERNELS.get(study, ()))
        groups = [KERNEL_GROUPS[name] for name in names]
    groups = [for_rules(g, rules) for g in groups]
    if "variants" in studies and not rules.mahjong:  # its hands include Mahjong gin's
        groups.append(for_rules(KERNEL_GROUPS["hand loop"], MAHJONG))
    return compile_groups(groups, rules, show)
