"""The ``ginsim rami`` command group (thin: parse, call the Rami API, print)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from ...game.inputs.checks import MAX_JOBS
from ...game.inputs.specs import brief

EXAMPLES = {
    "simulate": ("ginsim rami simulate --players 4 --strategies careful,simple,naive,simple "
                 "--deals 20000"),
    "games": "ginsim rami games --players 3 --strategies careful,simple,naive --games 2000",
    "lay-down": 'ginsim rami lay-down "5H 6H 7H 9S 9D 9C KS QS JK AS 2D 3D 4D 8C" '
                '--table "2S 3S 4S" --unopened',
    "report": "ginsim rami report --deals 4000 --out rami-report",
    "strategies": "ginsim rami strategies",
}
RULES_HELP = "rami rules preset or spec, e.g. rami_two_jokers or 'rami:open_min=40'"


def seat_specs(players: int, strategies: str) -> list[str]:
    """One strategy per seat from a comma list: one name for everyone, or one per player."""
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--strategies names {len(names)} strategies for {players} players: "
                         f"give one for everybody or one per player")
    return names


def _players(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {brief(text)}") from None


def player_counts(text: str) -> list[int]:
    """The player counts of ``--players 2,3,4``: whole numbers, each a legal table size
    (2 to 6), none twice; a one-line ValueError naming what is wrong otherwise."""
    from ..game.rules import check_players

    parts = [p.strip() for p in text.split(",")]
    if not any(parts):
        raise ValueError("--players is empty: give player counts, e.g. --players 2,3,4")
    counts = []
    for part in parts:
        if not (part.isascii() and part.isdigit()):
            raise ValueError(f"--players takes whole numbers separated by commas, got "
                             f"{brief(part or text)}")
        count = check_players(int(part))
        if count in counts:
            raise ValueError(f"--players names {count} twice: give each player count once")
        counts.append(count)
    return counts


def _cmd_simulate(args: argparse.Namespace) -> int:
    from ...reports._files import check_output_file
    from ..game.rules import check_players
    from .api import simulate

    seats = seat_specs(check_players(args.players), args.strategies)
    if args.csv is not None:
        check_output_file(args.csv)
    _compile_first("rami deals", seats, args.rules)
    t0 = time.perf_counter()
    df = simulate(seats, args.deals, seed=args.seed, rules=args.rules, n_jobs=1, out=args.out)
    wall = time.perf_counter() - t0
    if args.csv is not None:
        df.to_csv(args.csv, index=False)
    print(f"{args.deals:,} deals, {len(seats)} players, rules {args.rules}, seed {args.seed} "
          f"({args.deals / wall:,.0f} deals/s)")
    print("\n".join(seat_lines(df, seats)))
    return 0


def _compile_first(group: str, seats: list[str], rules: str, show: bool = True) -> None:
    """Check the seats' strategies and the rules, then compile the kernels of ``group``
    (:data:`~ginsim.rami.play.runner.RAMI_KERNEL_GROUPS`), saying so on stderr when the
    cache is cold (the first run waits tens of seconds)."""
    from ...runner.kernels.compiling import compile_groups
    from ..game.rules import RamiRules
    from .engine import check_strategies
    from .runner import RAMI_KERNEL_GROUPS

    check_strategies(seats)
    compile_groups([RAMI_KERNEL_GROUPS[group]], RamiRules.coerce(rules), show)


#: ``rami simulate``'s columns: header, then whether the values are numbers (right
#: aligned under a right-aligned header) or words (left aligned).
SEAT_COLUMNS = (("seat", True), ("strategy", False), ("charge/deal", True),
                ("95% CI", True), ("win", True), ("opened", True), ("dry", True),
                ("caught unopened", True), ("95% CI", True))


def seat_lines(df, seats: list[str]) -> list[str]:
    """``rami simulate``'s table: a header and one row per seat, every column as wide as
    its widest entry, numbers right-aligned under their headers."""
    import numpy as np

    from ...analysis.intervals import mean_interval, wilson_interval

    rows = []
    for seat, group in df.groupby("player"):
        mean, low, high = mean_interval(group["charge"].to_numpy())
        n = len(group)
        caught = int((~group["opened"] & (group["winner"] != seat)).sum())
        lo, hi = wilson_interval(np.array([caught]), n)
        rows.append((str(seat), seats[seat], f"{mean:.2f}", f"[{low:.2f}, {high:.2f}]",
                     f"{(group['winner'] == seat).mean():.1%}", f"{group['opened'].mean():.1%}",
                     f"{(group['went_out'] & group['dry']).mean():.1%}", f"{caught / n:.1%}",
                     f"[{lo[0]:.1%}, {hi[0]:.1%}]"))
    header = [name for name, _ in SEAT_COLUMNS]
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]

    def line(cells) -> str:
        return "  ".join(text.rjust(w) if numeric else text.ljust(w) for text, w, (_, numeric)
                         in zip(cells, widths, SEAT_COLUMNS, strict=True)).rstrip()

    return [line(header), *(line(r) for r in rows)]


def _cmd_games(args: argparse.Namespace) -> int:
    import numpy as np

    from ...analysis.intervals import wilson_interval
    from ..game.rules import RamiRules, check_players
    from .api import play_games

    players = check_players(args.players)
    seats = seat_specs(players, args.strategies)
    _compile_first("rami games", seats, args.rules)
    df = play_games(seats, args.games, seed=args.seed, rules=args.rules)
    target = RamiRules.coerce(args.rules).target(players)
    print(f"{args.games:,} games to {target}, {players} players, rules {args.rules}, seed "
          f"{args.seed}; {df.groupby('game')['deals'].first().mean():.1f} deals per game")
    for seat, group in df.groupby("player"):
        wins = int(group["won"].sum())
        lo, hi = wilson_interval(np.array([wins]), len(group))
        print(f"seat {seat} {seats[seat]:<20} wins {wins / len(group):6.1%} "
              f"[{lo[0]:.1%}, {hi[0]:.1%}]  mean total {group['total'].mean():6.1f}")
    return 0


def _cmd_lay_down(args: argparse.Namespace) -> int:
    from ..game.melds import best_lay_down

    plan = best_lay_down(args.hand, args.table or [], opened=not args.unopened,
                         others_opened=args.others_opened or None, rules=args.rules)
    if not plan.moves:
        print("no lay-down: keep the cards (an unopened hand needs an opening worth "
              "the minimum, or a dry rami)")
    for kind, cards in plan.moves:
        print(f"{kind:<9} {cards}")
    print(f"laid {plan.laid_value} points; left in hand: {plan.left_text or '-'}"
          + ("; goes out" if plan.goes_out else ""))
    return 0


def run_report(deals: int | None, seed: int, rules: str, out: str, players: str,
               base: str, svg: bool, quiet: bool, n_jobs: int | None = None) -> int:
    """Run the open study and write its report (``ginsim rami report`` and
    ``ginsim report --study rami``)."""
    import sys

    from ...game.inputs.checks import check_jobs
    from ...reports._files import check_report_dir, probe_writable
    from .report import write_rami_report
    from .study import DEFAULT_DEALS, open_study

    t0 = time.perf_counter()
    target = check_report_dir(out)
    probe_writable(target)
    counts = player_counts(players)
    check_jobs(n_jobs, "--n-jobs")
    _compile_first("rami deals", [base, base], rules, show=not quiet)
    if not quiet:
        print("running the rami open study ...", file=sys.stderr)
    study = open_study(deals or DEFAULT_DEALS, seed, rules, counts, base, n_jobs=n_jobs)
    paths = write_rami_report(study, target, svg=svg)
    print(study.answer.replace("`", ""))
    print(f"report written: {paths['report.html']} (and report.md, {len(paths) - 2} figures "
          f"and tables) in {time.perf_counter() - t0:.1f} s")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    return run_report(args.deals, args.seed, args.rules, args.out, args.players, args.base,
                      args.svg, args.quiet, args.n_jobs)


def _cmd_strategies(args: argparse.Namespace) -> int:
    from .strategy import PARAMETERS, PRESETS

    print("rami strategy presets (use --strategies NAME, or a spec NAME:key=value):")
    for name, (text, spec) in PRESETS.items():
        print(f"  {name:<11} {text}" + (f" [{spec}]" if spec else ""))
    print("parameters (whole numbers):")
    for name, (_, low, high, default, text) in PARAMETERS.items():
        print(f"  {name:<12} {low}..{high}, default {default}: {text}")
    return 0


def rules_lines() -> list[str]:
    """The Rami rules presets, for ``ginsim rules``."""
    from ..game.rules import PRESETS, RamiRules
    lines = ["Greek Rami rules presets (ginsim rami ... --rules NAME):"]
    lines += [f"  {name:<16} {text}" for name, (text, _) in PRESETS.items()]
    lines.append(f"rami fields: {', '.join(RamiRules().to_dict())}")
    return lines


def add_commands(sub, make: Callable[..., argparse.ArgumentParser],
                 add_seed: Callable[[argparse.ArgumentParser], None],
                 positive: Callable[[str], int]) -> None:
    """Add ``ginsim rami`` and its subcommands; ``make(sub, name, text, example)`` builds a
    subcommand the way the main parser does."""
    rami = make(sub, "rami", "Greek Rami: simulate deals and games, plan a lay-down, report "
                             "when to open (each command's --help shows its defaults)",
                "ginsim rami simulate --players 4")
    rsub = rami.add_subparsers(dest="rami_command", required=True, parser_class=type(rami),
                               metavar="RAMI_COMMAND")
    _add_play_commands(rsub, make, add_seed, positive)
    _add_plan_commands(rsub, make)
    _add_report_command(rsub, make, add_seed, positive)


def _common(p: argparse.ArgumentParser, strategies: bool = True) -> None:
    """The options every rami command shares: the seats' strategies and the rules."""
    if strategies:
        p.add_argument("--players", type=_players, default=4, help="2 to 6 (default 4)")
        p.add_argument("--strategies", default="careful",
                       help="comma list: one rami strategy for everybody or one per "
                            "seat (naive, simple, careful, patient, dry_hunter, holder, "
                            "watchful; change parameters with :key=value)")
    p.add_argument("--rules", default="rami", help=RULES_HELP)


