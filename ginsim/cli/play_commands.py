"""``ginsim simulate``, ``deadwood``, ``play``, ``strategies``, ``rules``, ``games``,
``agent`` and ``match``: the commands that play hands and games or list what there is."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from .._version import __version__
from .options import (
    EXAMPLES,
    RULES_HELP,
    SUMMARY_ABOVE,
    UsageError,
    add_seed,
    command,
    default_records,
    jobs,
    positive_int,
    small_sample,
)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from ..analysis import run_simulation, summarize
    from ..game.rules import Rules
    from ..runner.kernels.warmup import compile_kernels, simulate_groups
    from ..runner.runner import check_options
    from ..strategies import parse_strategy
    from .terminal import simulation_lines

    rules = Rules.coerce(args.rules)
    parse_strategy(args.a)
    parse_strategy(args.b)
    records = args.records or default_records(args.hands)
    check_options(records, args.backend, args.scheduler)
    compile_kernels((), rules, show=not args.quiet, groups=simulate_groups([args.a, args.b]))
    result = run_simulation(args.a, args.b, hands=args.hands, seed=args.seed, rules=rules,
                            duplicate=args.duplicate, records=records, n_jobs=args.n_jobs,
                            chunk_hands=args.chunk_hands, backend=args.backend,
                            scheduler=args.scheduler, out=args.out, keep_records=False,
                            progress=False if args.quiet else None)
    summary = summarize(result.summary).set_index("statistic")
    lines = simulation_lines(args.a, args.b, args.rules, args.hands, args.seed,
                             args.duplicate, records, args.out, result.run, summary,
                             __version__)
    if summary[["low", "high"]].isna().to_numpy().any():
        small_sample(f"{args.hands:,} hands")
    print("\n".join(lines))
    return 0


def _cmd_deadwood(args: argparse.Namespace) -> int:
    from ..game import best_discard, best_melds, deadwood, parse_cards

    cards = parse_cards(args.cards)
    if not cards:
        raise UsageError(f"deadwood needs some cards, e.g. {EXAMPLES['deadwood'][16:]}")
    print(f"deadwood: {deadwood(cards, args.rules)}")
    melds = best_melds(cards, args.rules)
    print("melds: " + (" | ".join(" ".join(m) for m in melds) if melds else "(none)"))
    if len(cards) == 11:
        card, dw = best_discard(cards, args.rules)
        print(f"best discard: {card} (keeps deadwood {dw})")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    """A cold cache compiles the kernels of the moves and the bot's (and with ``--hint``
    the advisor's posterior) in a worker process while those that deal and show a hand
    compile here, so the first hand shows before the bot is ready; your first move, the
    bot's and the first hint wait for theirs, each wait saying what it waits for and for
    how long. Without ``--hint``, a ``hint`` typed compiles the advisor then, saying so."""
    from ..game.rules import Rules
    from ..runner.kernels.compiling import BackgroundCompile
    from ..runner.kernels.waiting import Ticker
    from ..strategies import parse_strategy
    from .record_files import play_record_file

    rules = Rules.coerce(args.rules)  # bad input refused before anything is said
    parse_strategy(args.bot)
    record = play_record_file(args.record)
    with Ticker("  starting the game (loading ginsim and the bot)"):
        from ..runner.kernels.warmup import (
            ADVISOR_GROUPS,
            KERNEL_GROUPS,
            compile_kernels,
            table_group,
        )
        from ..table.game_table import TableGame, first_dealer
        from .play_view import MAX_ECHO_CHARS, play_session
        from .terminal import read_line, write_wrapped

        # the advisor weighs knocking-gin turns: no advisor kernels for Mahjong gin
        beliefs, rollouts = ([], []) if rules.mahjong else (
            [KERNEL_GROUPS[n]] for n in ADVISOR_GROUPS)
        bot = table_group(args.bot, args.seed)
        # one worker: your moves' kernels (the bot's share them) then the bot's, the
        # hint's posterior first when you have the first decision with --hint
        moves = KERNEL_GROUPS["the table's moves"]
        groups = [moves, bot] + (beliefs if args.hint else [])
        if args.hint and first_dealer(args.seed) == 1:
            groups = beliefs + [moves, bot]
        background = BackgroundCompile(groups, rules, purpose="move",
                                       need_idle_core=False)
    game, stopped = None, "interrupted"
    try:
        with Ticker("  starting the game (the bot takes its seat)"):
            game = TableGame(args.bot, rules, args.seed, target=args.target)
        compile_kernels((), game.rules, groups=[KERNEL_GROUPS["the table"]])

        def move_ready() -> None:
            background.wait([moves.name], "first move")

        def bot_ready() -> None:
            background.wait([moves.name, bot.name], "bot's first move")

        def hint_ready() -> None:
            if args.hint:
                compile_kernels((), game.rules, groups=rollouts)
                background.wait([g.name for g in beliefs], "first hint")
            else:
                compile_kernels((), game.rules, groups=beliefs + rollouts)

        code = play_session(game, partial(read_line, echo=MAX_ECHO_CHARS), write_wrapped,
                            hint=args.hint,
                            before_hint=hint_ready, before_bot=bot_ready,
                            before_move=move_ready)
        stopped = "you stopped the game (quit, or the end of input)"
        return code
    finally:
        background.close()
        if game is not None and game.table is not None:  # a hand was dealt
            from .terminal import write_wrapped

            game.write_record(record, stopped)
            write_wrapped(f"Game record written to {record}")


def _cmd_strategies(args: argparse.Namespace) -> int:
    from ..strategies import PARAMETERS, PRESETS
    from ..strategies.players import PLAYERS, STRENGTH_DOC
    from .terminal import player_lines, strategy_lines

    print("\n".join(player_lines(PLAYERS, STRENGTH_DOC) + strategy_lines(PRESETS, PARAMETERS)))
    return 0


def rules_in_words(spec: str) -> list[str]:
    """``ginsim rules RULES``: the rules of one preset or spec, one sentence a line, each
    with the spec fields it states (the report's rules table, as text)."""
    from ..game.rulebook.rules_in_words import rule_sentences
    from ..game.rules import Rules

    rules = Rules.coerce(spec)
    return [f"rules {rules.spec()}:"] + [f"  {sentence}  [{fields}]"
                                          for sentence, fields in rule_sentences(rules)]


def rules_listing() -> list[str]:
    """``ginsim rules``' gin part: the presets, the fields and how they interact."""
    from ..game.rulebook.rules_presets import RULES_PRESETS
    from ..game.rules import DEPENDENT_FIELDS, MAX_GAME_STOCK_FLOOR, Rules
    from .terminal import rules_lines

    return rules_lines(RULES_PRESETS, Rules, DEPENDENT_FIELDS, MAX_GAME_STOCK_FLOOR)


def _check_games_options(args: argparse.Namespace) -> None:
    """One-line UsageErrors for ``games`` options that do not go together."""
    if args.players != 2 and args.system != "standard":
        raise UsageError(f"games --system {args.system} is for two players; with --players "
                         f"{args.players} leave --system out")
    for flag, value, needs in (("--c", args.c, 3), ("--d", args.d, 4)):
        if value is not None and args.players < needs:
            raise UsageError(f"games {flag} is the strategy of player {needs}, but --players "
                             f"is {args.players}: give --players {needs} or leave {flag} out")
    if args.match_total is not None and args.system != "multimatch":
        raise UsageError(f"games --match-total ends a multi-match; the {args.system} system "
                         "has none: give --system multimatch or leave --match-total out")
    for flag, value in (("--start", args.start), ("--json", args.json or None)):
        if value is not None and (args.players != 2 or args.system != "standard"):
            raise UsageError(f"games {flag} is for two players' standard games: leave "
                             f"--players and --system out, or leave {flag} out")


def _cmd_games(args: argparse.Namespace) -> int:
    from ..analysis.game_modes import MATCH_TOTAL, game_mode_summary
    from ..game.rules import Rules
    from ..runner.kernels.warmup import compile_kernels, games_groups
    from ..strategies import parse_strategy
    from .game_table_command import games_json, start_scores
    from .terminal import game_mode_lines, two_player_game_lines

    rules = Rules.coerce(args.rules).check_games()
    _check_games_options(args)
    start = start_scores(args.start, rules.target)
    args.c, args.d = args.c or "simple", args.d or "simple"
    names = [args.a, args.b, args.c, args.d][:args.players]
    for name in names:
        parse_strategy(name)
    compile_kernels((), rules, groups=games_groups(names))  # said so on a cold cache
    summary = game_mode_summary(names, args.games, args.seed, rules, args.system,
                                args.match_total, start).set_index(["group", "statistic"])
    head = f"ginsim {__version__}: rules {args.rules} (target {rules.target}), {args.games:,} "
    if args.players == 2 and args.system == "standard":
        summary = summary.loc["a"]
        if args.json:
            print(games_json(summary, args.games))
            return 0
        if summary[["low", "high"]].isna().to_numpy().any():
            small_sample(f"{args.games:,} games")
        games = "games" if start is None else f"games from {start[0]}-{start[1]}"
        lines = two_player_game_lines(head + f"{games}: {args.a} (a) vs {args.b} (b)", summary)
    else:
        lines = game_mode_lines(summary, head, names, args.system, rules.team_target,
                                args.match_total or MATCH_TOTAL)
    print("\n".join(lines))
    return 0


def _cmd_agent(args: argparse.Namespace) -> int:
    from ..table.agents import Agent
    from ..table.protocol import serve

    if args.warm:
        from ..table.referee import warm_agent

        seconds = warm_agent(args.strategy, args.rules, args.seed)
        print(f"{args.strategy} (rules {args.rules}) is ready to serve: its kernels compiled "
              f"or loaded in {seconds:.1f} s and cached for later ginsim agent processes")
        return 0
    from ..runner.kernels.warmup import compile_kernels, table_group

    agent = Agent.from_spec(args.strategy, args.rules, args.seed)  # bad specs refused first
    # on a cold cache: compiled before the first message, said on stderr (stdout is the
    # protocol's)
    compile_kernels((), args.rules, groups=[table_group(args.strategy, args.seed)])
    serve(agent, sys.stdin, sys.stdout)
    return 0


def _cmd_match(args: argparse.Namespace) -> int:
    from ..analysis.match import match_frames, run_match
    from ..game.rules import Rules
    from ..reports._files import check_output_file
    from ..runner.kernels.warmup import compile_kernels, table_group
    from ..simulator.limits import check_decision_ms
    from ..strategies import parse_strategy
    from ..table.records.game_record import write_record
    from .match_text import match_lines
    from .record_files import game_file, match_record_dir

    rules = Rules.coerce(args.rules)
    check_decision_ms(args.timeout_ms, "--timeout-ms")
    if args.csv is not None:
        check_output_file(args.csv)
    sides = [s for s in dict.fromkeys((args.a, args.b)) if not s.startswith("exec:")]
    for side in sides:
        parse_strategy(side)
    folder = None if args.record is None else match_record_dir(args.record, args.games)
    compile_kernels((), rules, groups=[table_group(s, args.seed) for s in sides])
    with exit_on_sigterm():  # the referee's cleanup (its agents' groups) runs then too
        result, summary = run_match(args.a, args.b, args.games, rules, args.seed,
                                    args.timeout_ms, on_fault=lambda line: print(
                                        line, file=sys.stderr, flush=True),
                                    on_record=None if folder is None else (
                                        lambda g, lines: write_record(
                                            game_file(folder, g, args.games), lines)))
    print("\n".join(match_lines(summary, args.a, args.b, args.rules, rules.target, args.games,
                                args.seed, result.wall_s, __version__)))
    if args.csv is not None:
        match_frames(result)[0].to_csv(args.csv, index_label="game")
        print(f"games written to {args.csv}")
    if folder is not None:
        print(f"game records written to {folder} (one file per game)")
    return 0


@contextmanager
def exit_on_sigterm() -> Iterator[None]:
    """While the block runs, SIGTERM (``kill``, ``timeout``) ends this process as an
    exception does, so the referee's ``finally`` kills its agents' process groups
    instead of leaving them running (Python's default ends the process at once). The
    handler before is put back after; off the main thread nothing changes."""
    import signal
    import threading

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def add_simulate_command(sub) -> None:
    """``ginsim simulate``."""
    sim = command(sub, "simulate", "play hands between two strategies and summarise them")
    sim.add_argument("--a", default="simple", help="strategy of seat a (default simple)")
    sim.add_argument("--b", default="simple", help="strategy of seat b (default simple)")
    sim.add_argument("--hands", type=positive_int, default=100_000,
                     help="number of hands (default 100000)")
    add_seed(sim)
    sim.add_argument("--rules", default="modern", help=RULES_HELP)
    sim.add_argument("--records", choices=("full", "summary"), default=None,
                     help="keep per-hand records (full) or only aggregate tables (summary); "
                          f"default full up to {SUMMARY_ABOVE:,} hands, summary above")
    sim.add_argument("--out", metavar="DIR", default=None,
                     help="write a result store to DIR (resumed if DIR holds this run)")
    sim.add_argument("--n-jobs", type=jobs, default=None, metavar="N",
                     help="parallel workers (default: every core)")
    sim.add_argument("--chunk-hands", type=positive_int, default=None, metavar="N",
                     help="hands per chunk (default: about 8 chunks per worker)")
    sim.add_argument("--duplicate", action="store_true",
                     help="play every deal twice with the seats swapped (paired comparison)")
    sim.add_argument("--backend", choices=("local", "threads", "processes", "dask"),
                     default="local", help="local (threads, the default), processes, or "
                                           "dask (a LocalCluster, or --scheduler)")
    sim.add_argument("--scheduler", metavar="ADDRESS", default=None,
                     help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --backend dask)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_cmd_simulate)


