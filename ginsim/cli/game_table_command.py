"""``ginsim game-table``: the chance of winning a game, and its value, from every score
(docs/game-table.md); and ``ginsim games``' options for games from a score."""

from __future__ import annotations

import argparse
import json

from ..number_text import pct, signed
from .options import RULES_HELP, UsageError, add_seed, command, positive_int

DEFAULT_CSV = "game-table.csv"


def start_scores(text: str | None, target: int, flag: str = "--start"
                 ) -> tuple[int, int] | None:
    """``--start A-B`` (or ``flag``): the two scores a game starts from (or stands at),
    each 0 <= score < ``target``."""
    if text is None:
        return None
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise UsageError(f"{flag} takes two scores as A-B, such as 85-30, got {text!r}")
    a, b = (int(p) for p in parts)
    if max(a, b) >= target:
        raise UsageError(f"{flag} {text}: each score must be 0..{target - 1}, below the "
                         f"target {target}")
    return a, b


def games_json(summary, games: int) -> str:
    """``games --json``: a's games won, rate and 95% interval, and hands per game."""
    win = summary.loc["p_a_wins_game"]
    hands = summary.loc["mean_hands"]
    return json.dumps({"games": games, "won_a": round(float(win.value) * games),
                       "rate_a": float(win.value), "ci_a": [float(win.low), float(win.high)],
                       "hands_per_game": float(hands.value),
                       "ci_hands": [float(hands.low), float(hands.high)]})


def _grid_lines(table, step: int) -> list[str]:
    """a's win chance (%) with the dealer cut, a's score down and b's across."""
    target = table.rules.target
    scores = range(0, target, step)
    win = table.win.mean(axis=0)
    width = max(4, len(str(target)) + 1)
    lines = ["  a \\ b " + "".join(f"{s:>{width}}" for s in scores)]
    for a in scores:
        lines.append(f"  {a:>5} " + "".join(f"{100 * win[a, b]:>{width}.0f}" for b in scores))
    return lines


def table_json(table) -> str:
    """The whole table as one JSON object: arrays ``[dealer][a][b]`` (dealer 0: a deals)."""
    def rounded(array, digits: int = 6) -> list:
        return array.round(digits).tolist()

    return json.dumps({
        "rules": table.rules.spec(), "a": table.a, "b": table.b, "target": table.rules.target,
        "hands": table.n, "hands_by_dealer": list(table.n_hands), "bootstrap": table.boot,
        "interval": "estimate +- 1.96 bootstrap standard errors (hands resampled within "
                    "each dealer)",
        "dealers": ["a", "b"], "win": rounded(table.win), "win_se": rounded(table.win_se),
        "value": rounded(table.value, 3), "value_se": rounded(table.value_se, 3),
        "shut_a": rounded(table.shut_a), "shut_b": rounded(table.shut_b),
        "hands_left": rounded(table.hands, 4)})


def _cmd_game_table(args: argparse.Namespace) -> int:
    from ..analysis.game_stats import game_table, game_table_frame
    from ..game.rules import Rules
    from ..reports._files import check_output_file
    from ..runner.kernels.warmup import KERNEL_GROUPS, compile_kernels, simulate_groups
    from ..strategies import parse_strategy

    rules = Rules.coerce(args.rules).check_games()
    for name in (args.a, args.b):
        if parse_strategy(name).is_mc:
            raise UsageError(f"game-table values play that ignores the score, and {name} "
                             f"(an mc player) can play by it: give another strategy")
    if args.step > rules.target:
        raise UsageError(f"--step {args.step} is above the target {rules.target}: give a "
                         f"step such as {max(1, rules.target // 10)}")
    csv = args.csv if args.csv is not None or args.json else DEFAULT_CSV
    if csv is not None:
        check_output_file(csv)
    compile_kernels((), rules, show=not args.json, groups=[
        *simulate_groups([args.a, args.b]), KERNEL_GROUPS["game table"]])
    table = game_table(args.a, args.b, rules, args.hands, args.seed, system=args.system,
                       boot=args.boot)
    if args.system == "hollywood":
        return _hollywood(args, table, csv)
    if csv is not None:
        game_table_frame(table).to_csv(csv, index=False, float_format="%.6g")
    if args.json:
        print(table_json(table))
        return 0
    low, high = table.interval("win", 0, 0)
    vlow, vhigh = table.interval("value", 0, 0)
    lines = [f"game table, rules {args.rules} (target {rules.target}, {args.system} "
             f"scoring): {args.a} (a) vs {args.b} (b)",
             f"chance that a wins (%), a's score down, b's across, dealer cut at random "
             f"(every {args.step} points):", *_grid_lines(table, args.step),
             f"from 0-0: a wins {pct(table.at('win', 0, 0))} [{pct(low)}, {pct(high)}], "
             f"expected margin {signed(table.at('value', 0, 0))} [{signed(vlow)}, "
             f"{signed(vhigh)}] points, {table.at('hands', 0, 0):.2f} hands",
             f"made from {table.n:,} hands (seed {args.seed}); 95% intervals from "
             f"{table.boot} bootstrap replicates of them",
             f"full table (every score, dealer a, b or cut; win chance, value, intervals, "
             f"shutouts, hands left): {csv}"]
    print("\n".join(lines))
    return 0


