"""What the ``ginsim`` command prints: listings, result summaries and tables as lines.

Each function takes results the API returned and gives the lines to print, so the
command line only parses, calls and prints. A missing value prints as ``n/a``.
"""

from __future__ import annotations

import re
import shutil
import sys
import textwrap

from ..number_text import NA, num, pct


def small_sample_note(what: str) -> str:
    """The note printed when some 95% intervals of a run cannot be computed."""
    return f"note: {what} is too small a sample for some 95% intervals; they print {NA}"


def interval(row, fmt: str = ".3f", width: str = "7") -> str:
    """``value [low, high]`` of a statistics row."""
    return (f"{num(row.value, width + fmt)}  [{num(row.low, fmt)}, {num(row.high, fmt)}]")


def simulation_lines(a: str, b: str, rules_text: str, hands: int, seed: int,
                     duplicate: bool, records: str, out: str | None, run, summary,
                     version: str) -> list[str]:
    """The summary of ``ginsim simulate``: the run, outcome shares and points, each with
    its 95% interval (``summary`` indexed by statistic)."""
    lines = [f"ginsim {version}: {a} (seat a) vs {b} (seat b), rules {rules_text}, "
             f"{hands:,} hands, seed {seed}" + (", duplicate deals" if duplicate else "")]
    wall = run.wall_s
    rate = run.hands_played / wall if wall > 0 else float("inf")
    workers = "a Dask cluster" if run.backend == "dask" else (
        f"{run.workers} worker{'s' if run.workers > 1 else ''} ({run.backend})")
    if run.hands_played:
        lines.append(f"played {run.hands_played:,} hands in {wall:.2f} s: {rate:,.0f} hands/s "
                     f"on {workers}, {records} records")
    else:
        lines.append("nothing left to play")
    if run.hands_resumed:
        lines.append(f"resumed: {run.hands_resumed:,} hands ({run.chunks_resumed} chunks) "
                     f"were already stored in {out}")
    if out:
        lines.append(f"stored in {out} (load with ginsim.load({str(out)!r}))")
    if duplicate and "played twice" in str(summary.attrs.get("basis", "")):
        lines.append(f"counted by deal: {summary.attrs['basis']}")
    lines.append("outcome shares (95% CI):")
    for outcome in ("knock", "gin", "big_gin", "undercut", "dead"):
        row = summary.loc[f"rate_{outcome}"]
        lines.append(f"  {outcome:<9} {pct(row.value):>7}  [{pct(row.low)}, {pct(row.high)}]")
    lines.append("mean points per hand (95% CI):")
    paired = "mean_points_a_minus_b_paired" in summary.index
    for key, label in (("mean_points_a", f"seat a ({a})"), ("mean_points_b", f"seat b ({b})"),
                       ("mean_points_a_minus_b_paired" if paired else "mean_points_a_minus_b",
                        "a minus b")):
        row = summary.loc[key]
        how = f"  paired by deal, {int(row.deals):,} deals" if key.endswith("_paired") else ""
        lines.append(f"  {label:<28} {interval(row)}{how}")
    lines.append(f"mean draws per hand: {interval(summary.loc['mean_turns'], '.2f', '')}")
    return lines


def player_lines(players, doc: str, width: int = 100) -> list[str]:
    """``ginsim strategies``' first part: who the five most used players are, what each
    does and how strong it is, with the command that measured the figure
    (``players``: :data:`ginsim.strategies.players.PLAYERS`; ``doc`` where they are
    reported)."""
    import textwrap

    lines = [f"who are these players (games won with their 95% CI, measured as {doc} "
             "reports):"]
    for p in players:
        lines += textwrap.wrap(f"{p.name:<12} {p.does}", width, initial_indent="  ",
                               subsequent_indent=" " * 15)
        lines += [" " * 15 + p.strength, " " * 15 + f"measured by: {p.command}"]
    return lines


def strategy_lines(presets: dict, parameters: dict) -> list[str]:
    """``ginsim strategies``: every preset with its words, every parameter with its
    default and help."""
    lines = ["presets:"]
    for name, (text, spec) in presets.items():
        lines.append(f"  {name:<14} {text}" + (f" [{spec}]" if spec else ""))
    lines.append("parameters (write preset:key=value,...):")
    for p in parameters.values():
        alias = f" (alias {', '.join(p.aliases)})" if p.aliases else ""
        if p.choices:
            default = p.choices[int(p.default[0])]
        else:
            default = "/".join(f"{v:g}" for v in dict.fromkeys(p.default))
        lines.append(f"  {p.name:<14} default {default}{alias}: {p.help} [{p.listing}]")
    return lines