def add_listing_commands(sub, run_rules: Callable[[argparse.Namespace], int]) -> None:
    """``ginsim deadwood``, ``play``, ``strategies`` and ``rules`` (run by ``run_rules``,
    which adds Greek Rami's rules to :func:`rules_listing`)."""
    dw = command(sub, "deadwood", "exact deadwood and melds of some cards")
    dw.add_argument("cards", help='cards, e.g. "AS 2S 3S 7H 7D 7C 9C TC JC KD"')
    dw.add_argument("--rules", default="modern", help=RULES_HELP)
    dw.set_defaults(func=_cmd_deadwood)

    pl = command(sub, "play", "play a game against a bot in the terminal")
    pl.add_argument("--bot", default="memory2", help="the bot's strategy spec (default memory2)")
    pl.add_argument("--rules", default="modern", help=RULES_HELP)
    add_seed(pl)
    pl.add_argument("--hint", action="store_true",
                    help="show the advisor's table before each of your decisions")
    pl.add_argument("--target", type=positive_int, default=None,
                    help="points that win the game (default: the rules' target)")
    pl.add_argument("--record", metavar="FILE", default=None,
                    help="write the game's record (docs/records.md) to FILE, a new file "
                         "(default: ginsim-game-DATE-TIME.jsonl here)")
    pl.set_defaults(func=_cmd_play)

    st = command(sub, "strategies", "list strategy presets and parameters")
    st.set_defaults(func=_cmd_strategies)
    ru = command(sub, "rules", "list rules presets, or say one rule set's rules in "
                               "sentences")
    ru.add_argument("rules", nargs="?", default=None, metavar="RULES",
                    help="a rules preset or spec (e.g. oklahoma, or "
                         "'modern:undercut_on_tie=false'): its rules as sentences instead "
                         "of the list of presets")
    ru.set_defaults(func=run_rules)


