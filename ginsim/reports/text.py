"""Text for reports: numbers for people, Markdown-like prose to HTML, and tables.

Tables shown in a report are "for people": human headers, rates in %, points with two
decimals, intervals as "12.3% (11.9–12.7)", a dash for an empty cell and never
scientific notation. The CSV beside the report keeps every digit (see ``builder``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from ..number_text import (
    MISSING,
    format_interval,
    format_number,
    format_percent,
    format_points,
)

_CODE = re.compile(r"`([^`\n]+)`")
#: A word of at most 32 characters holding a hyphen, dash or slash.
_JOINED = re.compile(r"(?<!\S)(?=\S{1,32}(?!\S))\S*[-/–]\S*")
_BLANK_LINES = re.compile(r"\n\s*\n")
_BRACKET = re.compile(r"\([^()]*\)")

#: column name -> header shown to people
HEADERS = {
    "deadwood": "Deadwood", "stock": "Stock left", "n": "n", "rate": "Rate",
    "undercuts": "Undercuts", "threshold": "Knock threshold", "opponent": "Opponent",
    "mean": "Points per hand", "undercut_rate": "Own knocks undercut",
    "opponent_undercut_rate": "Opponent's knocks undercut",
    "best_threshold": "Best threshold", "runner_up": "Runner-up threshold",
    "runner_up_mean": "Runner-up points per hand", "threshold_a": "Own threshold",
    "threshold_b": "Opponent's threshold", "gain": "Gain of knocking now",
    "verdict": "Verdict", "bucket": "Stock bucket", "label": "Pairing", "outcome": "Outcome",
    "hands": "Hands", "turns": "Draws in the hand", "count": "Hands", "share": "Share",
    "strategy": "Strategy", "variant": "Rules", "statistic": "Statistic",
    "value": "Value", "p_knock": "Knock probability", "field": "Rule", "setting": "Setting",
    "deals": "Deals", "wins": "Wins", "seat": "Seat",
}
#: statistic code -> (label, kind): kind "pct" (a 0..1 rate) or "points"/"number"
STATISTICS = {
    "p_a_wins_game": ("Win probability (player a)", "pct"),
    "mean_margin_a": ("Mean game margin for a (points)", "points"),
    "mean_hands": ("Hands per game", "number"),
    "rate_shutout": ("Shutout rate", "pct"),
    "gin_rate": ("Gin rate", "pct"), "undercut_rate": ("Undercut rate", "pct"),
    "dead_rate": ("Dead-hand rate", "pct"), "mean_draws": ("Draws per hand", "number"),
    "mean_points": ("Points per hand, both players", "points"),
    "points_a": ("Points per hand, seat a", "points"),
    "points_b": ("Points per hand, seat b", "points"),
    "points_a_minus_b": ("Seat a minus seat b, per hand", "points"),
}
RATE_COLUMNS = {"rate", "share", "undercut_rate", "opponent_undercut_rate", "p_knock"}
POINT_COLUMNS = {"mean", "gain", "runner_up_mean"}
FOLD_ROWS = 20  # tables longer than this fold behind a details element in HTML


def format_cell(value: object) -> str:
    """Any table cell as text: floats via :func:`format_number`, integers with commas."""
    if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)):
        return MISSING
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        if float(value).is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
        return format_number(float(value))
    return str(value)


def header(column: str) -> str:
    """The header people see for a column name."""
    if column in HEADERS:
        return HEADERS[column]
    words = str(column).replace("_", " ")
    return words[:1].upper() + words[1:]


TOO_FEW = "too few"  # what a table row under its ``min_n`` reads


def people_table(table: pd.DataFrame, min_n: int | None = None) -> pd.DataFrame:
    """``table`` as text for people: a ``value``/``mean``/``rate`` column with ``low`` and
    ``high`` becomes one "value (low–high)" column; rates in %, points with two decimals,
    statistic codes in words, human headers. With ``min_n``, a row whose ``n`` is
    smaller reads "too few": its ``verdict``, or else its value ("too few: 6.1% (...)")."""
    frame = table.reset_index(drop=True)
    out: dict[str, list[str]] = {}
    has_interval = {"low", "high"} <= set(frame.columns)
    centre = next((c for c in ("rate", "mean", "value", "gain") if c in frame.columns), None)
    for column in frame.columns:
        if has_interval and column in ("low", "high"):
            continue
        values = frame[column]
        if column == centre and has_interval:
            kinds = _row_kinds(frame, column)
            title = header(column) + " (95% CI)"
            out[title] = [format_interval(float(v), float(lo), float(hi), k)
                          for v, lo, hi, k in zip(values, frame["low"], frame["high"], kinds,
                                                  strict=True)]
        else:
            cell = _cell_format(column)
            out[header(column)] = [cell(v) for v in values]
    if min_n is not None and "n" in frame.columns:
        _call_too_few(out, (frame["n"].fillna(0) < min_n).to_numpy(),
                      "verdict" in frame.columns, centre)
    return pd.DataFrame(out)


def _call_too_few(out: dict[str, list[str]], few: np.ndarray, has_verdict: bool,
                  centre: str | None) -> None:
    """Mark the ``few`` rows of a people table "too few": the verdict replaced, or else
    the value (the centre column with its interval) prefixed."""
    if has_verdict:
        column = header("verdict")
        out[column] = [TOO_FEW if f else v for v, f in zip(out[column], few, strict=True)]
        return
    column = next((h for h in out if centre and h.startswith(header(centre) + " (")), None)
    if column is not None:
        out[column] = [f"{TOO_FEW}: {v}" if f else v
                       for v, f in zip(out[column], few, strict=True)]


def _cell_format(column: str) -> Callable[[Any], str]:
    """How :func:`people_table` writes a cell of ``column`` (other than an interval)."""
    if column == "statistic":
        return lambda v: STATISTICS.get(str(v), (str(v), ""))[0]
    if column in RATE_COLUMNS:
        return lambda v: format_percent(float(v))
    if column in POINT_COLUMNS:
        return lambda v: format_points(float(v), signed=True)
    if column == "outcome":
        return lambda v: str(v).replace("_", " ")
    return format_cell


def _row_kinds(frame: pd.DataFrame, column: str) -> list[str]:
    if column == "rate":
        return ["pct"] * len(frame)
    if column in ("mean", "gain"):
        return ["points"] * len(frame)
    if "statistic" in frame.columns:
        return [STATISTICS.get(str(s), ("", "number"))[1] or "number"
                for s in frame["statistic"]]
    return ["number"] * len(frame)


def _keep_together(text: str) -> str:
    return _JOINED.sub(r'<span class="nb">\g<0></span>', text)


def inline_html(text: str) -> Markup:
    """Escape ``text``, turn `backtick` spans into <code> elements and keep short words
    with a hyphen, dash or slash (``6-8``, ``--seed``, ``a/b``) on one line, which a
    browser would otherwise break after the hyphen on a narrow page."""
    pieces = _CODE.split(str(escape(text)))
    return Markup("".join(f"<code>{_keep_together(piece)}</code>" if i % 2 else
                          _keep_together(piece) for i, piece in enumerate(pieces)))


def prose_html(text: str) -> Markup:
    """Paragraphs (split on blank lines) of :func:`inline_html` text."""
    paragraphs = [p.strip() for p in _BLANK_LINES.split(text.strip()) if p.strip()]
    return Markup("\n").join(Markup("<p>{}</p>").format(inline_html(p)) for p in paragraphs)


def table_html(table: pd.DataFrame) -> Markup:
    """An HTML table (no index) of an already formatted table, with class ``data`` (and
    ``text`` when no column after the first holds numbers: left-aligned, wrapping).
    Every cell carries its column's header as ``data-label``, so a narrow page can stack
    each row as label/value lines instead of hiding columns in a scroller; a short word
    with a hyphen or slash (``--seed``, ``A-2-3``) and a header's bracket stay on one
    line."""
    numbers = any(_numeric_looking(table[c]) for c in table.columns[1:])
    labels = [escape(_bracket_whole(str(c))) for c in table.columns]
    head = "".join(f"<th>{label}</th>" for label in labels)
    rows = []
    for row in table.itertuples(index=False, name=None):
        cells = "".join(f'<td data-label="{label}">{_cell_text(v)}</td>'
                        for label, v in zip(labels, row, strict=True))
        rows.append(f"<tr>{cells}</tr>")
    cls = "data" if numbers else "data text"
    return Markup(f'<table class="{cls}"><thead><tr>{head}</tr></thead>'
                  f'<tbody>{"".join(rows)}</tbody></table>')


def _bracket_whole(text: str) -> str:
    """``text`` with the spaces inside each bracket made non-breaking, so a header such
    as "Points per hand (95% CI)" never breaks between "(95%" and "CI)"."""
    return _BRACKET.sub(lambda m: m.group(0).replace(" ", "\u00a0"), text)


def _cell_text(value: object) -> str:
    """A table cell's escaped text, short hyphenated words kept whole; held in one span
    when it has such words, so a narrow page's label/value row has one value item."""
    text = _keep_together(str(escape(format_cell(value))))
    return f"<span>{text}</span>" if "<span" in text else text