def two_player_game_lines(head: str, summary) -> list[str]:
    """``ginsim games`` for two players under the standard system (``summary`` indexed by
    statistic)."""
    labels = {"p_a_wins_game": "P(a wins the game)", "mean_margin_a": "mean margin for a",
              "mean_hands": "hands per game", "rate_shutout": "shutouts"}
    lines = [head]
    for key, label in labels.items():
        row = summary.loc[key]
        if key.startswith(("p_", "rate_")):
            lines.append(f"  {label:<20} {pct(row.value):>9}  [{pct(row.low)}, "
                         f"{pct(row.high)}]")
        else:
            lines.append(f"  {label:<20} {interval(row, '.2f', '9')}")
    return lines


def rules_lines(presets: dict, rules_class: type, dependent: dict[str, str],
                max_game_stock_floor: int) -> list[str]:
    """``ginsim rules``: the presets with their words, the fields of ``rules_class`` (a
    dataclass) and which fields interact (``dependent``: field -> the switch it needs)."""
    from dataclasses import fields

    lines = ["rules presets (use --rules NAME, or rules=NAME in Python):"]
    lines += [f"  {name:<13} {text}" for name, (text, _) in presets.items()]
    lines.append("change fields after a colon: --rules 'modern:undercut_on_tie=false,"
                 "undercut_bonus=10'")
    lines.append(f"fields: {', '.join(f.name for f in fields(rules_class))}")
    needs = "; ".join(
        f"{', '.join(n for n, s in dependent.items() if s == switch)} need {switch}"
        for switch in dict.fromkeys(dependent.values()))
    lines.append("fields that interact (a conflict is refused, not resolved silently): "
                 "oklahoma sets the knock limit from the upcard, so knock_limit stays 10 "
                 f"with it; {needs}; mahjong has no knocking; whole games take stock_floor "
                 f"at most {max_game_stock_floor}")
    return lines


def game_mode_lines(summary, head: str, names: list[str], system: str, team_target: int,
                    match_total: int) -> list[str]:
    """``ginsim games`` for three players, two teams, Hollywood sessions or multi-matches
    (``summary`` indexed by group and statistic; ``head`` the line's common start)."""
    def rate(group: str, statistic: str) -> str:
        row = summary.loc[(group, statistic)]
        return f"{pct(row.value)} [{pct(row.low)}, {pct(row.high)}]"

    def value(group: str, statistic: str) -> float:
        return float(summary.loc[(group, statistic)].value)

    if len(names) == 3:
        return [head + f"three-player games: {', '.join(names)}"] + [
            f"  player {p} ({name}): wins {rate(f'player {p}', 'p_wins')}, mean score "
            f"{value(f'player {p}', 'mean_score'):.1f}" for p, name in enumerate(names)]
    if len(names) == 4:
        return [head + f"team games to {team_target}: ({names[0]}, {names[1]}) vs "
                       f"({names[2]}, {names[3]})",
                f"  team 1 wins {rate('team 1', 'p_wins')}; mean rounds "
                f"{value('team 1', 'mean_rounds'):.1f}"]
    a, b = names
    if system == "hollywood":
        return [head + f"Hollywood sessions: {a} (a) vs {b} (b)"] + [
            f"  game {c}: a wins {rate(f'game {c}', 'p_a_wins')}, mean margin for a "
            f"{value(f'game {c}', 'mean_margin_a'):+.1f}" for c in (1, 2, 3)]
    return [head + f"multi-matches to {match_total}: {a} (a) vs {b} (b)",
            f"  a wins {rate('a', 'p_a_wins')}; mean matches "
            f"{value('a', 'mean_matches'):.2f}, mean hands {value('a', 'mean_hands'):.1f}"]


def chart_text(chart, min_cell: int) -> str:
    """The knock chart as a text grid: rows deadwood, columns stock left in play order;
    each cell the gain of knocking now with K (knock), w (wait), ? (unclear), or . when
    fewer than ``min_cell`` decisions."""
    stocks = list(chart["stock"].cat.categories)
    present = [s for s in stocks if (chart["stock"] == s).any()]
    lines = ["gain of knocking now over waiting a turn (points); K knock, w wait, "
             f"? unclear, . fewer than {min_cell} decisions",
             "deadwood | " + " ".join(f"{s:>8}" for s in present)]
    cells = {(int(r.deadwood), str(r.stock)): r for r in chart.itertuples()}
    for d in sorted(chart["deadwood"].unique()):
        row = []
        for s in present:
            r = cells.get((int(d), s))
            if r is None or r.n < min_cell:
                row.append(f"{'.':>8}")
            else:
                mark = {"knock": "K", "wait": "w"}.get(r.verdict, "?")
                row.append(f"{r.gain:+6.1f} {mark}")
        lines.append(f"{int(d):>8} | " + " ".join(row))
    return "\n".join(lines)