def _hollywood(args: argparse.Namespace, table, csv: str | None) -> int:
    """``game-table --system hollywood``: each game of a session at its start."""
    import pandas as pd

    from ..game.scoring.game_equity import Z95

    games = pd.DataFrame([{"game": c, **table.game(c)} for c in (1, 2, 3)])
    if csv is not None:
        games.assign(n=table.n).to_csv(csv, index=False, float_format="%.6g")
    if args.json:
        print(json.dumps({"rules": table.rules.spec(), "a": table.a, "b": table.b,
                          "target": table.rules.target, "hands": table.n,
                          "bootstrap": table.boot, "games": games.to_dict("records"),
                          "session_value": table.session,
                          "session_value_se": table.session_se}))
        return 0
    lines = [f"Hollywood session, rules {args.rules} (target {table.rules.target}): {args.a} "
             f"(a) vs {args.b} (b), first dealer cut at random"]
    for row in games.itertuples():
        lines.append(f"  game {row.game}: a wins {pct(row.win)} [{pct(row.win_low)}, "
                     f"{pct(row.win_high)}], expected margin {signed(row.value)} "
                     f"[{signed(row.value_low)}, {signed(row.value_high)}], "
                     f"{row.hands:.2f} hands to decide it")
    half = Z95 * table.session_se
    lines += [f"  the session: a's expected margin {signed(table.session)} "
              f"[{signed(table.session - half)}, {signed(table.session + half)}] (the three "
              f"games added)",
              "once both players are in a game it is a standard game over the hands it "
              "counts: its table by score is game-table's standard one",
              f"made from {table.n:,} hands (seed {args.seed}); 95% intervals from "
              f"{table.boot} bootstrap replicates of them",
              f"the three games: {csv}"]
    print("\n".join(lines))
    return 0


def add_game_table_command(sub) -> None:
    """``ginsim game-table``."""
    gt = command(sub, "game-table", "the chance of winning a game, and its value, from "
                                    "every score (made from simulated hands)")
    gt.add_argument("--a", default="expert", help="strategy of player a (default expert)")
    gt.add_argument("--b", default="expert", help="strategy of player b (default expert)")
    gt.add_argument("--rules", default="modern", help=RULES_HELP)
    gt.add_argument("--system", choices=("standard", "hollywood"), default="standard",
                    help="standard: the table by score; hollywood: a session's three games "
                         "at its start")
    gt.add_argument("--hands", type=positive_int, default=100_000,
                    help="hands the table is made from (default 100000)")
    add_seed(gt)
    gt.add_argument("--boot", type=positive_int, default=100,
                    help="bootstrap replicates behind the intervals (default 100)")
    gt.add_argument("--step", type=positive_int, default=10,
                    help="points between the printed grid's rows and columns (default 10)")
    gt.add_argument("--csv", default=None, metavar="FILE",
                    help=f"write the full table here (default {DEFAULT_CSV}; with --json "
                         f"only when given)")
    gt.add_argument("--json", action="store_true",
                    help="print the full table as one JSON object instead of the grid")
    gt.set_defaults(func=_cmd_game_table)