def markdown_table(table: pd.DataFrame) -> str:
    """A Markdown pipe table; numeric columns right-aligned."""
    header_row = [_md_cell(str(c)) for c in table.columns]
    align = ["---:" if _numeric_looking(table[c]) else "---" for c in table.columns]
    lines = [_md_row(header_row), _md_row(align)]
    for row in table.itertuples(index=False, name=None):
        lines.append(_md_row([_md_cell(format_cell(v)) for v in row]))
    return "\n".join(lines)


def _numeric_looking(column: pd.Series) -> bool:
    if pd.api.types.is_numeric_dtype(column):
        return True
    text = column.astype(str)
    return bool(len(text)) and bool(text.str.match(rf"^([-+−<]?[\d,.]+|{MISSING})").all())


def _md_cell(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    return text.replace("<", "&lt;")


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


_CARD_CELL = re.compile(r"(?P<action>\S+)(?: \((?P<n>[\d,]+)\))?")


def card_table_html(grid: pd.DataFrame, columns: str = "Cards left in the stock") -> Markup:
    """One knock-card panel as an HTML table: rows deadwood, columns stock left (named
    ``columns`` in a header above them), each cell's action as its text and its class
    (``act-KNOCK``, ``act-wait``, ``act-either``), and a cell's n (``"either (412)"``)
    on a line of its own under the action."""
    head = "".join(f'<th scope="col">{escape(str(c))}</th>' for c in grid.columns)
    rows = []
    for deadwood, cells in grid.iterrows():
        tds = []
        for value in cells:
            found = _CARD_CELL.fullmatch(str(value))
            action, n = (found["action"], found["n"]) if found else (str(value), None)
            count = f'<span class="n">{escape(n)}</span>' if n else ""
            tds.append(f'<td class="act-{escape(action)}"><span class="act">'
                       f'{escape(action)}</span>{count}</td>')
        rows.append(f'<tr><th scope="row">{escape(str(deadwood))}</th>{"".join(tds)}</tr>')
    axis = (f'<tr class="axis"><td></td><th scope="colgroup" colspan="{len(grid.columns)}">'
            f'{escape(columns)} →</th></tr>')
    return Markup(f'<table class="card-grid"><thead>{axis}<tr><th scope="col">Deadwood</th>'
                  f'{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def csv_ready(table: pd.DataFrame, digits: int = 6) -> pd.DataFrame:
    """``table`` for a CSV file: floats rounded to ``digits`` decimals (the figures carry
    no more: a 95% interval of millions of hands is wider than 1e-4), so float noise
    such as 1e-19 is written 0 and no value is a negative zero."""
    out = table.copy()
    for column in out.columns:
        if pd.api.types.is_float_dtype(out[column]):
            out[column] = out[column].round(digits) + 0.0
    return out
