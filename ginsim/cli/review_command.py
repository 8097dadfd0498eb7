"""``ginsim review``: every decision of a seat in a game record weighed by the advisor
from what that seat knew, classed and summed up (docs/review.md); or a strategy's
games played and reviewed, its error rate rated."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .options import RULES_HELP, Given, UsageError, add_seed, command, given, positive_int

REVIEW_JSON = "review.json"
FLAGGED_SHOWN = 12  # flagged decisions listed on the terminal (all are in the JSON)


def add_review_command(sub) -> None:
    """``ginsim review``."""
    rv = command(sub, "review", "review a game: each decision of a seat against the "
                                "advisor, from what that seat knew; or rate a strategy by "
                                "reviewing its games")
    rv.add_argument("record", nargs="?", metavar="RECORD",
                    help="a game record (ginsim play and ginsim match --record write them; "
                         "docs/records.md) or a seat's protocol transcript")
    rv.add_argument("--seat", metavar="S", default=None,
                    help="the seat reviewed: 0, 1 or its name in the record (default: a "
                         "transcript's seat, else the person at the table, else 0)")
    rv.add_argument("--out", metavar="DIR", default=None,
                    help="write review.json and review.html (the game's graph and each "
                         "flagged position) into DIR, a new or existing folder")
    rv.add_argument("--json", action="store_true", help="print the JSON instead of the "
                                                         "summary")
    rv.add_argument("--rollouts", type=positive_int, default=2000, metavar="N",
                    help="the advisor's first batch of rollouts a decision (default 2000)")
    rv.add_argument("--precision", type=float, default=1.5, metavar="P",
                    help="then more rollouts, in batches, until the loss of the move "
                         "made (against the best other move) is known within P points "
                         "either side (default 1.5; 0: none)")
    rv.add_argument("--max-rollouts", type=positive_int, default=32_000, metavar="N",
                    help="the most rollouts a decision is weighed with (default 32000)")
    rv.add_argument("--opponent", metavar="SPEC", default=None,
                    help="with a record: the strategy the advisor plays the opponent as "
                         "(default its spec in the record, else simple); with --strategy: "
                         "the opponent in the games (default expert)")
    rv.add_argument("--strategy", metavar="SPEC", default=None,
                    help="rate SPEC: play --games games against --opponent and review them")
    rv.add_argument("--games", type=positive_int, default=10, action=Given,
                    help="games to play with --strategy (default 10)")
    rv.add_argument("--rules", default="modern", action=Given,
                    help=RULES_HELP + " (with --strategy)")
    add_seed(rv)
    rv.add_argument("--quiet", action="store_true", help="no progress on stderr")
    rv.set_defaults(func=_cmd_review)


def _cmd_review(args: argparse.Namespace) -> int:
    if (args.record is None) == (args.strategy is None):
        raise UsageError("review takes a RECORD or --strategy SPEC (to rate a strategy), "
                         "one of the two")
    if args.strategy is None:
        wrong = given(args, ["--games", "--rules"])
        if wrong:
            raise UsageError(f"{wrong[0]} is for rating a strategy (--strategy); a record "
                             f"holds its own games and rules")
        return _review_record(args)
    if args.seat is not None or args.out is not None:
        raise UsageError("--seat and --out are for a record; --strategy reviews seat 0 of "
                         "each game it plays (print the JSON with --json)")
    return _rate(args)


def _review_record(args: argparse.Namespace) -> int:
    from ..analysis.review import review_game
    from ..table.records.record_reader import read_record

    out = _checked_out(args.out)
    record = read_record(args.record)
    with ReviewProgress(args.quiet) as say:
        review = review_game(record, args.seat, rollouts=args.rollouts,
                             seed=args.seed, model=args.opponent,
                             precision=args.precision or None,
                             max_rollouts=args.max_rollouts,
                             progress=lambda k, n: say(f"reviewing decision {k} of {n}"))
    data = review.to_json()
    if out is not None:
        _write_out(out, data)
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        print(review_text(data))
        if out is not None:
            print(f"review written to {out / 'review.html'} and {out / REVIEW_JSON}")
    return 0


def _rate(args: argparse.Namespace) -> int:
    from ..analysis.review.rating import DEFAULT_OPPONENT, rate_player

    with ReviewProgress(args.quiet) as say:
        rating = rate_player(args.strategy, args.opponent or DEFAULT_OPPONENT, args.games,
                             args.seed, rules=args.rules, rollouts=args.rollouts,
                             precision=args.precision or None,
                             max_rollouts=args.max_rollouts, progress=say)
    data = rating.to_json()
    if args.json:
        print(json.dumps(data, indent=1))
        return 0
    s = data["summary"]
    print(f"{args.strategy} reviewed over {s['games']} games against {rating.opponent} "
          f"({rating.rules.spec()} rules, seed {rating.seed}): {s['decisions']} decisions")
    print(f"Error rate: {s['mean_loss']:.3f} points a decision (95% CI {s['ci'][0]:.3f} to "
          f"{s['ci'][1]:.3f}, clustered by game): {s['band']} (bands: docs/review.md)")
    print(class_table(s["classes"]))
    return 0


def _checked_out(out: str | None) -> Path | None:
    """The --out folder, checked before the review's work: new (its parent existing) or
    an existing folder; nothing is made until the review is done."""
    if out is None:
        return None
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise UsageError(f"--out {out} is a file: give a folder (new or existing)")
    if not path.exists() and not path.parent.is_dir():
        raise UsageError(f"--out {out}: its parent folder {path.parent} does not exist")
    return path


def _write_out(out: Path, data: dict) -> None:
    """review.json and review.html, each written whole (the folder made only now)."""
    from ..game.inputs.files import write_text_atomic
    from ..reports.review_page import review_html

    page = review_html(data)  # built before anything is written
    out.mkdir(exist_ok=True)
    write_text_atomic(out / REVIEW_JSON, json.dumps(data, indent=1))
    try:
        write_text_atomic(out / "review.html", page)
    except OSError:  # a review that fails writes nothing: the JSON goes too
        (out / REVIEW_JSON).unlink(missing_ok=True)
        raise


class ReviewProgress:
    """A status on stderr while the review runs (``say(text)`` renews it), through the
    runner's ticker; silent with ``quiet``."""

    def __init__(self, quiet: bool) -> None:
        from ..runner.kernels.waiting import Ticker

        self.text = "starting the review"
        self.ticker = None if quiet else Ticker(lambda: self.text)

    def __enter__(self):
        if self.ticker is not None:
            self.ticker.__enter__()
        return self.say

    def say(self, text: str) -> None:
        self.text = text

    def __exit__(self, *exc: object) -> None:
        if self.ticker is not None:
            self.ticker.__exit__(*exc)