def _add_play_commands(rsub, make: Callable[..., argparse.ArgumentParser],
                       add_seed: Callable[[argparse.ArgumentParser], None],
                       positive: Callable[[str], int]) -> None:
    """``ginsim rami simulate`` and ``ginsim rami games``."""
    sim = make(rsub, "simulate", "play deals and summarise each seat", EXAMPLES["simulate"])
    _common(sim)
    sim.add_argument("--deals", type=positive, default=20_000, help="number of deals")
    sim.add_argument("--csv", metavar="FILE", default=None, help="also write the records")
    sim.add_argument("--out", metavar="DIR", default=None,
                     help="write a result store (Parquet chunks and a manifest) to DIR; "
                          "resumed if DIR holds this run")
    add_seed(sim)
    sim.set_defaults(func=_cmd_simulate)

    gm = make(rsub, "games", "play whole games to the target", EXAMPLES["games"])
    _common(gm)
    gm.add_argument("--games", type=positive, default=2_000, help="number of games")
    add_seed(gm)
    gm.set_defaults(func=_cmd_games)


def _add_plan_commands(rsub, make: Callable[..., argparse.ArgumentParser]) -> None:
    """``ginsim rami lay-down`` and ``ginsim rami strategies``."""
    ld = make(rsub, "lay-down", "the best lay-down of a hand, by exact search",
              EXAMPLES["lay-down"])
    ld.add_argument("hand", help="the hand after the draw, e.g. \"5H 6H 7H JK 9S\"")
    ld.add_argument("--table", action="append", metavar="MELD",
                    help="a meld on the table (repeat), a run low to high: \"5H JK 7H\"")
    ld.add_argument("--unopened", action="store_true", help="you have not opened yet")
    ld.add_argument("--others-opened", action="store_true",
                    help="an opponent has opened (no dry rami; default: if the table has melds)")
    _common(ld, strategies=False)
    ld.set_defaults(func=_cmd_lay_down)

    st = make(rsub, "strategies", "list rami strategy presets and parameters (no defaults "
                                  "to set)", EXAMPLES["strategies"])
    st.set_defaults(func=_cmd_strategies)


def _add_report_command(rsub, make: Callable[..., argparse.ArgumentParser],
                        add_seed: Callable[[argparse.ArgumentParser], None],
                        positive: Callable[[str], int]) -> None:
    """``ginsim rami report``."""
    rep = make(rsub, "report", "when should I open? run the study and write its report",
               EXAMPLES["report"])
    rep.add_argument("--deals", type=positive, default=None,
                     help="duplicate deals per cell (default 4000)")
    rep.add_argument("--players", default="2,3,4,5,6", help="player counts, comma list")
    rep.add_argument("--base", default="careful", help="the base strategy everybody plays")
    rep.add_argument("--rules", default="rami", help=RULES_HELP)
    rep.add_argument("--out", metavar="DIR", default="rami-report",
                     help="output directory: new, empty, or an earlier report")
    rep.add_argument("--svg", action="store_true", help="also write SVG figures")
    rep.add_argument("--quiet", action="store_true", help="no progress output")
    rep.add_argument("--n-jobs", type=positive, default=1, metavar="N",
                     help=f"parallel workers, at most {MAX_JOBS} (default 1; the figures "
                          "do not depend on it)")
    add_seed(rep)
    rep.set_defaults(func=_cmd_report)