def add_games_command(sub) -> None:
    """``ginsim games``."""
    gm = command(sub, "games", "play whole games and print game-level statistics")
    gm.add_argument("--a", default="memory2", help="strategy of player a (default memory2)")
    gm.add_argument("--b", default="simple", help="strategy of player b (default simple)")
    gm.add_argument("--c", default=None,
                    help="third player's strategy (--players 3, 4; default simple)")
    gm.add_argument("--d", default=None,
                    help="fourth player's strategy (--players 4; default simple)")
    gm.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                    help="2 (default), 3 (dealer sits out), 4 (two teams, to the rules' "
                         "team_target)")
    gm.add_argument("--system", choices=("standard", "hollywood", "multimatch"),
                    default="standard", help="scoring system for two players")
    gm.add_argument("--match-total", type=positive_int, default=None,
                    help="match points that end a multi-match (--system multimatch only; "
                         "default 500)")
    gm.add_argument("--games", type=positive_int, default=10_000,
                    help="number of games (default 10000)")
    gm.add_argument("--start", default=None, metavar="A-B",
                    help="the points of a and b each game starts from, such as 85-30 (each "
                         "below the target; boxes count from there; two players, standard)")
    gm.add_argument("--json", action="store_true",
                    help="print one JSON object: games, won_a, rate_a, ci_a (95%%), "
                         "hands_per_game (two players, standard)")
    add_seed(gm)
    gm.add_argument("--rules", default="modern", help=RULES_HELP)
    gm.set_defaults(func=_cmd_games)