def class_table(classes: dict[str, dict[str, int]]) -> str:
    """Counts per class (rows) and kind of decision (columns), with totals."""
    kinds = list(next(iter(classes.values())))
    lines = [f"  {'':<11}" + "".join(f"{k:>9}" for k in kinds) + f"{'all':>7}"]
    for name, row in classes.items():
        lines.append(f"  {name:<11}" + "".join(f"{row[k]:>9}" for k in kinds)
                     + f"{sum(row.values()):>7}")
    return "\n".join(lines)


def review_text(data: dict) -> str:
    """The terminal summary of a review's JSON: who and how, the error rate, the classes
    by kind, the knock decisions beside the knock card, the flagged decisions."""
    s = data["summary"]
    within = ("" if s["within_precision"] is None else
              f", {100 * s['within_precision']:.0f}% of decisions within "
              f"±{data['precision']:g}")
    lines = [f"Review of seat {data['seat']} ({data['seat_name']}), {data['rules']} rules; "
             f"the opponent played as {data['model']}; {s['mean_rollouts'] or 0:,.0f} rollouts a "
             f"decision on average (the loss of each move made known within "
             f"±{s['loss_half_median'] or 0:.2f} points at the median decision, "
             f"±{s['loss_half_widest'] or 0:.2f} at the widest{within}); "
             f"{data['seconds']:.0f} s",
             f"{s['decisions']} decisions reviewed ({s['skipped']} moves with nothing to "
             f"weigh)"]
    if s["decisions"]:
        lines.append(f"Error rate: {s['mean_loss']:.3f} points a decision (95% CI "
                     f"{s['ci'][0]:.3f} to {s['ci'][1]:.3f})"
                     + ("" if s["mean_game_loss"] is None else
                        f"; game chance lost {100 * s['mean_game_loss']:.2f}% a decision"))
        lines.append(class_table(s["classes"]))
    lines += knock_lines(s)
    lines += flagged_lines(data)
    return "\n".join(lines)


def knock_lines(summary: dict) -> list[str]:
    """The knock decisions beside the knock card's answer."""
    knocks = summary["knocks"]
    if not knocks:
        return []
    card = summary["knock_card"] or "no shipped card for these rules"
    lines = [f"Knock decisions (the seat / the advisor / the knock card {card}):"]
    for k in knocks:
        lines.append(f"  hand {k['hand']}, stock {k['stock_left']}: {k['chosen']} / "
                     f"{k['advisor']} / {k['knock_card'] or '-'}")
    return lines


def flagged_lines(data: dict) -> list[str]:
    """The flagged decisions, the worst :data:`FLAGGED_SHOWN` in game order: the move,
    the best (a knock decision's best that plays on says so), the loss and class, the
    position."""
    lines: list[str] = []
    flagged = [d for d in data["decisions"] if d["class"] in ("inaccuracy", "mistake",
                                                               "blunder")]
    if flagged:
        lines.append("Flagged decisions (loss in points this hand):")
        worst = sorted(flagged, key=lambda d: -d["loss"])[:FLAGGED_SHOWN]
        for d in sorted(worst, key=lambda d: d["index"]):
            p = d["position"]
            best = d["best"] + (" and play on" if d["kind"] == "knock" and not d[
                "best"].startswith(("knock", "go gin")) else "")
            lines.append(f"  #{d['index']} hand {d['hand']} {d['kind']}: {d['chosen']}; best: "
                         f"{best}; loss {d['loss']:.2f} ({d['class']}); hand "
                         f"{' '.join(p['hand'])}" + (f" + {p['drawn']}" if p["drawn"] else "")
                         + f", pile {p['pile_top'] or '-'}, stock {p['stock_left']}")
        if len(flagged) > FLAGGED_SHOWN:
            lines.append(f"  ... {len(flagged) - FLAGGED_SHOWN} more in the JSON (--json, "
                         f"--out)")
    return lines
