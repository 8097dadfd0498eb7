"""Text for reports: numbers, Markdown-like prose to HTML, and Markdown pipe tables."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
from markupsafe import Markup, escape

_CODE = re.compile(r"`([^`\n]+)`")
_BLANK_LINES = re.compile(r"\n\s*\n")
MISSING = "–"


def format_number(value: float) -> str:
    """A float for a table: thousands separators when large, about 3 significant digits."""
    if math.isnan(value):
        return MISSING
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    size = abs(value)
    if size >= 1000:
        return f"{value:,.0f}"
    if size < 1:
        return "0" if size == 0 else f"{value:.3g}"
    text = f"{value:.{1 if size >= 10 else 2}f}"
    return text.rstrip("0").rstrip(".")


def format_cell(value: object) -> str:
    """Any table cell as text: floats via :func:`format_number`, integers with commas."""
    if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)):
        return MISSING
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        return format_number(float(value))
    return str(value)


def inline_html(text: str) -> Markup:
    """Escape ``text`` and turn `backtick` spans into <code> elements."""
    escaped = str(escape(text))
    return Markup(_CODE.sub(r"<code>\1</code>", escaped))


def prose_html(text: str) -> Markup:
    """Paragraphs (split on blank lines) of :func:`inline_html` text."""
    paragraphs = [p.strip() for p in _BLANK_LINES.split(text.strip()) if p.strip()]
    return Markup("\n").join(Markup("<p>{}</p>").format(inline_html(p)) for p in paragraphs)


def table_html(table: pd.DataFrame) -> Markup:
    """An HTML table (no index, formatted numbers) with class ``data``."""
    numeric = [c for c in table.columns if pd.api.types.is_numeric_dtype(table[c])]
    html = table.to_html(index=False, classes="data", border=0, na_rep=MISSING,
                         formatters=dict.fromkeys(numeric, format_cell), escape=True,
                         justify="left")
    return Markup(html)


def markdown_table(table: pd.DataFrame) -> str:
    """A Markdown pipe table; numeric columns right-aligned."""
    header = [_md_cell(str(c)) for c in table.columns]
    align = ["---:" if pd.api.types.is_numeric_dtype(table[c]) else "---" for c in table.columns]
    lines = [_md_row(header), _md_row(align)]
    for row in table.itertuples(index=False, name=None):
        lines.append(_md_row([_md_cell(format_cell(v)) for v in row]))
    return "\n".join(lines)


def _md_cell(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    return text.replace("<", "&lt;")


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"