def add_protocol_commands(sub) -> None:
    """``ginsim agent`` and ``ginsim match``: the agent protocol (docs/agents.md)."""
    ag = command(sub, "agent", "serve a ginsim strategy over the agent protocol on "
                               "stdin/stdout")
    ag.add_argument("--strategy", default="memory2", help="strategy spec (default memory2)")
    ag.add_argument("--rules", default="modern", help=RULES_HELP)
    add_seed(ag)
    ag.add_argument("--warm", action="store_true",
                    help="compile the strategy's kernels (a game against itself; minutes "
                         "for mc on a fresh install) and exit instead of serving: run it "
                         "once before a referee that times answers")
    ag.set_defaults(func=_cmd_agent)
    mt = command(sub, "match", "referee whole games between two agents (strategy specs or "
                               "exec:COMMAND programs) and print game-level statistics")
    mt.add_argument("--a", default="memory2",
                    help="side a: a strategy spec, or exec:COMMAND for a program speaking "
                         "the agent protocol (default memory2)")
    mt.add_argument("--b", default="simple", help="side b, as --a (default simple)")
    mt.add_argument("--games", type=positive_int, default=100,
                    help="number of games (default 100)")
    add_seed(mt)
    mt.add_argument("--rules", default="modern", help=RULES_HELP)
    mt.add_argument("--timeout-ms", type=positive_int, default=1000, metavar="MS",
                    help="longest wait for one decision of an exec: agent; later is a "
                         "forfeit (default 1000; a program's first answer may take 30 s)")
    mt.add_argument("--csv", metavar="FILE", default=None,
                    help="also write one row per game (winner, scores, margin, hands, "
                         "forfeit and the fault's line) to FILE")
    mt.add_argument("--record", metavar="DIR", default=None,
                    help="write each game's record (docs/records.md) to DIR, a new or "
                         "empty directory: game-0000.jsonl, game-0001.jsonl, ...")
    mt.set_defaults(func=_cmd_match)