def report_written_line(paths: dict, replacing: bool, seconds: float,
                        parts: list[dict[str, float]] | None = None) -> str:
    """The last line of ``ginsim report``: where the report went and how long it took
    (``paths``: the files written, report.html and report.md among them), split as the
    report's Methods states it (``parts``: each study's ``seconds``: running the study,
    compiling kernels first) and the rest (loading, writing)."""
    line = (f"report {'replaced' if replacing else 'written'}: {paths['report.html']} (and "
            f"report.md, {len(paths) - 2} figures and tables) in {seconds:.1f} s")
    study = sum(p.get("study", 0.0) for p in parts or ())
    if not study:
        return line
    compiling = max((p.get("compiling", 0.0) for p in parts), default=0.0)
    split = [f"{study:.1f} s running the {'study' if len(parts) == 1 else 'studies'}"]
    if compiling:
        split.append(f"{compiling:.1f} s compiling kernels (first run only)")
    split.append(f"{max(seconds - study - compiling, 0.0):.1f} s loading and writing")
    return f"{line}: {', '.join(split)}"


def advice_lines(table) -> list[str]:
    """The advisor's table: each option's deadwood kept, expected points with its 95%
    interval, undercut and opponent-gin chances (and, with a score, its chance of
    winning the game), the best marked: "best" where its interval clears the others',
    "close" where another's overlaps it."""
    game = "game_win" in table
    lines = ["expected = your points minus the opponent's in this hand, per option"
             + ("; game = your chance of winning the game" if game else ""),
             f"{'option':<24} {'kept':>4} {'expected':>9} {'95% CI':>18} {'undercut':>9} "
             f"{'opp. gin':>9}" + (f" {'game':>7}" if game else "")]
    for r in table.itertuples():
        mark = "  <= best" if r.recommended else ("  <= close" if r.close else "")
        kept = "" if r.deadwood < 0 else str(r.deadwood)
        lines.append(f"{r.option:<24} {kept:>4} {r.expected_points:+9.2f} "
                     f"[{r.low:+7.2f}, {r.high:+7.2f}] {r.p_undercut:9.2%} "
                     f"{r.p_opponent_gin:9.2%}" + (f" {r.game_win:7.1%}" if game else "")
                     + mark)
    return lines


#: Card texts (``KD``, ``10D``, ``TD``) and the spans never split across lines: an
#: interval with its label (``95% CI [-0.03, +5.55]``), any bracketed group (a meld, an
#: interval) and a run of card texts (a card list).
_CARD = r"(?:10|[2-9TJQKA])[SHDC]"
_UNSPLIT = re.compile(rf"(?:\d+(?:\.\d+)?% CI )?\[[^\[\]]*\]|\b{_CARD}(?: {_CARD}\b)+")
_KEEP = "\x00"  # stands for a space that must not break while wrapping


def terminal_width(default: int = 100) -> int:
    """The window's width in columns (``COLUMNS`` or the terminal's; ``default`` when
    the output is no terminal), at least 20."""
    return max(20, shutil.get_terminal_size((default, 24)).columns)


def wrap_text(text: str, width: int | None = None) -> str:
    """``text`` wrapped to ``width`` columns (the window's by default), each line on its
    own, a continued line indented two more than its first: never inside a number, a
    bracketed group such as a meld or ``95% CI [-0.03, +5.55]``, or a list of cards
    (such a span longer than a line gets a line of its own)."""
    width = width or terminal_width()
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip(" "))]
        kept = _UNSPLIT.sub(lambda m: m.group(0).replace(" ", _KEEP), line.strip(" "))
        lines = textwrap.wrap(kept, width, initial_indent=indent,
                              subsequent_indent=indent + "  ", break_long_words=False,
                              break_on_hyphens=False)
        out += [w.replace(_KEEP, " ") for w in lines] or [""]
    return "\n".join(out)


def write_wrapped(text: str) -> None:
    """Print ``text`` wrapped to the window (:func:`wrap_text`)."""
    print(wrap_text(text), flush=True)


def read_line(prompt: str, echo: int = 200) -> str | None:
    """A line typed after ``prompt`` (wrapped to the window); None at the end of input
    (Ctrl-D), the prompt's line then ended. Read from a pipe, the line's first ``echo``
    characters are printed after the prompt, so the output reads as a transcript."""
    if len(prompt) > terminal_width():
        *head, prompt = wrap_text(prompt.rstrip()).split("\n")
        print("\n".join(head))
        prompt += " "
    try:
        line = input(prompt)
    except EOFError:
        print()
        return None
    if not sys.stdin.isatty():
        print(line[:echo])
    return line
